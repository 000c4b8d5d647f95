"""The road map as a scene of items: the ground drawn once, the campaign's pieces moved on it.

Scene coordinates are miles east and south of the map's north-west corner (the drawing
projection of :mod:`campaign1813.maps.geometry` times its miles per unit), so a view's scale is
its pixels per mile, the level of detail every layer reads.

The ground (sea and land, rivers, roads by class, crossings, towns by kind) is a handful of
cached layers built once per map; names are items that keep their size on screen and are placed
again, without overlap, when the scale changes; commands, battles, control, orders and a route
preview are items changed one by one. The window shows the scene in a view and the printed
pictures render it onto an image (:mod:`campaign1813.ui.map.render`): one drawing code.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, cast

from PySide6.QtCore import QLineF, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
)

from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.geometry import MILES_PER_DEGREE, Bounds, Projection
from campaign1813.maps.land import rings_box
from campaign1813.maps.prebuilt import land_outline, meetings_of
from campaign1813.maps.types import Crossing, MapData, RoadClass, Theatre, Town, TownKind
from campaign1813.ui.map.items import (
    NAME_MARGIN,
    BattleMarker,
    CommandMarker,
    ControlLayer,
    GroundLayer,
    NameItem,
    NamesLayer,
    NoteItem,
    OrderArrow,
    PreviewPath,
    SupplyLayer,
)
from campaign1813.ui.map.palette import SEA
from campaign1813.ui.map.specs import BattleSpec, MarkerSpec, group_spec
from campaign1813.ui.map.style import (
    COAST,
    CROSSINGS_FROM,
    GREAT_CITIES,
    GREAT_RIVERS,
    HALO,
    INK,
    LAND,
    MINOR_ROADS_FROM,
    OTHER_INK,
    OTHER_OPACITY,
    RIVER,
    THEATRE_INK,
    THEATRE_NAME_AT,
    THEATRE_NAMES_UNTIL,
    TOWN_NAMES_FROM,
    TRACKS_FROM,
    TRIBUTARY_NAMES_FROM,
    VILLAGE_NAMES_FROM,
    VILLAGES_FROM,
    Z_GROUND,
    Z_MARKERS,
    Z_NAMES,
    Z_ROADS,
    Z_TOWNS,
    draw_crossing,
    draw_town_sign,
    river_pen,
    road_pen,
    serif,
    town_radius,
)

# A command's place: a town, or a road (its two towns) and the miles from the first.
Place = tuple[str, str | None, float]
# A town's sign: where, its kind, fortress or not, its radius, greyed or not.
TownSign = tuple[QPointF, TownKind, bool, float, bool]
# What the names were last placed for: the scale, the frame (its rectangle, as Qt gives it),
# every flag and the battles.
PlacedKey = tuple[float, object,
                  tuple[tuple[Place, int, str, tuple[str, ...]], ...], tuple[int, ...],
                  tuple[tuple[str, bool], ...]]
# A stack of flags: the foot of the stack in pixels, and its flags (the HQ nearest the foot).
Stack = tuple[QPointF, list[CommandMarker]]
Corner = tuple[int, int]
# where a stack stands: the corner of its foot, and its foot in pixels (pushed out from its dot)
Standing = tuple[Corner, QPointF]
# the corners of its dot a stack of flags may stand at, in the order they are tried
CORNERS: tuple[Corner, ...] = ((1, -1), (-1, -1), (1, 1), (-1, 1))
# how far (pixels, each way) a stack's foot is pushed out from its dot, a tick leading back,
# where no army group is left to draw as one and a stack still finds no corner free
PUSHES = (0.0, 12.0, 24.0, 36.0, 48.0, 64.0, 80.0, 96.0)
# the pushes a stack is tried at before its army groups are gathered for it
NUDGES = PUSHES[:3]
# at most this many stacks that find no corner free are tried a step or two out
NUDGED = 3
# a stack of more flags than this, of more than one army group, is a pile: its army groups
# are drawn as one flag each
PILE = 4

# West of the land outline, between its south and north, lies only the Atlantic: the sea is
# drawn on to this longitude, so that a map of Portugal does not end in a neat line offshore.
OPEN_SEA_WEST = -30.0

# the steps (across, down) round its point a theatre's name may be moved, nearest first
THEATRE_NAME_STEPS = sorted(((i, j) for i in range(-5, 6) for j in range(-4, 5)),
                            key=lambda d: (d[0] ** 2 + (d[1] * 14 / 24) ** 2, d))

# ---- label placement --------------------------------------------------------------------------


# how far from its sign a name is tried, in its sign's radius (a great place's name, put again
# when flags crowded it, farther too)
FAR_REACHES = (1.0, 1.9, 2.8, 3.7, 4.6)
# the owners of a lesser town's sign, a city's or fortress' sign, and a command's dot in the
# placer's grid
SIGN, GREAT_SIGN, FLAG = "town sign", "great town sign", "flag"
THEATRE = "theatre's name"  # a theatre's name put, in the grid


class Taken:
    """The owner of a rectangle in the trial of where the flags stand, a stack's flags, or
    of the dot of a command at a place."""

    def __init__(self, stack: int = -1, place: Place | None = None):
        self.stack, self.place = stack, place




# A rectangle as plain numbers, as ``QRectF.getRect`` gives it: left, top, width, height
Box = tuple[float, float, float, float]
# a rectangle taken, in a grid's cell: its left, right, top and bottom, its owner, and the
# rectangle itself where it was given as a QRectF
Entry = tuple[float, float, float, float, object, QRectF | None]


def box_edges(box: Box) -> tuple[float, float, float, float] | None:
    """Its left, right, top and bottom as ``QRectF`` reads them (a width or height below zero
    counts back from its corner); None for a rectangle with no width or no height, which
    ``QRectF.intersects`` and ``contains`` find meeting nothing."""
    x, y, w, h = box
    left, right = (x + w, x) if w < 0 else (x, x + w)
    top, bottom = (y + h, y) if h < 0 else (y, y + h)
    if left == right or top == bottom:
        return None
    return left, right, top, bottom


def box_within(outer: tuple[float, float, float, float], box: Box) -> bool:
    """Whether ``box`` lies inside the edges ``outer`` (``QRectF.contains`` of a rectangle)."""
    e = box_edges(box)
    if e is None:
        return False
    return not (e[0] < outer[0] or e[1] > outer[1] or e[2] < outer[2] or e[3] > outer[3])


class BoxGrid:
    """Rectangles already taken, bucketed by cells of a fixed size, so a new rectangle is
    checked only against those in the cells it touches (not against all of them). Each is
    held as plain numbers and met as ``QRectF.intersects`` meets it (Qt's reading of a
    rectangle of no width, or of a width below zero, included), without a call into Qt for
    each rectangle looked at: the names' placement asks thousands of times."""

    def __init__(self, cell: float = 64.0):
        self.cell = cell
        self.cells: dict[tuple[int, int], list[Entry]] = defaultdict(list)

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        """The cells a box touches (one of no width or height touches those it lies on)."""
        c, floor = self.cell, math.floor
        x, y, w, h = box
        left, right = (x + w, x) if w < 0 else (x, x + w)
        top, bottom = (y + h, y) if h < 0 else (y, y + h)
        rows = range(floor(top / c), floor(bottom / c) + 1)
        return [(i, j) for i in range(floor(left / c), floor(right / c) + 1) for j in rows]

    def met(self, box: Box) -> Iterator[Entry]:
        """The entries ``box`` overlaps, each once."""
        e = box_edges(box)
        if e is None:
            return
        left, right, top, bottom = e
        c, floor, cells = self.cell, math.floor, self.cells
        i0, i1 = floor(left / c), floor(right / c)
        j0, j1 = floor(top / c), floor(bottom / c)
        if i0 == i1 and j0 == j1:  # within one cell: each rectangle there once
            for entry in cells.get((i0, j0), ()):
                if left < entry[1] and entry[0] < right and top < entry[3] \
                        and entry[2] < bottom:
                    yield entry
            return
        seen: set[int] = set()
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                for entry in cells.get((i, j), ()):
                    if left < entry[1] and entry[0] < right and top < entry[3] \
                            and entry[2] < bottom and id(entry) not in seen:
                        seen.add(id(entry))
                        yield entry

    def add(self, box: Box, owner: object = None, rect: QRectF | None = None) -> None:
        """Take ``box`` for ``owner`` (a rectangle of no area is taken by nothing)."""
        e = box_edges(box)
        if e is not None:
            entry: Entry = (*e, owner, rect)
            for k in self._keys(box):
                self.cells[k].append(entry)

    def hits(self, box: Box) -> list[object]:
        """The owners of the rectangles ``box`` overlaps (a name, ``SIGN`` or ``GREAT_SIGN`` for
        a town's sign, a ``Taken`` for a command's dot, ``FLAG`` for a flag, None for a
        battle): :meth:`met`'s, in a loop of its own, for it is asked most."""
        e = box_edges(box)
        if e is None:
            return []
        left, right, top, bottom = e
        c, floor, cells = self.cell, math.floor, self.cells
        i0, i1 = floor(left / c), floor(right / c)
        j0, j1 = floor(top / c), floor(bottom / c)
        if i0 == i1 and j0 == j1:
            return [entry[4] for entry in cells.get((i0, j0), ())
                    if left < entry[1] and entry[0] < right and top < entry[3]
                    and entry[2] < bottom]
        found: dict[int, object] = {}
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                for entry in cells.get((i, j), ()):
                    if left < entry[1] and entry[0] < right and top < entry[3] \
                            and entry[2] < bottom:
                        found[id(entry)] = entry[4]
        return list(found.values())

    def copy(self) -> BoxGrid:
        """Another grid with the same rectangles taken, to take more in without this one."""
        other = BoxGrid(self.cell)
        other.cells.update((k, list(v)) for k, v in self.cells.items())
        return other

    def clashes(self, box: Box) -> bool:
        """Whether ``box`` overlaps a rectangle taken."""
        return next(self.met(box), None) is not None

    def only(self, box: Box, allowed: Callable[[object], bool]) -> bool:
        """Whether every rectangle ``box`` overlaps has an owner ``allowed`` (looking no
        further than the first that has not)."""
        return all(allowed(entry[4]) for entry in self.met(box))

    def remove(self, box: Box, owner: object) -> None:
        """Give back what ``owner`` took in the cells ``box`` touches."""
        for k in self._keys(box):
            self.cells[k] = [entry for entry in self.cells.get(k, ()) if entry[4] is not owner]


class BucketGrid:
    """A :class:`BoxGrid` asked in ``QRectF``: the rectangles of the names' placement."""

    def __init__(self, cell: float = 64.0):
        self.cell = cell
        self.boxes = BoxGrid(cell)
        self.version = 0  # counts the changes: a test of a rectangle holds until it moves

    def clashes(self, r: QRectF) -> bool:
        """Whether ``r`` overlaps a rectangle taken."""
        return self.boxes.clashes(cast(Box, r.getRect()))

    def hits(self, r: QRectF) -> list[object]:
        """The owners of the rectangles ``r`` overlaps (see :meth:`BoxGrid.hits`)."""
        return self.boxes.hits(cast(Box, r.getRect()))

    def only(self, r: QRectF, allowed: Callable[[object], bool]) -> bool:
        """Whether every rectangle ``r`` overlaps has an owner ``allowed``."""
        return self.boxes.only(cast(Box, r.getRect()), allowed)

    def entries(self, r: QRectF) -> list[tuple[QRectF, object]]:
        """The rectangles ``r`` overlaps, with their owners."""
        return [(cast(QRectF, entry[5]), entry[4])
                for entry in self.boxes.met(cast(Box, r.getRect()))]

    def add(self, r: QRectF, owner: object = None) -> None:
        """Take ``r`` (for ``owner``, a name that may yet give way)."""
        self.version += 1
        self.boxes.add(cast(Box, r.getRect()), owner, r)

    def remove(self, r: QRectF, owner: object) -> None:
        """Give back ``r``, taken for ``owner`` (a name that gave way)."""
        self.version += 1
        self.boxes.remove(cast(Box, r.getRect()), owner)


def only_signs(owner: object) -> bool:
    """Whether a rectangle's owner is a lesser town's sign (a name may cover it at need)."""
    return owner is SIGN


def only_signs_or_dots(owner: object) -> bool:
    """Whether a rectangle's owner is a lesser town's sign or a command's dot."""
    return owner is SIGN or isinstance(owner, Taken)


class LayeredGrid:
    """The rectangles of one placement of the names over the town signs, which stay as they
    are at one scale: what the signs answer for a rectangle (a spot a name tries, the same
    from one placement to the next) is kept in ``answers``, so a placement after End Day
    checks each spot only against what it has taken itself (names, dots, flags, battles)."""

    def __init__(self, signs: BucketGrid,
                 answers: dict[tuple[object, ...], object]):
        self.signs = signs
        self.taken = BucketGrid(signs.cell)
        self.answers = answers

    @property
    def version(self) -> int:
        """Counts the changes (the signs never change)."""
        return self.taken.version

    def _signs_say(self, kind: object, r: QRectF, test: Callable[[QRectF], object]) -> Any:
        key = (kind, r.getRect())
        try:
            return self.answers[key]
        except KeyError:
            answer = self.answers[key] = test(r)
            return answer

    def sign_clashes(self, r: QRectF) -> bool:
        """Whether ``r`` overlaps a town's sign."""
        return bool(self._signs_say("clashes", r, self.signs.clashes))

    def signs_only(self, r: QRectF, allowed: Callable[[object], bool]) -> bool:
        """Whether every town sign ``r`` overlaps has an owner ``allowed``."""
        return bool(self._signs_say(allowed, r, lambda q: self.signs.only(q, allowed)))

    def clashes(self, r: QRectF) -> bool:
        """Whether ``r`` overlaps a sign or a rectangle taken."""
        return self.sign_clashes(r) or self.taken.clashes(r)

    def hits(self, r: QRectF) -> list[object]:
        """The owners of the signs and rectangles taken ``r`` overlaps."""
        return [*self._signs_say("hits", r, self.signs.hits), *self.taken.hits(r)]

    def only(self, r: QRectF, allowed: Callable[[object], bool]) -> bool:
        """Whether every sign and rectangle taken ``r`` overlaps has an owner ``allowed``."""
        return self.signs_only(r, allowed) and self.taken.only(r, allowed)

    def add(self, r: QRectF, owner: object = None) -> None:
        """Take ``r`` (for ``owner``)."""
        self.taken.add(r, owner)

    def remove(self, r: QRectF, owner: object) -> None:
        """Give back ``r``, taken for ``owner``."""
        self.taken.remove(r, owner)


class SpotTest:
    """Whether a name may stand at a spot, in one placement: clear of everything (``FREE``),
    covering at most lesser towns' signs (``OVER_SIGNS``), or those and commands' dots
    (``OVER_DOTS``), inside ``bound`` if given. What the town signs alone say of a spot is
    kept for the scale (:meth:`signs_allow`); the whole answer while the grid is unchanged
    (a name tries the same spots in pass after pass)."""

    FREE, OVER_SIGNS, OVER_DOTS = "free", "over signs", "over dots"

    def __init__(self, kind: str, grid: LayeredGrid, bound: QRectF | None):
        self.kind, self.grid, self.bound = kind, grid, bound
        self.allowed = {self.OVER_SIGNS: only_signs,
                        self.OVER_DOTS: only_signs_or_dots}.get(kind)
        self._answers: dict[object, tuple[int, bool]] = {}  # by the spot's box

    def signs_allow(self, r: QRectF) -> bool:
        """What the town signs alone say of ``r`` (the same for every placement at a scale)."""
        grid = self.grid
        if self.allowed is None:
            return not grid.sign_clashes(r)
        return grid.signs_only(r, self.allowed)

    def __call__(self, r: QRectF) -> bool:
        key = r.getRect()
        version = self.grid.version
        seen = self._answers.get(key)
        if seen is not None and seen[0] == version:
            return seen[1]
        taken = self.grid.taken
        answer = ((self.bound is None or self.bound.contains(r)) and self.signs_allow(r)
                  and (not taken.clashes(r) if self.allowed is None
                       else taken.only(r, self.allowed)))
        self._answers[key] = (version, answer)
        return answer


# ---- the scene ---------------------------------------------------------------------------------


def scene_bounds(map_data: MapData, theatre: Theatre | None = None,
                 margin_miles: float = 40.0) -> Bounds:
    """The box a scene (or a picture of a theatre) covers: the towns widened by a margin."""
    towns = [t for t in map_data.towns if theatre is None or t.theatre == theatre]
    if not towns:
        raise ValueError(f"no towns in theatre {theatre}")
    return Bounds.around(((t.lat, t.lon) for t in towns), margin_miles)


class MapScene(QGraphicsScene):
    """The road map and the campaign's pieces on it, in miles."""

    def __init__(self, map_data: MapData, bounds: Bounds | None = None, unit: float = 1.0,
                 parent: QObject | None = None, theatre: Theatre | None = None):
        """``bounds``: the box drawn and its projection (the whole map's by default);
        ``theatre``: the theatre the scene is the map of, whose neighbours' towns are greyed."""
        super().__init__(parent)
        self.map = map_data
        self.theatre = theatre
        self.bounds = bounds or scene_bounds(map_data)
        self.projection = Projection(self.bounds)
        self._projecting = (self.bounds.west, self.bounds.north,
                            math.cos(math.radians((self.bounds.south + self.bounds.north) / 2)),
                            self.projection.miles_per_unit)
        self.unit = unit
        self.towns: dict[str, Town] = {t.name: t for t in map_data.towns}
        self.road_length = {frozenset((r.a, r.b)): r.miles for r in map_data.roads}
        self._town_points = {n: self.point(t.lat, t.lon) for n, t in self.towns.items()}
        mpu = self.projection.miles_per_unit
        self.ground_rect = QRectF(0, 0, self.projection.width * mpu,
                                  self.projection.height * mpu)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        # the sea and the land are drawn as far as the outline knows them, past the box of a
        # theatre's scene: its neighbours' towns stand on their land, not on a sea round it;
        # a view pans as far
        south, west, north, east = rings_box(land_outline())
        west = min(west, OPEN_SEA_WEST)
        self.world_rect = QRectF(self.point(north, west), self.point(south, east)).united(
            self.ground_rect)
        self.setSceneRect(self.world_rect)
        rect = self.world_rect.adjusted(-20, -20, 20, 20)
        self.layers = [GroundLayer(rect, Z_GROUND), GroundLayer(rect, Z_TOWNS)]
        for layer in self.layers:
            self.addItem(layer)
        self.town_names: dict[str, NameItem] = {}
        self.river_names: list[tuple[NameItem, list[tuple[QPointF, QPointF]]]] = []
        self.theatre_names: list[NameItem] = []
        # each theatre's name: the point it is given and its lines (see _place_theatre_names)
        self.theatre_groups: list[tuple[QPointF, list[NameItem]]] = []
        # where each was put, and how much it covered there, in the last placement's view
        self._theatre_spots: tuple[object, dict[tuple[float, float], tuple[int, QPointF]]] = (
            None, {})
        self.names_layer = NamesLayer(rect, Z_NAMES)
        self.theatre_layer = NamesLayer(rect, Z_GROUND + 1.5)
        self.markers: dict[str, CommandMarker] = {}
        # each army group's one flag, for the scales where its commands cannot be drawn
        # apart, and the commands it stands for (its HQ first); the army groups so shown
        self.groups: dict[str, CommandMarker] = {}
        self.group_members: dict[str, list[str]] = {}
        self.collapsed: set[str] = set()
        self.battles: dict[int, BattleMarker] = {}
        self.orders: dict[str, OrderArrow] = {}
        self.control = ControlLayer(self)
        self.addItem(self.control)
        self.addItem(self.control.stars)
        self.supply = SupplyLayer(self)  # depots and columns, when supply is kept
        self.addItem(self.supply)
        self.preview_items: list[QGraphicsItem] = []
        self.note: NoteItem | None = None
        self._steps = self._build_steps()
        self.built = False
        self._placed: PlacedKey | None = None
        self._flagged: set[str] = set()  # the towns where flags stand, as names are placed
        # the town signs' rectangles at the last placement's scale (see labels_placing)
        self._signs: tuple[float, BucketGrid, BucketGrid, list[tuple[QRectF, object]],
                           dict[tuple[object, ...], object]
                           ] | None = None
        # the last placement made whole: its scale and frame, its flags' stacks and battles
        # (see _crowds) and its commands (each round its dot), where each town's name was put
        # (None: not named), and the names put at the first spot looked at (with whether flags
        # stood at the town, which changes where that is)
        self._prior: tuple[tuple[float, object], dict[object, QRectF], dict[object, QRectF],
                           dict[str, QPointF | None], set[tuple[str, bool]]] | None = None
        # the names put at the first spot looked at, as this placement goes (see _prior)
        self._first_spots: set[str] = set()

    # ---- coordinates ----
    def point(self, lat: float, lon: float) -> QPointF:
        """The scene point of (lat, lon), in miles from the north-west corner."""
        # the projection's arithmetic, in its order, on its constants worked out once: the
        # outline's thousands of points are projected at every scene's build
        west, north, cos, span = self._projecting
        x = (lon - west) * cos * MILES_PER_DEGREE / span
        y = (north - lat) * MILES_PER_DEGREE / span
        return QPointF(x * span, y * span)

    def town_point(self, name: str) -> QPointF:
        """Where a town stands."""
        return self._town_points[name]

    def place_point(self, a: str, b: str | None, miles: float) -> QPointF:
        """Where a command stands: at town ``a``, or ``miles`` along the road from ``a`` to
        ``b`` (the road drawn straight, so that share of its line)."""
        pa = self._town_points[a]
        if b is None:
            return pa
        pb = self._town_points[b]
        length = self.road_length[frozenset((a, b))]
        f = min(max(miles / length, 0.0), 1.0) if length else 0.0
        return pa + (pb - pa) * f

    def cached_layers(self) -> list[QGraphicsItem]:
        """The items over the whole ground that a view keeps as pictures of what it shows:
        the ground and the towns, the holders' rings, the objectives' stars, the supply."""
        return [*self.layers, self.control, self.control.stars, self.supply]

    def theatre_rect(self, theatre: Theatre | None, margin_miles: float = 30.0) -> QRectF:
        """The scene rectangle of a theatre's towns with a margin (of every town for None)."""
        box = scene_bounds(self.map, theatre, margin_miles)
        nw = self.point(box.north, box.west)
        se = self.point(box.south, box.east)
        return QRectF(nw, se).normalized()

    def shown_box(self, rect: QRectF, scale: float) -> QRectF:
        """The pixels (scene units times ``scale``) that what belongs to ``rect`` covers at
        that scale: its towns' signs and names (not a neighbouring theatre's, greyed), and the
        flags, battles and other items drawn at screen size that stand in it, as they were
        last placed (what Fit must show whole)."""
        box = QRectF(rect.topLeft() * scale, rect.bottomRight() * scale)
        for town in self.towns.values():
            at = self._town_points[town.name]
            if not rect.contains(at) or self.muted(town) or not self.shows_town(town, scale):
                continue
            r = town_radius(town.kind, town.fortress, self.unit)
            c = at * scale
            box = box.united(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r))
            name = self.town_names.get(town.name)
            if name is not None and name.isVisible():
                box = box.united(name.text_rect().translated(c).adjusted(
                    -NAME_MARGIN, -NAME_MARGIN, NAME_MARGIN, NAME_MARGIN))
        for item in self.items():
            screen = item.flags() & QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations
            if (screen and item.isVisible() and item is not self.note and item.parentItem() is None
                    and rect.contains(item.pos())):
                box = box.united(item.boundingRect().translated(item.pos() * scale))
        return box

    def shows_town(self, town: Town, lod: float) -> bool:
        """Whether a town's sign shows at this scale (villages only close up)."""
        return town.kind is not TownKind.VILLAGE or town.fortress or lod >= VILLAGES_FROM

    # ---- building the ground, in steps ----
    def build_step(self) -> bool:
        """Build the next piece of the ground; False when all is built."""
        if self.built:
            return False
        try:
            next(self._steps)()
        except StopIteration:
            self.built = True
            self._placed = None
            for layer in self.layers:  # drawn once, whole
                layer.update()
            return False
        return True

    def set_rough(self, rough: bool) -> None:
        """Draw the ground without smoothing (during a zoom gesture), or smooth again."""
        for layer in self.layers:
            if layer.rough != rough:
                layer.rough = rough
                layer.update()

    def build(self) -> None:
        """Build whatever of the ground is left, at once."""
        while self.build_step():
            pass

    def _build_steps(self) -> Iterator[Callable[[], None]]:
        yield self._read_land  # reading the outline, its own step: no step holds the window long
        yield self._build_land
        yield self._build_rivers
        for road_class in (RoadClass.TRACK, RoadClass.MINOR, RoadClass.MAIN):
            yield partial(self._build_roads, road_class)
        yield self._build_crossings
        yield self._build_towns
        names = sorted(self.towns.values(), key=lambda t: t.name)
        for i in range(0, len(names), 50):
            yield partial(self._build_town_names, names[i:i + 50])
        yield self._build_river_names
        yield self._build_theatre_names

    def _add_layer(self, draw: Callable[[QPainter, float], None], min_lod: float = 0.0,
                   z: float = Z_GROUND) -> None:
        # two cached layers: the ground under the towns' control marks, and the town signs
        layer = self.layers[1] if z >= Z_TOWNS else self.layers[0]
        layer.add(draw, min_lod, z)

    def _read_land(self) -> None:
        land_outline()  # kept by the function's cache for the step that draws it

    def _build_land(self) -> None:
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        for ring in land_outline():
            path.addPolygon(QPolygonF([self.point(lat, lon) for lat, lon in ring]))
            path.closeSubpath()
        sea = QRectF(self.world_rect)
        coast = QPen(COAST, 1.1 * self.unit)
        coast.setCosmetic(True)

        def draw(p: QPainter, lod: float) -> None:
            p.fillRect(sea, SEA)
            p.fillPath(path, LAND)
            p.strokePath(path, coast)
            p.setPen(coast)  # the neat line: past it the outline knows no land nor sea
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(sea)

        self._add_layer(draw)

    def _build_rivers(self) -> None:
        great, other = QPainterPath(), QPainterPath()
        for river in self.map.rivers:
            target = great if river.name in GREAT_RIVERS else other
            target.addPolygon(QPolygonF([self.point(lat, lon) for lat, lon in river.points]))
        pens = river_pen(True, self.unit), river_pen(False, self.unit)

        def draw(p: QPainter, lod: float) -> None:
            p.strokePath(other, pens[1])
            p.strokePath(great, pens[0])

        self._add_layer(draw, z=1)

    def _build_roads(self, road_class: RoadClass) -> None:
        # each road a line of its own, drawn with the cosmetic pen: four times as fast as one
        # path of them all stroked (whose outline is worked out whole at each drawing), the
        # same but for where two roads' ends overlap
        lines = [QLineF(self._town_points[road.a], self._town_points[road.b])
                 for road in self.map.roads if road.road_class is road_class]
        pen = road_pen(road_class, self.unit)
        start = {RoadClass.MAIN: 0.0, RoadClass.MINOR: MINOR_ROADS_FROM,
                 RoadClass.TRACK: TRACKS_FROM}[road_class]

        def draw(p: QPainter, lod: float) -> None:
            p.setPen(pen)
            p.drawLines(lines)

        self._add_layer(draw, start,
                        Z_ROADS + {RoadClass.TRACK: 0, RoadClass.MINOR: 0.1,
                                   RoadClass.MAIN: 0.2}[road_class])

    def _build_crossings(self) -> None:
        meetings: dict[tuple[str, str, str], float] = {}
        for m in meetings_of(self.map):
            # the crossing is drawn where the line first meets the declared river
            meetings.setdefault((m.road_from, m.road_to, m.river), m.miles_from_start)
        marks: list[tuple[QPointF, QPointF, Crossing]] = []
        for road in self.map.roads:
            if road.river is None or road.crossing is None:
                continue
            a, b = self.towns[road.a], self.towns[road.b]
            pa, pb = self._town_points[road.a], self._town_points[road.b]
            total = math.dist((pa.x(), pa.y()), (pb.x(), pb.y()))
            if total == 0:
                continue
            miles = meetings.get((road.a, road.b, road.river))
            if miles is None:
                # the river runs through an end town; mark the crossing just outside it
                frac = 0.12 if a.river == road.river or b.river != road.river else 0.88
            else:
                frac = min(max(miles / total, 0.0), 1.0)
            marks.append((pa + (pb - pa) * frac, pb - pa, road.crossing))
        u = self.unit

        def draw(p: QPainter, lod: float) -> None:
            px = 1.0 / lod
            for at, direction, crossing in marks:
                draw_crossing(p, at, direction, crossing, 4.5 * u * px, u * px)

        self._add_layer(draw, CROSSINGS_FROM, Z_ROADS + 0.5)

    def muted(self, town: Town) -> bool:
        """Whether a town belongs to a neighbouring theatre of the theatre drawn (greyed)."""
        return self.theatre is not None and town.theatre != self.theatre

    def _build_towns(self) -> None:
        u = self.unit
        for villages in (True, False):
            towns = [t for t in self.map.towns
                     if (t.kind is TownKind.VILLAGE and not t.fortress) == villages]
            # the neighbours' first, greyed; cities over towns, so a crowded place keeps its
            # biggest sign on top
            towns.sort(key=lambda t: (not self.muted(t), t.kind is TownKind.CITY, t.fortress))
            signs = [(self._town_points[t.name], t.kind, t.fortress,
                      town_radius(t.kind, t.fortress, u), self.muted(t)) for t in towns]

            def draw(p: QPainter, lod: float, signs: list[TownSign] = signs) -> None:
                px = 1.0 / lod
                greyed = False
                for at, kind, fortress, r, muted in signs:  # the greyed ones come first
                    if muted != greyed:
                        greyed = muted
                        p.setOpacity(OTHER_OPACITY if muted else 1.0)
                    draw_town_sign(p, at, kind, fortress, r * px, u * px)
                p.setOpacity(1.0)

            self._add_layer(draw, VILLAGES_FROM if villages else 0.0,
                            Z_TOWNS + (0 if villages else 0.1))

    def _build_town_names(self, towns: Iterable[Town]) -> None:
        size = {TownKind.CITY: 13.5, TownKind.FORTRESS: 12, TownKind.TOWN: 11,
                TownKind.VILLAGE: 9.5}
        for town in towns:
            font = serif(size[town.kind] * self.unit,
                         bold=town.kind in (TownKind.CITY, TownKind.FORTRESS),
                         italic=town.kind is TownKind.VILLAGE)
            item = NameItem(town.name, font, OTHER_INK if self.muted(town) else INK, HALO,
                            self.unit)
            item.great = town.kind is TownKind.CITY or town.fortress
            item.keep = town.name in GREAT_CITIES
            item.setPos(self._town_points[town.name])
            self.names_layer.names.append(item)
            self.town_names[town.name] = item

    def _build_river_names(self) -> None:
        font = serif(10.5 * self.unit, italic=True)
        for river in self.map.rivers:
            pts = [self.point(lat, lon) for lat, lon in river.points]
            reaches = sorted(zip(pts, pts[1:], strict=False),
                             key=lambda ab: -math.dist((ab[0].x(), ab[0].y()),
                                                       (ab[1].x(), ab[1].y())))[:6]
            item = NameItem(river.name, font, RIVER.darker(125), QColor(243, 236, 214, 200),
                            self.unit * 0.8)
            item.great = river.name in GREAT_RIVERS
            self.names_layer.names.append(item)
            self.river_names.append((item, reaches))
        self.addItem(self.names_layer)

    def _build_theatre_names(self) -> None:
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(26 * self.unit)
        font.setItalic(True)
        font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 4 * self.unit)
        for theatre in Theatre:
            members = [t for t in self.map.towns if t.theatre == theatre]
            if not members:
                continue
            if theatre in THEATRE_NAME_AT:
                centre = self.point(*THEATRE_NAME_AT[theatre])
            else:
                centre = self.point(sum(t.lat for t in members) / len(members),
                                    sum(t.lon for t in members) / len(members))
            lines = _wrap(theatre.value.upper())
            metrics = QFontMetricsF(font)
            self.theatre_groups.append((centre, []))
            for i, text in enumerate(lines):
                item = NameItem(text, font, THEATRE_INK, QColor(0, 0, 0, 0), self.unit)
                w = metrics.horizontalAdvance(text)
                dy = (i - len(lines) / 2) * metrics.height()
                item.set_offset(QPointF(-w / 2, dy))
                item.setPos(centre)
                self.theatre_layer.names.append(item)
                self.theatre_names.append(item)
                self.theatre_groups[-1][1].append(item)
        self.addItem(self.theatre_layer)

    def _place_theatre_names(self, scale: float, grid: LayeredGrid, bound: QRectF | None,
                             view: object) -> Iterator[None]:
        """Each theatre's name near the point it is given, where its lines cover the fewest
        town signs, names, battles and other theatres' names, inside ``bound`` (the nearest such
        spot, in steps round the point): faint as it is, it should not lie across the towns.
        Put last, it moves nothing else. In the same ``view`` (scale and frame) it stays where
        it was put: after End Day the names and flags are drawn over it as they come, and
        the ground's words do not shift under the umpire's eye. A theatre at a time,
        yielding between."""
        u = self.unit
        step_x, step_y = 24 * u, 14 * u
        pad = 12 * u  # a little air round its letters, so it reads as no town's word
        if self._theatre_spots[0] != view:
            self._theatre_spots = (view, {})
        kept = self._theatre_spots[1]

        def covering(c: QPointF, shift: QPointF, items: list[NameItem]) -> int | None:
            rects = [item.text_rect().translated(c + shift) for item in items]
            if bound is not None and not all(bound.contains(r) for r in rects):
                return None
            # what it would lie across: signs, names, battles (a flag stands over it)
            return sum(1 for r in rects for h in grid.hits(r.adjusted(-pad, -pad / 2, pad,
                                                                      pad / 2))
                       if not (h is FLAG or isinstance(h, Taken)))

        for anchor, items in self.theatre_groups:
            c = anchor * scale
            key = (anchor.x(), anchor.y())
            best: tuple[int, QPointF] | None = kept.get(key)
            if best is None:
                for i, j in THEATRE_NAME_STEPS:
                    shift = QPointF(i * step_x, j * step_y)
                    covered = covering(c, shift, items)
                    if covered is not None and (best is None or covered < best[0]):
                        best = (covered, shift)
                    if covered == 0:
                        break
                if best is not None:
                    kept[key] = best
            for item in items:
                item.setPos(anchor if best is None else anchor + best[1] / scale)
                # the next theatre's name keeps clear of this one's
                grid.add(item.text_rect().translated(item.pos() * scale), THEATRE)
            yield

    def place_labels(self, scale: float, frame: QRectF | None = None) -> None:
        """Show the names that fit at ``scale`` pixels per mile, none over another, over a town
        sign or over a flag: cities and fortresses first, then towns, then villages.

        ``frame`` (scene units) keeps names inside a picture's frame. Every rectangle is
        checked in pixels against a bucket grid of those already placed.
        """
        for _ in self.labels_placing(scale, frame):
            pass

    def labels_due(self, scale: float, frame: QRectF | None = None) -> bool:
        """Whether the names placed are not those for this scale, frame, flags and battles."""
        return self.built and self._labels_key(scale, frame) != self._placed

    def _labels_key(self, scale: float, frame: QRectF | None) -> PlacedKey:
        return (round(scale, 4), None if frame is None else frame.getRect(),
                tuple((m.spec.place, m.slot, m.spec.label, m.spec.badges) for m in
                      self.markers.values()), tuple(self.battles),
                tuple((m.town, m.column) for m in self.supply.marks))

    def labels_placing(self, scale: float, frame: QRectF | None = None,
                       ratio: float | None = None) -> Iterator[None]:
        """Place the names as :meth:`place_labels` does, a name or a stack of flags at a time:
        each ``None`` yielded is a point where the window may paint or take an event and then
        go on. The names are shown once all are placed; a placement left half-way (the scale
        changed meanwhile) is simply made again whole. ``ratio``: the screen's pixel ratio,
        for which the pictures of the names shown are made here, a few at a time, rather
        than all in the paint that first shows them."""
        if not self.built:
            return
        key = self._labels_key(scale, frame)
        if key == self._placed:
            return
        self._placed = None  # until this placement is complete
        bound = None if frame is None else QRectF(frame.left() * scale, frame.top() * scale,
                                                  frame.width() * scale, frame.height() * scale)
        u = self.unit

        def px(p: QPointF) -> QPointF:
            return QPointF(p.x() * scale, p.y() * scale)

        # the signs shown, in the grid, by town (a name stays nearest its own), and the
        # cities' that no flag may cover (``fixed``, for the flags' trial): the same at one
        # scale, kept from one placement to the next
        if self._signs is None or self._signs[0] != round(scale, 4):
            with_signs, signs = BucketGrid(64.0), BucketGrid(64.0)
            great_signs: list[tuple[QRectF, object]] = []
            for town in self.map.towns:
                if self.shows_town(town, scale):
                    r = town_radius(town.kind, town.fortress, u)
                    c = px(self._town_points[town.name])
                    great = town.kind is TownKind.CITY or town.fortress
                    box = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
                    with_signs.add(box, GREAT_SIGN if great else SIGN)
                    signs.add(box, town.name)
                    if great:
                        great_signs.append((box, GREAT_SIGN))
            self._signs = (round(scale, 4), with_signs, signs, great_signs, {})
        _, with_signs, signs, great_signs, sign_answers = self._signs
        grid = LayeredGrid(with_signs, sign_answers)
        free = SpotTest(SpotTest.FREE, grid, bound)
        over_signs = SpotTest(SpotTest.OVER_SIGNS, grid, bound)  # over lesser towns' signs
        over_dots = SpotTest(SpotTest.OVER_DOTS, grid, bound)  # and commands' dots
        fixed = list(great_signs)  # what no flag may cover, for their trial
        # every command's dot: no name covers where one stands (those of the commands of an
        # army group drawn as one are given back once that is decided)
        dots: dict[Place, tuple[QRectF, Taken]] = {}
        for place in {m.spec.place for m in self.markers.values()}:
            c = self.place_point(*place) * scale
            dots[place] = (QRectF(c.x() - 4, c.y() - 4, 8, 8), Taken(place=place))
            grid.add(*dots[place])
        for battle in self.battles.values():
            # the burst's points are thin: names may come closer than its box
            for box in (battle.burst.adjusted(4, 4, -4, -4), battle.box):
                grid.add(box.translated(px(battle.pos())))
                fixed.append((box.translated(px(battle.pos())), None))
        for mark in self.supply.marks:  # a depot's store or a column's wagon: no name over it
            sign_town = self.towns.get(mark.town)
            if sign_town is not None and self.shows_town(sign_town, scale):
                box = self.supply.sign_rect(mark, scale)
                sign = QRectF(box.x() * scale, box.y() * scale, box.width() * scale,
                              box.height() * scale)
                grid.add(sign)
                fixed.append((sign, None))
        rank = {TownKind.CITY: 0, TownKind.FORTRESS: 1, TownKind.TOWN: 2, TownKind.VILLAGE: 3}

        def wanted(t: Town) -> bool:
            if bound is not None and not bound.contains(px(self._town_points[t.name])):
                return False  # a town outside the frame: its name would be cut or astray
            if t.kind is TownKind.CITY or t.fortress:
                return True
            if t.kind is TownKind.VILLAGE:
                return scale >= VILLAGE_NAMES_FROM
            return scale >= TOWN_NAMES_FROM

        order = sorted(self.map.towns, key=lambda t: (rank[t.kind] - (1 if t.fortress else 0),
                                                      t.name))
        if bound is not None:  # a town whose name could not reach into the frame: unnamed
            sight = bound.adjusted(-300 * u, -60 * u, 300 * u, 60 * u)
            for t in order:
                if not sight.contains(px(self._town_points[t.name])):
                    self.town_names[t.name].setVisible(False)
            order = [t for t in order if sight.contains(px(self._town_points[t.name]))]
        kept = [t for t in order if t.name in GREAT_CITIES]
        majors = [t for t in order if (t.kind is TownKind.CITY or t.fortress)
                  and t.name not in GREAT_CITIES]
        others = [t for t in order if not (t.kind is TownKind.CITY or t.fortress)]
        # The great cities are named first, where no command stands, and no flag may cover
        # them; the flags are then tried (an army group drawn as one flag where its commands'
        # flags cannot stand apart); the other great places are named, and the flags stand
        # clear of those names, or, when a crowd leaves no corner free, the name is put again
        # where it finds room (see _stand_flags). On the whole map (below town names' scale)
        # only the great places are named and they crowd each other: a name looks only for a
        # free spot near its town, and flags try no other corner to spare one.
        taken: dict[int, QRectF] = {}
        self._flagged = {m.spec.place[0] for m in self.markers.values() if m.spec.place[1] is None}
        thorough = scale >= TOWN_NAMES_FROM
        # Only flags and battles changed since the last placement at this scale and frame (a
        # day ended): each name is put where it was, if nothing that changed is near enough
        # to have moved it and its room is still free; the others are placed afresh. The
        # great cities' are placed before the flags are stood: what changed near them is told
        # by the commands that moved, each with room round its dot for any stack of flags.
        view = (round(scale, 4), None if frame is None else frame.getRect())
        prior = self._prior if self._prior is not None and self._prior[0] == view else None
        commands = self._commands_around(scale)
        # a great city's name is put before the flags stand, and they stand clear of it: it
        # moves for a dot or battle come or gone near it, or where it had given way to flags
        near_commands = None
        if prior is not None:
            near_commands = self._changed(commands, prior[2])
            for box in prior[1].values():
                near_commands.add(box)

        def reused(town: Town, dirty: BucketGrid | None) -> bool:
            """The name put where the last placement put it, if it may be; whether it was."""
            if dirty is None or prior is None or town.name not in prior[3]:
                return False
            item = self.town_names[town.name]
            c = px(self._town_points[town.name])
            # at the first spot looked at, and free: it would be put there again, whatever
            # moved; elsewhere, or not named, only if nothing that changed is near
            first = (town.name, town.name in self._flagged) in prior[4]
            reach = town_radius(town.kind, town.fortress, u) * FAR_REACHES[-1] + item.size.x()
            if not first and dirty.clashes(QRectF(c.x() - reach, c.y() - reach, 2 * reach,
                                                  2 * reach)):
                return False
            offset = prior[3][town.name]
            if offset is None:
                item.setVisible(False)
                return town.name not in GREAT_CITIES  # (these are looked for again)
            rect = QRectF(c.x() + offset.x(), c.y() + offset.y(), item.size.x(), item.size.y())
            if not free(rect):
                return False
            grid.add(rect, item)
            taken[id(item)] = rect
            item.set_offset(offset)
            item.setVisible(True)
            if first:
                self._first_spots.add(town.name)
            return True

        self._first_spots = set()
        yield
        for town in kept:  # at the worst beside a neighbour, rather than not named at all
            if reused(town, near_commands):
                fixed.append((taken[id(self.town_names[town.name])], self.town_names[town.name]))
                continue
            self.town_names[town.name].setVisible(False)
            for fits, near, strict in ((free, signs, True), (over_signs, signs, True),
                                       (free, signs, False), (over_signs, signs, False),
                                       (free, None, False), (over_signs, None, False),
                                       (over_dots, None, False)):
                if not self.town_names[town.name].isVisible():
                    self._place_town_name(town, scale, grid, fits, True, taken, FAR_REACHES,
                                          near, strict, first=fits is free and strict)
            if self.town_names[town.name].isVisible():
                fixed.append((taken[id(self.town_names[town.name])], self.town_names[town.name]))
            yield
        stacks, standings = yield from self._arrange(scale, fixed, bound)
        shown = {m.spec.place for _, stack in stacks for m in stack}
        for place in dots.keys() - shown:
            grid.remove(*dots[place])
        gave_way: list[NameItem] = []
        for town in kept:  # a great city not named for the dots given back: room now, maybe
            if not self.town_names[town.name].isVisible():
                for fits in (free, over_signs):
                    if not self.town_names[town.name].isVisible():
                        self._place_town_name(town, scale, grid, fits, True, taken,
                                              FAR_REACHES)
        crowds = self._crowds(scale, stacks, standings)
        near_flags = None if prior is None else self._changed(crowds, prior[1])
        yield
        for town in majors:  # where lesser towns crowd round, over their signs
            if reused(town, near_flags):
                continue
            for fits, strict in ((free, True), (over_signs, True), (free, False),
                                 (over_signs, False)):
                if fits is over_signs and not thorough:
                    continue
                self._place_town_name(town, scale, grid, fits, wanted(town), taken,
                                      signs=signs, strict=strict,
                                      first=fits is free and strict)
                if self.town_names[town.name].isVisible():
                    break
            yield
        by_item = {id(self.town_names[t.name]): t for t in (*kept, *majors)}

        def rename(item: NameItem) -> bool:
            """Put a great place's name that gave way again: where it is free, else over
            lesser signs farther out, else over dots at last; whether it found room."""
            town = by_item[id(item)]
            self._place_town_name(town, scale, grid, free, True, taken, signs=signs)
            for fits in (free, over_signs, over_dots) if thorough or item.keep else (free,):
                if not item.isVisible():
                    self._place_town_name(town, scale, grid, fits, True, taken, FAR_REACHES,
                                          signs, strict=False)
            return item.isVisible()

        # Each stack at the first corner of its dot that covers nothing, else the least; but
        # where the trial pushed some out from their dots, or a stack lands on another's
        # flags (the names led them elsewhere than the trial), each stands where the trial
        # stood it, the names round them
        pushed = any(foot != anchor for (anchor, _), (_, foot) in zip(stacks, standings,
                                                                      strict=True))
        clear = not pushed
        for anchor, stack in stacks if not pushed else ():
            clear = self._stand_flags(anchor, stack, scale, grid, bound, taken, gave_way,
                                      rename, thorough) and clear
            yield
        if not clear:
            for _, stack in stacks if not pushed else ():
                for covered in self._covers(stack, scale):
                    for box in covered:
                        grid.remove(box, FLAG)
            for (_, stack), (corner, foot) in zip(stacks, standings, strict=True):
                self._stand_flags(foot, stack, scale, grid, bound, taken, gave_way, rename,
                                  thorough, only=corner)
            yield
        for item in gave_way:  # names a crowd covered wherever it stood: room now, maybe
            if id(item) in by_item and not item.isVisible():
                rename(item)
        yield
        self._place_river_names(scale, grid, free)
        yield
        for i, town in enumerate(others, start=1):
            if not wanted(town):  # not named at this scale, wherever the flags stand
                self.town_names[town.name].setVisible(False)
                self._first_spots.discard(town.name)
            elif not reused(town, near_flags):
                self._place_town_name(town, scale, grid, free, wanted(town), taken, signs=signs,
                                      first=True)
            if i % 20 == 0:
                yield
        if scale < THEATRE_NAMES_UNTIL:
            yield from self._place_theatre_names(scale, grid, bound, view)
        # a theatre's name, its lines round one point, is not shown if the frame cuts a line
        cut = {(i.pos().x(), i.pos().y()) for i in self.theatre_names if bound is not None
               and not bound.contains(i.text_rect().translated(px(i.pos())))}
        for item in self.theatre_names:
            item.setVisible(scale < THEATRE_NAMES_UNTIL
                            and (item.pos().x(), item.pos().y()) not in cut)
        if ratio is not None:
            for name in (*self.names_layer.names, *self.theatre_names):
                if name.isVisible() and name.prepare(ratio):
                    yield
        self._placed = key
        self._prior = (view, crowds, commands,
                       {t.name: (self.town_names[t.name].offset()
                                 if self.town_names[t.name].isVisible() else None)
                        for t in self.map.towns},
                       {(n, n in self._flagged) for n in self._first_spots
                        if self.town_names[n].isVisible()})
        self.names_layer.update()
        self.theatre_layer.update()

    @staticmethod
    def _changed(now: dict[object, QRectF], before: dict[object, QRectF]) -> BucketGrid:
        """The pixels of what is in one placement and not the other (moved, come or gone)."""
        dirty = BucketGrid(64.0)
        for sign in now.keys() ^ before.keys():
            dirty.add(now[sign] if sign in now else before[sign], sign)
        return dirty

    def _commands_around(self, scale: float) -> dict[object, QRectF]:
        """Each command and battle, with the pixels of its dot (or the battle's burst)."""
        out: dict[object, QRectF] = {}
        for m in self.markers.values():
            c = m.pos() * scale
            out[m.spec] = QRectF(c.x() - 4, c.y() - 4, 8, 8)
        for battle in self.battles.values():
            c = battle.pos() * scale
            out[battle.spec] = battle.boundingRect().translated(c).adjusted(-20, -20, 20, 20)
        return out

    def _crowds(self, scale: float, stacks: list[Stack],
                standings: list[Standing]) -> dict[object, QRectF]:
        """What the flags and battles are at this placement, each with the pixels it may
        cover at any corner of its dot or where the trial stood it: a stack (its foot and
        flags) or a battle."""
        u = self.unit
        out: dict[object, QRectF] = {}
        for (anchor, stack), (_, foot) in zip(stacks, standings, strict=True):
            rects = [m.flag_rect() for m in stack]
            rx = max(r.width() for r in rects) + CommandMarker.GAP * u + 8
            ry = sum(r.height() for r in rects) + CommandMarker.GAP * u + 8
            sign = (round(anchor.x(), 1), round(anchor.y(), 1), tuple(m.spec for m in stack))
            out[sign] = QRectF(anchor.x() - rx, anchor.y() - ry, 2 * rx, 2 * ry).united(
                QRectF(foot.x() - rx, foot.y() - ry, 2 * rx, 2 * ry))
        for battle in self.battles.values():
            c = battle.pos() * scale
            out[battle.spec] = battle.boundingRect().translated(c).adjusted(-20, -20, 20, 20)
        return out

    # ---- army groups: one flag where the commands cannot be drawn apart ----
    def _sync_groups(self) -> None:
        """Keep each army group's one flag (for a group of two or more commands) in step with
        its commands' flags: where its HQ stands, how many corps, their states."""
        members: dict[str, list[CommandMarker]] = defaultdict(list)
        for m in self.markers.values():
            if m.spec.army:
                members[m.spec.army].append(m)
        order = self._stack_order()
        for army in [a for a in self.groups if len(members.get(a, ())) < 2]:
            self.removeItem(self.groups.pop(army))
            self.group_members.pop(army, None)
            self.collapsed.discard(army)
        for army, ms in members.items():
            if len(ms) < 2:
                continue
            ms.sort(key=order)
            spec = group_spec([m.spec for m in ms])
            self.group_members[army] = [m.spec.key for m in ms]
            item = self.groups.get(army)
            if item is None:
                item = CommandMarker(spec, self.unit)
                item.setData(0, spec.key)
                item.setVisible(army in self.collapsed)
                self.addItem(item)
                self.groups[army] = item
            elif item.spec != spec:
                item.set_spec(spec)
            item.setPos(self.place_point(spec.a, spec.b, spec.miles))

    def shown_markers(self) -> list[CommandMarker]:
        """The flags on the map at the last placement: the commands' own, and an army group's
        one flag where its commands are drawn as one."""
        return [m for m in (*self.markers.values(), *self.groups.values()) if m.isVisible()]

    def _units(self) -> list[CommandMarker]:
        """The flags to stand: each command's, but one for each army group drawn as one."""
        return ([m for m in self.markers.values() if m.spec.army not in self.collapsed]
                + [self.groups[a] for a in sorted(self.collapsed) if a in self.groups])

    def _arrange(self, scale: float, fixed: list[tuple[QRectF, object]],
                 bound: QRectF | None) -> Generator[None, None, tuple[list[Stack],
                                                                       list[Standing]]]:
        """Which army groups are drawn as one flag at this scale, the stacks of flags and
        where each stands, covering no other flag, no command's dot, no city's sign or battle
        and no great city's name (``fixed``): every army group drawn apart with a stack that
        cannot stand clear (at a corner of its dot, or a step or two out from it), or in a
        pile (more than ``PILE`` flags of several army groups), is drawn as one flag, and all
        is tried again; once none is left to draw as one, a stack still without a free spot
        stands pushed farther out from its dot, and at the last joins the stack it would
        cover. As a map application gathers its points, but by
        army group: a group opens into its commands' flags as soon as the zoom leaves them
        room. A stack at a time, yielding between them."""
        self._sync_groups()
        self.collapsed.clear()
        joins: list[tuple[str, str]] = []
        base = BoxGrid(64.0)  # what no flag may cover, the same in every trial
        for r, owner in fixed:
            base.add(cast(Box, r.getRect()), owner)
        for _ in range(len(self.markers) + len(self.groups) + 2):
            stacks = self._flag_clusters(scale, self._units(), joins)
            # the army groups this trial may yet gather: once the stacks that clashed name
            # them all (and are too many to nudge), the rest of the trial changes nothing
            openable = {m.spec.army for _, stack in stacks for m in stack
                        if m.spec.army in self.groups and m.spec.army not in self.collapsed}

            def settled(clashes: list[tuple[int, set[int]]],
                        stacks: list[Stack] = stacks, openable: set[str] = openable) -> bool:
                return len(clashes) > NUDGED and openable <= {
                    m.spec.army for i, near in clashes for j in (i, *near)
                    for m in stacks[j][1]}

            standings, clashes = yield from self._trial(scale, stacks, base, bound,
                                                        settled=settled)
            if 0 < len(clashes) <= NUDGED:  # a step or two out from its dot spares an army
                # group its gathering (where many stacks clash, gathering is the answer)
                standings, clashes = yield from self._trial(scale, stacks, base, bound, NUDGES)
            clashes += [(i, set()) for i, (_, stack) in enumerate(stacks)
                        if len(stack) > PILE and len({m.spec.army for m in stack}) > 1]
            if not clashes:
                break
            drawn_apart = {m.spec.army for i, near in clashes for j in (i, *near)
                           for m in stacks[j][1]
                           if m.spec.army in self.groups and m.spec.army not in self.collapsed}
            if drawn_apart:
                self.collapsed |= drawn_apart
                continue
            standings, clashes = yield from self._trial(scale, stacks, base, bound, PUSHES)
            if not clashes:
                break
            pair = next(((i, min(near)) for i, near in clashes if near), None)
            if pair is None:
                break  # on a sign, a battle or a great name only: joining spares nothing
            joins.append((stacks[pair[0]][1][0].spec.key, stacks[pair[1]][1][0].spec.key))
        for m in self.markers.values():
            m.setVisible(m.spec.army not in self.collapsed)
        for army, item in self.groups.items():
            item.setVisible(army in self.collapsed)
        return stacks, standings

    @staticmethod
    def _covers(stack: list[CommandMarker],
                scale: float) -> tuple[list[QRectF], list[QRectF]]:
        """What a stack of flags covers, in pixels: its flags, and the leader from its first
        flag's dot when the stack stands out from it (small squares along the line: no name
        is put across it)."""
        first = stack[0]
        return MapScene._covers_at(stack, scale, first.pos() * scale + first.shift,
                                   first.corner)

    @staticmethod
    def _covers_at(stack: list[CommandMarker], scale: float, foot: QPointF,
                   corner: Corner) -> tuple[list[QRectF], list[QRectF]]:
        """What a stack of flags would cover, as :meth:`_covers`, were its foot at ``foot``
        (pixels) and its flags at ``corner``, the flags themselves not moved (a trial)."""
        return (MapScene._flags_at(stack, scale, foot, corner),
                MapScene._leader_at(stack[0], scale, foot, corner))

    @staticmethod
    def _flags_at(stack: list[CommandMarker], scale: float, foot: QPointF,
                  corner: Corner) -> list[QRectF]:
        """The flags' boxes of a stack whose foot were at ``foot`` and flags at ``corner``."""
        rects = []
        for slot, m in enumerate(stack):
            dot = m.pos() * scale
            rects.append(m.flag_rect_at(slot, corner, foot - dot).translated(dot))
        return rects

    @staticmethod
    def _leader_at(m: CommandMarker, scale: float, foot: QPointF,
                   corner: Corner) -> list[QRectF]:
        """The leader (small squares along it) from the first flag's dot ``m`` to a stack
        whose foot were at ``foot`` and flags at ``corner``: none where it stands at its dot."""
        leader: list[QRectF] = []
        shift = foot - m.pos() * scale
        if shift.manhattanLength() > 2:
            flag = m.flag_rect_at(0, corner, shift)
            end = QPointF(flag.left() if corner[0] > 0 else flag.right(),
                          flag.bottom() if corner[1] < 0 else flag.top())
            length = math.hypot(end.x(), end.y())
            dot = m.pos() * scale
            for k in range(int((length - 7) // 5)):
                t = (7 + 5 * k) / length
                leader.append(QRectF(dot.x() + end.x() * t - 1.5, dot.y() + end.y() * t - 1.5,
                                     3, 3))
        return leader

    def _trial(self, scale: float, stacks: list[Stack], fixed: BoxGrid,
               bound: QRectF | None, pushes: tuple[float, ...] = (0.0,),
               settled: Callable[[list[tuple[int, set[int]]]], bool] | None = None
               ) -> Generator[None, None, tuple[list[Standing], list[tuple[int, set[int]]]]]:
        """Stand the stacks in turn, each at the first corner where it covers nothing
        ``fixed`` and no flag stood before (inside ``bound`` if it can), its foot pushed out
        from its dot by each of ``pushes`` pixels in turn: where each stands, and the stacks
        that found nowhere (or nowhere inside ``bound``) with the stacks whose flags or dots
        they cover. A stack at a time, yielding after each. Once the clashes so far are
        ``settled`` (what the caller makes of them cannot change), the trial ends there, the
        stacks after it not stood."""
        grid = fixed.copy()
        stack_of = {m.spec.place: i for i, (_, stack) in enumerate(stacks) for m in stack}
        for place in stack_of:  # the dots of the flags stood (no flag covers another's dot)
            c = self.place_point(*place) * scale
            grid.add((c.x() - 4, c.y() - 4, 8.0, 8.0), Taken(place=place))
        frame = None if bound is None else box_edges(cast(Box, bound.getRect()))
        standings: list[Standing] = []
        clashes: list[tuple[int, set[int]]] = []
        for i, (anchor, stack) in enumerate(stacks):
            chosen: Standing | None = None
            outside: Standing | None = None  # clear, but across the frame
            # clear but for its leader crossing a name: the one crossing fewest
            crossing: tuple[int, Standing] | None = None
            # where it covers least, inside the frame if it can: (outside, hits), the place
            least: tuple[tuple[bool, int], Standing, list[object]] | None = None
            # each flag's box round the stack's foot, at each corner
            boxes = {c: [cast(Box, m.flag_rect_at(slot, c, QPointF()).getRect())
                         for slot, m in enumerate(stack)] for c in CORNERS}
            x0, y0 = anchor.x(), anchor.y()
            # pushed out across the corner, along its side or up or down from it
            for push, corner, (ax, ay) in ((p, c, a) for p in pushes for c in CORNERS
                                           for a in ((1, 1), (1, 0), (0, 1))[:3 if p else 1]):
                fx, fy = x0 + corner[0] * push * ax, y0 + corner[1] * push * ay
                flags = [(bx + fx, by + fy, bw, bh) for bx, by, bw, bh in boxes[corner]]
                hits = [h for r in flags for h in grid.hits(r)
                        if not (isinstance(h, Taken) and h.place is not None
                                and stack_of.get(h.place) == i)]
                out = bound is not None and (frame is None or not all(box_within(frame, r)
                                                                      for r in flags))
                if least is None or (out, len(hits)) < least[0]:
                    least = ((out, len(hits)), (corner, QPointF(fx, fy)), hits)
                if not hits:  # its leader matters only where its flags are clear
                    foot = QPointF(fx, fy)
                    crossed = sum(1 for r in self._leader_at(stack[0], scale, foot, corner)
                                  for h in grid.hits(cast(Box, r.getRect()))
                                  if isinstance(h, NameItem))
                    if out:
                        outside = outside or (corner, foot)
                    elif not crossed:
                        chosen = (corner, foot)
                        break
                    elif crossing is None or crossed < crossing[0]:
                        crossing = (crossed, (corner, foot))
            if chosen is None and crossing is not None:
                chosen = crossing[1]
            if chosen is None and outside is not None:
                chosen = outside  # clear, but only across the frame: a clash of its own
                clashes.append((i, set()))
            if chosen is None:
                assert least is not None
                chosen = least[1]
                near = {h.stack if h.place is None else stack_of.get(h.place, -1)
                        for h in least[2] if isinstance(h, Taken)}
                clashes.append((i, {j for j in near if j >= 0 and j != i}))
            if clashes and settled is not None and clashes[-1][0] == i and settled(clashes):
                return standings, clashes
            standings.append(chosen)
            flags_at, leader = self._covers_at(stack, scale, chosen[1], chosen[0])
            for r in (*flags_at, *leader):
                grid.add(cast(Box, r.getRect()), Taken(stack=i))
            yield
        return standings, clashes

    def _flag_clusters(self, scale: float, units: list[CommandMarker],
                       joins: Iterable[tuple[str, str]] = ()) -> list[Stack]:
        """The stacks of flags at this scale: one per place, places within a few pixels of a
        bigger one joining its stack (each command keeps its own dot at its true place), and
        the stacks of the flags in ``joins`` joined."""
        at: dict[Place, list[CommandMarker]] = defaultdict(list)
        for marker in units:
            at[marker.spec.place].append(marker)
        clusters: list[tuple[QPointF, list[CommandMarker]]] = []
        reach = 14.0 * self.unit
        for place in sorted(at, key=lambda p: (-len(at[p]), p[0], p[1] or "", p[2])):
            stack = at[place]
            c = stack[0].pos() * scale
            for anchor, members in clusters:
                if abs(anchor.x() - c.x()) < reach and abs(anchor.y() - c.y()) < reach:
                    members.extend(stack)
                    break
            else:
                clusters.append((c, list(stack)))
        for a, b in joins:
            ia = next(i for i, (_, ms) in enumerate(clusters) if any(m.spec.key == a for m in ms))
            ib = next(i for i, (_, ms) in enumerate(clusters) if any(m.spec.key == b for m in ms))
            if ia != ib:
                keep, gone = min(ia, ib), max(ia, ib)
                clusters[keep][1].extend(clusters.pop(gone)[1])
        key = self._stack_order()
        for _, members in clusters:
            members.sort(key=key)
        return clusters

    def _stand_flags(self, anchor: QPointF, stack: list[CommandMarker], scale: float,
                     grid: LayeredGrid, bound: QRectF | None, taken: dict[int, QRectF],
                     gave_way: list[NameItem], rename: Callable[[NameItem], bool],
                     other_corners: bool = True, only: Corner | None = None) -> bool:
        """Stand a stack at the first corner of its dot where it covers nothing (up-right,
        up-left, down-right, down-left), else where it covers least: no flag, dot, city's
        sign or great city's name if it can, then no great place's name, then no lesser
        town's sign. A great place's name under it is put elsewhere (``rename``); if it finds
        no room, the next corner is tried (unless not ``other_corners``), and at the worst
        the name gives way. Names under it give way (and are listed in ``gave_way``, their
        room given back). ``only``: the one corner to stand at. Whether it stood clear of
        flags, dots, cities' signs, battles and great cities' names."""
        for slot, m in enumerate(stack):
            m.set_stack(slot, anchor - m.pos() * scale)
        candidates: list[tuple[tuple[int, ...], int, tuple[int, int], list[QRectF],
                               list[object]]] = []
        for corner in CORNERS if only is None else (only,):
            for m in stack:
                m.set_corner(corner)
            flags, leader = self._covers(stack, scale)
            rects = flags + leader
            hits = [h for r in flags for h in grid.hits(r)]
            hits += [h for r in leader for h in grid.hits(r) if isinstance(h, NameItem)]
            outside = bound is not None and not all(bound.contains(r) for r in flags)
            # worst to cover: another flag, a dot, a city's sign (or to leave the frame); then
            # a great place's name; then a lesser town's sign; then any name
            hard = sum(1 for h in hits if (not isinstance(h, NameItem) or h.keep)
                       and h is not SIGN)
            great = sum(1 for h in hits if isinstance(h, NameItem) and h.great)
            lesser = sum(1 for h in hits if h is SIGN)
            score: tuple[int, ...] = (hard + (100 if outside else 0), great, lesser, len(hits))
            candidates.append((score, len(candidates), corner, rects, hits))
            if not hits and not outside:
                break
        candidates.sort(key=lambda c: c[:2])
        best = candidates[0]
        clear = best[0][0] in (0, 100)  # (outside the frame, but on nothing)
        for score, _, corner, rects, hits in candidates if other_corners else candidates[:1]:
            if score[0] > best[0][0]:
                break  # never onto another flag, dot or city to spare a name
            token = object()  # these flags' room in the grid, while the names are tried
            for r in rects:
                grid.add(r, token)
            moved = []
            for h in dict.fromkeys(h for h in hits if isinstance(h, NameItem) and h.great
                                   and h.isVisible()):
                moved.append((h, taken.pop(id(h)), h.offset()))
                grid.remove(moved[-1][1], h)
                h.setVisible(False)
                if not rename(h):
                    break
            else:
                for m in stack:
                    m.set_corner(corner)
                renamed = {id(h) for h, _, _ in moved}
                self._give_way([h for h in hits if id(h) not in renamed], grid, taken, gave_way)
                for r in rects:
                    grid.remove(r, token)
                    grid.add(r, FLAG)
                return clear
            for h, old, offset in moved:  # no room for a name: put things back, try the next
                if h.isVisible():
                    grid.remove(taken.pop(id(h)), h)
                grid.add(old, h)
                taken[id(h)] = old
                h.set_offset(offset)
                h.setVisible(True)
            for r in rects:
                grid.remove(r, token)
        _, _, corner, rects, hits = best
        for m in stack:
            m.set_corner(corner)
        self._give_way(hits, grid, taken, gave_way)
        for r in rects:
            grid.add(r, FLAG)
        return clear

    @staticmethod
    def _give_way(hits: list[object], grid: LayeredGrid, taken: dict[int, QRectF],
                  gave_way: list[NameItem]) -> None:
        """The names under flags just stood give way: hidden, their room given back."""
        for h in hits:
            if isinstance(h, NameItem) and h.isVisible():
                h.setVisible(False)
                grid.remove(taken.pop(id(h)), h)
                gave_way.append(h)

    def _place_town_name(self, town: Town, scale: float, grid: LayeredGrid,
                         free: SpotTest, wanted: bool,
                         taken: dict[int, QRectF],
                         reaches: tuple[float, ...] = (1.0, 1.9, 2.8),
                         signs: BucketGrid | None = None, strict: bool = True,
                         first: bool = False) -> None:
        """Name a town at the first spot round its sign that ``fits`` and lies nearer its own
        sign than any other town's shown (``signs``), so that no name reads as a
        neighbour's; else leave it unnamed. ``first``: the first look for its name in this
        placement (where it lands at the very first spot, a placement after flags moved puts
        it back there if that is still free)."""
        item = self.town_names[town.name]
        self._first_spots.discard(town.name)
        if not wanted:
            item.setVisible(False)
            return
        for at_first, dx, dy, rect in self._spots(town, scale, grid, free, reaches, signs,
                                                  strict):
            if free(rect):
                grid.add(rect, item)
                taken[id(item)] = rect
                item.set_offset(QPointF(dx, dy))
                item.setVisible(True)
                if first and at_first:
                    self._first_spots.add(town.name)
                return
        item.setVisible(False)

    def _spots(self, town: Town, scale: float, grid: LayeredGrid, fits: SpotTest,
               reaches: tuple[float, ...], signs: BucketGrid | None,
               strict: bool) -> list[tuple[bool, float, float, QRectF]]:
        """The spots round a town's sign its name tries in turn, nearest first, less those
        the town signs alone rule out for ``fits`` or where the name would read as a
        neighbour's (``signs``): whether it is the very first spot, its offset, its box.
        The signs stay as they are at one scale, so the list is kept for it."""
        flagged = town.name in self._flagged
        key = ("spots", town.name, reaches, flagged, fits.kind, signs is not None, strict)
        found = grid.answers.get(key)
        if found is not None:
            return found  # type: ignore[return-value]
        item = self.town_names[town.name]
        c = QPointF(self._town_points[town.name].x() * scale,
                    self._town_points[town.name].y() * scale)
        w, h = item.size.x(), item.size.y()
        r = town_radius(town.kind, town.fortress, self.unit) + 2.5 * self.unit
        out: list[tuple[bool, float, float, QRectF]] = []
        for reach in reaches:
            d = r * reach
            # right, left, the corners, above, below; where flags stand at the town (up-right
            # first), its name looks left and below first, so that both find room
            spots = ((d, -h / 2), (-d - w, -h / 2), (d * 0.7, -d * 0.7 - h),
                     (d * 0.7, d * 0.7), (-d * 0.7 - w, -d * 0.7 - h),
                     (-d * 0.7 - w, d * 0.7), (-w / 2, -d - h), (-w / 2, d))
            if flagged:
                spots = (spots[1], spots[5], spots[7], spots[3], spots[0], spots[4],
                         spots[6], spots[2])
            for dx, dy in spots:
                rect = QRectF(c.x() + dx, c.y() + dy, w, h)
                if fits.signs_allow(rect) and (
                        signs is None or self._nearest_own(rect, town.name, c, signs, strict)):
                    out.append((reach == reaches[0] and (dx, dy) == spots[0], dx, dy, rect))
        grid.answers[key] = out
        return out

    def _nearest_own(self, rect: QRectF, name: str, own: QPointF, signs: BucketGrid,
                     strict: bool = True) -> bool:
        """Whether the end of a name's box that faces its town lies nearer that town's sign
        than any other's, and (``strict``) the box keeps a few pixels clear of every other
        sign (a sign all but touching its own, one place at this scale, is no other): a name
        does not stand by a neighbour as if it were his."""
        foot = QPointF(min(max(own.x(), rect.left()), rect.right()),
                       min(max(own.y(), rect.top()), rect.bottom()))
        d = math.dist((foot.x(), foot.y()), (own.x(), own.y())) + 2 * self.unit
        one_place, clear = 12 * self.unit, 6 * self.unit
        near = QRectF(foot.x() - d, foot.y() - d, 2 * d, 2 * d)
        for box, owner in signs.entries(near.united(rect.adjusted(-clear, -clear, clear, clear))):
            c = box.center()
            if owner == name or math.dist((own.x(), own.y()), (c.x(), c.y())) <= one_place:
                continue
            if (math.dist((foot.x(), foot.y()), (c.x(), c.y())) < d
                    or (strict and box.intersects(rect.adjusted(-clear, -clear, clear, clear)))):
                return False
        return True

    def _place_river_names(self, scale: float, grid: LayeredGrid,
                           free: Callable[[QRectF], bool]) -> None:
        for item, reaches in self.river_names:
            item.setVisible(False)
            if not item.great and scale < TRIBUTARY_NAMES_FROM:
                continue
            w, h = item.size.x(), item.size.y()
            for a, b in reaches:
                pa, pb = QPointF(a.x() * scale, a.y() * scale), QPointF(b.x() * scale,
                                                                        b.y() * scale)
                length = math.dist((pa.x(), pa.y()), (pb.x(), pb.y()))
                if length < w * 1.2:
                    break  # the reaches are longest first: none after this fits either
                if pb.x() < pa.x():
                    pa, pb = pb, pa  # keep the writing upright
                ux, uy = (pb.x() - pa.x()) / length, (pb.y() - pa.y()) / length
                mid = (pa + pb) / 2
                placed = False
                for side in (-1, 1):
                    shift = side * (h * 0.6 + 2 * self.unit)
                    centre = QPointF(mid.x() - uy * shift, mid.y() + ux * shift)
                    corners = [QPointF(centre.x() + ux * dx - uy * dy,
                                       centre.y() + uy * dx + ux * dy)
                               for dx in (-w / 2, w / 2) for dy in (-h / 2, h / 2)]
                    xs, ys = [p.x() for p in corners], [p.y() for p in corners]
                    box = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
                    if not free(box):
                        continue
                    grid.add(box)
                    item.setPos(QPointF(centre.x() / scale, centre.y() / scale))
                    item.setRotation(math.degrees(math.atan2(uy, ux)))
                    item.set_offset(QPointF(-w / 2, -h / 2))
                    item.setVisible(True)
                    placed = True
                    break
                if placed:
                    break

    # ---- the campaign's pieces ----
    def set_markers(self, specs: Iterable[MarkerSpec]) -> None:
        """Show exactly these markers: new ones added, gone ones removed, changed ones redrawn."""
        specs = list(specs)
        keep = {s.key for s in specs}
        touched: set[Place] = set()
        for key in [k for k in self.markers if k not in keep]:
            item = self.markers.pop(key)
            touched.add(item.spec.place)
            self.removeItem(item)
        touched |= self._apply_markers(specs)
        self._restack(touched)

    def update_markers(self, specs: Iterable[MarkerSpec]) -> None:
        """Redraw only these markers (a command moved or changed state)."""
        self._restack(self._apply_markers(list(specs)))

    def remove_markers(self, keys: Iterable[str]) -> None:
        """Take these markers off the map (a surrendered command, one of another theatre)."""
        touched = set()
        for key in keys:
            item = self.markers.pop(key, None)
            if item is not None:
                touched.add(item.spec.place)
                self.removeItem(item)
        self._restack(touched)

    def _apply_markers(self, specs: list[MarkerSpec]) -> set[Place]:
        touched: set[Place] = set()
        for spec in specs:
            item = self.markers.get(spec.key)
            if item is None:
                item = CommandMarker(spec, self.unit)
                item.setData(0, spec.key)
                item.setVisible(spec.army not in self.collapsed)
                self.addItem(item)
                self.markers[spec.key] = item
                touched.add(spec.place)
            elif item.spec != spec:
                touched.add(item.spec.place)
                touched.add(spec.place)
                item.set_spec(spec)
            else:
                continue
            item.setPos(self.place_point(spec.a, spec.b, spec.miles))
        return touched

    def _restack(self, places: set[Place]) -> None:
        """Number the flags at each of these places: HQs first, then in the order given."""
        if not places:
            return
        at: dict[Place, list[CommandMarker]] = defaultdict(list)
        for item in self.markers.values():
            if item.spec.place in places:
                at[item.spec.place].append(item)
        key = self._stack_order()
        for items in at.values():
            items.sort(key=key)
            for slot, item in enumerate(items):
                item.set_slot(slot)

    def _stack_order(self) -> Callable[[CommandMarker], tuple[bool, bool, int]]:
        """The order of flags in a stack: the French first, HQs first, then as given."""
        order = {k: i for i, k in enumerate(self.markers)}
        order.update((k, len(order) + i) for i, k in enumerate(g.spec.key
                                                                 for g in self.groups.values()))
        return lambda m: (m.spec.side is not Side.FRENCH, not m.spec.hq, order[m.spec.key])

    def marker_at(self, scene_pos: QPointF, view_transform: QTransform) -> str | None:
        """The command whose flag or dot is under a point, if any (an army group's drawn as
        one flag: its HQ, else its first command)."""
        for item in self.items(scene_pos, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder, view_transform):
            if isinstance(item, CommandMarker) and item.isVisible():
                if item is self.groups.get(item.spec.army):
                    return self.group_members[item.spec.army][0]
                return item.spec.key
        return None

    def group_at(self, scene_pos: QPointF, view_transform: QTransform) -> str | None:
        """The army group drawn as one flag whose flag or dot is under a point, if any."""
        for item in self.items(scene_pos, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder, view_transform):
            if isinstance(item, CommandMarker) and item.isVisible():
                army = item.spec.army
                return army if item is self.groups.get(army) else None
        return None

    def battle_at(self, scene_pos: QPointF, view_transform: QTransform) -> int | None:
        """The scheduled battle whose burst or box is under a point, if any."""
        for item in self.items(scene_pos, Qt.ItemSelectionMode.IntersectsItemBoundingRect,
                               Qt.SortOrder.DescendingOrder, view_transform):
            if isinstance(item, BattleMarker):
                return item.spec.id
        return None

    def battles_at(self, town: str) -> list[BattleSpec]:
        """The battles scheduled at a town."""
        return [b.spec for b in self.battles.values() if b.spec.place == town]

    def select_marker(self, key: str | None) -> None:
        """Ring the flag of the selected command (and no other), and its army group's flag."""
        chosen = {key} | {f"army group: {a}" for a, ms in self.group_members.items()
                          if key in ms}
        for item in (*self.markers.values(), *self.groups.values()):
            item.set_selected(item.spec.key in chosen)
            item.setZValue(Z_MARKERS + 1 if item.spec.key in chosen else Z_MARKERS)

    def set_battles(self, specs: Iterable[BattleSpec]) -> None:
        """Show exactly these battles."""
        wanted = {s.id: s for s in specs}
        for bid in [b for b in self.battles
                    if b not in wanted or self.battles[b].spec != wanted[b]]:
            self.removeItem(self.battles.pop(bid))
        for bid, spec in wanted.items():
            if bid not in self.battles and spec.place in self._town_points:
                item = BattleMarker(spec, self.unit)
                item.setPos(self._town_points[spec.place])
                self.addItem(item)
                self.battles[bid] = item

    def set_order(self, key: str, points: Sequence[QPointF] | None, side: Side) -> None:
        """Draw (or, for None, take away) a command's order arrow."""
        item = self.orders.get(key)
        if not points or len(points) < 2:
            if item is not None:
                self.removeItem(self.orders.pop(key))
            return
        if item is None:
            item = OrderArrow(points, side, self.unit)
            self.addItem(item)
            self.orders[key] = item
        else:
            item.set_points(points)

    def show_preview(self, legs: Sequence[tuple[QPointF, QPointF]], at: str,
                     lines: Sequence[str], refused: bool) -> None:
        """Draw a proposed route and its figures (or its refusal) beside the objective."""
        self.clear_preview()
        if legs:
            path = PreviewPath(legs, refused, self.unit)
            self.addItem(path)
            self.preview_items.append(path)
        self.show_note(at, lines, refused)

    def show_note(self, at: str, lines: Sequence[str], refused: bool) -> None:
        """A short note beside a town (a route's figures, or why an order is refused)."""
        if self.note is not None:
            self.removeItem(self.note)
        self.note = NoteItem(lines, refused, self.unit)
        self.note.setPos(self._town_points[at])
        self.addItem(self.note)

    def clear_preview(self) -> None:
        """Take away the route preview and its note."""
        for item in self.preview_items:
            self.removeItem(item)
        self.preview_items = []
        if self.note is not None:
            self.removeItem(self.note)
            self.note = None

    def town_at(self, scene_pos: QPointF, scale: float, reach_px: float = 12.0) -> str | None:
        """The nearest town shown within ``reach_px`` pixels of a point."""
        best, best_d = None, reach_px / scale
        for name, p in self._town_points.items():
            d = math.hypot(p.x() - scene_pos.x(), p.y() - scene_pos.y())
            if d < best_d and self.shows_town(self.towns[name], scale):
                best, best_d = name, d
        return best


def _wrap(text: str, width: int = 12) -> list[str]:
    """Split a long name into lines of about ``width`` letters at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
