"""Campaigns on a PostgreSQL server: their addresses, the refusals of opening one, the command
line's server init, push and pull, four clients racing on one campaign, and a client killed in
the middle of its transaction."""

from __future__ import annotations

import multiprocessing
import os
import secrets
import select
import signal
import time
from datetime import date
from pathlib import Path

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.day.actions import IssueOrder
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store import server
from campaign1813.campaign.store.club import CLUB_TABLES
from campaign1813.campaign.store.document import CampaignBusy, open_campaign
from campaign1813.campaign.store.notice import Notice, notice_of
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.protocol import LogEntry, LogStep
from campaign1813.campaign.store.schema import SQLModel
from campaign1813.campaign.store.server import (
    CampaignServerError,
    ServerAddress,
    init_server,
    open_server_campaign,
    push_campaign,
)
from campaign1813.campaign.store.version import REVISIONS, SCHEMA_VERSION, TABLES
from tests.store.stores import campaign_address, read_raw, write_raw
from tools import pg_server

RACE_ACTIONS = int(os.environ.get("RACE_ACTIONS", "25"))  # each client's; `make fuzz`: more


def test_an_address_names_its_database_and_campaign_and_hides_its_password():
    address = ServerAddress("postgresql://umpire:s3cret@club.example:5433/club?campaign="
                            "spring-1813&sslmode=require")
    assert address.campaign == "spring-1813" and address.schema == "campaign_spring_1813"
    assert address.conninfo == ("postgresql://umpire:s3cret@club.example:5433/club?"
                                "sslmode=require")
    assert "s3cret" not in str(address) and "umpire:***@club.example" in str(address)
    socket = ServerAddress("postgresql://umpire@/club?host=/run/pg&port=5999&campaign=a")
    assert socket.conninfo == "postgresql://umpire@/club?host=%2Frun%2Fpg&port=5999"
    assert str(socket) == "postgresql://umpire@/club?host=/run/pg&port=5999&campaign=a"
    query = ServerAddress("postgresql://u@h/club?password=s3cret&campaign=a")
    assert "s3cret" not in str(query) and "password=***" in str(query)


@pytest.mark.parametrize(("text", "reason"), [
    ("postgresql://u@h/club", "names no campaign"),
    ("postgresql://u@h/club?campaign=Spring 1813", "not a server campaign's name"),
    ("postgresql://u@h/club?campaign=a--b", "not a server campaign's name"),
    ("postgresql://u@h/club?campaign=a&campaign=b", "names no campaign"),
    ("spring.c1813", "is not a server campaign's address"),
])
def test_an_address_that_names_no_campaign_is_refused_with_the_reason(text, reason):
    with pytest.raises(CampaignServerError, match=reason):
        ServerAddress(text)


def test_opening_where_there_is_no_campaign_says_what_to_do(pg_database):
    with pytest.raises(CampaignServerError, match="server init URL"):
        open_server_campaign(pg_database + "&campaign=none-here")
    init_server(pg_database + "&campaign=none-here")
    with pytest.raises(CampaignServerError, match="no campaign 'none-here'.*push FILE URL"):
        open_server_campaign(pg_database + "&campaign=none-here")


def test_an_unreachable_server_is_refused_in_one_line(tmp_path):
    address = f"postgresql://nobody@/club?host={tmp_path}&port=1&campaign=a"
    with pytest.raises(CampaignServerError, match="cannot be reached") as refused:
        open_store(address)
    assert "\n" not in str(refused.value)


def test_the_command_line_inits_pushes_plays_and_pulls(pg_database, fresh_campaign, tmp_path,
                                                       capsys):
    address = campaign_address(pg_database, "cli-1813")
    assert main(["server", "init", pg_database]) == 0
    assert main(["push", str(fresh_campaign()), address]) == 0
    assert "pushed" in capsys.readouterr().out
    assert main(["push", str(fresh_campaign(tmp_path / "b.c1813")), address]) == 1
    assert "has a campaign 'cli-1813' already" in capsys.readouterr().err
    assert main(["order", address, "5 Corps", "Hold", "Magdeburg"]) == 0
    assert main(["end-day", address]) == 0
    assert main(["info", address]) == 0
    assert "today   2 May 1813" in capsys.readouterr().out
    out = tmp_path / "club.c1813"
    assert main(["pull", address, str(out)]) == 0
    capsys.readouterr()
    assert main(["diary", str(out)]) == 0
    diary = capsys.readouterr().out
    assert diary == ("1 May 1813: Order: 5 Corps – Hold Magdeburg\n"
                     "1 May 1813: 1 May 1813 ends.\n")
    assert main(["pull", address, str(out)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert main(["push", str(out), address, "--replace"]) == 0
    with open_store(address) as doc:
        assert doc.summary().current_date.isoformat() == "1813-05-02"


def test_a_failed_push_leaves_nothing_on_the_server(pg_database, fresh_campaign, monkeypatch):
    """A push is one transaction: a failure half-way (here the last table's rows) leaves no
    schema, no registry row."""
    address = campaign_address(pg_database)
    real = server._insert_server

    def failing(con, table, names, rows):
        if table == "town_control":
            raise psycopg.errors.DiskFull("no room left")
        real(con, table, names, rows)

    monkeypatch.setattr(server, "_insert_server", failing)
    with pytest.raises(psycopg.errors.DiskFull):
        push_campaign(fresh_campaign(), address)
    schema = ServerAddress(address).schema
    with psycopg.connect(ServerAddress(address).conninfo) as con:
        assert con.execute("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s",
                           (schema,)).fetchone() is None
        assert con.execute("SELECT count(*) FROM c1813.campaigns WHERE name = %s",
                           (ServerAddress(address).campaign,)).fetchone() == (0,)


# -- concurrency ------------------------------------------------------------------------------

CLIENTS = {"5 Corps": ("Magdeburg", "Leipzig"), "1 Corps": ("Leipzig", "Dresden"),
           "4 Corps": ("Dresden", "Leipzig"), "6 Corps": ("Leipzig", "Dresden")}


def _client(address: str, command: str, start, results) -> None:
    """One umpire's program: RACE_ACTIONS orders as fast as it can, each acknowledged (with
    its label) or told the campaign is busy."""
    towns = CLIENTS[command]
    outcomes = []
    with open_server_campaign(address) as store:
        store.busy_seconds = 0.001  # as good as NOWAIT: a race's loser is told at once
        start.wait()
        for i in range(RACE_ACTIONS):
            try:
                changes = services.issue_order(store, command, "Move", towns[i % 2])
                outcomes.append(("acknowledged", changes.label))
            except CampaignBusy as exc:
                outcomes.append(("busy", str(exc)))
    results.put((command, outcomes))


def test_four_clients_racing_lose_no_acknowledged_action_and_the_losers_are_told(
        pg_database, fresh_campaign, tmp_path):
    """Every acknowledged order is in the log once, in each client's own order; the losers of
    each race were told the campaign is busy; the campaign is the serial order of the log's
    actions played on a copy of the file."""
    source = fresh_campaign()
    address = campaign_address(pg_database)
    push_campaign(source, address)
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(len(CLIENTS)), ctx.Queue()
    workers = [ctx.Process(target=_client, args=(address, c, start, results)) for c in CLIENTS]
    for w in workers:
        w.start()
    told = dict(results.get(timeout=120) for _ in workers)
    for w in workers:
        w.join(30)
        assert w.exitcode == 0
    acknowledged = {c: [label for what, label in told[c] if what == "acknowledged"]
                    for c in CLIENTS}
    busy = [m for c in CLIENTS for what, m in told[c] if what == "busy"]
    assert sum(map(len, acknowledged.values())) + len(busy) == RACE_ACTIONS * len(CLIENTS)
    assert all("the campaign is busy in another window or program" in m for m in busy)
    with open_store(address) as doc:
        with doc.read() as log:
            labels = [a.label for a in log.log()]
        final = queries.state_json(doc)
    assert len(labels) == sum(map(len, acknowledged.values()))
    for command, mine in acknowledged.items():
        assert [x for x in labels if x.startswith(f"Order: {command} ")] == mine
    with open_campaign(fresh_campaign(tmp_path / "serial.c1813")) as doc:
        for label in labels:
            command, rest = label.removeprefix("Order: ").split(" – ")
            verb, town = rest.split(" ", 1)
            services.issue_order(doc, command, verb, town)
        assert queries.state_json(doc)["orders"] == final["orders"]


def _killed(address: str, ready) -> None:
    """A client that records an order and is killed before its transaction commits."""
    with open_server_campaign(address) as store, store.unit_of_work() as work:
        state = work.state()
        label, lines, _ = IssueOrder("5 Corps", "Move", "Leipzig").apply(store.ground(), state)
        work.put_state(state)
        work.record(LogEntry("IssueOrder", label, state.date, tuple(lines)))
        ready.set()
        time.sleep(60)


def test_a_client_killed_mid_transaction_leaves_nothing(pg_database, fresh_campaign):
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    client = ctx.Process(target=_killed, args=(address, ready))
    client.start()
    assert ready.wait(30)
    os.kill(client.pid, signal.SIGKILL)
    client.join(10)
    assert client.exitcode == -signal.SIGKILL
    with open_store(address) as doc:
        assert queries.diary(doc) == [] and queries.undo_step(doc) is None
        assert "5 Corps|active" not in queries.state_json(doc)["orders"]
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")  # the lock died with it
        assert [e.text for e in queries.diary(doc)][-1].startswith("Order: 5 Corps")


def test_a_campaign_held_by_another_writer_is_refused_as_busy(pg_database, fresh_campaign,
                                                             monkeypatch):
    monkeypatch.setattr(server, "BUSY_SECONDS", 0.05)
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    with open_store(address) as first, open_store(address) as second:
        before = queries.state_json(second)
        with first.unit_of_work():
            with pytest.raises(CampaignBusy, match="busy in another window or program"):
                services.issue_order(second, "5 Corps", "Hold", "Magdeburg")
        assert queries.state_json(second) == before
        services.issue_order(second, "5 Corps", "Hold", "Magdeburg")


def test_the_store_keeps_the_files_name_dates_and_settings(pg_database, fresh_campaign):
    source = fresh_campaign()
    address = campaign_address(pg_database)
    push_campaign(source, address)
    with open_store(address) as doc, open_campaign(source) as file:
        assert isinstance(doc, server.ServerCampaign) and not doc.readonly
        assert doc.summary() == file.summary() and doc.settings() == file.settings()
        assert doc.scenario() == file.scenario()


def test_a_dropped_connection_is_made_again_before_the_next_action(pg, pg_database,
                                                                   fresh_campaign):
    """The server ends the store's connection between two actions (a restart, a network gone):
    the next action connects again and is taken; nothing was half-done."""
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    with open_store(address) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        database = ServerAddress(address).conninfo.split("?")[0].rsplit("/", 1)[-1]
        with psycopg.connect(pg.url, autocommit=True) as admin:
            ended = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE datname = %s", (database,)).fetchall()
        assert ended and all(ok for (ok,) in ended)
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        assert [e.text for e in queries.diary(doc)] == [
            "Order: 5 Corps – Hold Magdeburg", "Order: 1 Corps – Move Leipzig"]


def test_a_connection_dropped_during_an_action_keeps_nothing_of_it(pg, pg_database,
                                                                   fresh_campaign):
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    with open_store(address) as doc:
        with pytest.raises(CampaignServerError, match="cannot be reached.*nothing of the "
                                                      "action was kept"), \
                doc.unit_of_work() as work:
            state = work.state()
            label, lines, _ = IssueOrder("5 Corps", "Move", "Leipzig").apply(doc.ground(), state)
            work.put_state(state)
            with psycopg.connect(pg.url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                              "state = 'idle in transaction'")
            work.record(LogEntry("IssueOrder", label, state.date, tuple(lines)))
        assert queries.diary(doc) == []
        assert "5 Corps|active" not in queries.state_json(doc)["orders"]


def test_another_clients_commit_is_heard_at_once_and_ones_own_is_not(pg_database,
                                                                     fresh_campaign):
    """LISTEN/NOTIFY: the listener's socket becomes readable within a second of another
    store's commit (no reading of the campaign meanwhile); its own commits, and other
    campaigns', are not news to it; an action refused writes nothing and says nothing."""
    address, other = campaign_address(pg_database), campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    push_campaign(fresh_campaign(Path(os.environ["HOME"]) / "other.c1813"), other)
    with open_store(address) as mine, open_store(address) as theirs, \
            open_store(other) as elsewhere:
        listener = mine.listen()
        try:
            services.issue_order(mine, "5 Corps", "Hold", "Magdeburg")
            services.issue_order(elsewhere, "5 Corps", "Hold", "Magdeburg")
            with pytest.raises(CampaignError):
                services.issue_order(theirs, "5 Corps", "Move", "Atlantis")
            select.select([listener], [], [], 0.3)
            assert not listener.changed()
            services.issue_order(theirs, "1 Corps", "Move", "Leipzig")
            ready, _, _ = select.select([listener], [], [], 1.0)
            assert ready == [listener] and listener.changed()
            assert not listener.changed()  # told once
        finally:
            listener.close()


def test_a_machine_without_postgresql_is_told_so(monkeypatch):
    """The throwaway server's tool says why none can start where PostgreSQL is not installed
    (the server tests are then skipped saying so, and failed where they are required)."""
    monkeypatch.setattr(pg_server.shutil, "which", lambda name: None)
    monkeypatch.setattr(pg_server.glob, "glob", lambda pattern: [])
    with pytest.raises(pg_server.NoServer, match="PostgreSQL is not installed"):
        pg_server.start()


def test_a_server_campaign_has_exactly_the_layout_the_tables_declare(pg_database,
                                                                     fresh_campaign):
    """The file's alembic revisions, run on PostgreSQL in the campaign's schema, make the very
    tables ``store/schema.py`` declares (alembic's comparison finds no difference), beside
    the server's own tables for the club's members."""
    address = ServerAddress(campaign_address(pg_database))
    push_campaign(fresh_campaign(), address)
    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(
        address.conninfo, options=f"-c search_path={address.schema}"))
    try:
        with engine.connect() as con:
            context = MigrationContext.configure(con, opts={
                "include_object": lambda _o, name, kind, *_: kind != "table" or
                name not in CLUB_TABLES})
            assert compare_metadata(context, SQLModel.metadata) == []
            tables = {r[0] for r in con.exec_driver_sql(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema()")}
            assert tables == TABLES | {"alembic_version", *CLUB_TABLES}
            assert context.get_current_revision() == REVISIONS[SCHEMA_VERSION]
    finally:
        engine.dispose()


def test_a_server_campaign_of_an_older_schema_is_upgraded_when_opened(pg_database,
                                                                      fresh_campaign):
    """A campaign left at schema version 5 (its log entries without ids, no reports nor keys) is
    brought to the newest by the file's own revisions when it is opened: each entry gets its id,
    each side its key, and the layout is the declared one. A campaign of a newer version is
    refused."""
    target = campaign_address(pg_database)
    push_campaign(fresh_campaign(), target)
    with open_store(target) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
    for sql in ("DROP TABLE day_snapshot", "ALTER TABLE day_info DROP COLUMN supply_json",
                "DROP TABLE day_report", "DROP TABLE order_import", "DROP TABLE side_key",
                "DROP INDEX event_log_entry", "ALTER TABLE event_log DROP COLUMN entry",
                "UPDATE document SET schema_version = 5",
                "UPDATE alembic_version SET version_num = '0005'"):
        write_raw(target, sql)
    with open_store(target) as doc:
        step = queries.undo_step(doc)
        assert step.label == "Order: 5 Corps – Hold Magdeburg" and len(step.entry) == 32
        services.undo(doc, step)
        with doc.read() as reader:  # revision 0007 issued each side a key on the server too
            keys = {side: reader.side_key(side) for side in ("French", "Allied")}
    assert len(keys["French"]) == 32 and keys["French"] != keys["Allied"]
    assert read_raw(target, "SELECT schema_version FROM document") == [(SCHEMA_VERSION,)]
    write_raw(target, "UPDATE document SET schema_version = 99")
    with pytest.raises(CampaignServerError, match="newer version of campaign1813 .schema 99"):
        open_store(target)


def test_new_backup_and_restore_take_an_address(pg_database, tmp_path, capsys):
    """``new`` makes a campaign on the server; ``backup`` of an address writes a whole campaign
    file; ``restore`` onto an address puts a backup in place of the server's campaign."""
    address = campaign_address(pg_database, "made-here")
    assert main(["new", address, "--name", "Club 1813", "--start", "1813-05-03"]) == 0
    assert capsys.readouterr().out.startswith("created postgresql://")
    assert main(["order", address, "5 Corps", "Hold", "Magdeburg"]) == 0
    copy = tmp_path / "copy.c1813"
    assert main(["backup", address, str(copy)]) == 0
    assert main(["end-day", address]) == 0
    assert main(["restore", str(copy), address]) == 0
    capsys.readouterr()
    assert main(["info", address]) == 0
    assert capsys.readouterr().out == "Club 1813\nstarted 3 May 1813\ntoday   3 May 1813\n"
    assert main(["diary", address]) == 0
    assert capsys.readouterr().out == "3 May 1813: Order: 5 Corps – Hold Magdeburg\n"


def test_a_server_campaign_of_schema_9_keeps_its_waiting_forms_when_upgraded(pg_database,
                                                                             fresh_campaign):
    """Record 0032: a campaign whose players' table was the server's own before schema 10
    (form as jsonb, a bigserial id, a timestamptz, row-level security on it) is brought to the
    declared layout when opened: its waiting form is kept and read through the store, the
    layout is the declared one, and a player let in afterwards submits under the policies made
    again."""
    target = campaign_address(pg_database)
    push_campaign(fresh_campaign(), target)
    for sql in ("DROP TABLE submitted_orders",
                "CREATE TABLE submitted_orders (id bigserial PRIMARY KEY, side text NOT NULL, "
                "form jsonb NOT NULL, login text NOT NULL DEFAULT session_user, made timestamptz "
                "NOT NULL DEFAULT now(), taken text NOT NULL DEFAULT '')",
                "ALTER TABLE submitted_orders ENABLE ROW LEVEL SECURITY",
                "CREATE POLICY reads_own_side ON submitted_orders FOR SELECT USING "
                "(side = 'French')",
                "INSERT INTO submitted_orders (side, form, login) VALUES ('French', "
                "'{\"side\": \"French\", \"number\": \"f-1\"}', 'marmont')",
                "ALTER TABLE day_snapshot DROP COLUMN journal",  # (schema 11's)
                "UPDATE document SET schema_version = 9",
                "UPDATE alembic_version SET version_num = '0009'"):
        write_raw(target, sql)
    with open_store(target) as doc:
        (form,) = services.submitted_forms(doc)
    assert (form.id, form.side, form.form, form.login, form.taken) == (
        1, "French", {"side": "French", "number": "f-1"}, "marmont", "")
    assert read_raw(target, "SELECT data_type FROM information_schema.columns WHERE "
                            "table_schema = current_schema() AND table_name = "
                            "'submitted_orders' ORDER BY ordinal_position") == [
        ("integer",), ("character varying",), ("character varying",), ("character varying",),
        ("character varying",), ("character varying",)]
    login = f"fr_{secrets.token_hex(3)}"
    server.add_member(target, login, "French", password="pw")
    with server.PlayerSeat(target.replace("postgresql://postgres@", f"postgresql://{login}@")
                           ) as seat:
        number = seat.submit({"side": "French", "number": "f-2"})
        assert [s.form["number"] for s in seat.submitted()] == ["f-1", "f-2"]
    assert number == 2


def test_each_commit_is_told_with_what_it_changed(pg_database, fresh_campaign):
    """Record 0031: a notification names what the commit changed (an order: its command; its
    undo and redo the same; End Day: the day it reported on and that the date moved), so a
    window re-reads only that; an action that wrote nothing says nothing."""
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    with open_store(address) as mine, open_store(address) as theirs:
        listener = mine.listen()
        try:
            services.issue_order(theirs, "1 Corps", "Move", "Leipzig")
            services.undo(theirs)
            services.redo(theirs)
            with pytest.raises(CampaignError):
                services.undo(theirs, LogStep("not-the-latest", "Order"))
            ended = services.end_day(theirs)
            ready, _, _ = select.select([listener], [], [], 1.0)
            assert ready == [listener]
            time.sleep(0.2)  # every commit's notification in
            order, undone, redone, day = listener.news()
        finally:
            listener.close()
    assert order == Notice("Order: 1 Corps – Move Leipzig", commands=frozenset({"1 Corps"}),
                           logged=True)
    assert undone == Notice("Undo Order: 1 Corps – Move Leipzig",
                            commands=frozenset({"1 Corps"}), logged=True)
    assert redone == Notice("Redo Order: 1 Corps – Move Leipzig",
                            commands=frozenset({"1 Corps"}), logged=True)
    assert day == notice_of(ended) and day.label == "End day: 1 May 1813"
    assert day.report == date(1813, 5, 1) and day.date_changed and day.positions
    assert day.changes().lines == () and ended.lines


def test_what_became_of_a_players_form_is_told_as_a_form_not_the_whole_campaign(
        pg_database, fresh_campaign):
    """Record 0031: the umpire marking a player's form (taken, or refused and why) is told
    to the other windows as a form's news, which the umpire's window reads nothing for."""
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    login = f"fr_{secrets.token_hex(3)}"
    server.add_member(address, login, "French", password="pw")
    with server.PlayerSeat(address.replace("postgresql://postgres@",
                                           f"postgresql://{login}@")) as seat:
        number = seat.submit({"side": "French", "number": "f-1"})
    with open_store(address) as mine, open_store(address) as theirs:
        listener = mine.listen()
        try:
            services.mark_submitted(theirs, number, "refused: the order form is for 1 May 1813")
            ready, _, _ = select.select([listener], [], [], 1.0)
            assert ready == [listener]
            (told,) = listener.news()
        finally:
            listener.close()
    assert told == Notice(f"Form {number}: refused: the order form is for 1 May 1813",
                          forms=True)


def test_a_push_in_place_of_a_campaign_tells_its_open_windows_to_read_it_whole(
        pg_database, fresh_campaign):
    """Record 0031: ``push --replace`` puts another campaign in place of the one a window has
    open; the window is told at the commit to read it again whole."""
    address = campaign_address(pg_database)
    push_campaign(fresh_campaign(), address)
    with open_store(address) as mine:
        listener = mine.listen()
        try:
            push_campaign(fresh_campaign(), address, replace=True)
            ready, _, _ = select.select([listener], [], [], 1.0)
            assert ready == [listener]
            assert listener.news() == [Notice(whole=True)]
        finally:
            listener.close()
