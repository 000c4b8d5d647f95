"""A side's diary of its own commands' days kept beside each dawn (record 0034): a side's view
reads the kept moves instead of decoding every dawn kept, and is the same view as the one made
from every dawn."""

from __future__ import annotations

import json
import sqlite3
from datetime import date

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day import fog
from campaign1813.campaign.day.state import initial_state
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store import snapshots
from campaign1813.campaign.store.codec import DamagedState
from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.protocol import CampaignStore, dawns_before
from campaign1813.campaign.store.work import FileReader
from campaign1813.maps.types import Theatre

THEATRES = (Theatre.NORTHERN_GERMANY, Theatre.EASTERN_SPAIN)


def _rebuilt(doc: CampaignStore, side: Side, day: date | None = None):
    """A side's view made as it was before the moves were kept: from every dawn kept."""
    today = queries.day_state(doc) if day is None else queries.state_on(doc, day)
    ground = doc.ground()
    with doc.read() as reader:
        summary = reader.summary()
        dawns = dawns_before(reader, initial_state(ground.scenario, summary.start_date),
                             today.date)
    return fog.side_view(ground.adjusted(today.settings), today, side, summary.name, dawns)


def _sql(path, sql: str) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(sql)
        con.commit()
    finally:
        con.close()


@pytest.mark.parametrize("theatre", THEATRES, ids=lambda t: t.name.lower())
def test_a_thirty_day_sides_view_is_the_one_made_from_every_dawn(played, theatre):
    """Thirty days: each side's view today and on 15 May is the view made from all the dawns
    kept, diary line for line; every dawn keeps its day's moves."""
    with open_campaign(played(theatre)) as doc:
        for side in Side:
            view = queries.side_view(doc, side)
            assert view == _rebuilt(doc, side)
            assert len(view.diary) > 30  # thirty days of marches, not an empty diary
            assert queries.side_view_on(doc, side, date(1813, 5, 15)) == \
                _rebuilt(doc, side, date(1813, 5, 15))
        with doc.read() as reader:
            kept = reader.journals()
    assert len(kept) == 30 and all(moves is not None for moves in kept.values())


def test_a_sides_view_decodes_one_dawn_however_long_the_campaign(played, monkeypatch):
    """Made from the kept moves, a side's view of the thirtieth day decodes one dawn (the
    newest before today) and never rebuilds the first day from the log; made from every dawn
    it decodes twenty-nine and rebuilds the first."""
    decoded: list[date] = []
    first: list[int] = []
    read, first_day = snapshots.read, FileReader.first_day
    monkeypatch.setattr(snapshots, "read",
                        lambda con, day, **kw: decoded.append(day) or read(con, day, **kw))
    monkeypatch.setattr(FileReader, "first_day",
                        lambda self, state: first.append(1) or first_day(self, state))
    with open_campaign(played(Theatre.NORTHERN_GERMANY)) as doc:
        queries.side_view(doc, Side.FRENCH)
        assert (decoded, first) == ([date(1813, 5, 30)], [])
        decoded.clear()
        _rebuilt(doc, Side.FRENCH)
    assert len(decoded) == 29 and first == [1]


def test_dawns_kept_before_the_moves_were_are_read_and_then_kept(played):
    """A campaign whose dawns were kept without their moves (a file of schema 9, upgraded):
    its sides' views are still the views made from every dawn, and the next day closed keeps
    the moves of every dawn."""
    path = played(Theatre.NORTHERN_GERMANY)
    _sql(path, "UPDATE day_snapshot SET journal = NULL")
    with open_campaign(path) as doc:
        for side in Side:
            assert queries.side_view(doc, side) == _rebuilt(doc, side)
        services.end_day(doc)
        while doc.summary().current_date == date(1813, 5, 31):
            for b in queries.day_state(doc).battles.values():
                if b.result is None:
                    services.record_result(doc, b.id, Side.FRENCH)
            services.end_day(doc)
        with doc.read() as reader:
            kept = reader.journals()
        assert len(kept) == 31 and all(moves is not None for moves in kept.values())
        for side in Side:
            assert queries.side_view(doc, side) == _rebuilt(doc, side)


def test_a_damaged_journal_is_refused_by_name_and_changes_nothing(fresh_campaign):
    """A journal changed behind the store's back: in the log, redo refuses the entry and
    leaves the campaign as it was; in the snapshot's row, a side's view is refused naming the
    dawn."""
    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.end_day(doc)
        services.undo(doc)
    con = sqlite3.connect(path)
    try:
        seq, after = con.execute("SELECT seq, after_json FROM event_log WHERE undone").fetchone()
        values = json.loads(after)
        values["snapshots"]["1813-05-02"]["journal"] = 5
        con.execute("UPDATE event_log SET after_json = ? WHERE seq = ?",
                    (json.dumps(values), seq))
        con.commit()
    finally:
        con.close()
    with open_campaign(path) as doc:
        before = queries.state_json(doc)
        with pytest.raises(DamagedState, match="the journal of the snapshot of 1813-05-02 is "
                                               "not a list of moves"):
            services.redo(doc)
        assert queries.state_json(doc) == before and queries.snapshots(doc) == []
        services.end_day(doc)
    _sql(path, "UPDATE day_snapshot SET journal = '[{\"day\": 3}]'")
    with open_campaign(path) as doc, \
            pytest.raises(DamagedState, match="the journal kept with the snapshot of 1813-05-02 "
                                              "is damaged"):
        queries.side_view(doc, Side.FRENCH)


@pytest.mark.parametrize("switch", ["2016", "off"])
def test_supply_switched_on_the_first_day_is_rebuilt_whole(fresh_campaign, switch):
    """The first day rebuilt from the log (for a closing day's moves, a side's diary and
    ``verify``) takes the supply a setting switched on, or off, as one value: 1 May closes with
    supply switched on (or on and off again) before its march, and every day checks."""
    with open_campaign(fresh_campaign()) as doc:
        services.change_setting(doc, "supply", "2016")
        if switch == "off":
            services.change_setting(doc, "supply", "off")
        services.end_day(doc)
        services.end_day(doc)
        for side in Side:
            assert queries.side_view(doc, side) == _rebuilt(doc, side)
        verdict = queries.verify(doc)
        assert verdict.checked == (date(1813, 5, 2), date(1813, 5, 3)) and verdict.sound
        assert (queries.day_state(doc).supply is None) is (switch == "off")


def test_a_day_whose_commands_nobody_touched_closes_without_reading_its_dawn(fresh_campaign,
                                                                            monkeypatch):
    """Closing 2 May, when only orders were given that day: the commands read by End Day are
    those of 2 May's dawn, so no dawn is read back, and the moves kept are the ones the dawns
    give (the thirty-day campaigns above close some days this way and some by reading it)."""
    decoded: list[date] = []
    read = snapshots.read
    monkeypatch.setattr(snapshots, "read",
                        lambda con, day, **kw: decoded.append(day) or read(con, day, **kw))
    with open_campaign(fresh_campaign()) as doc:
        services.end_day(doc)
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        decoded.clear()
        services.end_day(doc)
        assert decoded == [] and doc.summary().current_date == date(1813, 5, 3)
        for side in Side:
            assert queries.side_view(doc, side) == _rebuilt(doc, side)
