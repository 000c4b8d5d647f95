"""A side's view of the campaign: everything a player is shown or sent is built from it.

``build`` takes a ``SideInputs``: the side's own commands, its own army groups and objectives,
the public map's towns, and the sightings released to it. It takes no day state, no scenario
and no report of the other side; this module imports neither the day's state nor the reports'
records nor the store (an import-linter contract holds it), and ``build`` refuses inputs of
another side. So nothing of the master state's enemy entries can reach a player through here:
what the side has not been told is not in its inputs (record 0025). The one place that picks a
side's inputs out of the master state is ``day.fog.side_inputs``.
"""

# no ``from __future__ import annotations``: msgspec reads these annotations

from datetime import date, timedelta
from typing import Any

import msgspec

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import ArmyGroup, Objective, Side


class ForeignInput(CampaignError):
    """A side's view was handed something of the other side (a fault of the caller)."""


class OwnCommand(msgspec.Struct, frozen=True):
    """One of the side's own commands, known exactly."""

    name: str
    side: Side
    army: str
    kind: str
    place: str
    town: str
    status: str
    order: str
    men: int
    # where it stands, as the map places it: a town, or miles along the road from a to b
    a: str = ""
    b: str | None = None
    miles: float = 0.0
    supply_days: int | None = None  # the days of supplies it carries, while supply is kept


class OwnMove(msgspec.Struct, frozen=True):
    """A day of one of the side's own commands, as its own records show it: where it went,
    or the state it came to (resting, retreating …), between two dawns."""

    day: date
    side: Side
    name: str
    text: str


class OwnSupply(msgspec.Struct, frozen=True):
    """A depot of one of the side's own army groups, or a column of theirs on the road."""

    town: str
    army: str
    side: Side
    days: int
    column: bool = False
    main: bool = False

    def what(self) -> str:
        """``Main depot``, ``Depot`` or ``Column waiting``."""
        return "Column waiting" if self.column else "Main depot" if self.main else "Depot"

    def text(self) -> str:
        """``Main depot at Hamburg (Second French Army): 6 days``."""
        return f"{self.what()} at {self.town} ({self.army}): {self.days} day" + \
            ("" if self.days == 1 else "s")


class Sighting(msgspec.Struct, frozen=True):
    """A report released to the side, as the side may read it: what it calls the command
    (its name only when made out), where, how strong, when seen and known, and by whom."""

    side: Side
    name: str
    identified: bool
    place: str
    town: str
    strength: str
    seen_day: date
    seen_hour: str
    known_day: date
    how: str
    seen_by: str
    text: str


class SideInputs(msgspec.Struct, frozen=True):
    """Everything a side's view is built from, and nothing more."""

    campaign: str
    side: Side
    day: date
    own: tuple[OwnCommand, ...]
    armies: tuple[ArmyGroup, ...]
    objectives: tuple[Objective, ...]
    sightings: tuple[Sighting, ...]
    towns: tuple[tuple[str, float, float], ...]  # the public map: name, latitude, longitude
    supply: tuple[OwnSupply, ...] = ()  # its own depots and columns (the enemy's never)
    journal: tuple[OwnMove, ...] = ()  # its own commands' days, from the dawns kept


class MapItem(msgspec.Struct, frozen=True):
    """One item of the side's map: a command of its own or a sighting of the enemy."""

    label: str
    tooltip: str
    town: str
    own: bool
    faded: bool  # an old sighting, drawn faded with its date
    key: str = ""  # the item's own key on the map
    hq: bool = False
    road: str | None = None  # the road's other town, for a command of its own on a road
    miles: float = 0.0
    supply_days: int | None = None  # a corps of its own: its days of supplies, while kept


class SideView(msgspec.Struct, frozen=True):
    """What one side knows on one day: its map, its commands, orders of battle, diary,
    objectives and the day's report."""

    campaign: str
    side: Side
    day: date
    banner: str
    map_items: tuple[MapItem, ...]
    table: tuple[tuple[str, ...], ...]  # the table of commands, with its heading row first
    own_oob: tuple[str, ...]
    enemy_oob: tuple[str, ...]
    diary: tuple[str, ...]
    objectives: tuple[str, ...]
    day_report: tuple[str, ...]
    towns: tuple[tuple[str, float, float], ...]
    supply: tuple[str, ...] = ()  # its own depots, columns and corps' days, in words
    own_supply: tuple[OwnSupply, ...] = ()  # its own depots and columns, for its map


TABLE_HEADING = ("Command", "Army group", "Where", "Status", "Orders", "Men")


def build(inputs: SideInputs) -> SideView:
    """The side's view, made from its own inputs only (refused if any is the other side's)."""
    side = inputs.side
    _check(inputs)
    day = inputs.day
    latest = _latest(inputs.sightings)
    items = [MapItem(c.name, f"{c.name} ({c.army}) at {c.place}: {c.status}; {c.order}",
                     c.a or c.town, True, False, c.name, c.kind == "HQ", c.b, c.miles,
                     c.supply_days)
             for c in inputs.own]
    items += [MapItem(f"{s.name} (seen {_short(s.seen_day)})", s.text, s.town, False,
                      stale(s, day), f"report {n}") for n, s in enumerate(latest, 1)]
    table = (TABLE_HEADING, *((c.name, c.army, c.place, c.status, c.order,
                               "—" if c.kind == "HQ" else f"{c.men:,}") for c in inputs.own))
    own_oob = tuple(line for army in inputs.armies for line in _army_lines(army))
    enemy_oob = tuple(f"{s.name}: {s.strength}, at {s.place} (seen {format_date(s.seen_day)}"
                      f", known {format_date(s.known_day)})" for s in latest) or (
        "No report of the enemy has reached the CinC.",)
    diary: list[str] = []
    for known in sorted({s.known_day for s in inputs.sightings}
                        | {m.day for m in inputs.journal}):
        diary.append(f"{format_date(known)}:")
        diary += [f"  {m.text}." for m in inputs.journal if m.day == known]
        diary += [f"  {s.text}." for s in inputs.sightings if s.known_day == known]
    today = [s for s in inputs.sightings if s.known_day >= day - timedelta(days=1)]
    day_report = (f"The {people(side)} on {format_date(day)}.",
                  *(f"{c.name} at {c.place}: {c.status}; {c.order}." for c in inputs.own),
                  *(f"Report: {s.text}." for s in today))
    objectives = tuple(f"{o.theatre.value}: {o.description}" for o in inputs.objectives)
    banner = f"As the {people(side)}: {inputs.campaign}, {format_date(day)}"
    supply = _supply_lines(inputs)
    return SideView(inputs.campaign, side, day, banner, tuple(items), table, own_oob,
                    enemy_oob, tuple(diary), objectives, (*day_report, *supply), inputs.towns,
                    supply, inputs.supply)


def _supply_lines(inputs: SideInputs) -> tuple[str, ...]:
    """The side's own supplies: each corps' days (out of supply when none), then its depots
    and columns."""
    corps = [(c.name, c.supply_days) for c in inputs.own if c.supply_days is not None]
    lines = [f"Supplies: {name} " + ("out of supply" if days == 0 else
                                     f"{days} day{'' if days == 1 else 's'}")
             + "." for name, days in corps]
    return tuple(lines) + tuple(f"Supplies: {s.text()}." for s in inputs.supply)


def people(side: Side) -> str:
    """A side as its men are called: the French, the Allies."""
    return "French" if side is Side.FRENCH else "Allies"


def stale(s: Sighting, day: date) -> bool:
    """Whether a sighting is old on ``day``: seen before the day just past."""
    return s.seen_day < day - timedelta(days=1)


def _check(inputs: SideInputs) -> None:
    side = inputs.side
    for c in inputs.own:
        if c.side is not side:
            raise ForeignInput(f"{c.name} is not a {side.value} command: a side's view holds "
                               "only its own commands")
    for a in inputs.armies:
        if a.side is not side:
            raise ForeignInput(f"{a.name} is not a {side.value} army group")
    for o in inputs.objectives:
        if o.side is not side:
            raise ForeignInput(f"an objective of the {o.side.value} is not the {side.value}'")
    for m in inputs.journal:
        if m.side is not side:
            raise ForeignInput(f"{m.name} is not a {side.value} command: a side's diary holds "
                               "only its own commands' days")
    for d in inputs.supply:
        if d.side is not side:
            raise ForeignInput(f"the supplies of the {d.army} at {d.town} are not the "
                               f"{side.value}'")
    for s in inputs.sightings:
        if s.side is not side:
            raise ForeignInput(f"a report to the {s.side.value} is not the {side.value}'")
        if s.known_day > inputs.day:
            raise ForeignInput(f"a report known on {format_date(s.known_day)} has not reached "
                               f"the {side.value} on {format_date(inputs.day)}")


def _latest(sightings: tuple[Sighting, ...]) -> list[Sighting]:
    """The newest sighting of each command made out by name; every unnamed one on its own
    (two sightings of an unnamed corps are not known to be the same corps)."""
    named: dict[str, Sighting] = {}
    unnamed: list[Sighting] = []
    for s in sorted(sightings, key=lambda s: (s.seen_day, s.seen_hour)):
        if s.identified:
            named[s.name] = s
        else:
            unnamed.append(s)
    return sorted([*named.values(), *unnamed], key=lambda s: (s.name, s.seen_day))


def _short(day: date) -> str:
    return f"{day.day} {day:%b}"


def _army_lines(army: ArmyGroup) -> list[str]:
    lines = [f"{army.name} ({army.theatre.value}): CinC {army.cinc.name} "
             f"({army.cinc.grade.value}), HQ {army.hq}; reserve {army.reserve.name}"]
    for corps in army.corps:
        lines.append(f"  {corps.name} ({corps.nationality}), {corps.commander.name} "
                     f"({corps.commander.grade.value}), from {corps.start}")
        for b in corps.infantry:
            lines.append(f"    {b.number} {b.name or 'brigade'}: {b.klass.value}/"
                         f"{b.firepower.value}/{b.skirmish.value}")
        cav = corps.cavalry
        lines.append(f"    {cav.number} {cav.name or 'cavalry'}: {cav.klass.value} "
                     f"{cav.type.value}{' lancers' if cav.lancers else ''}")
        art = corps.artillery
        lines.append(f"    artillery: {art.klass.value} {art.calibre} pdr"
                     f"{' horse' if art.horse else ''}")
    return lines


def view_json(view: SideView) -> dict[str, Any]:
    """The view as plain JSON values (the packet's situation report)."""
    data: dict[str, Any] = msgspec.to_builtins(view)
    return data


def view_text(view: SideView) -> str:
    """Every word of the view, as the printed situation report reads it."""
    parts = [view.banner, "", "Map:"]
    parts += [f"  {i.label} — {i.tooltip}{' (old)' if i.faded else ''}" for i in view.map_items]
    parts += ["", "Commands:"] + ["  " + " | ".join(row) for row in view.table]
    parts += ["", "Our orders of battle:"] + list(view.own_oob)
    parts += ["", "The enemy as reported:"] + [f"  {line}" for line in view.enemy_oob]
    parts += ["", "Objectives:"] + [f"  {line}" for line in view.objectives]
    parts += ["", "The day's report:"] + [f"  {line}" for line in view.day_report]
    parts += ["", "Diary:"] + list(view.diary)
    return "\n".join(parts) + "\n"
