"""A battle of ruleset 002 in progress: side A and B take each phase in turn, step by step.

The outer shape is the 1813 battle's: the state is the setup's starting state with every kept
:class:`~campaign1813.campaign.battle.core.steps.Step` applied in order (:func:`replay`), and
:func:`act` takes one umpire action and returns the step to keep (refused with
``ActionRefused`` naming what and why). Rolls come from the step's own seeded dice, or from the
umpire's typed rolls, all of which the step must use.

Each turn (seed 002, "Sequence of play"): one D6 (or the umpire's coin) finds side A; then
movement (A, B), the shooting steps in their order (artillery, skirmishers, stationary infantry,
infantry that moved; A then B in each), cavalry charges (A, B) and rally (A, B). ``next`` ends
a step. A side wins the moment it has eliminated half of the enemy's starting units (rounded
up); after the last turn the side that eliminated more wins, equal numbers are a draw.

>>> ACTIONS[:3]
('deploy', 'attach', 'sides')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from math import ceil
from typing import Any

import msgspec

from campaign1813.campaign.battle.core.engine import Decision
from campaign1813.campaign.battle.core.outcome import Outcome as BattleOutcome
from campaign1813.campaign.battle.core.outcome import Termination
from campaign1813.campaign.battle.core.results import BrigadeOutcome
from campaign1813.campaign.battle.core.steps import (
    ActionRefused,
    Step,
    patched,
    roll_for,
    seeded,
    state_patch,
)
from campaign1813.campaign.battle.dice import DiceSource, ImpossibleRoll, Roll, TypedDice
from campaign1813.campaign.battle.files import rulesets_root
from campaign1813.campaign.battle.ruleset002.charges import Charge, applying, charge, charge_odds
from campaign1813.campaign.battle.ruleset002.convert import SIDES, Army, convert
from campaign1813.campaign.battle.ruleset002.movement import Move, check_move
from campaign1813.campaign.battle.ruleset002.rally import Rally, check_rally
from campaign1813.campaign.battle.ruleset002.shooting import Shot, shoot, shot_odds, shot_text
from campaign1813.campaign.battle.ruleset002.tables import Tables, tables
from campaign1813.campaign.battle.ruleset002.units import INFANTRY_KINDS, Ground, UnitKind
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup
from campaign1813.campaign.battle.terms import MoraleState, Role
from campaign1813.campaign.words import with_article

__all__ = ["ACTIONS", "Phase", "UnitNow", "BattleState", "Outcome", "act", "replay", "report",
           "decision", "sequence", "step_now", "needed", "eliminated_count", "army_of",
           "Typed", "units_table", "who_acts", "outcomes", "arrival_turn", "arrived",
           "general_arrival"]

ACTIONS = ("deploy", "attach", "sides", "move", "shoot", "charge", "rally", "next", "override")

Typed = Sequence[int | tuple[int, ...]]
GENERAL = "General"


class Phase:
    """Where the battle stands."""

    SETUP = "setup"
    PLAY = "play"
    FINISHED = "finished"


def sequence(ruleset: str = "002") -> tuple[tuple[str, str], ...]:
    """The steps of a turn as (step, "A" or "B"), in the seed's order."""
    t = tables(ruleset)
    names = ("movement", *t.steps, "charges", "rally")
    return tuple((name, ab) for name in names for ab in ("A", "B"))


@dataclass(frozen=True)
class UnitNow:
    """A unit now: hits, ground, marker, what it did this turn, whether eliminated."""

    hits: int = 0
    ground: Ground = Ground.OPEN
    place: str = ""
    engaged: bool = False
    moved: bool = False
    shot: bool = False
    charged: int = 0
    charged_out: bool = False
    retired: bool = False
    eliminated: bool = False


@dataclass(frozen=True)
class BattleState:
    """Everything that changes during a battle of ruleset 002."""

    phase: str
    turn: int
    step: int
    side_a: str
    units: dict[str, UnitNow]
    commanders: dict[str, str]
    rallied: tuple[str, ...] = ()
    result: str = ""
    reason: str = ""

    @classmethod
    def start(cls, setup: BattleSetup, army: Army) -> BattleState:
        """The state before the first turn: units with the hits they bring."""
        return cls(Phase.SETUP, 0, -1, "", {u.key: UnitNow(u.hits) for u in army.units},
                   {x.key: x.unit for x in army.leaders if not x.general})


@dataclass(frozen=True)
class Outcome:
    """What an action computes before it is kept."""

    kind: str
    label: str
    state: BattleState
    lines: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)


_KEYED = ("units", "commanders")


@lru_cache(maxsize=64)
def army_of(setup: BattleSetup) -> Army:
    """The setup converted to seed 002's units."""
    return convert(setup, _ruleset(setup))


def _ruleset(setup: BattleSetup) -> str:
    if not (rulesets_root() / setup.ruleset / "units.toml").is_file():
        raise ActionRefused(f"{setup.title} is set up for ruleset '{setup.ruleset}', not for "
                            "one of seed 002's kind")
    return setup.ruleset


def _plain(state: BattleState) -> dict[str, Any]:
    return msgspec.to_builtins(state)  # type: ignore[no-any-return]


def _patch(before: BattleState, after: BattleState) -> dict[str, Any]:
    return state_patch(_plain(before), _plain(after), _KEYED)


def replay(setup: BattleSetup, steps: Sequence[Step]) -> BattleState:
    """The state after these steps."""
    return patched(_plain(BattleState.start(setup, army_of(setup))), (s.patch for s in steps),
                   _KEYED, BattleState)


def act(setup: BattleSetup, steps: Sequence[Step], action: str, *,
        typed: Typed | None = None, **inputs: Any) -> Step:
    """Take one action on the battle and return the step to keep."""
    if action not in ACTIONS:
        raise ActionRefused(f"'{action}' is not an action of ruleset 002 "
                            f"(actions: {', '.join(ACTIONS)})")
    army = army_of(setup)
    state = replay(setup, steps)
    if typed:
        # The faces of a best-of-two roll may come as one pair; each die is rolled on its own.
        typed = [face for value in typed
                 for face in (value if isinstance(value, tuple) else (value,))]
    source: DiceSource = TypedDice(list(typed)) if typed else seeded(setup, len(steps))
    if typed and action not in ("sides", "shoot", "charge"):
        raise ActionRefused(f"{action} rolls no dice; a typed roll is not taken")
    try:
        outcome = _ACTS[action](_Game(setup, army, tables(_ruleset(setup)), state), source,
                                inputs)
    except ImpossibleRoll as exc:
        raise ActionRefused(str(exc)) from None
    if isinstance(source, TypedDice) and source.remaining:
        assert typed is not None
        raise ActionRefused(f"{len(typed)} rolls typed, but the step used "
                            f"{len(typed) - source.remaining}")
    rolls = tuple((r.purpose, r.faces) for r in outcome.rolls)
    return Step(outcome.kind, outcome.label, outcome.lines, _patch(state, outcome.state),
                rolls, dict(outcome.inputs))


# -- the game's facts --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Game:
    setup: BattleSetup
    army: Army
    t: Tables
    state: BattleState

    def name(self, key: str) -> str:
        return self.army.unit(key).name

    def unit(self, key: str) -> UnitNow:
        if key not in self.state.units:
            raise ActionRefused(f"there is no unit '{key}' in {self.setup.title} "
                                f"(units are named like {next(iter(self.state.units))})")
        return self.state.units[key]

    def live(self, key: str) -> UnitNow:
        now = self.unit(key)
        if now.eliminated:
            raise ActionRefused(f"{self.name(key)} has been eliminated")
        due = arrival_turn(self.setup, key)
        if max(1, self.state.turn) < due:
            raise ActionRefused(f"{self.name(key)} is not yet on the table: its corps marches to "
                                f"the sound of the guns and arrives on turn {due} (seed 000), "
                                f"so it neither acts nor is acted on before then (turn "
                                f"{max(1, self.state.turn)})")
        return now

    def side(self, key: str) -> str:
        return self.army.unit(key).side

    def kind(self, key: str) -> UnitKind:
        return self.army.unit(key).kind

    def commander_of(self, key: str) -> str:
        return next((c for c, u in self.state.commanders.items() if u == key), "")

    def step(self) -> tuple[str, str]:
        """The current step and the side whose step it is."""
        s = self.state
        if s.phase == Phase.FINISHED:
            raise ActionRefused(f"the battle is finished ({s.result}: {s.reason})")
        if s.phase == Phase.SETUP or s.step < 0:
            raise ActionRefused(f"side A is not yet found for turn {max(1, s.turn)}: roll "
                                "for sides first")
        name, ab = sequence(self.t.name)[s.step]
        return name, s.side_a if ab == "A" else _other(s.side_a)

    def units_with(self, state: BattleState, key: str, now: UnitNow) -> BattleState:
        units = dict(state.units)
        units[key] = now
        return replace(state, units=units)


def _other(side: str) -> str:
    return ALLIED if side == FRENCH else FRENCH


def arrival_turn(setup: BattleSetup, key: str) -> int:
    """The turn a unit comes onto the table: its corps' (turn 4 for a corps marching to the
    sound of the guns, seed 000)."""
    return setup.corps_of(army_of(setup).unit(key).corps).turn


def general_arrival(setup: BattleSetup, army: Army, side: str) -> int:
    """The turn a side's General reaches the table: a CinC his headquarters' (turn 4 when it
    marches to the sound of the guns, seed 000), never before his army's first corps; a corps
    commander who is the General, his own corps'."""
    g = setup.commander(army.general(side).key)
    first = min((c.turn for c in setup.side_corps(side)), default=1)
    if g.role is Role.CINC:
        return max(g.turn, first)
    own = [c.turn for c in setup.side_corps(side) if c.commander == g.key]
    return min(own or [first])


def _general_here(g: _Game, side: str, what: str) -> None:
    """Refuse what the General does (rally, speed a move) before he is on the table."""
    due = general_arrival(g.setup, g.army, side)
    if max(1, g.state.turn) < due:
        raise ActionRefused(f"the {side} General ({g.army.general(side).name}) is not yet on "
                            f"the table: he marches to the sound of the guns and arrives on "
                            f"turn {due} (seed 000), so he {what} only from then (turn "
                            f"{max(1, g.state.turn)})")


def arrived(setup: BattleSetup, state: BattleState, key: str) -> bool:
    """Whether a unit is on the table in the state's turn (before the first, turn 1's)."""
    return max(1, state.turn) >= arrival_turn(setup, key)


def _side_word(text: str) -> str:
    t = str(text).strip().lower()
    if t in ("french", "f"):
        return FRENCH
    if t in ("allied", "allies", "a"):
        return ALLIED
    raise ActionRefused(f"'{text}' is not a side (French or Allied)")


def _need(inputs: Mapping[str, Any], key: str) -> str:
    value = inputs.get(key)
    if value is None or not str(value).strip():
        raise ActionRefused(f"say which {key.replace('_', ' ')} (the input '{key}' is missing)")
    return str(value)


def _flag(inputs: Mapping[str, Any], key: str) -> bool:
    value = inputs.get(key, False)
    if not isinstance(value, bool):
        raise ActionRefused(f"{key} should be true or false, not {value!r}")
    return value


def _inches(inputs: Mapping[str, Any], key: str) -> Fraction | None:
    value = inputs.get(key)
    if value is None:
        return None
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ActionRefused(f"{key} should be a distance in inches, not {value!r}") from None


def _degrees(inputs: Mapping[str, Any], key: str) -> int | None:
    value = inputs.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionRefused(f"{key} should be whole degrees, not {value!r}")
    return value


def step_now(setup: BattleSetup, state: BattleState) -> str:
    """The step as the window and report name it: ``Turn 2 – artillery shooting – French (A)``."""
    if state.phase == Phase.FINISHED:
        return f"finished: {state.result}"
    if state.phase == Phase.SETUP:
        return "setup: deploy and attach, then roll for sides"
    if state.step < 0:
        return f"Turn {state.turn}: roll for sides"
    name, ab = sequence(_ruleset(setup))[state.step]
    side = state.side_a if ab == "A" else _other(state.side_a)
    return f"Turn {state.turn} – {_step_title(name)} – {side} (side {ab})"


def _step_title(name: str) -> str:
    if name in ("movement", "rally"):
        return name.capitalize()
    if name == "charges":
        return "Cavalry charges"
    if name == "moved infantry":
        return "Infantry (that moved) shooting"
    if name == "skirmishers":
        return "Light infantry shooting"
    return f"{name.capitalize()} shooting"


# -- victory -----------------------------------------------------------------------------------


def eliminated_count(setup: BattleSetup, state: BattleState, side: str) -> int:
    """How many of one side's units have been eliminated."""
    army = army_of(setup)
    return sum(1 for u in army.side_units(side) if state.units[u.key].eliminated)


def needed(setup: BattleSetup, side: str) -> int:
    """How many of ``side``'s units the enemy must eliminate to win (its victory banners)."""
    t = tables(_ruleset(setup))
    return ceil(t.victory_share * len(army_of(setup).side_units(side)))


def decision(setup: BattleSetup, state: BattleState) -> Decision:
    """The result the battle gives now (final once the victory condition is met)."""
    if state.phase == Phase.FINISHED:
        return Decision(BattleOutcome.of(_termination(state.reason), state.result), state.reason)
    return Decision(None, f"the battle is undecided on turn {state.turn}: a side wins when it "
                          f"has eliminated {needed(setup, ALLIED)} Allied or "
                          f"{needed(setup, FRENCH)} French units")


_UMPIRE = "the umpire's decision"
_LAST_TURN = ("after the last turn", "a marginal victory")


def _termination(reason: str) -> Termination:
    """Why the battle ended, from the reason its end wrote (the umpire's, the last turn's, or
    the victory condition's)."""
    if reason.startswith(_UMPIRE):
        return Termination.UMPIRE
    if reason.startswith(_LAST_TURN):
        return Termination.NIGHTFALL
    return Termination.ARMY_BROKE


def _judge(g: _Game, state: BattleState, end_of_battle: bool) -> tuple[BattleState, list[str]]:
    lost = [s for s in SIDES if eliminated_count(g.setup, state, s) >= needed(g.setup, s)]
    counts = {s: eliminated_count(g.setup, state, s) for s in SIDES}
    if lost:
        loser = lost[0]
        winner = _other(loser)
        reason = (f"the {winner} have eliminated {counts[loser]} of the "
                  f"{len(g.army.side_units(loser))} {loser} units (needed "
                  f"{needed(g.setup, loser)})")
    elif end_of_battle:
        if counts[FRENCH] == counts[ALLIED]:
            winner, reason = "draw", (f"after the last turn each side has lost "
                                      f"{counts[FRENCH]} units")
        else:
            winner = FRENCH if counts[ALLIED] > counts[FRENCH] else ALLIED
            reason = (f"a marginal victory: after the last turn the {winner} have eliminated "
                      f"{counts[_other(winner)]} units and lost {counts[winner]}")
    else:
        return state, []
    text = "a draw" if winner == "draw" else f"the {winner} win"
    return (replace(state, phase=Phase.FINISHED, result=winner, reason=reason),
            [f"Result: {text} – {reason}"])


# -- the actions -------------------------------------------------------------------------------


def _deploy(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """Before the first turn, place a unit on its ground (a town, woods, an entrenchment …)."""
    if g.state.phase != Phase.SETUP:
        raise ActionRefused("units are deployed before the first turn; later they move")
    key = _need(i, "unit")
    now = g.live(key)
    ground = _ground(i.get("ground", "open"))
    place = str(i.get("place", ""))
    _check_town(g, key, ground, place)
    kind = g.kind(key)
    if kind not in g.t.ground[ground].enter:
        raise ActionRefused(f"{kind.label} may not stand in {ground.value}")
    where = ground.value + (f" ({place})" if place else "")
    return Outcome("deploy", f"Deploy {g.name(key)}: {where}",
                   g.units_with(g.state, key, replace(now, ground=ground, place=place)),
                   (f"{g.name(key)} deploys in {where}",), inputs=dict(i))


def _ground(text: str) -> Ground:
    try:
        return Ground(str(text).strip().lower())
    except ValueError:
        raise ActionRefused(f"'{text}' is not ground of ruleset 002 "
                            f"({', '.join(x.value for x in Ground)})") from None


def _check_town(g: _Game, key: str, ground: Ground, place: str) -> None:
    if not g.t.ground[ground].one_unit:
        return
    for other, now in g.state.units.items():
        if other != key and not now.eliminated and now.ground is ground and now.place == place:
            raise ActionRefused(f"only one unit may occupy a town: {g.name(other)} holds "
                                f"{place or 'it'}")


def _attach(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """A commander joins an infantry or elite unit of his side (at setup or in his movement)."""
    who, key = _need(i, "commander"), _need(i, "unit")
    if who not in g.state.commanders:
        known = ", ".join(g.state.commanders) or "none"
        raise ActionRefused(f"'{who}' is not a commander on the table (commanders: {known})")
    side = next(x.side for x in g.army.leaders if x.key == who)
    if g.state.phase != Phase.SETUP:
        name, moving = g.step()
        if name != "movement" or moving != side:
            raise ActionRefused(f"a commander joins a unit in his side's movement, not in "
                                f"{step_now(g.setup, g.state)}")
    now_with = g.state.commanders[who]
    if g.state.phase != Phase.SETUP and now_with and not arrived(g.setup, g.state, now_with):
        name = next(x.name for x in g.army.leaders if x.key == who)
        raise ActionRefused(f"{name} is not yet on the table: he comes with "
                            f"{g.name(now_with)} on turn {arrival_turn(g.setup, now_with)} "
                            f"(seed 000), so he joins no unit before then")
    g.live(key)
    if g.side(key) != side:
        raise ActionRefused(f"{g.name(key)} is not of the {side} army")
    if g.kind(key) not in g.t.attach_to:
        raise ActionRefused(f"commanders must be assigned to an infantry or elite infantry "
                            f"unit, not {g.kind(key).label}")
    holder = g.commander_of(key)
    if holder and holder != who:
        raise ActionRefused(f"{g.name(key)} already has a commander attached")
    commanders = dict(g.state.commanders)
    commanders[who] = key
    name = next(x.name for x in g.army.leaders if x.key == who)
    return Outcome("attach", f"Attach {name} to {g.name(key)}",
                   replace(g.state, commanders=commanders),
                   (f"{name} joins {g.name(key)}",), inputs=dict(i))


def _sides(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """Find side A for the turn: one D6, or the side the umpire names (a coin flipped)."""
    s = g.state
    if s.phase == Phase.FINISHED:
        raise ActionRefused(f"the battle is finished ({s.result})")
    if s.phase == Phase.PLAY and s.step >= 0:
        raise ActionRefused(f"side A of turn {s.turn} is already found ({s.side_a})")
    turn = s.turn + 1 if s.phase == Phase.SETUP else s.turn
    lines = [f"Turn {turn} of {g.setup.turns}"] if s.phase == Phase.SETUP else []
    rolls: tuple[Roll, ...] = ()
    if i.get("side_a"):
        side = _side_word(_need(i, "side_a"))
        lines.append(f"Sides: the umpire names side A: {side}")
    else:
        roll = roll_for(dice, g.t.sides_die, 1, f"side A for turn {turn}")
        side = FRENCH if roll.total in g.t.french_a_on else ALLIED
        rolls = (roll,)
        lines.append(f"Sides: rolled {roll.total} – side A: {side}")
    new = replace(s, phase=Phase.PLAY, turn=turn, step=0, side_a=side, rallied=())
    lines.append(step_now(g.setup, new))
    return Outcome("sides", f"Turn {turn}: side A {side}", new, tuple(lines), rolls,
                   dict(i))


def _move(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """A unit moves (or pivots) in its side's movement step."""
    name, side = g.step()
    key = _need(i, "unit")
    now = g.live(key)
    if name != "movement" or g.side(key) != side:
        raise ActionRefused(f"{g.name(key)} cannot move in {step_now(g.setup, g.state)}")
    if now.moved:
        raise ActionRefused(f"{g.name(key)} has already moved this turn")
    pivot = _flag(i, "pivot")
    to = now.ground if pivot else _ground(i.get("to", "open"))
    place = now.place if pivot else str(i.get("place", ""))
    inches = _inches(i, "inches") or Fraction(0)
    held = False
    if g.t.ground[to].one_unit and not pivot:
        try:
            _check_town(g, key, to, place)
        except ActionRefused:
            held = True
    kind = g.kind(key)
    if _flag(i, "near_general"):
        _general_here(g, side, "adds 3 inches to a move")
    check_move(Move(kind, inches, _flag(i, "road"), _flag(i, "near_general"), to, now.ground,
                    pivot, now.engaged, held, _flag(i, "across_river"),
                    _flag(i, "at_crossing")), g.t.name)
    if pivot:
        line = f"{g.name(key)} pivots on the spot (counts as moving for shooting)"
    else:
        extra = [w for w, on in (("along a road", _flag(i, "road")),
                                 ("from near the General", _flag(i, "near_general"))) if on]
        where = "" if to is Ground.OPEN else f" into {to.value}" + (f" ({place})" if place
                                                                     else "")
        line = (f"{g.name(key)} moves {inches} inches" + (f" {', '.join(extra)}" if extra
                                                           else "") + where)
    return Outcome("move", f"Move {g.name(key)}",
                   g.units_with(g.state, key, replace(now, moved=True, ground=to, place=place)),
                   (f"  {line}",), inputs=dict(i))


def _shooter_fits(step: str, kind: UnitKind, moved: bool) -> bool:
    if step == "artillery":
        return kind is UnitKind.ARTILLERY
    if step == "skirmishers":
        return kind is UnitKind.SKIRMISHERS
    if step == "stationary infantry":
        return kind in INFANTRY_KINDS and not moved
    if step == "moved infantry":
        return kind in INFANTRY_KINDS and moved
    return False


def _unattach(state: BattleState, key: str) -> BattleState:
    """The state with the commander of an eliminated unit left without one."""
    commanders = {c: ("" if u == key else u) for c, u in state.commanders.items()}
    return replace(state, commanders=commanders)


def _hit(g: _Game, state: BattleState, key: str, hits: int) -> tuple[BattleState, list[str]]:
    now = state.units[key]
    total = now.hits + hits
    gone = g.t.eliminated(g.kind(key), total)
    state = g.units_with(state, key, replace(now, hits=total, eliminated=gone))
    limit = g.t.units[g.kind(key)].eliminated_over
    lines = [f"  {g.name(key)}: {total} hits of {limit}"]
    if gone:
        lines = [f"  {g.name(key)} is eliminated ({total} hits, past {limit})"]
        holder = g.commander_of(key)
        if holder:
            name = next(x.name for x in g.army.leaders if x.key == holder)
            lines.append(f"  {name} is left without a unit")
        state = _unattach(state, key)
    return state, lines


def shot_of(g: _Game, i: Mapping[str, Any]) -> Shot:
    """A unit's shot at its target as the battle and the inputs give it: the shooting step
    rolls it, and its odds are worked from it."""
    now, aim = g.live(_need(i, "unit")), g.live(_need(i, "target"))
    ground, there = g.t.ground[now.ground], g.t.ground[aim.ground]
    return Shot(g.kind(_need(i, "unit")), g.kind(_need(i, "target")),
                bool(g.commander_of(_need(i, "unit"))), ground.best_of_two, there.cover,
                _flag(i, "retire"), _inches(i, "inches"), now.moved,
                ground.all_round_fire or i.get("in_arc", True) is not False)


def charge_of(g: _Game, i: Mapping[str, Any]) -> Charge:
    """A cavalry unit's charge at its target as the battle and the inputs give it: the charge
    step rolls it, and its odds are worked from it."""
    now, aim = g.live(_need(i, "unit")), g.live(_need(i, "target"))
    there = g.t.ground[aim.ground]
    return Charge(g.kind(_need(i, "target")), there.halves_charges, _flag(i, "flank"),
                  there.cover, _flag(i, "infantry_near"), aim.charged, now.retired,
                  _inches(i, "inches"), _degrees(i, "turn"))


def odds(setup: BattleSetup, steps: Sequence[Step], action: str,
         i: Mapping[str, Any]) -> tuple[tuple[str, Fraction], ...]:
    """The exact chance of each outcome of an action before it is rolled, worked from the shot
    or the charge its step rolls (:func:`shot_of`, :func:`charge_of`); empty for an action
    with nothing to show odds for."""
    t = tables(_ruleset(setup))
    if action in ("sides", "shoot", "charge"):
        # What the step would refuse has no odds: the step's own checks, its outcome thrown away.
        act(setup, steps, action, **i)
    if action == "sides":  # one die for side A, unless the umpire names it (a coin)
        if i.get("side_a"):
            return ()
        faces = t.sides_die.faces
        french = Fraction(sum(1 for f in faces if f in t.french_a_on), len(faces))
        return (("French are side A", french), ("Allied are side A", 1 - french))
    if action not in ("shoot", "charge"):
        return ()
    g = _Game(setup, army_of(setup), t, replay(setup, steps))
    if action == "shoot":
        return tuple((_hits(n), p) for n, p in shot_odds(shot_of(g, i), t.name).items())
    found = charge_odds(charge_of(g, i), t.name)
    if found.overrun:
        return (("the guns are eliminated outright", Fraction(1)),)
    return tuple((_hits(n), p) for n, p in found.hits.items())


def _hits(n: int) -> str:
    return f"{n} hit{'' if n == 1 else 's'}"


def _shoot(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """A unit shoots at an enemy in its shooting step; the target takes the hits at once."""
    name, side = g.step()
    key, target = _need(i, "unit"), _need(i, "target")
    now = g.live(key)
    kind = g.kind(key)
    if g.side(key) != side or not _shooter_fits(name, kind, now.moved):
        raise ActionRefused(f"{g.name(key)} ({kind.label}"
                            f"{', moved' if now.moved and kind in INFANTRY_KINDS else ''}) "
                            f"does not shoot in {step_now(g.setup, g.state)}")
    if now.shot:
        raise ActionRefused(f"{g.name(key)} has already shot this turn")
    g.live(target)
    if g.side(target) == side:
        raise ActionRefused(f"{g.name(target)} is a friend")
    retires = _flag(i, "retire")
    shot = shot_of(g, i)
    result = shoot(shot, dice, g.name(key), g.t.name)
    faces = " and ".join(map(str, result.faces))
    lines = [f"  {g.name(key)} shoots at {g.name(target)}: {shot_text(shot, g.t.name)}, "
             f"rolled {faces}: {result.hits} hit{'s' if result.hits != 1 else ''}"]
    state = g.units_with(g.state, key, replace(now, shot=True,
                                               engaged=kind is not UnitKind.CAVALRY))
    if retires:
        state = g.units_with(state, target, replace(state.units[target], retired=True))
        lines.append(f"  {g.name(target)} retire {g.t.retire_inches} inches and may not "
                     "charge this turn")
    state, more = _hit(g, state, target, result.hits)
    state, end = _judge(g, state, False)
    return Outcome("shoot", f"{g.name(key)} shoots at {g.name(target)}: {result.hits} hits",
                   state, tuple(lines + more + end), result.rolls, dict(i))


def _charge(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """A cavalry unit charges an enemy in its side's charge step."""
    name, side = g.step()
    key, target = _need(i, "unit"), _need(i, "target")
    now = g.live(key)
    if name != "charges" or g.side(key) != side:
        raise ActionRefused(f"{g.name(key)} cannot charge in {step_now(g.setup, g.state)}")
    if g.kind(key) is not UnitKind.CAVALRY:
        raise ActionRefused(f"only cavalry can charge, not {g.kind(key).label}")
    if now.charged_out:
        raise ActionRefused(f"{g.name(key)} has already charged this turn")
    aim = g.live(target)
    if g.side(target) == side:
        raise ActionRefused(f"{g.name(target)} is a friend")
    c = charge_of(g, i)
    result = charge(c, dice, g.name(key), g.t.name)
    state = g.units_with(g.state, key, replace(now, charged_out=True))
    if result.overrun:
        lines = [f"  {g.name(key)} charge {g.name(target)}: the guns, with no infantry "
                 f"within {g.t.artillery_support} inches, are eliminated"]
        aimed = replace(state.units[target], eliminated=True, charged=aim.charged + 1)
        state = _unattach(g.units_with(state, target, aimed), target)
        more: list[str] = []
        gone = True
    else:
        mods = "".join(f", {m.effect} ({m.label})" for m in applying(c, g.t.name))
        lines = [f"  {g.name(key)} charge {g.name(target)}: 1D6+{g.t.charge_add}{mods}, "
                 f"rolled {result.face}: {result.hits} hits"]
        state = g.units_with(state, target, replace(state.units[target],
                                                    charged=aim.charged + 1))
        state, more = _hit(g, state, target, result.hits)
        gone = state.units[target].eliminated
        if not gone and g.kind(target) is not UnitKind.CAVALRY:
            state = g.units_with(state, target, replace(state.units[target], engaged=True))
    follow = (f"  {g.name(key)} occupy the ground {g.name(target)} held" if gone else
              f"  {g.name(key)} retire {g.t.charge_retire} inches, facing {g.name(target)}")
    state, end = _judge(g, state, False)
    return Outcome("charge", f"{g.name(key)} charge {g.name(target)}", state,
                   tuple(lines + more + [follow] + end), result.rolls, dict(i))


def _rally(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """A commander or the General takes the marker off a unit in his side's rally step."""
    name, side = g.step()
    key = _need(i, "unit")
    now = g.live(key)
    if name != "rally" or g.side(key) != side:
        raise ActionRefused(f"{g.name(key)} cannot be rallied in {step_now(g.setup, g.state)}")
    who = str(i.get("by", GENERAL))
    general = who == GENERAL or who == g.army.general(side).key
    if general:
        _general_here(g, side, "rallies")
        token, title = f"{GENERAL}:{side}", f"The {side} General"
        attached = True
        near = _flag(i, "near")
    else:
        if who not in g.state.commanders or next(
                x.side for x in g.army.leaders if x.key == who) != side:
            known = ", ".join(x.key for x in g.army.commanders(side)) or "none"
            raise ActionRefused(f"'{who}' is not {with_article(side)} commander on the table "
                                f"(commanders: {known}; or the General)")
        token = who
        title = next(x.name for x in g.army.leaders if x.key == who)
        attached = bool(g.state.commanders[who])
        if attached and not arrived(g.setup, g.state, g.state.commanders[who]):
            raise ActionRefused(f"{title} is not yet on the table: he comes with "
                                f"{g.name(g.state.commanders[who])} on turn "
                                f"{arrival_turn(g.setup, g.state.commanders[who])} (seed 000)")
        near = g.state.commanders[who] == key or _flag(i, "near")
    check_rally(Rally(general, now.engaged, _flag(i, "enemy_near"), near, attached,
                      g.state.rallied.count(token)), g.t.name)
    state = g.units_with(g.state, key, replace(now, engaged=False))
    return Outcome("rally", f"{title} rallies {g.name(key)}",
                   replace(state, rallied=state.rallied + (token,)),
                   (f"  {title} rallies {g.name(key)}: it may move again",), inputs=dict(i))


def _next(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """End the current step; after side B's rally the turn ends (and after the last, the
    battle)."""
    g.step()
    s = g.state
    steps = sequence(g.t.name)
    if s.step + 1 < len(steps):
        new = replace(s, step=s.step + 1)
        return Outcome("next", step_now(g.setup, new), new, (step_now(g.setup, new),))
    units = {k: replace(u, moved=False, shot=False, charged=0, charged_out=False,
                        retired=False) for k, u in s.units.items()}
    last = s.turn >= g.setup.turns
    new = replace(s, units=units, step=-1, side_a="", rallied=(), turn=s.turn + (0 if last
                                                                                  else 1))
    lines = [f"End of turn {s.turn}"]
    if last:
        new, end = _judge(g, new, True)
        lines += end
    else:
        lines.append(f"Turn {new.turn} of {g.setup.turns}")
    return Outcome("next", f"End of turn {s.turn}", new, tuple(lines))


def _override(g: _Game, dice: DiceSource, i: Mapping[str, Any]) -> Outcome:
    """The umpire's own decision of the battle, with his reason."""
    if g.state.phase == Phase.FINISHED:
        raise ActionRefused("the battle is finished")
    reason = str(i.get("reason", "")).strip()
    if not reason:
        raise ActionRefused("an override needs the umpire's reason")
    text = str(_need(i, "side")).strip().lower()
    winner = "draw" if text == "draw" else _side_word(text)
    new = replace(g.state, phase=Phase.FINISHED, result=winner,
                  reason=f"{_UMPIRE}: {reason}")
    return Outcome("override", f"Override: {winner}", new,
                   (f"The umpire decides: {winner if winner == 'draw' else winner + ' win'} "
                    f"({reason})",), inputs=dict(i))


_ACTS = {"deploy": _deploy, "attach": _attach, "sides": _sides, "move": _move,
         "shoot": _shoot, "charge": _charge, "rally": _rally, "next": _next,
         "override": _override}


# -- what the table and the report show -----------------------------------------------------


def units_table(setup: BattleSetup, state: BattleState) -> list[tuple[str, ...]]:
    """Per unit: name, side, type, hits against the limit, ground, marker, state."""
    army = army_of(setup)
    t = tables(_ruleset(setup))
    rows: list[tuple[str, ...]] = []
    for u in army.units:
        now = state.units[u.key]
        holder = next((x.name for x in army.leaders if state.commanders.get(x.key) == u.key),
                      "")
        rows.append((u.name, u.side, t.units[u.kind].label,
                     f"{now.hits}/{t.units[u.kind].eliminated_over}", now.ground.value,
                     ("engaged" if now.engaged and not now.eliminated else "")
                     if arrived(setup, state, u.key)
                     else f"arrives on turn {arrival_turn(setup, u.key)}",
                     "eliminated" if now.eliminated else holder))
    return rows


def who_acts(setup: BattleSetup, state: BattleState) -> tuple[str, ...]:
    """The units that may still act in the current step (move, shoot, charge, or be rallied)."""
    if state.phase != Phase.PLAY or state.step < 0:
        return ()
    army = army_of(setup)
    name, ab = sequence(_ruleset(setup))[state.step]
    side = state.side_a if ab == "A" else _other(state.side_a)
    out = []
    for u in army.side_units(side):
        now = state.units[u.key]
        if now.eliminated or not arrived(setup, state, u.key):
            continue
        if name == "movement":
            fits = not now.moved and now.ground is not Ground.ENTRENCHMENT
        elif name == "charges":
            fits = u.kind is UnitKind.CAVALRY and not now.charged_out and not now.retired
        elif name == "rally":
            fits = now.engaged
        else:
            fits = not now.shot and _shooter_fits(name, u.kind, now.moved)
        if fits:
            out.append(u.key)
    return tuple(out)


def outcomes(setup: BattleSetup, state: BattleState) -> tuple[BrigadeOutcome, ...]:
    """Each brigade at the end, as auto-resolve gives it: its hits as casualties, an
    eliminated unit destroyed (and in rout)."""
    army = army_of(setup)
    return tuple(BrigadeOutcome(u.key, u.name, u.corps, state.units[u.key].hits,
                                MoraleState.ROUT if state.units[u.key].eliminated
                                else MoraleState.FORMED, state.units[u.key].eliminated)
                 for u in army.units)


def report(setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
    """The battle report: a header, the sides, then every step's lines in order."""
    army = army_of(setup)
    title = setup.title[0].upper() + setup.title[1:]
    lines = [title, f"Rules: {tables(_ruleset(setup)).title}; {setup.turns} turns"]
    for side in SIDES:
        units = army.side_units(side)
        people = [x.name for x in army.commanders(side)]
        # the name carries its own rank ("General Yorck", "Marshal Davout")
        lines.append(f"{side}: {army.general(side).name} (General); {len(units)} units; "
                     f"commanders: {', '.join(people) or 'none'}")
    for step in steps:
        lines.extend(step.lines)
    return lines
