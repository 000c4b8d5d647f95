"""An action's change worked out entity by entity (``codec.StateRead.changes``) is exactly the
difference of the two whole JSON trees (``state_diff`` of the state read and the state put):
the same sections in the same order, the same entries in sorted order, the same values, and no
entry whose entities differ only in a way their JSON values do not show (record 0034)."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import date

import pytest
from msgspec.structs import replace

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.actions import IssueOrder
from campaign1813.campaign.day.aftermath import retreat_destinations
from campaign1813.campaign.day.orders import build_order
from campaign1813.campaign.day.state import Battle, DayState, Status
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export import packet
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store import log
from campaign1813.campaign.store.codec import (
    read_json,
    read_state_kept,
    state_diff,
    state_to_json,
)
from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.work import FileWork

STATE_KEYS = ("date", "marched", "next_battle", "settings", "supply", "commands", "orders",
              "battles", "control", "control_since", "reports", "imports")


def _state_part(logged: str) -> str:
    """A logged side's state entries (its other sections, the battles on the table and the
    snapshot kept, left out), as JSON text in their logged order."""
    return json.dumps({k: v for k, v in json.loads(logged).items() if k in STATE_KEYS})


class _OldWay:
    """Each logged action's change worked out again the old way, from the two whole trees, and
    compared with what the event log's row keeps."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.put: list[DayState] = []
        self.compared = 0
        self.sections: set[str] = set()
        put_state, record = FileWork.put_state, log.record

        def put(work: FileWork, state: DayState) -> None:
            self.put.append(state)
            put_state(work, state)

        def logged(con: sqlite3.Connection, entry, old, new, report=None, state=None):
            expected = None
            if self.put:
                # before the change is written the file still holds the state read
                expected = state_diff(read_json(con), state_to_json(self.put[-1]))
            self.put.clear()
            changes = record(con, entry, old, new, report, state)
            if expected is not None:
                before, after = con.execute("SELECT before_json, after_json FROM event_log "
                                            "ORDER BY seq DESC LIMIT 1").fetchone()
                assert _state_part(before) == json.dumps(expected[0]), entry.label
                assert _state_part(after) == json.dumps(expected[1]), entry.label
                self.compared += 1
                self.sections.update(expected[0])
            return changes

        monkeypatch.setattr(FileWork, "put_state", put)
        monkeypatch.setattr(log, "record", logged)


def _orders(doc, rng: random.Random) -> list[IssueOrder]:
    """Every command able to: the beaten to their first road of retreat, the rest to attack
    an enemy army group's headquarters town."""
    ground = doc.ground()
    state = queries.day_state(doc)
    armies = {a.name: a for a in ground.scenario.armies}
    orders = []
    for c in state.ordered():
        if c.status is Status.RETREATING and c.status_date == state.date:
            legal = retreat_destinations(ground, state, c.name)
            if legal:
                orders.append(IssueOrder(c.name, "Move", sorted(legal)[0]))
            continue
        side = armies[c.army].side
        target = rng.choice([a.hq for a in armies.values() if a.side is not side])
        try:
            build_order(ground, state, c.name, "Attack", target)
        except CampaignError:
            continue
        orders.append(IssueOrder(c.name, "Attack", target))
    return orders


def _signed_form(doc, side: Side) -> bytes:
    """A side's order form as returned with its orders unchanged, signed with its key."""
    form = packet.order_form(queries.side_view(doc, side))
    with doc.read() as reader:
        key = reader.side_key(side.value)
    return json.dumps(packet.sign(form, key)).encode()


def test_each_action_logs_the_change_the_two_whole_trees_give(fresh_campaign, monkeypatch):
    """Record 0034: over settings, supply, orders, End Days with their battles, results and
    retreats, a report held, released and edited, an order form taken, an order cancelled, undo and
    redo, every logged change is exactly ``state_diff`` of the whole state read and the whole
    state put, and every section of the state changes somewhere along the way."""
    old_way = _OldWay(monkeypatch)
    rng = random.Random(3)
    with open_campaign(fresh_campaign()) as doc:
        services.change_setting(doc, "fog", "on")
        services.change_setting(doc, "supply", "2016")
        services.import_orders(doc, _signed_form(doc, Side.FRENCH))
        for _ in range(4):
            for c in queries.day_state(doc).ordered():
                if c.status is Status.CUT_OFF:
                    services.choose_retreat(doc, c.name, "surrender")
            services.issue_orders(doc, _orders(doc, rng))
            changes = services.end_day(doc)
            if changes.report and not changes.report.closed:
                for b in queries.day_state(doc).battles.values():
                    if b.result is None:
                        services.record_result(doc, b.id, rng.choice(["French", "Allied"]))
                services.end_day(doc)
            services.undo(doc)
            services.redo(doc)
        state = queries.day_state(doc)
        report = min(state.reports)
        services.hold_report(doc, report)
        services.release_reports(doc, [report])
        services.edit_report(doc, report, men=30_000, note="a deserter's word")
        services.cancel_order(doc, next(iter(state.orders)))
        services.change_setting(doc, "contact_miles", "8")
    assert old_way.compared >= 20
    assert old_way.sections == set(STATE_KEYS)


@pytest.fixture
def read(fresh_campaign):
    """A connection to a fresh 1813 campaign."""
    con = sqlite3.connect(fresh_campaign())
    yield con
    con.close()


def test_entities_equal_in_json_leave_no_entry_and_the_rest_match_state_diff(read):
    """Record 0034: a command put back as an equal copy, or with a list where the file read a
    tuple, has equal JSON values and no entry; an order moved to the messengers, an order
    cancelled, a town changed hands (its day with it), a town no longer held (its day dropped
    with it), a new battle, settings given in any order and an order form taken are exactly the
    entries and values ``state_diff`` gives, in its order, whether the values put are made
    entry by entry or taken from the whole state's JSON."""
    state, kept = read_state_kept(read)
    whole = read_json(read)
    first, second, third = state.ordered()[:3]
    state.commands[first.name] = replace(first)
    state.commands[second.name] = replace(second, casualties=list(second.casualties))
    state.commands[third.name] = replace(third, marched=4.5)
    state.orders = {}
    state.pending = {}
    town, other = sorted(state.control)[:2]
    holder = state.control[town]
    state.control[town] = Side.ALLIED if holder is Side.FRENCH else Side.FRENCH
    state.control_since[town] = date(1813, 5, 1)
    state.control_since[other] = date(1813, 4, 30)
    del state.control[other]
    state.battles[7] = Battle(7, date(1813, 5, 1), town, (first.name,), ())
    state.settings = {"fog": True, "contact_miles": 8.0}
    state.imports["form-1"] = "abc"
    old, new = kept.changes(state)
    assert (json.dumps(old), json.dumps(new)) == tuple(
        json.dumps(side) for side in state_diff(whole, state_to_json(state)))
    # the values put taken from the whole tree, where a closing day has made it: the same
    with_tree = kept.changes(state, state_to_json(state))
    assert tuple(json.dumps(side) for side in with_tree) == (json.dumps(old), json.dumps(new))
    assert list(old) == ["settings", "commands", "battles", "control", "control_since",
                         "imports"]
    assert list(old["commands"]) == [third.name]
    assert old["control"] == {other: whole["control"][other], town: holder.value}
    assert new["control"] == {other: None, town: state.control[town].value}
    assert new["control_since"] == {town: "1813-05-01"}
    assert list(new["settings"]) == ["contact_miles", "fog"]
    assert old["battles"] == {"7": None} and new["imports"] == {"form-1": "abc"}
    assert kept.values() == whole and kept.date == date(1813, 5, 1)


def test_orders_moved_and_cancelled_are_entries_of_their_keys(fresh_campaign):
    """Record 0034: an active order moved to the messengers is two entries, ``|active`` gone
    and ``|pending`` come (its JSON with ``pending`` true); a cancelled one is its key gone."""
    path = fresh_campaign()
    with open_campaign(path) as doc:
        at_towns = [c for c in queries.day_state(doc).ordered() if c.position.b is None][:2]
        services.issue_orders(doc, [IssueOrder(c.name, "Hold", c.position.a) for c in at_towns])
    moved, cancelled = (c.name for c in at_towns)
    con = sqlite3.connect(path)
    try:
        state, kept = read_state_kept(con)
        whole = read_json(con)
    finally:
        con.close()
    state.pending[moved] = state.orders.pop(moved)
    del state.orders[cancelled]
    old, new = kept.changes(state)
    assert (json.dumps(old), json.dumps(new)) == tuple(
        json.dumps(side) for side in state_diff(whole, state_to_json(state)))
    keys = sorted([f"{moved}|active", f"{moved}|pending", f"{cancelled}|active"])
    assert list(old) == ["orders"] and list(old["orders"]) == keys
    assert new["orders"][f"{moved}|pending"]["pending"] is True
    assert old["orders"][f"{moved}|active"]["pending"] is False
    assert old["orders"][f"{moved}|pending"] is None
    assert new["orders"][f"{cancelled}|active"] is None
