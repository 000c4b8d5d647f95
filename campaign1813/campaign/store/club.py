"""Who is let into a club's server campaign, and to what: roles, the sides' views and the orders
the players submit, held by PostgreSQL itself (GRANTs and row-level security).

Three group roles serve every campaign of a database's server: ``c1813_umpire``,
``c1813_player`` and ``c1813_observer``. A login is let into one campaign by USAGE on its schema
and by a row of the registry's ``c1813.members`` naming what he is there: ``umpire``, a side
(``French``, ``Allied``) or ``observer``. The groups' privileges on a campaign's tables are
these:

- the umpire's group: every table of the campaign (he runs it);
- a player's group: SELECT on ``side_view`` and SELECT, INSERT on ``submitted_orders``, and
  nothing on the master tables (the state, the log, the reports, the keys);
- the observer's group: SELECT on ``side_view``.

Row-level security narrows those to the rows each may have: a player reads his own side's view
and submits and reads his own side's orders only; an observer reads both sides' views; the
umpire reads and marks every submitted form. The policies ask ``c1813.member_role(campaign)``,
a function that reads the registry's row of the session's login (players are granted nothing of
the registry itself).

``submitted_orders`` is a table of the campaign itself (schema 10, record 0032: the file keeps
it too, and ``push``/``pull`` copy it); here it gets its row-level security and what a player's
INSERT leaves out. ``side_view`` holds each side's ``SideView`` as JSON
(``day.sideview.view_json``), written by the umpire's actions: once a player or an observer is
let in, every committed unit of work refreshes both rows in its own transaction
(``refresh_side_views``), so a player never reads a view older or newer than the campaign (a
campaign of umpires alone writes none).
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable
from datetime import date
from typing import Any, NamedTuple

import msgspec
from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from campaign1813.campaign.day import fog
from campaign1813.campaign.day.ground import Ground
from campaign1813.campaign.day.sideview import SideView, view_json
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.codec import read_campaign, read_state
from campaign1813.campaign.store.protocol import SubmittedForm, side_journals
from campaign1813.campaign.store.work import FileReader
from campaign1813.maps.types import MapData

__all__ = ["CLUB_TABLES", "GROUPS", "MEMBER_ROLES", "ClubRefused", "Member", "MemberChange",
           "Removal", "SubmittedForm", "add_member", "check_login", "club_tables_exist",
           "grant_members_again",
           "has_readers", "lay_out_club", "lay_out_roles", "map_from_json", "may_manage",
           "member_changes", "members", "refresh_side_views", "refuse_unless_managing",
           "remove_member",
           "view_from_json"]

REGISTRY = "c1813"
UMPIRE, PLAYER, OBSERVER = "c1813_umpire", "c1813_player", "c1813_observer"
GROUPS = (UMPIRE, PLAYER, OBSERVER)
# what a member is in one campaign, and the group his login joins for it
MEMBER_ROLES = {"umpire": UMPIRE, "French": PLAYER, "Allied": PLAYER, "observer": OBSERVER}
# the server's own tables of a campaign, beside the file's (never pushed nor pulled); the
# players' submitted forms are a table of the file's own (``submitted_orders``, schema 10)
CLUB_TABLES = ("public_map", "side_view")
_LOGIN = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class ClubRefused(CampaignError):
    """A member cannot be let in, or a submitted form cannot be taken; the reason is named."""


def check_login(name: str) -> str:
    """A login's name as the server's role: lower-case letters, digits, underscores."""
    if not _LOGIN.fullmatch(name) or name.startswith(("pg_", "c1813_")):
        raise ClubRefused(f"{name!r:.70} is not a login's name for a club's server: lower-case "
                          "letters, digits and underscores, at most 63, not beginning pg_ or "
                          "c1813_")
    return name


def _exec(con: Connection, sql: str, params: tuple[Any, ...] = ()) -> Any:
    return con.exec_driver_sql(sql, params)


def _formatted(con: Connection, template: str, *values: str) -> str:
    """A statement with names and literals quoted by the server itself (``format``'s %I, %L)."""
    marks = ", ".join("%s::text" for _ in values)
    return str(_exec(con, f"SELECT format(%s::text, {marks})", (template, *values)).scalar_one())


def lay_out_roles(con: Connection) -> None:
    """The three group roles, the registry of members and ``c1813.member_role`` (again
    harmless: once made, left as they are); in the caller's transaction."""
    have = {r[0] for r in _exec(con, "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s)",
                                (list(GROUPS),))}
    made = _exec(con, f"SELECT to_regprocedure('{REGISTRY}.member_role(text)') IS NOT NULL AND "
                      f"to_regclass('{REGISTRY}.members') IS NOT NULL AND "
                      f"to_regclass('{REGISTRY}.member_log') IS NOT NULL").scalar_one()
    if made and have == set(GROUPS):
        return
    for group in GROUPS:
        if group not in have:
            _exec(con, f"CREATE ROLE {group} NOLOGIN")
    _exec(con, f"CREATE TABLE IF NOT EXISTS {REGISTRY}.members (login text NOT NULL, "
               "campaign text NOT NULL, role text NOT NULL CHECK (role IN ('umpire', 'French', "
               "'Allied', 'observer')), PRIMARY KEY (login, campaign))")
    # every member let in or taken out, by whom and when: the campaign's audit of its members
    _exec(con, f"CREATE TABLE IF NOT EXISTS {REGISTRY}.member_log (id bigserial PRIMARY KEY, "
               "campaign text NOT NULL, login text NOT NULL, change text NOT NULL, "
               "made_by text NOT NULL DEFAULT session_user, "
               "made timestamptz NOT NULL DEFAULT now())")
    # the session's own login (not the function's owner): what he is in one campaign
    _exec(con, f"CREATE OR REPLACE FUNCTION {REGISTRY}.member_role(campaign_name text) "
               "RETURNS text LANGUAGE sql STABLE SECURITY DEFINER "
               f"SET search_path = pg_catalog, {REGISTRY} AS $$ SELECT role FROM "
               f"{REGISTRY}.members WHERE login = session_user AND campaign = campaign_name "
               "$$")
    _exec(con, f"REVOKE ALL ON FUNCTION {REGISTRY}.member_role(text) FROM PUBLIC")
    _exec(con, f"REVOKE ALL ON ALL TABLES IN SCHEMA {REGISTRY} FROM PUBLIC")
    for group in GROUPS:
        _exec(con, f"GRANT USAGE ON SCHEMA {REGISTRY} TO {group}")
        _exec(con, f"GRANT EXECUTE ON FUNCTION {REGISTRY}.member_role(text) TO {group}")
    # an umpire's unit of work holds its campaign's row, and counts its commit there; it asks
    # whether the campaign has players to write the sides' views for
    _exec(con, f"GRANT SELECT, UPDATE ON {REGISTRY}.campaigns TO {UMPIRE}")
    _exec(con, f"GRANT SELECT ON {REGISTRY}.members, {REGISTRY}.member_log TO {UMPIRE}")


def lay_out_club(con: Connection, schema: str, campaign: str) -> None:
    """A campaign's own tables for its members (``side_view``, ``submitted_orders``), their
    policies and the groups' privileges (again harmless); in the caller's transaction, the
    campaign's schema first on its search path."""
    lay_out_roles(con)
    _exec(con, "CREATE TABLE IF NOT EXISTS side_view (side text PRIMARY KEY, day date NOT NULL, "
               "view jsonb NOT NULL, digest text NOT NULL)")
    _exec(con, "CREATE TABLE IF NOT EXISTS public_map (id int PRIMARY KEY CHECK (id = 1), "
               "map jsonb NOT NULL)")
    # the file's own table (revision 0010), made here too for a campaign of an older schema
    # its members are let into before it is opened and upgraded
    _exec(con, "CREATE TABLE IF NOT EXISTS submitted_orders (id serial PRIMARY KEY, "
               "side varchar NOT NULL, form varchar NOT NULL, login varchar NOT NULL, "
               "made varchar NOT NULL, taken varchar NOT NULL DEFAULT '')")
    # what a player's INSERT leaves out: his login and the server's time
    _exec(con, "ALTER TABLE submitted_orders ALTER COLUMN login SET DEFAULT session_user, "
               "ALTER COLUMN made SET DEFAULT now()::text")
    member = _formatted(con, f"{REGISTRY}.member_role(%L)", campaign)
    policies = {
        "side_view": [
            ("reads_own_side", f"FOR SELECT USING (side = {member} OR {member} IN "
                               "('observer', 'umpire'))"),
            ("umpire_writes", f"FOR ALL USING ({member} = 'umpire')"),
        ],
        "submitted_orders": [
            ("submits_own_side", f"FOR INSERT WITH CHECK (side = {member} AND "
                                 "login = session_user AND taken = '')"),
            ("reads_own_side", f"FOR SELECT USING (side = {member} OR {member} = 'umpire')"),
            ("umpire_marks", f"FOR UPDATE USING ({member} = 'umpire')"),
        ],
    }
    for table, rules in policies.items():
        _exec(con, f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        for name, rule in rules:
            _exec(con, f"DROP POLICY IF EXISTS {name} ON {table}")
            _exec(con, f"CREATE POLICY {name} ON {table} {rule}")
    _exec(con, f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM PUBLIC")
    _exec(con, f"GRANT ALL ON ALL TABLES IN SCHEMA {schema} TO {UMPIRE}")
    _exec(con, f"GRANT ALL ON ALL SEQUENCES IN SCHEMA {schema} TO {UMPIRE}")
    _exec(con, f"GRANT SELECT ON side_view, public_map TO {PLAYER}, {OBSERVER}")
    _exec(con, f"GRANT SELECT, INSERT (side, form) ON submitted_orders TO {PLAYER}")
    _exec(con, f"GRANT USAGE ON SEQUENCE submitted_orders_id_seq TO {PLAYER}")


def club_tables_exist(db: sqlite3.Connection) -> bool:
    """Whether the campaign's schema has its members' tables (a campaign pushed before them
    has not, until a member is let in)."""
    row = db.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                     "current_schema() AND table_name IN ('public_map', 'side_view')"
                     ).fetchone()
    return row is not None and int(row[0]) == len(CLUB_TABLES)


def has_readers(db: sqlite3.Connection, campaign: str) -> bool:
    """Whether anyone but an umpire is let into the campaign (someone to read the sides'
    views): a campaign of umpires alone pays nothing for them."""
    row = db.execute(f"SELECT EXISTS (SELECT 1 FROM {REGISTRY}.members WHERE campaign = ? AND "
                     "role <> 'umpire')", (campaign,)).fetchone()
    return row is not None and bool(row[0])


def add_member(con: Connection, schema: str, campaign: str, login: str, role: str,
               password: str | None) -> bool:
    """Let a login into one campaign as ``role`` (umpire, French, Allied or observer), making
    the login if it is new (with ``password``); True if the login was made. Refused (nothing
    changed) for a session that is no umpire of the campaign. In the caller's transaction."""
    check_login(login)
    if role not in MEMBER_ROLES:
        raise ClubRefused(f"{role!r:.40} is not what a member can be: umpire, French, Allied or "
                          "observer")
    lay_out_roles(con)
    refuse_unless_managing(con, schema, campaign, "let members in")
    lay_out_club(con, schema, campaign)
    row = _exec(con, "SELECT rolsuper, rolcanlogin FROM pg_roles WHERE rolname = %s",
                (login,)).first()
    made = row is None
    if made:
        if not password:
            raise ClubRefused(f"{login}: a new login needs a password")
        _exec(con, _formatted(con, "CREATE ROLE %I LOGIN PASSWORD %L", login, password))
    elif row[0]:
        raise ClubRefused(f"{login}: a superuser passes every check; let in an ordinary login")
    elif password:
        _exec(con, _formatted(con, "ALTER ROLE %I PASSWORD %L", login, password))
    was = _exec(con, f"SELECT role FROM {REGISTRY}.members WHERE login = %s AND campaign = %s",
                (login, campaign)).first()
    if was is not None and was[0] != role:
        raise ClubRefused(f"{login} is the {was[0]} of the campaign {campaign!r} already; a login "
                          "is one thing in a campaign")
    _exec(con, _formatted(con, "GRANT %I TO %I", MEMBER_ROLES[role], login))
    _exec(con, _formatted(con, "GRANT USAGE ON SCHEMA %I TO %I", schema, login))
    joined = _exec(con, f"INSERT INTO {REGISTRY}.members (login, campaign, role) VALUES (%s, "
                        "%s, %s) ON CONFLICT DO NOTHING", (login, campaign, role)).rowcount
    if joined:
        _log(con, campaign, login, f"let in as {_shown(role)}" + (" (login made)" if made
                                                                   else ""))
    return made


def grant_members_again(con: Connection, schema: str, campaign: str) -> None:
    """Each member's USAGE of the campaign's schema, given again where the schema was made
    anew (a push in place of the campaign drops the old one with its grants); in the caller's
    transaction."""
    for (login,) in _exec(con, f"SELECT login FROM {REGISTRY}.members WHERE campaign = %s "
                               "ORDER BY login", (campaign,)).fetchall():
        _exec(con, _formatted(con, "GRANT USAGE ON SCHEMA %I TO %I", schema, login))


def _shown(role: str) -> str:
    """What a member is, in words: the umpire, the French' player, an observer."""
    return {"umpire": "an umpire", "observer": "an observer"}.get(role, f"the {role}' player")


def _log(con: Connection, campaign: str, login: str, change: str) -> None:
    _exec(con, f"INSERT INTO {REGISTRY}.member_log (campaign, login, change) VALUES (%s, %s, "
               "%s)", (campaign, login, change))


class Member(NamedTuple):
    """A login let into a campaign, and what he is there."""

    login: str
    role: str


class MemberChange(NamedTuple):
    """One entry of a campaign's audit of its members: who was let in or taken out, how,
    by whom and when (the server's time, ISO)."""

    login: str
    change: str
    made_by: str
    made: str


class Removal(NamedTuple):
    """What taking a member out of a campaign did: what he was, whether his login was dropped
    from the server, and if not, why it was kept."""

    login: str
    role: str
    dropped: bool
    kept_because: str = ""


def members(con: Connection, campaign: str) -> list[Member]:
    """The logins let into a campaign: its umpires first, then the sides' players, then its
    observers, each by name."""
    order = "CASE role WHEN 'umpire' THEN 0 WHEN 'French' THEN 1 WHEN 'Allied' THEN 2 ELSE 3 END"
    rows = _exec(con, f"SELECT login, role FROM {REGISTRY}.members WHERE campaign = %s "
                      f"ORDER BY {order}, login", (campaign,)).fetchall()
    return [Member(str(r[0]), str(r[1])) for r in rows]


def member_changes(con: Connection, campaign: str) -> list[MemberChange]:
    """A campaign's audit of its members, oldest first."""
    rows = _exec(con, f"SELECT login, change, made_by, made FROM {REGISTRY}.member_log WHERE "
                      "campaign = %s ORDER BY id", (campaign,)).fetchall()
    return [MemberChange(str(r[0]), str(r[1]), str(r[2]), r[3].isoformat(timespec="seconds"))
            for r in rows]


def may_manage(con: Connection, schema: str, campaign: str) -> bool:
    """Whether the session's login may change who is in a campaign: an umpire of it, the owner
    of its schema (who pushed it) or the server's superuser."""
    row = _exec(con, "SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) OR "
                     "EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = %s AND "
                     "nspowner = (SELECT oid FROM pg_roles WHERE rolname = session_user)) OR "
                     # a member's own row, through the function every member may call
                     f"CASE WHEN has_function_privilege('{REGISTRY}.member_role(text)', "
                     f"'EXECUTE') THEN {REGISTRY}.member_role(%s) = 'umpire' ELSE false END",
                (schema, campaign)).scalar_one()
    return bool(row)


def refuse_unless_managing(con: Connection, schema: str, campaign: str, doing: str) -> None:
    """Refuse (``ClubRefused``, naming the login) a session that may not change who is in a
    campaign (``may_manage``): letting members in and taking them out alike."""
    if not may_manage(con, schema, campaign):
        who = str(_exec(con, "SELECT session_user").scalar_one())
        raise ClubRefused(f"{who} is not an umpire of the campaign {campaign!r}: only its "
                          f"umpires {doing}")


def remove_member(con: Connection, schema: str, campaign: str, login: str) -> Removal:
    """Take a login out of a campaign: his row, his USAGE of its schema, and his group unless
    another campaign still needs it; the login itself is dropped only if it belongs to no other
    campaign of the server. Refused (nothing changed) for no such member, for the last umpire,
    and for a session that is no umpire of the campaign. In the caller's transaction."""
    check_login(login)
    lay_out_roles(con)
    refuse_unless_managing(con, schema, campaign, "take members out")
    # two changes of one campaign's members wait for each other (two removals of its last two
    # umpires cannot both go)
    _exec(con, "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"{REGISTRY} members {campaign}",))
    rows = dict(_exec(con, f"SELECT login, role FROM {REGISTRY}.members WHERE campaign = %s",
                      (campaign,)).fetchall())
    role = rows.get(login)
    if role is None:
        raise ClubRefused(f"{login} is no member of the campaign {campaign!r}")
    if role == "umpire" and sum(r == "umpire" for r in rows.values()) == 1:
        raise ClubRefused(f"{login} is the last umpire of the campaign {campaign!r}: let "
                          "another umpire in before taking him out")
    _exec(con, f"DELETE FROM {REGISTRY}.members WHERE login = %s AND campaign = %s",
          (login, campaign))
    _exec(con, _formatted(con, "REVOKE ALL ON SCHEMA %I FROM %I", schema, login))
    others = [r for r in _exec(con, f"SELECT campaign, role FROM {REGISTRY}.members WHERE "
                                    "login = %s ORDER BY campaign", (login,)).fetchall()]
    # privileges held in another database of the server: a campaign there may need him
    elsewhere = bool(_exec(con, "SELECT EXISTS (SELECT 1 FROM pg_shdepend WHERE refclassid = "
                                "'pg_authid'::regclass AND refobjid = (SELECT oid FROM pg_roles "
                                "WHERE rolname = %s) AND dbid NOT IN (0, (SELECT oid FROM "
                                "pg_database WHERE datname = current_database())))",
                           (login,)).scalar_one())
    group = MEMBER_ROLES[role]
    if not elsewhere and all(MEMBER_ROLES[str(r[1])] != group for r in others):
        _exec(con, _formatted(con, "REVOKE %I FROM %I", group, login))
    kept = ""
    if others:
        kept = "a member of " + ", ".join(f"{r[0]!r}" for r in others)
    elif elsewhere:
        kept = "it holds privileges in another database of the server"
    else:
        _exec(con, "SAVEPOINT drop_login")
        try:
            _exec(con, _formatted(con, "DROP ROLE %I", login))
        except DBAPIError as exc:
            _exec(con, "ROLLBACK TO SAVEPOINT drop_login")
            said = (str(getattr(exc, "orig", exc)).splitlines() or [""])[0]
            kept = f"the server keeps it ({said})"
        else:
            _exec(con, "RELEASE SAVEPOINT drop_login")
    _log(con, campaign, login, f"taken out (was {_shown(role)}); login "
                               + (f"kept: {kept}" if kept else "dropped"))
    return Removal(login, role, not kept, kept)


def refresh_side_views(db: sqlite3.Connection, ground: Callable[[], Ground]) -> None:
    """Write both sides' views of the campaign as it now stands (in the action's transaction,
    so a player reads them exactly when the action is committed)."""
    state = read_state(db)
    name, first, _today = read_campaign(db)
    base = ground()
    moves = side_journals(FileReader(db), base, first, state,
                          state.date)
    if db.execute("SELECT 1 FROM public_map").fetchone() is None:  # the road map, once
        db.execute("INSERT INTO public_map (id, map) VALUES (1, ?::jsonb)",
                   (msgspec.json.encode(base.scenario.map).decode(),))
    adjusted = base.adjusted(state.settings)
    kept = dict(db.execute("SELECT side, digest FROM side_view").fetchall())
    for side in Side:
        view = fog.side_view(adjusted, state, side, name, moves=moves[side])
        text = json.dumps(view_json(view), ensure_ascii=False)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if kept.get(side.value) == digest:
            continue  # the side sees nothing new (an order of the other side's, say)
        db.execute("INSERT INTO side_view (side, day, view, digest) VALUES (?, ?, ?::jsonb, ?) "
                   "ON CONFLICT (side) DO UPDATE SET day = excluded.day, view = excluded.view, "
                   "digest = excluded.digest",
                   (side.value, date.fromisoformat(view.day.isoformat()), text, digest))


def map_from_json(text: str | bytes) -> MapData:
    """The public road map as ``public_map`` keeps it."""
    return msgspec.json.decode(text, type=MapData)


def view_from_json(text: str | bytes) -> SideView:
    """A side's view as ``side_view`` keeps it."""
    return msgspec.json.decode(text, type=SideView)
