"""Rule 7: artillery fire, in 1813 and as revised. Odds worked by hand from the 2d6 triangle:
P(2d6 >= n) for n = 2..12 is 36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 1 in 36."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import ImpossibleRoll, SeededDice, TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    artillery_fire,
    fire_modifiers,
    fire_odds,
    fire_refusal,
    hits_for_total,
    range_band,
)
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.terms import Calibre, MoraleState, Rating

OLD, NEW = "1813", "1813-revised"
SHORT, LONG = RangeBand.SHORT, RangeBand.LONG


def fire(calibre=Calibre.HEAVY, gunners=Rating.B, target=Target.INFANTRY, band=SHORT,
         casualties=0, **facts):
    battery = Battery("4 Corps artillery", calibre, gunners, casualties,
                      facts.pop("state", MoraleState.FORMED), facts.pop("limbered", False))
    return FireSituation(battery, "Prussian 9 Brigade", target, band, **facts)


def hits(situation, ruleset):
    odds = fire_odds(situation, ruleset).hits
    return odds[0], odds[1], odds[2]


def test_rule_7_twelve_pounder_short_infantry_a_class():
    """Rule 7, 12-pounder, short range, infantry, A-class gunners: 2d6+1 >= 6 for a hit,
    >= 12 for two: P(0 hits) = 6/36, P(1 hit) = 27/36, P(2 hits) = 3/36."""
    assert hits(fire(gunners=Rating.A), OLD) == (F(6, 36), F(27, 36), F(3, 36))
    assert hits(fire(gunners=Rating.A), NEW) == (F(6, 36), F(27, 36), F(3, 36))


@pytest.mark.parametrize(("situation", "expected"), [
    # 9-pounder, long, infantry, B: 8+ = 15/36, two hits need 16: never.
    (fire(Calibre.MEDIUM, band=LONG), (F(21, 36), F(15, 36), F(0))),
    # woods, short, B: 7+ = 21/36; 14 impossible.
    (fire(target=Target.WOODS), (F(15, 36), F(21, 36), F(0))),
    # buildings, long, A with one gunner casualty: net 0, 10+ = 6/36.
    (fire(gunners=Rating.A, casualties=1, target=Target.BUILDINGS, band=LONG),
     (F(30, 36), F(6, 36), F(0))),
    # artillery, short, B: 9+ = 10/36; 18 impossible.
    (fire(target=Target.ARTILLERY), (F(26, 36), F(10, 36), F(0))),
    # artillery, long, B: 11+ = 3/36.
    (fire(target=Target.ARTILLERY, band=LONG), (F(33, 36), F(3, 36), F(0))),
    # artillery, short, C, 2 casualties, bounce-through: -4, needs 13 on 2d6: certain miss.
    (fire(gunners=Rating.C, casualties=2, target=Target.ARTILLERY, bounce_through=True),
     (F(1), F(0), F(0))),
    # 6-pounder short infantry B bounce-through: -1, 7+ = 21/36, 13 for two: never.
    (fire(Calibre.LIGHT, bounce_through=True), (F(15, 36), F(21, 36), F(0))),
    # A class with one casualty, short infantry: net 0, 6+ = 26/36, 12 = 1/36.
    (fire(gunners=Rating.A, casualties=1), (F(10, 36), F(25, 36), F(1, 36))),
])
def test_rule_7_odds_same_in_both_rulesets(situation, expected):
    """Rule 7: targets other than cavalry have the same numbers in 1813 and the revision."""
    assert hits(situation, OLD) == expected
    assert hits(situation, NEW) == expected


def test_rule_7_cavalry_short_range_differs_in_the_revision():
    """Rule 7: cavalry at short range, B gunners: 1813 6+ (26/36) and 12 for two (1/36);
    revised 7+ (21/36) and 14 for two (never)."""
    assert hits(fire(target=Target.CAVALRY), OLD) == (F(10, 36), F(25, 36), F(1, 36))
    assert hits(fire(target=Target.CAVALRY), NEW) == (F(15, 36), F(21, 36), F(0))


def test_rule_7_cavalry_long_range_differs_in_the_revision():
    """Rule 7: cavalry at long range, A gunners: 1813 8+ (2d6 >= 7, 21/36 = 7/12);
    revised 9+ (2d6 >= 8, 15/36 = 5/12)."""
    assert fire_odds(fire(gunners=Rating.A, target=Target.CAVALRY, band=LONG),
                     OLD).hits[1] == F(7, 12)
    assert fire_odds(fire(gunners=Rating.A, target=Target.CAVALRY, band=LONG),
                     NEW).hits[1] == F(5, 12)


def test_rule_7_needs_and_modifiers_are_reported():
    odds = fire_odds(fire(gunners=Rating.C, casualties=2, bounce_through=True), OLD)
    assert (odds.need_one, odds.need_two) == (6, 12)
    assert [str(m) for m in odds.modifiers] == ["C class gunners -1", "each gunner casualty ×2 -2",
                                                "bounce-through -1"]
    assert odds.modifier == -4
    assert fire_modifiers(fire(), OLD) == ()


@pytest.mark.parametrize(("calibre", "inches", "band"), [
    (Calibre.HEAVY, 0, SHORT), (Calibre.HEAVY, 10, SHORT), (Calibre.HEAVY, 10.5, LONG),
    (Calibre.HEAVY, 20, LONG), (Calibre.HEAVY, 20.5, None),
    (Calibre.MEDIUM, 8, SHORT), (Calibre.MEDIUM, 9, LONG), (Calibre.MEDIUM, 16, LONG),
    (Calibre.MEDIUM, 17, None),
    (Calibre.LIGHT, 6, SHORT), (Calibre.LIGHT, 7, LONG), (Calibre.LIGHT, 14, LONG),
    (Calibre.LIGHT, 15, None),
])
def test_rule_7_range_bands_by_calibre(calibre, inches, band):
    """Rule 7: heavy 0-10/10-20, medium 0-8/8-16, light 0-6/6-14 inches (both rulesets)."""
    assert range_band(calibre, inches, OLD) is band
    assert range_band(calibre, inches, NEW) is band


def test_rule_7_negative_range_is_refused():
    with pytest.raises(ValueError, match="negative"):
        range_band(Calibre.HEAVY, -1, OLD)


def test_rule_7_a_typed_eleven_scores_two_hits_and_a_morale_test():
    """Rule 7: 11 + 1 (A class) = 12, double the 6 needed: two hits; Rule 17 test follows."""
    result = artillery_fire(fire(gunners=Rating.A, target_behind="Prussian 10 Brigade"),
                            TypedDice([11]), OLD)
    assert (result.roll.total, result.total, result.hits) == (11, 12, 2)
    assert result.effects[0].brigade == "Prussian 9 Brigade"
    assert result.effects[0].casualties == 2
    tests = [(f.test, f.who) for f in result.follow_ons]
    assert tests == [("morale test", "Prussian 9 Brigade"),
                     ("bounce-through fire", "Prussian 10 Brigade")]


def test_rule_7_a_miss_triggers_only_the_bounce_through():
    result = artillery_fire(fire(target_behind="Prussian 10 Brigade"), TypedDice([(2, 3)]), OLD)
    assert result.hits == 0 and result.effects == ()
    assert [f.test for f in result.follow_ons] == ["bounce-through fire"]
    bounce = artillery_fire(fire(bounce_through=True, target_behind="x"), TypedDice([7]), OLD)
    assert bounce.total == 6 and bounce.hits == 1
    assert [f.test for f in bounce.follow_ons] == ["morale test"]


def test_rule_7_an_impossible_typed_roll_is_refused():
    with pytest.raises(ImpossibleRoll, match="13 cannot be rolled on 2d6"):
        artillery_fire(fire(), TypedDice([13]), OLD)


def test_rule_7_seeded_fire_matches_its_own_roll():
    dice = SeededDice(7)
    for _ in range(30):
        result = artillery_fire(fire(gunners=Rating.A), dice, OLD)
        assert result.total == result.roll.total + 1
        assert result.hits == hits_for_total(result.total, fire(), OLD)
    assert len(dice.record) == 30


def test_rule_7_who_may_fire():
    """Rule 7: guns must be unlimbered and formed, with no friends near the line of fire
    unless firing over them from higher ground."""
    assert "limbered" in fire_refusal(fire(limbered=True), OLD)
    assert "must be formed" in fire_refusal(fire(state=MoraleState.DISORDERED), OLD)
    near = fire(friends_near_line_of_fire=True)
    assert "within 1 inch of its line of fire" in fire_refusal(near, OLD)
    with pytest.raises(ActionRefused, match="line of fire"):
        artillery_fire(near, TypedDice([12]), OLD)
    with pytest.raises(ActionRefused, match="limbered"):
        fire_odds(fire(limbered=True), OLD)
    assert fire_refusal(fire(friends_near_line_of_fire=True, overhead=True), OLD) is None


def test_rule_7_negative_gunner_casualties_are_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        fire_odds(fire(casualties=-1), OLD)
