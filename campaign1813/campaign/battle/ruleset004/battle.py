"""A ruleset 004 battle in progress: the state, the umpire's steps, replay, report and result.

The outer shape is the 1813 session's: :func:`act` takes the setup, the steps kept so far, an
action and its inputs, and returns a :class:`~campaign1813.campaign.battle.core.steps.Step` (kind,
label, report lines, patch, rolls, inputs); :func:`replay` applies the patches to the starting
state; :func:`report` is the battle's lines; :func:`decision` the result once an army has lost.

Each turn follows the seed: dice for the right to move first (``first-move``); the sides move a
unit each in turn (``move``, ``attach``) until both have said they are done (``done``); all units
fire, every hit held back until the fire is over (``fire``, then ``end-fire`` applies them at
once and takes the morale tests they cause); then the melees (``melee``) and ``end-turn``.
An army has lost when its units, the general included, have fallen below half its start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
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
    seeded,
    state_patch,
)
from campaign1813.campaign.battle.dice import DiceSource, ImpossibleRoll, Roll, TypedDice
from campaign1813.campaign.battle.ruleset004 import fire as fire_rules
from campaign1813.campaign.battle.ruleset004 import melee as melee_rules
from campaign1813.campaign.battle.ruleset004.convert import (
    SIDES,
    Forces,
    convert,
    general_key,
    general_of,
)
from campaign1813.campaign.battle.ruleset004.morale import (
    army_lost,
    blocker_tests,
    may_support,
    morale_test,
    must_test_after_fire,
    retreat_blocked,
)
from campaign1813.campaign.battle.ruleset004.movement import (
    Allowance,
    allowance,
    first_move_odds,
    full_move,
    needs_variation,
    roll_first_move,
    roll_variation,
    variation_odds,
)
from campaign1813.campaign.battle.ruleset004.tables import National, tables
from campaign1813.campaign.battle.ruleset004.units import Kind, Unit
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.battle.terms import MoraleState, Role

__all__ = ["ACTIONS", "Stage", "UnitNow", "HeldFire", "BattleState", "Decision", "act",
           "replay", "report", "decision", "start", "forces", "unit_now", "Typed", "step_now",
           "units_table", "who_acts", "outcomes", "standing", "arrival_turn", "arrived",
           "unfought"]

ACTIONS = ("national", "first-move", "move", "attach", "done", "fire", "end-fire", "melee",
           "end-turn", "override", "finish")
ROLLING = frozenset({"first-move", "move", "fire", "end-fire", "melee"})

Typed = Sequence[int | tuple[int, ...]]


class Stage:
    """Where a turn stands, in the seed's TURN SEQUENCE."""

    FIRST_MOVE = "first move"
    MOVEMENT = "movement"
    FIRE = "fire"
    MELEE = "melee"
    OVER = "over"


@dataclass(frozen=True)
class UnitNow:
    """A unit's steps left and order now, and what it has done this turn."""

    steps: int
    firing_order: bool = True
    moved: bool = False
    fired: bool = False
    meleed: bool = False
    fire_hits: int = 0
    eliminated: bool = False
    limbered: bool = False
    half_move: bool = False


@dataclass(frozen=True)
class HeldFire:
    """Hits scored by one fire, held until every unit has fired."""

    firer: str
    target: str
    hits: int


@dataclass(frozen=True)
class BattleState:
    """Everything that changes during a ruleset 004 battle."""

    turn: int
    stage: str
    units: dict[str, UnitNow]
    first: str = ""
    to_move: str = ""
    done: tuple[str, ...] = ()
    held: tuple[HeldFire, ...] = ()
    attached: dict[str, str] = field(default_factory=dict)
    ties: tuple[tuple[str, str], ...] = ()
    charges: tuple[tuple[str, str, str], ...] = ()
    national: dict[str, str] = field(default_factory=dict)
    result: str = ""
    reason: str = ""
    finished: bool = False


def forces(setup: BattleSetup, state: BattleState | None = None) -> Forces:
    """The setup's units as ruleset 004 fights them, with the battle's national choices."""
    return _forces(setup, tuple(sorted(state.national.items())) if state else ())


@cache
def _forces(setup: BattleSetup, national: tuple[tuple[str, str], ...]) -> Forces:
    return convert(setup, dict(national))


def start(setup: BattleSetup) -> BattleState:
    """The state before the first dice for the first move."""
    units = {u.key: UnitNow(u.steps) for u in forces(setup).units}
    return BattleState(1, Stage.FIRST_MOVE, units)


# -- keeping and replaying steps ----------------------------------------------------------------


_KEYED = ("units",)  # kept by unit: a step's patch holds only the units it changed


def _plain(state: BattleState) -> dict[str, Any]:
    return msgspec.to_builtins(state)  # type: ignore[no-any-return]


def _patch(before: BattleState, after: BattleState) -> dict[str, Any]:
    return state_patch(_plain(before), _plain(after), _KEYED)


def replay(setup: BattleSetup, steps: Sequence[Step]) -> BattleState:
    """The state after these steps."""
    return patched(_plain(start(setup)), (s.patch for s in steps), _KEYED, BattleState)


@dataclass(frozen=True)
class _Outcome:
    kind: str
    label: str
    state: BattleState
    lines: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()


def act(setup: BattleSetup, steps: Sequence[Step], action: str, *,
        typed: Typed | None = None, **inputs: Any) -> Step:
    """Take one action on the battle and return the step to keep."""
    if action not in ACTIONS:
        raise ActionRefused(f"'{action}' is not a battle action of ruleset 004 "
                            f"(actions: {', '.join(ACTIONS)})")
    if typed and action not in ROLLING:
        raise ActionRefused(f"{action} rolls no dice; a typed roll is not taken")
    state = replay(setup, steps)
    if state.finished:
        raise ActionRefused(f"the battle is finished ({state.result}: {state.reason})")
    if state.stage == Stage.OVER and action != "finish":
        raise ActionRefused(f"the battle is over: {state.reason}; finish it")
    source: DiceSource = TypedDice(list(typed)) if typed else seeded(setup, len(steps))
    try:
        outcome = _dispatch(setup, state, action, source, inputs)
    except ImpossibleRoll as exc:
        raise ActionRefused(str(exc)) from None
    if typed and isinstance(source, TypedDice) and source.remaining:
        used = len(typed) - source.remaining
        raise ActionRefused(f"{len(typed)} roll{'s' if len(typed) > 1 else ''} typed, but the "
                            f"step used {used}")
    after, news = _judge(setup, outcome.state)
    return Step(outcome.kind, outcome.label, outcome.lines + news, _patch(state, after),
                tuple((r.purpose, r.faces) for r in outcome.rolls), dict(inputs))


def _dispatch(setup: BattleSetup, state: BattleState, action: str, dice: DiceSource,
              i: Mapping[str, Any]) -> _Outcome:
    if action == "national":
        return _set_national(setup, state, _need(i, "nation"), str(i.get("characteristics", "")))
    if action == "first-move":
        return _first_move(setup, state, dice)
    if action == "move":
        return _move(setup, state, dice, i)
    if action == "attach":
        return _attach(setup, state, _need(i, "side"), str(i.get("unit", "")))
    if action == "done":
        return _done(setup, state, _need(i, "side"))
    if action == "fire":
        return _fire(setup, state, dice, i)
    if action == "end-fire":
        return _end_fire(setup, state, dice, _support(setup, state, i.get("supported", {})))
    if action == "melee":
        return _melee(setup, state, dice, i)
    if action == "end-turn":
        return _end_turn(setup, state)
    if action == "finish":
        return _finish(setup, state)
    return _override(state, _need(i, "side"), str(i.get("reason", "")))


# -- who is who ---------------------------------------------------------------------------------


def unit_now(state: BattleState, key: str) -> UnitNow:
    """A unit's state now, refusing a key the battle does not have."""
    if key not in state.units:
        raise ActionRefused(f"there is no unit '{key}' in this battle")
    return state.units[key]


def arrival_turn(setup: BattleSetup, key: str) -> int:
    """The turn a unit comes onto the table: its corps' (turn 4 for a corps marching to the
    sound of the guns, seed 000); a general comes with his own corps, a CinC with his
    headquarters (turn 4 when it marches to the sound of the guns) and not before his army's
    first corps."""
    for side in SIDES:
        if key == general_key(side):
            g = general_of(setup, side)
            own = [c.turn for c in setup.side_corps(side) if c.commander == g.key]
            first = min(own or [c.turn for c in setup.side_corps(side)] or [1])
            return max(first, g.turn) if g.role is Role.CINC else first
    return setup.corps_of(setup.brigade(key).corps).turn


def arrived(setup: BattleSetup, state: BattleState, key: str) -> bool:
    """Whether a unit is on the table in the state's turn."""
    return state.turn >= arrival_turn(setup, key)


def _unit(setup: BattleSetup, state: BattleState, key: str) -> tuple[Unit, UnitNow]:
    now = unit_now(state, key)
    u = forces(setup, state).unit(key)
    if now.eliminated:
        raise ActionRefused(f"{u.name} has been eliminated")
    if not arrived(setup, state, key):
        raise ActionRefused(f"{u.name} is not yet on the table: its corps marches to the sound "
                            f"of the guns and arrives on turn {arrival_turn(setup, key)} (seed "
                            f"000), so it neither acts nor is acted on before then (turn "
                            f"{state.turn})")
    return replace(u, steps=now.steps, firing_order=now.firing_order), now


def _stage(state: BattleState, stage: str, what: str) -> None:
    if state.stage != stage:
        raise ActionRefused(f"{what} belongs to the {stage} phase; the battle is at the "
                            f"{state.stage} phase of turn {state.turn}")


def _national_of(u: Unit) -> National | None:
    return tables().national.get(u.national) if u.national else None


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


# -- the steps ----------------------------------------------------------------------------------


def _set_national(setup: BattleSetup, state: BattleState, nation: str,
                  characteristics: str) -> _Outcome:
    if state.turn != 1 or state.stage != Stage.FIRST_MOVE:
        raise ActionRefused("national characteristics are decided before the battle begins")
    if characteristics and characteristics not in tables().national:
        known = ", ".join(sorted(tables().national))
        raise ActionRefused(f"no national characteristics called '{characteristics}' "
                            f"(known: {known})")
    nations = {b.nation for b in setup.brigades}
    if nation not in nations:
        raise ActionRefused(f"no brigade of this battle is {nation or 'of no nation'} "
                            f"(nations: {', '.join(sorted(n for n in nations if n))})")
    chosen = dict(state.national)
    if characteristics:
        chosen[nation] = characteristics
    else:
        chosen.pop(nation, None)
    label = tables().national[characteristics].label if characteristics else "none"
    return _Outcome("national", f"{nation}: {label}", replace(state, national=chosen),
                    (f"National characteristics of the {nation}: {label}",))


def _first_move(setup: BattleSetup, state: BattleState, dice: DiceSource) -> _Outcome:
    _stage(state, Stage.FIRST_MOVE, "dicing for the first move")
    first, rolls = roll_first_move(SIDES, dice)
    faces = ", ".join(f"{SIDES[n % 2]} {r.total}" for n, r in enumerate(rolls))
    after = replace(state, stage=Stage.MOVEMENT, first=first, to_move=first, done=())
    return _Outcome("first-move", f"turn {state.turn}: {first} move first", after,
                    (f"Turn {state.turn}", f"  Dice for the first move: {faces}: the {first} "
                     "move first"), rolls)


def _need(i: Mapping[str, Any], key: str) -> str:
    """A required input, refused by name when it is missing or empty."""
    value = i.get(key)
    if value is None or value == "":
        raise ActionRefused(f"the step needs its '{key}'")
    return str(value)


def _whole(i: Mapping[str, Any], key: str) -> int:
    """A whole number input, 0 when not given."""
    value = i.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ActionRefused(f"{key} '{value}' is not a whole number")
    try:
        return int(value)
    except ValueError:
        raise ActionRefused(f"{key} '{value}' is not a whole number") from None


def _fraction(value: Any, what: str) -> Fraction:
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ActionRefused(f"{what} '{value}' is not a number of centimetres") from None
    if number < 0:
        raise ActionRefused(f"{what} cannot be negative ({value})")
    return number


FACES = ("front", "flank", "rear")


@dataclass(frozen=True)
class MovePlan:
    """A move as the move step reckons it before any die: what the unit may cover this turn,
    the distance asked (its full allowance unless given), the firing order it ends in, the
    change still to make, and whether the variation die is rolled for it."""

    allowed: Allowance
    wanted: Fraction
    firing_order: bool
    changes: str
    diced: bool


def move_plan(u: Unit, now: UnitNow, i: Mapping[str, Any]) -> MovePlan:
    """Reckon a unit's move from its inputs (refusing a change it cannot make): the move step
    takes it, and the odds of the variation die are worked from it."""
    changes = str(i.get("changes", ""))
    firing_order = now.firing_order
    if changes == "leave firing order":
        if u.kind is not Kind.FOOT or not firing_order:
            raise ActionRefused(f"{u.name} is not foot in firing order")
        firing_order, changes = False, ""
    allowed = allowance(u.kind, firing_order=firing_order and u.kind is Kind.FOOT,
                        wheel_degrees=_whole(i, "wheel_degrees"),
                        about_turns=_whole(i, "about_turns"), changes=changes,
                        fires=bool(i.get("fires", False)), national=_national_of(u))
    if changes == "firing order":
        firing_order = True
    wanted = allowed.distance_cm if "distance_cm" not in i else _fraction(
        i["distance_cm"], "distance")
    full = full_move(u.kind, firing_order and u.kind is Kind.FOOT)
    diced = bool(wanted and needs_variation(wanted, full) and not str(i.get("no_variation", "")))
    return MovePlan(allowed, wanted, firing_order, changes, diced)


def _move(setup: BattleSetup, state: BattleState, dice: DiceSource,
          i: Mapping[str, Any]) -> _Outcome:
    _stage(state, Stage.MOVEMENT, "a move")
    u, now = _unit(setup, state, _need(i, "unit"))
    if u.side != state.to_move:
        raise ActionRefused(f"it is the {state.to_move}'s move, not the {u.side}'s")
    if now.moved:
        raise ActionRefused(f"{u.name} has already moved this turn")
    plan = move_plan(u, now, i)
    allowed, wanted, firing_order, changes = (plan.allowed, plan.wanted, plan.firing_order,
                                              plan.changes)
    limbered = now.limbered
    lines = []
    if str(i.get("changes", "")) == "leave firing order":
        lines.append(f"  {u.name} leaves firing order")
    if changes == "firing order":
        lines.append(f"  {u.name} forms into firing order (the turn)")
    if changes == "limber":
        limbered = not limbered
        lines.append(f"  {u.name} {'limber' if limbered else 'unlimber'} (the turn)")
    if u.kind is Kind.GUNS and not limbered and wanted:
        raise ActionRefused(f"{u.name} must limber before moving (it takes a turn)")
    if wanted > allowed.distance_cm:
        raise ActionRefused(f"{u.name} may move {allowed.distance_cm} cm this turn, not "
                            f"{wanted} cm" + (f" ({'; '.join(allowed.notes)})"
                                              if allowed.notes else ""))
    charges = state.charges
    charge = str(i.get("charge", ""))
    if charge:
        target, tnow = _unit(setup, state, charge)
        face = str(i.get("face", "front"))
        if face not in FACES:
            raise ActionRefused(f"'{face}' is not a face of a unit ({', '.join(FACES)})")
        if target.side == u.side:
            raise ActionRefused(f"{u.name} does not charge its own side")
        taken = [a for a, d, f in charges if d == target.key and f == face]
        if taken:
            raise ActionRefused(f"only one unit can contact each face of an enemy: the {face} "
                                f"of {target.name} is taken by "
                                f"{forces(setup, state).unit(taken[0]).name}")
        melee_rules.may_charge(_fighter(u, now), _fighter(target, tnow),
                               wheel_degrees=_whole(i, "wheel_degrees"),
                               foot_near_gun_cm=(None if "foot_near_gun_cm" not in i else
                                                 _fraction(i["foot_near_gun_cm"], "distance")))
        charges += ((u.key, target.key, face),)
    # The variation is rolled once the move is known to be allowed.
    rolls: list[Roll] = []
    covered = wanted
    ignored = str(i.get("no_variation", ""))
    if plan.diced:
        covered, roll = roll_variation(u.name, wanted, dice)
        rolls.append(roll)
    text = (f"  {u.name} moves {covered} cm" + (f" (variation {rolls[0].total}: {wanted} cm "
                                                 f"asked)" if rolls else "")
            + (f" (variation ignored: {ignored})" if ignored else "")
            + (f", charging {forces(setup, state).unit(charge).name}"
               + (f" in the {charges[-1][2]}" if charges[-1][2] != "front" else "")
               if charge else "")
            + (f"; {'; '.join(allowed.notes)}" if allowed.notes else ""))
    if wanted or charge or not lines:
        lines.append(text)
    units = dict(state.units)
    units[u.key] = replace(now, moved=True, firing_order=firing_order, limbered=limbered,
                           half_move=bool(i.get("fires", False)))
    other = _other(u.side)
    after = replace(state, units=units, charges=charges,
                    to_move=u.side if other in state.done else other)
    return _Outcome("move", f"{u.name} moves", after, tuple(lines), tuple(rolls))


def _attach(setup: BattleSetup, state: BattleState, side: str, key: str) -> _Outcome:
    _stage(state, Stage.MOVEMENT, "attaching a general")
    f = forces(setup, state)
    general = f.army(side).general if side in SIDES else ""
    if not general:
        raise ActionRefused(f"'{side}' is not a side ({', '.join(SIDES)})")
    if unit_now(state, general).eliminated:
        raise ActionRefused(f"the {side} general has been eliminated")
    _unit(setup, state, general)  # not before he is on the table
    attached = dict(state.attached)
    if key:
        u, _now = _unit(setup, state, key)
        if u.side != side or u.kind is Kind.GENERAL:
            raise ActionRefused(f"the {side} general may join only a unit of his own army")
        attached[side] = key
        line = f"  The {side} general joins {u.name}"
    else:
        attached.pop(side, None)
        line = f"  The {side} general rides alone"
    return _Outcome("attach", line.strip(), replace(state, attached=attached), (line,))


def _done(setup: BattleSetup, state: BattleState, side: str) -> _Outcome:
    _stage(state, Stage.MOVEMENT, "finishing the moves")
    if side not in SIDES:
        raise ActionRefused(f"'{side}' is not a side ({', '.join(SIDES)})")
    if side in state.done:
        raise ActionRefused(f"the {side} have already finished moving")
    done = state.done + (side,)
    if len(done) == len(SIDES):
        after = replace(state, done=done, stage=Stage.FIRE, to_move="")
        lines = (f"  The {side} have moved all they wish; musketry and artillery fire",)
    else:
        after = replace(state, done=done, to_move=_other(side))
        lines = (f"  The {side} have moved all they wish",)
    return _Outcome("done", f"{side} done moving", after, lines)


def _fighter(u: Unit, now: UnitNow, **options: Any) -> melee_rules.Fighter:
    nat = _national_of(u)
    hits_on = nat.horse_melee_hits_on if nat and u.kind.horse else None
    return melee_rules.Fighter(u.kind, now.steps, firing_order=now.firing_order,
                               cuirassiers=u.cuirassiers, hits_on=hits_on,
                               fired_hits=now.fire_hits, **options)


def _fire(setup: BattleSetup, state: BattleState, dice: DiceSource,
          i: Mapping[str, Any]) -> _Outcome:
    _stage(state, Stage.FIRE, "firing")
    u, now = _unit(setup, state, _need(i, "unit"))
    target, _tnow = _unit(setup, state, _need(i, "target"))
    if now.fired:
        raise ActionRefused(f"{u.name} has already fired this turn")
    if target.side == u.side:
        raise ActionRefused(f"{u.name} does not fire at its own side")
    if target.kind is Kind.GENERAL:
        raise ActionRefused("a general is not fired at; he falls with the unit he is with")
    if now.limbered:
        raise ActionRefused(f"{u.name} is limbered and must unlimber to fire (it takes a turn)")
    if now.moved and not (u.kind.light and now.half_move):  # fire returned, if any (-1)
        fired_at = any(h.target == u.key and h.firer == target.key for h in state.held)
        charged = u.kind is Kind.FOOT and (target.key, u.key, "front") in state.charges
        if u.kind is Kind.GUNS or not (fired_at or charged):
            raise ActionRefused(f"{u.name} moved this turn and may not fire (only light troops "
                                "making a half move may; troops fired at may return fire, "
                                "with -1)")
    result = fire_plan(setup, state, i).roll(dice, f"{u.name} at {target.name}")
    units = dict(state.units)
    units[u.key] = replace(now, fired=True)
    held = state.held + (HeldFire(u.key, target.key, result.standing),)
    lines = tuple(f"  {line}" for line in result.lines)
    return _Outcome("fire", f"{u.name} fires at {target.name}",
                    replace(state, units=units, held=held), lines, result.rolls)


@dataclass(frozen=True)
class FirePlan:
    """A unit's fire reckoned from its inputs: the target as fired at and the volley or the
    battery; the fire step rolls it, and its odds are worked from it."""

    aim: fire_rules.Target
    volley: fire_rules.Volley | None
    battery: fire_rules.Battery | None

    def roll(self, dice: DiceSource, purpose: str) -> fire_rules.FireResult:
        """The fire rolled."""
        if self.volley is not None:
            return fire_rules.musketry(self.volley, self.aim, dice, purpose)
        assert self.battery is not None
        return fire_rules.artillery(self.battery, self.aim, dice, purpose)

    def standing(self) -> dict[int, Fraction]:
        """The exact chance of each number of hits that stand after the saving throws."""
        if self.volley is not None:
            return fire_rules.musketry_odds(self.volley, self.aim).standing
        assert self.battery is not None
        return fire_rules.artillery_odds(self.battery, self.aim).standing


def fire_plan(setup: BattleSetup, state: BattleState, i: Mapping[str, Any]) -> FirePlan:
    """Reckon a unit's fire from its inputs (refusing a kind of fire it cannot give)."""
    u, now = _unit(setup, state, _need(i, "unit"))
    target, _tnow = _unit(setup, state, _need(i, "target"))
    shot = str(i.get("shot") or ("musketry" if u.kind is not Kind.GUNS else "roundshot"))
    distance = (None if i.get("distance_cm") in (None, "")
                else _fraction(i["distance_cm"], "range"))
    aim = fire_rules.Target(target.kind, bool(i.get("cover", False)), target.cuirassiers)
    if shot == "musketry":
        nat = _national_of(u)
        bonus = nat.foot_musketry if nat and u.kind.foot else 0
        returning = now.moved and not (u.kind.light and now.half_move)
        return FirePlan(aim, fire_rules.Volley(u.kind, now.steps, now.firing_order,
                                               bool(i.get("one_rank", False)), returning, bonus,
                                               distance), None)
    if shot in ("canister", "roundshot"):
        if u.kind is not Kind.GUNS:
            raise ActionRefused(f"{u.name} has no guns to fire {shot}")
        return FirePlan(aim, None, fire_rules.Battery(fire_rules.Shot(shot), now.steps,
                                                      bool(i.get("over_heads", False)),
                                                      distance))
    raise ActionRefused(f"'{shot}' is not a kind of fire (musketry, canister, roundshot)")


def melee_plan(setup: BattleSetup, state: BattleState,
               i: Mapping[str, Any]) -> tuple[melee_rules.Fighter, melee_rules.Fighter]:
    """The attacker and the defender of a melee as its inputs and the charge made give them;
    the melee step fights them, and its odds are worked from them."""
    a, anow = _unit(setup, state, _need(i, "attacker"))
    d, dnow = _unit(setup, state, _need(i, "defender"))
    opts: dict[str, Any] = dict(i.get("options", {}))
    made = [f for x, y, f in state.charges if (x, y) == (a.key, d.key)]
    face = made[0] if made else str(opts.get("face") or "front")
    fa = _fighter(a, anow, extra=bool(opts.get("attacker_extra", face in ("flank", "rear"))),
                  cover=bool(opts.get("attacker_cover", False)),
                  in_wood=bool(opts.get("attacker_in_wood", False)))
    fd = _fighter(d, dnow, extra=bool(opts.get("defender_extra", False)),
                  cover=bool(opts.get("defender_cover", False)),
                  in_wood=bool(opts.get("defender_in_wood", False)),
                  frontal=face == "front")
    return fa, fd


def odds(setup: BattleSetup, steps: Sequence[Step], action: str,
         i: Mapping[str, Any]) -> tuple[tuple[str, Fraction], ...]:
    """The exact chance of each outcome of an action before it is rolled, worked from the
    plans its step takes (:func:`fire_plan`, :func:`melee_plan`, :func:`move_plan`); empty for
    an action that rolls nothing with a single outcome to show."""
    if action in ("first-move", "fire", "melee", "move"):
        # What the step would refuse has no odds: the step's own checks, its outcome thrown
        # away.
        act(setup, steps, action, **i)
    if action == "first-move":  # a die each, ties rolled again
        first = first_move_odds()
        return (("French move first", first["first"]), ("Allied move first", first["second"]))
    if action not in ("fire", "melee", "move"):
        return ()
    state = replay(setup, steps)
    if action == "move":
        plan = move_plan(*_unit(setup, state, _need(i, "unit")), i)
        if not plan.diced:
            return ((f"moves {_cm_text(plan.wanted)}: no variation die", Fraction(1)),)
        return tuple((f"covers {_cm_text(d)}", p) for d, p in variation_odds(plan.wanted).items())
    if action == "fire":
        standing = fire_plan(setup, state, i).standing()
        return tuple((f"{n} hit{'' if n == 1 else 's'} stand", p)
                     for n, p in sorted(standing.items()))
    fa, fd = melee_plan(setup, state, i)
    return tuple((str(v), p) for v, p in melee_rules.melee_odds(fa, fd).verdict.items() if p)


def _cm_text(x: Fraction) -> str:
    """A distance on the table: ``7.5 cm``, ``5.625 cm``."""
    return f"{float(x):g} cm"


def _eliminate(state: BattleState, units: dict[str, UnitNow], key: str,
               setup: BattleSetup, lines: list[str]) -> None:
    units[key] = replace(units[key], steps=0, eliminated=True)
    for side, with_unit in state.attached.items():
        if with_unit == key:
            g = forces(setup, state).army(side).general
            units[g] = replace(units[g], steps=0, eliminated=True)
            lines.append(f"  The {side} general falls with the unit he was with")


def _support(setup: BattleSetup, state: BattleState, given: Any) -> dict[str, str]:
    """Units given support for their tests, each by a friendly unit behind that may give it
    (not light foot, guns nor a general) and gives it to one unit only."""
    if not isinstance(given, Mapping):
        raise ActionRefused("support is given as unit → the unit directly behind it")
    out: dict[str, str] = {}
    for key, behind in given.items():
        u, _n = _unit(setup, state, str(key))
        s, _m = _unit(setup, state, str(behind))
        if s.side != u.side or s.key == u.key:
            raise ActionRefused(f"{s.name} cannot support {u.name}: not a friendly unit behind")
        if not may_support(s.kind):
            raise ActionRefused(f"{s.name} cannot give support: {s.kind} never do")
        if s.key in out.values():
            raise ActionRefused(f"{s.name} can give support to one unit only")
        out[u.key] = s.key
    return out


def _end_fire(setup: BattleSetup, state: BattleState, dice: DiceSource,
              supported: Mapping[str, str]) -> _Outcome:
    _stage(state, Stage.FIRE, "ending the fire")
    f = forces(setup, state)
    units = dict(state.units)
    lines: list[str] = ["  All fire takes effect at once"]
    rolls: list[Roll] = []
    suffered: dict[str, int] = {}
    for h in state.held:
        suffered[h.target] = suffered.get(h.target, 0) + h.hits
    for key in (u.key for u in f.units if u.key in suffered):
        now = units[key]
        hits = suffered[key]
        if now.eliminated:
            continue
        left = max(0, now.steps - hits)
        units[key] = replace(now, steps=left, fire_hits=now.fire_hits + hits)
        name = f.unit(key).name
        if not hits:
            continue
        if left == 0:
            lines.append(f"  {name}: {hits} hit{'s' if hits > 1 else ''}, eliminated")
            _eliminate(state, units, key, setup, lines)
        else:
            lines.append(f"  {name}: {hits} hit{'s' if hits > 1 else ''}, {left * 25} % left")
    # The morale tests are as simultaneous as the fire: every unit hit tests now.
    for key in (u.key for u in f.units if u.key in suffered):
        now = units[key]
        if now.eliminated or not must_test_after_fire(suffered[key]):
            continue
        u = f.unit(key)
        test = morale_test(u.name, u.quality, dice, general=state.attached.get(u.side) == key,
                           support=key in supported, reason="lost 25 % or more to fire")
        rolls.append(test.roll)
        lines.append(f"  {test.line}")
        if not test.passed:
            units[key] = replace(now, steps=now.steps - 1)
            if now.steps - 1 <= 0:
                lines.append(f"  {u.name} is eliminated")
                _eliminate(state, units, key, setup, lines)
    after = replace(state, units=units, held=(), stage=Stage.MELEE)
    return _Outcome("end-fire", f"turn {state.turn}: fire takes effect", after, tuple(lines),
                    tuple(rolls))


def _melee(setup: BattleSetup, state: BattleState, dice: DiceSource,
           i: Mapping[str, Any]) -> _Outcome:
    _stage(state, Stage.MELEE, "a melee")
    a, anow = _unit(setup, state, _need(i, "attacker"))
    d, dnow = _unit(setup, state, _need(i, "defender"))
    if a.side == d.side:
        raise ActionRefused(f"{a.name} and {d.name} are on the same side")
    if anow.meleed or dnow.meleed:
        busy = a.name if anow.meleed else d.name
        raise ActionRefused(f"{busy} has already fought a melee this turn")
    opts: dict[str, Any] = dict(i.get("options", {}))
    made = [f for x, y, f in state.charges if (x, y) == (a.key, d.key)]
    again = (a.key, d.key) in state.ties
    if not made and not again:
        raise ActionRefused(f"{a.name} did not charge {d.name} this turn (and no melee between "
                            "them goes on from the last)")
    fa, fd = melee_plan(setup, state, i)
    if not again:
        melee_rules.may_charge(fa, fd, foot_near_gun_cm=(
            None if "foot_near_gun_cm" not in opts
            else _fraction(opts["foot_near_gun_cm"], "distance")))
    result = melee_rules.melee(fa, fd, dice, (a.name, d.name))
    rolls = list(result.rolls)
    lines = [f"  Melee: {a.name} against {d.name}"] + [f"  {x}" for x in result.lines]
    units = dict(state.units)
    units[a.key] = replace(anow, meleed=True, steps=max(0, anow.steps - (
        result.attacker_hits - anow.fire_hits)))
    units[d.key] = replace(dnow, meleed=True, steps=max(0, dnow.steps - (
        result.defender_hits - dnow.fire_hits)))
    ties = tuple(t for t in state.ties if t != (a.key, d.key))
    for key in (a.key, d.key):
        if units[key].steps == 0 and not units[key].eliminated:
            lines.append(f"  {forces(setup, state).unit(key).name} is eliminated")
            _eliminate(state, units, key, setup, lines)
    verdict = result.verdict
    if verdict is melee_rules.Verdict.GUNS_ELIMINATED:
        for key in (a.key, d.key):
            if forces(setup, state).unit(key).kind is Kind.GUNS and not units[key].eliminated:
                lines.append(f"  {forces(setup, state).unit(key).name} are eliminated")
                _eliminate(state, units, key, setup, lines)
    elif verdict is melee_rules.Verdict.ANOTHER_ROUND:
        ties += ((a.key, d.key),)
    else:
        loser = a if verdict is melee_rules.Verdict.ATTACKER_RETREATS else d
        if not units[loser.key].eliminated:
            _retreat(setup, state, units, loser, str(opts.get("obstructed_by", "")),
                     _support(setup, state, opts.get("supported", {})), dice, rolls, lines)
    after = replace(state, units=units, ties=ties)
    return _Outcome("melee", f"melee: {a.name} against {d.name}", after, tuple(lines),
                    tuple(rolls))


def _retreat(setup: BattleSetup, state: BattleState, units: dict[str, UnitNow], loser: Unit,
             blocker_key: str, supported: Mapping[str, str], dice: DiceSource,
             rolls: list[Roll], lines: list[str]) -> None:
    """The loser retreats a full move (varied), back to the enemy; blocked, it is eliminated;
    a friendly unit retreated into tests; a loser that survives tests for losing the melee."""
    f = forces(setup, state)
    now = units[loser.key]
    full = full_move(loser.kind, now.firing_order and loser.kind is Kind.FOOT)
    distance, roll = roll_variation(loser.name, full, dice)
    rolls.append(roll)
    lines.append(f"  {loser.name} retreats {distance} cm (variation {roll.total}) and ends "
                 "with its back to the enemy")
    units[loser.key] = replace(units[loser.key], firing_order=False)
    if blocker_key:
        blocker, bnow = _unit(setup, state, blocker_key)
        if retreat_blocked(blocker.kind):
            lines.append(f"  Its retreat is obstructed by {blocker.name}: {loser.name} is "
                         "eliminated")
            _eliminate(state, units, loser.key, setup, lines)
        if blocker.side == loser.side and blocker_tests(blocker.kind, loser.kind):
            test = morale_test(blocker.name, blocker.quality, dice,
                               general=state.attached.get(blocker.side) == blocker.key,
                               support=blocker.key in supported,
                               reason=f"retreated into by {loser.name}")
            rolls.append(test.roll)
            lines.append(f"  {test.line}")
            if not test.passed:
                units[blocker.key] = replace(bnow, steps=bnow.steps - 1)
                if bnow.steps - 1 <= 0:
                    _eliminate(state, units, blocker.key, setup, lines)
        if units[loser.key].eliminated:
            return
    test = morale_test(loser.name, f.unit(loser.key).quality, dice,
                       general=state.attached.get(loser.side) == loser.key,
                       support=loser.key in supported, reason="lost the melee")
    rolls.append(test.roll)
    lines.append(f"  {test.line}")
    if not test.passed:
        left = units[loser.key].steps - 1
        units[loser.key] = replace(units[loser.key], steps=max(0, left))
        if left <= 0:
            lines.append(f"  {loser.name} is eliminated")
            _eliminate(state, units, loser.key, setup, lines)


def unfought(setup: BattleSetup, state: BattleState) -> tuple[tuple[str, str], ...]:
    """The charges made this turn (and melees tied from the last) whose melee is still to be
    fought, as (attacker, defender): a charge is movement meant to end in a melee, so each is
    fought before the turn ends, unless one of the two is gone."""
    out: list[tuple[str, str]] = []
    pairs = [(a, d) for a, d, _f in state.charges] + list(state.ties)
    for a, d in pairs:
        if (a, d) in out:
            continue
        anow, dnow = state.units[a], state.units[d]
        if anow.eliminated or dnow.eliminated or anow.meleed or dnow.meleed:
            continue
        out.append((a, d))
    return tuple(out)


def _end_turn(setup: BattleSetup, state: BattleState) -> _Outcome:
    _stage(state, Stage.MELEE, "ending the turn")
    due = unfought(setup, state)
    if due:
        f = forces(setup, state)
        names = "; ".join(f"{f.unit(a).name} against {f.unit(d).name}" for a, d in due)
        raise ActionRefused(f"the turn cannot end before its melees are fought (seed 004, "
                            f"Melees: a charge is a move meant to end in a melee, and guns "
                            f"charged are eliminated in it): still to fight: {names}")
    units = {k: replace(v, moved=False, fired=False, meleed=False, fire_hits=0,
                        half_move=False)
             for k, v in state.units.items()}
    if state.turn >= setup.turns:
        after = replace(state, units=units, stage=Stage.OVER, result="draw",
                        reason=f"{_NIGHTFALL} after turn {state.turn} with neither army lost")
        return _Outcome("end-turn", "nightfall", after,
                        (f"Night falls after turn {state.turn}: neither army has lost; "
                         "the battle is a draw",))
    after = replace(state, units=units, turn=state.turn + 1, stage=Stage.FIRST_MOVE,
                    first="", to_move="", done=(), charges=())
    lines = [f"  End of turn {state.turn}"]
    if state.ties:
        names = "; ".join(f"{forces(setup, state).unit(a).name} and "
                          f"{forces(setup, state).unit(d).name}" for a, d in state.ties)
        lines.append(f"  Melees to fight another round: {names}")
    return _Outcome("end-turn", f"end of turn {state.turn}", after, tuple(lines))


def _override(state: BattleState, side: str, reason: str) -> _Outcome:
    if side not in (*SIDES, "draw"):
        raise ActionRefused(f"'{side}' is not a side nor a draw ({', '.join(SIDES)}, draw)")
    if not reason:
        raise ActionRefused("the umpire's decision needs a reason")
    after = replace(state, stage=Stage.OVER, result=side, reason=f"{_UMPIRE}: {reason}")
    return _Outcome("override", f"the umpire decides: {side}", after,
                    (f"The umpire decides: {side} ({reason})",))


def _finish(setup: BattleSetup, state: BattleState) -> _Outcome:
    d = decision(setup, state)
    if not d.final:
        raise ActionRefused(d.reason)
    text = "a draw" if d.winner is None else f"the {d.winner} win"
    return _Outcome("finish", f"Finish: {d.result}", replace(state, finished=True),
                    (f"The battle is finished: {text} – {d.reason}",))


# -- the result ---------------------------------------------------------------------------------


def standing(setup: BattleSetup, state: BattleState, side: str) -> tuple[int, int]:
    """A side's units at the start and left now, the general included."""
    army = forces(setup, state).army(side)
    left = sum(1 for u in army.units if not state.units[u.key].eliminated)
    return len(army.units), left


def _judge(setup: BattleSetup, state: BattleState) -> tuple[BattleState, tuple[str, ...]]:
    if state.stage == Stage.OVER:
        return state, ()
    lost = [s for s in SIDES if army_lost(*standing(setup, state, s))]
    if not lost:
        return state, ()
    if len(lost) == 2:
        reason = "both armies fell below half their units at once"
        return replace(state, stage=Stage.OVER, result="draw", reason=reason), (
            f"Result: a draw: {reason}",)
    winner = _other(lost[0])
    start_n, left = standing(setup, state, lost[0])
    reason = f"the {lost[0]} army has {left} of its {start_n} units left, below half"
    return replace(state, stage=Stage.OVER, result=winner, reason=reason), (
        f"Result: the {winner} win: {reason}",)


def decision(setup: BattleSetup, state: BattleState) -> Decision:
    """The result the battle gives now."""
    if state.stage == Stage.OVER:
        return Decision(BattleOutcome.of(_termination(state.reason), state.result),
                        state.reason)
    parts = []
    for side in SIDES:
        start_n, left = standing(setup, state, side)
        parts.append(f"{side} {left} of {start_n}")
    return Decision(None, f"undecided on turn {state.turn} ({', '.join(parts)} units left; an "
                          "army below half has lost)")


_UMPIRE = "the umpire's decision"
_NIGHTFALL = "night fell"


def _termination(reason: str) -> Termination:
    """Why the battle ended, from the reason its end wrote (the umpire's, nightfall's, or an
    army's loss)."""
    if reason.startswith(_UMPIRE):
        return Termination.UMPIRE
    if reason.startswith(_NIGHTFALL):
        return Termination.NIGHTFALL
    return Termination.ARMY_BROKE


def report(setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
    """The battle report: a header, the armies as units, then every step's lines in order."""
    title = setup.title[0].upper() + setup.title[1:]
    f = forces(setup, replay(setup, steps))
    lines = [title, f"Rules: {tables().title} (ruleset 004); {setup.turns} turns"]
    for side in SIDES:
        army = f.army(side)
        lines.append(f"{side}: {len(army.units)} units: " + ", ".join(
            f"{u.name} ({u.kind}, {u.quality})" for u in army.units))
    for step in steps:
        lines.extend(step.lines)
    return lines


# -- what the window shows --------------------------------------------------------------------


def step_now(setup: BattleSetup, state: BattleState) -> str:
    """Where the battle stands, as the window names it: ``Turn 2 – movement – French to move``."""
    if state.stage == Stage.OVER:
        return f"finished: {state.result} ({state.reason})"
    if state.stage == Stage.MOVEMENT:
        return f"Turn {state.turn} – movement – the {state.to_move} to move"
    if state.stage == Stage.FIRST_MOVE:
        return f"Turn {state.turn} – dice for the first move"
    return f"Turn {state.turn} – {state.stage}"


def units_table(setup: BattleSetup, state: BattleState) -> list[tuple[str, ...]]:
    """Per unit: name, side, kind, quality, effectiveness, order, and what it has done."""
    f = forces(setup, state)
    rows: list[tuple[str, ...]] = []
    for u in f.units:
        now = state.units[u.key]
        order = ("limbered" if now.limbered else "unlimbered") if u.kind is Kind.GUNS else (
            ("firing order" if now.firing_order else "not in firing order")
            if u.kind is Kind.FOOT else "")
        done = ", ".join(w for w, on in (("moved", now.moved), ("fired", now.fired),
                                         ("meleed", now.meleed)) if on)
        general = next((f"with the {s} general" for s, k in state.attached.items()
                        if k == u.key), "")
        if not arrived(setup, state, u.key):
            done = f"arrives on turn {arrival_turn(setup, u.key)}"
        rows.append((u.name, u.side, str(u.kind) + (" (cuirassiers)" if u.cuirassiers else ""),
                     str(u.quality), "eliminated" if now.eliminated else f"{now.steps * 25} %",
                     order, "; ".join(x for x in (done, general) if x)))
    return rows


def who_acts(setup: BattleSetup, state: BattleState) -> tuple[str, ...]:
    """The units that may still act in the current phase (move, fire, or fight a melee)."""
    f = forces(setup, state)
    alive = [u for u in f.units if not state.units[u.key].eliminated
             and arrived(setup, state, u.key)]
    if state.stage == Stage.MOVEMENT:
        return tuple(u.key for u in alive if u.side == state.to_move
                     and not state.units[u.key].moved)
    if state.stage == Stage.FIRE:
        return tuple(u.key for u in alive if not state.units[u.key].fired
                     and (u.kind.foot or u.kind in (Kind.LIGHT_HORSE, Kind.GUNS))
                     and _may_fire_now(u, state))
    if state.stage == Stage.MELEE:
        fighting = {a for a, _d, _f in state.charges} | {a for a, _d in state.ties}
        return tuple(u.key for u in alive if u.key in fighting
                     and not state.units[u.key].meleed)
    return ()


def _may_fire_now(u: Unit, state: BattleState) -> bool:
    """Whether a unit may fire in this fire phase as :func:`_fire` allows: not limbered, and
    not moved unless light on its half move, fired at already (returning fire), or foot
    charged in front."""
    now = state.units[u.key]
    if now.limbered:
        return False
    if not now.moved or (u.kind.light and now.half_move):
        return True
    if u.kind is Kind.GUNS:
        return False
    return (any(h.target == u.key for h in state.held)
            or (u.kind is Kind.FOOT and any(d == u.key and f == "front"
                                            for _a, d, f in state.charges)))


def outcomes(setup: BattleSetup, state: BattleState) -> tuple[BrigadeOutcome, ...]:
    """Each brigade at the end, as auto-resolve gives it: steps lost as casualties, an
    eliminated unit destroyed (and in rout)."""
    f = forces(setup, state)
    out = []
    for b in setup.brigades:
        now = state.units[b.key]
        lost = f.unit(b.key).steps - (0 if now.eliminated else now.steps)
        out.append(BrigadeOutcome(b.key, b.name, b.corps, lost,
                                  MoraleState.ROUT if now.eliminated else MoraleState.FORMED,
                                  now.eliminated))
    return tuple(out)
