"""A battle in progress: its state, the umpire's steps, and how a step is kept and replayed.

A battle is its :class:`~campaign1813.campaign.battle.setup.BattleSetup` and the steps taken
since, each a :class:`Step`: the umpire's action, the report lines it wrote, the dice it rolled
and a *patch* — the parts of the :class:`FightState` it changed, with their new values. The
state now is the setup's starting state with every patch applied in order (:func:`replay`), so
a battle closed and reopened is the same battle, and undoing a step is dropping it. The rules
are consulted once, when a step is taken; replaying a step never rolls again.

Steps follow seed 000's sequence of play: a chip is drawn (each once a turn), the commander
rolls his pips and spends them (Rules 2 and 3), his corps spots, fires, tests, moves, fights and
tests morale, in that order; after the last chip the turn ends, disordered troops re-form, and
after the last turn night falls. The tests themselves are in ``fight_tests``.

"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import msgspec

from campaign1813.campaign.battle.core.engine import Decision
from campaign1813.campaign.battle.core.outcome import Outcome as BattleOutcome
from campaign1813.campaign.battle.core.outcome import Termination
from campaign1813.campaign.battle.core.refusal import NotNow
from campaign1813.campaign.battle.core.steps import Step, patched, seeded, state_patch
from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset1813 import report_lines
from campaign1813.campaign.battle.ruleset1813.rules.army import (
    ArmyStanding,
    BrigadeStanding,
    CorpsStanding,
    army_break,
    corps_broken,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.command import (
    Activation,
    Commander,
    Role,
    Spent,
    change_to_halt,
    cinc_change_orders,
    corps_action,
    give_move,
    pips_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    PURSUING,
    PURSUIT_RALLY,
    end_of_sequence,
)
from campaign1813.campaign.battle.ruleset1813.rules.orders import may_change_orders
from campaign1813.campaign.battle.ruleset1813.rules.spotting import blind_pips_odds, roll_blind_pips
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction, command_table
from campaign1813.campaign.battle.ruleset1813.rules.tables.spotting import spotting_table
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    BrigadeSetup,
    CommanderSetup,
    Special,
)
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Formation, Grade, MoraleState

__all__ = ["Phase", "Stage", "BrigadeNow", "CorpsNow", "Pending", "ActivationNow", "FightState",
           "Step", "Outcome", "replay", "seeded", "draw", "roll_pips", "spend", "change_orders",
           "give_move_to", "allocate", "set_orders", "dismiss", "set_formation", "record_holder",
           "override", "decision", "Decision", "standing", "side_of", "label_of", "STAGES",
           "brigade_now", "corps_of_brigade", "begin", "broken_now", "on_blind", "immediate",
           "SPEND_STAGE", "missing", "pips_text", "PipsUnspent", "arrival_turn"]


class Phase:
    """Where the battle stands: being set up, being fought, at nightfall, or finished."""

    SETUP = "setup"
    PLAY = "play"
    NIGHT = "night"
    FINISHED = "finished"


class Stage:
    """The steps of an activation in seed 000's order."""

    PIPS = "pips"
    SPOT = "spot"
    FIRE = "artillery fire"
    FIRE_MORALE = "artillery morale"
    MOVE = "movement"
    COMBAT = "combats"
    MORALE = "morale"


# The queued test of pursuing cavalry at their next move (Rule 16).
PURSUERS_RALLY = PURSUIT_RALLY.value

STAGES = (Stage.PIPS, Stage.SPOT, Stage.FIRE, Stage.FIRE_MORALE, Stage.MOVE, Stage.COMBAT,
          Stage.MORALE)


@dataclass(frozen=True)
class BrigadeNow:
    """A brigade's casualties, morale state and formation now; removed once off the table;
    ``pursuing`` from a pursuit (Rule 16) until its rally at its corps' next move;
    ``garrison`` once its commander has paid for it to hold a built-up area or wood (Rule 9)."""

    casualties: int = 0
    state: MoraleState = MoraleState.FORMED
    formation: Formation | None = None
    removed: bool = False
    pursuing: bool = False
    garrison: bool = False


@dataclass(frozen=True)
class CorpsNow:
    """A corps' orders and objective now, its brigades, and whether its blind is spotted."""

    orders: CorpsOrder
    objective: str
    brigades: tuple[str, ...]
    spotted: bool = False


@dataclass(frozen=True)
class Pending:
    """A test a result has triggered and the umpire has still to take (or dismiss)."""

    test: str
    who: str
    reason: str
    facts: tuple[str, ...] = ()
    cause: str = ""


@dataclass(frozen=True)
class ActivationNow:
    """The commander whose chip was drawn: his pips, what he spent, the stage he has reached.

    ``acted`` is what each brigade has done this move that the rules limit (a battery fires
    once, a brigade that skirmished may not fire fight, a garrison's first move): pairs of the
    brigade's key and ``fire``, ``skirmish``, ``firefight`` or ``garrison``. ``blind`` says his
    pips were Rule 1's, his corps being on its blind when he rolled. ``missed``: he misses his
    move for the Poor chip, and only his artillery fires (Rule 7), with no pips.
    """

    chip: str
    commander: str
    pips: int | None = None
    roll: int | None = None
    spent: tuple[tuple[str, int], ...] = ()
    stage: str = Stage.PIPS
    given_by: str = ""
    acted: tuple[tuple[str, str], ...] = ()
    blind: bool = False
    missed: bool = False

    @property
    def remaining(self) -> int:
        """Pips not yet spent."""
        return (self.pips or 0) - sum(cost for _, cost in self.spent)


@dataclass(frozen=True)
class FightState:
    """Everything that changes during a battle."""

    phase: str
    turn: int
    move: int
    drawn: tuple[str, ...]
    brigades: dict[str, BrigadeNow]
    corps: dict[str, CorpsNow]
    poor_pending: bool = False
    special: str = ""
    moved: tuple[str, ...] = ()
    activation: ActivationNow | None = None
    queue: tuple[Pending, ...] = ()
    holder: str = ""
    holder_reason: str = ""
    override_winner: str = ""
    override_reason: str = ""
    result: str = ""

    @classmethod
    def start(cls, setup: BattleSetup) -> FightState:
        """The state before the first chip: brigades with the casualties they bring."""
        brigades = {b.key: BrigadeNow(b.casualties, formation=_first_formation(setup, b))
                    for b in setup.brigades}
        corps = {c.key: CorpsNow(c.orders, c.objective, c.brigades) for c in setup.corps}
        return cls(Phase.SETUP, 0, 0, (), brigades, corps)


def _first_formation(setup: BattleSetup, b: BrigadeSetup) -> Formation:
    marching = setup.corps_of(b.corps).column_of_march
    if b.arm is Arm.INFANTRY:
        return Formation.COLUMN_OF_MARCH if marching else Formation.LINE
    if b.arm is Arm.CAVALRY:
        return Formation.CAVALRY_COLUMN if marching else Formation.CAVALRY_LINE
    return Formation.LIMBERED if marching else Formation.UNLIMBERED


# -- steps as kept ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What a step computes before it is kept: the new state and what to report."""

    kind: str
    label: str
    state: FightState
    lines: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)


_KEYED = ("brigades", "corps")
def _plain(state: FightState) -> dict[str, Any]:
    return msgspec.to_builtins(state)  # type: ignore[no-any-return]


def _patch(before: FightState, after: FightState) -> dict[str, Any]:
    return state_patch(_plain(before), _plain(after), _KEYED)


def keep(before: FightState, outcome: Outcome, setup: BattleSetup) -> Step:
    """The step to keep for an outcome, with the army-break lines it brings about."""
    lines = list(outcome.lines) + _break_news(setup, before, outcome.state)
    rolls = tuple((r.purpose, r.faces) for r in outcome.rolls)
    return Step(outcome.kind, outcome.label, tuple(lines), _patch(before, outcome.state), rolls,
                dict(outcome.inputs))


def replay_plain(plain: dict[str, Any], patches: Any) -> FightState:
    """Apply patches to a state in its plain form, then read it back once."""
    return patched(plain, patches, _KEYED, FightState)


def replay(setup: BattleSetup, steps: tuple[Step, ...] | list[Step]) -> FightState:
    """The state after these steps."""
    return replay_plain(_plain(FightState.start(setup)), (s.patch for s in steps))


# -- who is who ------------------------------------------------------------------------------


def brigade_of(b: BrigadeSetup, casualties: int = 0, state: MoraleState = MoraleState.FORMED,
               formation: Formation | None = None) -> Brigade:
    """A brigade of the setup as the rules read it, at a moment of the battle."""
    return Brigade(b.name, b.arm, b.rating, b.firepower, b.skirmish, b.cavalry, b.lancers,
                   casualties, state, formation, b.nation)


def commander_of(c: CommanderSetup) -> Commander:
    """A commander of the setup as Rules 2 and 3 read him."""
    return Commander(c.name, c.grade, c.role, c.nation)


def label_of(setup: BattleSetup, key: str) -> str:
    """A brigade's name as the report gives it, unique in the battle: ``13 Infantry Brigade
    (4 Corps)``."""
    b = setup.brigade(key)
    return b.name if b.name.startswith(b.corps) else f"{b.name} ({b.corps})"


def side_of(setup: BattleSetup, key: str) -> str:
    """The side of a brigade, corps or commander."""
    for c in setup.commanders:
        if c.key == key:
            return c.side
    for corps in setup.corps:
        if corps.key == key:
            return corps.side
    return setup.corps_of(setup.brigade(key).corps).side


def corps_of_brigade(state: FightState, key: str) -> str:
    """The corps (or reserve) a brigade stands with now."""
    for name, corps in state.corps.items():
        if key in corps.brigades:
            return name
    raise ActionRefused(f"{key} stands with no corps")


def brigade_now(state: FightState, setup: BattleSetup, key: str) -> BrigadeNow:
    """A brigade's state, refusing an unknown key with the keys that are known."""
    if key not in state.brigades:
        raise ActionRefused(f"there is no brigade '{key}' in {setup.title} "
                            f"(brigades are named like {next(iter(state.brigades))})")
    return state.brigades[key]


def _corps_of_commander(setup: BattleSetup, commander: str) -> str | None:
    for c in setup.corps:
        if c.commander == commander:
            return c.key
    return None


def _nation(setup: BattleSetup, commander: str) -> str:
    c = setup.commander(commander)
    return c.nation or c.side


def _header(setup: BattleSetup, state: FightState, commander: str, chip: str) -> str:
    c = setup.commander(commander)
    what = "CinC" if c.role is Role.CINC else (_corps_of_commander(setup, commander) or c.name)
    return report_lines.header_line(state.move, _nation(setup, commander), what, f"chip {chip}")


# -- the army break ---------------------------------------------------------------------------


def standing(setup: BattleSetup, state: FightState, side: str) -> ArmyStanding:
    """One side's army as the break rules judge it: every corps it brings to the battle that
    has brigades, arrived or not (a corps still to arrive is not broken: army.side_lost)."""
    corps = []
    for c in setup.side_corps(side):
        now = state.corps[c.key]
        if not now.brigades:
            continue
        corps.append(CorpsStanding(c.key, tuple(
            BrigadeStanding(k, state.brigades[k].state, state.brigades[k].removed)
            for k in now.brigades)))
    return ArmyStanding(side, tuple(corps))


def broken_now(setup: BattleSetup, state: FightState) -> tuple[set[str], set[str]]:
    corps: set[str] = set()
    sides: set[str] = set()
    for side in (FRENCH, ALLIED):
        army = standing(setup, state, side)
        if not army.corps:
            continue
        corps |= {c.name for c in army.corps if corps_broken(c, setup.ruleset)}
        if army_break(army, setup.ruleset).lost:
            sides.add(side)
    return corps, sides


def _break_news(setup: BattleSetup, before: FightState, after: FightState) -> list[str]:
    if before.brigades == after.brigades and before.corps == after.corps:
        return []
    c0, s0 = broken_now(setup, before)
    c1, s1 = broken_now(setup, after)
    lines = [report_lines.corps_broken_line(c) for c in sorted(c1 - c0, key=_corps_order(setup))]
    lines += [report_lines.corps_mended_line(c)
              for c in sorted(c0 - c1, key=_corps_order(setup))]
    lines += [report_lines.army_broken_line(s) for s in sorted(s1 - s0)]
    lines += [report_lines.army_mended_line(s) for s in sorted(s0 - s1)]
    return lines


def _corps_order(setup: BattleSetup) -> Callable[[str], int]:
    keys = [c.key for c in setup.corps]
    return keys.index


def decision(setup: BattleSetup, state: FightState) -> Decision:
    """The result the battle gives now: the umpire's override, an army broken, or at
    nightfall the side holding the battle town (a draw when nobody does)."""
    if state.override_winner:
        return Decision(BattleOutcome.of(Termination.UMPIRE, state.override_winner),
                        f"the umpire's decision: {state.override_reason}")
    _corps, lost = broken_now(setup, state)
    if len(lost) == 1:
        loser = next(iter(lost))
        winner = ALLIED if loser == FRENCH else FRENCH
        return Decision(BattleOutcome.of(Termination.ARMY_BROKE, winner),
                        f"the {loser} army broke")
    if len(lost) == 2:
        return Decision(BattleOutcome(Termination.ARMY_BROKE, None), "both armies broke")
    if state.phase in (Phase.NIGHT, Phase.FINISHED):
        if not state.holder:
            return Decision(None, "night has fallen: record who holds the battle town or most "
                                  "of the nine squares")
        if state.holder == "draw":
            return Decision(BattleOutcome(Termination.NIGHTFALL, None),
                            f"night fell with neither side holding the field "
                            f"({state.holder_reason})")
        return Decision(BattleOutcome.of(Termination.NIGHTFALL, state.holder),
                        f"night fell with the {state.holder} holding "
                        f"{_held(setup, state.holder_reason)}")
    return Decision(None, f"the battle is undecided on turn {state.turn} "
                          f"({_break_count(setup, state)}): it ends at nightfall, when an army "
                          "breaks, or by the umpire's decision")


def _break_count(setup: BattleSetup, state: FightState) -> str:
    """Each side's broken corps out of all it brings, those still to arrive counted:
    ``French 0 of 1 corps broken, Allied 1 of 3 (2 still to arrive)``."""
    corps, _lost = broken_now(setup, state)
    parts: list[str] = []
    for side in (FRENCH, ALLIED):
        army = standing(setup, state, side)
        if not army.corps:
            continue
        broken = sum(c.name in corps for c in army.corps)
        due = sum(setup.corps_of(c.name).turn > max(state.turn, 1) for c in army.corps)
        parts.append(f"{side} {broken} of {len(army.corps)}"
                     + (" corps broken" if not parts else "")
                     + (f" ({due} still to arrive)" if due else ""))
    return ", ".join(parts)


# -- the steps --------------------------------------------------------------------------------


def _playing(state: FightState, what: str) -> None:
    if state.phase == Phase.FINISHED:
        raise ActionRefused(f"the battle is finished; cannot {what}")
    if state.phase == Phase.NIGHT:
        raise ActionRefused(f"night has fallen; cannot {what}")


def begin(setup: BattleSetup, state: FightState) -> Outcome:
    """Start turn 1."""
    if state.phase != Phase.SETUP:
        raise ActionRefused("the battle has already begun")
    return Outcome("begin", "Begin the battle",
                   replace(state, phase=Phase.PLAY, turn=1, move=0),
                   (f"Turn 1 of {setup.turns}",))


def _chips_left(setup: BattleSetup, state: FightState) -> list[str]:
    return [c.label for c in setup.chips if c.label not in state.drawn]


def _owed(state: FightState) -> None:
    queue = state.queue
    if queue:
        owed = "; ".join(f"{p.test} for {p.who or p.reason}" for p in queue[:3])
        more = f" and {len(queue) - 3} more" if len(queue) > 3 else ""
        raise ActionRefused(f"{len(queue)} test{'s' if len(queue) > 1 else ''} "
                            f"still to take or dismiss first: {owed}{more}")
    if state.special:
        raise ActionRefused(f"the {state.special} chip is waiting: name the commander who "
                            "takes his move, or pass")


class PipsUnspent(ActionRefused):
    """Rule 3's refusal to end a corps commander's move with pips unrolled or unspent until
    the umpire confirms that nothing more serves the orders; it names the commander
    (``commander``) and what is left (``left``, e.g. "has 2 pips unspent")."""

    def __init__(self, message: str, commander: str, left: str) -> None:
        super().__init__(message)
        self.commander = commander
        self.left = left


def _unspent(setup: BattleSetup, state: FightState, confirm: bool) -> list[str]:
    """Rule 3: a corps or reserve commander uses all his pips for his orders. Ending his move
    with pips unrolled or unspent is refused unless the umpire confirms that nothing more
    serves the orders; the confirmation is written in the report."""
    act = state.activation
    if act is None:
        return []
    c = setup.commander(act.commander)
    if c.role is Role.CINC:
        return []
    if act.pips is None:
        left = "has not rolled his pips"
    elif act.remaining > 0:
        left = f"has {act.remaining} pip{'s' if act.remaining != 1 else ''} unspent"
    else:
        return []
    if not confirm:
        raise PipsUnspent(f"Rule 3: {c.name} must use all his pips to carry out his orders "
                          f"and {left}; {'roll and ' if act.pips is None else ''}spend "
                          f"them, or confirm that nothing more serves the orders "
                          f"(--confirm-unspent)", c.name, left)
    return [f"{c.name} {left}: the umpire confirms nothing more serves his orders (Rule 3)"]


def draw(setup: BattleSetup, state: FightState, chip: str | None, index: int,
         commander: str | None = None, confirm: bool = False) -> Outcome:
    """Draw the next chip: the one the umpire drew from the real bag, or one drawn here.

    The special chips (French tactical, French and Allied gifted) name the commander who takes
    his move now: ``commander``; a special chip with nobody to name passes. ``confirm`` is the
    umpire's word that the commander moving leaves his pips unspent for want of a use (Rule 3).
    """
    lines: list[str] = []
    if state.phase == Phase.SETUP:
        started = begin(setup, state)
        state, lines = started.state, list(started.lines)
    _playing(state, "draw a chip")
    _owed(state)
    lines += _unspent(setup, state, confirm)
    left = _chips_left(setup, state)
    if not left:
        state, lines = _end_turn(setup, state)
        if state.phase == Phase.NIGHT:
            return Outcome("draw", "Nightfall", state, tuple(lines))
        left = _chips_left(setup, state)
    if chip is None:
        chip = random.Random(f"{setup.seed}/{setup.battle}/chip/{state.turn}/"
                             f"{len(state.drawn)}/{index}").choice(sorted(left))
    known = {c.label: c for c in setup.chips}
    if chip not in known:
        raise ActionRefused(f"there is no chip '{chip}' in this battle (chips: "
                            f"{', '.join(known)})")
    own = known[chip].commander
    if commander and own is not None:
        specials = ", ".join(c.label for c in setup.chips
                             if c.commander is None and c.label != Special.POOR) or "none"
        raise ActionRefused(f"chip {chip} is {setup.commander(own).name}'s "
                            f"own; a commander is named only for a special chip (in this "
                            f"battle: {specials})")
    if chip not in left:
        raise ActionRefused(f"chip {chip} has already been drawn on turn {state.turn}")
    state = replace(state, drawn=state.drawn + (chip,), move=state.move + 1, activation=None)
    c = known[chip]
    if c.commander is None:
        return _special(setup, state, chip, commander, lines)
    return _activate(setup, state, chip, c.commander, lines)


def _special(setup: BattleSetup, state: FightState, chip: str, commander: str | None,
             lines: list[str]) -> Outcome:
    if chip == Special.POOR:
        lines.append(f"Move {state.move} – Poor Card")
        return Outcome("draw", "Draw the Poor chip", replace(state, poor_pending=True),
                       tuple(lines))
    eligible = _eligible(setup, state, chip)
    lines.append(f"Move {state.move} – {chip} chip")
    if not eligible:
        lines.append("No commander may use it")
        return Outcome("draw", f"Draw the {chip} chip", state, tuple(lines))
    if commander is None:
        return Outcome("draw", f"Draw the {chip} chip", replace(state, special=chip),
                       tuple(lines))
    return _use_special(setup, state, chip, commander, lines)


def _eligible(setup: BattleSetup, state: FightState, chip: str) -> list[str]:
    out = []
    for c in setup.commanders:
        if c.key in state.moved or not _on_table(setup, state, c.key):
            continue
        corps = _corps_of_commander(setup, c.key)
        if chip == Special.FRENCH_TACTICAL:
            ok = c.side == FRENCH and corps is not None and not state.corps[corps].spotted
        elif chip == Special.FRENCH_GIFTED:
            ok = c.side == FRENCH and c.grade is Grade.GIFTED
        else:
            ok = c.side == ALLIED and c.grade is Grade.GIFTED
        if ok:
            out.append(c.key)
    return out


def use_special(setup: BattleSetup, state: FightState, commander: str | None) -> Outcome:
    """Name the commander who takes his move on the special chip just drawn, or pass."""
    if not state.special:
        raise ActionRefused("no special chip is waiting for a commander")
    chip = state.special
    state = replace(state, special="")
    if commander is None:
        return Outcome("special", f"Pass the {chip} chip", state, ("Not used",))
    return _use_special(setup, state, chip, commander, [])


def _use_special(setup: BattleSetup, state: FightState, chip: str, commander: str,
                 lines: list[str]) -> Outcome:
    eligible = _eligible(setup, state, chip)
    if commander not in eligible:
        known = {c.key: c.name for c in setup.commanders}
        who = known.get(commander, f"'{commander}', not a commander of this battle,")
        rule = {Special.FRENCH_TACTICAL: "a French commander still on a blind",
                Special.FRENCH_GIFTED: "a Gifted French commander",
                Special.ALLIED_GIFTED: "a Gifted Allied commander"}[Special(chip)]
        raise ActionRefused(f"the {chip} chip is for {rule} who has not yet moved this turn; "
                            f"{who} is not (may: {', '.join(eligible) or 'nobody'})")
    return _activate(setup, replace(state, special=""), chip, commander, lines,
                     kind="special")


def arrival_turn(setup: BattleSetup, commander: str) -> int:
    """The turn a commander reaches the table: his corps' for a corps or reserve commander,
    his headquarters' for a CinC (turn 4 when it marches to the sound of the guns)."""
    corps = _corps_of_commander(setup, commander)
    if corps is None:
        return setup.commander(commander).turn
    return setup.corps_of(corps).turn


def _on_table(setup: BattleSetup, state: FightState, commander: str) -> bool:
    return state.turn >= arrival_turn(setup, commander)


def _activate(setup: BattleSetup, state: FightState, chip: str, commander: str,
              lines: list[str], kind: str = "draw") -> Outcome:
    c = setup.commander(commander)
    lines.append(_header(setup, state, commander, chip))
    corps = _corps_of_commander(setup, commander)
    if corps is not None:
        lines.append(f"Orders: {state.corps[corps].orders.value}")
    label = f"Draw chip {chip}: {c.name}"
    if commander in state.moved:
        lines.append("Has already moved this turn")
        return Outcome(kind, label, state, tuple(lines))
    if not _on_table(setup, state, commander):
        due = arrival_turn(setup, commander)
        lines.append(f"Not yet on the table (arrives on turn {due})")
        return Outcome(kind, label, state, tuple(lines))
    state = replace(state, moved=state.moved + (commander,))
    if state.poor_pending and c.grade is Grade.POOR:
        lines.append("Miss move due to Poor Card")
        # Rule 7: his artillery may still fire, at the fire step, paying nothing
        missed = (ActivationNow(chip, commander, 0, None, (), Stage.SPOT, missed=True)
                  if corps is not None else None)
        return Outcome(kind, label, replace(state, poor_pending=False, activation=missed),
                       tuple(lines))
    return Outcome(kind, label, replace(state, activation=ActivationNow(chip, commander)),
                   tuple(lines))


def _end_turn(setup: BattleSetup, state: FightState) -> tuple[FightState, list[str]]:
    """Every chip drawn: disordered troops re-form (Rule 18); the next turn, or nightfall."""
    brigades = dict(state.brigades)
    for key, now in state.brigades.items():
        if now.pursuing:    # Rule 16: pursuers stay as they are until they have rallied
            continue
        b = brigade_of(setup.brigade(key), now.casualties, now.state, now.formation)
        after = end_of_sequence(b, setup.ruleset)
        if after.state is not now.state and not now.removed:
            brigades[key] = replace(now, state=after.state)
    state = replace(state, brigades=brigades, drawn=(), moved=(), move=0, activation=None,
                    poor_pending=False)
    if state.turn >= setup.turns:
        return replace(state, phase=Phase.NIGHT), [f"Night falls after turn {state.turn}"]
    return replace(state, turn=state.turn + 1), [f"Turn {state.turn + 1} of {setup.turns}"]


def end_turn(setup: BattleSetup, state: FightState, confirm: bool = False) -> Outcome:
    """End the turn now (the chips left in the bag are not drawn); ``confirm`` as for
    :func:`draw`."""
    _playing(state, "end the turn")
    _owed(state)
    if state.phase == Phase.SETUP:
        raise ActionRefused("the battle has not begun: draw the first chip")
    first = _unspent(setup, state, confirm)
    after, lines = _end_turn(setup, state)
    return Outcome("end turn", f"End turn {state.turn}", after, tuple(first + lines))


def missing(setup: BattleSetup, act: ActivationNow, what: str) -> None:
    """Refuse what a commander who misses his move for the Poor chip may not do."""
    if act.missed:
        raise NotNow(f"{setup.commander(act.commander).name} misses his move for the "
                            f"Poor chip and cannot {what}; only his artillery fires (Rule 7)")


def _activation(state: FightState, setup: BattleSetup) -> ActivationNow:
    if state.activation is None:
        late = _late_chip(setup, state)
        if late:
            raise ActionRefused(late)
        raise ActionRefused("no commander is taking his move: draw a chip first")
    return state.activation


def _arrived_corps(setup: BattleSetup, state: FightState, corps: str, what: str) -> None:
    """Refuse the CinC's dealings with a corps not yet on the table (seed 000: it comes on at
    turn 4): he cannot be in base contact with its commander (Rule 2)."""
    due = setup.corps_of(corps).turn
    if state.turn < due:
        raise ActionRefused(f"{corps} is not yet on the table (arrives on turn {due}, marching "
                            f"to the sound of the guns): the CinC cannot reach its commander "
                            f"to {what} (Rule 2: base contact) on turn {state.turn}")


def _late_chip(setup: BattleSetup, state: FightState) -> str:
    """Why the commander of the chip last drawn may not act: he is not yet on the table (seed
    000: a command marching to the sound of the guns comes on at turn 4); "" otherwise."""
    if not state.drawn:
        return ""
    chip = next((c for c in setup.chips if c.label == state.drawn[-1]), None)
    if chip is None or chip.commander is None or _on_table(setup, state, chip.commander):
        return ""
    c = setup.commander(chip.commander)
    return (f"{c.name} is not yet on the table (arrives on turn "
            f"{arrival_turn(setup, c.key)}, marching to the sound of the guns): his chip "
            f"gives no move on turn {state.turn}, so he neither rolls pips, changes orders "
            "nor spends")


def roll_pips(setup: BattleSetup, state: FightState, dice: DiceSource) -> Outcome:
    """The drawn commander rolls his pips: average die + grade (Rules 2 and 3)."""
    _playing(state, "roll pips")
    act = _activation(state, setup)
    missing(setup, act, "roll pips")
    if act.pips is not None:
        raise ActionRefused(f"{setup.commander(act.commander).name} has already rolled his "
                            f"pips ({act.pips})")
    c = setup.commander(act.commander)
    corps = _corps_of_commander(setup, act.commander)
    if on_blind(state, corps):
        # Rule 1: a commander whose corps is still on its blind rolls the blind pips.
        roll, pips = roll_blind_pips(c.name, c.grade, dice, setup.ruleset)
        act = replace(act, pips=pips, roll=roll.total, stage=Stage.SPOT, blind=True)
    else:
        table = command_table(setup.ruleset)
        roll = dice.roll(table.pips_die, 1, f"pips for {c.name} ({c.grade.value})")
        pips = max(0, roll.total + table.pips_bonus[c.grade])
        act = replace(act, pips=pips, roll=roll.total, stage=Stage.SPOT)
    lines = [pips_text(setup, act)]
    queue = state.queue
    if corps is not None:
        owed = _owed_rallies(setup, state, corps)
        queue += owed
        lines += [f"  {p.test} owed by {label_of(setup, p.who)}" for p in owed]
    return Outcome("pips", f"Pips for {c.name}: {pips}",
                   replace(state, activation=act, queue=queue), tuple(lines), (roll,))


def pips_text(setup: BattleSetup, act: ActivationNow) -> str:
    """The report's line for the pips the commander moving rolled: Rule 1's while his corps
    was on its blind, else Rule 3's (empty before he rolls)."""
    if act.pips is None or act.roll is None:
        return ""
    c = setup.commander(act.commander)
    if act.blind:
        bonus = spotting_table(setup.ruleset).blind_pips_bonus[c.grade]
        return (f"Pips on the blind (Rule 1): {act.roll} {bonus:+d} ({c.grade.value}) = "
                f"{act.pips}")
    bonus = command_table(setup.ruleset).pips_bonus[c.grade]
    return report_lines.pips_line(act.roll, bonus, c.grade, act.pips)


def _owed_rallies(setup: BattleSetup, state: FightState, corps: str) -> tuple[Pending, ...]:
    """Shaken and routing brigades of the corps test at its move (Rules 17 and 18); cavalry
    still pursuing must try to rally (Rule 16: "during next move"). Each holds up the next
    chip until taken."""
    out = []
    for key in state.corps[corps].brigades:
        now = state.brigades[key]
        if now.removed or any(p.who == key for p in state.queue):
            continue
        if now.pursuing:
            out.append(Pending(PURSUERS_RALLY, key, f"{label_of(setup, key)} pursued: must try "
                               "to rally at this move (1 pip and the commander in base "
                               "contact; --with no-commander if none can)", (PURSUING,)))
        elif now.state in (MoraleState.SHAKEN, MoraleState.ROUT):
            out.append(Pending("morale test", key, f"{label_of(setup, key)} is "
                               f"{now.state.value}: tests at its corps' move (rally with 1 pip "
                               "and the commander in base contact)"))
    return tuple(out)


def on_blind(state: FightState, corps: str | None) -> bool:
    """Whether a corps is still on its blind (not yet spotted); a CinC has no blind."""
    return corps is not None and not state.corps[corps].spotted


def pips_distribution(setup: BattleSetup, commander: str,
                      state: FightState | None = None) -> dict[int, Fraction]:
    """The exact chance of each number of pips for a commander (Rule 1's while his corps is
    on its blind, when the battle's state is given)."""
    grade = setup.commander(commander).grade
    if state is not None and on_blind(state, _corps_of_commander(setup, commander)):
        return blind_pips_odds(grade, setup.ruleset)
    return pips_odds(grade, setup.ruleset)


def _budget(setup: BattleSetup, act: ActivationNow) -> Activation:
    if act.pips is None:
        raise ActionRefused(f"{setup.commander(act.commander).name} must roll his pips first")
    return Activation(commander_of(setup.commander(act.commander)), act.pips, None,
                      tuple(Spent(a, c) for a, c in act.spent))


def _paid(act: ActivationNow, budget: Activation) -> ActivationNow:
    return replace(act, spent=tuple((s.action, s.cost) for s in budget.spent))


# The step of the sequence at which each action of Rule 3 is spent. Artillery fire pays its
# pip at its own test (Rule 7's fire step), infantry fire and skirmish theirs at the combats;
# an artillery action or two spent here are a battery's limbering, moving or unlimbering.
SPEND_STAGE = {
    CorpsAction.MOVE: Stage.MOVE, CorpsAction.CHANGE_FORMATION: Stage.MOVE,
    CorpsAction.ARTILLERY_ACTION: Stage.MOVE, CorpsAction.ARTILLERY_TWO_ACTIONS: Stage.MOVE,
    CorpsAction.RETIRE_HALF_MOVE: Stage.MOVE,
    CorpsAction.HALF_MOVE_AND_CHANGE_FORMATION: Stage.MOVE,
    CorpsAction.SWAP_BRIGADES: Stage.MOVE, CorpsAction.GARRISON: Stage.MOVE,
    CorpsAction.INFANTRY_FIRE: Stage.COMBAT,
}
# Actions by which a brigade leaves the place it holds: a garrison that takes one has left.
_LEAVES = (CorpsAction.MOVE, CorpsAction.RETIRE_HALF_MOVE,
           CorpsAction.HALF_MOVE_AND_CHANGE_FORMATION, CorpsAction.SWAP_BRIGADES)


def spend(setup: BattleSetup, state: FightState, action: str, brigade: str = "",
          note: str = "") -> Outcome:
    """Tick off one action of Rule 3 against the pips, refusing what they cannot pay for,
    what comes at an earlier step of the sequence, and a garrison Rule 9 does not allow."""
    _playing(state, "spend pips")
    act = _activation(state, setup)
    missing(setup, act, "spend pips")
    try:
        what = CorpsAction(action.replace("-", "_").replace(" ", "_"))
    except ValueError:
        known = ", ".join(a.value.replace("_", "-") for a in CorpsAction)
        raise ActionRefused(f"'{action}' is not an action of Rule 3 (actions: {known})") from None
    if brigade:
        brigade_now(state, setup, brigade)
        corps = _corps_of_commander(setup, act.commander)
        if corps is not None and brigade not in state.corps[corps].brigades:
            raise ActionRefused(f"{label_of(setup, brigade)} is not of "
                                f"{setup.commander(act.commander).name}'s command")
    name = label_of(setup, brigade) if brigade else ""
    stage = SPEND_STAGE.get(what)
    if stage is not None:
        state = enter_stage(setup, state, stage, what.value.replace("_", " "))
        act = _activation(state, setup)
    lines: list[str] = []
    brigades = state.brigades
    if what is CorpsAction.GARRISON:
        brigades = _garrison(setup, state, act, brigade)
        act = replace(act, acted=act.acted + ((brigade, "garrison"),))
    elif what in _LEAVES and brigade and state.brigades[brigade].garrison:
        brigades = dict(brigades)
        brigades[brigade] = replace(brigades[brigade], garrison=False)
        lines.append(f"{name} leaves the built-up area or wood it garrisoned")
    paid = corps_action(_budget(setup, act), what, setup.ruleset, name)
    act = _paid(act, paid)
    spent = paid.spent[-1]
    text = note or spent.action[0].upper() + spent.action[1:]
    return Outcome("spend", f"Spend {spent.cost}: {spent.action}",
                   replace(state, activation=act, brigades=brigades),
                   (f"{text} ({spent.cost} pip{'s' if spent.cost != 1 else ''}, "
                    f"{paid.remaining} left)", *lines))


def _garrison(setup: BattleSetup, state: FightState, act: ActivationNow,
              brigade: str) -> dict[str, BrigadeNow]:
    """Rule 9: only infantry garrison a built-up area or wood, paying once; the fact of the
    garrison is then the brigade's (its +2 in a Rule 9 combat from the end of this move)."""
    if not brigade:
        raise ActionRefused("Rule 9: name the brigade that garrisons (--brigade)")
    now = state.brigades[brigade]
    b = setup.brigade(brigade)
    if b.arm is not Arm.INFANTRY:
        raise ActionRefused(f"Rule 9: only infantry garrison a built-up area or wood; "
                            f"{label_of(setup, brigade)} is {b.arm.value}")
    if now.removed:
        raise ActionRefused(f"{label_of(setup, brigade)} has left the table")
    if now.garrison:
        raise ActionRefused(f"Rule 9: {label_of(setup, brigade)} already garrisons its "
                            "built-up area or wood; its pip is paid once")
    brigades = dict(state.brigades)
    brigades[brigade] = replace(now, garrison=True)
    return brigades


def _advance_stage(act: ActivationNow, stage: str) -> ActivationNow:
    if STAGES.index(stage) > STAGES.index(act.stage):
        return replace(act, stage=stage)
    return act


def immediate(setup: BattleSetup, state: FightState) -> tuple[Pending, ...]:
    """The queued tests of the fire step: morale tests for artillery casualties, which Rule 17
    takes at once, and bounce-through fire (Rule 7)."""
    out = []
    for p in state.queue:
        if p.test == "bounce-through fire":
            out.append(p)
        elif (p.test == "morale test" and p.cause in state.brigades
              and setup.brigade(p.cause).arm is Arm.ARTILLERY):
            out.append(p)
    return tuple(out)


def enter_stage(setup: BattleSetup, state: FightState, stage: str, what: str) -> FightState:
    """Move the activation on to ``stage``, refusing to go back to an earlier one, and past
    the fire step while its tests are owed."""
    act = state.activation
    if act is None:
        return state
    if act.pips is None and stage != Stage.PIPS:
        raise NotNow(f"{setup.commander(act.commander).name} must roll his pips before "
                            f"{what}")
    if STAGES.index(stage) < STAGES.index(act.stage):
        raise NotNow(f"{what} comes at the {stage} step, and this move has gone on to "
                            f"{act.stage} (seed 000's sequence: spot, artillery fire, its "
                            f"morale tests, movement, combats, morale)")
    owed = immediate(setup, state)
    if owed and STAGES.index(stage) > STAGES.index(Stage.FIRE_MORALE):
        names = "; ".join(f"{p.test} for "
                          + (label_of(setup, p.who) if p.who in state.brigades else p.who)
                          for p in owed)
        raise NotNow(f"Rule 17: brigades hit by artillery test their morale at once, "
                            f"before {what} at the {stage} step: take or dismiss first {names}")
    return replace(state, activation=_advance_stage(act, stage))


def stage_refusal(setup: BattleSetup, state: FightState, stage: str | None,
                  what: str) -> str | None:
    """Why ``what`` may not be taken now: :func:`enter_stage`'s own check, nothing applied
    (None when it may, or when it belongs to no step of the activation)."""
    if stage is None:
        return None
    try:
        enter_stage(setup, state, stage, what)
    except ActionRefused as exc:
        return str(exc)
    return None


def change_orders(setup: BattleSetup, state: FightState, corps: str, order: str,
                  objective: str = "", in_contact: bool = True) -> Outcome:
    """The CinC changes a corps' orders (Rule 2), or a corps commander his own to Halt."""
    _playing(state, "change orders")
    act = _activation(state, setup)
    missing(setup, act, "change orders")
    new = _order(order)
    target = _corps(setup, state, corps)
    c = setup.commander(act.commander)
    verdict = may_change_orders(c.role, new, setup.ruleset)
    if not verdict:
        raise ActionRefused(verdict.reason)
    if setup.corps_of(target).side != c.side:
        raise ActionRefused(f"{c.name} cannot give orders to the enemy's {target}")
    _arrived_corps(setup, state, target, "change its orders")
    budget = _budget(setup, act)
    corps_c = setup.commander(setup.corps_of(target).commander)
    if c.role is Role.CINC:
        paid = cinc_change_orders(budget, commander_of(corps_c), in_contact, setup.ruleset)
    else:
        if _corps_of_commander(setup, act.commander) != target:
            raise ActionRefused(f"{c.name} may change only his own corps' orders")
        paid = change_to_halt(budget, 0, setup.ruleset)
    now = state.corps[target]
    corps_map = dict(state.corps)
    corps_map[target] = replace(now, orders=new, objective=objective or now.objective)
    line = (f"Move to {target} change orders to {new.value}" if c.role is Role.CINC
            else f"Change orders to {new.value}")
    return Outcome("orders", f"Orders: {target} – {new.value}",
                   replace(state, corps=corps_map, activation=_paid(act, paid)), (line,))


def _order(text: str) -> CorpsOrder:
    for o in CorpsOrder:
        if o.value.lower() == text.strip().lower():
            return o
    known = ", ".join(o.value for o in CorpsOrder)
    raise ActionRefused(f"'{text}' is not an order (orders: {known})")


def _corps(setup: BattleSetup, state: FightState, key: str) -> str:
    if key in state.corps:
        return key
    folded = {k.lower(): k for k in state.corps}
    if key.lower() in folded:
        return folded[key.lower()]
    raise ActionRefused(f"there is no corps '{key}' in {setup.title} "
                        f"(corps: {', '.join(state.corps)})")


def give_move_to(setup: BattleSetup, state: FightState, corps: str,
                 in_contact: bool = True) -> Outcome:
    """The CinC gives his move to a corps commander, who takes every pip left (Rule 2)."""
    _playing(state, "give a move")
    act = _activation(state, setup)
    target = _corps(setup, state, corps)
    commander = setup.corps_of(target).commander
    c = setup.commander(act.commander)
    if setup.corps_of(target).side != c.side:
        raise ActionRefused(f"{c.name} cannot give his move to the enemy's {target}")
    _arrived_corps(setup, state, target, "give his move to its commander")
    done, given = give_move(_budget(setup, act), commander_of(setup.commander(commander)),
                            in_contact, setup.ruleset)
    act = ActivationNow(act.chip, commander, given.pips, act.roll, (), Stage.SPOT,
                        given_by=act.commander)
    moved = state.moved + ((commander,) if commander not in state.moved else ())
    queue = state.queue + _owed_rallies(setup, state, target)
    return Outcome("give", f"Give move to {target}",
                   replace(state, activation=act, moved=moved, queue=queue),
                   (f"Give move to {target} ({given.pips} pips)",))


def allocate(setup: BattleSetup, state: FightState, reserve: str,
             brigades: tuple[str, ...]) -> Outcome:
    """Before the battle, give the reserve commander cavalry or artillery from the corps."""
    if state.phase != Phase.SETUP:
        raise ActionRefused("the reserve is allocated before the first chip is drawn")
    target = _corps(setup, state, reserve)
    if not setup.corps_of(target).reserve:
        raise ActionRefused(f"{target} is not a reserve commander's command")
    side = setup.corps_of(target).side
    corps_map = dict(state.corps)
    names = []
    for key in brigades:
        brigade_now(state, setup, key)
        b = setup.brigade(key)
        if b.arm is Arm.INFANTRY:
            raise ActionRefused(f"{label_of(setup, key)} is infantry; the reserve takes cavalry "
                                "or artillery")
        if side_of(setup, key) != side:
            raise ActionRefused(f"{label_of(setup, key)} is not of the {side} army")
        home = corps_of_brigade(state, key)
        if home == target:
            raise ActionRefused(f"{label_of(setup, key)} is already with {target}")
        corps_map[home] = replace(corps_map[home], brigades=tuple(
            k for k in corps_map[home].brigades if k != key))
        corps_map[target] = replace(corps_map[target],
                                    brigades=corps_map[target].brigades + (key,))
        names.append(label_of(setup, key))
    return Outcome("allocate", f"Allocate to {target}: {', '.join(names)}",
                   replace(state, corps=corps_map),
                   (f"{target} takes {', '.join(names)}",))


def set_orders(setup: BattleSetup, state: FightState, corps: str, order: str,
               objective: str = "") -> Outcome:
    """Before the battle, write a corps' orders and objective (free; Rule 4)."""
    if state.phase != Phase.SETUP:
        raise ActionRefused("written orders are set before the first chip; during the battle "
                            "only the CinC changes them (or a commander his own to Halt)")
    target = _corps(setup, state, corps)
    new = _order(order)
    now = state.corps[target]
    corps_map = dict(state.corps)
    corps_map[target] = replace(now, orders=new, objective=objective or now.objective)
    obj = objective or now.objective
    return Outcome("orders", f"Orders: {target} – {new.value}",
                   replace(state, corps=corps_map),
                   (f"{target}: orders {new.value}" + (f", objective {obj}" if obj else ""),))


def set_formation(setup: BattleSetup, state: FightState, brigade: str,
                  formation: Formation) -> Outcome:
    """Record a brigade's new formation on the table (its pips are spent separately)."""
    _playing(state, "change formation")
    now = brigade_now(state, setup, brigade)
    b = setup.brigade(brigade)
    brigade_of(b, now.casualties, now.state, formation)  # refuses a formation of another arm
    brigades = dict(state.brigades)
    brigades[brigade] = replace(now, formation=formation)
    return Outcome("formation", f"Formation: {label_of(setup, brigade)} – {formation.value}",
                   replace(state, brigades=brigades),
                   (report_lines.formation_line(label_of(setup, brigade), formation),))


# Queued tests a rule requires of a brigade whatever the table shows: (rule, what it must do).
_NOT_DISMISSED = {
    "morale test": ("Rule 17", "must test its morale"),
    "pursuit test": ("Rule 16", "caused a rout and rolls to pursue"),
    PURSUERS_RALLY: ("Rule 16", "pursued and must try to rally at this move (rally-pursuers; "
                                "--with no-commander when no commander can reach them or pay "
                                "the pip: they go back shaken)"),
}


def dismiss(setup: BattleSetup, state: FightState, index: int, reason: str) -> Outcome:
    """Drop a queued test the table shows is not owed (e.g. nobody within 4 inches)."""
    if not 1 <= index <= len(state.queue):
        raise ActionRefused(f"there is no queued test number {index} "
                            f"({len(state.queue)} queued)")
    if not reason.strip():
        raise ActionRefused("say why the test is not taken")
    p = state.queue[index - 1]
    owed = _NOT_DISMISSED.get(p.test)
    if owed and p.who in state.brigades and not state.brigades[p.who].removed:
        raise ActionRefused(f"{owed[0]}: {label_of(setup, p.who)} {owed[1]}; it cannot be "
                            "dismissed while the brigade is on the table")
    queue = state.queue[:index - 1] + state.queue[index:]
    # a reaction to a rout is owed by whoever is near, named in its reason ("brigades within …")
    who = (label_of(setup, p.who) if p.who in state.brigades
           else p.who or p.reason.split(": ", 1)[0])
    return Outcome("dismiss", f"Dismiss {p.test} for {who}", replace(state, queue=queue),
                   (f"No {p.test} for {who}: {reason.strip()}",))


def record_holder(setup: BattleSetup, state: FightState, side: str, reason: str = "") -> Outcome:
    """At nightfall, the side holding the battle town or most of the nine squares (or draw)."""
    if state.phase != Phase.NIGHT:
        raise ActionRefused(f"who holds the field is recorded at nightfall (now turn "
                            f"{state.turn})")
    holder = _side(side, allow_draw=True)
    reason = reason.strip()
    text = f"the {holder} hold {_held(setup, reason)}" if holder != "draw" \
        else f"neither side holds the field{f' ({reason})' if reason else ''}"
    return Outcome("holder", f"Holder: {holder}",
                   replace(state, holder=holder, holder_reason=reason or setup.place),
                   (f"At nightfall {text}",))


def _held(setup: BattleSetup, reason: str) -> str:
    """What the side at nightfall holds, as the report says it: the battle town, or the field
    with the umpire's reason in brackets (a reason is any words: "5 Corps still holds the
    fortress")."""
    if not reason or reason.casefold() == setup.place.casefold():
        return setup.place
    return f"the field ({reason})"


def override(setup: BattleSetup, state: FightState, side: str, reason: str) -> Outcome:
    """The umpire's own decision of the battle, with his reason."""
    if state.phase == Phase.FINISHED:
        raise ActionRefused("the battle is finished")
    if not reason.strip():
        raise ActionRefused("an override needs the umpire's reason")
    winner = _side(side, allow_draw=True)
    return Outcome("override", f"Override: {winner}",
                   replace(state, override_winner=winner, override_reason=reason.strip()),
                   (f"The umpire decides: {winner if winner == 'draw' else winner + ' win'} "
                    f"({reason.strip()})",))


def _side(text: str, allow_draw: bool = False) -> str:
    t = text.strip().lower()
    if t in ("french", "f"):
        return FRENCH
    if t in ("allied", "allies", "a"):
        return ALLIED
    if allow_draw and t == "draw":
        return "draw"
    also = " or draw" if allow_draw else ""
    raise ActionRefused(f"'{text}' is not a side (French, Allied{also})")


def finish(setup: BattleSetup, state: FightState) -> Outcome:
    """Close the battle with the result it gives (refused while undecided)."""
    if state.phase == Phase.FINISHED:
        raise ActionRefused(f"the battle is already finished ({state.result})")
    d = decision(setup, state)
    if not d.final:
        raise ActionRefused(d.reason)
    text = "a draw" if d.winner is None else f"the {d.winner} win"
    return Outcome("finish", f"Finish: {d.result}",
                   replace(state, phase=Phase.FINISHED, result=d.result, activation=None,
                           queue=()),
                   (f"Result: {text} – {d.reason}",))
