"""Auto-resolve's plan: a battle setup checked once and read into plain values, and the
abstract battle's distances and morale facts, shared by the reported battle (:mod:`.autoresolve`)
and the estimate's engine (:mod:`.auto_estimate`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from campaign1813.campaign.battle.ruleset1813.auto_tables import (
    DISORDERED,
    MoraleTable,
    Profile,
    action_cost,
    broken_states,
    corps_break_count,
    end_of_sequence_state,
    side_break_count,
)
from campaign1813.campaign.battle.ruleset1813.fight import FightState, label_of
from campaign1813.campaign.battle.ruleset1813.rules.artillery import Target
from campaign1813.campaign.battle.ruleset1813.rules.brigade import ARM_FORMATIONS
from campaign1813.campaign.battle.ruleset1813.rules.command import Role
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError
from campaign1813.campaign.battle.ruleset1813.rules.morale import morale_rules
from campaign1813.campaign.battle.ruleset1813.rules.rout import PURSUING, ROUT_WITHIN
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    InvalidSetup,
    Special,
)
from campaign1813.campaign.battle.terms import (
    Arm,
    Calibre,
    CorpsOrder,
    Formation,
    Grade,
    Rating,
)

__all__ = ["START_GAP", "LONG_RANGE_GAP", "SHORT_RANGE_GAP", "CONTACT_GAP", "BAND_NAMES",
           "ADVANCE_TO", "FIGHTING", "IN_BUA", "SUPPORTS", "ROUT_NEAR", "PURSUIT", "FACTS",
           "NO_FACTS", "GARRISON", "STATIONARY", "IN_COVER", "TARGET_OF_ARM",
           "CHARGE_PREFERENCE", "SKIRMISH_ORDER", "SIDES", "UnitPlan", "CorpsPlan", "ChipPlan",
           "Plan", "plan_of"]

# The distance between two corps facing each other, counted in advancing moves to contact:
# two moves from entering to long artillery range, one more to short range (8 inches, where
# infantry may fire and skirmish and cavalry charge), one more to contact.
START_GAP = 4
LONG_RANGE_GAP = 2
SHORT_RANGE_GAP = 1
CONTACT_GAP = 0
BAND_NAMES = {4: "out of range", 3: "out of range", 2: "long range", 1: "short range",
              0: "contact"}

# How near each order advances (Move keeps 4 inches off the enemy, so stops at short range).
ADVANCE_TO = {CorpsOrder.MOVE: SHORT_RANGE_GAP, CorpsOrder.ENGAGE: SHORT_RANGE_GAP,
               CorpsOrder.ATTACK: CONTACT_GAP}
# Orders under which a corps' infantry and cavalry start combats (Rule 4).
FIGHTING = (CorpsOrder.HOLD, CorpsOrder.ENGAGE, CorpsOrder.ATTACK)


# Morale-test facts as bits, and the sets of the ruleset's fact names they stand for.
IN_BUA, SUPPORTS, ROUT_NEAR, PURSUIT = 1, 2, 4, 8
FACTS = tuple(frozenset(
    (["in-bua"] if mask & IN_BUA else [])
    + (["supports-within-4"] if mask & SUPPORTS else ["no-supports-within-8"])
    + ([ROUT_WITHIN] if mask & ROUT_NEAR else [])
    + ([PURSUING] if mask & PURSUIT else [])) for mask in range(16))
NO_FACTS: frozenset[str] = frozenset()
GARRISON = frozenset({"garrison"})
STATIONARY = frozenset({"stationary"})
IN_COVER = frozenset({"enemy-in-cover"})
TARGET_OF_ARM = {Arm.INFANTRY: Target.INFANTRY, Arm.CAVALRY: Target.CAVALRY,
                  Arm.ARTILLERY: Target.ARTILLERY}
# What an opportunity charge (Rule 6) looks for first among the brigades that offer one: the
# contacts Rule 8 settles at once, then the worst state, then cavalry caught in column.
CHARGE_PREFERENCE = {Formation.COLUMN_OF_MARCH: 0, Formation.LIMBERED: 0}
SKIRMISH_ORDER = {Rating.A: 0, Rating.B: 1, Rating.C: 2}
SIDES = (FRENCH, ALLIED)


# --- the plan: a setup checked once and read into plain values --------------------------------


@dataclass(frozen=True)
class UnitPlan:
    """A brigade or battery as every battle of the plan reads it."""

    key: str
    name: str
    label: str                 # the name in the report, told apart from the enemy's
    arm: Arm
    rating: Rating
    skirmish: int
    profiles: dict[Formation, Profile]     # what the rules read of it, in each formation
    first: Formation                       # its formation when the battle begins
    limit: int
    casualties: int
    calibre: Calibre
    in_town: bool
    nation: str
    # Its morale tables met so far, by casualties, state, facts and rally (see _Battle.morale):
    # the battles of one plan ask for the same few thousands of times.
    morale_tables: dict[int, MoraleTable] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class CorpsPlan:
    """A corps: its side, commander's grade, orders, place and brigades."""

    key: str
    side: str
    grade: Grade
    orders: CorpsOrder
    town: bool
    arrival: int
    rank: int
    units: tuple[UnitPlan, ...]
    nation: str = ""


@dataclass(frozen=True)
class ChipPlan:
    """A chip in the bag: whose it is and what kind."""

    label: str
    kind: str                  # "corps", "cinc", "poor", "gifted" or "tactical"
    side: str = ""
    corps: int = -1            # index of the corps, for a corps commander's chip
    name: str = ""
    grade: Grade = Grade.AVERAGE
    nation: str = ""
    arrival: int = 1           # a CinC's turn on the table (4 marching to the sound of the guns)
    text: str = ""             # how the report names the chip

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"chip {self.label}" if self.label.isdigit()
                           else f"{self.label} chip")


@dataclass(frozen=True)
class Plan:
    """A setup checked once, with what every battle of it reads of the ruleset."""

    setup: BattleSetup
    ruleset: str
    corps: tuple[CorpsPlan, ...]
    chips: tuple[ChipPlan, ...]
    # What every battle of the plan reads of the ruleset, read once.
    costs: dict[CorpsAction, int]
    broken: tuple[bool, ...]            # whether a brigade in each state counts as broken
    breaks_at: tuple[int, ...]          # each corps' broken brigades that break it
    re_formed: int                      # the state Disordered brigades take at a turn's end
    poor_in_battle: bool
    judged_by_breaks: bool              # no side loses without a corps broken


def _refuse(setup: BattleSetup, why: str) -> InvalidSetup:
    return InvalidSetup(f"{setup.title}: cannot be auto-resolved: {why}")


def plan_of(setup: BattleSetup) -> Plan:
    """Check ``setup`` for auto-resolve and read it into a plan; refused with the reason."""
    try:
        limits = morale_rules(setup.ruleset)
    except RulesetError as exc:
        raise _refuse(setup, str(exc)) from exc
    by_key = {b.key: b for b in setup.brigades}
    listed: dict[str, str] = {}
    corps: list[CorpsPlan] = []
    commanded: dict[str, int] = {}
    ranks = dict.fromkeys(SIDES, 0)
    for index, c in enumerate(setup.corps):
        commander = setup.commander(c.commander)
        if commander.side != c.side:
            raise _refuse(setup, f"{c.key} is {c.side} but its commander {commander.name} "
                                 f"is {commander.side}")
        if c.commander in commanded:
            raise _refuse(setup, f"{commander.name} commands two corps "
                                 f"({setup.corps[commanded[c.commander]].key} and {c.key})")
        commanded[c.commander] = index
        if not c.brigades:
            raise _refuse(setup, f"{c.key} has no brigades")
        if c.turn < 1:
            raise _refuse(setup, f"{c.key} arrives on turn {c.turn}; turns count from 1")
        units = []
        for key in c.brigades:
            b = by_key.get(key)
            if b is None:
                raise _refuse(setup, f"{c.key} lists a brigade '{key}' the setup does not have")
            if b.corps != c.key or key in listed:
                raise _refuse(setup, f"{b.name} is listed by {listed.get(key, c.key)} but "
                                     f"belongs to {b.corps}")
            listed[key] = c.key
            if b.casualties < 0:
                raise _refuse(setup, f"{b.name} brings {b.casualties} casualties")
            limit = limits.limit(b.arm)
            if b.casualties >= limit:
                raise _refuse(setup, f"{b.name} brings {b.casualties} casualties, its rout "
                                     f"point ({limit}): it cannot take the field")
            if b.arm is Arm.CAVALRY and b.cavalry is None:
                raise _refuse(setup, f"{b.name} is cavalry without a weight")
            if b.arm is not Arm.CAVALRY and (b.cavalry is not None or b.lancers):
                raise _refuse(setup, f"{b.name} is {b.arm.value} with a cavalry weight")
            if b.arm is Arm.ARTILLERY and b.calibre <= 0:
                raise _refuse(setup, f"{b.name} has no calibre")
            profiles: dict[Formation, Profile] = {
                f: (b.arm, b.rating, b.firepower, b.skirmish, b.cavalry, b.lancers, f, b.nation)
                for f in ARM_FORMATIONS[b.arm]}
            first = Formation.LINE      # set below, once the whole setup is known good
            units.append(UnitPlan(b.key, b.name, label_of(setup, b.key), b.arm, b.rating,
                                   SKIRMISH_ORDER[b.skirmish], profiles, first, limit,
                                   b.casualties,
                                   Calibre.from_pounds(b.calibre),
                                   c.edge is None and b.arm is not Arm.CAVALRY,
                                   b.nation.lower()))
        corps.append(CorpsPlan(c.key, c.side, commander.grade, c.orders, c.edge is None,
                                c.turn, ranks[c.side], tuple(units), commander.nation))
        ranks[c.side] += 1
    for b in setup.brigades:
        if b.key not in listed:
            raise _refuse(setup, f"{b.name} belongs to {b.corps} but {b.corps} does not list it")
    for side in SIDES:
        if not any(c.side == side and c.arrival <= 1 for c in corps):
            raise _refuse(setup, f"the {side} side has no corps on the field on turn 1")
    # Brigades start in the formations the table sets them up in (column of march for corps
    # marching in, line and unlimbered guns for the rest).
    starting = FightState.start(setup).brigades
    corps = [replace(c, units=tuple(replace(u, first=starting[u.key].formation or u.first)
                                    for u in c.units)) for c in corps]
    chips = _chips(setup, commanded)
    ruleset = setup.ruleset
    return Plan(setup, ruleset, tuple(corps), chips,
                 {a: action_cost(ruleset, a) for a in CorpsAction}, broken_states(ruleset),
                 tuple(corps_break_count(ruleset, len(c.units)) for c in corps),
                 end_of_sequence_state(ruleset, DISORDERED),
                 any(chip.grade is Grade.POOR for chip in chips
                     if chip.kind in ("corps", "cinc")),
                 all(side_break_count(ruleset, sum(1 for c in corps if c.side == side)) > 0
                     for side in SIDES))


def _chips(setup: BattleSetup, commanded: dict[str, int]) -> tuple[ChipPlan, ...]:
    specials = {Special.POOR.value: ("poor", ""), Special.FRENCH_GIFTED.value: ("gifted", FRENCH),
                Special.ALLIED_GIFTED.value: ("gifted", ALLIED),
                Special.FRENCH_TACTICAL.value: ("tactical", FRENCH)}
    chips: list[ChipPlan] = []
    seen: dict[str, str] = {}
    for chip in setup.chips:
        if chip.commander is None:
            if chip.label not in specials:
                raise _refuse(setup, f"chip '{chip.label}' names no commander and is not a "
                                     f"special chip ({', '.join(specials)})")
            kind, side = specials[chip.label]
            chips.append(ChipPlan(chip.label, kind, side))
            continue
        commander = setup.commander(chip.commander)
        if chip.commander in seen:
            raise _refuse(setup, f"{commander.name} has two chips ({seen[chip.commander]} and "
                                 f"{chip.label})")
        seen[chip.commander] = chip.label
        if chip.commander in commanded:
            chips.append(ChipPlan(chip.label, "corps", commander.side,
                                   commanded[chip.commander], commander.name, commander.grade))
        elif commander.role is Role.CINC:
            chips.append(ChipPlan(chip.label, "cinc", commander.side, -1, commander.name,
                                   commander.grade, commander.nation, commander.turn))
        else:
            raise _refuse(setup, f"chip {chip.label} is for {commander.name}, who commands no "
                                 f"corps")
    for key, index in commanded.items():
        if key not in seen:
            raise _refuse(setup, f"{setup.corps[index].key} has no chip in the bag and would "
                                 f"never move")
    return tuple(chips)

