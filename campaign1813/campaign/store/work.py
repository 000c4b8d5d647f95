"""The campaign file's read transactions and units of work (``store.protocol``) over its one
sqlite3 connection.

A unit of work reads the state as the file holds it, keeps its rows as read, and when the
action's entry is recorded writes only the entries that differ from them (worked out entity by
entity: only those entries are made into JSON values), logging both sides; the steps of battles
on the table go into the same difference. The file's transactions themselves
(``BEGIN IMMEDIATE``, commit, rollback, busy) are the document's. The battles' rows
(``store.fights``) are read with the battle engine's types, imported when a battle is asked for:
the campaign at a glance needs neither.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from campaign1813.campaign.day.fog import day_moves
from campaign1813.campaign.day.state import DayState
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store import fights, log, snapshots
from campaign1813.campaign.store.codec import (
    DamagedState,
    Json,
    StateRead,
    commands_from_json,
    read_campaign,
    read_json,
    read_state,
    read_state_kept,
    side_key,
    state_from_json,
    state_to_json,
)
from campaign1813.campaign.store.protocol import (
    CampaignReader,
    CampaignSummary,
    DayMark,
    Fight,
    LogEntry,
    LoggedAction,
    LogStep,
    Snapshot,
    SubmittedForm,
    UnitOfWork,
    Verdict,
    closing_moves,
    journal_json,
    unkept_moves,
)

if TYPE_CHECKING:
    from campaign1813.campaign.battle.core.steps import Step
    from campaign1813.campaign.battle.setup import BattleSetup
    from campaign1813.campaign.day.changes import Changes
    from campaign1813.campaign.day.cycle import DayReport
    from campaign1813.campaign.day.ground import Ground
    from campaign1813.campaign.day.sideview import OwnMove


class FileReader(CampaignReader):
    """A read transaction of the campaign file."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con

    def summary(self) -> CampaignSummary:
        return CampaignSummary(*read_campaign(self._con))

    def state(self) -> DayState:
        return read_state(self._con)

    def state_values(self) -> dict[str, Any]:
        return read_json(self._con)

    def log(self) -> list[LoggedAction]:
        return log.actions_in_force(self._con)

    def latest(self, kind: str) -> LoggedAction | None:
        return log.latest_in_force(self._con, kind)

    def undo_step(self) -> LogStep | None:
        return log.undo_step(self._con)

    def redo_step(self) -> LogStep | None:
        return log.redo_step(self._con)

    def fight(self, battle: int) -> Fight | None:
        return fights.read(self._con, battle)

    def fights(self) -> dict[int, int]:
        return fights.fought(self._con)

    def side_key(self, side: str) -> bytes:
        return side_key(self._con, side)

    def submitted_forms(self, waiting: bool = True) -> list[SubmittedForm]:
        where = "WHERE taken = ''" if waiting else ""
        rows = self._con.execute(f"SELECT id, side, form, login, taken FROM submitted_orders "
                                 f"{where} ORDER BY id").fetchall()
        return [SubmittedForm(int(r[0]), str(r[1]), _form(r[2]), str(r[3]), str(r[4]))
                for r in rows]

    def snapshots(self) -> list[Snapshot]:
        return snapshots.kept(self._con)

    def snapshot(self, day: date) -> DayState:
        return state_from_json(snapshots.read(self._con, day),
                               f"the snapshot of {day.isoformat()}")

    def dawn(self, day: date) -> DayState:
        return commands_from_json(snapshots.read(self._con, day, commands_only=True),
                                  f"the snapshot of {day.isoformat()}")

    def day_marks(self) -> dict[date, DayMark]:
        return snapshots.day_marks(self._con)

    def journals(self) -> dict[date, tuple[OwnMove, ...] | None]:
        return snapshots.journals(self._con)

    def journaled(self) -> dict[date, bool]:
        return snapshots.journaled(self._con)

    def first_day(self, first: DayState) -> DayState:
        return state_from_json(snapshots.first_day(state_to_json(first),
                                                   snapshots.logged(self._con)),
                               "the first day")

    def rebuild(self, first: DayState) -> Verdict:
        return snapshots.check(state_to_json(first), snapshots.logged(self._con),
                               {s.day: s.sha256 for s in snapshots.kept(self._con)},
                               snapshots.stored(self._con), read_json(self._con))


def _form(text: Any) -> dict[str, Any]:
    """A submitted form's JSON as the table keeps it; anything that is not a JSON object (a
    damaged row) as an empty form, which the import refuses as no order form."""
    try:
        form = json.loads(text) if isinstance(text, str | bytes) else text
    except ValueError:
        return {}
    return form if isinstance(form, dict) else {}


class UnrecordedChange(RuntimeError):
    """A unit of work was given changes and ended without logging them (a fault of the code
    that used it, never of the umpire's action)."""


class FileWork(FileReader, UnitOfWork):
    """A unit of work in the campaign file's write transaction (the document opens and commits
    it): what the action changed is written only by ``record``, with its log entry."""

    def __init__(self, con: sqlite3.Connection,
                 check: Callable[[sqlite3.Connection], object] | None = None,
                 ground: Callable[[], Ground] | None = None) -> None:
        super().__init__(con)
        self._check = check  # the stored state's audit, run on what an undo or redo leaves
        self._ground = ground  # the campaign's ground, for the sides' journals of a closed day
        self._state: DayState | None = None
        self._read: StateRead | None = None  # the state's rows as read, before the action
        self._put: DayState | None = None
        self._fights: dict[int, Fight | None] = {}
        self._old: Json = {}
        self._new: Json = {}
        self._done = False
        self._marked = False

    # -- what the action reads -----------------------------------------------------------------
    def state(self) -> DayState:
        if self._state is None:
            self._state, self._read = read_state_kept(self._con)
        return self._state

    def state_values(self) -> dict[str, Any]:
        self.state()
        assert self._read is not None
        return self._read.values()

    def fight(self, battle: int) -> Fight | None:
        if battle not in self._fights:
            self._fights[battle] = super().fight(battle)
        return self._fights[battle]

    # -- what it changes -----------------------------------------------------------------------
    def put_state(self, state: DayState) -> None:
        self._open()
        self.state()  # the values it is compared with are those read in this transaction
        self._put = state

    def open_fight(self, setup: BattleSetup) -> None:
        self._open()
        if self.fight(setup.battle) is not None:
            raise DamagedState(f"battle {setup.battle} is already on the table")
        self._merge(*fights.opened(setup))
        self._fights[setup.battle] = Fight(setup, [])

    def add_step(self, battle: int, step: Step) -> None:
        self._open()
        fight = self.fight(battle)
        if fight is None:
            raise DamagedState(f"battle {battle} is not being fought")
        self._merge(*fights.stepped(battle, len(fight.steps), step))
        self._fights[battle] = Fight(fight.setup, [*fight.steps, step])

    def remove_fight(self, battle: int) -> None:
        self._open()
        fight = self.fight(battle)
        if fight is None:
            raise DamagedState(f"battle {battle} is not being fought")
        self._merge(*fights.removed(fight))
        self._fights[battle] = None

    def record(self, entry: LogEntry, report: DayReport | None = None) -> Changes:
        self._open()
        old: Json = {}
        new: Json = {}
        dawn: bytes | None = None
        if self._put is not None:
            assert self._read is not None
            if self._put.date <= self._read.date:
                old, new = self._read.changes(self._put)
            else:
                # the action closed a day: the dawn of the next is kept, the log keeps its hash;
                # the whole state's JSON values, made for it alone, give the change its values
                after = state_to_json(self._put)
                old, new = self._read.changes(self._put, after)
                day = self._put.date.isoformat()
                old[snapshots.SECTION] = {day: None}
                # its canonical JSON made once, for the logged hash and the snapshot kept
                dawn = snapshots.canonical(after)
                new[snapshots.SECTION] = {day: {"sha256": hashlib.sha256(dawn).hexdigest(),
                                                **self._journal(self._put)}}
        old.update(self._old)
        new.update(self._new)
        self._done = True
        return log.record(self._con, entry, old, new, report, dawn)

    def mark_submitted(self, number: int, outcome: str) -> None:
        if self._con.execute("SELECT 1 FROM submitted_orders WHERE id = ?",
                             (number,)).fetchone() is None:
            raise CampaignError(f"submitted form {number}: the campaign has no such form")
        self._con.execute("UPDATE submitted_orders SET taken = ? WHERE id = ?",
                          (outcome or "taken", number))
        self._marked = True

    def _journal(self, dawn: DayState) -> Json:
        """Both sides' moves of the day that ends at ``dawn``, for its snapshot (and the moves
        of any dawn kept without them, kept now: record 0034)."""
        if self._ground is None:
            return {}
        ground = self._ground()
        start = self.summary().start_date
        kept = self.journaled()
        for day, moves in unkept_moves(self, ground, start).items():
            self._con.execute("UPDATE day_snapshot SET journal = ? WHERE day = ?",
                              (journal_json(moves), day.isoformat()))
        assert self._read is not None
        today = self._read.date
        if today in kept and not snapshots.commands_changed_on(self._con, today):
            # nothing of today's log touched a command before this action: its commands as
            # read are the ones today's dawn keeps, and that dawn need not be read back
            read = DayState(today, False, 1, self._read.commands)
            return {"journal": journal_json(day_moves(ground, read, dawn))}
        return {"journal": journal_json(closing_moves(self, ground, start, dawn))}

    def undo(self, expected: LogStep | None = None) -> Changes:
        self._open()
        self._done = True
        return log.undo(self._con, expected, self._check)

    def redo(self, expected: LogStep | None = None) -> Changes:
        self._open()
        self._done = True
        return log.redo(self._con, expected, self._check)

    @property
    def wrote(self) -> bool:
        """Whether this unit of work logged an action (or undid or redid one), or marked a
        submitted form."""
        return self._done or self._marked

    def close(self) -> None:
        """Refuse to end a unit of work whose changes were never logged (the caller's
        transaction is then rolled back)."""
        if not self._done and (self._put is not None or self._new):
            raise UnrecordedChange("an action's changes were not logged; nothing was written")

    def _open(self) -> None:
        if self._done:
            raise UnrecordedChange("this unit of work has logged its action already")

    def _merge(self, old: Json, new: Json) -> None:
        # An entry changed twice in one action was, before it, what it was before the first.
        for section, entries in old.items():
            kept = self._old.setdefault(section, {})
            for key, value in entries.items():
                kept.setdefault(key, value)
        for section, entries in new.items():
            self._new.setdefault(section, {}).update(entries)
