"""Seed 004, MORALE, retreats and the army's loss: exact odds and typed tests."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset004.morale import (
    army_lost,
    blocker_tests,
    may_support,
    morale_odds,
    morale_test,
    must_test_after_fire,
    retreat_blocked,
)
from campaign1813.campaign.battle.ruleset004.units import Kind, Quality
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused


@pytest.mark.parametrize(("quality", "general", "support", "passes"), [
    (Quality.ELITE, False, False, F(2, 3)),
    (Quality.REGULAR, False, False, F(1, 2)),
    (Quality.POOR, False, False, F(1, 3)),
    (Quality.REGULAR, True, False, F(2, 3)),
    (Quality.POOR, True, True, F(2, 3)),
    (Quality.ELITE, True, True, F(1)),
])
def test_morale_odds(quality, general, support, passes):
    """seed 004 MORALE: 'Elite: 3-6. Regular: 4-6. Poor, militia: 5-6.'; a unit with a general
    'adds 1 to a morale throw', and one with a friendly unit directly behind adds 1."""
    assert morale_odds(quality, general=general, support=support) == {True: passes,
                                                                      False: 1 - passes}


def test_a_typed_test_fails_and_says_so():
    """seed 004: 'If the following score is not made, remove a further 25 per cent': regular,
    rolls 3: fails; poor with the general rolls 4: passes (needs 4)."""
    failed = morale_test("1st Line", Quality.REGULAR, TypedDice([3]), reason="lost 25 % to fire")
    assert not failed.passed and failed.line.endswith("fails and loses a further 25 %")
    assert morale_test("Militia", Quality.POOR, TypedDice([4]), general=True).passed


def test_who_tests_supports_and_blocks():
    """seed 004: test 'when a unit loses 25 percent effectiveness or more from firing'; 'light
    infantry and artillery units cannot give support'; a retreat obstructed 'by another unit that
    is not light infantry or artillery' eliminates; a friendly blocker tests 'unless it is
    cavalry retreated into by infantry'."""
    assert not must_test_after_fire(0) and must_test_after_fire(1) and must_test_after_fire(3)
    assert may_support(Kind.FOOT) and may_support(Kind.HEAVY_HORSE)
    assert not may_support(Kind.LIGHT_FOOT) and not may_support(Kind.GUNS)
    assert retreat_blocked(Kind.FOOT) and retreat_blocked(Kind.LANCERS)
    assert not retreat_blocked(Kind.LIGHT_FOOT) and not retreat_blocked(Kind.GUNS)
    assert not blocker_tests(Kind.HEAVY_HORSE, Kind.FOOT)
    assert blocker_tests(Kind.FOOT, Kind.FOOT) and blocker_tests(Kind.FOOT, Kind.LIGHT_HORSE)


def test_an_army_below_half_its_units_has_lost():
    """seed 004: 'An army has lost when its number of units, including the general, has fallen
    below a half of its starting number': 9 at the start (8 units and the general): 5 left
    stands, 4 has lost; 8 at the start: 4 stands, 3 has lost."""
    assert (army_lost(9, 5), army_lost(9, 4)) == (False, True)
    assert (army_lost(8, 4), army_lost(8, 3)) == (False, True)
    with pytest.raises(ActionRefused):
        army_lost(0, 0)
