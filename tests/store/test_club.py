"""A club's members let in only where they belong, by PostgreSQL itself (record 0026): a side's
player, with plain SQL as his own login, reads his side's view and nothing of the master tables
nor the enemy's view, and submits orders for his side only; an observer reads both sides'
views and writes nothing; a co-umpire runs the campaign. The campaign: the line of towns of
``tests/day/test_scenarios.py`` with fog on and reports released by the umpire; 1 Corps and
I Corps meet at 1200 on 2 May, 10 miles apart."""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import secrets

import psycopg
import pytest
from psycopg import errors

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.export import packet
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store import server
from campaign1813.campaign.store.club import ClubRefused, view_from_json
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.server import (
    CampaignServerError,
    PlayerSeat,
    ServerAddress,
    add_member,
    push_campaign,
)
from tests.day.test_scenarios import make
from tests.store.stores import campaign_address, write_raw


def as_login(address: str, login: str) -> str:
    """The same address, as another login (the throwaway server trusts its socket)."""
    assert address.startswith("postgresql://") and "@" in address
    return f"postgresql://{login}@" + address.split("@", 1)[1]


def sql_as(address: str, login: str) -> psycopg.Connection:
    """A plain psql-like connection as a member's login, in the campaign's schema."""
    a = ServerAddress(as_login(address, login))
    return psycopg.connect(a.conninfo, autocommit=True, options=f"-c search_path={a.schema}")


@pytest.fixture
def club(tmp_path, pg_database):
    """The campaign on the server after End Day on 1 and 2 May (two held reports), with a
    French and an Allied player, an observer and a co-umpire let in."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True,
             release="umpire")
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    u.end_day()
    u.doc.close()
    address = campaign_address(pg_database)
    push_campaign(tmp_path / "c.c1813", address)
    tag = secrets.token_hex(3)
    logins = {"French": f"fr_{tag}", "Allied": f"al_{tag}", "observer": f"ob_{tag}",
              "umpire": f"um_{tag}"}
    for role, login in logins.items():
        assert add_member(address, login, role, password="pw")
    return address, logins


MASTER = ("day_command", "day_order", "day_report", "side_key", "event_log", "campaign",
          "document", "scenario_file", "order_import")


def test_a_player_can_read_no_master_table_with_plain_sql(club):
    """Record 0026: the master tables are not granted to a side's player at all: each SELECT
    is refused by PostgreSQL (permission denied, SQLSTATE 42501)."""
    address, logins = club
    with sql_as(address, logins["French"]) as con:
        for table in MASTER:
            with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
                con.execute(f"SELECT * FROM {table}")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("SELECT * FROM c1813.members")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("UPDATE side_view SET view = '{}'::jsonb")


def test_a_player_reads_his_own_sides_view_only_and_the_reports_released_to_it(club):
    """His side's row of ``side_view`` alone; the held report of I Corps is not in it until the
    umpire releases it, and the Allied view's rows never reach him."""
    address, logins = club
    with sql_as(address, logins["French"]) as con:
        rows = con.execute("SELECT side, view FROM side_view").fetchall()
        assert [r[0] for r in rows] == ["French"]
        assert "I Corps" not in json.dumps(rows[0][1]["map_items"])
        assert con.execute("SELECT count(*) FROM side_view WHERE side = 'Allied'"
                           ).fetchone() == (0,)
    with open_store(address) as doc:
        french = next(r.id for r in queries.enemy_reports(doc) if r.side == "French")
        services.release_reports(doc, [french])
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        assert seat.role == "French" and list(seat.views()) == [Side.FRENCH]
        labels = [i.label for i in seat.view().map_items if not i.own]
        assert labels == ["I Corps (seen 2 May)"]
    with PlayerSeat(as_login(address, logins["Allied"])) as seat:
        assert [i.label for i in seat.view().map_items if not i.own] == []  # still held


def test_a_player_writes_his_own_sides_orders_only(club):
    """INSERT of the other side's orders is refused by row-level security; his own is taken;
    he reads back his own side's submitted forms only, and cannot change one."""
    address, logins = club
    with sql_as(address, logins["French"]) as con:
        with pytest.raises(errors.InsufficientPrivilege, match="row-level security"):
            con.execute("INSERT INTO submitted_orders (side, form) VALUES ('Allied', '{}')")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("INSERT INTO submitted_orders (side, form, login) VALUES "
                        f"('French', '{{}}', '{logins['Allied']}')")
        con.execute("INSERT INTO submitted_orders (side, form) VALUES ('French', '{}')")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("UPDATE submitted_orders SET taken = 'taken'")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("DELETE FROM submitted_orders")
    with sql_as(address, logins["Allied"]) as con:
        con.execute("INSERT INTO submitted_orders (side, form) VALUES ('Allied', '{}')")
        assert con.execute("SELECT side, login FROM submitted_orders").fetchall() == [
            ("Allied", logins["Allied"])]
    with sql_as(address, logins["French"]) as con:
        assert con.execute("SELECT side, login FROM submitted_orders").fetchall() == [
            ("French", logins["French"])]


def test_an_observer_reads_both_views_and_writes_nothing(club):
    address, logins = club
    with sql_as(address, logins["observer"]) as con:
        assert [r[0] for r in con.execute("SELECT side FROM side_view ORDER BY side")] == [
            "Allied", "French"]
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("INSERT INTO submitted_orders (side, form) VALUES ('French', '{}')")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            con.execute("SELECT * FROM day_report")


def test_a_login_of_another_campaign_is_let_into_none_of_this_one(club, pg_database, tmp_path):
    """A player of one campaign has no USAGE on another's schema: refused before any table."""
    address, logins = club
    (tmp_path / "b").mkdir()
    make(tmp_path / "b", {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True).doc.close()
    other = campaign_address(pg_database)
    push_campaign(tmp_path / "b" / "c.c1813", other)
    with sql_as(other, logins["French"]) as con:
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied for schema"):
            con.execute(f"SELECT * FROM {ServerAddress(other).schema}.side_view")
    with pytest.raises(CampaignServerError, match="not a member of the campaign"):
        PlayerSeat(as_login(other, logins["French"]))


def test_a_co_umpire_runs_the_campaign_and_the_views_follow_each_action(club):
    """The umpire's group has every table: his order is one action like the owner's, and the
    French view in the same transaction shows it."""
    address, logins = club
    with open_store(as_login(address, logins["umpire"])) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Brook")
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        (row,) = [r for r in seat.view().table[1:] if r[0] == "1 Corps"]
        assert row[4] == "1 Corps – Move Brook"


def test_members_are_refused_with_the_reason(club):
    address, logins = club
    with pytest.raises(ClubRefused, match="not what a member can be"):
        add_member(address, "someone", "general", password="pw")
    with pytest.raises(ClubRefused, match="is not a login's name"):
        add_member(address, "Robert'; DROP", "French", password="pw")
    with pytest.raises(ClubRefused, match="is the French of the campaign"):
        add_member(address, logins["French"], "Allied")
    with pytest.raises(ClubRefused, match="a superuser passes every check"):
        add_member(address, "postgres", "French")
    with pytest.raises(ClubRefused, match="a new login needs a password"):
        add_member(address, f"new_{secrets.token_hex(3)}", "French")
    assert not add_member(address, logins["French"], "French")  # again harmless


def test_the_command_line_lets_members_in(club, capsys):
    address, _ = club
    login = f"cli_{secrets.token_hex(3)}"
    assert main(["server", "add-player", address, "--side", "allied", "--login", login,
                 "--password", "pw"]) == 0
    assert f"{login}: made, and let in as the Allied' player" in capsys.readouterr().out
    with PlayerSeat(as_login(address, login)) as seat:
        assert seat.side is Side.ALLIED
    observer = f"cli_{secrets.token_hex(3)}"
    assert main(["server", "add-observer", address, "--login", observer,
                 "--password", "pw"]) == 0
    umpire = f"cli_{secrets.token_hex(3)}"
    assert main(["server", "add-umpire", address, "--login", umpire, "--password", "pw"]) == 0
    with PlayerSeat(as_login(address, observer)) as seat:
        assert seat.side is None and set(seat.views()) == set(Side)


def _one_corps_to_brook(seat: PlayerSeat) -> dict:
    """The French side's order form from its view, 1 Corps ordered to move to Brook."""
    form = packet.order_form(seat.view())
    for line in form["orders"]:
        if line["command"] == "1 Corps":
            line["verb"], line["objective"] = "Move", "Brook"
    return form


def test_a_submitted_form_is_taken_as_a_returned_one_and_a_wrong_one_refused(club, capsys):
    """Record 0025's checks on the submitted forms: the French form is taken (its order
    issued), the same again changes nothing, something that is no order form is refused; the
    Allied login cannot send a French form, and his form of the wrong day is refused; each is
    marked with what became of it."""
    address, logins = club
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        form = _one_corps_to_brook(seat)
        seat.submit(form)
        seat.submit(form)  # the same form twice: taken once
        seat.submit({"side": "French", "orders": "advance!"})  # not an order form at all
    with PlayerSeat(as_login(address, logins["Allied"])) as seat:
        with pytest.raises(CampaignServerError, match="this login is the Allied's"):
            seat.submit(form)
        stale = packet.order_form(seat.view())
        stale["day"] = "1813-05-01"
        seat.submit(stale)
    assert main(["import-orders", address, "--submitted"]) == 0
    out = capsys.readouterr().out
    assert "1 Corps: 1 Corps – Halt Fenwick → 1 Corps – Move Brook" in out
    assert "taken already; nothing changed" in out
    assert "wrong day" in out
    with open_store(address) as doc:
        assert queries.state_json(doc)["orders"]["1 Corps|active"]["objective"] == "Brook"
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        outcomes = [s.taken for s in seat.submitted()]
    assert outcomes[:2] == ["taken: Order form of the French: 1 taken, 0 refused",
                            "taken already"]
    assert outcomes[2].startswith("refused: the order form is not one of ours")
    with PlayerSeat(as_login(address, logins["Allied"])) as seat:
        (refused,) = [s.taken for s in seat.submitted()]
    assert refused.startswith("refused: the order form is for 1 May 1813")
    assert main(["import-orders", address, "--submitted"]) == 0
    assert "no submitted order forms are waiting" in capsys.readouterr().out


# -- four clients: two umpires' command lines and two players submitting ---------------------

RACE_ACTIONS = int(os.environ.get("RACE_ACTIONS", "25"))  # each client's; `make fuzz`: 200
UMPIRES = {"1 Corps": ("Brook", "Aston"), "I Corps": ("Elford", "Fenwick")}


def _umpire(address: str, command: str, start, results) -> None:
    """One umpire's command line: RACE_ACTIONS orders, each acknowledged or told busy."""
    towns = UMPIRES[command]
    outcomes = []
    server.BUSY_SECONDS = 0.001  # this process's own: a race's loser is told at once
    start.wait()
    for i in range(RACE_ACTIONS):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["order", address, command, "Move", towns[i % 2]])
        said = (out.getvalue() + err.getvalue()).strip()
        outcomes.append(("acknowledged" if code == 0 else "told", said))
    results.put((command, outcomes))


def _player(address: str, side: str, start, results) -> None:
    """One player's seat: RACE_ACTIONS order forms submitted, each acknowledged by its row's
    number, while the umpires' actions rewrite his side's view."""
    outcomes = []
    with PlayerSeat(address) as seat:
        start.wait()
        for i in range(RACE_ACTIONS):
            form = packet.order_form(seat.view(), number=f"{side}-{i}")
            outcomes.append(("acknowledged", str(seat.submit(form))))
    results.put((side, outcomes))


def test_two_umpires_and_two_players_racing_lose_nothing_acknowledged(club):
    """Record 0026: every order an umpire's command line acknowledged is in the log once, in
    its own order; every race's loser was told the campaign is busy (and nothing of his order
    kept); every form a player's seat acknowledged is on the server, his side's, with the
    number he gave it; the campaign is the serial order of the log's actions; and each side's
    view is the one its final state makes."""
    address, logins = club
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(4), ctx.Queue()
    workers = [ctx.Process(target=_umpire, args=(address, "1 Corps", start, results)),
               ctx.Process(target=_umpire, args=(as_login(address, logins["umpire"]),
                                                 "I Corps", start, results))]
    workers += [ctx.Process(target=_player, args=(as_login(address, logins[side]), side,
                                                  start, results))
                for side in ("French", "Allied")]
    for w in workers:
        w.start()
    told = dict(results.get(timeout=300) for _ in workers)
    for w in workers:
        w.join(30)
        assert w.exitcode == 0
    for command in UMPIRES:
        refused = [m for what, m in told[command] if what == "told"]
        assert all("the campaign is busy in another window or program" in m for m in refused)
        assert len(refused) + len([w for w, _ in told[command] if w == "acknowledged"]) == \
            RACE_ACTIONS
    with open_store(address) as doc:
        with doc.read() as reader:
            labels = [a.label for a in reader.log()][4:]  # after the fixture's four actions
        final = queries.state_json(doc)
        views = {side: queries.side_view(doc, side) for side in Side}
    for command in UMPIRES:
        mine = [m for what, m in told[command] if what == "acknowledged"]
        assert len(mine) == len([x for x in labels if x.startswith(f"Order: {command} ")])
        assert all(f"Order: {command} – Move" in m for m in mine)
    serial = {}
    for label in labels:
        command, rest = label.removeprefix("Order: ").split(" – ")
        serial[command] = rest.split(" ", 1)[1]
    for command, town in serial.items():
        assert final["orders"][f"{command}|active"]["objective"] == town
    with psycopg.connect(ServerAddress(address).conninfo,
                         options=f"-c search_path={ServerAddress(address).schema}") as con:
        rows = con.execute("SELECT id, side, form::jsonb->>'number', login FROM submitted_orders "
                           "ORDER BY id").fetchall()
        kept = dict(con.execute("SELECT side, view::text FROM side_view").fetchall())
    for side in ("French", "Allied"):
        mine = [int(n) for what, n in told[side] if what == "acknowledged"]
        assert len(mine) == RACE_ACTIONS
        theirs = [r for r in rows if r[0] in mine]
        assert [r[2] for r in theirs] == [f"{side}-{i}" for i in range(RACE_ACTIONS)]
        assert {(r[1], r[3]) for r in theirs} == {(side, logins[side])}
    assert len(rows) == 2 * RACE_ACTIONS
    assert {Side(s): view_from_json(v) for s, v in kept.items()} == views


def test_views_are_written_once_someone_may_read_them(tmp_path, pg_database):
    """A campaign of umpires alone writes no side's view with its actions (nothing to pay for);
    letting a player in writes them as the campaign stands, and from then on every action."""
    make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True).doc.close()
    address = campaign_address(pg_database)
    push_campaign(tmp_path / "c.c1813", address)

    def french_orders() -> str:
        with psycopg.connect(ServerAddress(address).conninfo,
                             options=f"-c search_path={ServerAddress(address).schema}") as con:
            (view,) = con.execute("SELECT view FROM side_view WHERE side = 'French'").fetchone()
        return [row for row in view["table"] if row[0] == "1 Corps"][0][4]

    assert french_orders() == "no orders"  # as pushed
    with open_store(address) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Brook")
    assert french_orders() == "no orders"  # no one to read it
    add_member(address, f"fr_{secrets.token_hex(3)}", "French", password="pw")
    assert french_orders() == "1 Corps – Move Brook"
    with open_store(address) as doc:
        services.issue_order(doc, "1 Corps", "Hold", "Aston")
    assert french_orders() == "1 Corps – Hold Aston"


# -- taking a member out ----------------------------------------------------------------------


def test_a_removed_player_can_no_longer_read_his_view_nor_submit(club, tmp_path, capsys):
    """``server remove-member``: the French player, also a member of another campaign, is
    taken out of this one; his open plain-SQL connection and a new one are refused his side's
    view and the submitting of orders by PostgreSQL; his login is kept for the other campaign
    (the output says so); the Allied player, the observer and the co-umpire are untouched; the
    campaign's audit of members records it."""
    address, logins = club
    (tmp_path / "b").mkdir()
    make(tmp_path / "b", {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True).doc.close()
    other = campaign_address(ServerAddress(address).conninfo)
    push_campaign(tmp_path / "b" / "c.c1813", other)
    add_member(other, logins["French"], "French")
    schema = ServerAddress(address).schema
    with sql_as(address, logins["French"]) as before:
        assert before.execute(f"SELECT count(*) FROM {schema}.side_view").fetchone() == (1,)
        assert main(["server", "remove-member", address, logins["French"]]) == 0
        out = capsys.readouterr().out
        assert out.strip() == (f"{logins['French']}: taken out of {ServerAddress(address)} (was "
                               f"the French' player); his login kept (a member of "
                               f"'{ServerAddress(other).campaign}')")
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied for schema"):
            before.execute(f"SELECT * FROM {schema}.side_view")
    with sql_as(address, logins["French"]) as con:
        for sql in (f"SELECT * FROM {schema}.side_view",
                    f"INSERT INTO {schema}.submitted_orders (side, form) VALUES ('French', "
                    "'{}')"):
            with pytest.raises(errors.InsufficientPrivilege, match="permission denied for schema"):
                con.execute(sql)
    with pytest.raises(CampaignServerError, match="not a member of the campaign"):
        PlayerSeat(as_login(address, logins["French"]))
    with PlayerSeat(as_login(other, logins["French"])) as seat:
        assert seat.side is Side.FRENCH  # still the other campaign's player
    with sql_as(address, logins["Allied"]) as con:
        assert [r[0] for r in con.execute("SELECT side FROM side_view")] == ["Allied"]
        con.execute("INSERT INTO submitted_orders (side, form) VALUES ('Allied', '{}')")
    with sql_as(address, logins["observer"]) as con:
        assert [r[0] for r in con.execute("SELECT side FROM side_view ORDER BY side")] == [
            "Allied", "French"]
    with open_store(as_login(address, logins["umpire"])) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Brook")
    assert main(["server", "members", address, "--changes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [f"members of {ServerAddress(address).campaign}:",
                         f"  {logins['umpire']:<24} an umpire",
                         f"  {logins['Allied']:<24} the Allied' player",
                         f"  {logins['observer']:<24} an observer"]
    assert lines[4] == "changes:"
    assert [line.split("  ", 2)[2] for line in lines[5:]] == [
        f"{logins['French']}: let in as the French' player (login made) (by postgres)",
        f"{logins['Allied']}: let in as the Allied' player (login made) (by postgres)",
        f"{logins['observer']}: let in as an observer (login made) (by postgres)",
        f"{logins['umpire']}: let in as an umpire (login made) (by postgres)",
        f"{logins['French']}: taken out (was the French' player); login kept: a member of "
        f"'{ServerAddress(other).campaign}'"
        " (by postgres)"]


def test_a_member_of_no_other_campaign_has_his_login_dropped(club, capsys):
    """The Allied player belongs to no other campaign: his login is dropped from the server
    (the output says so), so he cannot even connect; the French player is untouched."""
    address, logins = club
    assert main(["server", "remove-member", address, logins["Allied"]]) == 0
    assert capsys.readouterr().out.endswith("(was the Allied' player); his login dropped from "
                                            "the server\n")
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        sql_as(address, logins["Allied"])
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        assert seat.side is Side.FRENCH and list(seat.views()) == [Side.FRENCH]


def test_taking_a_member_out_is_refused_with_the_reason_and_changes_nothing(club):
    """No such member; the last umpire of the campaign (let another in first, then he may go);
    a login that is no umpire of the campaign: each refused naming the login and why, and the
    members and their audit are as they were."""
    address, logins = club

    def seen():
        return server.list_members(address)

    before = seen()
    with pytest.raises(ClubRefused, match="nobody is no member of the campaign"):
        server.remove_member(address, "nobody")
    with pytest.raises(ClubRefused, match=f"{logins['umpire']} is the last umpire of the "
                                          "campaign"):
        server.remove_member(address, logins["umpire"])
    with pytest.raises(ClubRefused, match=f"{logins['Allied']} is not an umpire of the "
                                          "campaign .*: only its umpires take members out"):
        server.remove_member(as_login(address, logins["Allied"]), logins["French"])
    with pytest.raises(ClubRefused, match="not a login's name"):
        server.remove_member(address, "Robert'; DROP")
    assert seen() == before
    second = f"u2_{secrets.token_hex(3)}"
    add_member(address, second, "umpire", password="pw")
    gone = server.remove_member(address, logins["umpire"])
    assert (gone.role, gone.dropped) == ("umpire", True)
    assert [m.login for m in seen()[0] if m.role == "umpire"] == [second]


def test_only_an_umpire_or_the_owner_lets_members_in_and_a_refusal_changes_nothing(
        club, pg, tmp_path, capsys):
    """A player's login (and an observer's) trying ``server add-player`` is refused, naming his
    login and why, as taking a member out is: no login made, the members and their audit as
    they were. The login that pushed the campaign (the database's own admin, no superuser) is
    let."""
    address, logins = club
    before = server.list_members(address)
    newcomer = f"nw_{secrets.token_hex(3)}"
    for who in ("French", "observer"):
        with pytest.raises(ClubRefused, match=f"{logins[who]} is not an umpire of the campaign "
                                              ".*: only its umpires let members in"):
            add_member(as_login(address, logins[who]), newcomer, "Allied", password="pw")
    assert main(["server", "add-player", as_login(address, logins["French"]), "--side",
                 "allied", "--login", newcomer, "--password", "pw"]) == 1
    assert f"{logins['French']} is not an umpire of the campaign" in capsys.readouterr().err
    assert server.list_members(address) == before
    with psycopg.connect(ServerAddress(address).conninfo) as con:
        assert con.execute("SELECT 1 FROM pg_roles WHERE rolname = %s",
                           (newcomer,)).fetchall() == []
    # a club whose admin is no superuser: he makes the database ready and pushes the campaign
    tag = secrets.token_hex(3)
    admin, database = f"ad_{tag}", f"t_owned_{tag}"
    with psycopg.connect(pg.url, autocommit=True) as con:
        con.execute(f"CREATE ROLE {admin} LOGIN CREATEROLE")
        con.execute(f"CREATE DATABASE {database} OWNER {admin}")
    owned = campaign_address(as_login(pg.url_of(database), admin))
    push_campaign(tmp_path / "c.c1813", owned)
    assert add_member(owned, f"ou_{tag}", "umpire", password="pw")
    assert main(["server", "add-player", owned, "--side", "french", "--login", f"op_{tag}",
                 "--password", "pw"]) == 0
    assert [(m.login, m.role) for m in server.list_members(owned)[0]] == [
        (f"ou_{tag}", "umpire"), (f"op_{tag}", "French")]
    with pytest.raises(ClubRefused, match=f"op_{tag} is not an umpire"):
        add_member(as_login(owned, f"op_{tag}"), f"oq_{tag}", "Allied", password="pw")


# -- the forms still waiting go with the campaign: pull, import on the file, push --------------


def _take_forms(target: str, capsys) -> tuple:
    """``import-orders TARGET --submitted``, and what the campaign then is: its status, diary
    and log, and what became of each form."""
    assert main(["import-orders", target, "--submitted"]) == 0
    said = capsys.readouterr().out
    with open_store(target) as doc:
        with doc.read() as reader:
            entries = [(a.kind, a.label, a.lines, a.day) for a in reader.log()]
            forms = [(f.id, f.side, f.login, f.taken) for f in reader.submitted_forms(False)]
        seen = (queries.status_json(queries.campaign_status(doc)), queries.diary_text(doc),
                entries)
    return said, seen, forms


def test_pull_keeps_the_waiting_forms_and_the_file_takes_them_as_the_server(club, tmp_path,
                                                                              capsys):
    """Record 0032: the French and the Allied players each submit a form (the Allied's of the
    wrong day); ``pull`` makes a file that keeps both, waiting; ``import-orders FILE
    --submitted`` on it says and does exactly what the same on the server does (the French
    order taken, the Allied form refused as of 1 May), leaving status, diary, log and the forms'
    outcomes equal; ``push`` of a pulled file carries its waiting forms back to the server."""
    address, logins = club
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        form = _one_corps_to_brook(seat)
        seat.submit(form)
    with PlayerSeat(as_login(address, logins["Allied"])) as seat:
        stale = packet.order_form(seat.view())
        stale["day"] = "1813-05-01"
        seat.submit(stale)
    pulled = str(tmp_path / "pulled.c1813")
    assert main(["pull", address, pulled]) == 0
    kept = tmp_path / "kept.c1813"
    assert main(["pull", address, str(kept)]) == 0
    capsys.readouterr()
    with open_store(pulled) as doc:
        waiting = services.submitted_forms(doc)
    assert [(f.side, f.login, f.taken) for f in waiting] == [
        ("French", logins["French"], ""), ("Allied", logins["Allied"], "")]
    assert waiting[0].form == json.loads(json.dumps(form))
    on_file = _take_forms(pulled, capsys)
    on_server = _take_forms(address, capsys)
    assert on_file == on_server
    said, (_status, _diary, entries), forms = on_file
    assert "1 Corps: 1 Corps – Halt Fenwick → 1 Corps – Move Brook" in said
    assert "refused: the order form is for 1 May 1813" in said
    assert entries[-1][1] == "Order form of the French: 1 taken, 0 refused"
    assert [f[3] for f in forms] == ["taken: Order form of the French: 1 taken, 0 refused",
                                     forms[1][3]]
    assert forms[1][3].startswith("refused: the order form is for 1 May 1813")
    # the copy pulled before the forms were taken goes back with them still waiting
    back = campaign_address(ServerAddress(address).conninfo)
    assert main(["push", str(kept), back]) == 0
    capsys.readouterr()
    with open_store(back) as doc:
        assert [(f.id, f.side, f.form) for f in services.submitted_forms(doc)] == [
            (f.id, f.side, f.form) for f in waiting]
    assert _take_forms(back, capsys)[0] == on_server[0]


def test_push_replace_keeps_the_forms_a_player_sent_after_the_pull(club, tmp_path, capsys):
    """Record 0032: the umpire pulls with the French form 1 waiting and takes it on the file;
    then the French player sends form 2 and the Allied form 3 to the server. ``push --replace``
    of the file keeps form 1 as the file has it (taken) and forms 2 and 3 waiting under their
    numbers, and says it kept two; the next form sent is number 4."""
    address, logins = club

    def french_form(objective: str) -> dict:
        with PlayerSeat(as_login(address, logins["French"])) as seat:
            form = packet.order_form(seat.view())
            for line in form["orders"]:
                if line["command"] == "1 Corps":
                    line["verb"], line["objective"] = "Move", objective
            assert seat.submit(form) >= 1
        return form

    first = french_form("Brook")
    pulled = str(tmp_path / "pulled.c1813")
    assert main(["pull", address, pulled]) == 0
    assert main(["import-orders", pulled, "--submitted"]) == 0
    second = french_form("Aston")
    with PlayerSeat(as_login(address, logins["Allied"])) as seat:
        third = packet.order_form(seat.view())
        assert seat.submit(third) == 3
    capsys.readouterr()
    assert main(["push", pulled, address, "--replace"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == ("kept 2 order forms of the server's, waiting and not in the "
                                    "file (forms 2, 3): take them with import-orders URL "
                                    "--submitted")
    with open_store(address) as doc:
        with doc.read() as reader:
            forms = [(f.id, f.side, f.login, f.form["number"], f.taken)
                     for f in reader.submitted_forms(False)]
        assert queries.state_json(doc)["orders"]["1 Corps|active"]["objective"] == "Brook"
    assert forms == [
        (1, "French", logins["French"], first["number"],
         "taken: Order form of the French: 1 taken, 0 refused"),
        (2, "French", logins["French"], second["number"], ""),
        (3, "Allied", logins["Allied"], third["number"], "")]
    with PlayerSeat(as_login(address, logins["Allied"])) as seat:
        assert seat.submit(third) == 4
    # pushed again, the server's forms 2 to 4 are kept once each; the file's 1 as it was
    assert main(["push", pulled, address, "--replace"]) == 0
    assert "(forms 2, 3, 4)" in capsys.readouterr().out
    # a push of a file that already holds them keeps none of the server's
    again = str(tmp_path / "again.c1813")
    assert main(["pull", address, again]) == 0
    assert main(["push", again, address, "--replace"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "kept 0 order forms of the server's: none was waiting that the file lacks")


def test_every_connection_keeps_alive_and_the_addresss_own_values_win(club):
    """A server gone silent is noticed within about a minute: the store's connection, its
    listener and a player's seat are each made with libpq's TCP keepalives (the first probe
    after 20 s of quiet, three more 10 s apart: 50 s); keepalive values in the address's query
    are taken as given, the others still added."""
    address, logins = club
    ours = {"keepalives": "1", "keepalives_idle": "20", "keepalives_interval": "10",
            "keepalives_count": "3", "connect_timeout": "10"}

    def made_with(target: str) -> list[dict[str, str]]:
        with open_store(target) as store:
            raw = store.connection.connection.dbapi_connection
            assert isinstance(raw, psycopg.Connection)
            listener = store.listen()
            try:
                found = [server.parameters_of(raw), listener.parameters()]
            finally:
                listener.close()
        with PlayerSeat(as_login(target, logins["French"])) as seat:
            found.append(seat.parameters())
        return found

    for found in made_with(address):
        assert {k: found.get(k) for k in ours} == ours
    own = address + "&keepalives_idle=5&keepalives_count=9&connect_timeout=4"
    for found in made_with(own):
        assert {k: found.get(k) for k in ours} == {**ours, "keepalives_idle": "5",
                                                    "keepalives_count": "9",
                                                    "connect_timeout": "4"}
    assert server.connection_defaults(ServerAddress(address + "&keepalives=0")) == {
        "keepalives_idle": "20", "keepalives_interval": "10", "keepalives_count": "3",
        "connect_timeout": "10"}


def test_push_replace_keeps_a_servers_form_under_a_free_number_where_the_files_holds_it(
        club, tmp_path, capsys):
    """Record 0032: one form is the same form by its side and the number written in it, or by
    its whole content where it has none. The file holds, under number 1, a French form of
    another number than the server's form 1, and the server's content-only form 2 as well:
    ``push --replace`` keeps the server's form 1 under the next free number, 3, and not its
    form 2, which the file has."""
    address, logins = club
    with PlayerSeat(as_login(address, logins["French"])) as seat:
        form = packet.order_form(seat.view())
        assert seat.submit(form) == 1
        assert seat.submit({"side": "French", "orders": "advance!"}) == 2
    pulled = str(tmp_path / "pulled.c1813")
    assert main(["pull", address, pulled]) == 0
    other = {**form, "number": "another"}
    write_raw(pulled, "UPDATE submitted_orders SET form = ? WHERE id = 1", (json.dumps(other),))
    capsys.readouterr()
    assert main(["push", pulled, address, "--replace"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "kept 1 order form of the server's, waiting and not in the file (form 3): take it "
        "with import-orders URL --submitted")
    with open_store(address) as doc:
        with doc.read() as reader:
            forms = [(f.id, f.form.get("number"), f.form.get("orders"), f.taken)
                     for f in reader.submitted_forms(False)]
    orders = json.loads(json.dumps(form["orders"]))
    assert forms == [(1, "another", orders, ""), (2, None, "advance!", ""),
                     (3, form["number"], orders, "")]
