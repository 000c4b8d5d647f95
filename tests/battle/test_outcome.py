"""One outcome value for every battle: why it ended and the side that won, a draw spelt once
(None); the campaign's result takes it, and reads back a result logged as text before."""

import json
from dataclasses import asdict

import pytest

from campaign1813.campaign.battle.core.engine import Decision
from campaign1813.campaign.battle.core.outcome import Outcome, Side, Termination, side_named
from campaign1813.campaign.battle.core.results import AutoResult, auto_outcome
from campaign1813.campaign.battle.ruleset1813.rules.morale import rout_point
from campaign1813.campaign.battle.setup import campaign_rout_point
from campaign1813.campaign.battle.terms import Arm
from campaign1813.campaign.day.actions import RecordResult
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.scenario.types import Side as CampaignSide


def test_a_draw_has_one_spelling():
    assert Outcome.of(Termination.UMPIRE, "draw") == Outcome(Termination.UMPIRE, None)
    assert Outcome.of(Termination.NIGHTFALL, "allied").winner is Side.ALLIED
    assert Outcome(Termination.ARMY_BROKE, None).result == "draw"
    assert auto_outcome(None) == Outcome(Termination.AUTO_RESOLVED, None)
    with pytest.raises(ValueError, match="'Prussia' is not a side"):
        side_named("Prussia", allow_draw=True)
    with pytest.raises(ValueError, match=r"\(French, Allied\)"):
        side_named("draw")


def test_a_decision_is_final_once_it_has_an_outcome():
    undecided = Decision(None, "turn 3")
    assert (undecided.final, undecided.winner, undecided.result) == (False, None, "")
    drawn = Decision(Outcome(Termination.NIGHTFALL, None), "nobody holds the town")
    assert (drawn.final, drawn.winner, drawn.result) == (True, None, "draw")
    won = AutoResult(auto_outcome(Side.FRENCH), "the Allied army broke", 3, 0, (), ())
    assert won.winner is Side.FRENCH and won.outcome.termination is Termination.AUTO_RESOLVED


def test_the_campaign_and_its_battles_share_one_side():
    assert CampaignSide is Side and Side.FRENCH.enemy is Side.ALLIED


@pytest.mark.parametrize(("logged", "side"), [
    ({"battle": 1, "result": "draw", "casualties": {}}, None),     # as logged before
    ({"battle": 1, "result": None, "casualties": {}}, None),       # as logged now
    ({"battle": 1, "result": "French", "casualties": {}}, Side.FRENCH),
    ({"battle": 1, "result": "allied", "casualties": {}}, Side.ALLIED),
])
def test_a_logged_result_reads_back_whichever_way_it_was_written(logged, side):
    action = RecordResult(**json.loads(json.dumps(logged)))
    assert action == RecordResult(1, side)
    again = json.loads(json.dumps(asdict(action), default=str))
    assert RecordResult(**again) == action and again["result"] == (side and side.value)


def test_a_result_that_is_no_side_is_refused():
    with pytest.raises(OrderRefused, match="'Prussia' is not a result"):
        RecordResult(1, "Prussia")  # type: ignore[arg-type]


@pytest.mark.parametrize("arm", list(Arm))
def test_the_campaign_keeps_casualties_in_the_1813_rules_measure(arm):
    assert campaign_rout_point(arm) == rout_point(arm, "1813")
