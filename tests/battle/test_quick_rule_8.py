"""Rule 8: quick results, in 1813 and as revised, and the revision's crest-of-hill test."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.quick import (
    Contact,
    CrestSituation,
    QuickCase,
    after_combat,
    cavalry_answers,
    charge_refusal,
    crest_modifiers,
    crest_odds,
    crest_test,
    crest_test_due,
    quick_cases,
    quick_odds,
    quick_result,
)
from campaign1813.campaign.battle.terms import Arm, Formation, MoraleState, Rating

OLD, NEW = "1813", "1813-revised"
ROUT, SHAKEN, DISORDERED = MoraleState.ROUT, MoraleState.SHAKEN, MoraleState.DISORDERED


def contact(case, arm=Arm.INFANTRY, state=MoraleState.FORMED, **facts):
    return Contact("16 Brigade", arm, state, case, by="Prussian hussars", by_arm=Arm.CAVALRY,
                   **facts)


def test_rule_8_column_of_march_caught_by_cavalry_1813():
    """Rule 8 (1813): a column of march that cannot change formation routs and loses 3;
    friends within 4 inches react (Rule 16) and the cavalry test to pursue."""
    result = quick_result(contact(QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY), OLD)
    effect = result.effects[0]
    assert not result.escaped
    assert (effect.casualties, effect.new_state, effect.removed) == (3, ROUT, False)
    assert [(f.test, f.who) for f in result.follow_ons] == [
        ("reaction to rout", "friendly brigades within 4 inches of 16 Brigade"),
        ("pursuit test", "Prussian hussars")]
    escaped = quick_result(contact(QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY,
                                   able_to_escape=True), OLD)
    assert escaped.escaped and escaped.effects[0].casualties == 0
    assert "change formation" in escaped.effects[0].note


def test_rule_8_column_of_march_caught_by_cavalry_revised():
    """Revised Rule 8: 20 % and rout: 2 of 8 infantry; cavalry columns too (1 of 4)."""
    inf = quick_result(contact(QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY), NEW)
    assert (inf.effects[0].casualties, inf.effects[0].new_state) == (2, ROUT)
    assert "20% casualties" in inf.effects[0].note
    cav = quick_result(contact(QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY, Arm.CAVALRY),
                       NEW)
    assert cav.effects[0].casualties == 1
    with pytest.raises(ActionRefused, match="is for infantry"):
        quick_result(contact(QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY, Arm.CAVALRY), OLD)


def test_rule_8_limbered_guns_overrun():
    """Rule 8: 1813 guns that cannot evade are cut down (all lost); revised 20 % (1 of 4
    gunners) and rout."""
    old = quick_result(contact(QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY,
                               Arm.ARTILLERY), OLD)
    assert old.effects[0].removed and old.follow_ons == ()
    new = quick_result(contact(QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY,
                               Arm.ARTILLERY), NEW)
    assert (new.effects[0].removed, new.effects[0].casualties,
            new.effects[0].new_state) == (False, 1, ROUT)


def test_rule_8_deployed_gunners_evade_only_with_room_and_supports_1813():
    """Rule 8 (1813): gunners evade if the enemy is over half a move away AND supports are
    within 4 inches; otherwise all guns are lost. The revision leaves it to Rule 6."""
    case = QuickCase.DEPLOYED_ARTILLERY_CHARGED
    both = quick_result(contact(case, Arm.ARTILLERY, more_than_half_move_away=True,
                                supports_within_4=True), OLD)
    assert both.escaped
    one = quick_result(contact(case, Arm.ARTILLERY, more_than_half_move_away=True), OLD)
    assert one.effects[0].removed
    with pytest.raises(ActionRefused, match="no quick result for deployed artillery charged"):
        quick_result(contact(case, Arm.ARTILLERY), NEW)


def test_rule_8_routers_caught():
    """Rule 8: routers contacted are all lost (1813); revised lose 20 % and stay in rout."""
    old = quick_result(contact(QuickCase.ROUTERS_CONTACTED, state=ROUT), OLD)
    assert old.effects[0].removed
    new = quick_result(contact(QuickCase.ROUTERS_CONTACTED, state=ROUT), NEW)
    assert (new.effects[0].casualties, new.effects[0].new_state) == (2, None)
    assert new.follow_ons == ()
    with pytest.raises(ActionRefused, match="is for brigades that are rout"):
        quick_result(contact(QuickCase.ROUTERS_CONTACTED), OLD)


def test_rule_8_shaken_caught_is_a_revision_case():
    new = quick_result(contact(QuickCase.SHAKEN_CONTACTED, state=SHAKEN), NEW)
    assert (new.effects[0].casualties, new.effects[0].new_state) == (2, ROUT)
    with pytest.raises(ActionRefused, match="no quick result"):
        quick_result(contact(QuickCase.SHAKEN_CONTACTED, state=SHAKEN), OLD)


def test_rule_8_caught_in_flank_is_a_1813_case():
    old = quick_result(contact(QuickCase.CAUGHT_IN_FLANK_OR_REAR, state=DISORDERED), OLD)
    assert (old.effects[0].casualties, old.effects[0].new_state) == (3, ROUT)
    assert quick_result(contact(QuickCase.CAUGHT_IN_FLANK_OR_REAR, able_to_escape=True),
                        OLD).escaped
    with pytest.raises(ActionRefused):
        quick_result(contact(QuickCase.CAUGHT_IN_FLANK_OR_REAR), NEW)


def test_revised_rule_8_gunners_contacted_by_infantry():
    """Revised Rule 8: gunners contacted by infantry lose 20 % (1 of 4) and rout; no pursuit
    test, as infantry caused it."""
    c = Contact("4 Corps artillery", Arm.ARTILLERY, MoraleState.FORMED,
                QuickCase.GUNNERS_CONTACTED_BY_INFANTRY, by="Prussian 9 Brigade",
                by_arm=Arm.INFANTRY)
    result = quick_result(c, NEW)
    assert (result.effects[0].casualties, result.effects[0].new_state) == (1, ROUT)
    assert [f.test for f in result.follow_ons] == ["reaction to rout"]
    assert quick_odds(c, NEW) == {result: F(1)}


def test_rule_8_cases_per_ruleset():
    assert set(quick_cases(OLD)) == {
        QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY,
        QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY, QuickCase.DEPLOYED_ARTILLERY_CHARGED,
        QuickCase.ROUTERS_CONTACTED, QuickCase.CAUGHT_IN_FLANK_OR_REAR}
    assert set(quick_cases(NEW)) == {
        QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY,
        QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY, QuickCase.SHAKEN_CONTACTED,
        QuickCase.ROUTERS_CONTACTED, QuickCase.GUNNERS_CONTACTED_BY_INFANTRY}


@pytest.mark.parametrize("ruleset", (OLD, NEW))
def test_rule_8_charges_not_allowed(ruleset):
    """Rule 8: cavalry cannot charge a formed square; infantry cannot charge cavalry."""
    refusal = charge_refusal("Prussian hussars", Arm.CAVALRY, Arm.INFANTRY, Formation.SQUARE,
                             MoraleState.FORMED, ruleset)
    assert "cannot charge a formed square" in refusal and "4 inches" in refusal
    assert charge_refusal("Prussian hussars", Arm.CAVALRY, Arm.INFANTRY, Formation.SQUARE,
                          SHAKEN, ruleset) is None
    assert "cannot charge cavalry" in charge_refusal("13 Brigade", Arm.INFANTRY, Arm.CAVALRY,
                                                     Formation.CAVALRY_LINE,
                                                     MoraleState.FORMED, ruleset)
    assert charge_refusal("13 Brigade", Arm.INFANTRY, Arm.INFANTRY, Formation.LINE,
                          MoraleState.FORMED, ruleset) is None


def test_rule_8_cavalry_facing_approaching_infantry():
    """Rule 8: infantry in column of march, line or square within 4 inches: 1813 cavalry
    withdraw; revised cavalry charge or withdraw."""
    assert cavalry_answers(Formation.LINE, 4, OLD) == ("withdraw",)
    assert cavalry_answers(Formation.SQUARE, 3, NEW) == ("charge", "withdraw")
    assert cavalry_answers(Formation.COLUMN_OF_ATTACK, 3, OLD) == ()
    assert cavalry_answers(Formation.COLUMN_OF_MARCH, 5, OLD) == ()


@pytest.mark.parametrize("ruleset", (OLD, NEW))
def test_rule_8_disordered_after_combat_unless_worse(ruleset):
    assert after_combat("13 Brigade", MoraleState.FORMED, ruleset).new_state is DISORDERED
    assert after_combat("13 Brigade", SHAKEN, ruleset).new_state is None
    assert after_combat("13 Brigade", ROUT, ruleset).new_state is None


# --- revised Rule 8: behind the crest of a hill ----------------------------------------------


@pytest.mark.parametrize(("rating", "british", "expected"), [
    # 1d6: 1 Rout, 2 Shaken, 3 Disordered, 4-6 OK.
    (Rating.B, False, (F(1, 6), F(1, 6), F(1, 6), F(1, 2))),
    # +1: totals 2-7: Shaken on a 1, Disordered on a 2.
    (Rating.A, False, (F(0), F(1, 6), F(1, 6), F(2, 3))),
    (Rating.B, True, (F(0), F(1, 6), F(1, 6), F(2, 3))),
    (Rating.A, True, (F(0), F(1, 6), F(1, 6), F(2, 3))),      # +1 once, not +2
    # -1: totals 0-5: Rout on 1 or 2.
    (Rating.C, False, (F(1, 3), F(1, 6), F(1, 6), F(1, 3))),
    (Rating.C, True, (F(1, 6), F(1, 6), F(1, 6), F(1, 2))),   # +1 British, -1 C
])
def test_revised_rule_8_crest_test_odds(rating, british, expected):
    """Revised Rule 8: 1d6, +1 British or A class, -1 C class."""
    odds = crest_odds(CrestSituation("2 Brigade", rating, british=british), NEW)
    assert (odds[ROUT], odds[SHAKEN], odds[DISORDERED], odds[None]) == expected


def test_revised_rule_8_crest_test_result():
    result = crest_test(CrestSituation("2 Brigade", Rating.B), TypedDice([1]), NEW)
    assert result.result is ROUT and result.effects[0].new_state is ROUT
    assert [f.test for f in result.follow_ons] == ["reaction to rout"]
    ok = crest_test(CrestSituation("2 Brigade", Rating.C), TypedDice([5]), NEW)
    assert ok.total == 4 and ok.result is None and ok.effects == ()
    shaken_already = crest_test(CrestSituation("2 Brigade", Rating.B, SHAKEN), TypedDice([3]),
                                NEW)
    assert shaken_already.result is DISORDERED and shaken_already.effects == ()
    assert [m.label for m in crest_modifiers(CrestSituation("x", Rating.A, british=True),
                                             NEW)] == ["British or A class"]


def test_crest_test_is_not_in_the_1813_rules():
    assert not crest_test_due(0, 0, OLD)
    with pytest.raises(ActionRefused, match="no crest-of-hill test"):
        crest_odds(CrestSituation("2 Brigade", Rating.B), OLD)
    assert crest_test_due(4, 4, NEW)
    assert not crest_test_due(5, 4, NEW)
    assert not crest_test_due(4, 5, NEW)
