"""Typed read models of an open campaign, for the window and the command line to present.

Everything here reads inside one read transaction and returns frozen values; nothing changes
the file. ``campaign_status`` is the campaign at a glance (every command, every battle, who holds
each town), ``status_json`` its form for other tools (``status --json``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec.structs import replace

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day import fog, supply
from campaign1813.campaign.day.ground import Ground, Position, describe
from campaign1813.campaign.day.objectives import ObjectiveState, objective_states
from campaign1813.campaign.day.reports import Report
from campaign1813.campaign.day.settings import SETTINGS, shown
from campaign1813.campaign.day.sideview import SideView
from campaign1813.campaign.day.state import (
    Battle,
    DayState,
    Kind,
    Status,
    hq_name,
    initial_state,
    status_reason,
)
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import (
    FIGHT_STEP,
    OPEN_FIGHT,
    REPORT_MARK,
    CampaignStore,
    DayMark,
    LogStep,
    Snapshot,
    Verdict,
    fight_step_label,
    open_fight_label,
    side_journals,
)
from campaign1813.maps.types import Theatre

# Two kinds of read import what they need where they start. The day's rules (``day.movement``,
# ``day.orders``, ``day.aftermath``) are read only by what orders and retreats ask: the campaign
# at a glance, which ``status`` prints and the window shows first, does not need them. The
# battle engine (the registry and a ruleset, ``day.fight_setup``, ``export.setup_sheet``: some
# 45 ms of ``status``'s 110) is read only by the battles on the table and their setup sheets.
if TYPE_CHECKING:
    from campaign1813.campaign.battle.core.actions import ActionSpec, Table
    from campaign1813.campaign.battle.core.engine import Decision, Engine
    from campaign1813.campaign.battle.core.steps import Step
    from campaign1813.campaign.battle.setup import BattleSetup
    from campaign1813.campaign.day.aftermath import BreakOut
    from campaign1813.campaign.export.setup_sheet import SetupSheet


class CommandView(msgspec.Struct, frozen=True):
    """One HQ or corps as the umpire sees it: where, in what state and why, under what orders."""

    name: str
    side: Side
    army: str
    theatre: Theatre
    kind: Kind
    position: Position
    where: str
    status: Status
    status_date: date | None
    battle: int | None
    reason: str | None
    order: str | None
    pending: str | None
    marched: float
    halted: bool
    casualties: tuple[tuple[str, int], ...]
    retreats: tuple[str, ...] = ()
    route: tuple[str, ...] = ()  # the towns its order still marches through, the last its goal
    supply_days: int | None = None  # the days of supplies it carries (None: supply is off)
    owed_men: int = 0  # men lost out of supply whose brigade the umpire must still choose

    @property
    def orders_text(self) -> str:
        """Its orders in words, with an order still carried by a messenger."""
        text = self.order or "no orders"
        return text + (f"; by messenger: {self.pending}" if self.pending else "")

    @property
    def casualties_text(self) -> str | None:
        """The casualties it carries to its next battle (forced marches, or a battle's when
        they are carried forward): ``3 on each of brigades 1–4``; None when it has none."""
        return casualties_text(self.casualties)

    @property
    def must_retreat_today(self) -> bool:
        """Whether the command lost a battle and must march away today."""
        return bool(self.retreats)


def casualties_text(casualties: Iterable[tuple[str, int]]) -> str | None:
    """Casualties per brigade in words: one count for all, or brigade by brigade.

    >>> casualties_text([("1", 3), ("2", 3), ("3", 3), ("4", 3)])
    '3 on each of brigades 1–4'
    >>> casualties_text([("1", 2), ("2", 1), ("4", 2)])
    'by brigade 1:2 2:1 4:2'
    """
    losses = sorted(((b, n) for b, n in casualties if n),
                    key=lambda bn: (0, int(bn[0]), "") if bn[0].isdigit() else (1, 0, bn[0]))
    if not losses:
        return None
    counts = {count for _, count in losses}
    if len(counts) > 1:
        return "by brigade " + " ".join(f"{b}:{n}" for b, n in losses)
    count = counts.pop()
    if len(losses) == 1:
        return f"{count} on brigade {losses[0][0]}"
    return f"{count} on each of brigades {_brigades([b for b, _ in losses])}"


def _brigades(numbers: list[str]) -> str:
    """``1–4``, ``1 and 3``, ``1–3 and 5``: runs of brigade numbers joined by a dash."""
    if not all(n.isdigit() for n in numbers):
        return _and(numbers)
    runs: list[list[int]] = []
    for n in sorted(int(x) for x in numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    items: list[str] = []
    for r in runs:
        items.extend([f"{r[0]}–{r[-1]}"] if len(r) > 2 else map(str, r))
    return _and(items)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class BattleView(msgspec.Struct, frozen=True):
    """A battle scheduled or fought: where, when, who on each side, the result."""

    id: int
    date: date
    place: str
    title: str
    french: tuple[str, ...]
    allied: tuple[str, ...]
    french_reinforcements: tuple[str, ...]
    allied_reinforcements: tuple[str, ...]
    attacker: Side | None
    result: str | None
    notes: tuple[str, ...]

    @property
    def due(self) -> bool:
        """Whether the battle still waits for its result."""
        return self.result is None


class SupplyMark(msgspec.Struct, frozen=True):
    """A depot, or a column waiting on the road, as the map marks it: town, army group, side,
    days of supplies, and whether it is the army's main depot."""

    town: str
    army: str
    side: Side
    days: int
    column: bool = False
    main: bool = False


class CampaignStatus(msgspec.Struct, frozen=True):
    """The campaign at a glance on its current day."""

    name: str
    date: date
    marched: bool
    commands: tuple[CommandView, ...]
    battles: tuple[BattleView, ...]
    control: dict[str, Side] = msgspec.field(default_factory=dict)
    objectives: tuple[ObjectiveState, ...] = ()
    supply: tuple[SupplyMark, ...] = ()  # depots and columns (none when supply is off)

    def command(self, name: str) -> CommandView:
        """A command by its exact name."""
        for c in self.commands:
            if c.name == name:
                return c
        raise KeyError(name)

    def commands_in(self, theatre: Theatre | None) -> tuple[CommandView, ...]:
        """The commands of the army groups of one theatre (all for None)."""
        return tuple(c for c in self.commands if theatre is None or c.theatre is theatre)

    @property
    def battles_due(self) -> tuple[BattleView, ...]:
        """The battles still to be fought or given a result."""
        return tuple(b for b in self.battles if b.due)

    @property
    def cut_off(self) -> tuple[CommandView, ...]:
        """The commands waiting for the umpire's choice: surrender or break out."""
        return tuple(c for c in self.commands if c.status is Status.CUT_OFF)

    @property
    def battles_waiting(self) -> tuple[BattleView, ...]:
        """The battles of this day (or earlier) without a result: End Day waits for them."""
        return tuple(b for b in self.battles if b.due and b.date <= self.date)

    @property
    def heading(self) -> str:
        """``Spring 1813 — 3 May 1813``, and whether the day waits for its battles."""
        text = f"{self.name} — {format_date(self.date)}"
        if not self.marched:
            return text
        if self.battles_waiting:
            return text + " (marched; battles to fight)"
        return text + " (marched; battles decided — End Day closes the day)"


def battle_view(b: Battle) -> BattleView:
    """A battle of the day's state as its read model."""
    return BattleView(b.id, b.date, b.place, b.title, b.french, b.allied,
                      b.french_reinforcements, b.allied_reinforcements, b.attacker, b.result,
                      b.notes)


def command_views(state: DayState, ground: Ground,
                  names: Iterable[str] | None = None) -> tuple[CommandView, ...]:
    """The read models of the named commands (all of them for None), in their stable order."""
    theatres = {a.name: a.theatre for a in ground.scenario.armies}
    wanted = None if names is None else set(names)
    out = []
    for c in state.ordered():
        if wanted is not None and c.name not in wanted:
            continue
        order = state.orders.get(c.name)
        pending = state.pending.get(c.name)
        retreats: tuple[str, ...] = ()
        if c.status is Status.RETREATING and c.status_date == state.date:
            from campaign1813.campaign.day.aftermath import retreat_destinations

            retreats = tuple(sorted(retreat_destinations(ground, state, c.name)))
        out.append(CommandView(
            c.name, c.side, c.army, theatres[c.army], c.kind, c.position,
            describe(c.position, ground), c.status, c.status_date, c.battle,
            status_reason(state, c.name), order.text() if order else None,
            pending.text() if pending else None, c.marched, c.halted, c.casualties, retreats,
            order.route if order else (),
            state.supply.corps.get(c.name) if state.supply is not None else None,
            state.supply.pending.get(c.name, 0) if state.supply is not None else 0))
    return tuple(out)


def supply_marks(state: DayState, ground: Ground) -> tuple[SupplyMark, ...]:
    """Every army's depots (main first) and columns on the road, for the map."""
    found = state.supply
    if found is None:
        return ()
    sides = {a.name: a.side for a in ground.scenario.armies}
    depots = sorted(found.depots.values(), key=lambda d: (d.army, not d.main, d.town))
    marks = [SupplyMark(d.town, d.army, sides[d.army], d.days, False, d.main) for d in depots
             if d.army in sides]
    marks += [SupplyMark(c.town, c.army, sides[c.army], c.days, True)
              for c in sorted(found.columns.values(), key=lambda c: (c.army, c.town))
              if c.army in sides]
    return tuple(marks)


def status_of(state: DayState, ground: Ground, name: str) -> CampaignStatus:
    """The campaign at a glance, from a state in memory."""
    return CampaignStatus(
        name, state.date, state.marched, command_views(state, ground),
        tuple(battle_view(b) for b in sorted(state.battles.values(), key=lambda b: b.id)),
        dict(sorted(state.control.items())), objective_states(ground.scenario, state),
        supply_marks(state, ground))


def campaign_status(doc: CampaignStore) -> CampaignStatus:
    """The campaign at a glance, read in one transaction."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
        name = reader.summary().name
    return status_of(state, ground.adjusted(state.settings), name)


def day_read(doc: CampaignStore) -> tuple[DayState, str]:
    """The state of the campaign day and the campaign's name, read in one transaction: for a
    window that builds its views (``status_of``, ``command_views``, ``preview_of``) from one
    read."""
    with doc.read() as reader:
        return reader.state(), reader.summary().name


def commands(doc: CampaignStore, names: Iterable[str]) -> tuple[CommandView, ...]:
    """The read models of some commands only (those an action changed)."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
    return command_views(state, ground.adjusted(state.settings), names)


def breakouts(doc: CampaignStore, name: str) -> list[BreakOut]:
    """The ways out for a cut-off command, the weakest enemy first."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
    from campaign1813.campaign.day.aftermath import breakout_options

    return breakout_options(ground.adjusted(state.settings), state, name)


class RouteLeg(msgspec.Struct, frozen=True):
    """A piece of road the march covers: from ``start`` to ``end`` miles from town ``a`` along
    the road a–b (``a`` is the end it marches away from, so ``start < end``)."""

    a: str
    b: str
    start: float
    end: float


class RoutePreview(msgspec.Struct, frozen=True):
    """What an order would do before it is given: the towns passed, the road to draw, the miles,
    the marching days and the arrival; or why it would be refused."""

    command: str
    verb: str
    objective: str
    towns: tuple[str, ...]      # towns passed, the objective last
    legs: tuple[RouteLeg, ...]  # for drawing, from where the command stands
    miles: float
    days: int
    arrival: str                # "16 Aug 1813, 15:00"; "" when the order does not march
    refusal: str | None         # why the order would be refused, None if it would be given
    forced: bool = False
    by_messenger: bool = False  # the order reaches the corps a day late, and so does its march

    @property
    def text(self) -> str:
        """The preview in one line, as the order pad shows it."""
        if self.refusal is not None:
            return self.refusal
        if not self.legs:
            return f"{self.command} stands at {self.objective}: no march"
        days = f"{self.days} day" + ("" if self.days == 1 else "s")
        messenger = " (the order goes by messenger)" if self.by_messenger else ""
        return (f"{self.miles:g} miles, {days} of march; arrives {self.arrival}"
                f"{messenger}")


MARCH_START_HOUR = 8      # his marching day runs 0800–2000 (docs/campaign-day.md)
MARCH_HOURS = 12
_MAX_MARCH_DAYS = 10_000  # a march no rate can finish is refused, not waited for


def route_preview(doc: CampaignStore, command: str, verb: str, objective: str,
                  via: tuple[str, ...] = (), forced: bool = False) -> RoutePreview:
    """The route, miles, marching days and arrival an order would give, checked and planned as
    the day would do it (the order's own check, its route, the rate of each road); a refused
    order carries its reason. Contact with the enemy on the way is not foreseen."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
    return preview_of(state, ground.adjusted(state.settings), command, verb, objective, via,
                      forced)


def preview_of(state: DayState, ground: Ground, command: str, verb: str, objective: str,
               via: tuple[str, ...] = (), forced: bool = False) -> RoutePreview:
    """``route_preview`` on a state in memory."""
    from campaign1813.campaign.day.movement import advance
    from campaign1813.campaign.day.orders import build_order

    try:
        order = build_order(ground, state, command, verb, objective, tuple(via), forced)
    except CampaignError as exc:
        return RoutePreview(command, verb, objective, (), (), 0.0, 0, "", str(exc), forced)
    c = state.commands[order.command]
    messenger = order.effective > state.date
    base = RoutePreview(order.command, order.verb.value, order.objective, (order.objective,),
                        (), 0.0, 0, "", None, order.forced, messenger)
    if not order.verb.marches or not order.route:
        return base
    legs = _legs(ground, c.position, order.route)
    miles = round(sum(leg.end - leg.start for leg in legs), 6)  # the roads' own miles
    pos, route = c.position, order.route
    for day in range(_MAX_MARCH_DAYS):
        leg = advance(ground, pos, route, 1.0, c.mounted, order.forced)
        if not leg.route:
            spent = leg.passed[-1][1] if leg.passed else 0.0
            minutes = round(MARCH_HOURS * 60 * spent)
            when = order.effective.fromordinal(order.effective.toordinal() + day)
            arrival = (f"{when.day} {when:%b %Y}, "
                       f"{MARCH_START_HOUR + minutes // 60:02d}:{minutes % 60:02d}")
            return replace(base, towns=order.route, legs=legs, miles=miles,
                           days=day + 1, arrival=arrival)
        pos, route = leg.position.rounded(), leg.route
    return replace(base, refusal=f"{order.command} could never reach {order.objective}")


def _legs(ground: Ground, pos: Position, route: tuple[str, ...]) -> tuple[RouteLeg, ...]:
    """The pieces of road from a position through the towns of a route."""
    legs = []
    for town in route:
        if pos.b is None:
            if town != pos.a:
                legs.append(RouteLeg(pos.a, town, 0.0, ground.miles(pos.a, town)))
        else:
            length = ground.miles(pos.a, pos.b)
            if town == pos.b:
                legs.append(RouteLeg(pos.a, pos.b, pos.miles, length))
            else:
                legs.append(RouteLeg(pos.b, pos.a, length - pos.miles, length))
        pos = Position(town)
    return tuple(legs)


class SettingView(msgspec.Struct, frozen=True):
    """One setting the umpire may change: its value now, what it means, whether the campaign
    changed it from its scenario's."""

    name: str
    value: str
    meaning: str
    changed: bool


def campaign_settings(doc: CampaignStore) -> tuple[SettingView, ...]:
    """The settings the umpire may change, with their values in this campaign."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
    now = ground.adjusted(state.settings).settings
    return tuple(SettingView(s.name, shown(getattr(now, s.name)), s.meaning,
                             s.name in state.settings) for s in SETTINGS)


def depots_in_reach(doc: CampaignStore, corps: str) -> list[str]:
    """The depots a corps stands near enough to draw from, nearest first (read in one
    transaction); what the map's menu offers it."""
    with doc.read() as reader:
        state = reader.state()
    return supply.depots_in_reach(doc.ground().adjusted(state.settings), state, corps)


def supply_lines(doc: CampaignStore) -> list[str]:
    """The supply rule as it stands: each army's stocks and its last day's ledger, the men
    owed to attrition, and today's supply orders."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
    found = state.supply
    if found is None:
        return ["Supply is not kept in this campaign (the setting supply is off)."]
    rules = supply.load_rules(found.version)
    lines = [f"{rules.title}, {format_date(state.date)}:"]
    for army in ground.scenario.armies:
        lines += supply.army_lines(ground, state, found, army)
    lines += [f"Owed: {line}." for line in supply.owed_choices(state)]
    lines += [f"Ordered today: {o.text()} ({o.army})." for o in found.orders]
    return lines


def day_state(doc: CampaignStore) -> DayState:
    """The whole state of the campaign day, for tests and tools that work on it."""
    with doc.read() as reader:
        return reader.state()


def state_json(doc: CampaignStore) -> dict[str, Any]:
    """The state of the campaign day as the JSON values the event log keeps."""
    with doc.read() as reader:
        return reader.state_values()


def next_undo(doc: CampaignStore) -> str | None:
    """The label of the action Undo would take back."""
    step = undo_step(doc)
    return step.label if step else None


def undo_is_in_battle(doc: CampaignStore, battle: int) -> bool:
    """Whether Undo would take back a step of battle ``battle`` on the table, or its setup,
    and not an action of the campaign beyond it."""
    with doc.read() as reader:
        log = reader.log()
        if not log:
            return False
        last = log[-1]
        if last.kind == FIGHT_STEP:
            return last.label.startswith(fight_step_label(battle, ""))
        if last.kind == OPEN_FIGHT:
            found = reader.fight(battle)
            return found is not None and last.label == open_fight_label(found.setup.title)
    return False


def next_redo(doc: CampaignStore) -> str | None:
    """The label of the action Redo would apply again."""
    step = redo_step(doc)
    return step.label if step else None


def day_report(doc: CampaignStore, day: date) -> tuple[str, ...] | None:
    """The diary lines of the End Day in force that ended a day (one entry of the log read,
    nothing else), or None if none did."""
    with doc.read() as reader:
        found = reader.latest("EndDay")
    return found.lines if found is not None and found.day == day else None


def undo_step(doc: CampaignStore) -> LogStep | None:
    """The action Undo would take back, with its log entry's id."""
    with doc.read() as reader:
        return reader.undo_step()


def redo_step(doc: CampaignStore) -> LogStep | None:
    """The action Redo would apply again, with its log entry's id."""
    with doc.read() as reader:
        return reader.redo_step()


# -- the diary ---------------------------------------------------------------------------------


class DiaryEntry(msgspec.Struct, frozen=True):
    """One line of the diary: the campaign date, the action it came from, the text; a line
    that stands for a battle's full report names the battle (``report``)."""

    day: date
    seq: int
    text: str
    report: int | None = None

    def __str__(self) -> str:
        return f"{format_date(self.day)}: {self.text}"


class NoReport(CampaignError):
    """A battle's report asked for where there is none: no such battle, or none fought."""


class BattleReport(msgspec.Struct, frozen=True):
    """A battle's full report, move by move, as the table or auto-resolve wrote it."""

    battle: int
    title: str
    day: date
    lines: tuple[str, ...]

    @property
    def heading(self) -> str:
        """``The battle of Magdeburg (6 May 1813)``."""
        return self.title[:1].upper() + self.title[1:]


def report_link(title: str, battle: int) -> str:
    """The diary's one line that stands for a battle's full report.

    >>> report_link("the battle of Magdeburg (6 May 1813)", 1)
    'Full report: the battle of Magdeburg (6 May 1813), battle 1'
    """
    return f"Full report: {title}, battle {battle}"


def _split_report(lines: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    """An action's diary lines and the full battle report after them (None if it has none)."""
    if REPORT_MARK not in lines:
        return lines, None
    cut = lines.index(REPORT_MARK)
    return lines[:cut], lines[cut + 1:]


def _battle_named(texts: Iterable[str], battles: Iterable[Battle]) -> Battle | None:
    """The battle whose title the texts name (the longest title first)."""
    words = " ".join(texts).casefold()
    for b in sorted(battles, key=lambda b: len(b.title), reverse=True):
        if b.title.casefold() in words:
            return b
    return None


def diary(doc: CampaignStore) -> list[DiaryEntry]:
    """Every line of every action still in force, oldest first; a battle's setup on the table,
    its steps and its full report stay with the battle: its result is one entry of the diary,
    closed by a line that links to the report (``report_link``)."""
    with doc.read() as reader:
        actions = reader.log()
        battles = list(reader.state().battles.values())
    out: list[DiaryEntry] = []
    for a in actions:
        if a.kind in (FIGHT_STEP, OPEN_FIGHT):
            continue
        lines, report = _split_report(a.lines or (a.label,))
        out += [DiaryEntry(a.day, a.seq, line) for line in lines]
        battle = _battle_named((a.label, *lines), battles) if report is not None else None
        if battle is not None:
            out.append(DiaryEntry(a.day, a.seq, report_link(battle.title, battle.id),
                                  battle.id))
    return out


def diary_text(doc: CampaignStore) -> str:
    """The diary as plain text, one dated line each."""
    return "\n".join(str(e) for e in diary(doc))


def battle_report(doc: CampaignStore, battle: int) -> BattleReport:
    """A battle's full report: the one its result was given with (finished at the table or
    auto-resolved), else the report so far of the battle on the table."""
    with doc.read() as reader:
        actions = reader.log()
        state = reader.state()
        found = reader.fight(battle)
    known = state.battles.get(battle)
    if known is None:
        raise NoReport(f"battle {battle}: there is no such battle in the campaign")
    for a in reversed(actions):
        lines, report = _split_report(a.lines)
        if report is not None and _battle_named((a.label, *lines), [known]) is not None:
            return BattleReport(battle, known.title, a.day, report)
    if found is not None:
        setup, steps = found
        return BattleReport(battle, known.title, state.date,
                            tuple(_engine(setup.ruleset).report(setup, steps)))
    raise NoReport(f"battle {battle} ({known.title}) has no report: it has been neither "
                   "fought on the table nor auto-resolved")


# -- for other tools ---------------------------------------------------------------------------


def status_json(status: CampaignStatus) -> dict[str, Any]:
    """The campaign's state for other tools: date, commands with places and orders, battles."""
    return {
        "date": status.date.isoformat(),
        "marched": status.marched,
        "commands": [{
            "name": c.name,
            "side": c.side.value,
            "army": c.army,
            "kind": c.kind.value,
            "position": c.position.to_json(),
            "where": c.where,
            "status": c.status.value,
            "status_date": c.status_date.isoformat() if c.status_date else None,
            "battle": c.battle,
            "reason": c.reason,
            "order": c.order,
            "pending": c.pending,
            "marched": c.marched,
            "halted": c.halted,
            "casualties": dict(c.casualties),
        } for c in status.commands],
        "battles": [battle_json(b) for b in status.battles],
        "control": {t: s.value for t, s in status.control.items()},
        "objectives": [objective_json(o) for o in status.objectives],
    }


def objective_json(o: ObjectiveState) -> dict[str, Any]:
    """An objective and its state for other tools."""
    return {
        "number": o.number, "theatre": o.objective.theatre.value,
        "side": o.objective.side.value, "description": o.objective.description,
        "met": o.met, "since": o.since.isoformat() if o.since else None,
        "towns": [{"town": t.town, "holder": t.holder.value if t.holder else None,
                   "since": t.since.isoformat() if t.since else None} for t in o.towns],
    }


def battle_json(b: BattleView) -> dict[str, Any]:
    """A battle for other tools: place, date, sides, reinforcements, result and notes."""
    return {
        "id": b.id, "date": b.date.isoformat(), "place": b.place, "french": list(b.french),
        "allied": list(b.allied), "french_reinforcements": list(b.french_reinforcements),
        "allied_reinforcements": list(b.allied_reinforcements),
        "attacker": b.attacker.value if b.attacker else None, "result": b.result,
        "notes": list(b.notes),
    }


# -- battles fought on the table ---------------------------------------------------------------


class FightView(msgspec.Struct, frozen=True):
    """A battle in progress: its setup, the steps taken, the state now and what it gives.

    ``state`` is the ruleset's own (the 1813 ``FightState``, or the state of ruleset 002 or
    004); what a window shows of any ruleset is in the fields after it: where the battle
    stands (``step_now``), the units (``units``: headings, a row and key per unit), who may
    act (``who_acts``), the actions with their inputs (``actions``), the mapping of the
    campaign's brigades (``mapping``) and whether the battle is closed (``closed``).
    """

    setup: BattleSetup
    steps: tuple[Step, ...]
    state: Any
    decision: Decision
    broken_corps: tuple[str, ...]
    lost: tuple[str, ...]
    ruleset: str = "1813"
    step_now: str = ""
    units: Table | None = None
    who_acts: tuple[str, ...] = ()
    actions: tuple[ActionSpec, ...] = ()
    mapping: Table | None = None
    closed: bool = False

    @property
    def engine(self) -> Engine[Any]:
        """The engine of the battle's ruleset."""
        return _engine(self.setup.ruleset)

    @property
    def report(self) -> list[str]:
        """The battle report so far."""
        return self.engine.report(self.setup, self.steps)


def _engine(ruleset: str) -> Engine[Any]:
    from campaign1813.campaign.battle.registry import find_ruleset

    return find_ruleset(ruleset)


def fight_view(doc: CampaignStore, battle: int) -> FightView | None:
    """A battle being fought on the table, or None if it has not been set up."""
    with doc.read() as reader:
        found = reader.fight(battle)
    if found is None:
        return None
    setup, steps = found
    engine = _engine(setup.ruleset)
    state = engine.replay(setup, steps)
    corps, lost = engine.broken(setup, state)
    return FightView(setup, tuple(steps), state, engine.decision(setup, state), corps, lost,
                     setup.ruleset, engine.step_now(setup, state),
                     engine.units_table(setup, state), engine.who_acts(setup, state),
                     engine.actions, engine.mapping(setup), engine.closed(setup, steps))


def fights_in_progress(doc: CampaignStore) -> dict[int, int]:
    """The battles set up on the table and how many steps each has taken."""
    with doc.read() as reader:
        return reader.fights()


# -- a battle's setup sheet for the table ------------------------------------------------------


def battle_setup_view(doc: CampaignStore, battle: int) -> SetupSheet:
    """The setup sheet of a battle: the setup on the table if it is being fought, else the one
    the scheduled battle gives now, with the river's course across the table taken from the
    map."""
    from campaign1813.campaign.day.fight_setup import battle_setup
    from campaign1813.campaign.export.setup_sheet import river_miles, setup_sheet

    with doc.read() as reader:
        found = reader.fight(battle)
        state = reader.state()
        name = reader.summary().name
    ground = doc.ground().adjusted(state.settings)
    setup = found[0] if found is not None else battle_setup(ground, state, battle)
    map_data = ground.scenario.map
    town = next(t for t in map_data.towns if t.name == setup.place)
    river = next((r for r in map_data.rivers if r.name == setup.table.river), None)
    course = None if river is None else river_miles(town, river)
    return setup_sheet(setup, campaign=name, river_course=course,
                       entry_roads=_entry_roads(ground, state, setup))


def _entry_roads(ground: Ground, state: DayState, setup: BattleSetup) -> dict[str, str]:
    """The town whose road each corps that enters comes in on: the road it stands on if that
    touches the battle town, else the battle town's neighbour on its shortest way there (the
    same reading the setup's entry edge is worked from)."""
    here = setup.place
    out: dict[str, str] = {}
    for corps in setup.corps:
        command = state.commands.get(hq_name(corps.army) if corps.reserve else corps.key)
        if corps.edge is None or command is None:
            continue
        pos = command.position
        if pos.b is not None and here in pos.ends():
            out[corps.key] = pos.b if pos.a == here else pos.a
            continue
        reach = ground.reach(pos)
        ways = sorted((reach[n] + miles, n) for n, miles in ground.adj[here] if n in reach)
        if ways:
            out[corps.key] = ways[0][1]
    return out


def side_view(doc: CampaignStore, side: Side) -> SideView:
    """What one side knows today (its own commands, the reports released to it), read in one
    transaction: everything shown or sent to a player is built from this."""
    ground = doc.ground()
    with doc.read() as reader:
        state = reader.state()
        summary = reader.summary()
        moves = side_journals(reader, ground, summary.start_date,
                              state, state.date)[side]
    return fog.side_view(ground.adjusted(state.settings), state, side, summary.name,
                         moves=moves)



def enemy_reports(doc: CampaignStore) -> tuple[Report, ...]:
    """Every report of the enemy, to both sides, held or released (the umpire's list)."""
    with doc.read() as reader:
        state = reader.state()
    return tuple(sorted(state.reports.values(), key=lambda r: r.id))


# -- the campaign day by day (record 0030) ---------------------------------------------------


def snapshots(doc: CampaignStore) -> list[Snapshot]:
    """The days whose dawn the campaign keeps, oldest first, with each one's hash and size."""
    with doc.read() as reader:
        return reader.snapshots()


def campaign_days(doc: CampaignStore) -> tuple[date, ...]:
    """The days the history can show: the first, each day whose dawn is kept, and today."""
    with doc.read() as reader:
        summary = reader.summary()
        kept = [s.day for s in reader.snapshots()]
    days = {summary.start_date, summary.current_date, *kept}
    return tuple(sorted(d for d in days if d <= summary.current_date))


def state_on(doc: CampaignStore, day: date) -> DayState:
    """The campaign's state on a day: today's as it stands; any other day's at its dawn as
    its snapshot keeps it (refused if none is kept); the first day's, which no snapshot keeps,
    rebuilt from the log as it stood when its march began (where every command stood at
    dawn, with the settings and reports the umpire gave that day: a fog of war set on the
    first day hides the enemy on it too)."""
    with doc.read() as reader:
        summary = reader.summary()
        if day == summary.current_date:
            return reader.state()
        if day == summary.start_date:
            return reader.first_day(initial_state(doc.scenario(), day))
        return reader.snapshot(day)


def status_on(doc: CampaignStore, day: date) -> CampaignStatus:
    """The campaign at a glance as it stood on a day (``state_on``)."""
    state = state_on(doc, day)
    return status_of(state, doc.ground().adjusted(state.settings), doc.summary().name)


def side_view_on(doc: CampaignStore, side: Side, day: date) -> SideView:
    """What one side knew on a day: its view built from that day's state (``state_on``) and
    the reports released to it by then, never more."""
    state = state_on(doc, day)
    ground = doc.ground()
    with doc.read() as reader:
        summary = reader.summary()
        moves = side_journals(reader, ground, summary.start_date,
                              state, day)[side]
    return fog.side_view(ground.adjusted(state.settings), state, side, summary.name,
                         moves=moves)


def reports_by_day(doc: CampaignStore) -> dict[date, tuple[str, ...]]:
    """The diary's lines of each day (the umpire's actions taken on it and its report)."""
    out: dict[date, list[str]] = {}
    for entry in diary(doc):
        out.setdefault(entry.day, []).append(entry.text)
    return {day: tuple(lines) for day, lines in out.items()}


def battles_by_day(doc: CampaignStore) -> dict[date, tuple[BattleView, ...]]:
    """Every battle (with its result, if it has one) under the day it was fought."""
    out: dict[date, list[BattleView]] = {}
    for b in sorted(day_state(doc).battles.values(), key=lambda b: b.id):
        out.setdefault(b.date, []).append(battle_view(b))
    return {day: tuple(views) for day, views in out.items()}


def day_marks(doc: CampaignStore) -> dict[date, DayMark]:
    """The umpire's bookmark and note of each day that has one."""
    with doc.read() as reader:
        return reader.day_marks()


def verify(doc: CampaignStore) -> Verdict:
    """Rebuild every day from the campaign's first state and its log in force, and compare
    each kept snapshot and today's state with what the log rebuilds."""
    scenario = doc.scenario()
    with doc.read() as reader:
        first = initial_state(scenario, reader.summary().start_date)
        return reader.rebuild(first)
