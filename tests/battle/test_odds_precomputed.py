"""The exact odds worked out once per table and net modifier, then reused, stay exact and private.

A distribution depends only on the table and the net modifier, so each is worked out once; a
caller that changes the odds it was given must not change anyone else's.
"""

from __future__ import annotations

from fractions import Fraction as F

from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    fire_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.combat import combat_rule
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MoraleOutcome,
    MoraleTest,
    morale_odds,
)
from campaign1813.campaign.battle.terms import Arm, Calibre, Rating


def test_rule_13_rows_by_difference_are_worked_out_once():
    """Rule 13: 2d6 plus the difference; 2-3, 4-5, 6-7, 8-9 and 10+ are 3, 7, 11, 9, 6 in 36."""
    rule = combat_rule(13)
    even = rule.row_odds(Arm.INFANTRY, 0)
    assert [row.totals for row, _ in even] == ["2–3", "4–5", "6–7", "8–9", "10+"]
    assert [p for _, p in even] == [F(1, 12), F(7, 36), F(11, 36), F(1, 4), F(1, 6)]
    assert rule.row_odds(Arm.INFANTRY, 0) is even
    # plus 7, only double one (9) stays below 10; plus 8 always reaches the last row
    assert [p for _, p in rule.row_odds(Arm.INFANTRY, 7)] == [0, 0, 0, F(1, 36), F(35, 36)]
    assert [p for _, p in rule.row_odds(Arm.INFANTRY, 8)] == [0, 0, 0, 0, 1]


def test_rule_17_odds_are_a_fresh_dict_for_each_caller():
    """Rule 17: 1d6 - 2 for two casualties; 3+ passes, 1-2 is Shaken, less routs: 1/3 each."""
    test = MoraleTest(Brigade("9 Brigade", Arm.INFANTRY, casualties=2))
    first = morale_odds(test)
    assert first == {MoraleOutcome.PASS: F(1, 3), MoraleOutcome.SHAKEN: F(1, 3),
                     MoraleOutcome.ROUT: F(1, 3)}
    first[MoraleOutcome.PASS] = F(1)
    assert morale_odds(test)[MoraleOutcome.PASS] == F(1, 3)


def test_rule_7_hits_are_a_fresh_dict_for_each_caller():
    """Rule 7: A-class heavy guns at short range on infantry hit 0, 1, 2 times: 1/6, 3/4, 1/12."""
    s = FireSituation(Battery("4 Corps artillery", Calibre.HEAVY, Rating.A), "9 Brigade",
                      Target.INFANTRY, RangeBand.SHORT)
    hits = fire_odds(s, "1813").hits
    assert hits == {0: F(1, 6), 1: F(3, 4), 2: F(1, 12)}
    hits[2] = F(1)
    assert fire_odds(s, "1813").hits == {0: F(1, 6), 1: F(3, 4), 2: F(1, 12)}
