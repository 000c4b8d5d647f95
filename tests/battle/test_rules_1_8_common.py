"""Shared pieces of Rules 1-8: dice checks, worked examples in docstrings, percentages."""

import doctest
import importlib

import pytest

from campaign1813.campaign.battle.dice import D10, Roll
from campaign1813.campaign.battle.ruleset1813.rules import artillery, tables
from campaign1813.campaign.battle.ruleset1813.rules.common import (
    ActionRefused,
    inches_text,
    percent_as_casualties,
    roll_for,
    worse_state,
)
from campaign1813.campaign.battle.terms import Calibre, MoraleState, Rating

MODULES = ["common", "spotting", "command", "orders", "movement", "opportunity", "artillery",
           "quick"]


@pytest.mark.parametrize("name", MODULES)
def test_worked_examples_in_docstrings(name):
    module = importlib.import_module(f"campaign1813.campaign.battle.ruleset1813.rules.{name}")
    failed, attempted = doctest.testmod(module)
    assert failed == 0 and attempted > 0


class WrongDice:
    """A dice source that answers every request with a d10."""

    def roll(self, die, count=1, purpose=""):
        return Roll(D10, 1, (5,), purpose)


def test_a_roll_of_the_wrong_dice_is_refused():
    with pytest.raises(ActionRefused, match="expected a roll of 2 d6, got 1 d10"):
        artillery.artillery_fire(
            artillery.FireSituation(artillery.Battery("guns", Calibre.HEAVY, Rating.B), "x",
                                    artillery.Target.INFANTRY, artillery.RangeBand.SHORT),
            WrongDice(), "1813")
    with pytest.raises(ActionRefused):
        roll_for(WrongDice(), D10, 2, "two d10")


def test_a_ruleset_may_leave_a_modifier_out(monkeypatch):
    """A table without the bounce-through modifier simply does not apply it."""
    real = tables.fire_table("1813")
    without = dict(real.modifiers)
    del without["bounce_through"]
    changed = tables.FireTable(**{**real.__dict__, "modifiers": without})
    monkeypatch.setattr(artillery, "fire_table", lambda ruleset: changed)
    situation = artillery.FireSituation(artillery.Battery("guns", Calibre.HEAVY, Rating.B), "x",
                                        artillery.Target.INFANTRY, artillery.RangeBand.SHORT,
                                        bounce_through=True)
    assert artillery.fire_modifiers(situation, "1813") == ()


def test_percentages_and_states_and_inches():
    """Revision: 20 % of 8 = 1.6 -> 2; 40 % of 4 = 1.6 -> 2; 20 % of 4 = 0.8 -> 1; 0 % -> 0."""
    assert percent_as_casualties(20, 8) == 2
    assert percent_as_casualties(40, 4) == 2
    assert percent_as_casualties(20, 4) == 1
    assert percent_as_casualties(10, 2) == 1     # at least one
    assert percent_as_casualties(0, 8) == 0
    assert worse_state(MoraleState.FORMED, MoraleState.SHAKEN) is MoraleState.SHAKEN
    assert worse_state(MoraleState.ROUT, MoraleState.SHAKEN) is None
    assert inches_text(1) == "1 inch" and inches_text(4) == "4 inches"
