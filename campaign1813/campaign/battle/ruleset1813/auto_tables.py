"""The rules' own results, read once per situation, for the abstract battle of auto-resolve.

An auto-resolved battle rolls thousands of dice, and the rules engine answers each test with
exact fractions and frozen values: right, but far too slow to ask ten thousand times a battle.
So each table here is built once for a situation (a brigade's arm, class, casualties and state,
the facts that hold, the enemy it fights …) by putting *every possible roll* through the rules
engine's own function for that test, with the roll typed in (:class:`~..dice.TypedDice`). The
battle then samples a roll from the dice's exact distribution and reads the result off the
table: exactly what the rules would have given for that roll, at the cost of a list index.

Every table is cached by its situation and can say its own odds, which the tests compare with
the rules' ``…_odds`` functions.

>>> from campaign1813.campaign.battle.terms import Arm, Rating
>>> t = morale_table("1813", Arm.INFANTRY, Rating.B, 0, 0, frozenset({"supports-within-4"}))
>>> t.odds()[MoraleOutcome.PASS]
Fraction(5, 6)
>>> t.rows[1].text, t.rows[2].text
('fail, shaken', 'pass')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm

from campaign1813.campaign.battle.core.refusal import ActionRefused
from campaign1813.campaign.battle.dice import D6, Die, TypedDice, distribution
from campaign1813.campaign.battle.ruleset1813.report_lines import morale_word
from campaign1813.campaign.battle.ruleset1813.rules.army import (
    BrigadeStanding,
    CorpsStanding,
    brigade_broken,
    corps_broken,
    side_lost,
)
from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    artillery_fire,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import (
    STATE_ORDER,
    Brigade,
    CavalryWeight,
)
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatSide,
    Side,
    apply_row,
    check_combat,
    combat_factors,
    find_row,
)
from campaign1813.campaign.battle.ruleset1813.rules.command import (
    Commander,
    corps_action_cost,
    roll_pips,
)
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MORALE,
    PURSUIT,
    MoraleOutcome,
    MoraleResult,
    MoraleTest,
    automatic_rout,
    end_of_sequence,
    morale_rules,
    take_morale_test,
)
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import (
    ChargeSituation,
    Reaction,
    ReactionSituation,
    by_morale,
    charge_refusal,
    morale_test_of,
    opportunity_charge,
    react,
    reaction_refusal,
)
from campaign1813.campaign.battle.ruleset1813.rules.quick import (
    Contact,
    QuickCase,
    quick_cases,
    quick_result,
)
from campaign1813.campaign.battle.ruleset1813.rules.quick import (
    charge_refusal as quick_charge_refusal,
)
from campaign1813.campaign.battle.ruleset1813.rules.rout import (
    Nearby,
    pursue,
    pursuers_not_rallied,
    rally_pursuers,
    rout_reaction,
)
from campaign1813.campaign.battle.ruleset1813.rules.skirmish import (
    Skirmish,
    SkirmishResult,
    skirmish,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import (
    CorpsAction,
    command_table,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.fire import fire_table
from campaign1813.campaign.battle.ruleset1813.rules.tables.opportunity import opportunity_table
from campaign1813.campaign.battle.terms import (
    Arm,
    Calibre,
    Effect,
    Formation,
    Grade,
    MoraleState,
    Rating,
)

__all__ = ["DiceTable", "MoraleRow", "MoraleTable", "CombatRow", "CombatTable", "SideHit",
           "SkirmishTable", "PursuitRow", "PursuitTable", "Profile", "dice_table",
           "morale_table", "rally_pursuers_table", "pursuers_sent_back_state", "fire_table_for",
           "combat_table",
           "skirmish_table", "pursuit_table", "GunsCharged", "guns_charged", "pips_table",
           "Contacted", "contact_result", "may_be_charged", "TestTable", "charge_test_table",
           "reaction_for", "reaction_table", "action_cost", "pips_bonus", "fire_modifier",
           "CHARGER", "square_halt_text",
           "reaction_action",
           "end_of_sequence_state", "corps_break_count", "side_break_count", "broken_states",
           "ROUT", "SHAKEN", "DISORDERED", "FORMED"]

# Morale states as their index in STATE_ORDER: the battle keeps them as small whole numbers.
FORMED, DISORDERED, SHAKEN, ROUT = range(4)

_STATE_WORDS = {FORMED: "formed", DISORDERED: "disordered", SHAKEN: "shaken", ROUT: "routing"}


def _index(state: MoraleState) -> int:
    return STATE_ORDER.index(state)


@dataclass(frozen=True)
class DiceTable:
    """A die (or dice) as equally likely totals: ``faces[i]`` for a uniform index ``i``.

    Built from the die's exact distribution, so sampling an index samples that distribution.
    """

    die: Die
    count: int
    faces: tuple[int, ...]

    def odds(self) -> dict[int, Fraction]:
        """The distribution the table holds (equal to :func:`~..dice.distribution`)."""
        n = len(self.faces)
        out: dict[int, Fraction] = {}
        for face in self.faces:
            out[face] = out.get(face, Fraction(0)) + Fraction(1, n)
        return out


@cache
def dice_table(die: Die, count: int = 1) -> DiceTable:
    """The equally likely totals of ``count`` such dice (36 for 2d6, 6 for the average die)."""
    dist = distribution(die, count)
    n = lcm(*(p.denominator for p in dist.values()))
    faces = tuple(total for total, p in dist.items() for _ in range(int(p * n)))
    return DiceTable(die, count, faces)


# --- Rule 17: morale tests and rallies -----------------------------------------------------


@dataclass(frozen=True)
class MoraleRow:
    """What one roll of a morale test does: the outcome, the state after, and the words."""

    outcome: MoraleOutcome
    state: int
    new_rout: bool
    text: str


@dataclass(frozen=True)
class MoraleTable:
    """A morale test in one situation: each face's result, or one result without a roll."""

    dice: DiceTable
    automatic: bool
    rows: tuple[MoraleRow, ...]       # indexed by the face rolled (index 0 unused)

    def odds(self) -> dict[MoraleOutcome, Fraction]:
        """The chance of each outcome, read from the rows."""
        out = dict.fromkeys(MoraleOutcome, Fraction(0))
        if self.automatic:
            out[self.rows[0].outcome] = Fraction(1)
            return out
        for face, p in distribution(self.dice.die, self.dice.count).items():
            out[self.rows[face].outcome] += p
        return out

    def state_odds(self) -> dict[MoraleState, Fraction]:
        """The chance of each state after the test."""
        out: dict[MoraleState, Fraction] = {}
        faces = ({0: Fraction(1)} if self.automatic
                 else distribution(self.dice.die, self.dice.count))
        for face, p in faces.items():
            state = STATE_ORDER[self.rows[face].state]
            out[state] = out.get(state, Fraction(0)) + p
        return out


def _brigade(arm: Arm, rating: Rating, casualties: int, state: int, nation: str = "",
             name: str = "brigade") -> Brigade:
    weight = CavalryWeight.LIGHT if arm is Arm.CAVALRY else None
    return Brigade(name, arm, rating, cavalry=weight, casualties=casualties,
                   state=STATE_ORDER[state], nation=nation)


def _morale_text(before: int, result: MoraleResult) -> str:
    """The words the report gives the test (the table's own, :func:`.report_lines.morale_word`)."""
    if result.roll is None:
        return f"routs without testing at {result.test.brigade.casualties} casualties"
    return morale_word(result, STATE_ORDER[before])


def _morale_rows(brigade: Brigade, results: dict[int, MoraleResult], rallying: bool,
                 die: Die) -> MoraleTable:
    before = _index(brigade.state)
    rows: list[MoraleRow] = []
    automatic = False
    for face in range(max(results) + 1):
        result = results.get(face) or results[min(results)]
        new = result.effect.new_state
        after = _index(new) if new else before
        automatic = result.roll is None
        rows.append(MoraleRow(result.outcome, after, after == ROUT and before != ROUT,
                              _morale_text(before, result)))
    return MoraleTable(dice_table(die), automatic, tuple(rows))


@cache
def morale_table(ruleset: str, arm: Arm, rating: Rating, casualties: int, state: int,
                 facts: frozenset[str], rallying: bool = False) -> MoraleTable:
    """Rule 17 (and Rule 18's rally when ``rallying``), read from ``take_morale_test``."""
    rules = morale_rules(ruleset)
    test = MoraleTest(_brigade(arm, rating, casualties, state), facts, rallying)
    results = {face: take_morale_test(test, TypedDice([face]), ruleset)
               for face in sorted(set(rules.die.faces))}
    return _morale_rows(test.brigade, results, rallying, rules.die)


@cache
def rally_pursuers_table(ruleset: str, rating: Rating, casualties: int, state: int,
                         facts: frozenset[str]) -> MoraleTable:
    """Rule 16: pursuing cavalry try to rally, read from ``rally_pursuers``."""
    rules = morale_rules(ruleset)
    test = MoraleTest(_brigade(Arm.CAVALRY, rating, casualties, state), facts, rallying=True)
    results = {face: rally_pursuers(test, TypedDice([face]), ruleset)
               for face in sorted(set(rules.die.faces))}
    return _morale_rows(test.brigade, results, True, rules.die)


@cache
def pursuers_sent_back_state(ruleset: str, state: int) -> int:
    """Rule 16: the state of pursuers whose rally no commander can pay for (they go back to
    their own lines as a failed rally leaves them), read from ``pursuers_not_rallied``."""
    effect = pursuers_not_rallied(_brigade(Arm.CAVALRY, Rating.B, 0, state), ruleset)
    return _index(effect.new_state) if effect.new_state else state


# --- Rule 7: artillery fire ----------------------------------------------------------------


@cache
def fire_table_for(ruleset: str, calibre: Calibre, gunners: Rating, casualties: int,
                   target: Target, band: RangeBand) -> tuple[DiceTable, tuple[int, ...]]:
    """Rule 7: the hits scored by each total of the dice, read from ``artillery_fire``."""
    situation = FireSituation(Battery("battery", calibre, gunners, casualties), "target",
                              target, band)
    hits: dict[int, int] = {}
    dice: DiceTable | None = None
    for total in _totals_of(ruleset):
        result = artillery_fire(situation, TypedDice([total]), ruleset)
        hits[total] = result.hits
        dice = dice_table(result.roll.die, result.roll.count)
    assert dice is not None
    return dice, tuple(hits.get(t, 0) for t in range(max(hits) + 1))


@cache
def fire_modifier(ruleset: str, calibre: Calibre, gunners: Rating, casualties: int,
                  target: Target, band: RangeBand) -> int:
    """Rule 7: what the modifiers add to the roll (gunners' class and casualties)."""
    situation = FireSituation(Battery("battery", calibre, gunners, casualties), "target",
                              target, band)
    first = _totals_of(ruleset)[0]
    result = artillery_fire(situation, TypedDice([first]), ruleset)
    return result.total - result.roll.total


def _totals_of(ruleset: str) -> tuple[int, ...]:
    table = fire_table(ruleset)
    return tuple(distribution(table.die, table.count))


# --- Rules 9, 12-15: combats on a result table ---------------------------------------------

# What the rules read of a brigade that never changes in a battle: arm, class, firepower,
# skirmish, cavalry weight, lancers, formation and nation.
Profile = tuple[Arm, Rating, Rating, Rating, CavalryWeight | None, bool, Formation | None, str]


def _from_profile(profile: Profile, casualties: int, state: int, name: str) -> Brigade:
    arm, rating, fire, skirmish_, weight, lancers, formation, nation = profile
    return Brigade(name, arm, rating, fire, skirmish_, weight, lancers, casualties,
                   STATE_ORDER[state], formation, nation)


@dataclass(frozen=True)
class SideHit:
    """What a result does to one side: casualties, state after, and whether it newly routs."""

    casualties: int
    state: int
    new_rout: bool
    shown: MoraleState | None = None      # the state the rules' effect names, for the report


def _side_hit(before: Brigade, effect: Effect | None) -> SideHit:
    b = _index(before.state)
    if effect is None:
        return SideHit(0, b, False)
    after = _index(effect.new_state) if effect.new_state else b
    return SideHit(effect.casualties, after, after == ROUT and b != ROUT, effect.new_state)


@dataclass(frozen=True)
class CombatRow:
    """One total of the roller's 2d6: the row's words, each side's hit, who pursues."""

    result: str
    attacker: SideHit
    defender: SideHit
    attacker_pursues: bool
    defender_pursues: bool


@dataclass(frozen=True)
class CombatTable:
    """A combat in one situation: who rolls, with what difference, and each total's row."""

    dice: DiceTable
    attacker_rolls: bool
    difference: int
    rows: tuple[CombatRow, ...]       # indexed by the roller's 2d6 total (0-1 unused)
    attacker_total: int = 0           # each side's combat factors, for the report
    defender_total: int = 0

    def odds(self) -> dict[str, Fraction]:
        """The chance of each row's result, read from the rows."""
        out: dict[str, Fraction] = {}
        for total, p in distribution(self.dice.die, self.dice.count).items():
            key = self.rows[total].result
            out[key] = out.get(key, Fraction(0)) + p
        return out


@cache
def combat_table(ruleset: str, rule: int, attacker: Profile, a_casualties: int, a_state: int,
                 a_facts: frozenset[str], defender: Profile, d_casualties: int, d_state: int,
                 d_facts: frozenset[str]) -> CombatTable:
    """Rules 9, 12, 13, 14, 15: each total's row, read as ``fight`` reads it (a firefight is
    a combat under Rule 12): the combat checked and its factors found once, then for each
    total of the roller's 2d6 the row ``find_row`` gives, applied by ``apply_row`` (once a
    row: the totals that read the same row share its result)."""
    a = _from_profile(attacker, a_casualties, a_state, "attacker")
    d = _from_profile(defender, d_casualties, d_state, "defender")
    combat = Combat(rule, CombatSide(a, a_facts), CombatSide(d, d_facts))
    checked = check_combat(combat, ruleset)
    factors = combat_factors(combat, ruleset)
    roller = factors.favoured
    table_rows = checked.rows_for(combat.side(roller).brigade.arm)
    rows: dict[int, CombatRow] = {}
    read: dict[int, CombatRow] = {}          # by the row's place in the result table
    for total in distribution(D6, 2):
        row = find_row(table_rows, total + factors.difference)
        place = table_rows.index(row)
        if place not in read:
            effects, follow_ons = apply_row(combat, row, roller, checked.hand_to_hand, ruleset)
            by_name = {e.brigade: e for e in effects}
            pursuers = {f.who for f in follow_ons if f.test == PURSUIT}
            read[place] = CombatRow(row.result, _side_hit(a, by_name.get("attacker")),
                                    _side_hit(d, by_name.get("defender")),
                                    "attacker" in pursuers, "defender" in pursuers)
        rows[total] = read[place]
    padding = rows[min(rows)]
    return CombatTable(dice_table(D6, 2), roller is Side.ATTACKER, factors.difference,
                       tuple(rows.get(t, padding) for t in range(max(rows) + 1)),
                       factors.attacker_total, factors.defender_total)


# --- Rule 11: skirmish ---------------------------------------------------------------------


@dataclass(frozen=True)
class SkirmishTable:
    """A skirmish in one situation: for each pair of faces, what each side suffers."""

    dice: DiceTable
    rows: dict[tuple[int, int], tuple[SideHit, bool, SideHit, bool]]
    # (attacker's face, defender's face) -> (attacker hit, attacker tests morale,
    #                                         defender hit, defender tests morale)


@cache
def skirmish_table(ruleset: str, attacker: Profile, a_casualties: int, a_state: int,
                   a_facts: frozenset[str], defender: Profile, d_casualties: int, d_state: int,
                   d_facts: frozenset[str]) -> SkirmishTable:
    """Rule 11: both sides' results for every pair of faces, read from ``skirmish``."""
    a = _from_profile(attacker, a_casualties, a_state, "attacker")
    d = _from_profile(defender, d_casualties, d_state, "defender")
    sk = Skirmish(CombatSide(a, a_facts), CombatSide(d, d_facts))
    faces = sorted(set(D6.faces))

    def side(result: SkirmishResult, name: str, b: Brigade) -> tuple[SideHit, bool]:
        effect = next((e for e in result.effects if e.brigade == name), None)
        tests = any(f.who == name and f.test == MORALE for f in result.follow_ons)
        return _side_hit(b, effect), tests

    # Each side's loss depends only on the other side's roll (Rule 11: both roll, a kill costs
    # the other side a casualty), so both rolling the same face tells what that face does to
    # each side, and every pair of faces is read from those.
    defender_loses: dict[int, tuple[SideHit, bool]] = {}
    attacker_loses: dict[int, tuple[SideHit, bool]] = {}
    for face in faces:
        result = skirmish(sk, TypedDice([face, face]), ruleset)
        defender_loses[face] = side(result, "defender", d)
        attacker_loses[face] = side(result, "attacker", a)
    rows = {(fa, fd): attacker_loses[fd] + defender_loses[fa] for fa in faces for fd in faces}
    return SkirmishTable(dice_table(D6), rows)


# --- Rule 8: quick results ------------------------------------------------------------------

# Where a quick result names who made the contact, the report puts the charger's name.
CHARGER = "\x00"


@dataclass(frozen=True)
class Contacted:
    """Rule 8's quick result for a contact: escaped or not, what it does, the rules' words."""

    escaped: bool
    removed: bool
    hit: SideHit
    text: str          # the result alone: "all lost", "rout" …
    note: str          # the whole note, with CHARGER standing for the charger's name


GunsCharged = Contacted


@cache
def contact_result(ruleset: str, case: QuickCase, arm: Arm, state: int,
                   more_than_half_move_away: bool = False,
                   supports_within_4: bool = False) -> Contacted | None:
    """A quick result of Rule 8, read from ``quick_result``; None if the ruleset has no such
    case or it is not for this arm and state."""
    rules = quick_cases(ruleset)
    if case not in rules:
        return None
    brigade = _brigade(arm, Rating.B, 0, state, name="brigade")
    contact = Contact(brigade.name, arm, brigade.state, case, by=CHARGER, by_arm=Arm.CAVALRY,
                      more_than_half_move_away=more_than_half_move_away,
                      supports_within_4=supports_within_4)
    try:
        result = quick_result(contact, ruleset)
    except ActionRefused:
        return None
    effect = result.effects[0]
    text = effect.note.partition(": ")[2] or effect.note
    return Contacted(result.escaped, effect.removed, _side_hit(brigade, effect), text,
                     effect.note)


def guns_charged(ruleset: str, state: int) -> Contacted | None:
    """What cavalry do to unsupported deployed guns, read from ``quick_result``; None if the
    ruleset has no such quick result (the revision leaves guns to the Rule 6 reaction)."""
    return contact_result(ruleset, QuickCase.DEPLOYED_ARTILLERY_CHARGED, Arm.ARTILLERY, state,
                          True, False)


@cache
def may_be_charged(ruleset: str, arm: Arm, formation: Formation | None, state: int) -> bool:
    """Whether cavalry may charge this brigade at all (Rule 8: never a formed square)."""
    if formation is None:
        return True
    return quick_charge_refusal("cavalry", Arm.CAVALRY, arm, formation, STATE_ORDER[state],
                                ruleset) is None


@cache
def square_halt_text(ruleset: str) -> str:
    """Rule 8's words when cavalry come on a formed square, with CHARGER for their name."""
    text = quick_charge_refusal(CHARGER, Arm.CAVALRY, Arm.INFANTRY, Formation.SQUARE,
                                MoraleState.FORMED, ruleset)
    return text or ""


# --- Rule 6: opportunity charges and the target's reaction ---------------------------------


@dataclass(frozen=True)
class TestTable:
    """A pass-or-fail test in one situation: whether each face passes, or one result for all."""

    dice: DiceTable
    automatic: bool
    passes: tuple[bool, ...]          # indexed by the face (index 0: the result without a roll)
    fail_casualties: int = 0          # what failing costs (the revision's 40 %)

    def chance(self) -> Fraction:
        """The chance of passing."""
        if self.automatic:
            return Fraction(int(self.passes[0]))
        return sum((p for f, p in distribution(self.dice.die, self.dice.count).items()
                    if self.passes[f]), Fraction(0))


def _faces(die: Die) -> list[int]:
    return sorted(set(die.faces))


@cache
def charge_test_table(ruleset: str, rating: Rating, casualties: int, target_arm: Arm,
                      target_state: int, target_formation: Formation,
                      grade: Grade) -> TestTable | None:
    """Rule 6: the cavalry's test to opportunity charge, read from ``opportunity_charge``;
    None when the target offers no ground for one. The corps commander is with his corps,
    within 8 inches of the cavalry but not 4."""
    situation = ChargeSituation("cavalry", rating, "target", target_arm,
                                STATE_ORDER[target_state], target_formation,
                                commander_within_8=True, commander_grade=grade,
                                casualties=casualties)
    if charge_refusal(situation, ruleset) is not None:
        return None
    die = opportunity_table(ruleset).die
    passes = {f: opportunity_charge(situation, TypedDice([f]), ruleset).passed
              for f in _faces(die)}
    return TestTable(dice_table(die), False, tuple(passes.get(f, False)
                                                   for f in range(max(passes) + 1)))


@cache
def reaction_for(ruleset: str, arm: Arm, formation: Formation | None,
                 evade_allowed: bool) -> Reaction | None:
    """The reaction a sensible target makes to a charge (Rule 6): cavalry counter charge,
    infantry form square (the 1813 rules' change of formation), guns evade if they may or
    else unlimber; None if the ruleset gives this arm none."""
    kinds = opportunity_table(ruleset).reactions
    wanted: tuple[Reaction, ...]
    if arm is Arm.CAVALRY:
        wanted = (Reaction.COUNTER_CHARGE,)
    elif arm is Arm.INFANTRY:
        wanted = () if formation is Formation.SQUARE else (Reaction.FORM_SQUARE,
                                                            Reaction.CHANGE_FORMATION)
    else:
        wanted = (Reaction.EVADE,) + ((Reaction.CHANGE_FORMATION,)
                                      if formation is Formation.LIMBERED else ())
    for kind in wanted:
        rules = kinds.get(kind)
        if rules is not None and (not rules.needs_orders or evade_allowed):
            return kind
    return None


@cache
def reaction_table(ruleset: str, arm: Arm, rating: Rating, state: int, reaction: Reaction,
                   casualties: int, grade: Grade, evade_allowed: bool,
                   facts: frozenset[str] = frozenset()) -> TestTable | None:
    """Rule 6: the target's reaction from more than half the cavalry's move away, read from
    ``react``; None when the rules refuse it (not formed, wrong arm …). Cavalry not formed
    that counter charge or evade take Rule 18's morale test, with Rule 17's ``facts``."""
    situation = ReactionSituation("brigade", arm, rating, STATE_ORDER[state], reaction, True,
                                  commander_grade=grade, casualties=casualties,
                                  orders_allow_evade=evade_allowed, morale_facts=facts)
    if reaction_refusal(situation, ruleset) is not None:
        return None
    table = opportunity_table(ruleset)
    die = table.die
    if by_morale(situation, ruleset):
        die = morale_rules(ruleset).die
        if automatic_rout(morale_test_of(situation).brigade, ruleset):
            return TestTable(dice_table(die), True, (False,))
    elif not table.reactions[reaction].test:
        return TestTable(dice_table(die), True, (react(situation, TypedDice([]), ruleset).passed,))
    results = {f: react(situation, TypedDice([f]), ruleset) for f in _faces(die)}
    lost = max((sum(e.casualties for e in r.effects) for r in results.values() if not r.passed),
               default=0)
    return TestTable(dice_table(die), False,
                     tuple(results[f].passed if f in results else False
                           for f in range(max(results) + 1)), lost)


# --- Rule 3: what actions cost ----------------------------------------------------------------


@cache
def action_cost(ruleset: str, action: CorpsAction) -> int:
    """The pips an action of Rule 3 costs a corps commander."""
    return corps_action_cost(action, ruleset)


@cache
def pips_bonus(ruleset: str, grade: Grade) -> int:
    """What a commander's grade adds to the pips die (Rules 2-3), for the report."""
    return command_table(ruleset).pips_bonus[grade]


# --- Rule 16: pursuit and the reaction to a rout -------------------------------------------


@dataclass(frozen=True)
class PursuitRow:
    """One face of the second pursuit roll: what the pursuers do."""

    action: str       # "routers" or "charge"
    result: str
    casualties: int


@dataclass(frozen=True)
class PursuitTable:
    """Rule 16's pursuit for cavalry of one nation: which faces pursue, and how."""

    dice: DiceTable
    pursues: tuple[bool, ...]         # indexed by the first face
    rows: tuple[PursuitRow, ...]      # indexed by the second face

    def chance(self) -> Fraction:
        """The chance of pursuing at all."""
        return sum((p for f, p in distribution(self.dice.die).items() if self.pursues[f]),
                   Fraction(0))


@cache
def pursuit_table(ruleset: str, nation: str) -> PursuitTable:
    """Rule 16: whether and how cavalry of this nation pursue, read from ``pursue``."""
    cavalry = _brigade(Arm.CAVALRY, Rating.B, 0, FORMED, nation, "cavalry")
    routers = _brigade(Arm.INFANTRY, Rating.B, 0, ROUT, name="routers")
    faces = sorted(set(D6.faces))
    pursues = {f: pursue(cavalry, routers, TypedDice([f, 1]), ruleset).pursues for f in faces}
    first = max(faces)
    rows: dict[int, PursuitRow] = {}
    for f in faces:
        result = pursue(cavalry, routers, TypedDice([first, f]), ruleset)
        row = result.row
        assert row is not None, "the highest face always pursues"
        rows[f] = PursuitRow(row.action, row.result, row.casualties)
    die = result.pursue_roll.die
    return PursuitTable(dice_table(die), tuple(pursues.get(f, False) for f in range(first + 1)),
                        tuple(rows.get(f, rows[first]) for f in range(first + 1)))


@cache
def reaction_action(ruleset: str, state: int) -> str:
    """What a rout does to a friend near it in this state (Rule 16): removed, rout or test."""
    routed = _brigade(Arm.INFANTRY, Rating.B, 0, ROUT, name="routed")
    friend = _brigade(Arm.INFANTRY, Rating.B, 0, state, name="friend")
    reaction = rout_reaction(routed, (Nearby(friend),), ruleset)
    if reaction.tests:
        return "test"
    effect = reaction.effects[0]
    return "removed" if effect.removed else "rout"


@cache
def end_of_sequence_state(ruleset: str, state: int) -> int:
    """The state a brigade takes at the end of a complete sequence (Disordered re-form)."""
    return _index(end_of_sequence(_brigade(Arm.INFANTRY, Rating.B, 0, state), ruleset).state)


# --- Rules 2-3: pips ------------------------------------------------------------------------


@cache
def pips_table(ruleset: str, grade: Grade) -> tuple[DiceTable, tuple[int, ...]]:
    """A commander's pips for each face of the pips die, read from ``roll_pips``."""
    die = command_table(ruleset).pips_die
    commander = Commander("commander", grade)
    pips = {f: roll_pips(commander, TypedDice([f]), ruleset).pips for f in sorted(set(die.faces))}
    return dice_table(die), tuple(pips.get(f, 0) for f in range(max(pips) + 1))


# --- The army break ---------------------------------------------------------------------------


@cache
def broken_states(ruleset: str) -> tuple[bool, ...]:
    """For each state (by index), whether a brigade in it counts as broken."""
    return tuple(brigade_broken(BrigadeStanding("b", s), ruleset) for s in STATE_ORDER)


@cache
def corps_break_count(ruleset: str, brigades: int) -> int:
    """How many of a corps' brigades must be broken for it to break (army.py's test)."""
    for k in range(brigades + 1):
        standing = tuple(BrigadeStanding(str(i), destroyed=i < k) for i in range(brigades))
        if corps_broken(CorpsStanding("corps", standing), ruleset):
            return k
    return brigades + 1


@cache
def side_break_count(ruleset: str, corps: int) -> int:
    """How many of a side's corps (arrived or not) must be broken for it to lose
    (army.side_lost)."""
    return next((k for k in range(corps + 1) if side_lost(k, corps, ruleset)), corps + 1)
