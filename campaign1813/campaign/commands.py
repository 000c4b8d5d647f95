"""Umpire actions as command objects, the event log, and undo/redo over it.

Each action is applied to the state read from the file, written back, and appended to the event
log with the whole state before and after it, all in the caller's one transaction. Undo puts
back the state before the latest action still in force; redo the state after the earliest one
undone. A new action after an undo drops the actions that could have been redone.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import date

from sqlmodel import Session, delete, select

from campaign1813.campaign import aftermath, battles, orders
from campaign1813.campaign.day import DayReport, advance_day
from campaign1813.campaign.ground import Ground, OrderRefused
from campaign1813.campaign.model_day import EventRow
from campaign1813.campaign.scenario.types import Scenario
from campaign1813.campaign.state import (
    DayState,
    find_command,
    load_json,
    state_diff,
    state_from_json,
    state_to_json,
    write_changes,
)

_GROUNDS: dict[int, tuple[Scenario, Ground]] = {}


def ground_for(scenario: Scenario) -> Ground:
    """The road ground of a scenario, built once per scenario object."""
    hit = _GROUNDS.get(id(scenario))
    if hit is None or hit[0] is not scenario:
        if len(_GROUNDS) > 8:
            _GROUNDS.clear()
        hit = (scenario, Ground(scenario))
        _GROUNDS[id(scenario)] = hit
    return hit[1]


_SCENARIOS: dict[str, Scenario] = {}


def scenario_in(session: Session, scenario: Scenario | None = None) -> Scenario:
    """The scenario given, or the one stored in the campaign file (parsed once per content)."""
    if scenario is not None:
        return scenario
    from campaign1813.campaign.scenario import loader

    files = loader.stored_scenario_files(session)
    if not files:
        return loader.scenario_of(session)  # it says what is missing
    key = hashlib.sha256(json.dumps(sorted(files.items())).encode()).hexdigest()
    if key not in _SCENARIOS:
        if len(_SCENARIOS) > 4:
            _SCENARIOS.clear()
        _SCENARIOS[key] = loader.scenario_of(session)
    return _SCENARIOS[key]


@dataclass(frozen=True)
class Changes:
    """What an action changed, so a view can refresh just that."""

    label: str
    lines: tuple[str, ...] = ()
    commands: frozenset[str] = frozenset()
    battles: frozenset[int] = frozenset()
    towns: frozenset[str] = frozenset()
    date_changed: bool = False
    report: DayReport | None = None


@dataclass(frozen=True)
class IssueOrder:
    """Give a command an order."""

    command: str
    verb: str
    objective: str
    via: tuple[str, ...] = ()
    forced: bool = False

    def apply(self, ground: Ground, state: DayState) -> tuple[str, list[str], object]:
        """Check and issue the order."""
        order = orders.build_order(
            ground, state, self.command, self.verb, self.objective, self.via, self.forced
        )
        line = orders.issue(state, order)
        return f"Order: {order.text()}", [line], None


@dataclass(frozen=True)
class IssueOrders:
    """A day's orders entered together: all are issued, or none if one is refused."""

    orders: tuple[IssueOrder, ...]

    def apply(self, ground: Ground, state: DayState):
        """Issue each order in turn."""
        lines = []
        for order in self.orders:
            lines.extend(order.apply(ground, state)[1])
        return f"Orders: {len(self.orders)} orders", lines, None


@dataclass(frozen=True)
class CancelOrder:
    """Withdraw a command's orders."""

    command: str

    def apply(self, ground: Ground, state: DayState):
        """Cancel the orders."""
        line = orders.cancel(state, self.command)
        return f"Cancel orders of {find_command(state, self.command).name}", [line], None


@dataclass(frozen=True)
class EndDay:
    """March the day and, once its battles are decided, end it."""

    def apply(self, ground: Ground, state: DayState):
        """Run the day."""
        report = advance_day(ground, state)
        from campaign1813.campaign.calendar import format_date

        label = f"End day: {format_date(report.day)}"
        if not report.closed:
            label = f"March: {format_date(report.day)}"
        return label, list(report.lines), report


@dataclass(frozen=True)
class RecordResult:
    """Enter a battle's result: French, Allied or draw."""

    battle: int
    result: str
    casualties: dict = field(default_factory=dict)

    def apply(self, ground: Ground, state: DayState):
        """Record the result and its aftermath."""
        lines = aftermath.apply_result(ground, state, self.battle, self.result,
                                       self.casualties or None)
        b = state.battles[self.battle]
        return f"Result: {b.title}: {b.result}", lines, None


@dataclass(frozen=True)
class MergeBattles:
    """Fight two battles as one."""

    battle: int
    other: int
    reason: str

    def apply(self, ground: Ground, state: DayState):
        """Merge them."""
        lines = battles.merge(state, self.battle, self.other, self.reason)
        return f"Merge battles {self.battle} and {self.other}", lines, None


@dataclass(frozen=True)
class SplitBattle:
    """Fight some commands of a battle separately."""

    battle: int
    commands: tuple[str, ...]
    reason: str

    def apply(self, ground: Ground, state: DayState):
        """Split it."""
        lines = battles.split(state, self.battle, self.commands, self.reason, ground)
        return f"Split battle {self.battle}", lines, None


@dataclass(frozen=True)
class PostponeBattle:
    """Put a battle off."""

    battle: int
    reason: str
    days: int = 1

    def apply(self, ground: Ground, state: DayState):
        """Postpone it."""
        lines = battles.postpone(state, self.battle, self.days, self.reason)
        return f"Postpone battle {self.battle}", lines, None


@dataclass(frozen=True)
class ChooseRetreat:
    """The umpire's choice for a cut-off command: surrender or break out."""

    command: str
    option: str
    town: str | None = None

    def apply(self, ground: Ground, state: DayState):
        """Apply the choice."""
        name = find_command(state, self.command).name
        lines = aftermath.choose_option(ground, state, name, self.option, self.town)
        return f"{name}: {self.option}", lines, None


def perform(session: Session, command, scenario: Scenario | None = None) -> Changes:
    """Apply one umpire action in the session's transaction and log it."""
    ground = ground_for(scenario_in(session, scenario))
    before = load_json(session)
    state = state_from_json(before)
    label, lines, report = command.apply(ground, state)
    old, new = state_diff(before, state_to_json(state))
    write_changes(session, new)
    session.exec(delete(EventRow).where(EventRow.undone == True))  # noqa: E712
    session.add(
        EventRow(
            kind=type(command).__name__,
            label=label,
            date=date.fromisoformat(before["date"]),
            lines_json=json.dumps(lines),
            payload_json=json.dumps(asdict(command), default=str),
            before_json=json.dumps(old),
            after_json=json.dumps(new),
        )
    )
    session.flush()
    return _changes(label, tuple(lines), new, report)


def _latest(session: Session, undone: bool) -> EventRow | None:
    order = EventRow.seq if undone else EventRow.seq.desc()
    return session.exec(select(EventRow).where(EventRow.undone == undone).order_by(order)).first()


def undo(session: Session) -> Changes:
    """Put back the state before the latest action in force."""
    row = _latest(session, False)
    if row is None:
        raise OrderRefused("there is nothing to undo")
    old = json.loads(row.before_json)
    write_changes(session, old)
    row.undone = True
    session.add(row)
    session.flush()
    return _changes(f"Undo {row.label}", (), old, None)


def redo(session: Session) -> Changes:
    """Apply again the earliest undone action."""
    row = _latest(session, True)
    if row is None:
        raise OrderRefused("there is nothing to redo")
    new = json.loads(row.after_json)
    write_changes(session, new)
    row.undone = False
    session.add(row)
    session.flush()
    return _changes(f"Redo {row.label}", tuple(json.loads(row.lines_json)), new, None)


def next_undo(session: Session) -> str | None:
    """The label of the action undo would take back, if any."""
    row = _latest(session, False)
    return row.label if row else None


def next_redo(session: Session) -> str | None:
    """The label of the action redo would apply again, if any."""
    row = _latest(session, True)
    return row.label if row else None


def _changes(label, lines, changed: dict, report) -> Changes:
    """What a change touched, read from one side of a state difference."""
    commands = set(changed.get("commands", {}))
    commands |= {k.rsplit("|", 1)[0] for k in changed.get("orders", {})}
    return Changes(
        label,
        lines,
        frozenset(commands),
        frozenset(int(i) for i in changed.get("battles", {})),
        frozenset(changed.get("control", {})),
        "date" in changed,
        report,
    )


# -- the services, one per umpire action ------------------------------------------------------


def issue_order(session: Session, command: str, verb: str, objective: str, *,
                via: tuple[str, ...] = (), forced: bool = False,
                scenario: Scenario | None = None) -> Changes:
    """Give a command an order (refused with the reason if it breaks the rules)."""
    return perform(session, IssueOrder(command, verb, objective, tuple(via), forced), scenario)


def issue_orders(session: Session, orders: list[IssueOrder], *,
                 scenario: Scenario | None = None) -> Changes:
    """Give several orders as one action (one undo step); refused whole if any is refused."""
    return perform(session, IssueOrders(tuple(orders)), scenario)


def cancel_order(session: Session, command: str, *, scenario: Scenario | None = None) -> Changes:
    """Withdraw a command's orders."""
    return perform(session, CancelOrder(command), scenario)


def record_result(session: Session, battle: int, winner: str | None, *,
                  casualties: dict | None = None, scenario: Scenario | None = None) -> Changes:
    """Record a battle's result (a Side or its name, ``draw`` or None) and its aftermath."""
    text = "draw" if winner is None else str(winner)
    return perform(session, RecordResult(battle, text, casualties or {}), scenario)


def merge_battles(session: Session, battle: int, other: int, reason: str, *,
                  scenario: Scenario | None = None) -> Changes:
    """Fight two battles of a day as one, with the umpire's reason kept."""
    return perform(session, MergeBattles(battle, other, reason), scenario)


def split_battle(session: Session, battle: int, commands: tuple[str, ...], reason: str, *,
                 scenario: Scenario | None = None) -> Changes:
    """Fight the named commands of a battle as a separate battle."""
    return perform(session, SplitBattle(battle, tuple(commands), reason), scenario)


def postpone_battle(session: Session, battle: int, reason: str, days: int = 1, *,
                    scenario: Scenario | None = None) -> Changes:
    """Put a battle off by some days."""
    return perform(session, PostponeBattle(battle, reason, days), scenario)


def choose_retreat(session: Session, command: str, option: str, town: str | None = None, *,
                   scenario: Scenario | None = None) -> Changes:
    """Surrender or break out for a command with no road of retreat."""
    return perform(session, ChooseRetreat(command, option, town), scenario)
