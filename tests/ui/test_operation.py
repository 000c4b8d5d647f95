"""One way to run an umpire action from the window: its changes reach every view before its
success handler runs; a refusal changes nothing and goes to its failure handler, or to the open
campaign's ``refused`` for the window to tell."""

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.store.document import CampaignBusy, create_campaign
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.operation import Operation


@pytest.fixture
def campaign(qtbot, tmp_path):
    """An open campaign with no window, and what it told its views."""
    doc = create_campaign(tmp_path / "c.c1813")
    campaign = OpenCampaign()
    campaign.open(doc)
    campaign.heard = []
    campaign.changed.connect(lambda update: campaign.heard.append(("changed", update.changes)))
    campaign.refused.connect(lambda reason: campaign.heard.append(("refused", reason)))
    yield campaign
    doc.close()


def order(command, verb, town):
    return lambda doc: services.issue_order(doc, command, verb, town)


def test_the_changes_reach_the_views_before_the_success_handler(campaign):
    def on_success(changes):
        campaign.heard.append(("success", changes))
        # the open campaign was read again already: the order is in its read model
        five = next(c for c in campaign.status.commands if c.name == "5 Corps")
        assert five.orders_text == "5 Corps – Move Helmstedt"

    changes = Operation(campaign, order("5 Corps", "Move", "Helmstedt")).success(on_success).run()
    assert changes.commands == frozenset({"5 Corps"})
    assert campaign.heard == [("changed", changes), ("success", changes)]
    assert queries.next_undo(campaign.document) == "Order: 5 Corps – Move Helmstedt"


def test_a_refusal_goes_to_the_failure_handler_in_the_services_words(campaign):
    before = queries.state_json(campaign.document)
    failed, done = [], []
    result = (Operation(campaign, order("4 Corps", "Move", "Atlantis"))
              .success(done.append).failure(failed.append).run())
    assert result is None and done == []
    (exc,) = failed
    assert isinstance(exc, OrderRefused) and "Atlantis" in str(exc)
    assert campaign.heard == []  # no view told of a change, nor the window of a refusal
    assert queries.state_json(campaign.document) == before
    assert queries.next_undo(campaign.document) is None


def test_a_refusal_with_no_handler_is_told_on_the_open_campaign(campaign):
    with pytest.raises(OrderRefused) as refused:
        order("4 Corps", "Move", "Atlantis")(campaign.document)
    assert Operation(campaign, order("4 Corps", "Move", "Atlantis")).run() is None
    assert campaign.heard == [("refused", str(refused.value))]


def test_a_campaign_busy_elsewhere_is_a_refusal_like_any_other(campaign):
    reason = f"{campaign.document.path}: the campaign is busy in another window or program"

    def busy(doc):
        raise CampaignBusy(reason)

    assert Operation(campaign, busy).run() is None
    assert campaign.heard == [("refused", reason)]


def test_with_no_campaign_open_nothing_runs(qtbot):
    campaign = OpenCampaign()
    told, ran = [], []
    campaign.refused.connect(told.append)
    assert Operation(campaign, lambda doc: ran.append(doc)).run() is None
    assert told == ["no campaign is open"] and ran == []


def test_perform_raises_the_refusal_to_the_caller_and_skips_the_handlers(campaign):
    done = []
    with pytest.raises(OrderRefused, match="Atlantis"):
        Operation(campaign, order("4 Corps", "Move", "Atlantis")).success(done.append).perform()
    assert done == [] and campaign.heard == []
    changes = Operation(campaign, order("5 Corps", "Hold", "Magdeburg")).perform()
    assert campaign.heard == [("changed", changes)]


def test_an_error_that_is_not_a_refusal_is_raised_as_it_is(campaign):
    def broken(doc):
        raise RuntimeError("the disk is full")

    failed = []
    with pytest.raises(RuntimeError, match="the disk is full"):
        Operation(campaign, broken).failure(failed.append).run()
    assert failed == [] and campaign.heard == []
