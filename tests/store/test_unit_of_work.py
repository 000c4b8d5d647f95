"""The store behind its protocol: a unit of work reads, takes back the changed state, logs it
once; the checks that decide an action hold until it is written; the services and read models
reach the store only through the protocol, and the protocol names nothing of SQLite. The tests
of a store's behaviour run on both stores (the file and the server), the same tests."""

from __future__ import annotations

import ast
import json
from datetime import date
from pathlib import Path

import pytest

import campaign1813.campaign.queries
import campaign1813.campaign.services
import campaign1813.campaign.store.protocol
from campaign1813.campaign import queries, services
from campaign1813.campaign.day.actions import IssueOrder
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.store import document, server
from campaign1813.campaign.store.document import CampaignBusy
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.protocol import LogEntry
from campaign1813.campaign.store.work import UnrecordedChange
from tests.day.test_scenarios import battle_setup, make
from tests.store.stores import digest


@pytest.fixture
def plain(tmp_path, stores) -> str:
    make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}).doc.close()
    return stores(tmp_path / "c.c1813")


@pytest.fixture
def found(tmp_path, stores) -> str:
    """3 May: the battle of Fenwick found, waiting for its result."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.doc.close()
    return stores(tmp_path / "c.c1813")


def rows(doc, sql: str) -> list:
    """Rows read straight from a store's tables (the file's SQL, on either store)."""
    with doc.reading() as con:
        return con.execute(sql).fetchall()


def test_a_unit_of_work_logs_its_entry_with_only_what_changed_and_undo_puts_it_back(plain):
    with open_store(plain) as doc:
        ground = doc.ground()
        with doc.unit_of_work() as work:
            state = work.state()
            assert work.state() is state  # one state per unit of work
            label, lines, _ = IssueOrder("1 Corps", "Move", "Brook").apply(ground, state)
            work.put_state(state)
            changes = work.record(LogEntry("Handmade", label, state.date, tuple(lines),
                                           {"by": "a test"}))
        assert changes.commands == {"1 Corps"} and changes.label == label
        [(kind, day, logged, payload, before, after)] = rows(
            doc, "SELECT kind, date, lines_json, payload_json, before_json, after_json "
                 "FROM event_log")
        assert (kind, day, json.loads(logged), json.loads(payload)) == (
            "Handmade", "1813-05-01", lines, {"by": "a test"})
        assert json.loads(before) == {"orders": {"1 Corps|active": None}}
        assert list(json.loads(after)["orders"]) == ["1 Corps|active"]
        assert queries.diary(doc)[-1].text == lines[-1]
        assert queries.undo_step(doc).label == label
        services.undo(doc, queries.undo_step(doc))
        assert "1 Corps" not in queries.day_state(doc).orders


def test_changes_never_logged_are_refused_and_the_file_is_unchanged(plain):
    before = digest(plain)
    with open_store(plain) as doc:
        with pytest.raises(UnrecordedChange, match="not logged"), doc.unit_of_work() as work:
            state = work.state()
            state.marched = True
            work.put_state(state)
        with doc.unit_of_work() as work:  # read only: nothing to log, nothing written
            assert work.fights() == {}
    assert digest(plain) == before


def test_a_unit_of_work_logs_one_action(plain):
    with open_store(plain) as doc, doc.unit_of_work() as work:
        entry = LogEntry("Nothing", "Nothing done", date(1813, 5, 1))
        work.record(entry)
        with pytest.raises(UnrecordedChange, match="logged its action already"):
            work.record(entry)


def test_the_check_of_an_action_holds_until_it_is_written(found, monkeypatch):
    """A unit of work that has seen battle 1 off the table keeps it so: another window's setup
    of it waits for the unit to end (here it is told the campaign is busy), and is taken only
    after it."""
    monkeypatch.setattr(document, "BUSY_SECONDS", 0.1)
    monkeypatch.setattr(server, "BUSY_SECONDS", 0.1)
    with open_store(found) as first, open_store(found) as second:
        with first.unit_of_work() as work:
            assert work.fight(1) is None
            with pytest.raises(CampaignBusy, match="busy in another window"):
                services.open_battle(second, 1, seed=5)
            with pytest.raises(CampaignBusy, match="busy in another window"):
                services.autoresolve_battle(second, 1, seed=3)
        assert queries.fights_in_progress(second) == {}
        services.open_battle(second, 1, seed=5)
        with pytest.raises(OrderRefused, match="being fought on the table"):
            services.autoresolve_battle(first, 1, seed=3)
        assert queries.campaign_status(first).battles[0].result is None


def test_a_finished_battle_gives_its_result_once_with_one_log_entry(found):
    with open_store(found) as doc:
        services.open_battle(doc, 1, seed=5)
        services.battle_action(doc, 1, "override", side="Allied", reason="the French withdrew")
        changes = services.finish_battle(doc, 1)
        last = rows(doc, "SELECT kind, label, before_json, after_json FROM event_log "
                         "ORDER BY seq DESC LIMIT 1")
        assert [(k, lab) for k, lab, _, _ in last] == [("FinishFight", changes.label)]
        before, after = (json.loads(x) for x in last[0][2:])
        assert list(after["fight_steps"]) == ["1|00001"] and before["fight_steps"] == {
            "1|00001": None}
        assert after["battles"]["1"]["result"] == "Allied"
        assert changes.fights == {1} and 1 in changes.battles
        services.undo(doc)
        assert queries.campaign_status(doc).battles[0].result is None
        assert len(queries.fight_view(doc, 1).steps) == 1


# -- the seam itself ---------------------------------------------------------------------------


def _imports(module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", [campaign1813.campaign.services,
                                    campaign1813.campaign.queries], ids=["services", "queries"])
def test_services_and_read_models_reach_the_store_only_through_its_protocol(module):
    imported = _imports(module)
    store = {n for n in imported if n.startswith("campaign1813.campaign.store")}
    assert store == {"campaign1813.campaign.store.protocol"}
    assert not imported & {"sqlite3", "json", "sqlalchemy"}
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert "SELECT " not in source and ".old" not in source and ".new" not in source


def test_the_protocol_names_nothing_of_sqlite():
    module = campaign1813.campaign.store.protocol
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    annotations = [ast.unparse(a) for node in ast.walk(tree)
                   for a in ([node.returns, *(x.annotation for x in node.args.args)]
                             if isinstance(node, ast.FunctionDef) else
                             [node.annotation] if isinstance(node, ast.AnnAssign) else [])
                   if a is not None]
    assert "Fight | None" in annotations  # the check reads the protocol's signatures
    words = ("sqlite", "Connection", "Cursor", "PRAGMA", "Path", "backup", "lock")
    assert [a for a in annotations if any(w.lower() in a.lower() for w in words)] == []
    assert not {n for n in _imports(module) if "sqlite" in n or "pathlib" in n}
