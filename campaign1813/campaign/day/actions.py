"""The umpire's actions as values: each checks itself against the day's rules and applies itself.

An action's ``apply`` works on the state in memory and returns its label (the Edit menu's "Undo
Order: 4 Corps – Move Lüneburg"), its diary lines and, for End Day, the day's report. The store
runs it inside one transaction and logs it; the services are the umpire's way in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from campaign1813.campaign.battle.core.outcome import DRAW, Side
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day import aftermath, battles, intelligence, orders, supply
from campaign1813.campaign.day.cycle import DayReport, advance_day
from campaign1813.campaign.day.ground import Ground, OrderRefused
from campaign1813.campaign.day.objectives import changes_of_hands, objective_states
from campaign1813.campaign.day.settings import BY_NAME, parse_setting, shown
from campaign1813.campaign.day.state import DayState, find_command

Applied = tuple[str, list[str], DayReport | None]


class Action(Protocol):
    """What every umpire action can do: apply itself to the day's state."""

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Check and apply the action; returns its label, diary lines and any day report."""
        ...


@dataclass(frozen=True)
class IssueOrder:
    """Give a command an order."""

    command: str
    verb: str
    objective: str
    via: tuple[str, ...] = ()
    forced: bool = False

    def apply(self, ground: Ground, state: DayState) -> Applied:
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

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Issue each order in turn."""
        lines = []
        for order in self.orders:
            lines.extend(order.apply(ground, state)[1])
        return f"Orders: {len(self.orders)} orders", lines, None


@dataclass(frozen=True)
class CancelOrder:
    """Withdraw a command's orders."""

    command: str

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Cancel the orders."""
        line = orders.cancel(state, self.command)
        return f"Cancel orders of {find_command(state, self.command).name}", [line], None


@dataclass(frozen=True)
class EndDay:
    """March the day and, once its battles are decided, end it."""

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Run the day."""
        before = objective_states(ground.scenario, state)
        report = advance_day(ground, state)
        news = changes_of_hands(before, objective_states(ground.scenario, state))
        if news:
            lines = list(report.lines)
            at = len(lines) - 1 if report.closed and lines else len(lines)  # before "… ends."
            report = replace(report, lines=tuple(lines[:at] + news + lines[at:]))
        label = f"End day: {format_date(report.day)}"
        if not report.closed:
            label = f"March: {format_date(report.day)}"
        return label, list(report.lines), report


@dataclass(frozen=True)
class RecordResult:
    """Enter a battle's result: the side that won, or None for a draw.

    The log keeps it as the side's name, or null for a draw; a result logged before as text
    (``French``, ``Allied`` or ``draw``, any case) reads back the same.
    """

    battle: int
    result: Side | None
    casualties: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        logged: object = self.result  # a result logged before as text reads back as a side
        if isinstance(logged, str) and not isinstance(logged, Side):
            object.__setattr__(self, "result", aftermath.result_side(logged))

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Record the result and its aftermath."""
        before = objective_states(ground.scenario, state)
        text = DRAW if self.result is None else self.result.value
        lines = aftermath.apply_result(ground, state, self.battle, text,
                                       self.casualties or None)
        lines += changes_of_hands(before, objective_states(ground.scenario, state))
        b = state.battles[self.battle]
        return f"Result: {b.title}: {b.result}", lines, None


@dataclass(frozen=True)
class MergeBattles:
    """Fight two battles as one."""

    battle: int
    other: int
    reason: str
    force: bool = False

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Merge them (battles far apart only with ``force``)."""
        lines = battles.merge(state, self.battle, self.other, self.reason, ground, self.force)
        return f"Merge battles {self.battle} and {self.other}", lines, None


@dataclass(frozen=True)
class SplitBattle:
    """Fight some commands of a battle separately."""

    battle: int
    commands: tuple[str, ...]
    reason: str

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Split it."""
        lines = battles.split(state, self.battle, self.commands, self.reason, ground)
        return f"Split battle {self.battle}", lines, None


@dataclass(frozen=True)
class PostponeBattle:
    """Put a battle off."""

    battle: int
    reason: str
    days: int = 1

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Postpone it."""
        lines = battles.postpone(state, self.battle, self.days, self.reason)
        return f"Postpone battle {self.battle}", lines, None


@dataclass(frozen=True)
class ChooseRetreat:
    """The umpire's choice for a cut-off command: surrender or break out."""

    command: str
    option: str
    town: str | None = None

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Apply the choice."""
        name = find_command(state, self.command).name
        lines = aftermath.choose_option(ground, state, name, self.option, self.town)
        return f"{name}: {self.option}", lines, None


@dataclass(frozen=True)
class ChangeSetting:
    """Change one of the campaign's settings (day/settings.py), from the umpire's text."""

    name: str
    value: str

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Check the value and take it from today."""
        name, value = parse_setting(self.name, self.value)
        old = getattr(ground.settings, name)
        if old == value:
            raise OrderRefused(f"{name} is already {shown(value)}")
        base = getattr(ground.scenario.settings, name)
        if value == base:
            state.settings.pop(name, None)  # back to the scenario's own
        else:
            state.settings[name] = value
        # the setting in the words the settings dialog shows, in the Undo menu and the diary
        setting = BY_NAME[name]
        line = f"Setting: {setting.words} {shown(old)} → {shown(value)} ({setting.meaning})."
        lines = [line]
        if name == "supply":
            lines += supply.switch(ground.adjusted(state.settings), state, value)
        return f"Setting: {setting.words} {shown(value)}", lines, None


@dataclass(frozen=True)
class GiveSupplyOrder:
    """A CinC's supply order for today: ``resupply`` a corps from a depot (``origin``),
    ``move`` days of supplies from ``origin`` to ``town``, or make a ``depot`` at ``town``
    with a corps (2016: and one of its brigades)."""

    kind: str
    army: str | None = None
    corps: str | None = None
    origin: str | None = None
    town: str | None = None
    days: int = 0
    brigade: int | None = None

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Check the order against the supply rule and take it for today."""
        order = supply.build_order(ground, state, self.kind, army=self.army,
                                   corps=self.corps, origin=self.origin, town=self.town,
                                   days=self.days, brigade=self.brigade)
        supply.give(ground, state, order)
        line = f"Supply order of the {order.army}: {order.text()}."
        return f"Supply: {order.text()}", [line], None


@dataclass(frozen=True)
class ChooseAttrition:
    """The umpire's choice of the brigade that loses a corps' men out of supply."""

    corps: str
    brigade: int

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Put the men lost on the brigade."""
        name = find_command(state, self.corps).name
        lines = supply.choose_brigade(ground, state, name, self.brigade)
        return f"Attrition: {name}, {self.brigade} Brigade", lines, None


@dataclass(frozen=True)
class ReleaseReports:
    """Release held reports of the enemy to their sides (every held one, if none is named)."""

    numbers: tuple[int, ...] = ()

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Release them."""
        lines = intelligence.release(state, self.numbers)
        return f"Release {len(lines)} report{'s' if len(lines) != 1 else ''}", lines, None


@dataclass(frozen=True)
class HoldReport:
    """Hold a report back from its side."""

    number: int

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Hold it."""
        return f"Hold report {self.number}", intelligence.hold(state, self.number), None


@dataclass(frozen=True)
class EditReport:
    """Change what a report tells its side."""

    number: int
    town: str | None = None
    band: str | None = None
    men: int | None = None
    identity: bool | None = None
    note: str | None = None

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Edit it."""
        lines = intelligence.edit(ground, state, self.number, town=self.town, band=self.band,
                                  men=self.men, identity=self.identity, note=self.note)
        return f"Edit report {self.number}", lines, None


@dataclass(frozen=True)
class AddReport:
    """The umpire's own report of an enemy command to a side."""

    side: str
    subject: str
    town: str
    band: str = "kind"
    men: int = 0
    identity: bool = True
    note: str = ""
    released: bool = False

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Write it."""
        lines = intelligence.add(ground, state, self.side, self.subject, self.town,
                                 band=self.band, men=self.men, identity=self.identity,
                                 note=self.note, released=self.released)
        return f"Report for the {self.side}: {self.subject}", lines, None


@dataclass(frozen=True)
class ImportOrders:
    """A side's returned order form: each order taken or refused with its reason, as on the
    pad, and the form's number kept so the same form is taken once."""

    side: str
    number: str
    digest: str
    orders: tuple[IssueOrder, ...]

    def apply(self, ground: Ground, state: DayState) -> Applied:
        """Take each order that keeps the rules; refuse the others one by one."""
        if self.number in state.imports:
            raise OrderRefused(f"order form {self.number} has been taken already")
        lines: list[str] = []
        taken = 0
        for order in self.orders:
            try:
                command = find_command(state, order.command)
                if command.side.value != self.side:
                    raise OrderRefused(f"{command.name} is not a {self.side} command")
                lines.extend(order.apply(ground, state)[1])
                taken += 1
            except OrderRefused as exc:
                lines.append(f"Refused: {order.command} – {order.verb} {order.objective}: "
                             f"{exc}")
        state.imports[self.number] = self.digest
        refused = len(self.orders) - taken
        return (f"Order form of the {self.side}: {taken} taken, {refused} refused", lines,
                None)
