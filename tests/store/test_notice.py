"""What a server campaign's notification says (record 0031): the committing action's changes as
compact JSON beside the campaign and the writer's token, ``whole`` where they would not fit in
PostgreSQL's payload or are not known, and several notices merged into one refresh."""

from __future__ import annotations

from datetime import date

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.cycle import DayReport
from campaign1813.campaign.store.notice import (
    MAX_PAYLOAD,
    WHOLE,
    Notice,
    merged,
    notice_of,
    payload,
    read_payload,
)
from tests.day.test_scenarios import make


def test_an_orders_changes_are_told_in_a_line_of_compact_json_without_its_diary_lines():
    changes = Changes("Order: 1 Corps – Move Brook", ("Order: 1 Corps – Move Brook",),
                      frozenset({"1 Corps"}), frozenset(i for i in ()))
    text = payload("spring-1813", "ab12", notice_of(changes))
    assert text == ('spring-1813 ab12 {"label":"Order: 1 Corps – Move Brook",'
                    '"commands":["1 Corps"],"logged":true}')
    assert read_payload(text) == ("spring-1813", "ab12",
                                  Notice("Order: 1 Corps – Move Brook",
                                         commands=frozenset({"1 Corps"}), logged=True))


def test_an_end_day_tells_the_day_it_reported_on_not_its_report():
    report = DayReport(date(1813, 5, 2), marched=True, closed=True, battles=(1,),
                       lines=("1 Corps marched to Brook",))
    changes = Changes("End Day", ("1 Corps marched to Brook",), frozenset({"1 Corps", "I Corps"}),
                      frozenset({1}), frozenset({"Brook"}), True, report,
                      frozenset({"1 Corps"}), True)
    text = payload("c", "t", notice_of(changes))
    assert text == ('c t {"label":"End Day","commands":["1 Corps","I Corps"],"battles":[1],'
                    '"towns":["Brook"],"positions":["1 Corps"],"date_changed":true,'
                    '"marched_changed":true,"report":"1813-05-02","logged":true}')
    notice = read_payload(text)[2]
    assert notice.report == date(1813, 5, 2) and notice.state
    assert notice.changes() == Changes("End Day", (), frozenset({"1 Corps", "I Corps"}),
                                       frozenset({1}), frozenset({"Brook"}), True, None,
                                       frozenset({"1 Corps"}), True)


def test_changes_too_long_for_postgresqls_payload_are_told_as_whole():
    """PostgreSQL refuses a payload of 8000 bytes or more: 800 commands' names of ten
    characters do not fit, so the notice says 'whole' and the window reads it all."""
    many = frozenset(f"Corps {i:04d}" for i in range(800))
    text = payload("c", "t", notice_of(Changes("Import", commands=many)))
    assert text == f"c t {WHOLE}" and read_payload(text)[2] == Notice(whole=True)
    fits = frozenset(f"Corps {i:04d}" for i in range(500))
    text = payload("c", "t", notice_of(Changes("Import", commands=fits)))
    assert len(text.encode()) <= MAX_PAYLOAD and read_payload(text)[2].commands == fits


def test_an_unknown_or_unreadable_body_stands_for_the_whole_campaign():
    assert payload("c", "t", None) == "c t whole"
    assert read_payload("c t")[2] == Notice(whole=True)  # an older program's
    assert read_payload("c t {not json")[2] == Notice(whole=True)
    assert read_payload('c t {"commands":7}')[2] == Notice(whole=True)


def test_a_players_form_changes_only_the_forms():
    notice = Notice("Order form 3 of the French", forms=True)
    assert not notice.state and read_payload(payload("c", "t", notice))[2] == notice


def test_notices_heard_together_are_merged_into_one():
    first = Notice("Order: 1 Corps – Move Brook", commands=frozenset({"1 Corps"}), logged=True)
    second = Notice("End Day", commands=frozenset({"I Corps"}), towns=frozenset({"Brook"}),
                    date_changed=True, report=date(1813, 5, 2), logged=True)
    form = Notice("Order form 1 of the Allies", forms=True)
    assert merged([first]) is first
    both = merged([first, second, form])
    assert both == Notice("3 changes: Order: 1 Corps – Move Brook; End Day; Order form 1 of "
                          "the Allies", frozenset({"1 Corps", "I Corps"}),
                          towns=frozenset({"Brook"}), date_changed=True,
                          report=date(1813, 5, 2), logged=True, forms=True, count=3)
    assert merged([first, Notice(whole=True)]).whole


def test_the_day_report_of_an_end_day_is_its_one_log_entry(tmp_path):
    """What a window shows of another umpire's End Day: that End Day's diary lines, read as
    the one entry of the log (none once it is undone, none for a day not ended)."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Brook")
    ended = u.end_day()
    assert queries.day_report(u.doc, date(1813, 5, 1)) == ended.lines
    assert "1 Corps marched 10 miles: Aston → Brook." in ended.lines
    assert queries.day_report(u.doc, date(1813, 5, 2)) is None
    services.undo(u.doc)
    assert queries.day_report(u.doc, date(1813, 5, 1)) is None
    u.doc.close()
