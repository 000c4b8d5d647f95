"""Rules 9, 10, 12, 13, 14 and 15: combat factors, who rolls, and the result tables.

2d6 gives 2..12 with 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 chances in 36. The side with the higher
combat-factor total rolls 2d6 plus the difference; equal totals: the attacker rolls with 0
(DESIGN 4.4).
"""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, CavalryWeight
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatRefused,
    CombatSide,
    ResultRow,
    Side,
    combat_factors,
    combat_odds,
    combat_rule,
    combat_rules,
    fight,
    find_row,
)
from campaign1813.campaign.battle.ruleset1813.rules.firefight import firefight, firefight_odds
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import UnknownFact
from campaign1813.campaign.battle.ruleset1813.rules.morale import PURSUIT, ROUT_REACTION
from campaign1813.campaign.battle.terms import Arm, Formation, MoraleState, Rating

LINE, COA, SQUARE = Formation.LINE, Formation.COLUMN_OF_ATTACK, Formation.SQUARE


def inf(name="13 Brigade", facts=(), **kw) -> CombatSide:
    return CombatSide(Brigade(name, Arm.INFANTRY, **kw), frozenset(facts))


def cav(name="11 Cavalry", weight=CavalryWeight.LIGHT, facts=(), **kw) -> CombatSide:
    return CombatSide(Brigade(name, Arm.CAVALRY, cavalry=weight, **kw), frozenset(facts))


def row_odds(combat):
    odds = combat_odds(combat)
    return odds.favoured, odds.difference, [p for _, p in odds.rows]


# Rule 13 table read with differences 0..3 (rows 2-3, 4-5, 6-7, 8-9, 10+), worked by hand.
DIFF0 = [F(3, 36), F(7, 36), F(11, 36), F(9, 36), F(6, 36)]
DIFF1 = [F(1, 36), F(5, 36), F(9, 36), F(11, 36), F(10, 36)]
DIFF2 = [F(0), F(3, 36), F(7, 36), F(11, 36), F(15, 36)]
DIFF3 = [F(0), F(1, 36), F(5, 36), F(9, 36), F(21, 36)]


def test_rule13_equal_totals_attacker_rolls_with_difference_zero():
    """DESIGN 4.4 / Rule 13: equal totals: the attacker rolls 2d6 +0.

    2-3: 3/36, 4-5: 7/36, 6-7: 11/36, 8-9: 9/36, 10+: 6/36.
    """
    assert row_odds(Combat(13, inf(), inf("2 Brigade"))) == (Side.ATTACKER, 0, DIFF0)


def test_rule13_higher_defender_rolls():
    """Rule 13: class A defender (+1) against class B: the defender rolls 2d6 +1."""
    favoured, diff, rows = row_odds(Combat(13, inf(), inf("1 Brigade", rating=Rating.A)))
    assert (favoured, diff, rows) == (Side.DEFENDER, 1, DIFF1)


def test_rule13_every_factor():
    """Rule 13: line v column +2, class A +1, better skirmishers +1, better firepower +1 = +5;
    column side: outnumbered −2, 1 casualty −1, class C −1 = −4. Difference 9: 10+ always."""
    a = inf(rating=Rating.A, skirmish=Rating.A, firepower=Rating.A, formation=LINE)
    d = inf("16 Brigade", facts={"outnumbered"}, rating=Rating.C, casualties=1, formation=COA)
    factors = combat_factors(Combat(13, a, d))
    assert {x.key: x.value for x in factors.attacker} == {
        "line-v-column": 2, "class-a": 1, "better-skirmishers": 1, "better-firepower": 1}
    assert {x.key: x.value for x in factors.defender} == {
        "outnumbered": -2, "casualties": -1, "class-c": -1}
    assert row_odds(Combat(13, a, d)) == (Side.ATTACKER, 9, [0, 0, 0, 0, 1])


def test_rule13_disordered_and_shaken_defenders():
    """Rule 13: a disordered defender −1, a Shaken one −2: the attacker rolls +1 / +2."""
    assert row_odds(Combat(13, inf(), inf("2", state=MoraleState.DISORDERED)))[1:] == (1, DIFF1)
    assert row_odds(Combat(13, inf(), inf("2", state=MoraleState.SHAKEN)))[1:] == (2, DIFF2)


def test_rule13_the_favoured_side_can_still_lose():
    """Rule 13: the favoured side rolling 2-3 (diff 0) routs itself with 3 casualties."""
    result = fight(Combat(13, inf(), inf("2 Brigade")), TypedDice([(1, 1)]))
    assert result.favoured is Side.ATTACKER and result.total == 2
    assert result.row.result == "Winner routs"
    att, dfn = result.effects
    assert (att.brigade, att.casualties, att.new_state, att.rout_inches) == (
        "13 Brigade", 3, MoraleState.ROUT, 6)
    # Rule 8/18: all troops are disordered after hand-to-hand combat.
    assert (dfn.casualties, dfn.new_state) == (1, MoraleState.DISORDERED)
    assert [f.test for f in result.follow_ons] == [ROUT_REACTION]


def test_rule13_loser_routs_on_ten_plus():
    """Rule 13: 10+: the loser routs with 3 casualties, the winner 1 and disordered."""
    result = fight(Combat(13, inf(), inf("2 Brigade")), TypedDice([(6, 6)]))
    att, dfn = result.effects
    assert (att.casualties, att.new_state) == (1, MoraleState.DISORDERED)
    assert (dfn.casualties, dfn.new_state, dfn.rout_inches) == (3, MoraleState.ROUT, 6)


def test_rule13_loser_retires_four_inches_shaken():
    """Rule 13: 8-9: the loser retires 4" Shaken with 2 casualties."""
    result = fight(Combat(13, inf(), inf("2 Brigade")), TypedDice([(4, 4)]))
    dfn = result.effects[1]
    assert (dfn.casualties, dfn.new_state, dfn.retire_inches) == (2, MoraleState.SHAKEN, 4)


def test_rule13_casualties_reaching_six_rout_automatically():
    """Rules 13 and 17: 4 casualties + 2 from an 8-9 row = 6: infantry routs, not Shaken."""
    result = fight(Combat(13, inf(), inf("2 Brigade", casualties=4)), TypedDice([(6, 6)]))
    assert result.factors.difference == 4  # −4 for casualties: 12 + 4 → 10+, loser routs
    result = fight(Combat(13, inf(casualties=4), inf("2 Brigade", casualties=4)),
                   TypedDice([(4, 4)]))
    dfn = result.effects[1]
    assert (dfn.casualties, dfn.new_state) == (2, MoraleState.ROUT)
    assert "routs at 6 casualties" in dfn.note


def test_rule13_a_result_never_improves_a_shaken_brigade():
    """Rule 13: a Shaken defender in a "both disordered" draw stays Shaken (no new state)."""
    result = fight(Combat(13, inf(), inf("2 Brigade", state=MoraleState.SHAKEN)),
                   TypedDice([(2, 3)]))
    assert result.total == 7 and result.row.result.startswith("Draw")
    assert result.effects[1].new_state is None and result.effects[1].casualties == 1


def test_design_44_totals_beyond_the_table_are_clamped():
    """DESIGN 4.4: totals below the lowest row read the lowest, above the highest the highest."""
    rows = combat_rule(13).rows_for(Arm.INFANTRY)
    assert find_row(rows, 1) is rows[0] and find_row(rows, -5) is rows[0]
    assert find_row(rows, 40) is rows[-1]
    closed = (ResultRow(2, 3, "low", ()), ResultRow(4, 5, "high", ()))
    assert find_row(closed, 9).result == "high" and find_row(closed, 0).result == "low"


def test_design_44_rules_10_and_12_read_rule_13s_table():
    """DESIGN 4.4: Rules 10 and 12 have no table of their own and read Rule 13's."""
    rules = combat_rules()
    assert rules[10].table == rules[12].table == rules[13].table == "rule13"
    assert rules[10].rows == rules[13].rows == rules[12].rows


def test_rule9_garrison_outnumbered_by_two_brigades():
    """Rule 9 (photo: a garrison attacked by two brigades): garrison +2, outnumbered −2 = 0.

    Equal totals: the attacker rolls 2d6 +0 on the Rule 9 table.
    """
    combat = Combat(9, inf(), inf("Garrison", facts={"garrison", "outnumbered"}))
    assert combat_factors(combat).defender_total == 0
    assert row_odds(combat) == (Side.ATTACKER, 0, DIFF0)


def test_rule9_class_a_garrison_against_class_c():
    """Rule 9: class A garrison +3 against class C attacker −1: the garrison rolls 2d6 +4.

    Rows: 2-3 0, 4-5 0, 6-7 2d6 2-3 = 3/36, 8-9 2d6 4-5 = 7/36, 10+ 2d6 6+ = 26/36.
    """
    combat = Combat(9, inf(rating=Rating.C), inf("G", facts={"garrison"}, rating=Rating.A))
    assert row_odds(combat) == (Side.DEFENDER, 4, [0, 0, F(3, 36), F(7, 36), F(26, 36)])


def test_rule9_table_matches_rule13():
    """Rule 9 prints the same results as Rule 13."""
    rows9, rows13 = combat_rule(9).rows, combat_rule(13).rows
    assert [(r.totals, r.effects) for r in rows9[0][1]] == [(r.totals, r.effects)
                                                           for r in rows13[0][1]]


def test_rule10_skirmish_and_class_inside_bua():
    """Rule 10: class A +1 and skirmish A +1 against skirmish C −1: difference 3, Rule 13 table."""
    combat = Combat(10, inf(rating=Rating.A, skirmish=Rating.A), inf("2", skirmish=Rating.C))
    assert row_odds(combat) == (Side.ATTACKER, 3, DIFF3)


def test_rule10_disordered_attacker_may_fight_inside():
    """Rule 10: fought also when a garrison pushed back is followed in, so disordered may fight."""
    combat = Combat(10, inf(state=MoraleState.DISORDERED), inf("2"))
    assert row_odds(combat) == (Side.DEFENDER, 1, DIFF1)


def test_design_44_rule12_square_minus_two_once():
    """DESIGN 4.4: Rule 12 lists Square twice (−2, −1): applied once, −2.

    Fire A +1 against a square −2: the attacker rolls 2d6 +3.
    """
    odds = firefight_odds(inf(firepower=Rating.A, formation=LINE), inf("2", formation=SQUARE))
    assert [(a.key, a.value) for a in odds.factors.defender] == [("square", -2)]
    assert (odds.favoured, odds.difference, [p for _, p in odds.rows]) == (
        Side.ATTACKER, 3, DIFF3)


def test_rule12_firefight_factors():
    """Rule 12: line v column +2, better skirmishers +1; fire C −1, outnumbered −2: diff 6."""
    a = inf(formation=LINE, skirmish=Rating.A)
    d = inf("2", facts={"outnumbered"}, formation=COA, firepower=Rating.C)
    odds = firefight_odds(a, d)
    assert odds.difference == 6
    assert [p for _, p in odds.rows] == [0, 0, 0, F(3, 36), F(33, 36)]


def test_rule12_no_disorder_without_hand_to_hand():
    """Rule 12: a firefight is not hand to hand: a loser the row leaves alone keeps its state."""
    result = firefight(inf(), inf("2 Brigade"), TypedDice([(1, 2)]))
    dfn = result.effects[1]
    assert result.row.result == "Winner routs"
    assert (dfn.casualties, dfn.new_state) == (1, None)


def test_rule12_not_after_skirmishing():
    """Rule 12: not allowed if the brigade has already skirmished this move."""
    with pytest.raises(CombatRefused, match="skirmished"):
        firefight_odds(inf(), inf("2"), skirmished_this_move=True)


def test_rule14_heavy_line_against_light_column():
    """Rule 14: heavy +2 and line v column +2 = 4 against 0: 2d6 +4.

    6-7: 3/36, 8-9: 7/36, 10+: 26/36.
    """
    a = cav("5 Cavalry", CavalryWeight.HEAVY, formation=Formation.CAVALRY_LINE)
    d = cav("Hussars", formation=Formation.CAVALRY_COLUMN)
    assert row_odds(Combat(14, a, d)) == (Side.ATTACKER, 4, [0, 0, F(3, 36), F(7, 36),
                                                             F(26, 36)])


def test_rule14_stationary_cavalry_minus_two():
    """Rules 14/18: stationary cavalry −2; medium +1 class A +1 v stationary: 2d6 +4."""
    a = cav("3 Cavalry", CavalryWeight.MEDIUM, rating=Rating.A)
    d = cav("Hussars", facts={"stationary"})
    assert row_odds(Combat(14, a, d))[:2] == (Side.ATTACKER, 4)


def test_rule14_rout_brings_pursuit_test():
    """Rules 14/16: cavalry that rout the enemy (10+) test to pursue; loser 2 casualties, 12"."""
    a = cav("Dragoons", CavalryWeight.MEDIUM)
    result = fight(Combat(14, a, cav("Hussars")), TypedDice([(6, 5)]))
    win, lose = result.effects
    assert (win.casualties, win.new_state) == (1, MoraleState.DISORDERED)
    assert (lose.casualties, lose.new_state, lose.rout_inches) == (2, MoraleState.ROUT, 12)
    assert [(f.test, f.who) for f in result.follow_ons] == [
        (ROUT_REACTION, "friendly brigades within 4\" of Hussars and any it routs through"),
        (PURSUIT, "Dragoons")]


def test_rule14_winner_routs_and_the_loser_may_pursue():
    """Rule 14: 2-3: the favoured side routs (2 casualties); the other side's cavalry pursue."""
    a = cav("Dragoons", CavalryWeight.MEDIUM)
    result = fight(Combat(14, a, cav("Hussars")), TypedDice([(1, 1)]))
    assert result.total == 3
    assert result.effects[0].new_state is MoraleState.ROUT
    assert [f.who for f in result.follow_ons if f.test == PURSUIT] == ["Hussars"]


def test_rule15_lancers_take_the_larger_factor_once():
    """Rule 15: light lancers in line take +3 (lancers), not +3 and +1."""
    lancers = cav("Lancers", lancers=True, formation=Formation.CAVALRY_LINE)
    factors = combat_factors(Combat(15, lancers, inf("2")))
    assert [(a.key, a.value) for a in factors.attacker] == [("lancers-in-line", 3)]
    heavy_lancers = cav("L", CavalryWeight.HEAVY, lancers=True, formation=Formation.CAVALRY_LINE)
    assert combat_factors(Combat(15, heavy_lancers, inf("2"))).attacker_total == 3


def test_rule15_infantry_favoured_reads_infantry_rows():
    """Rule 15: light cavalry in column, class C (−1) against infantry in column of attack (+1).

    The infantry roll 2d6 +2 on the "infantry win" rows: 2-3 0, 4-5 3/36, 6-7 7/36,
    8-9 11/36, 10+ 15/36.
    """
    combat = Combat(15, cav(rating=Rating.C, formation=Formation.CAVALRY_COLUMN),
                    inf("2", formation=COA))
    odds = combat_odds(combat)
    assert (odds.favoured, odds.difference) == (Side.DEFENDER, 2)
    assert [r.totals for r, _ in odds.rows] == ["2–3", "4–5", "6–7", "8–9", "10+"]
    assert [p for _, p in odds.rows] == DIFF2


def test_rule15_cavalry_favoured_reads_cavalry_rows():
    """Rule 15: medium in line +2 against a Shaken square (+4 −2 = 2): tie, the cavalry roll +0.

    Cavalry rows: 2-3 3/36, 4-5 7/36, 6+ 26/36.
    """
    combat = Combat(15, cav(weight=CavalryWeight.MEDIUM, formation=Formation.CAVALRY_LINE),
                    inf("2", formation=SQUARE, state=MoraleState.SHAKEN))
    odds = combat_odds(combat)
    assert (odds.favoured, odds.difference) == (Side.ATTACKER, 0)
    assert [(r.totals, p) for r, p in odds.rows] == [
        ("2–3", F(3, 36)), ("4–5", F(7, 36)), ("6+", F(26, 36))]


def test_rule15_infantry_fire_a_in_line():
    """Rule 15: infantry with fire A in line +1 against light cavalry in column: defender +1."""
    combat = Combat(15, cav(formation=Formation.CAVALRY_COLUMN),
                    inf("2", firepower=Rating.A, formation=LINE))
    assert row_odds(combat)[:2] == (Side.DEFENDER, 1)


def test_rule15_cavalry_rout_infantry_and_pursue():
    """Rule 15 cavalry 6+: infantry rout with 3 casualties; cavalry disordered, 1 casualty."""
    a = cav(weight=CavalryWeight.HEAVY, formation=Formation.CAVALRY_LINE)
    result = fight(Combat(15, a, inf("2")), TypedDice([(2, 2)]))
    c, i = result.effects
    assert result.total == 7
    assert (c.casualties, c.new_state) == (1, MoraleState.DISORDERED)
    assert (i.casualties, i.new_state) == (3, MoraleState.ROUT)
    assert PURSUIT in [f.test for f in result.follow_ons]


def test_rule15_cavalry_halt_eight_inches():
    """Rule 15 cavalry 2-3: cavalry halt 8" from the infantry, both disordered, no casualties."""
    result = fight(Combat(15, cav(), inf("2")), TypedDice([(1, 1)]))
    c, i = result.effects
    assert (c.casualties, c.new_state, i.new_state) == (0, MoraleState.DISORDERED,
                                                        MoraleState.DISORDERED)
    assert "halts 8\"" in c.note


def test_rule15_infantry_rout_cavalry_on_ten_plus():
    """Rule 15 infantry 10+: cavalry rout, 2 casualties, 12"; infantry 1 casualty; no pursuit."""
    combat = Combat(15, cav(formation=Formation.CAVALRY_COLUMN), inf("2", formation=COA))
    result = fight(combat, TypedDice([(6, 6)]))
    c, i = result.effects
    assert (c.casualties, c.new_state, c.rout_inches) == (2, MoraleState.ROUT, 12)
    assert (i.casualties, i.new_state) == (1, MoraleState.DISORDERED)
    assert [f.test for f in result.follow_ons] == [ROUT_REACTION]


def test_rule15_infantry_retreat_four_inches():
    """Rule 15 infantry 4-5: infantry retreat 4" Shaken with 2 casualties; cavalry Shaken."""
    combat = Combat(15, cav(formation=Formation.CAVALRY_COLUMN), inf("2", formation=COA))
    c, i = fight(combat, TypedDice([(1, 2)])).effects
    assert (i.retire_inches, i.casualties, i.new_state) == (4, 2, MoraleState.SHAKEN)
    assert (c.casualties, c.new_state) == (0, MoraleState.SHAKEN)


def test_rule15_cavalry_may_not_charge_a_formed_square():
    """Rule 15: cavalry may not charge a formed square."""
    with pytest.raises(CombatRefused, match="formed square"):
        combat_odds(Combat(15, cav(), inf("2", formation=SQUARE)))


def test_combat_refuses_wrong_arms_and_unready_attackers():
    """Rules 13/18: only infantry fight Rule 13; Shaken troops may not start a combat."""
    with pytest.raises(CombatRefused, match="attacker must be infantry"):
        combat_odds(Combat(13, cav(), inf("2")))
    with pytest.raises(CombatRefused, match="shaken and may not start"):
        combat_odds(Combat(13, inf(state=MoraleState.SHAKEN), inf("2")))
    with pytest.raises(CombatRefused, match="no combat Rule 11"):
        combat_rule(11)
    with pytest.raises(UnknownFact, match="unknown modifier 'garrison'"):
        combat_odds(Combat(13, inf(facts={"garrison"}), inf("2")))


def test_revised_ruleset_inherits_the_combat_tables():
    """Seed 003 revises only Rules 4-8: 1813-revised reads the same combat tables."""
    assert combat_rules("1813-revised") == combat_rules("1813")
