"""A battle's setup sheet for the tabletop, as plain values: what the table needs before chip one.

:func:`setup_sheet` reads a :class:`~campaign1813.campaign.battle.setup.BattleSetup` and gives a
:class:`SetupSheet`: the 6 × 6 ft table of nine 2-ft squares with the town's terrain, its roads by
bearing and the river's course across it; each side's entries (edge, turn, the corps in the
order they come on, each corps' column of march, cavalry first); the chips and who holds each
number, the special chips in play; each corps' written orders, objective and figures at the
rules' scale (seed 000: 32 infantry in four brigades of 8, 4 cavalry, 1 gun and 4 crew); each
brigade's automatic-rout point (6 / 4 / 3) and the casualties it brings. The PDF and SVG are
drawn from it in ``ui/paper``; :func:`sheet_json` is its form for other tools, described by
``docs/schemas/battle-setup.schema.json``.

The table is 6 miles across (``TABLE_MILES`` each way from the town), so one foot of table is a
mile of map: points on it are given in feet from the north-west corner, x east and y south.

>>> square_name(0, 0), square_name(1, 1), square_name(2, 1)
('NW', 'centre', 'S')
>>> figures_text(Arm.INFANTRY), figures_text(Arm.ARTILLERY)
('8 infantry figures', '1 gun and 4 crew')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol, runtime_checkable

from campaign1813.campaign.battle.core.actions import Tally
from campaign1813.campaign.battle.core.units import RulesetSheet, UnitsEngine
from campaign1813.campaign.battle.registry import find_ruleset
from campaign1813.campaign.battle.setup import (
    FRENCH,
    REINFORCEMENT_TURN,
    BattleSetup,
    BrigadeSetup,
    CommanderSetup,
    CorpsSetup,
    Edge,
    Special,
    TableRoad,
)
from campaign1813.campaign.battle.terms import Arm
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.export.paper import NoPaperError, installed
from campaign1813.maps.geometry import MILES_PER_DEGREE
from campaign1813.maps.types import River, Town

__all__ = ["SetupSheet", "TableSheet", "SquareSheet", "RoadSheet", "EntrySheet", "CorpsSheet",
           "BrigadeSheet", "ChipSheet", "ReserveSheet", "Figures", "setup_sheet", "sheet_json",
           "square_name", "figures_text", "river_course_on_table", "river_miles", "FIGURES",
           "SPECIAL_MEANING", "SCHEMA_ID", "SheetPaper", "sheet_paper"]

SCHEMA_ID = "https://campaign1813.example/schemas/battle-setup.schema.json"

# Seed 000, Organisation of Armies: 8 figures to an infantry brigade, 4 to a cavalry brigade,
# one gun and 4 crew for the corps artillery (so 32 infantry, 4 cavalry, 1 gun a corps).
FIGURES = {Arm.INFANTRY: 8, Arm.CAVALRY: 4, Arm.ARTILLERY: 1}
ARTILLERY_CREW = 4

# What each special chip does when drawn (seed 000, Summary of the Rules).
SPECIAL_MEANING = {
    Special.POOR.value: "the next Poor commander drawn forgoes his move",
    Special.FRENCH_TACTICAL.value: "one French commander still on a blind who has not yet "
                                   "moved may move",
    Special.FRENCH_GIFTED.value: "one Gifted French commander who has not yet moved may move",
    Special.ALLIED_GIFTED.value: "one Gifted Allied commander who has not yet moved may move",
}

_SQUARE_NAMES = (("NW", "N", "NE"), ("W", "centre", "E"), ("SW", "S", "SE"))


def square_name(row: int, col: int) -> str:
    """A square's name by the compass: ``NW`` … ``SE``, the battle town's ``centre``."""
    return _SQUARE_NAMES[row][col]


def figures_text(arm: Arm) -> str:
    """The figures a brigade of this arm puts on the table at the rules' scale."""
    if arm is Arm.ARTILLERY:
        return f"1 gun and {ARTILLERY_CREW} crew"
    return f"{FIGURES[arm]} {arm.value} figures"


@dataclass(frozen=True)
class SquareSheet:
    """One 2-ft square: where it lies and the terrain the setup suggests for it."""

    row: int
    col: int
    name: str
    terrain: tuple[str, ...]


@dataclass(frozen=True)
class RoadSheet:
    """A road leaving the town: where to, its bearing, the edge and square it runs to."""

    to: str
    bearing: float
    edge: Edge
    square: str
    road_class: str
    river: str | None
    crossing: str | None
    exit: tuple[float, float]


@dataclass(frozen=True)
class TableSheet:
    """The table: its size, the town in the centre, the nine squares, roads and river."""

    town: str
    kind: str
    built_up: bool
    fortress: bool
    river: str | None
    feet: int
    square_feet: int
    squares: tuple[SquareSheet, ...]
    roads: tuple[RoadSheet, ...]
    river_course: tuple[tuple[float, float], ...]
    river_from_map: bool

    @property
    def size_text(self) -> str:
        """``6 × 6 ft, nine 2-ft squares``."""
        n = (self.feet // self.square_feet) ** 2
        return f"{self.feet} × {self.feet} ft, {_count(n)} {self.square_feet}-ft squares"


@dataclass(frozen=True)
class BrigadeSheet:
    """One brigade or battery: its ratings, figures, and its casualty tally in the battle's
    ruleset: ``rout_point`` marks, the last of which puts it out of the battle (the 1813 rout
    point; seed 002's elimination, the hit over its limit; seed 004's 0 %), ``casualties`` of
    them brought in; ``unit`` what it is in a ruleset that converts it (empty for the 1813
    rules) and ``tally_note`` the tally in words."""

    key: str
    name: str
    arm: Arm
    klass: str
    firepower: str | None
    skirmish: str | None
    kind: str
    figures: str
    rout_point: int
    casualties: int
    unit: str = ""
    tally_note: str = ""

    @property
    def short(self) -> str:
        """Its name in a column of march: ``1 Cav``, ``17``, ``Guns``."""
        if self.arm is Arm.ARTILLERY:
            return "Guns"
        number = self.name.split()[0]
        return f"{number} Cav" if self.arm is Arm.CAVALRY else number

    @property
    def ratings(self) -> str:
        """``Class A  Firepower B  Skirmish A``, or the class and kind for horse and guns."""
        if self.arm is Arm.INFANTRY:
            return f"Class {self.klass}  Firepower {self.firepower}  Skirmish {self.skirmish}"
        return f"Class {self.klass}  {self.kind}"


@dataclass(frozen=True)
class Figures:
    """A corps' figures on the table at the rules' scale."""

    infantry: int
    cavalry: int
    guns: int
    crew: int

    @property
    def text(self) -> str:
        """``32 infantry, 4 cavalry, 1 gun and 4 crew``."""
        parts = []
        if self.infantry:
            parts.append(f"{self.infantry} infantry")
        if self.cavalry:
            parts.append(f"{self.cavalry} cavalry")
        if self.guns:
            parts.append(f"{self.guns} gun{'s' if self.guns > 1 else ''} and {self.crew} crew")
        return ", ".join(parts) or "no figures until the reserve is allocated"


@dataclass(frozen=True)
class CorpsSheet:
    """A corps (or a reserve) as the sheet shows it: its commander, chip, orders, entry, blind,
    figures and brigades in march order."""

    key: str
    side: str
    army: str
    commander: str
    grade: str
    bonus: int
    chip: str | None
    orders: str
    objective: str
    edge: Edge | None
    turn: int
    column_of_march: bool
    blind: str
    reserve: bool
    brigades: tuple[BrigadeSheet, ...]
    figures: Figures
    road: str | None = None

    @property
    def arrival(self) -> str:
        """``deployed on the table``, or ``north edge, turn 4, in column of march``."""
        if self.edge is None:
            text = "deployed on the table"
            return text if self.turn == 1 else f"{text}, turn {self.turn}"
        how = "in column of march" if self.column_of_march else "deployed"
        by = f" by the {self.road} road" if self.road else ""
        return f"{self.edge.value} edge{by}, turn {self.turn}, {how}"

    @property
    def march_order(self) -> tuple[str, ...]:
        """The brigades in the order they come on (cavalry first, infantry 1–4, the guns)."""
        return tuple(b.name for b in self.brigades)

    @property
    def reinforcement(self) -> bool:
        """Whether the corps marches to the sound of the guns and arrives later."""
        return self.turn >= REINFORCEMENT_TURN


@dataclass(frozen=True)
class EntrySheet:
    """Where and when some of one side's corps come on, in the order they come."""

    side: str
    edge: Edge | None
    turn: int
    corps: tuple[str, ...]
    blinds: tuple[str, ...]
    road: str | None = None

    @property
    def label(self) -> str:
        """``Allied, north edge by the Burg road, turn 1``, or ``French, deployed on the
        table``."""
        if self.edge is None:
            return f"{self.side}, deployed on the table"
        by = f" by the {self.road} road" if self.road else ""
        return f"{self.side}, {self.edge.value} edge{by}, turn {self.turn}"


@dataclass(frozen=True)
class ChipSheet:
    """A chip in the bag: a number and the commander who holds it, or a special chip.

    ``meaning`` is a special chip's rule; for a commander's chip, when he reaches the table
    later than turn 1 (a CinC marching to the sound of the guns), else None."""

    label: str
    side: str | None
    commander: str | None
    command: str | None
    role: str | None
    grade: str | None
    meaning: str | None

    @property
    def special(self) -> bool:
        """Whether this is one of the special chips (Poor, tactical, gifted)."""
        return self.commander is None


@dataclass(frozen=True)
class ReserveSheet:
    """A side's reserve commander and what he may be given: the corps' cavalry and guns."""

    key: str
    side: str
    commander: str
    grade: str
    chip: str | None
    candidates: tuple[tuple[str, str], ...]  # (corps, brigade name)


@dataclass(frozen=True)
class SetupSheet:
    """Everything the setup sheet of one battle shows."""

    battle: int
    title: str
    place: str
    date: str
    date_text: str
    campaign: str
    ruleset: str
    seed: int
    turns: int
    table: TableSheet
    corps: tuple[CorpsSheet, ...]
    entries: tuple[EntrySheet, ...]
    chips: tuple[ChipSheet, ...]
    reserves: tuple[ReserveSheet, ...]
    rules: RulesetSheet | None = None
    """A ruleset of its own (seeds 002 and 004): its sequence, figures and commanders, shown
    instead of the 1813 chips; None for the 1813 rules."""

    @property
    def heading(self) -> str:
        """``The battle of Magdeburg (5 May 1813)``."""
        return self.title[0].upper() + self.title[1:]

    def side_corps(self, side: str) -> tuple[CorpsSheet, ...]:
        """The corps of one side in chip order."""
        return tuple(c for c in self.corps if c.side == side)

    @property
    def specials(self) -> tuple[ChipSheet, ...]:
        """The special chips in play."""
        return tuple(c for c in self.chips if c.special)


def _count(n: int) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[n] if n < len(words) else str(n)


# -- the table ---------------------------------------------------------------------------------


def _road_exit(bearing: float, feet: float) -> tuple[float, float]:
    """Where a road from the centre on this bearing reaches the table's edge, in feet from the
    north-west corner (x east, y south)."""
    half = feet / 2
    dx, dy = math.sin(math.radians(bearing)), -math.cos(math.radians(bearing))
    scale = half / max(abs(dx), abs(dy))
    return round(half + dx * scale, 3), round(half + dy * scale, 3)


def _clip(p: tuple[float, float], q: tuple[float, float],
          half: float) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of segment p–q inside the square ±half (Liang–Barsky), or None."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo_gap, hi_gap in ((dx, p[0] + half, half - p[0]), (dy, p[1] + half, half - p[1])):
        for num, den in ((lo_gap, -d), (hi_gap, d)):
            if den == 0:
                if num < 0:
                    return None
                continue
            t = num / den
            if den < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    if t0 > t1:
        return None
    return (p[0] + t0 * dx, p[1] + t0 * dy), (p[0] + t1 * dx, p[1] + t1 * dy)


def river_course_on_table(points_miles: Sequence[tuple[float, float]],
                          feet: float = 6.0) -> tuple[tuple[float, float], ...]:
    """A river's course (miles east and north of the town) cut to the table, in feet from the
    north-west corner; the longest stretch on the table if it leaves and comes back.

    >>> river_course_on_table([(0.5, -5.0), (0.5, 5.0)])
    ((3.5, 6.0), (3.5, 0.0))
    >>> river_course_on_table([(9.0, 0.0), (9.0, 5.0)])
    ()
    """
    half = feet / 2
    runs: list[list[tuple[float, float]]] = []
    for p, q in zip(points_miles, points_miles[1:], strict=False):
        cut = _clip(p, q, half)
        if cut is None:
            continue
        a, b = cut
        if runs and math.dist(runs[-1][-1], a) < 1e-9:
            runs[-1].append(b)
        else:
            runs.append([a, b])
    if not runs:
        return ()
    best = max(runs, key=lambda r: sum(math.dist(a, b) for a, b in zip(r, r[1:], strict=False)))
    return tuple((round(half + x, 3), round(half - y, 3)) for x, y in best)


def _fallback_course(roads: Sequence[TableRoad], feet: float) -> tuple[tuple[float, float], ...]:
    """Without the river's course from the map: a straight river through the centre, across
    the roads that cross it (their mean bearing), north to south if none does."""
    crossing = [r.bearing for r in roads if r.river]
    if crossing:
        x = sum(math.sin(math.radians(b)) for b in crossing)
        y = sum(math.cos(math.radians(b)) for b in crossing)
        across = math.degrees(math.atan2(x, y)) + 90.0
    else:
        across = 0.0
    a, b = _road_exit(across, feet), _road_exit(across + 180.0, feet)
    return (a, (feet / 2, feet / 2), b)


def _table(setup: BattleSetup, course: Sequence[tuple[float, float]] | None) -> TableSheet:
    t = setup.table
    roads = tuple(RoadSheet(r.to, r.bearing, r.edge, _square_of(r.bearing), r.road_class,
                            r.river, r.crossing, _road_exit(r.bearing, t.feet)) for r in t.roads)
    squares = tuple(SquareSheet(s.row, s.col, square_name(s.row, s.col), s.terrain)
                    for s in t.squares)
    drawn: tuple[tuple[float, float], ...] = ()
    from_map = False
    if t.river:
        if course:
            drawn = river_course_on_table(course, t.feet)
            from_map = bool(drawn)
        if not drawn:
            drawn = _fallback_course(t.roads, t.feet)
    return TableSheet(t.town, t.kind, t.built_up, t.fortress, t.river, t.feet, t.square_feet,
                      squares, roads, drawn, from_map)


def _square_of(bearing: float) -> str:
    names = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    return names[round((bearing % 360.0) / 45.0) % 8]


# -- the forces --------------------------------------------------------------------------------


def _kind(b: BrigadeSetup) -> str:
    if b.arm is Arm.CAVALRY:
        text = f"{(b.cavalry.value if b.cavalry else 'medium').capitalize()} cavalry"
        return f"{text}, lancers" if b.lancers else text
    if b.arm is Arm.ARTILLERY:
        return f"{b.calibre}-pounder" + (", horse artillery" if b.horse else "")
    return "Infantry"


def _brigade(b: BrigadeSetup, tally: Tally, bases: Mapping[str, str]) -> BrigadeSheet:
    infantry = b.arm is Arm.INFANTRY
    return BrigadeSheet(b.key, b.name, b.arm, b.rating.value,
                        b.firepower.value if infantry else None,
                        b.skirmish.value if infantry else None, _kind(b),
                        bases.get(b.key) or figures_text(b.arm),
                        tally.boxes, tally.marked, tally.unit, tally.note)


def _figures(brigades: Sequence[BrigadeSheet]) -> Figures:
    count = {arm: sum(1 for b in brigades if b.arm is arm) for arm in Arm}
    return Figures(count[Arm.INFANTRY] * FIGURES[Arm.INFANTRY],
                   count[Arm.CAVALRY] * FIGURES[Arm.CAVALRY], count[Arm.ARTILLERY],
                   count[Arm.ARTILLERY] * ARTILLERY_CREW)


def _corps(setup: BattleSetup, c: CorpsSetup, chips: dict[str, str],
           roads: Mapping[str, str], tallies: Mapping[str, Tally],
           bases: Mapping[str, str]) -> CorpsSheet:
    commander = setup.commander(c.commander)
    brigades = tuple(_brigade(b, tallies[b.key], bases)
                     for b in setup.corps_brigades(c.key))
    # A road is named only when it reaches the edge the setup gives, so the two never disagree.
    road = roads.get(c.key)
    if road is not None and all(r.to != road or r.edge is not c.edge for r in setup.table.roads):
        road = None
    return CorpsSheet(c.key, c.side, c.army, commander.name, commander.grade.value,
                      commander.grade.bonus, chips.get(commander.key), c.orders.value,
                      c.objective, c.edge, c.turn, c.column_of_march, c.blind, c.reserve,
                      brigades, _figures(brigades), road if c.edge is not None else None)


_Group = tuple[str, Edge | None, int, str]


def _entries(corps: Sequence[CorpsSheet]) -> tuple[EntrySheet, ...]:
    """Each side's entries: those deployed first, then by turn, edge and road; the corps in
    chip order within each, the order they are drawn to come on."""
    groups: dict[_Group, list[CorpsSheet]] = {}
    for c in corps:
        groups.setdefault((c.side, c.edge, c.turn, c.road or ""), []).append(c)
    edge_order: dict[Edge | None, int] = {None: -1, **{e: i for i, e in enumerate(Edge)}}

    def order(key: _Group) -> tuple[int, int, int, str]:
        side, edge, turn, road = key
        return (0 if side == FRENCH else 1, turn, edge_order[edge], road)

    return tuple(EntrySheet(k[0], k[1], k[2], tuple(c.key for c in groups[k]),
                            tuple(c.blind for c in groups[k]), k[3] or None)
                 for k in sorted(groups, key=order))


def _arrives(c: CommanderSetup) -> str | None:
    """When a CinC marching to the sound of the guns reaches the table, as a reinforcing
    corps does: ``arrives on turn 4 by the north edge``; None for one there from the start."""
    if c.turn <= 1:
        return None
    edge = f" by the {c.edge.value} edge" if c.edge is not None else ""
    return f"arrives on turn {c.turn}{edge}"


def _chips(setup: BattleSetup) -> tuple[ChipSheet, ...]:
    out = []
    for chip in setup.chips:
        if chip.commander is None:
            out.append(ChipSheet(chip.label, None, None, None, None, None,
                                 SPECIAL_MEANING.get(chip.label)))
            continue
        c = setup.commander(chip.commander)
        out.append(ChipSheet(chip.label, c.side, c.name, c.key, c.role.value,
                             f"{c.grade.value} +{c.grade.bonus}", _arrives(c)))
    return tuple(out)


def _reserves(setup: BattleSetup, corps: Sequence[CorpsSheet],
              chips: dict[str, str]) -> tuple[ReserveSheet, ...]:
    out = []
    for r in (c for c in corps if c.reserve):
        commander = setup.commander(setup.corps_of(r.key).commander)
        candidates = tuple((c.key, b.name) for c in corps
                           if c.side == r.side and c.army == r.army and not c.reserve
                           for b in c.brigades if b.arm is not Arm.INFANTRY)
        out.append(ReserveSheet(r.key, r.side, commander.name,
                                f"{commander.grade.value} +{commander.grade.bonus}",
                                chips.get(commander.key), candidates))
    return tuple(out)


def setup_sheet(setup: BattleSetup, *, campaign: str = "",
                river_course: Sequence[tuple[float, float]] | None = None,
                entry_roads: Mapping[str, str] | None = None) -> SetupSheet:
    """The setup sheet of a battle. ``river_course`` is the table's river as points in miles
    east and north of the battle town, from the map, when it has one; ``entry_roads`` names,
    by corps, the town whose road a corps that enters comes in on.

    Each brigade's tally is its ruleset's (the engine's ``tallies``). A ruleset that draws no
    chips (seeds 002 and 004) has no chips in the bag and no reserve to allocate either: its
    conversion leaves the reserve commanders off the table."""
    engine = find_ruleset(setup.ruleset)
    tallies = engine.tallies(setup)
    rules = engine.sheet(setup) if isinstance(engine, UnitsEngine) else None
    bases = rules.bases if rules else {}
    chips = {c.commander: c.label for c in setup.chips if c.commander is not None}
    corps = tuple(_corps(setup, c, chips, entry_roads or {}, tallies, bases)
                  for c in setup.corps if engine.chips or not c.reserve)
    day = _date(setup.date)
    return SetupSheet(setup.battle, setup.title, setup.place, setup.date, day, campaign,
                      setup.ruleset, setup.seed, setup.turns, _table(setup, river_course),
                      corps, _entries(corps), _chips(setup) if engine.chips else (),
                      _reserves(setup, corps, chips) if engine.chips else (), rules)


def river_miles(town: Town, river: River) -> list[tuple[float, float]]:
    """A river's points in miles east and north of a battle's town, as ``setup_sheet`` takes
    them."""
    cos0 = math.cos(math.radians(town.lat))
    return [((lon - town.lon) * cos0 * MILES_PER_DEGREE, (lat - town.lat) * MILES_PER_DEGREE)
            for lat, lon in river.points]


def _date(iso: str) -> str:
    return format_date(date.fromisoformat(iso))


# -- on paper -----------------------------------------------------------------------------------


@runtime_checkable
class SheetPaper(Protocol):
    """The installed paper (``export/paper.py``) as far as it draws setup sheets."""

    def setup_sheet_pdf(self, sheet: SetupSheet, paper_size: str) -> bytes:
        """A battle's setup sheet as PDF bytes on ``a4`` or ``letter`` pages."""
        ...

    def table_svg(self, sheet: SetupSheet) -> bytes:
        """A battle's table as an SVG document."""
        ...


def sheet_paper() -> SheetPaper:
    """The installed paper, refused in one line if there is none or it draws no setup
    sheets."""
    paper = installed()
    if not isinstance(paper, SheetPaper):
        raise NoPaperError("the installed printing support draws no battle setup sheets")
    return paper


# -- JSON for other tools ----------------------------------------------------------------------


def _brigade_json(b: BrigadeSheet) -> dict[str, Any]:
    return {"key": b.key, "name": b.name, "arm": b.arm.value, "class": b.klass,
            "firepower": b.firepower, "skirmish": b.skirmish, "kind": b.kind,
            "figures": b.figures, "rout_point": b.rout_point, "casualties": b.casualties,
            "unit": b.unit, "tally": b.tally_note}


def _corps_json(c: CorpsSheet) -> dict[str, Any]:
    return {
        "key": c.key, "side": c.side, "army": c.army, "commander": c.commander,
        "grade": c.grade, "bonus": c.bonus, "chip": c.chip, "orders": c.orders,
        "objective": c.objective, "edge": c.edge.value if c.edge else None, "turn": c.turn,
        "road": c.road, "column_of_march": c.column_of_march, "blind": c.blind,
        "reserve": c.reserve,
        "figures": {"infantry": c.figures.infantry, "cavalry": c.figures.cavalry,
                    "guns": c.figures.guns, "crew": c.figures.crew},
        "brigades": [_brigade_json(b) for b in c.brigades],
    }


def sheet_json(sheet: SetupSheet) -> dict[str, Any]:
    """The sheet as JSON values, as ``docs/schemas/battle-setup.schema.json`` describes."""
    t = sheet.table
    return {
        "$schema": SCHEMA_ID,
        "battle": sheet.battle, "title": sheet.heading, "place": sheet.place,
        "date": sheet.date, "campaign": sheet.campaign, "ruleset": sheet.ruleset,
        "seed": sheet.seed, "turns": sheet.turns,
        "table": {
            "town": t.town, "kind": t.kind, "built_up": t.built_up, "fortress": t.fortress,
            "river": t.river, "feet": t.feet, "square_feet": t.square_feet,
            "squares": [{"row": s.row, "col": s.col, "name": s.name,
                         "terrain": list(s.terrain)} for s in t.squares],
            "roads": [{"to": r.to, "bearing": r.bearing, "edge": r.edge.value,
                       "square": r.square, "class": r.road_class, "river": r.river,
                       "crossing": r.crossing, "exit": list(r.exit)} for r in t.roads],
            "river_course": [list(p) for p in t.river_course],
            "river_from_map": t.river_from_map,
        },
        "entries": [{"side": e.side, "edge": e.edge.value if e.edge else None,
                     "road": e.road, "turn": e.turn, "corps": list(e.corps),
                     "blinds": list(e.blinds)}
                    for e in sheet.entries],
        "chips": [{"label": c.label, "side": c.side, "commander": c.commander,
                   "command": c.command, "role": c.role, "grade": c.grade,
                   "meaning": c.meaning} for c in sheet.chips],
        "reserves": [{"key": r.key, "side": r.side, "commander": r.commander,
                      "grade": r.grade, "chip": r.chip,
                      "candidates": [{"corps": k, "brigade": n} for k, n in r.candidates]}
                     for r in sheet.reserves],
        "corps": [_corps_json(c) for c in sheet.corps],
        "rules": None if sheet.rules is None else {
            "sequence": list(sheet.rules.sequence), "notes": list(sheet.rules.notes),
            "leaders": list(sheet.rules.leaders), "mapping": list(sheet.rules.mapping)},
    }
