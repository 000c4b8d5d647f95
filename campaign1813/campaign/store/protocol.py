"""The campaign store behind one protocol: what services and queries ask of a campaign.

A store is opened by its own function (``store.document.open_campaign`` for a file) and closed
with ``close`` (or at the end of a ``with`` block). It gives the scenario's ground, a read
transaction (``read``: the state, the log, the battles in progress, as one consistent view) and
a unit of work (``unit_of_work``: one write transaction for one umpire action). The unit of
work reads inside the transaction, takes back the state the action changed and the battle
steps it took, and records the action's log entry with them; it works out itself what the
action changed (the entries before and after) from the state it read and the state it is given
back, so undo and redo need nothing more. The services call the day's rules and the battle
engine; the store calls neither.

Nothing here is SQLite's: a PostgreSQL store implements the same protocol beside the file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import date
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import msgspec

from campaign1813.campaign.day import fog
from campaign1813.campaign.day.state import initial_state
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side

if TYPE_CHECKING:  # the battle's types come with the battles asked for, not with the store
    from campaign1813.campaign.battle.core.steps import Step
    from campaign1813.campaign.battle.setup import BattleSetup
    from campaign1813.campaign.day.changes import Changes
    from campaign1813.campaign.day.cycle import DayReport
    from campaign1813.campaign.day.ground import Ground
    from campaign1813.campaign.day.sideview import OwnMove
    from campaign1813.campaign.day.state import DayState
    from campaign1813.campaign.scenario.types import Scenario

# The kinds of log entry that battles on the table make (an action's kind is its class's name).
OPEN_FIGHT = "OpenFight"
FIGHT_STEP = "FightStep"
FINISH_FIGHT = "FinishFight"
ABANDON_FIGHT = "AbandonFight"
AUTO_RESOLVE = "AutoResolve"
MARK_DAY = "MarkDay"  # the umpire's bookmark and note on a day of the history (record 0030)
# The line that opens a battle's full report among the lines of the action that gave its result
# (finished at the table or auto-resolved): the diary keeps the lines before it, the battle the
# report after it.
REPORT_MARK = "Battle report:"


def open_fight_label(title: str) -> str:
    """The log's label of a battle set up on the table (the Undo menu's text)."""
    return f"Open {title} on the table"


def fight_step_label(battle: int, step: str) -> str:
    """The log's label of one step of a battle on the table (the Undo menu's text)."""
    return f"Battle {battle}: {step}"


class CampaignBusy(CampaignError):
    """Another window or process is writing the campaign; the action can be tried again."""


class CampaignSummary(msgspec.Struct, frozen=True):
    """What the window title and ``status`` show: name and dates."""

    name: str
    start_date: date
    current_date: date


class LogEntry(msgspec.Struct, frozen=True):
    """What the log keeps of one umpire action beside the entries it changed: its kind (the
    action's name), its label (the Undo menu's text), the campaign day it was taken on, its
    diary lines and its inputs (``payload``, plain values)."""

    kind: str
    label: str
    day: date
    lines: tuple[str, ...] = ()
    payload: Mapping[str, Any] = msgspec.field(default_factory=dict)


class LoggedAction(msgspec.Struct, frozen=True):
    """One line of the log: its place, the date it was taken, its label and diary lines."""

    seq: int
    day: date
    label: str
    lines: tuple[str, ...]
    kind: str = ""


class LogStep(msgspec.Struct, frozen=True):
    """The action undo or redo would take next: its entry's own id and its label.

    A window keeps what it showed and asks for exactly that entry; a label alone is not enough,
    since another program may log an action with the same label."""

    entry: str
    label: str


class Snapshot(msgspec.Struct, frozen=True):
    """One kept dawn: its day, the sha256 of its canonical JSON and its size in the store."""

    day: date
    sha256: str
    size: int


class DayMark(msgspec.Struct, frozen=True):
    """The umpire's bookmark and note on a day of the campaign's history."""

    day: date
    bookmark: bool
    note: str


class SubmittedForm(msgspec.Struct, frozen=True):
    """One order form a player submitted: its row, his side, the form, who sent it, and what
    became of it (empty until the umpire takes or refuses it)."""

    id: int
    side: str
    form: dict[str, Any]
    login: str
    taken: str = ""


class Verdict(msgspec.Struct, frozen=True):
    """What the rebuild found: each day checked (its hash equal), the days closed with no
    snapshot kept (before the file kept them), and what does not match, in words."""

    checked: tuple[date, ...]
    missing: tuple[date, ...]
    faults: tuple[str, ...]

    @property
    def sound(self) -> bool:
        """Whether every kept snapshot and today's state are what the log rebuilds."""
        return not self.faults


class Fight(NamedTuple):
    """A battle on the table: its setup and the steps taken since, in order."""

    setup: BattleSetup
    steps: list[Step]


class CampaignReader(Protocol):
    """One read transaction: everything read from it is one consistent campaign."""

    def summary(self) -> CampaignSummary:
        """The campaign's name and dates."""
        ...

    def state(self) -> DayState:
        """The campaign day's state."""
        ...

    def state_values(self) -> dict[str, Any]:
        """The state as the plain values the log keeps, for tools and checks."""
        ...

    def log(self) -> list[LoggedAction]:
        """Every action still in force, oldest first."""
        ...

    def latest(self, kind: str) -> LoggedAction | None:
        """The latest action of a kind (``EndDay``) still in force, alone, if any."""
        ...

    def undo_step(self) -> LogStep | None:
        """The action undo would take back, with its entry's id, if any."""
        ...

    def redo_step(self) -> LogStep | None:
        """The action redo would apply again, with its entry's id, if any."""
        ...

    def fight(self, battle: int) -> Fight | None:
        """A battle on the table, or None if it has not been set up."""
        ...

    def side_key(self, side: str) -> bytes:
        """The key issued to a side ("French" or "Allied") to sign its order forms."""
        ...

    def fights(self) -> dict[int, int]:
        """The battles on the table and the number of steps each has taken."""
        ...

    def submitted_forms(self, waiting: bool = True) -> list[SubmittedForm]:
        """The order forms the sides' players submitted, oldest first (only those neither taken
        nor refused yet, if ``waiting``)."""
        ...

    def snapshots(self) -> list[Snapshot]:
        """The days whose dawn is kept, oldest first, with each one's hash and size."""
        ...

    def snapshot(self, day: date) -> DayState:
        """The state at dawn of a day, as its snapshot keeps it (refused if none is kept, or
        if it is not the state its hash names)."""
        ...

    def dawn(self, day: date) -> DayState:
        """The state at dawn of a kept day with its commands only (where each stood, and its
        state): what a side's diary compares with the next dawn (checked as ``snapshot``)."""
        ...

    def day_marks(self) -> dict[date, DayMark]:
        """The umpire's bookmark and note of each day that has one (logged, so undone too)."""
        ...

    def journals(self) -> dict[date, tuple[OwnMove, ...] | None]:
        """Every kept dawn, oldest first, with both sides' moves of the day that ended at it
        (None where the dawn was kept without them: record 0034)."""
        ...

    def journaled(self) -> dict[date, bool]:
        """Every kept dawn, oldest first, and whether its day's moves are kept with it (none
        of them read)."""
        ...

    def first_day(self, first: DayState) -> DayState:
        """The campaign's first day as it stood when its march began: ``first`` (the first
        state) with the umpire's actions of that day that came before the march."""
        ...

    def rebuild(self, first: DayState) -> Verdict:
        """Rebuild every day from ``first`` (the campaign's first state) and the log in force,
        and compare each kept snapshot and today's state with it."""
        ...


class UnitOfWork(CampaignReader, Protocol):
    """One write transaction for one umpire action: read, changed, logged, all or nothing.

    What it reads is read inside the transaction, so a check made on it holds when the action
    is written. It is committed when the block it opens ends without an error and rolled back
    otherwise; ``record`` (or ``undo``/``redo``) is called once, last. ``state`` gives the same
    object each time it is asked, and that object (changed by the action) is what ``put_state``
    takes back.
    """

    def put_state(self, state: DayState) -> None:
        """Take back the state the action changed, to be written with its log entry."""
        ...

    def open_fight(self, setup: BattleSetup) -> None:
        """Put a battle on the table with its setup."""
        ...

    def add_step(self, battle: int, step: Step) -> None:
        """Keep one step of a battle on the table, after those it has."""
        ...

    def remove_fight(self, battle: int) -> None:
        """Take a battle off the table, with its setup and steps."""
        ...

    def record(self, entry: LogEntry, report: DayReport | None = None) -> Changes:
        """Write what the action changed and log it with its entry; say what changed (with the
        day's report, if the action made one)."""
        ...

    def mark_submitted(self, number: int, outcome: str) -> None:
        """Say what became of a submitted form (taken, or refused and why), for its player to
        read; not an action of the log (undo does not take it back). Refused for no such form."""
        ...

    def undo(self, expected: LogStep | None = None) -> Changes:
        """Put back the state before the latest action in force (refused if it is not the one
        the umpire was shown, ``expected``, because another window acted since)."""
        ...

    def redo(self, expected: LogStep | None = None) -> Changes:
        """Apply again the earliest action taken back (refused likewise)."""
        ...


class CampaignStore(Protocol):
    """An open campaign: its scenario and ground, read transactions and units of work."""

    readonly: bool

    def scenario(self) -> Scenario:
        """The campaign's scenario."""
        ...

    def ground(self) -> Ground:
        """The road ground of the campaign's scenario (before the campaign's settings)."""
        ...

    def summary(self) -> CampaignSummary:
        """The campaign's name and dates."""
        ...

    def settings(self) -> dict[str, Any]:
        """The campaign's settings as stored."""
        ...

    def read(self) -> AbstractContextManager[CampaignReader]:
        """One read transaction."""
        ...

    def unit_of_work(self) -> AbstractContextManager[UnitOfWork]:
        """One write transaction for one action (refused as busy when another writer holds the
        campaign past a short wait, and refused when the store is read-only)."""
        ...

    def data_version(self) -> int:
        """A number that changes when another window or process commits."""
        ...

    def close(self) -> None:
        """Release the campaign."""
        ...

    def __enter__(self) -> CampaignStore:
        """The open store, closed when the block ends."""
        ...

    def __exit__(self, *exc: object) -> None:
        """Close the store."""
        ...


def dawns_before(reader: CampaignReader, first: DayState, before: date) -> list[DayState]:
    """The states of the dawns a campaign keeps before a day, oldest first, from ``first``
    (the campaign's first state: its first day is rebuilt from the log as its march began):
    what a side's diary of its own commands' days is made from."""
    if before <= first.date:
        return []
    dawns = [reader.first_day(first)]
    dawns += [reader.snapshot(s.day) for s in reader.snapshots() if first.date < s.day < before]
    return dawns


# -- each side's diary of its own commands' days, kept beside the dawn it ends at ------------
# (record 0034). A side's diary (``fog.journal``) is made from consecutive dawns: where each of its
# commands went between one dawn and the next, and the state it came to. Those entries change only
# when a day closes, so the action that closes a day works out both sides' entries between the
# newest dawn kept before the new day and the new dawn, and keeps them with that dawn's snapshot (in
# the log's ``snapshots`` section, so undo and redo and a campaign moved whole carry them). A side's
# view then reads the kept entries and works out only the last stretch (the newest dawn kept before
# today against today's state): one snapshot decoded, however long the campaign. A snapshot kept
# without its entries (by a version before schema 11) is worked out from its dawn and the one before
# it; the next day closed keeps the entries of every such snapshot. Everything here goes through
# ``CampaignReader``; the rows are ``store.snapshots``'s.


def journal_json(moves: Sequence[OwnMove]) -> str:
    """Moves as the log and the snapshot's row keep them: a JSON list as text (written by
    msgspec, some ten times quicker than making plain values for the log's own writer)."""
    return msgspec.json.encode(list(moves)).decode()


def _both(ground: Ground, before: DayState, after: DayState) -> tuple[OwnMove, ...]:
    """Both sides' moves between two dawns (each side's in its diary's order)."""
    return tuple(fog.day_moves(ground, before, after))


def _dawn(reader: CampaignReader, ground: Ground, start: date, days: Sequence[date],
          at: int) -> DayState:
    """The ``at``-th kept dawn as the earlier of two dawns compared (its commands only), or -1:
    the first day, rebuilt from the log from the campaign's first state, made only then."""
    if at < 0:
        return reader.first_day(initial_state(ground.scenario, start))
    return reader.dawn(days[at])


def closing_moves(reader: CampaignReader, ground: Ground, start: date,
                  dawn: DayState) -> tuple[OwnMove, ...]:
    """Both sides' moves of the day a closing action ends: between the newest dawn kept before
    ``dawn``'s day (the first day if none) and ``dawn``, the state the action leaves."""
    days = [d for d in reader.journaled() if start < d < dawn.date]
    return _both(ground, _dawn(reader, ground, start, days, len(days) - 1), dawn)


def unkept_moves(reader: CampaignReader, ground: Ground,
                 start: date) -> dict[date, tuple[OwnMove, ...]]:
    """The moves of every kept dawn that was kept without them (worked out from its dawn and
    the one before it), to be kept with them."""
    found = reader.journaled()
    days = [d for d in found if start < d]
    out: dict[date, tuple[OwnMove, ...]] = {}
    for at, day in enumerate(days):
        if not found[day]:
            before = _dawn(reader, ground, start, days, at - 1)
            out[day] = _both(ground, before, reader.snapshot(day))
    return out


def side_journals(reader: CampaignReader, ground: Ground, start: date, today: DayState,
                  before: date) -> Mapping[Side, tuple[OwnMove, ...]]:
    """Each side's diary of its own commands' days up to ``today`` (the state of the day
    ``before``): the moves kept with each dawn after the first and before ``before``, and
    those between the newest of them and ``today``; the same as ``fog.journal`` over every
    dawn kept (``dawns_before``) and ``today``."""
    if before <= start:
        return {side: () for side in Side}
    found = reader.journals()
    days = [d for d in found if start < d < before]
    moves: list[OwnMove] = []
    for at, day in enumerate(days):
        held = found[day]
        if held is None:  # kept before the journals were: worked out from its two dawns
            held = _both(ground, _dawn(reader, ground, start, days, at - 1), reader.snapshot(day))
        moves += held
    moves += _both(ground, _dawn(reader, ground, start, days, len(days) - 1), today)
    return {side: tuple(m for m in moves if m.side is side) for side in Side}
