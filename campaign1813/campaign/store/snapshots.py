"""The campaign day by day: the state at dawn of each day, kept when the day before it closed.

A snapshot is the state's values (``codec.read_json``) as canonical JSON (keys sorted, no
spaces, UTF-8), compressed with zlib, beside the sha256 of that JSON. The action that closes a
day logs only the hash, in the section ``snapshots`` of its change (``{day: {"sha256": …}}``
after, ``{day: None}`` before); writing that section (``write``) takes the state the change
has just left in the store, checks its hash against the logged one and keeps it. So undo of the
action deletes the snapshot, redo keeps it again, and the log stays small.

``check`` rebuilds every day from the log: from the campaign's first state, each entry in
force is applied in order (its before side checked against what the entries before it left),
and where an entry closed a day, the state it left is hashed and compared with the kept
snapshot, whose own bytes are hashed too. A snapshot changed by hand is named with its day.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterable
from datetime import date
from typing import Any

import msgspec
import msgspec.structs

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.sideview import OwnMove
from campaign1813.campaign.store.codec import DamagedState, Json, iso_date, read_json
from campaign1813.campaign.store.protocol import MARK_DAY, DayMark, Snapshot, Verdict

__all__ = ["SECTION", "LoggedChange", "canonical", "check", "commands_changed_on", "day_marks",
           "digest", "first_day", "journal_of", "journal_text", "journaled", "journals", "kept",
           "logged", "read", "stored", "write"]

SECTION = "snapshots"  # the section of a logged change that keeps a day's hash
_STATE_KEYS = ("date", "marched", "next_battle", "settings", "supply")  # whole values
# zlib's fastest level: a fifth of the default's time on a large campaign's state (1.4 against
# 6 ms for 360 KB of JSON), for a third more bytes (record 0034)
_LEVEL = 1


class LoggedChange(msgspec.Struct, frozen=True):
    """One entry of the log in force with both sides of its change (for the rebuild)."""

    seq: int
    label: str
    before: Json
    after: Json


def canonical(values: Json) -> bytes:
    """The state's values as canonical JSON: keys sorted, no spaces, UTF-8."""
    return json.dumps(values, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


def digest(values: Json) -> str:
    """The sha256 (hex) of the state's canonical JSON."""
    return hashlib.sha256(canonical(values)).hexdigest()


def write(con: sqlite3.Connection, entries: Json, state: Json | bytes | None = None) -> None:
    """Write a change's ``snapshots`` section after the rest of it: None deletes a day's
    snapshot; a hash keeps the state the store now holds (``state``, when the caller has just
    written it whole from those values, or its canonical JSON; else read back), refused if it
    is not that hash."""
    for day, value in entries.items():
        iso_date(day, f"the snapshot of {day!r:.30}")
        con.execute("DELETE FROM day_snapshot WHERE day = ?", (day,))
        if value is None:
            continue
        if not isinstance(value, dict) or not isinstance(value.get("sha256"), str):
            raise DamagedState(f"the snapshot of {day} is logged without its hash")
        data = state if isinstance(state, bytes) else \
            canonical(read_json(con) if state is None else state)
        found = hashlib.sha256(data).hexdigest()
        if found != value["sha256"]:
            raise DamagedState(f"the snapshot of {_day(day)} does not match the state the log "
                               f"leaves: logged {value['sha256'][:12]}…, found {found[:12]}…")
        con.execute("INSERT INTO day_snapshot (day, sha256, state, journal) VALUES (?, ?, ?, ?)",
                    (day, found, zlib.compress(data, _LEVEL),
                     journal_text(day, value.get("journal"))))


def journal_of(day: str | date, text: object) -> tuple[OwnMove, ...] | None:
    """The moves a snapshot's row keeps (None if it keeps none), refused if damaged."""
    if text is None:
        return None
    try:
        return msgspec.json.decode(text if isinstance(text, (str, bytes)) else str(text),
                                   type=tuple[OwnMove, ...])
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise DamagedState(f"the journal kept with the snapshot of {day} is damaged") from None


def journals(con: sqlite3.Connection) -> dict[date, tuple[OwnMove, ...] | None]:
    """Every kept dawn, oldest first, with the moves kept with it (None: none kept)."""
    rows = con.execute("SELECT day, journal FROM day_snapshot ORDER BY day").fetchall()
    return {iso_date(r[0], "a snapshot's day"): journal_of(r[0], r[1]) for r in rows}


def journaled(con: sqlite3.Connection) -> dict[date, bool]:
    """Every kept dawn, oldest first, and whether its day's moves are kept with it."""
    rows = con.execute("SELECT day, journal IS NOT NULL FROM day_snapshot ORDER BY day")
    return {iso_date(r[0], "a snapshot's day"): bool(r[1]) for r in rows.fetchall()}


def journal_text(day: str, value: object) -> str | None:
    """A logged journal (its JSON text) as the snapshot's row keeps it, refused if it is not a
    list of moves; None if the log keeps none."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise DamagedState(f"the journal of the snapshot of {day} is not a list of moves")
    journal_of(day, value)
    return value


def kept(con: sqlite3.Connection) -> list[Snapshot]:
    """Every kept snapshot, oldest first, with its size in the store."""
    rows = con.execute("SELECT day, sha256, state FROM day_snapshot ORDER BY day").fetchall()
    return [Snapshot(iso_date(r[0], "a snapshot's day"), str(r[1]), len(bytes(r[2])))
            for r in rows]


class _Commands(msgspec.Struct):
    """The part of a kept state a side's diary compares: its day and its commands (the rest
    of the JSON is skipped by the reader, not made into values)."""

    date: str
    marched: bool
    next_battle: int
    commands: dict[str, dict[str, Any]]


def read(con: sqlite3.Connection, day: date, commands_only: bool = False) -> Json:
    """The state at dawn of a day as its snapshot keeps it (with ``commands_only``, only its
    date, march, next battle and commands), refused if there is none or if its bytes are not
    the JSON its hash names."""
    row = con.execute("SELECT sha256, state FROM day_snapshot WHERE day = ?",
                      (day.isoformat(),)).fetchone()
    if row is None:
        raise DamagedState(f"no snapshot of {format_date(day)} is kept")
    data = _unpacked(day, row[1])
    if hashlib.sha256(data).hexdigest() != row[0]:
        raise DamagedState(f"the snapshot of {format_date(day)} is damaged: its state is not "
                           "the one its hash names")
    try:  # msgspec reads it in a third of the time; what it refuses, Python's reader reads
        if commands_only:
            return msgspec.structs.asdict(msgspec.json.decode(data, type=_Commands))
        values: Json = msgspec.json.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        values = json.loads(data)
    return values


def stored(con: sqlite3.Connection) -> dict[date, Json | str]:
    """Every kept snapshot's state as its bytes hold it (unchecked), or why it cannot be read."""
    out: dict[date, Json | str] = {}
    for iso, blob in con.execute("SELECT day, state FROM day_snapshot ORDER BY day").fetchall():
        day = iso_date(iso, "a snapshot's day")
        try:
            values = json.loads(_unpacked(day, blob))
        except DamagedState as exc:
            out[day] = str(exc)
            continue
        except (ValueError, RecursionError):
            out[day] = "its state is not JSON"
            continue
        out[day] = values if isinstance(values, dict) else "its state is not a campaign day"
    return out


def _unpacked(day: date, blob: Any) -> bytes:
    try:
        return zlib.decompress(bytes(blob))
    except (zlib.error, TypeError) as exc:
        raise DamagedState(f"the snapshot of {format_date(day)} is damaged: its state cannot "
                           f"be read ({exc})") from None


def logged(con: sqlite3.Connection) -> list[LoggedChange]:
    """Every action in force, oldest first, with both sides of its change."""
    rows = con.execute("SELECT seq, label, before_json, after_json FROM event_log "
                       "WHERE NOT undone ORDER BY seq").fetchall()
    out = []
    for seq, label, before, after in rows:
        try:
            old, new = json.loads(before), json.loads(after)
        except (TypeError, ValueError, RecursionError):
            raise DamagedState(f"the log's entry {seq} ({label:.80}) is damaged: what it saved "
                               "is not JSON") from None
        if not isinstance(old, dict) or not isinstance(new, dict):
            raise DamagedState(f"the log's entry {seq} ({label:.80}) is damaged: what it saved "
                               "is not a change of the campaign day")
        out.append(LoggedChange(int(seq), str(label), old, new))
    return out


def _day(iso: str) -> str:
    return format_date(date.fromisoformat(iso))


def _apply(state: Json, change: Json) -> None:
    """Apply one side of a logged change to the state's values (in place)."""
    for key in _STATE_KEYS:
        if key in change:
            state[key] = change[key]
    for section, entries in change.items():
        if section in _STATE_KEYS or section == SECTION or section.startswith("fight"):
            continue  # the battles on the table and the snapshots are not the day's state
        target = state.setdefault(section, {})
        for key, value in entries.items():
            if value is None:
                target.pop(key, None)
            else:
                target[key] = value


def _differs(state: Json, before: Json) -> str | None:
    """The first entry whose logged before side is not what the state holds, if any."""
    for key in _STATE_KEYS:
        if key in before and state.get(key) != before[key]:
            return key
    for section, entries in before.items():
        if section in _STATE_KEYS or section == SECTION or section.startswith("fight"):
            continue
        for key, value in entries.items():
            if state.get(section, {}).get(key) != value:
                return f"{section} {key}"
    return None


def check(first: Json, changes: Iterable[LoggedChange], snapshots: dict[date, str],
          stored: dict[date, Json | str], today: Json) -> Verdict:
    """Rebuild every day from the first state and the log's changes in force, and compare:
    each closed day's state with its kept snapshot (``snapshots``: the hashes kept;
    ``stored``: each snapshot's state, or why it cannot be read), and the end with today."""
    state = json.loads(json.dumps(first))
    checked: list[date] = []
    missing: list[date] = []
    faults: list[str] = []
    seen: set[date] = set()
    for change in changes:
        odd = _differs(state, change.before)
        if odd is not None:
            faults.append(f"the log's entry {change.seq} ({change.label}) does not follow the "
                          f"one before it: {odd} is not what it found")
        _apply(state, change.after)
        for iso in change.after.get(SECTION, {}) or {}:
            day = date.fromisoformat(iso)
            seen.add(day)
            rebuilt = digest(state)
            where = f"the snapshot of {format_date(day)}"
            if day not in snapshots:
                faults.append(f"{where} is logged but not kept")
                continue
            if snapshots[day] != rebuilt:
                faults.append(f"{where} does not match the log: its hash is "
                              f"{snapshots[day][:12]}…, the log rebuilds {rebuilt[:12]}…")
                continue
            held = stored[day]
            if isinstance(held, str):
                faults.append(f"{where} does not match the log: {held}")
            elif digest(held) != rebuilt:
                faults.append(f"{where} does not match the log: its state is not the one the "
                              f"log rebuilds ({_first_difference(held, state)})")
            else:
                checked.append(day)
        if "date" in change.after and change.after["date"] != change.before.get("date"):
            day = date.fromisoformat(change.after["date"])
            if day not in seen and not change.after.get(SECTION):
                missing.append(day)
    for day in sorted(set(snapshots) - seen):
        faults.append(f"the snapshot of {format_date(day)} is kept but no action in force "
                      "closed the day before it")
    if digest(state) != digest(today):
        faults.append(f"today's state does not match the log "
                      f"({_first_difference(today, state)})")
    return Verdict(tuple(checked), tuple(missing), tuple(faults))


def commands_changed_on(con: sqlite3.Connection, day: date) -> bool:
    """Whether an action in force taken on a day may have changed a command: its logged change
    names the section ``commands`` (a text search, so a word in a label may say yes; never
    no when one did)."""
    rows = con.execute("SELECT after_json FROM event_log WHERE NOT undone AND date = ?",
                       (day.isoformat(),)).fetchall()
    return any('"commands"' in str(r[0]) for r in rows)


def day_marks(con: sqlite3.Connection) -> dict[date, DayMark]:
    """The umpire's bookmark and note of each day, as the actions in force left them (the
    latest for a day stands; a day left with neither has none)."""
    out: dict[date, DayMark] = {}
    rows = con.execute("SELECT seq, payload_json FROM event_log WHERE NOT undone AND kind = ? "
                       "ORDER BY seq", (MARK_DAY,)).fetchall()
    for seq, payload in rows:
        try:
            data = json.loads(payload)
            mark = DayMark(date.fromisoformat(data["day"]), bool(data["bookmark"]),
                           str(data["note"]))
        except (TypeError, ValueError, KeyError, RecursionError):
            raise DamagedState(f"the log's entry {seq} (a day's bookmark) is damaged: its day, "
                               "bookmark or note cannot be read") from None
        if mark.bookmark or mark.note:
            out[mark.day] = mark
        else:
            out.pop(mark.day, None)
    return out


def first_day(first: Json, changes: Iterable[LoggedChange]) -> Json:
    """The first day as it stood when its march began: the first state with the umpire's
    actions of that day applied (orders, settings, the reports he gave), up to the first action
    that marched or closed the day. Its commands stand where they stood at dawn."""
    state: Json = json.loads(json.dumps(first))
    for change in changes:
        if change.after.get("marched") or "date" in change.after:
            break
        _apply(state, change.after)
    return state


def _first_difference(held: Any, rebuilt: Any, path: str = "") -> str:
    """Where two states' values first differ (the path of keys down to the value), in words."""
    if isinstance(held, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(held) | set(rebuilt)):
            if held.get(key) != rebuilt.get(key):
                return _first_difference(held.get(key), rebuilt.get(key),
                                         f"{path} {key}".strip())
    return f"{path or 'the state'}: kept {_short(held)}, rebuilt {_short(rebuilt)}"


def _short(value: Any) -> str:
    return f"{json.dumps(value, sort_keys=True):.120}"

