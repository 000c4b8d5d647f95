"""The store's contract for the fog of war, the same tests on both stores (the campaign file and
the server): the day's reports made at End Day, held, released, edited and undone; each side's
own key; an order form signed, taken once and refused when replayed; and a campaign with its
reports, keys and taken forms moved whole between them (push, play on the server, pull); and
the forms the players submitted, kept in the campaign, read and marked alike (record 0032).

The line of towns of ``tests/day/test_scenarios.py``: 1 Corps from Aston and I Corps from
Fenwick, each halting on the other, meet at 1200 on 2 May, 10 miles apart (1 Corps at Carden,
I Corps at Dunmore); each side then knows the other's corps exactly, 22,000 men."""

from __future__ import annotations

import json
from datetime import date

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export import packet
from campaign1813.campaign.export.packet import FormRefused
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.server import pull_campaign, push_campaign
from tests.day.test_scenarios import make
from tests.store.stores import campaign_address, read_raw, write_raw


@pytest.fixture
def contact(tmp_path, stores) -> str:
    """Fog on, release by the umpire: two corps that will meet on 2 May, in the test's store."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True,
             release="umpire")
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.doc.close()
    return stores(tmp_path / "c.c1813")


def _numbers(doc) -> dict[str, int]:
    return {r.side: r.id for r in queries.enemy_reports(doc)}


def test_end_day_makes_the_reports_held_until_released_on_both_stores(contact):
    """§3.6 of record 0025 (release by the umpire): End Day on 2 May makes one report to each
    side, held; undo of that End Day takes both back with the day."""
    with open_store(contact) as doc:
        services.end_day(doc)
        assert queries.enemy_reports(doc) == ()
        ch = services.end_day(doc)
        assert "Reports of the enemy: 2 made, 2 held for the umpire." in ch.lines
        reports = {r.side: r for r in queries.enemy_reports(doc)}
        french = reports["French"]
        assert (french.subject, french.place, french.men, french.seen_hour) == (
            "I Corps", "Dunmore", 22_000, "1200")
        assert not french.released and not reports["Allied"].released
        assert reports["Allied"].subject == "1 Corps" and reports["Allied"].place == "Carden"
        view = queries.side_view(doc, Side.FRENCH)
        assert [i.label for i in view.map_items if not i.own] == []  # nothing of I Corps yet
        services.undo(doc)
        assert queries.enemy_reports(doc) == ()
        services.redo(doc)
        assert {r.side for r in queries.enemy_reports(doc)} == {"French", "Allied"}


def test_release_edit_hold_and_undo_walk_the_same_on_both_stores(contact):
    """The umpire releases the French report, edits it (a rumour), holds it again; each act is
    logged, and undo takes each back in turn, leaving the report as End Day made it."""
    with open_store(contact) as doc:
        services.end_day(doc)
        services.end_day(doc)
        french = _numbers(doc)["French"]
        services.release_reports(doc, [french])
        view = queries.side_view(doc, Side.FRENCH)
        assert [i.label for i in view.map_items if not i.own] == ["I Corps (seen 2 May)"]
        assert [i.label for i in queries.side_view(doc, Side.ALLIED).map_items
                if not i.own] == []
        sight = [r.text() for r in queries.enemy_reports(doc) if r.released]
        assert sight == ["I Corps at Dunmore (22,000 men), seen 2 May 1813 12:00 by 1 Corps, "
                         "known 2 May 1813"]
        ch = services.edit_report(doc, french, town="Elford", band="about", men=30_000,
                                  identity=False, note="a deserter's word")
        assert ch.lines == (f"Report {french} edited: an Allied corps at Elford (about 30,000), "
                            "seen 2 May 1813 12:00 by 1 Corps, known 2 May 1813; a deserter's "
                            "word.",)
        services.hold_report(doc, french)
        assert not any(r.released for r in queries.enemy_reports(doc))
        labels = [services.undo(doc).label for _ in range(3)]
        assert labels == [f"Undo Hold report {french}", f"Undo Edit report {french}",
                          "Undo Release 1 report"]
        (back,) = [r for r in queries.enemy_reports(doc) if r.side == "French"]
        assert (back.place, back.men, back.released) == ("Dunmore", 22_000, False)


def test_each_side_has_a_key_of_its_own_on_both_stores(contact):
    """Record 0025: each campaign issues each side a key of its own (32 bytes), read the same
    through the store's protocol on either store."""
    with open_store(contact) as doc, doc.read() as reader:
        keys = {side: reader.side_key(side.value) for side in Side}
    assert len(keys[Side.FRENCH]) == 32 and keys[Side.FRENCH] != keys[Side.ALLIED]
    rows = dict(read_raw(contact, "SELECT side, key FROM side_key"))
    assert rows == {s.value: keys[s].hex() for s in Side}


def _signed_form(doc, side: Side, orders: dict[str, tuple[str, str]]) -> bytes:
    form = packet.order_form(queries.side_view(doc, side))
    for line in form["orders"]:
        if line["command"] in orders:
            line["verb"], line["objective"] = orders[line["command"]]
    with doc.read() as reader:
        key = reader.side_key(side.value)
    return json.dumps(packet.sign(form, key)).encode()


def test_a_signed_form_is_taken_once_and_a_replay_refused_on_both_stores(contact):
    """Record 0025: a side's signed form is taken (its orders issued), the same form again
    changes nothing, and a second form written against the old state is refused as stale."""
    with open_store(contact) as doc:
        first = _signed_form(doc, Side.FRENCH, {"1 Corps": ("Move", "Brook")})
        stale = _signed_form(doc, Side.FRENCH, {"1 Corps": ("Hold", "Aston")})
        result = services.import_orders(doc, first)
        assert result.diff == ("1 Corps: 1 Corps – Halt Fenwick → 1 Corps – Move Brook",)
        assert queries.state_json(doc)["orders"]["1 Corps|active"]["verb"] == "Move"
        before = queries.state_json(doc)
        assert services.import_orders(doc, first).changes is None
        with pytest.raises(FormRefused, match="has changed since"):
            services.import_orders(doc, stale)
        assert queries.state_json(doc) == before


def test_push_play_pull_carries_reports_keys_and_taken_forms(tmp_path, request):
    """push → End Day twice, a release and a form taken on the server → pull: the file has the
    reports, the keys and the taken form as the server had them."""
    make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True,
         release="umpire").doc.close()
    address = campaign_address(request.getfixturevalue("pg_database"))
    push_campaign(tmp_path / "c.c1813", address)
    with open_store(address) as doc:
        services.issue_order(doc, "1 Corps", "Halt", "Fenwick")
        services.issue_order(doc, "I Corps", "Halt", "Aston")
        services.end_day(doc)
        services.end_day(doc)
        services.release_reports(doc)
        services.import_orders(doc, _signed_form(doc, Side.ALLIED, {"I Corps": ("Hold",
                                                                                "Dunmore")}))
        there = queries.state_json(doc)
        with doc.read() as reader:
            keys = {s: reader.side_key(s.value) for s in Side}
    out = pull_campaign(address, tmp_path / "back.c1813")
    with open_store(out) as doc:
        assert queries.state_json(doc) == there
        assert len(there["reports"]) == 2 and len(there["imports"]) == 1
        with doc.read() as reader:
            assert {s: reader.side_key(s.value) for s in Side} == keys
        assert doc.summary().current_date == date(1813, 5, 3)


def test_submitted_forms_are_read_and_marked_alike_on_both_stores(contact):
    """Record 0032: three forms kept in the campaign (written behind the store, as a player or
    a pull leaves them; the third damaged, not JSON) are read oldest first, the damaged one as
    an empty form the import refuses; marking one is no action of the log (undo would take back
    the same action as before) and leaves the others waiting; a form the campaign has not is
    refused naming it, and nothing changes."""
    rows = [(1, "French", json.dumps({"side": "French", "number": "f-1"}), "marmont"),
            (2, "Allied", json.dumps({"side": "Allied", "number": "a-1"}), "bluecher"),
            (3, "Allied", "{not json", "bluecher")]
    for row in rows:
        write_raw(contact, "INSERT INTO submitted_orders (id, side, form, login, made) VALUES "
                           "(?, ?, ?, ?, '2026-12-02 09:00:00+00')", row)
    with open_store(contact) as doc:
        forms = services.submitted_forms(doc)
        assert [(f.id, f.side, f.form, f.login, f.taken) for f in forms] == [
            (1, "French", {"side": "French", "number": "f-1"}, "marmont", ""),
            (2, "Allied", {"side": "Allied", "number": "a-1"}, "bluecher", ""),
            (3, "Allied", {}, "bluecher", "")]
        with pytest.raises(FormRefused):
            services.import_submitted(doc, "Allied", forms[2].form)
        step = queries.undo_step(doc)
        services.mark_submitted(doc, 2, "refused: the order form is for 1 May 1813")
        assert [f.id for f in services.submitted_forms(doc)] == [1, 3]
        assert [(f.id, f.taken) for f in services.submitted_forms(doc, waiting=False)] == [
            (1, ""), (2, "refused: the order form is for 1 May 1813"), (3, "")]
        assert queries.undo_step(doc) == step
        with pytest.raises(CampaignError, match="submitted form 9: the campaign has no such "
                                                "form"):
            services.mark_submitted(doc, 9, "taken")
    assert read_raw(contact, "SELECT id, taken FROM submitted_orders ORDER BY id") == [
        (1, ""), (2, "refused: the order form is for 1 May 1813"), (3, "")]
