"""The cached tables auto-resolve samples from are the rules' own odds, exactly.

Each table is compared with the rules engine's ``…_odds`` function for the same situation, and a
few are worked by hand from the seed's tables (Rules 2-3, 7, 11, 14, 16, 17 and the army break).
"""

from fractions import Fraction as F
from itertools import product

import pytest

from campaign1813.campaign.battle.dice import AVERAGE, D6, TypedDice, distribution
from campaign1813.campaign.battle.ruleset1813 import auto_tables as t
from campaign1813.campaign.battle.ruleset1813.rules.army import (
    ArmyStanding,
    BrigadeStanding,
    CorpsStanding,
    army_break,
    corps_broken,
)
from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    fire_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, CavalryWeight
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatSide,
    Side,
    combat_odds,
    fight,
)
from campaign1813.campaign.battle.ruleset1813.rules.command import pips_odds
from campaign1813.campaign.battle.ruleset1813.rules.firefight import FIREFIGHT_RULE, firefight
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    PURSUIT,
    MoraleOutcome,
    MoraleTest,
    morale_odds,
    state_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.rout import pursuit_chance, rally_pursuers_odds
from campaign1813.campaign.battle.ruleset1813.rules.skirmish import (
    Skirmish,
    skirmish,
    skirmish_odds,
)
from campaign1813.campaign.battle.terms import (
    Arm,
    Calibre,
    Formation,
    Grade,
    MoraleState,
    Rating,
)

STATES = list(MoraleState)
FACT_SETS = [frozenset({"supports-within-4"}), frozenset({"no-supports-within-8"}),
             frozenset({"in-bua", "supports-within-4", "rout-within-4"}),
             frozenset({"no-supports-within-8", "rout-within-4", "pursuit"})]


def _brigade(arm, rating, casualties, state):
    weight = CavalryWeight.LIGHT if arm is Arm.CAVALRY else None
    return Brigade("brigade", arm, rating, cavalry=weight, casualties=casualties, state=state)


def test_dice_tables_hold_the_dice_distributions():
    assert t.dice_table(D6, 2).odds() == distribution(D6, 2)
    assert len(t.dice_table(D6, 2).faces) == 36
    assert t.dice_table(AVERAGE).faces == (2, 3, 3, 4, 4, 5)


@pytest.mark.parametrize("arm", list(Arm))
@pytest.mark.parametrize("rating", list(Rating))
@pytest.mark.parametrize("rallying", [False, True])
def test_morale_tables_are_rule_17s_odds(arm, rating, rallying):
    limit = {Arm.INFANTRY: 6, Arm.CAVALRY: 4, Arm.ARTILLERY: 3}[arm]
    for casualties, state, facts in product(range(limit + 1), STATES, FACT_SETS):
        index = STATES.index(state)
        table = t.morale_table("1813", arm, rating, casualties, index, facts, rallying)
        test = MoraleTest(_brigade(arm, rating, casualties, state), facts, rallying)
        assert table.odds() == morale_odds(test)
        assert table.state_odds() == state_odds(test)
        assert table.automatic == (casualties >= limit)


def test_morale_worked_by_hand():
    # Class B infantry, no casualties, supports: 1d6 +1 passes on 2-6, Shaken on 1 (Rule 17).
    table = t.morale_table("1813", Arm.INFANTRY, Rating.B, 0, t.FORMED,
                           frozenset({"supports-within-4"}))
    assert table.odds() == {MoraleOutcome.PASS: F(5, 6), MoraleOutcome.SHAKEN: F(1, 6),
                            MoraleOutcome.ROUT: F(0)}
    assert [row.text for row in table.rows[1:]] == ["fail, shaken"] + ["pass"] * 5
    # Class C, 2 casualties, no supports, a rout near: 1d6 -5; only a 6 leaves it Shaken.
    table = t.morale_table("1813", Arm.INFANTRY, Rating.C, 2, t.FORMED,
                           frozenset({"no-supports-within-8", "rout-within-4"}))
    assert table.odds()[MoraleOutcome.ROUT] == F(5, 6)
    assert table.rows[1].new_rout and not table.rows[6].new_rout
    # Rallying a routing B brigade with supports: 1d6 +1 -2 passes on 4-6, to Shaken.
    table = t.morale_table("1813", Arm.INFANTRY, Rating.B, 0, t.ROUT,
                           frozenset({"supports-within-4"}), True)
    assert table.state_odds() == {MoraleState.SHAKEN: F(1, 2), MoraleState.ROUT: F(1, 2)}
    # The words are the table's own (the morale rules' note on a routing brigade's test).
    assert table.rows[4].text == "rallied" and table.rows[4].state == t.SHAKEN
    assert table.rows[3].text == "not rallied: continues to rout"
    # Without a commander a Shaken brigade that passes stays Shaken.
    table = t.morale_table("1813", Arm.INFANTRY, Rating.A, 0, t.SHAKEN,
                           frozenset({"supports-within-4"}))
    assert table.rows[6].text == "pass, shaken"
    assert table.rows[1].text == "fail, shaken"
    # At the automatic-rout limit no die is rolled.
    table = t.morale_table("1813", Arm.CAVALRY, Rating.A, 4, t.FORMED,
                           frozenset({"supports-within-4"}))
    assert table.automatic and table.rows[0].text == "routs without testing at 4 casualties"


def test_rally_of_pursuers_is_rule_16s():
    facts = frozenset({"supports-within-4"})
    for casualties, state in product(range(5), (MoraleState.FORMED, MoraleState.DISORDERED)):
        table = t.rally_pursuers_table("1813", Rating.B, casualties, STATES.index(state), facts)
        test = MoraleTest(_brigade(Arm.CAVALRY, Rating.B, casualties, state), facts, True)
        assert table.state_odds() == rally_pursuers_odds(test)


@pytest.mark.parametrize("ruleset", ["1813", "1813-revised"])
def test_fire_tables_are_rule_7s_odds(ruleset):
    for calibre, gunners, casualties, target, band in product(
            Calibre, Rating, range(3), Target, RangeBand):
        dice, hits = t.fire_table_for(ruleset, calibre, gunners, casualties, target, band)
        odds = {n: F(0) for n in range(3)}
        for total, p in distribution(dice.die, dice.count).items():
            odds[hits[total]] += p
        situation = FireSituation(Battery("b", calibre, gunners, casualties), "t", target, band)
        assert odds == fire_odds(situation, ruleset).hits


def test_fire_worked_by_hand():
    # B gunners at long range on infantry need 8 on 2d6 (15/36); 16 for two hits, beyond 2d6.
    _, hits = t.fire_table_for("1813", Calibre.MEDIUM, Rating.B, 0, Target.INFANTRY,
                               RangeBand.LONG)
    assert hits[7] == 0 and hits[8] == 1 and hits[12] == 1
    # At short range 6 hits and 12 hits twice.
    _, hits = t.fire_table_for("1813", Calibre.MEDIUM, Rating.B, 0, Target.INFANTRY,
                               RangeBand.SHORT)
    assert (hits[5], hits[6], hits[11], hits[12]) == (0, 1, 1, 2)
    # The revision makes cavalry harder to hit at short range (7).
    _, hits = t.fire_table_for("1813-revised", Calibre.MEDIUM, Rating.B, 0, Target.CAVALRY,
                               RangeBand.SHORT)
    assert (hits[6], hits[7]) == (0, 1)


def _profile(arm, rating=Rating.B, weight=None, lancers=False):
    formation = {Arm.INFANTRY: Formation.LINE, Arm.CAVALRY: Formation.CAVALRY_LINE}[arm]
    if arm is Arm.CAVALRY:
        weight = weight or CavalryWeight.MEDIUM
    return (arm, rating, rating, rating, weight, lancers, formation, "")


def _from(profile, casualties, state, name):
    arm, rating, fire, skirmish, weight, lancers, formation, nation = profile
    return Brigade(name, arm, rating, fire, skirmish, weight, lancers, casualties, state,
                   formation, nation)


COMBATS = [
    (9, Arm.INFANTRY, Arm.INFANTRY, frozenset(), frozenset({"garrison"})),
    (12, Arm.INFANTRY, Arm.INFANTRY, frozenset(), frozenset()),
    (13, Arm.INFANTRY, Arm.INFANTRY, frozenset(), frozenset()),
    (14, Arm.CAVALRY, Arm.CAVALRY, frozenset(), frozenset({"stationary"})),
    (15, Arm.CAVALRY, Arm.INFANTRY, frozenset(), frozenset()),
]


@pytest.mark.parametrize("rule, a_arm, d_arm, a_facts, d_facts", COMBATS)
def test_combat_tables_are_the_rules_odds(rule, a_arm, d_arm, a_facts, d_facts):
    for ra, rd, ca, cd, sd in product(Rating, Rating, range(3), range(3),
                                      (MoraleState.FORMED, MoraleState.SHAKEN)):
        pa, pd = _profile(a_arm, ra), _profile(d_arm, rd)
        table = t.combat_table("1813", rule, pa, ca, t.FORMED, a_facts, pd, cd,
                               STATES.index(sd), d_facts)
        combat = Combat(rule, CombatSide(_from(pa, ca, MoraleState.FORMED, "a"), a_facts),
                        CombatSide(_from(pd, cd, sd, "d"), d_facts))
        odds = combat_odds(combat)
        expected: dict[str, F] = {}
        for row, p in odds.rows:
            key = row.result
            expected[key] = expected.get(key, F(0)) + p
        assert {k: v for k, v in table.odds().items() if v} == \
            {k: v for k, v in expected.items() if v}
        assert table.attacker_rolls == (odds.favoured is Side.ATTACKER)
        assert table.difference == odds.difference


@pytest.mark.parametrize("rule, a_arm, d_arm, a_facts, d_facts", COMBATS)
def test_combat_rows_are_what_fight_does_to_each_total(rule, a_arm, d_arm, a_facts, d_facts):
    """Rules 9, 12-15: each total's row of a combat table is what the rules engine's
    ``fight`` (``firefight`` for Rule 12) does with that total rolled: the row's words, each
    side's casualties and state, and who pursues."""
    for ra, rd, ca, cd, sd in product(Rating, Rating, (0, 2), (0, 3),
                                      (MoraleState.FORMED, MoraleState.SHAKEN)):
        pa, pd = _profile(a_arm, ra), _profile(d_arm, rd)
        table = t.combat_table("1813", rule, pa, ca, t.FORMED, a_facts, pd, cd,
                               STATES.index(sd), d_facts)
        a = CombatSide(_from(pa, ca, MoraleState.FORMED, "attacker"), a_facts)
        d = CombatSide(_from(pd, cd, sd, "defender"), d_facts)
        for total in range(2, 13):
            dice = TypedDice([total])
            result = (firefight(a, d, dice) if rule == FIREFIGHT_RULE
                      else fight(Combat(rule, a, d), dice))
            row = table.rows[total]
            assert row.result == result.row.result
            effects = {e.brigade: e for e in result.effects}
            for name, hit, before in (("attacker", row.attacker, MoraleState.FORMED),
                                      ("defender", row.defender, sd)):
                e = effects.get(name)
                assert hit.casualties == (e.casualties if e else 0)
                assert STATES[hit.state] == ((e.new_state if e else None) or before)
                assert hit.new_rout == bool(e and e.new_state is MoraleState.ROUT
                                            and before is not MoraleState.ROUT)
            pursuers = {f.who for f in result.follow_ons if f.test == PURSUIT}
            assert (row.attacker_pursues, row.defender_pursues) == (
                "attacker" in pursuers, "defender" in pursuers)


def test_combat_worked_by_hand():
    # Rule 13, class A against class B, both in line: A rolls 2d6 +1; 9+ on the dice (10+
    # in all) routs the B brigade: 10/36. The A brigade ends disordered with 1 casualty.
    # (Firepower and skirmish B on both sides, so only class differs.)
    b = _profile(Arm.INFANTRY, Rating.B)
    a = (Arm.INFANTRY, Rating.A) + b[2:]
    table = t.combat_table("1813", 13, a, 0, t.FORMED, frozenset(), b, 0, t.FORMED,
                           frozenset())
    assert table.attacker_rolls and table.difference == 1
    assert table.odds()['Loser routs'] == F(10, 36)
    assert (table.attacker_total, table.defender_total) == (1, 0)
    row = table.rows[9]
    assert (row.attacker.casualties, row.attacker.state) == (1, t.DISORDERED)
    assert (row.defender.casualties, row.defender.state, row.defender.new_rout) == (3, t.ROUT,
                                                                                    True)
    # Rule 14: heavy cavalry (+2) against light: the heavy roll 2d6 +2 and, when they rout the
    # light, may pursue.
    heavy = _profile(Arm.CAVALRY, weight=CavalryWeight.HEAVY)
    light = _profile(Arm.CAVALRY, weight=CavalryWeight.LIGHT)
    table = t.combat_table("1813", 14, heavy, 0, t.FORMED, frozenset(), light, 0, t.FORMED,
                           frozenset())
    assert table.difference == 2
    assert table.rows[8].attacker_pursues and not table.rows[8].defender_pursues
    assert not table.rows[5].attacker_pursues


def test_skirmish_tables_are_rule_11s_odds():
    for ra, rd, facts in product(Rating, Rating, (frozenset(), frozenset({"enemy-in-cover"}))):
        pa, pd = _profile(Arm.INFANTRY, ra), _profile(Arm.INFANTRY, rd)
        table = t.skirmish_table("1813", pa, 1, t.FORMED, facts, pd, 0, t.FORMED, frozenset())
        a_kills = sum((F(1, 36) for (fa, fd), row in table.rows.items()
                       if row[2].casualties), F(0))
        d_kills = sum((F(1, 36) for (fa, fd), row in table.rows.items()
                       if row[0].casualties), F(0))
        odds = skirmish_odds(Skirmish(CombatSide(_from(pa, 1, MoraleState.FORMED, "a"), facts),
                                      CombatSide(_from(pd, 0, MoraleState.FORMED, "d"))))
        assert (a_kills, d_kills) == (odds.attacker_hits, odds.defender_hits)
    # Skirmish A (+3) kills on 3-6; the one hit tests morale.
    a = _profile(Arm.INFANTRY, Rating.A)
    table = t.skirmish_table("1813", a, 0, t.FORMED, frozenset(), a, 0, t.FORMED, frozenset())
    assert table.rows[(2, 1)][2].casualties == 0
    assert table.rows[(3, 1)][2].casualties == 1 and table.rows[(3, 1)][3]


def test_skirmish_rows_are_what_rule_11_does_to_each_pair_of_rolls():
    pa, pd = _profile(Arm.INFANTRY, Rating.A), _profile(Arm.INFANTRY, Rating.C)
    for ca, cd in ((0, 5), (5, 0), (2, 2)):
        table = t.skirmish_table("1813", pa, ca, t.FORMED, frozenset(), pd, cd, t.SHAKEN,
                                 frozenset({"enemy-artillery"}))
        sk = Skirmish(CombatSide(_from(pa, ca, MoraleState.FORMED, "attacker")),
                      CombatSide(_from(pd, cd, MoraleState.SHAKEN, "defender"),
                                 frozenset({"enemy-artillery"})))
        for (fa, fd), (a_hit, a_tests, d_hit, d_tests) in table.rows.items():
            result = skirmish(sk, TypedDice([fa, fd]))
            effects = {e.brigade: e for e in result.effects}
            tests = {f.who for f in result.follow_ons if f.test == "morale test"}
            for name, hit, tested in (("attacker", a_hit, a_tests),
                                      ("defender", d_hit, d_tests)):
                e = effects.get(name)
                assert hit.casualties == (e.casualties if e else 0)
                assert hit.new_rout == bool(e and e.new_state is MoraleState.ROUT)
                assert tested == (name in tests)


def test_pursuit_tables_are_rule_16s():
    for nation, chance in (("french", F(1, 3)), ("british", F(1, 2))):
        table = t.pursuit_table("1813", nation)
        cavalry = Brigade("c", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT, nation=nation)
        assert table.chance() == pursuit_chance(cavalry) == chance
    table = t.pursuit_table("1813", "")
    assert [r.action for r in table.rows[1:]] == ["routers"] * 2 + ["charge"] * 4
    assert table.rows[1].casualties == 1


def test_pips_tables_are_rules_2_and_3s_odds():
    for grade in Grade:
        dice, pips = t.pips_table("1813", grade)
        odds: dict[int, F] = {}
        for face, p in distribution(dice.die).items():
            odds[pips[face]] = odds.get(pips[face], F(0)) + p
        assert odds == pips_odds(grade, "1813")
    # Average die faces 2-5, Poor +1: 3 to 6 pips.
    assert t.pips_table("1813", Grade.POOR)[1][2:6] == (3, 4, 5, 6)


def test_reaction_and_end_of_sequence():
    assert t.reaction_action("1813", t.ROUT) == "removed"
    assert t.reaction_action("1813", t.SHAKEN) == "rout"
    assert t.reaction_action("1813", t.FORMED) == t.reaction_action("1813", t.DISORDERED) \
        == "test"
    assert t.end_of_sequence_state("1813", t.DISORDERED) == t.FORMED
    assert t.end_of_sequence_state("1813", t.SHAKEN) == t.SHAKEN


def test_guns_charged_without_supports():
    result = t.guns_charged("1813", t.FORMED)
    assert result is not None and result.removed and "all lost" in result.text
    # The revision leaves deployed guns to the Rule 6 reaction: no quick result.
    assert t.guns_charged("1813-revised", t.FORMED) is None


def test_break_counts_are_army_pys():
    assert t.broken_states("1813") == (False, False, True, True)
    for n in range(1, 9):
        k = t.corps_break_count("1813", n)
        for broken in range(n + 1):
            corps = CorpsStanding("c", tuple(BrigadeStanding(str(i), destroyed=i < broken)
                                             for i in range(n)))
            assert corps_broken(corps) == (broken >= k)
        k = t.side_break_count("1813", n)
        for broken in range(n + 1):
            army = ArmyStanding("s", tuple(
                CorpsStanding(str(i), (BrigadeStanding("b", destroyed=i < broken),))
                for i in range(n)))
            assert army_break(army).lost == (broken >= k)
    # Six brigades break at three; two corps lose at one, three at two.
    assert (t.corps_break_count("1813", 6), t.side_break_count("1813", 2),
            t.side_break_count("1813", 3)) == (3, 1, 2)
