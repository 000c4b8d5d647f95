"""Campaigns on a PostgreSQL server: the second implementation of the ``CampaignStore`` protocol.

A server campaign is named by an address whose path is the database and whose query names the
campaign, ``postgresql://user@host:port/club?campaign=spring-1813`` (libpq's ``host=`` and
``port=`` work in the query too, for a socket folder). One database holds many campaigns: each
campaign is a schema of its own (``campaign_spring_1813``) with the file's very tables, laid out
by the file's alembic revisions, and one row in the registry ``c1813.campaigns``. Every unit of
work is one transaction that first locks its campaign's registry row (``SELECT … FOR UPDATE``,
waiting at most a few seconds, then refused as busy), so two umpires never interleave, and
nothing of an action whose client dies mid-way is kept. A read is one repeatable-read
transaction: one consistent campaign.

The day's state, the log, the battles in progress and the audit are the file's own code
(``store.codec``, ``store.log``, ``store.fights``, ``store.work``, ``store.audit``), run over
``ServerConnection``: the few calls of a sqlite3 connection they make, done through SQLAlchemy
Core on psycopg 3, with the file's question marks as psycopg's placeholders and dates given back
as the file's ISO text. So the two stores cannot drift: the one contract suite
(``tests/store/test_contract.py``) runs every behaviour on both.

SQLAlchemy and psycopg are imported by this module alone, which only an address opens.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from alembic import command
from alembic.config import Config
from msgspec import structs
from sqlalchemy import Boolean, Connection, Date, create_engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from campaign1813.campaign.day.ground import Ground
from campaign1813.campaign.day.sideview import SideView
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.address import is_address
from campaign1813.campaign.store.audit import audit
from campaign1813.campaign.store.club import (
    Member,
    MemberChange,
    Removal,
    SubmittedForm,
    club_tables_exist,
    grant_members_again,
    has_readers,
    lay_out_club,
    lay_out_roles,
    map_from_json,
    member_changes,
    members,
    refresh_side_views,
    view_from_json,
)
from campaign1813.campaign.store.club import add_member as club_add_member
from campaign1813.campaign.store.club import remove_member as club_remove_member
from campaign1813.campaign.store.codec import read_campaign
from campaign1813.campaign.store.document import (
    SUFFIX,
    CampaignDocument,
    connect,
    open_campaign,
    refuse_campaign_target,
)
from campaign1813.campaign.store.migrate import SCRIPTS, create_layout
from campaign1813.campaign.store.notice import Notice, notice_of, payload, read_payload
from campaign1813.campaign.store.protocol import (
    FIGHT_STEP,
    CampaignBusy,
    CampaignReader,
    CampaignStore,
    CampaignSummary,
    UnitOfWork,
)
from campaign1813.campaign.store.scenario import read_scenario, stored_key
from campaign1813.campaign.store.schema import SQLModel
from campaign1813.campaign.store.version import SCHEMA_VERSION, TABLES
from campaign1813.campaign.store.work import FileReader, FileWork
from campaign1813.maps.types import MapData

if TYPE_CHECKING:
    from campaign1813.campaign.day.changes import Changes
    from campaign1813.campaign.day.cycle import DayReport
    from campaign1813.campaign.scenario.types import Scenario
    from campaign1813.campaign.store.protocol import LogEntry, LogStep

__all__ = ["BUSY_SECONDS", "CHANNEL", "CONNECT_SECONDS", "KEEPALIVE_COUNT", "KEEPALIVE_IDLE",
           "KEEPALIVE_INTERVAL", "REGISTRY", "CampaignServerError", "ChangeListener",
           "PlayerSeat", "Pushed", "ServerAddress", "ServerCampaign", "ServerConnection",
           "add_member", "connection_defaults", "init_server", "list_members",
           "open_server_campaign", "parameters_of", "pull_campaign",
           "push_campaign", "remove_member"]

BUSY_SECONDS = 5.0  # as long as a file waits for another writer
REGISTRY = "c1813"  # the schema of the campaigns' registry
T = TypeVar("T")
CHANNEL = "c1813_changed"  # each commit's "campaign token what-changed" (store.notice)
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
# the file's tables in an order that copies them whole (no table refers to another)
_COPIED = tuple(sorted(TABLES))
_BUSY_STATES = ("55P03", "40P01")  # lock not available, deadlock detected
# a silent server is noticed after KEEPALIVE_IDLE + KEEPALIVE_COUNT * KEEPALIVE_INTERVAL = 50 s
KEEPALIVE_IDLE = 20
KEEPALIVE_INTERVAL = 10
KEEPALIVE_COUNT = 3
CONNECT_SECONDS = 10


class CampaignServerError(CampaignError):
    """A server campaign cannot be opened, written or copied; the message names it and why."""

    def __init__(self, address: object, reason: str) -> None:
        self.address = address
        self.reason = reason
        super().__init__(f"{address}: {reason}")


class ServerAddress:
    """A server campaign's address: libpq's connection string, and the campaign's name.

    ``str()`` shows it without its password, as every message does."""

    def __init__(self, text: str) -> None:
        if not is_address(text):
            raise CampaignServerError(text, "is not a server campaign's address (it begins "
                                            "postgresql://)")
        parts = urlsplit(text)
        query = parse_qsl(parts.query, keep_blank_values=True)
        names = [v for k, v in query if k == "campaign"]
        kept = [(k, v) for k, v in query if k != "campaign"]
        self.conninfo = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(kept), ""))
        netloc = parts.netloc
        if parts.password is not None:
            netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
        shown = [(k, "***" if k == "password" else v) for k, v in query]
        self.shown = urlunsplit(("postgresql", netloc, parts.path,
                                 urlencode(shown, safe="/*"), ""))
        if len(names) != 1:
            raise CampaignServerError(self, "names no campaign: end it with ?campaign=NAME, "
                                            "e.g. ?campaign=spring-1813")
        self.campaign = check_campaign_name(names[0], self)
        self.schema = "campaign_" + self.campaign.replace("-", "_")

    def __str__(self) -> str:
        return self.shown


def check_campaign_name(name: str, where: object) -> str:
    """A server campaign's name: lower-case letters, digits and hyphens, at most 40."""
    if not _NAME.fullmatch(name) or "--" in name:
        raise CampaignServerError(where, f"the campaign's name {name!r:.60} is not a server "
                                         "campaign's name: lower-case letters, digits and single "
                                         "hyphens, at most 40, e.g. spring-1813")
    return name


class _Row(tuple[Any, ...]):
    """A row read the way the file's code reads one: by place, or by its column's name."""

    _names: dict[str, int]

    def __new__(cls, values: Iterable[Any], names: dict[str, int]) -> _Row:
        row = super().__new__(cls, values)
        row._names = names
        return row

    def keys(self) -> list[str]:
        """The row's column names, in order."""
        return list(self._names)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self._names[key])
        return super().__getitem__(key)


class _Cursor:
    """What an execute gives back: its rows, read once."""

    def __init__(self, rows: list[_Row]) -> None:
        self._rows = rows
        self._at = 0

    def fetchone(self) -> _Row | None:
        """The next row, or None."""
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[_Row]:
        """The rows not read yet."""
        rows, self._at = self._rows[self._at:], len(self._rows)
        return rows

    def __iter__(self) -> Iterator[_Row]:
        while (row := self.fetchone()) is not None:
            yield row


# The file's questions about its own layout, asked of the campaign's schema.
_TABLE_INFO = re.compile(r"PRAGMA table_info\((\w+)\)")
_TABLES_SQL = "SELECT name FROM sqlite_master WHERE type='table'"


def _as_sqlite(exc: DBAPIError) -> Exception:
    """A row the server refuses (a constraint, a value of the wrong type) as the file's code
    knows such a refusal, ``sqlite3.DatabaseError`` (so a damaged log entry is reported the same
    on both stores); anything else (busy, the connection lost) as it came."""
    state = str(getattr(exc.orig, "sqlstate", "") or "")
    if state[:2] in ("22", "23", "42"):  # data exception, integrity, syntax or undefined name
        said = (str(exc.orig).splitlines() or [""])[0]
        return sqlite3.IntegrityError(said) if state[:2] == "23" else sqlite3.DatabaseError(said)
    return exc


def _plain(value: Any) -> Any:
    """A value as the file gives it back: a date as its ISO text."""
    return value.isoformat() if isinstance(value, date) else value


class ServerConnection:
    """The calls of a sqlite3 connection the file's store code makes, on one SQLAlchemy
    connection to the campaign's schema (which its search path names)."""

    row_factory: Any = None  # rows are always read by place and by name

    def __init__(self, con: Connection) -> None:
        self._con = con

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""
        return self._con.in_transaction()

    def _sql(self, sql: str) -> str:
        found = _TABLE_INFO.fullmatch(sql.strip())
        if found:
            return ("SELECT ordinal_position - 1, column_name FROM information_schema.columns "
                    f"WHERE table_schema = current_schema() AND table_name = '{found[1]}' "
                    "ORDER BY ordinal_position")
        if sql == _TABLES_SQL:
            return ("SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = current_schema()")
        return sql.replace("%", "%%").replace("?", "%s")  # psycopg's placeholders

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Cursor:
        """Run one statement with its values (question marks in the SQL)."""
        try:
            result = self._con.exec_driver_sql(self._sql(sql), tuple(params))
        except DBAPIError as exc:
            raise _as_sqlite(exc) from None
        if not result.returns_rows:
            return _Cursor([])
        names = {name: i for i, name in enumerate(result.keys())}
        return _Cursor([_Row((_plain(v) for v in row), names) for row in result])

    def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> _Cursor:
        """Run one statement once for each set of values."""
        rows = [tuple(p) for p in params]
        if rows:
            try:
                self._con.exec_driver_sql(self._sql(sql), rows)
            except DBAPIError as exc:
                raise _as_sqlite(exc) from None
        return _Cursor([])

    def as_sqlite(self) -> sqlite3.Connection:
        """This connection, typed as the file's code takes one (it makes only the calls above:
        ``execute``, ``executemany``, ``row_factory``, ``in_transaction``)."""
        return cast(sqlite3.Connection, self)


def connection_defaults(address: ServerAddress) -> dict[str, str]:
    """libpq's parameters every connection of the store is made with, less those the address's
    query gives itself (which win): TCP keepalives, so that a server gone silent (its machine
    off, the network cut) is noticed within about a minute of quiet — the first probe after
    ``KEEPALIVE_IDLE`` seconds, then ``KEEPALIVE_COUNT`` more ``KEEPALIVE_INTERVAL`` apart — and
    a wait of ``CONNECT_SECONDS`` at most to connect."""
    given = {k for k, _v in parse_qsl(urlsplit(address.conninfo).query)}
    wanted = {"keepalives": "1", "keepalives_idle": str(KEEPALIVE_IDLE),
              "keepalives_interval": str(KEEPALIVE_INTERVAL),
              "keepalives_count": str(KEEPALIVE_COUNT), "connect_timeout": str(CONNECT_SECONDS)}
    return {k: v for k, v in wanted.items() if k not in given}


def _pg_connect(address: ServerAddress, *, autocommit: bool = False,
                schema: str | None = None) -> psycopg.Connection[Any]:
    """A psycopg connection to the address's database with ``connection_defaults``, its search
    path the campaign's schema (if one is named), then the registry's."""
    extra: dict[str, Any] = dict(connection_defaults(address))
    extra["options"] = f"-c search_path={schema + ',' if schema else ''}{REGISTRY}"
    return psycopg.connect(address.conninfo, autocommit=autocommit, **extra)


def parameters_of(con: psycopg.Connection[Any]) -> dict[str, str]:
    """The libpq parameters a connection was made with (never its password)."""
    return dict(con.info.get_parameters())


def _engine(address: ServerAddress, schema: str | None) -> Any:
    """An engine of one connection at a time to the address's database, its search path the
    campaign's schema (then the registry's)."""
    def connect_once() -> psycopg.Connection[Any]:
        return _pg_connect(address, schema=schema)

    return create_engine("postgresql+psycopg://", creator=connect_once, poolclass=NullPool)


def _refused(address: ServerAddress, exc: Exception) -> CampaignError:
    """A server's refusal as the umpire is told it: busy, the connection lost, or its words."""
    orig = getattr(exc, "orig", exc)
    state = getattr(orig, "sqlstate", None)
    if state in _BUSY_STATES:
        return CampaignBusy(f"{address}: the campaign is busy in another window or program; "
                            "try again")
    said = (str(orig).splitlines() or [""])[0]
    if isinstance(exc, DBAPIError) and exc.connection_invalidated or state is None \
            or str(state).startswith("08"):
        return CampaignServerError(address, f"the server cannot be reached ({said}); nothing of "
                                            "the action was kept; try again")
    return CampaignServerError(address, f"the server refused it ({said})")


def _connect(address: ServerAddress, schema: str | None) -> tuple[Any, Connection]:
    engine = _engine(address, schema)
    try:
        return engine, engine.connect()
    except DBAPIError as exc:
        engine.dispose()
        raise _refused(address, exc) from None


def init_server(address: str | ServerAddress) -> ServerAddress:
    """Make the database ready for campaigns: the registry of its campaigns (again harmless)."""
    address = address if isinstance(address, ServerAddress) else ServerAddress(address)
    engine, con = _connect(address, None)
    try:
        with con.begin():
            con.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {REGISTRY}")
            con.exec_driver_sql(
                f"CREATE TABLE IF NOT EXISTS {REGISTRY}.campaigns (name text PRIMARY KEY, "
                "schema_name text NOT NULL UNIQUE, writes bigint NOT NULL DEFAULT 0, "
                "made timestamptz NOT NULL DEFAULT now())")
            lay_out_roles(con)
    except DBAPIError as exc:
        raise _refused(address, exc) from None
    finally:
        con.close()
        engine.dispose()
    return address


class ChangeListener:
    """The commits others make to one campaign, as the server notifies them on a connection
    of the listener's own (``LISTEN``): no reading of the campaign until one comes. Its
    ``fileno`` becomes readable when a notification arrives; ``news`` then says what each
    commit of another's to this campaign changed (``store.notice``), never waiting. A dropped
    connection is refused as unreachable; ``reconnect`` listens again on a new one."""

    def __init__(self, address: ServerAddress, token: str) -> None:
        self.address = address
        self._token = token
        self._con = self._listening()

    def _listening(self) -> psycopg.Connection[Any]:
        try:
            con = _pg_connect(self.address, autocommit=True)
        except psycopg.Error as exc:
            raise _refused(self.address, exc) from None
        try:
            con.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as exc:
            con.close()
            raise _refused(self.address, exc) from None
        return con

    def fileno(self) -> int:
        """The connection's socket, readable when a notification has come."""
        return self._con.fileno()

    def news(self) -> list[Notice]:
        """What each commit another window, program or player has made to the campaign since
        last asked changed, oldest first (none if none)."""
        found = []
        try:
            for note in self._con.notifies(timeout=0):
                campaign, token, notice = read_payload(note.payload)
                if campaign == self.address.campaign and token != self._token:
                    found.append(notice)
        except psycopg.Error as exc:
            raise _refused(self.address, exc) from None
        return found

    def changed(self) -> bool:
        """Whether another window or program has committed to the campaign since last asked."""
        return bool(self.news())

    def reconnect(self) -> None:
        """Listen again on a new connection (the last was dropped); refused as unreachable if
        the server cannot be reached yet. What was committed meanwhile was not heard."""
        fresh = self._listening()
        self._con.close()
        self._con = fresh

    def parameters(self) -> dict[str, str]:
        """The libpq parameters the listening connection was made with (never its password)."""
        return parameters_of(self._con)

    def close(self) -> None:
        """Stop listening."""
        self._con.close()


class _TellingWork(FileWork):
    """The file's unit of work, keeping what its action changed for the commit's notice."""

    told: Changes | None = None
    form_told: Notice | None = None  # what became of a player's form, said to the windows

    def mark_submitted(self, number: int, outcome: str) -> None:
        super().mark_submitted(number, outcome)
        self.form_told = Notice(f"Form {number}: {outcome or 'taken'}", forms=True)

    def record(self, entry: LogEntry, report: DayReport | None = None) -> Changes:
        told = super().record(entry, report)
        # a step of a battle on the table: the window leaves its lines to the battle's window
        self.told = structs.replace(told, battle_step=True) if entry.kind == FIGHT_STEP else told
        return told

    def undo(self, expected: LogStep | None = None) -> Changes:
        self.told = super().undo(expected)
        return self.told

    def redo(self, expected: LogStep | None = None) -> Changes:
        self.told = super().redo(expected)
        return self.told


class ServerCampaign(CampaignStore):
    """An open server campaign: one connection to its database, transactions over it, and its
    scenario; the PostgreSQL implementation of the ``CampaignStore`` protocol."""

    def __init__(self, address: ServerAddress, engine: Any, con: Connection) -> None:
        self.address = address
        self.readonly = False
        self.busy_seconds = BUSY_SECONDS
        self._engine = engine
        self._con = con
        self._db = ServerConnection(con)
        self._own_writes = 0
        self._token = secrets.token_hex(8)  # this store's commits, in its notifications
        self._club = False  # whether the campaign has its members' tables (seen once)
        self._scenario: tuple[str, Scenario] | None = None
        self._ground: tuple[str, Ground] | None = None

    # -- transactions --------------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction (repeatable read): everything read in it is one campaign."""
        self._begin(lambda: self._con.exec_driver_sql(
            "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
        try:
            yield self._db.as_sqlite()
        except DBAPIError as exc:
            raise _refused(self.address, exc) from None
        finally:
            self._end()

    @contextmanager
    def writing(self, tell: Callable[[], Notice | None] | None = None,
                ) -> Iterator[tuple[sqlite3.Connection, Callable[[], None]]]:
        """One write transaction holding the campaign's row: committed on success (with the
        campaign's count of writes), rolled back on any error; a writer that cannot have the
        row within ``busy_seconds`` is refused as busy. Gives the connection and ``discard``,
        which ends it written nothing. The commit is notified with what ``tell`` says it
        changed (asked at the commit), or as changing the campaign whole."""
        discarded = False

        def discard() -> None:
            nonlocal discarded
            discarded = True

        def hold() -> Any:
            self._con.exec_driver_sql(
                f"SET LOCAL lock_timeout = '{int(self.busy_seconds * 1000)}ms'")
            return self._db.execute(f"SELECT writes FROM {REGISTRY}.campaigns WHERE name = ? "
                                    "FOR UPDATE", (self.address.campaign,)).fetchone()

        row = self._begin(hold)
        if row is None:
            self._end()
            raise CampaignServerError(self.address, "the campaign was removed from the server")
        try:
            yield self._db.as_sqlite(), discard
            if not discarded:
                db = self._db.as_sqlite()
                self._club = self._club or club_tables_exist(db)
                if self._club and has_readers(db, self.address.campaign):
                    # the sides' views, as this action leaves the campaign, for its players
                    refresh_side_views(db, self.ground)
                self._db.execute(f"UPDATE {REGISTRY}.campaigns SET writes = writes + 1 "
                                 "WHERE name = ?", (self.address.campaign,))
                # heard by every listener when (and only if) the commit is made
                told = tell() if tell is not None else None
                self._db.execute("SELECT pg_notify(?, ?)",
                                 (CHANNEL, payload(self.address.campaign, self._token, told)))
                self._con.commit()
                self._own_writes += 1
        except DBAPIError as exc:
            raise _refused(self.address, exc) from None
        finally:
            self._end()

    def _begin(self, first: Callable[[], Any]) -> Any:
        """Begin a transaction with its first statements; a connection that was dropped since
        the last transaction (the server restarted, the network went away) is made again once,
        since nothing of the action has run yet. Refused as busy, or as unreachable."""
        retried = False
        while True:
            try:
                self._con.begin()
                return first()
            except DBAPIError as exc:
                self._end()
                if exc.connection_invalidated and not retried:
                    retried = True
                    continue
                raise _refused(self.address, exc) from None

    def _end(self) -> None:
        """Roll back whatever is still open (nothing after a commit)."""
        try:
            if self._con.in_transaction():
                self._con.rollback()
        except DBAPIError:  # a lost connection rolled it back already
            pass

    @contextmanager
    def _maybe_reading(self) -> Iterator[sqlite3.Connection]:
        if self._con.in_transaction():
            yield self._db.as_sqlite()
        else:
            with self.reading() as con:
                yield con

    @contextmanager
    def read(self) -> Iterator[CampaignReader]:
        """One read transaction, as the store's protocol reads it."""
        with self.reading() as con:
            yield FileReader(con)

    @contextmanager
    def unit_of_work(self) -> Iterator[UnitOfWork]:
        """One write transaction for one action, as the store's protocol writes it."""
        work: _TellingWork | None = None

        def tell() -> Notice | None:
            if work is None:
                return None
            if work.told is not None:
                return notice_of(work.told)
            return work.form_told

        with self.writing(tell) as (con, discard):
            work = _TellingWork(con, lambda c: audit(c, self.ground), self.ground)
            yield work
            work.close()
            if not work.wrote:  # nothing changed: nothing is written, not even the count
                discard()

    # -- what the whole campaign shares ---------------------------------------------------------
    def scenario(self) -> Scenario:
        """The campaign's scenario, read once per content of its stored files."""
        with self._maybe_reading() as con:
            key = stored_key(con)
            if self._scenario is None or self._scenario[0] != key:
                self._scenario = read_scenario(con, writable=False)
        return self._scenario[1]

    def ground(self) -> Ground:
        """The road ground of the campaign's scenario, built once per scenario."""
        scenario = self.scenario()
        assert self._scenario is not None
        if self._ground is None or self._ground[0] != self._scenario[0]:
            self._ground = (self._scenario[0], Ground(scenario))
        return self._ground[1]

    def summary(self) -> CampaignSummary:
        """The campaign's name and dates."""
        with self._maybe_reading() as con:
            return CampaignSummary(*read_campaign(con))

    def settings(self) -> dict[str, Any]:
        """The campaign's settings as stored."""
        with self._maybe_reading() as con:
            text = con.execute("SELECT settings_json FROM campaign").fetchone()[0]
        try:
            return dict(json.loads(text))
        except (TypeError, ValueError, RecursionError):
            raise CampaignServerError(self.address, "is damaged: its settings are not a table "
                                                    "of names and values") from None

    def data_version(self) -> int:
        """The count of the campaign's commits made by others: it changes when another window
        or program writes the campaign."""
        with self._maybe_reading() as con:
            row = con.execute(f"SELECT writes FROM {REGISTRY}.campaigns WHERE name = ?",
                              (self.address.campaign,)).fetchone()
        return (int(row[0]) if row else 0) - self._own_writes

    @property
    def connection(self) -> Connection:
        """The store's SQLAlchemy connection (for laying out its tables)."""
        return self._con

    def listen(self) -> ChangeListener:
        """A listener told of every commit another window or program makes to this campaign
        (its own connection, to be watched with ``select`` or a socket notifier)."""
        return ChangeListener(self.address, self._token)

    def close(self) -> None:
        """Release the connection."""
        self._con.close()
        self._engine.dispose()

    def __enter__(self) -> ServerCampaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_server_campaign(address: str | ServerAddress) -> ServerCampaign:
    """Open a campaign on a server; its stored state and scenario are checked first, as a
    file's are."""
    address = address if isinstance(address, ServerAddress) else ServerAddress(address)
    engine, con = _connect(address, address.schema)
    store = ServerCampaign(address, engine, con)
    try:
        with store.reading() as db:
            row = db.execute(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND "
                "table_name = 'campaigns'", (REGISTRY,)).fetchone()
            if row is None:
                raise CampaignServerError(address, "the database holds no campaigns (make it "
                                                   "ready with 'campaign1813 server init URL')")
            row = db.execute(f"SELECT schema_name FROM {REGISTRY}.campaigns WHERE name = ?",
                             (address.campaign,)).fetchone()
            if row is None:
                raise CampaignServerError(address, f"the server has no campaign "
                                                   f"{address.campaign!r} (copy one there with "
                                                   "'campaign1813 push FILE URL')")
            version = _schema_version(store, db)
        if version < SCHEMA_VERSION:
            _upgrade(store, version)
        with store.reading() as db:
            try:
                audit(db, store.ground)
            except CampaignServerError:
                raise
            except CampaignError as exc:
                raise CampaignServerError(address, f"is damaged: {exc}") from None
    except BaseException:
        store.close()
        raise
    return store


def _schema_version(store: ServerCampaign, db: sqlite3.Connection) -> int:
    """The campaign's schema version, refused if a newer version of the program wrote it."""
    try:
        row = db.execute("SELECT schema_version FROM document").fetchone()
    except sqlite3.DatabaseError as exc:
        raise CampaignServerError(store.address, f"is damaged ({exc})") from None
    version = row[0] if row is not None else None
    if not isinstance(version, int) or version < 1:
        raise CampaignServerError(store.address, f"is damaged (its schema version is "
                                                 f"{version!r})")
    if version > SCHEMA_VERSION:
        raise CampaignServerError(
            store.address, f"was written by a newer version of campaign1813 (schema {version}; "
                           f"this version reads up to {SCHEMA_VERSION})")
    return version


def _upgrade(store: ServerCampaign, version: int) -> None:
    """Bring a campaign of an older schema version to the newest, in one transaction holding
    its row (PostgreSQL's changes of layout are transactional: all of it, or nothing)."""
    with store.writing() as (db, _discard):
        if _schema_version(store, db) < SCHEMA_VERSION:  # another program may have done it
            _lay_out(store.connection)
            read_scenario(db, writable=True)
            lay_out_club(store.connection, store.address.schema, store.address.campaign)


# -- moving a campaign whole between a file and a server ------------------------------------


def _server_value(column: Any, value: Any) -> Any:
    """A file's value as the server's column takes it (the file keeps 0/1 and ISO text)."""
    if value is None:
        return None
    if isinstance(column.type, Boolean):
        return bool(value)
    if isinstance(column.type, Date) and isinstance(value, str):
        return date.fromisoformat(value)
    return value


def _file_value(value: Any) -> Any:
    """A server's value as the file keeps it: a date as ISO text, a truth as 0 or 1."""
    if isinstance(value, bool):
        return int(value)
    return _plain(value)


class Pushed(NamedTuple):
    """What a push did: the campaign's address, and the numbers of the server's order forms
    still waiting that the file did not have, kept beside the file's (``--replace``)."""

    address: ServerAddress
    kept_forms: tuple[int, ...] = ()


def _form_key(side: str, form: str) -> tuple[str, str]:
    """What makes two rows one order form: its side and the number written in it (a form
    without one, by its whole content)."""
    try:
        data = json.loads(form)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("number"), str):
        return side, "number " + data["number"]
    return side, "content " + (json.dumps(data, sort_keys=True) if data is not None else form)


def _waiting_elsewhere(con: Connection, schema: str, file_forms: tuple[list[str], list[Any]]
                       ) -> list[tuple[Any, ...]]:
    """The server campaign's forms still waiting (none taken or refused yet) that the file's
    rows do not hold, as rows of the file's columns, oldest first; the file's win where both
    hold one form (with what became of it there)."""
    if con.exec_driver_sql("SELECT to_regclass(%s) IS NULL",
                           (f"{schema}.submitted_orders",)).scalar_one():
        return []
    # no player's form may come in between this reading and the campaign's replacing
    con.exec_driver_sql(f"LOCK TABLE {schema}.submitted_orders IN EXCLUSIVE MODE")
    names, rows = file_forms
    held = {_form_key(str(r[names.index("side")]), str(r[names.index("form")])) for r in rows}
    found = con.exec_driver_sql(
        f"SELECT id, side, form::text, login, made::text FROM {schema}.submitted_orders "
        "WHERE taken = '' ORDER BY id").fetchall()
    return [tuple(r) for r in found if _form_key(str(r[1]), str(r[2])) not in held]


def _put_back_forms(con: Connection, file_forms: tuple[list[str], list[Any]],
                    kept: list[tuple[Any, ...]]) -> tuple[int, ...]:
    """Insert the server's waiting forms kept after the file's own, each under its number on
    the server unless a form of the file has it (then the next free one); their numbers."""
    names, rows = file_forms
    used = {int(r[names.index("id")]) for r in rows}
    numbers = []
    for number, side, form, login, made in kept:
        if number in used:
            number = max(used) + 1
        used.add(number)
        numbers.append(number)
        con.exec_driver_sql("INSERT INTO submitted_orders (id, side, form, login, made, taken) "
                            "VALUES (%s, %s, %s, %s, %s, '')", (number, side, form, login, made))
    return tuple(numbers)


def push_campaign(path: str | Path, address: str | ServerAddress, *,
                  replace: bool = False) -> Pushed:
    """Copy a campaign file whole to a server as a new campaign (or in place of one of that
    name, if ``replace``), in one transaction: the server has all of it or nothing. Replacing
    keeps the server's order forms still waiting that the file does not have (record 0032)."""
    address = address if isinstance(address, ServerAddress) else ServerAddress(address)
    with open_campaign(path) as doc, doc.reading() as src:
        tables = {t: _sqlite_rows(src, t) for t in _COPIED}
        ground = doc.ground()
    init_server(address)
    engine, con = _connect(address, address.schema)
    try:
        with con.begin():
            db = ServerConnection(con)
            con.exec_driver_sql(f"SET LOCAL lock_timeout = '{int(BUSY_SECONDS * 1000)}ms'")
            # two pushes of one name wait for each other; other campaigns' actions do not
            db.execute("SELECT pg_advisory_xact_lock(hashtext(?))",
                       (f"{REGISTRY} push {address.campaign}",))
            there = db.execute(f"SELECT writes FROM {REGISTRY}.campaigns WHERE name = ? "
                               "FOR UPDATE", (address.campaign,)).fetchone()
            if there is not None and not replace:
                raise CampaignServerError(address, f"the server has a campaign "
                                                   f"{address.campaign!r} already; choose another "
                                                   "name (or replace it)")
            waiting = [] if there is None else _waiting_elsewhere(
                con, address.schema, tables["submitted_orders"])
            con.exec_driver_sql(f"DROP SCHEMA IF EXISTS {address.schema} CASCADE")
            con.exec_driver_sql(f"CREATE SCHEMA {address.schema}")
            _lay_out(con)
            for table, (names, rows) in tables.items():
                # the file's rows are the campaign: none a migration made (a side's key) stays
                con.exec_driver_sql(f"DELETE FROM {table}")
                _insert_server(con, table, names, rows)
            kept = _put_back_forms(con, tables["submitted_orders"], waiting)
            _restart_counters(db)
            lay_out_club(con, address.schema, address.campaign)
            grant_members_again(con, address.schema, address.campaign)
            refresh_side_views(db.as_sqlite(), lambda: ground)
            if there is None:
                db.execute(f"INSERT INTO {REGISTRY}.campaigns (name, schema_name) VALUES (?, ?)",
                           (address.campaign, address.schema))
            else:
                db.execute(f"UPDATE {REGISTRY}.campaigns SET writes = writes + 1 WHERE name = ?",
                           (address.campaign,))
                # the windows open on it read it again whole, at the commit
                db.execute("SELECT pg_notify(?, ?)",
                           (CHANNEL, payload(address.campaign, "push", None)))
    except DBAPIError as exc:
        raise _refused(address, exc) from None
    finally:
        con.close()
        engine.dispose()
    return Pushed(address, kept)


def _lay_out(con: Connection) -> None:
    """Run the file's alembic revisions in the campaign's schema (its search path's first)."""
    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    config.attributes["connection"] = con
    command.upgrade(config, "head")


def _sqlite_rows(con: sqlite3.Connection, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    cur = con.execute(f"SELECT * FROM {table}")
    names = [d[0] for d in cur.description]
    return names, [tuple(r) for r in cur.fetchall()]


def _insert_server(con: Connection, table: str, names: list[str],
                   rows: list[tuple[Any, ...]]) -> None:
    if not rows:
        return
    columns = SQLModel.metadata.tables[table].c
    quoted = ", ".join(f'"{n}"' for n in names)
    marks = ", ".join("%s" for _ in names)
    con.exec_driver_sql(f"INSERT INTO {table} ({quoted}) VALUES ({marks})",
                        [tuple(_server_value(columns[n], v) for n, v in zip(names, row,
                                                                             strict=True))
                         for row in rows])


def _restart_counters(db: ServerConnection) -> None:
    """Each serial column's counter past the rows copied in, as the file would number them."""
    for table in _COPIED:
        for column in SQLModel.metadata.tables[table].primary_key.columns:
            found = db.execute("SELECT pg_get_serial_sequence(?, ?)",
                               (table, column.name)).fetchone()
            if found and found[0]:
                db.execute(f'SELECT setval(?, coalesce((SELECT max("{column.name}") FROM '
                           f"{table}), 0) + 1, false)", (found[0],))


def pull_campaign(address: str | ServerAddress, path: str | Path, *,
                  overwrite: bool = False) -> Path:
    """Copy a server campaign whole into a new campaign file (laid out by the file's own
    revisions, written beside its destination and moved into place when complete)."""
    path = Path(path)
    if not path.name.endswith(SUFFIX):
        raise CampaignServerError(path, f"a campaign file's name must end in {SUFFIX}")
    refuse_campaign_target(path, "a copy")
    if path.exists() and not overwrite:
        raise CampaignServerError(path, "already exists; choose another name")
    with open_server_campaign(address) as store, store.reading() as db:
        tables = {}
        for table in _COPIED:
            cur = db.execute(f"SELECT * FROM {table}")
            rows = cur.fetchall()
            names = rows[0].keys() if rows else []
            tables[table] = (names, [tuple(_file_value(v) for v in r) for r in rows])
    tmp = path.absolute().with_name(path.name + f".{secrets.token_hex(4)}.part")
    try:
        create_layout(tmp)
        con = connect(tmp)
        try:
            con.execute("BEGIN IMMEDIATE")
            for table, (names, rows) in tables.items():
                con.execute(f"DELETE FROM {table}")  # the server's rows are the campaign
                if rows:
                    quoted = ", ".join(f'"{n}"' for n in names)
                    marks = ", ".join("?" for _ in names)
                    con.executemany(f"INSERT INTO {table} ({quoted}) VALUES ({marks})", rows)
            con.execute("COMMIT")
        finally:
            con.close()
        with CampaignDocument(tmp, connect(tmp, "ro"), readonly=True) as doc, \
                doc.reading() as check:
            audit(check, doc.ground)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


# -- a club's members: who is let in, and the orders the players submit --------------------


def add_member(address: str | ServerAddress, login: str, role: str,
               password: str | None = None) -> bool:
    """Let a login into a server campaign as its umpire, a side's player (French, Allied) or an
    observer, making the login if it is new; True if it was made. The roles and row-level
    security of ``store.club`` then hold him to what he may read and write."""
    address = address if isinstance(address, ServerAddress) else ServerAddress(address)
    with _members_transaction(address) as con:
        made = club_add_member(con, address.schema, address.campaign, login, role, password)
    with open_server_campaign(address) as store, store.writing():
        pass  # the sides' views written now, for the member just let in
    return made


@contextmanager
def _members_transaction(address: ServerAddress) -> Iterator[Connection]:
    """One transaction on the campaign's database for a change or a reading of its members,
    refused if the server has no such campaign."""
    engine, con = _connect(address, address.schema)
    try:
        with con.begin():
            # (a login that may not read the registry is refused by what he asks, as himself)
            readable = con.exec_driver_sql(
                f"SELECT has_table_privilege('{REGISTRY}.campaigns', 'SELECT')").scalar_one()
            if readable and con.exec_driver_sql(
                    f"SELECT 1 FROM {REGISTRY}.campaigns WHERE name = %s", (address.campaign,)
            ).first() is None:
                raise CampaignServerError(address, f"the server has no campaign "
                                                   f"{address.campaign!r}")
            yield con
    except DBAPIError as exc:
        raise _refused(address, exc) from None
    finally:
        con.close()
        engine.dispose()


def remove_member(address: str | ServerAddress, login: str) -> Removal:
    """Take a login out of a server campaign (``store.club.remove_member``): from then on the
    server refuses him its view and its orders; his login is dropped if no other campaign of
    the server has him."""
    address = address if isinstance(address, ServerAddress) else ServerAddress(address)
    with _members_transaction(address) as con:
        return club_remove_member(con, address.schema, address.campaign, login)


def list_members(address: str | ServerAddress) -> tuple[list[Member], list[MemberChange]]:
    """Who is let into a server campaign and as what, and its audit of members let in and
    taken out (oldest first)."""
    address = address if isinstance(address, ServerAddress) else ServerAddress(address)
    with _members_transaction(address) as con:
        logged = con.exec_driver_sql(f"SELECT to_regclass('{REGISTRY}.member_log') IS NOT NULL"
                                     ).scalar_one()  # a server laid out before the audit: none
        return (members(con, address.campaign),
                member_changes(con, address.campaign) if logged else [])


def _submitted(rows: Iterable[Any]) -> list[SubmittedForm]:
    return [SubmittedForm(int(r[0]), str(r[1]), r[2] if isinstance(r[2], dict) else
                          json.loads(r[2]), str(r[3]), str(r[4])) for r in rows]


class PlayerSeat:
    """A member's own seat at a server campaign, as his login: his side's view, the orders he
    submits and what became of them. Everything is read and written as he is, so the server's
    privileges and row-level security (``store.club``) are all that let him in.

    A connection the server dropped between two uses (a restart, the network gone) is made
    again once on the next use, as a server campaign's store does; a submission is either
    committed or not, and the player is told which."""

    def __init__(self, address: str | ServerAddress) -> None:
        self.address = address if isinstance(address, ServerAddress) else ServerAddress(address)
        self._token = secrets.token_hex(8)
        self._con = self._connect()
        try:
            row = self._con.execute(f"SELECT {REGISTRY}.member_role(%s)",
                                    (self.address.campaign,)).fetchone()
            self._con.rollback()
        except psycopg.Error as exc:
            self._close_quietly()
            raise _refused(self.address, exc) from None
        if row is None or row[0] is None:
            self._close_quietly()
            raise CampaignServerError(self.address, "this login is not a member of the "
                                                    "campaign (the umpire lets members in)")
        self.role = str(row[0])

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return _pg_connect(self.address, schema=self.address.schema)
        except psycopg.Error as exc:
            raise _refused(self.address, exc) from None

    def _close_quietly(self) -> None:
        con = getattr(self, "_con", None)
        if con is not None:
            con.close()

    def _dropped(self) -> bool:
        """Whether the seat's connection is gone (the server ended it, or the network)."""
        return bool(self._con.broken or self._con.closed)

    def _again(self) -> None:
        """A new connection in place of one the server dropped."""
        self._close_quietly()
        self._con = self._connect()

    def _read(self, sql: str) -> list[Any]:
        """The rows of one read, in a transaction of its own (the connection made again once,
        if it was dropped: a read changes nothing, so reading again is harmless)."""
        def read() -> list[Any]:
            rows = self._con.execute(sql).fetchall()
            self._con.rollback()
            return rows
        return self._once_more(read)

    def _once_more(self, step: Callable[[], T]) -> T:
        """``step`` run on the connection, and once more on a new one if the server had
        dropped it (nothing of the step ran); any other refusal rolled back and raised."""
        for retried in (False, True):
            try:
                return step()
            except psycopg.Error as exc:
                if self._dropped() and not retried:
                    self._again()
                    continue
                self._rollback_quietly()
                raise _refused(self.address, exc) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _rollback_quietly(self) -> None:
        if not self._dropped():
            self._con.rollback()

    @property
    def side(self) -> Side | None:
        """The member's side, or None for an umpire or an observer."""
        return next((s for s in Side if s.value == self.role), None)

    def views(self) -> dict[Side, SideView]:
        """The sides' views this member may read (his own side's; both for an observer)."""
        rows = self._read("SELECT side, view::text FROM side_view ORDER BY side")
        return {Side(r[0]): view_from_json(r[1]) for r in rows}

    def view(self) -> SideView:
        """The member's own side's view."""
        side = self.side
        if side is None:
            raise CampaignServerError(self.address, f"the {self.role} has no side of his own")
        found = self.views().get(side)
        if found is None:
            raise CampaignServerError(self.address, "the campaign has no view of the "
                                                    f"{side.value} yet")
        return found

    def public_map(self) -> MapData:
        """The campaign's road map (public: every member may draw it)."""
        rows = self._read("SELECT map::text FROM public_map")
        if not rows:
            raise CampaignServerError(self.address, "the campaign has no road map for its "
                                                    "members yet")
        return map_from_json(rows[0][0])

    def submit(self, form: dict[str, Any]) -> int:
        """Submit a filled order form of the member's side; its number among the submitted.

        A connection dropped since the last use is made again first. One dropped during the
        submission leaves it either committed (its number given) or not (refused, saying
        nothing was sent): which, the seat asks the server on a new connection."""
        side = self.side
        if side is None or str(form.get("side", "")) != side.value:
            raise CampaignServerError(self.address, f"the order form is the "
                                                    f"{form.get('side', '?')!s:.20}', and this "
                                                    f"login is the {self.role}'s")
        text = json.dumps(form, ensure_ascii=False)
        number = self._insert(side, text)
        try:
            told = Notice(f"Order form {number} of the {side.value}", forms=True)
            notify(self._con, payload(self.address.campaign, self._token, told))
            self._con.commit()
        except psycopg.Error as exc:
            if not self._dropped():
                self._con.rollback()
                raise _refused(self.address, exc) from None
            if self._kept(number):
                return number
            raise CampaignServerError(self.address, "the connection was lost before the order "
                                                    "form was kept; nothing was sent; try "
                                                    "again") from None
        return number

    def _insert(self, side: Side, text: str) -> int:
        """Insert a form (the connection made again once if it was dropped before: nothing
        of the submission had run); its number, not committed yet."""
        def insert() -> int:
            row = self._con.execute("INSERT INTO submitted_orders (side, form) VALUES "
                                    "(%s, %s::jsonb) RETURNING id", (side.value, text)
                                    ).fetchone()
            assert row is not None
            return int(row[0])
        return self._once_more(insert)

    def _kept(self, number: int) -> bool:
        """Whether a form whose commit was cut off was kept, asked on a new connection
        (refused as unreachable, saying it is not known, if the server cannot be reached)."""
        try:
            self._again()
            row = self._con.execute("SELECT 1 FROM submitted_orders WHERE id = %s",
                                    (number,)).fetchone()
            self._con.rollback()
        except (psycopg.Error, CampaignServerError):
            raise CampaignServerError(self.address, f"the connection was lost while the order "
                                                    f"form was sent, and the server cannot be "
                                                    f"reached to say whether it was kept (look "
                                                    f"for form {number} among those sent)") \
                from None
        return row is not None

    def submitted(self) -> list[SubmittedForm]:
        """The forms this member's side submitted, oldest first, with what became of each."""
        return _submitted(self._read("SELECT id, side, form::text, login, taken FROM "
                                     "submitted_orders ORDER BY id"))

    def listen(self) -> ChangeListener:
        """A listener told of every commit to the campaign (the umpire's actions, the forms
        submitted) made by others."""
        return ChangeListener(self.address, self._token)

    def parameters(self) -> dict[str, str]:
        """The libpq parameters the seat's connection was made with (never its password)."""
        return parameters_of(self._con)

    def close(self) -> None:
        """Leave the seat."""
        self._con.close()

    def __enter__(self) -> PlayerSeat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def notify(con: psycopg.Connection[Any], text: str) -> None:
    """Notify the campaigns' channel in a player's open transaction (heard at its commit)."""
    con.execute("SELECT pg_notify(%s, %s)", (CHANNEL, text))
