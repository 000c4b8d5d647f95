"""The campaign day's state to and from the file, through msgspec.

One mechanism for every entity: a row is validated into its frozen struct (``CommandState``,
``Order``, ``Battle``) by ``msgspec.convert``, and an entity is encoded into plain JSON values,
which are also what the event log keeps. A column holds its field's value, or the field's JSON
under ``<field>_json``; a position keeps its compact form (``[town]`` or ``[a, b, miles]``).
A row that does not validate is reported with its table, its key and the reason.

msgspec rather than pydantic here because every ``status`` pays for this at start-up: msgspec
imports and converts in a few milliseconds, where pydantic's import and its adapters' schema
building cost more than the rest of the command together.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable, Iterable
from datetime import date
from typing import Any, NamedTuple

import msgspec

from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.day.reports import Report
from campaign1813.campaign.day.settings import BY_NAME, shown
from campaign1813.campaign.day.state import Battle, CommandState, DayState, Order
from campaign1813.campaign.day.supply_state import SupplyState
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side

Json = dict[str, Any]
SECTIONS = ("commands", "orders", "battles", "control", "control_since", "reports",
            "imports")


class DamagedState(CampaignError):
    """A row of the campaign day that is not a valid command, order, battle or town."""


def iso_date(value: Any, where: str) -> date:
    """A date the file keeps as text like 1813-05-01; anything else is refused as damaged."""
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise DamagedState(f"{where} is damaged: {value!r:.80} is not a date like 1813-05-01")


def _day_info(row: sqlite3.Row | None) -> tuple[bool, int]:
    """Whether the day has marched, and the number of the next battle, as day_info keeps them."""
    if row is None:
        return False, 1
    marched, next_battle = row["marched"], row["next_battle"]
    if marched not in (0, 1) or isinstance(marched, float):
        raise DamagedState(f"day_info is damaged: marched {marched!r:.80} is neither 0 nor 1")
    if not isinstance(next_battle, int) or next_battle < 1:
        raise DamagedState(f"day_info is damaged: next_battle {next_battle!r:.80} is not a "
                           "whole number from 1 up")
    return bool(marched), next_battle


def _entity(kind: type, data: Json, where: str) -> Any:
    position = data.get("position")
    if isinstance(position, list) and 1 <= len(position) <= 3:
        data = {**data, "position": dict(zip(("a", "b", "miles"), position, strict=False))}
    try:
        value: Any = msgspec.convert(data, kind, strict=False)
    except msgspec.ValidationError as exc:
        raise DamagedState(f"{where}: {exc}") from None
    if isinstance(value, CommandState):
        _check_position(value.position, where)
    return value


def _check_position(pos: Position, where: str) -> None:
    if pos.b is not None and (not math.isfinite(pos.miles) or pos.miles < 0):
        raise DamagedState(f"{where}: a position's miles must be 0 or more, "
                           f"not {pos.miles}")


def _dump(value: Any) -> Json:
    data: Json = msgspec.json.decode(msgspec.json.encode(value))
    if isinstance(value, CommandState):
        data["position"] = value.position.to_json()
    return data


def _json_value(text: Any) -> Any:
    """A column's JSON; a lone surrogate escaped in it is no text, and is refused like bad JSON
    (a ValueError), and so is JSON nested past Python's limit (a RecursionError)."""
    value = json.loads(text)
    if not isinstance(text, str) or "\\u" in text:  # only an escape can make a surrogate
        json.dumps(value, ensure_ascii=False).encode()
    return value


def _from_row(row: sqlite3.Row, skip: tuple[str, ...] = ()) -> Json:
    out: Json = {}
    for column in row.keys():
        if column in skip:
            continue
        value = row[column]
        if column.endswith("_json"):
            try:
                out[column.removesuffix("_json")] = _json_value(value)
            except (TypeError, ValueError, RecursionError):
                out[column.removesuffix("_json")] = value  # the adapter names what is wrong
        else:
            out[column] = value
    return out


def _json_or_none(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):  # nested past Python's limit: damaged too
        return None


def _to_row(data: Json) -> Json:
    return {f"{k}_json" if isinstance(v, list | dict) else k:
            json.dumps(v) if isinstance(v, list | dict) else v for k, v in data.items()}


def _order_key(command: str, pending: bool) -> str:
    return f"{command}|{'pending' if pending else 'active'}"


# -- the state as JSON values ----------------------------------------------------------------


def state_to_json(state: DayState) -> Json:
    """The state as plain JSON values, keyed by command, order, battle and town."""
    orders = {_order_key(n, False): _dump(o) | {"pending": False}
              for n, o in state.orders.items()}
    orders.update({_order_key(n, True): _dump(o) | {"pending": True}
                   for n, o in state.pending.items()})
    return {
        "date": state.date.isoformat(),
        "marched": state.marched,
        "next_battle": state.next_battle,
        "settings": dict(sorted(state.settings.items())),
        "supply": None if state.supply is None else _dump(state.supply),
        "commands": {c.name: _dump(c) for c in state.ordered()},
        "orders": dict(sorted(orders.items())),
        "battles": {str(b.id): _dump(b) for b in sorted(state.battles.values(),
                                                        key=lambda b: b.id)},
        "control": {t: state.control[t].value for t in sorted(state.control)},
        "control_since": {t: state.control_since[t].isoformat()
                          for t in sorted(state.control_since) if t in state.control},
        "reports": {str(r.id): _dump(r) for r in sorted(state.reports.values(),
                                                       key=lambda r: r.id)},
        "imports": dict(sorted(state.imports.items())),
    }


def commands_from_json(data: Json, where: str = "the campaign day") -> DayState:
    """The day of ``state_to_json``'s values with its commands only (no orders, battles,
    control, reports, settings or supply), each command checked as ``state_from_json`` does."""
    commands = {n: _entity(CommandState, d, f"{where}: command {n!r}")
                for n, d in data["commands"].items()}
    return DayState(date.fromisoformat(data["date"]), bool(data["marched"]),
                    int(data["next_battle"]), commands)


def state_from_json(data: Json, where: str = "the campaign day") -> DayState:
    """The inverse of ``state_to_json``; a value that is not valid is refused with its place."""
    commands = {n: _entity(CommandState, d, f"{where}: command {n!r}")
                for n, d in data["commands"].items()}
    state = DayState(date.fromisoformat(data["date"]), bool(data["marched"]),
                     int(data["next_battle"]), commands)
    state.settings = _settings(data.get("settings", {}), where)
    state.supply = _supply(data.get("supply"), where)
    orders = []
    for key, d in data["orders"].items():
        fields = {k: v for k, v in d.items() if k != "pending"}
        orders.append((_entity(Order, fields, f"{where}: order {key!r}"), bool(d["pending"])))
    _place_orders(state, orders)
    for key, d in data["battles"].items():
        battle = _entity(Battle, d, f"{where}: battle {key}")
        state.battles[battle.id] = battle
    try:
        state.control = {t: Side(s) for t, s in data["control"].items()}
        state.control_since = {t: date.fromisoformat(d)
                               for t, d in data.get("control_since", {}).items()}
    except (ValueError, TypeError) as exc:
        raise DamagedState(f"{where}: town control: {exc}") from None
    for key, d in data.get("reports", {}).items():
        report = _entity(Report, d, f"{where}: report {key}")
        state.reports[report.id] = report
    imports = data.get("imports", {})
    if not isinstance(imports, dict) or not all(isinstance(v, str) for v in imports.values()):
        raise DamagedState(f"{where}: the imported order forms are not a table of digests")
    state.imports = dict(imports)
    return state


def _place_orders(state: DayState, orders: Iterable[tuple[Order, bool]]) -> None:
    """Put each order with its command's standing orders, or with its messengers' (pending)."""
    for order, pending in orders:
        (state.pending if pending else state.orders)[order.command] = order


def _settings(data: Any, where: str) -> dict[str, Any]:
    """The campaign's changes to its settings, each checked as when the umpire made it."""
    if not isinstance(data, dict):
        raise DamagedState(f"{where}: the settings are not a table")
    out: dict[str, Any] = {}
    for name, value in data.items():
        setting = BY_NAME.get(name)
        if setting is None:
            raise DamagedState(f"{where}: {name!r} is not a setting")
        try:
            out[name] = setting.read(shown(value))
        except (ValueError, CampaignError) as exc:
            raise DamagedState(f"{where}: setting {name} {exc}") from None
    return out


def _supply(data: Any, where: str) -> SupplyState | None:
    """The supply rule's state, or None while supply is not kept."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise DamagedState(f"{where}: the supply is damaged: {data!r:.80} is not a table")
    supply: SupplyState = _entity(SupplyState, data, f"{where}: supply")
    return supply


def state_diff(before: Json, after: Json) -> tuple[Json, Json]:
    """The entries that differ, as (their values before, their values after); a missing
    entry is None. Applying the first to the after-state gives back the before-state."""
    old: Json = {}
    new: Json = {}
    for key in ("date", "marched", "next_battle", "settings", "supply"):
        if before.get(key) != after.get(key):
            old[key], new[key] = before.get(key), after.get(key)
    for section in SECTIONS:
        b, a = before.get(section, {}), after.get(section, {})
        changed = {k for k in b.keys() | a.keys() if b.get(k) != a.get(k)}
        if changed:
            old[section] = {k: b.get(k) for k in sorted(changed)}
            new[section] = {k: a.get(k) for k in sorted(changed)}
    return old, new


# -- rows of the file ------------------------------------------------------------------------


_LINE_BREAKS = {c: f"\\x{c:02x}" for c in (0x0A, 0x0B, 0x0C, 0x0D, 0x85)} | {
    0x2028: "\\u2028", 0x2029: "\\u2029"}


def read_campaign(con: sqlite3.Connection) -> tuple[str, date, date]:
    """The campaign's name, start date and current date, as its one row keeps them."""
    row = con.execute('SELECT name, start_date, "current_date" FROM campaign').fetchone()
    if row is None:
        raise DamagedState("the campaign table is damaged: it holds no row")
    name, start, current = row
    if not isinstance(name, str):
        raise DamagedState(f"the campaign's name is damaged: {name!r:.80} is not text")
    # a name written by another program may hold line breaks: shown, it stays on its line
    name = name.translate(_LINE_BREAKS)
    return (name, iso_date(start, "the campaign's start date"),
            iso_date(current, "the campaign's current date"))


def read_state(con: sqlite3.Connection) -> DayState:
    """The campaign day's state as the file holds it (the same state as ``state_from_json``
    makes of ``read_json``, without going through the JSON values)."""
    return _state_of(_read_rows(con))


def read_state_kept(con: sqlite3.Connection) -> tuple[DayState, StateRead]:
    """The campaign day's state, and its rows as read kept beside it (``StateRead``), from one
    reading of its rows: what an action changes, and what its change is worked out from."""
    rows = _read_rows(con)
    # the state shares its commands' table with the rows: the rows kept have their own
    return _state_of(rows), StateRead(rows._replace(commands=dict(rows.commands)))


class StateRead:
    """The state's rows as one transaction read them, never changed after: what an action's
    change is worked out from (``changes``), and their JSON values only when asked for
    (``values``)."""

    def __init__(self, rows: _Rows) -> None:
        self._rows = rows
        self._json: Json | None = None

    @property
    def date(self) -> date:
        """The campaign's date as read."""
        return date.fromisoformat(self._rows.date)

    @property
    def commands(self) -> dict[str, CommandState]:
        """The commands as read, by name (a copy: the entities are frozen)."""
        return dict(self._rows.commands)

    def values(self) -> Json:
        """The JSON values of the rows read (``read_json``'s), made once when first asked."""
        if self._json is None:
            self._json = _json_of(self._rows)
        return self._json

    def changes(self, put: DayState, after: Json | None = None) -> tuple[Json, Json]:
        """``state_diff(self.values(), state_to_json(put))``, entry for entry and key for key,
        worked out from the entities: an entry is made into JSON only where the entity read
        and the one put are neither the same nor equal, and it is kept only where those JSON
        values differ. ``after``, ``state_to_json(put)`` where the caller has made it (a day
        closed), gives the values put, which are then not made again."""
        rows = self._rows
        old: Json = {}
        new: Json = {}

        def made(section: str, make: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
            if after is None:
                return make
            entries = after[section]
            return lambda key, _entity: entries[key]

        # the day's own values, as state_diff compares them
        scalars: tuple[tuple[str, Any, Any], ...] = (
            ("date", rows.date, put.date.isoformat()),
            ("marched", rows.marched, put.marched),
            ("next_battle", rows.next_battle, put.next_battle))
        for key, was, now in scalars:
            if was != now:
                old[key], new[key] = was, now
        if rows.settings != put.settings:
            old["settings"] = rows.settings
            new["settings"] = dict(sorted(put.settings.items())) if after is None \
                else after["settings"]
        read_supply = None if rows.supply is None else _supply(rows.supply, "day_info row 1")
        if read_supply != put.supply:  # equal entities make equal JSON values
            was = None if read_supply is None else _dump(read_supply)
            now = after["supply"] if after is not None else \
                None if put.supply is None else _dump(put.supply)
            if was != now:
                old["supply"], new["supply"] = was, now
        orders = {_order_key(n, False): o for n, o in put.orders.items()}
        orders.update({_order_key(n, True): o for n, o in put.pending.items()})
        _differing(old, new, "commands", rows.commands, {c.name: c for c in put.ordered()},
                   _dumped, made("commands", _dumped))
        _differing(old, new, "orders", {k: o for k, (o, _) in rows.orders.items()}, orders,
                   lambda k, o: _dump(o) | {"pending": rows.orders[k][1]},
                   made("orders", lambda k, o: _dump(o) | {"pending": k.endswith("|pending")}))
        _differing(old, new, "battles", {str(b.id): b for b in rows.battles},
                   {str(b.id): b for b in sorted(put.battles.values(), key=lambda b: b.id)},
                   _dumped, made("battles", _dumped))
        _differing(old, new, "control", rows.control, put.control,
                   lambda _k, s: s, made("control", lambda _k, s: s.value))
        _differing(old, new, "control_since", rows.since,
                   {t: d for t, d in put.control_since.items() if t in put.control},
                   lambda _k, d: d, made("control_since", lambda _k, d: d.isoformat()))
        _differing(old, new, "reports", {str(r.id): r for r in rows.reports},
                   {str(r.id): r for r in sorted(put.reports.values(), key=lambda r: r.id)},
                   _dumped, made("reports", _dumped))
        _differing(old, new, "imports", rows.imports, put.imports,
                   lambda _k, v: v, made("imports", lambda _k, v: v))
        return old, new


_MISSING = object()


def _dumped(_key: str, value: Any) -> Json:
    """An entity's JSON values, as an entry of its section."""
    return _dump(value)


def _differing(old: Json, new: Json, section: str, before: dict[str, Any],
               after: dict[str, Any], old_value: Callable[[str, Any], Any],
               new_value: Callable[[str, Any], Any]) -> None:
    """Add to ``old`` and ``new`` a section's entries whose values differ (None for a missing
    entry; the keys sorted, as ``state_diff`` gives them), making the value of an entry only
    where its entity read and its entity put are neither the same nor equal."""
    changed: dict[str, tuple[Any, Any]] = {}
    for key, entity in after.items():
        read = before.get(key, _MISSING)
        if read is entity or (read is not _MISSING and read == entity):
            continue
        was = None if read is _MISSING else old_value(key, read)
        now = new_value(key, entity)
        if was != now:
            changed[key] = (was, now)
    for key, read in before.items():
        if key not in after:
            was = old_value(key, read)
            if was is not None:
                changed[key] = (was, None)
    if changed:
        keys = sorted(changed)
        old[section] = {k: changed[k][0] for k in keys}
        new[section] = {k: changed[k][1] for k in keys}


def _state_of(rows: _Rows) -> DayState:
    """The state of the rows read (sharing no mutable value with ``_json_of``'s)."""
    state = DayState(date.fromisoformat(rows.date), rows.marched, rows.next_battle,
                     rows.commands)
    state.settings = dict(rows.settings)
    state.supply = None if rows.supply is None else _supply(rows.supply, "day_info row 1")
    _place_orders(state, rows.orders.values())
    state.battles = {b.id: b for b in rows.battles}
    state.control = {t: Side(s) for t, s in rows.control.items()}
    state.control_since = {t: date.fromisoformat(d) for t, d in rows.since.items()}
    state.reports = {r.id: r for r in rows.reports}
    state.imports = dict(rows.imports)
    return state


def read_json(con: sqlite3.Connection) -> Json:
    """The state's rows as the JSON values the event log keeps (every row validated)."""
    return _json_of(_read_rows(con))


def _json_of(rows: _Rows) -> Json:
    """The JSON values of the rows read."""
    orders = {key: _dump(order) | {"pending": pending}
              for key, (order, pending) in rows.orders.items()}
    return {
        "date": rows.date,
        "marched": rows.marched,
        "next_battle": rows.next_battle,
        "settings": rows.settings,
        "supply": None if rows.supply is None else _dump(_supply(rows.supply,
                                                                 "day_info row 1")),
        "commands": {name: _dump(c) for name, c in rows.commands.items()},
        "orders": orders,
        "battles": {str(b.id): _dump(b) for b in rows.battles},
        "control": rows.control,
        "control_since": rows.since,
        "reports": {str(r.id): _dump(r) for r in rows.reports},
        "imports": rows.imports,
    }


class _Rows(NamedTuple):
    """The state's rows, each validated into its entity."""

    date: str
    marched: bool
    next_battle: int
    settings: dict[str, Any]
    supply: Any  # the supply rule's state as JSON values, or None
    commands: dict[str, CommandState]
    orders: dict[str, tuple[Order, bool]]  # in order-key order: the order, and whether pending
    battles: list[Battle]
    control: dict[str, str]
    since: dict[str, str]
    reports: list[Report]
    imports: dict[str, str]


def _read_rows(con: sqlite3.Connection) -> _Rows:
    con.row_factory = sqlite3.Row
    info = con.execute('SELECT "current_date" FROM campaign').fetchone()
    day = con.execute("SELECT marched, next_battle, settings_json, supply_json FROM day_info"
                      ).fetchone()
    commands = {}
    for r in con.execute('SELECT * FROM day_command ORDER BY "key"'):
        c = _entity(CommandState, _from_row(r), f"day_command row {r['name']!r}")
        commands[c.name] = c
    orders = {}
    for r in con.execute("SELECT * FROM day_order ORDER BY id"):
        o = _entity(Order, _from_row(r, ("id", "pending")), f"day_order row {r['id']}")
        orders[_order_key(o.command, bool(r["pending"]))] = (o, bool(r["pending"]))
    battles = [_entity(Battle, _from_row(r), f"day_battle row {r['id']}")
               for r in con.execute("SELECT * FROM day_battle ORDER BY id")]
    control = {}
    since = {}
    for r in con.execute("SELECT town, side, since FROM town_control ORDER BY town"):
        if r["side"] not in {s.value for s in Side}:
            raise DamagedState(f"town_control row {r['town']!r}: "
                               f"side {r['side']!r} is neither French nor Allied")
        control[r["town"]] = r["side"]
        if r["since"] is not None:
            since[r["town"]] = iso_date(r["since"], f"town_control row {r['town']!r}: since"
                                        ).isoformat()
    reports = [_entity(Report, _from_row(r), f"day_report row {r['id']}")
               for r in con.execute("SELECT * FROM day_report ORDER BY id")]
    imports = {str(r["nonce"]): str(r["digest"])
               for r in con.execute("SELECT nonce, digest FROM order_import ORDER BY nonce")}
    marched, next_battle = _day_info(day)
    return _Rows(
        iso_date(info["current_date"], "the campaign's current date").isoformat(),
        marched, next_battle,
        _settings(_json_or_none(day["settings_json"]) if day else {}, "day_info row 1"),
        _json_or_none(day["supply_json"]) if day else None,
        commands, dict(sorted(orders.items())), battles, control, since, reports,
        imports)


def side_key(con: sqlite3.Connection, side: str) -> bytes:
    """The key issued to a side, with which its order forms are signed."""
    row = con.execute("SELECT key FROM side_key WHERE side = ?", (side,)).fetchone()
    try:
        key = bytes.fromhex(row[0]) if row is not None else b""
    except (TypeError, ValueError):
        key = b""
    if len(key) < 16:
        raise DamagedState(f"side_key row {side!r} is damaged or missing: the {side} have no key")
    return key


def write_state(con: sqlite3.Connection, state: DayState) -> None:
    """Write a whole state, changing only the rows that differ from the file's."""
    _old, new = state_diff(read_json(con), state_to_json(state))
    write_changes(con, new)


def write_changes(con: sqlite3.Connection, changes: Json) -> None:
    """Write only the given entries (a side of ``state_diff``); None deletes an entry."""
    if "date" in changes:
        con.execute('UPDATE campaign SET "current_date" = ?', (changes["date"],))
    if changes.keys() & {"marched", "next_battle", "settings", "supply"}:
        day = con.execute("SELECT marched, next_battle, settings_json, supply_json "
                          "FROM day_info").fetchone()
        marched = changes.get("marched", bool(day[0]) if day else False)
        next_battle = changes.get("next_battle", day[1] if day else 1)
        settings = json.dumps(changes["settings"] or {}) if "settings" in changes \
            else (day[2] if day else "{}")
        supply = (None if changes["supply"] is None else json.dumps(changes["supply"])) \
            if "supply" in changes else (day[3] if day else None)
        con.execute("DELETE FROM day_info")
        con.execute("INSERT INTO day_info (id, marched, next_battle, settings_json, "
                    "supply_json) VALUES (1, ?, ?, ?, ?)", (marched, next_battle, settings,
                                                           supply))
    entries = changes.get("commands", {})
    _replace(con, "day_command", "name", list(entries),
             [_to_row(d) for d in entries.values() if d is not None])
    entries = changes.get("battles", {})
    _replace(con, "day_battle", "id", [int(k) for k in entries],
             [_to_row(d) for d in entries.values() if d is not None])
    entries = changes.get("reports", {})
    _replace(con, "day_report", "id", [int(k) for k in entries],
             [_to_row(d) for d in entries.values() if d is not None])
    entries = changes.get("imports", {})
    _replace(con, "order_import", "nonce", list(entries),
             [{"nonce": k, "digest": v} for k, v in entries.items() if v is not None])
    entries = changes.get("control", {})
    kept = {r[0]: r[1] for r in con.execute("SELECT town, since FROM town_control")} \
        if entries else {}
    _replace(con, "town_control", "town", list(entries),
             [{"town": k, "side": v, "since": kept.get(k)}
              for k, v in entries.items() if v is not None])
    for town, day in changes.get("control_since", {}).items():
        con.execute("UPDATE town_control SET since = ? WHERE town = ?", (day, town))
    entries = changes.get("fights", {})
    _replace(con, "fight", "battle", [int(k) for k in entries],
             [{"battle": int(k), "setup_json": json.dumps(v)} for k, v in entries.items()
              if v is not None])
    for key, step in changes.get("fight_steps", {}).items():
        battle, seq = (int(x) for x in key.split("|"))
        con.execute("DELETE FROM fight_step WHERE battle = ? AND seq = ?", (battle, seq))
        if step is not None:
            con.execute("INSERT INTO fight_step (battle, seq, kind, label, step_json) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (battle, seq, step["kind"], step["label"], json.dumps(step)))
    entries = changes.get("orders", {})
    for key in entries:
        command, which = key.rsplit("|", 1)
        con.execute("DELETE FROM day_order WHERE command = ? AND pending = ?",
                    (command, which == "pending"))
    _insert(con, "day_order", [_to_row(d) for d in entries.values() if d is not None])


def _replace(con: sqlite3.Connection, table: str, key: str, keys: list[Any],
             rows: list[Json]) -> None:
    """Delete the rows with these keys, then insert the new ones."""
    con.executemany(f'DELETE FROM {table} WHERE "{key}" = ?', [(k,) for k in keys])
    _insert(con, table, rows)


def _insert(con: sqlite3.Connection, table: str, rows: list[Json]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    # The columns are the table's own, as it declares them: a name that came with the data (a
    # log entry's keys) is refused, never written into the SQL.
    declared = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
    for row in rows:
        odd = sorted(set(row) - declared, key=str) or sorted(set(columns) ^ set(row), key=str)
        if odd:
            raise DamagedState(f"a {table} row names {odd[0]!r:.80}, which is not one of the "
                               "table's columns")
    names = ", ".join(f'"{c}"' for c in columns)
    marks = ", ".join("?" for _ in columns)
    sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"
    con.executemany(sql, [tuple(r[c] for c in columns) for r in rows])
