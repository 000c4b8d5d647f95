"""The event log of the campaign file: every umpire action logged with the entries it changed,
before and after, and undone or redone over the log.

An action's changed entries are written and appended to the log, with its entry, in the
caller's one write transaction (the unit of work of ``store.work``). Undo puts back the state
before the latest action still in force; redo the state after the earliest one undone. A new
action after an undo drops the actions that could have been redone.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store import snapshots
from campaign1813.campaign.store.codec import SECTIONS as STATE_SECTIONS
from campaign1813.campaign.store.codec import (
    DamagedState,
    Json,
    iso_date,
    read_state,
    write_changes,
)
from campaign1813.campaign.store.protocol import LogEntry, LoggedAction, LogStep

if TYPE_CHECKING:  # a day's report is handed on, never read here
    from campaign1813.campaign.day.cycle import DayReport

__all__ = ["LogStep", "LoggedAction", "actions_in_force", "record", "redo", "redo_step", "undo",
           "undo_step"]


def record(con: sqlite3.Connection, entry: LogEntry, old: Json, new: Json,
           report: DayReport | None = None, state: Json | bytes | None = None) -> Changes:
    """Write a change (the after side of a difference) and log it with its before side and
    its entry, for undo; ``state``, the whole state it leaves (or its canonical JSON), keeps a
    snapshot the change names without reading it back."""
    write_changes(con, new)
    snapshots.write(con, new.get(snapshots.SECTION, {}), state)
    con.execute("DELETE FROM event_log WHERE undone")
    # the entry's own id: random, so no program writing to this log can ever give it again
    con.execute(
        "INSERT INTO event_log (entry, kind, label, date, lines_json, payload_json, before_json, "
        "after_json, undone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (secrets.token_hex(16), entry.kind, entry.label, entry.day.isoformat(),
         json.dumps(list(entry.lines)),
         json.dumps(dict(entry.payload), default=str),
         # both sides are trees of fresh values: no value can hold itself
         json.dumps(old, check_circular=False), json.dumps(new, check_circular=False), False),
    )
    return _changes(entry.label, tuple(entry.lines), old, new, report)


def _latest(con: sqlite3.Connection, undone: bool) -> sqlite3.Row | None:
    order = "ASC" if undone else "DESC"
    con.row_factory = sqlite3.Row
    row: sqlite3.Row | None = con.execute(
        f"SELECT * FROM event_log WHERE undone = ? ORDER BY seq {order} LIMIT 1",
        (undone,)).fetchone()
    return row


Check = Callable[[sqlite3.Connection], object] | None


def undo(con: sqlite3.Connection, expected: LogStep | None = None,
         check: Check = None) -> Changes:
    """Put back the state before the latest action in force (refused if it is not the one
    the umpire was shown, ``expected``, because another window acted since)."""
    return _step(con, expected, True, check)


def redo(con: sqlite3.Connection, expected: LogStep | None = None,
         check: Check = None) -> Changes:
    """Apply again the earliest undone action."""
    return _step(con, expected, False, check)


# What a log entry may change: the day's own values, its sections, the battles on the table,
# the snapshot of the dawn it made.
SECTIONS = frozenset({"date", "marched", "next_battle", "settings", "supply", *STATE_SECTIONS,
                      "fights", "fight_steps", snapshots.SECTION})


def _step(con: sqlite3.Connection, expected: LogStep | None, back: bool,
          check: Check) -> Changes:
    """One step along the log: back (the latest action in force undone) or forward (the
    earliest undone action done again). The state it leaves is checked (``check``: the whole
    audit against the campaign's map; else each row read back) before anything is kept."""
    what = "undo" if back else "redo"
    row = _latest(con, undone=not back)
    if row is None:
        raise OrderRefused(f"there is nothing to {what}")
    _expect(row, expected, what)
    damaged = (f"the log's entry {row['seq']} ({_shown(row['label'])}) is damaged, so it "
               f"cannot be {what}ne")
    try:
        before, after = json.loads(row["before_json"]), json.loads(row["after_json"])
        lines = () if back else tuple(str(line) for line in json.loads(row["lines_json"]))
    except (TypeError, ValueError, RecursionError):
        raise DamagedState(f"{damaged}: what it saved is not JSON") from None
    if not isinstance(before, dict) or not isinstance(after, dict) or set(before) - SECTIONS \
            or set(after) - SECTIONS:
        raise DamagedState(f"{damaged}: what it saved is not a change of the campaign day")
    old, new = (after, before) if back else (before, after)
    try:
        write_changes(con, new)
        snapshots.write(con, new.get(snapshots.SECTION, {}))
        # The state it leaves is read back and checked before anything is committed: a value
        # no campaign can hold is refused here, and the whole step with it.
        (check or read_state)(con)
        # What the step touched, read from both sides: the side it did not write is checked
        # here, as far as the window's refresh reads it.
        changes = _changes(f"{what.capitalize()} {row['label']}", lines, old, new, None)
    except CampaignError as exc:
        raise DamagedState(f"{damaged}: {exc}") from None
    except (TypeError, ValueError, KeyError, AttributeError, sqlite3.Error) as exc:
        raise DamagedState(f"{damaged} ({type(exc).__name__}: {exc})") from None
    con.execute("UPDATE event_log SET undone = ? WHERE seq = ?", (back, row["seq"]))
    return changes


def _expect(row: sqlite3.Row, expected: LogStep | None, what: str) -> None:
    """Refuse unless the log's next entry is the one the umpire was shown (by its id: another
    program may have logged an action with the same label since)."""
    if expected is not None and row["entry"] != expected.entry:
        raise OrderRefused(f"cannot {what} {expected.label}: the campaign was changed elsewhere "
                           f"since; the next to {what} is {row['label']}")


def undo_step(con: sqlite3.Connection) -> LogStep | None:
    """The action undo would take back, with its entry's id, if any."""
    row = _latest(con, False)
    return LogStep(str(row["entry"]), str(row["label"])) if row else None


def redo_step(con: sqlite3.Connection) -> LogStep | None:
    """The action redo would apply again, with its entry's id, if any."""
    row = _latest(con, True)
    return LogStep(str(row["entry"]), str(row["label"])) if row else None


def actions_in_force(con: sqlite3.Connection) -> list[LoggedAction]:
    """Every action still in force, oldest first; a damaged entry is refused with its number
    and what is wrong with it."""
    con.row_factory = sqlite3.Row
    rows = con.execute("SELECT seq, date, label, lines_json, kind FROM event_log "
                       "WHERE NOT undone ORDER BY seq")
    return [_logged(r) for r in rows]


def latest_in_force(con: sqlite3.Connection, kind: str) -> LoggedAction | None:
    """The latest action of a kind still in force (one row of the log), if any."""
    con.row_factory = sqlite3.Row
    row = con.execute("SELECT seq, date, label, lines_json, kind FROM event_log "
                      "WHERE NOT undone AND kind = ? ORDER BY seq DESC LIMIT 1",
                      (kind,)).fetchone()
    return _logged(row) if row is not None else None


def _shown(label: object) -> str:
    """A label as a message shows it: at most 80 characters, a line break or other control
    character escaped (a damaged label keeps the message on one line)."""
    text = f"{label!s:.80}"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _logged(row: sqlite3.Row) -> LoggedAction:
    """One entry of the log as the diary shows it, each field checked."""
    where = f"the log's entry {row['seq']!r:.30}"
    for field in ("label", "kind"):
        if not isinstance(row[field], str):
            raise DamagedState(f"{where} is damaged: its {field} {row[field]!r:.80} is not text")
    try:
        lines = json.loads(row["lines_json"])
    except (TypeError, ValueError, RecursionError):
        raise DamagedState(f"{where} ({_shown(row['label'])}) is damaged: its lines are not "
                           "JSON") from None
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise DamagedState(f"{where} ({_shown(row['label'])}) is damaged: its lines are not a "
                           "list of text")
    return LoggedAction(row["seq"], iso_date(row["date"], where), row["label"], tuple(lines),
                        row["kind"])


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
        reports=frozenset(int(k) for side in (old, new) for k in side.get("reports", {})),
        supply="supply" in old or "supply" in new,
    )


def _position(side: Json, name: str) -> Any:
    entry = side.get("commands", {}).get(name)
    return None if entry is None else (entry.get("position"), entry.get("status"))
