"""The event log: every umpire action applied, logged with the state before and after it, and
undone or redone over the log.

Each action is applied to the state read from the file, written back, and appended to the log
with the entries it changed, before and after, all in the caller's one write transaction. Undo
puts back the state before the latest action still in force; redo the state after the earliest
one undone. A new action after an undo drops the actions that could have been redone.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, is_dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import msgspec

from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.ground import Ground, OrderRefused
from campaign1813.campaign.store.codec import (
    Json,
    read_json,
    state_diff,
    state_from_json,
    state_to_json,
    write_changes,
)

if TYPE_CHECKING:  # the day's rules come with the actions that are applied, not with the log
    from campaign1813.campaign.day.actions import Action
    from campaign1813.campaign.day.cycle import DayReport


class LoggedAction(msgspec.Struct, frozen=True):
    """One line of the log: its place, the date it was taken, its label and diary lines."""

    seq: int
    day: date
    label: str
    lines: tuple[str, ...]
    kind: str = ""


class Applied(msgspec.Struct, frozen=True):
    """An action applied to the state read from the file, not yet written: its label, diary
    lines and report, the day it was taken, and the state's difference (before, after)."""

    label: str
    lines: list[str]
    report: DayReport | None
    day: str
    old: Json
    new: Json


def apply(con: sqlite3.Connection, ground: Ground, action: Action) -> Applied:
    """Apply one umpire action to the state as the file holds it, and say what it changes."""
    before = read_json(con)
    state = state_from_json(before)
    ground = ground.adjusted(state.settings)
    try:
        label, lines, report = action.apply(ground, state)
    except OverflowError:
        raise OrderRefused("the campaign's calendar cannot go past 31 December 9999") from None
    old, new = state_diff(before, state_to_json(state))
    return Applied(label, lines, report, before["date"], old, new)


def perform(con: sqlite3.Connection, ground: Ground, action: Action) -> Changes:
    """Apply one umpire action in the connection's transaction and log it."""
    done = apply(con, ground, action)
    payload: dict[str, Any] = {}
    if is_dataclass(action) and not isinstance(action, type):
        payload = asdict(action)
    return record(con, type(action).__name__, done.label, done.day, done.lines, payload,
                  done.old, done.new, done.report)


def record(con: sqlite3.Connection, kind: str, label: str, day: str, lines: list[str],
           payload: dict[str, Any], old: Json, new: Json,
           report: DayReport | None = None) -> Changes:
    """Write a change (one side of a difference) and log it with the other side, for undo."""
    write_changes(con, new)
    con.execute("DELETE FROM event_log WHERE undone")
    con.execute(
        "INSERT INTO event_log (kind, label, date, lines_json, payload_json, before_json, "
        "after_json, undone) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
        (kind, label, day, json.dumps(lines), json.dumps(payload, default=str),
         json.dumps(old), json.dumps(new)),
    )
    return _changes(label, tuple(lines), old, new, report)


def _latest(con: sqlite3.Connection, undone: bool) -> sqlite3.Row | None:
    order = "ASC" if undone else "DESC"
    con.row_factory = sqlite3.Row
    row: sqlite3.Row | None = con.execute(
        f"SELECT * FROM event_log WHERE undone = ? ORDER BY seq {order} LIMIT 1",
        (undone,)).fetchone()
    return row


def undo(con: sqlite3.Connection, expected: str | None = None) -> Changes:
    """Put back the state before the latest action in force (refused if it is not the one
    the umpire was shown, ``expected``, because another window acted since)."""
    return _step(con, expected, back=True)


def redo(con: sqlite3.Connection, expected: str | None = None) -> Changes:
    """Apply again the earliest undone action."""
    return _step(con, expected, back=False)


def _step(con: sqlite3.Connection, expected: str | None, back: bool) -> Changes:
    """One step along the log: back (the latest action in force undone) or forward (the
    earliest undone action done again)."""
    what = "undo" if back else "redo"
    row = _latest(con, undone=not back)
    if row is None:
        raise OrderRefused(f"there is nothing to {what}")
    _expect(row, expected, what)
    before, after = json.loads(row["before_json"]), json.loads(row["after_json"])
    old, new = (after, before) if back else (before, after)
    write_changes(con, new)
    con.execute("UPDATE event_log SET undone = ? WHERE seq = ?", (back, row["seq"]))
    lines = () if back else tuple(json.loads(row["lines_json"]))
    return _changes(f"{what.capitalize()} {row['label']}", lines, old, new, None)


def _expect(row: sqlite3.Row, expected: str | None, what: str) -> None:
    if expected is not None and row["label"] != expected:
        raise OrderRefused(f"cannot {what} {expected}: the campaign was changed elsewhere "
                           f"since; the next to {what} is {row['label']}")


def next_undo(con: sqlite3.Connection) -> str | None:
    """The label of the action undo would take back, if any."""
    row = _latest(con, False)
    return str(row["label"]) if row else None


def next_redo(con: sqlite3.Connection) -> str | None:
    """The label of the action redo would apply again, if any."""
    row = _latest(con, True)
    return str(row["label"]) if row else None


def actions_in_force(con: sqlite3.Connection) -> list[LoggedAction]:
    """Every action still in force, oldest first."""
    con.row_factory = sqlite3.Row
    rows = con.execute("SELECT seq, date, label, lines_json, kind FROM event_log "
                       "WHERE NOT undone ORDER BY seq")
    return [LoggedAction(r["seq"], date.fromisoformat(r["date"]), r["label"],
                         tuple(json.loads(r["lines_json"])), r["kind"]) for r in rows]


def _changes(label: str, lines: tuple[str, ...], old: Json, new: Json,
             report: DayReport | None) -> Changes:
    """What a change touched, read from both sides of a state difference."""
    commands: set[str] = set()
    positions: set[str] = set()
    for side in (old, new):
        commands |= set(side.get("commands", {}))
        commands |= {k.rsplit("|", 1)[0] for k in side.get("orders", {})}
    for name in set(old.get("commands", {})) | set(new.get("commands", {})):
        if _position(old, name) != _position(new, name):
            positions.add(name)
    return Changes(
        label,
        lines,
        frozenset(commands),
        frozenset(int(i) for side in (old, new) for i in side.get("battles", {})),
        frozenset(t for side in (old, new) for t in side.get("control", {})),
        "date" in new,
        report,
        frozenset(positions),
        "marched" in new,
        frozenset(int(k.split("|")[0]) for side in (old, new)
                  for section in ("fights", "fight_steps") for k in side.get(section, {})),
    )


def _position(side: Json, name: str) -> Any:
    entry = side.get("commands", {}).get(name)
    return None if entry is None else (entry.get("position"), entry.get("status"))
