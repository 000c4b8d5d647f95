"""A damaged entry of the event log, as the log fuzzer found them: the diary and a redo refuse
it in one line naming the entry, and change nothing; on both stores (the file and the server)."""

import json

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.diary import campaign_diary
from campaign1813.campaign.export.render import document_markdown
from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.opening import open_store
from tests.store.stores import digest, read_raw, write_raw


@pytest.fixture
def cancelled(fresh_campaign, stores):
    """Two orders, then the second cancelled and the cancel undone: entry 3 can be redone."""
    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.cancel_order(doc, "1 Corps")
        services.undo(doc)
    return stores(path)


def damage(target, seq, column, change):
    [(text,)] = read_raw(target, f"SELECT {column} FROM event_log WHERE seq = ?", (seq,))
    write_raw(target, f"UPDATE event_log SET {column} = ? WHERE seq = ?",
              (json.dumps(change(json.loads(text))), seq))


@pytest.mark.parametrize("lines", [[None], None, {"a": 1}, [["nested"]]])
def test_the_diary_refuses_an_entry_whose_lines_are_not_text(cancelled, lines):
    damage(cancelled, 1, "lines_json", lambda _old: lines)
    with open_store(cancelled) as doc:
        for show in (queries.diary_text, lambda d: document_markdown(campaign_diary(d))):
            with pytest.raises(CampaignError) as caught:
                show(doc)
            assert str(caught.value) == ("the log's entry 1 (Order: 5 Corps – Hold Magdeburg) "
                                         "is damaged: its lines are not a list of text")


def test_a_label_with_a_line_break_keeps_the_refusal_on_one_line(cancelled):
    write_raw(cancelled, "UPDATE event_log SET label = ?, lines_json = 'x' WHERE seq = 1",
              ("campaign1813: error: forged\nline",))
    with open_store(cancelled) as doc, pytest.raises(CampaignError) as caught:
        queries.diary_text(doc)
    assert str(caught.value) == ("the log's entry 1 (campaign1813: error: forged\\nline) is "
                                 "damaged: its lines are not JSON")


@pytest.mark.parametrize("orders", [None, [None], 7])
def test_a_redo_refuses_an_entry_whose_other_side_is_damaged(cancelled, orders):
    """The redo writes the entry's after side, which is sound; its before side, which the
    window's refresh reads, is not."""
    damage(cancelled, 3, "before_json", lambda old: {**old, "orders": orders})
    before = digest(cancelled)
    with open_store(cancelled) as doc:
        with pytest.raises(CampaignError) as caught:
            services.redo(doc)
        message = str(caught.value)
        assert message.startswith("the log's entry 3 (Cancel orders of 1 Corps) is "
                                  "damaged, so it cannot be redone")
        assert "\n" not in message
    assert digest(cancelled) == before
