"""The items of the map scene: the ground's cached layers, names that keep their size on screen,
commands' flags, battles, who holds the towns, order arrows and the route preview.

Ground layers draw in scene units (miles) with pixel-sized pens and signs; the other items
ignore the view's transformation and draw in pixels round their point.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPaintEngine,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from campaign1813.campaign.scenario.types import Side
from campaign1813.ui.map.palette import SIDE_COLOUR
from campaign1813.ui.map.specs import BattleSpec, MarkerSpec, SupplySpec, supply_days
from campaign1813.ui.map.style import (
    INK,
    NOTE_WIDTH,
    OBJECTIVE,
    OUT_OF_SUPPLY,
    PREVIEW,
    REFUSED,
    SUPPLY_INK,
    Z_BATTLES,
    Z_GROUND,
    Z_MARKERS,
    Z_NOTE,
    Z_ORDERS,
    Z_PREVIEW,
    Z_SUPPLY,
    Z_TOWNS,
    draw_haloed_text,
    lod_of,
    text_path,
    town_radius,
)

if TYPE_CHECKING:
    from campaign1813.maps.types import Town


class TownsShown(Protocol):
    """What the control layer reads of its scene: the ground, the towns, which are shown."""

    unit: float
    ground_rect: QRectF
    towns: dict[str, Town]

    def town_point(self, name: str) -> QPointF:
        """Where a town stands in the scene."""
        ...

    def shows_town(self, town: Town, lod: float) -> bool:
        """Whether a town is drawn at this level of detail."""
        ...


# ---- the ground: static layers --------------------------------------------------------------


class GroundLayer(QGraphicsItem):
    """A cached layer of the ground: pieces (sea and land, rivers, a class of roads …) drawn
    in scene units in the order of their depth, each only from its level of detail up
    (``min_lod`` pixels per mile). One item for several pieces: one cached picture to copy
    at each repaint."""

    def __init__(self, rect: QRectF, z: float = Z_GROUND):
        super().__init__()
        self._rect = rect
        self.pieces: list[tuple[float, float, Callable[[QPainter, float], None]]] = []
        # drawn without smoothing while a zoom gesture lasts: twice as fast, each wheel step
        # drawing the layer afresh at its scale; smooth again once it ends
        self.rough = False
        self.setZValue(z)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def add(self, draw: Callable[[QPainter, float], None], min_lod: float, depth: float) -> None:
        """Add a piece at its depth (lower drawn first); the layer is drawn with it at its next
        ``update`` (the scene's, once all the ground is built: each piece drawn as it came
        would paint the whole layer again, one piece more each time)."""
        self.pieces.append((depth, min_lod, draw))
        self.pieces.sort(key=lambda piece: piece[0])

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The ground the layer covers."""
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """Draw the pieces the scale shows."""
        lod = lod_of(painter)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, not self.rough)
        for _, min_lod, draw in self.pieces:
            if lod >= min_lod:
                draw(painter, lod)


class ScreenItem(QGraphicsItem):
    """An item drawn in screen pixels at a point of the map: its size never changes with zoom."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self._rect = QRectF()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The pixels it covers round its point."""
        return self._rect


NAME_MARGIN = 3.0  # pixels round a name's letters for its halo


class NameItem:
    """A name on the map (a town's, a river's, a theatre's) with its halo: a point of the
    scene, an offset in pixels from it where the label placer put it, and a turn (a river's
    name follows its reach). The names layer draws all of them; the name itself is no item,
    so the scene holds one item for hundreds of names. Its letters' outlines (and the halo's,
    a large path) are made only to draw it — into its picture once, or onto a printed page —
    and not kept: most names of a map are never shown at once."""

    def __init__(self, text: str, font: QFont, ink: QColor, halo: QColor, unit: float):
        self.text = text
        self.ink = ink
        self.halo_colour = halo
        self.font = QFont(font)
        self._halo_width = 3.2 * unit
        metrics = QFontMetricsF(font)
        self.size = QPointF(metrics.horizontalAdvance(text), metrics.ascent() + metrics.descent())
        self._offset = QPointF()
        self._pos = QPointF()
        self._rotation = 0.0
        self._visible = False
        self._pixmap: QPixmap | None = None
        # a great river's name shows on the whole map; a great place's (a city's, a fortress')
        # is named first and flags stand clear of it where they can
        self.great = False
        # a great city's name (see GREAT_CITIES): placed before any other and never covered
        self.keep = False

    def isVisible(self) -> bool:  # noqa: N802 (named as a graphics item's)
        """Whether the placer found it room."""
        return self._visible

    def setVisible(self, shown: bool) -> None:  # noqa: N802
        """Show or hide it (the names layer repaints after a placement)."""
        self._visible = shown

    def pos(self) -> QPointF:
        """Its point in the scene."""
        return self._pos

    def setPos(self, at: QPointF) -> None:  # noqa: N802
        """Put its point."""
        self._pos = QPointF(at)

    def setRotation(self, degrees: float) -> None:  # noqa: N802
        """Turn it, clockwise on the screen, round its point."""
        self._rotation = degrees

    def offset(self) -> QPointF:
        """Where the name's top-left is, in pixels from its point."""
        return QPointF(self._offset)

    def set_offset(self, offset: QPointF) -> None:
        """Put the name's top-left this many pixels from its point."""
        self._offset = QPointF(offset)

    def text_rect(self) -> QRectF:
        """The letters' box in pixels round the point (without the halo, before any turn)."""
        return QRectF(self._offset.x(), self._offset.y(), self.size.x(), self.size.y())

    def paint_at(self, painter: QPainter, device: QPointF, ratio: float | None) -> None:
        """Draw it with its point at ``device`` (pixels), in ink over its halo: from its
        picture made once at the screen's pixel ratio, or (``ratio`` None, for a printed
        picture) as letters."""
        painter.resetTransform()
        painter.translate(device)
        if self._rotation:
            painter.rotate(self._rotation)
        painter.translate(self._offset)
        if ratio is None:
            self._draw_letters(painter)
            return
        self.prepare(ratio)
        assert self._pixmap is not None
        painter.drawPixmap(QPointF(-NAME_MARGIN, -NAME_MARGIN), self._pixmap)

    def prepare(self, ratio: float) -> bool:
        """Make its picture for a screen of this pixel ratio, if not made yet; whether it was
        made now."""
        if self._pixmap is not None and self._pixmap.devicePixelRatio() == ratio:
            return False
        self._pixmap = self._picture(ratio)
        return True

    def _picture(self, ratio: float) -> QPixmap:
        w = self.size.x() + 2 * NAME_MARGIN
        h = self.size.y() + 2 * NAME_MARGIN
        pixmap = QPixmap(math.ceil(w * ratio), math.ceil(h * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        p.translate(NAME_MARGIN, NAME_MARGIN)
        draw_haloed_text(p, self.text, self.font, self.ink, self.halo_colour, self._halo_width)
        p.end()
        return pixmap

    def _draw_letters(self, painter: QPainter) -> None:
        """The name in ink over its halo, its top-left at the painter's origin: as outlines,
        but in an SVG file as words (outlines there made a day's map some 9 MB)."""
        engine = painter.paintEngine()
        if engine is not None and engine.type() == QPaintEngine.Type.SVG:
            draw_haloed_text(painter, self.text, self.font, self.ink, self.halo_colour,
                             self._halo_width, own_picture=False)
            return
        letters, halo = text_path(self.text, self.font, self._halo_width)
        painter.fillPath(halo, self.halo_colour)
        painter.fillPath(letters, self.ink)


class NamesLayer(QGraphicsItem):
    """Every name shown, drawn at its size on screen wherever the zoom, in one cached item."""

    def __init__(self, rect: QRectF, z: float):
        super().__init__()
        self._rect = rect
        self.names: list[NameItem] = []
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The whole ground."""
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """The names whose point lies in (or near) the part exposed."""
        transform = painter.worldTransform()
        px = 1.0 / lod_of(painter)
        exposed = option.exposedRect.adjusted(-300 * px, -60 * px, 300 * px, 60 * px)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        # on screen each name is copied from its picture; printed, it is drawn as letters
        ratio = widget.devicePixelRatioF() if widget is not None else None
        for name in self.names:
            if name.isVisible() and exposed.contains(name.pos()):
                painter.save()
                name.paint_at(painter, transform.map(name.pos()), ratio)
                painter.restore()


# ---- commands, battles, control --------------------------------------------------------------


# The badges a marker may carry, with their colours; "-12" style badges are casualties.
BADGE_COLOUR = {
    "resting": QColor("#6d6d6d"), "retreating": QColor("#d0701a"),
    "in battle": QColor("#8c1010"), "cut off": QColor("#111111"),
    "out of supply": OUT_OF_SUPPLY,
}
CASUALTY_COLOUR = QColor("#5a3a8a")


def badge_colour(badge: str) -> QColor:
    """A badge's colour: its state's (``resting``, or an army group's ``2 resting``), else a
    casualty badge's."""
    count, _, state = badge.partition(" ")
    if count.isdigit() and state in BADGE_COLOUR:
        return BADGE_COLOUR[state]
    if supply_days((badge,)):
        return SUPPLY_INK
    return BADGE_COLOUR.get(badge, CASUALTY_COLOUR)


class CommandMarker(ScreenItem):
    """A command on the map: a dot at its true place and its flag just beside it, stacked with
    the other commands at the same place."""

    GAP = 7.0

    def __init__(self, spec: MarkerSpec, unit: float):
        super().__init__()
        self.unit = unit
        self.slot = 0
        self.corner = (1, -1)
        self.shift = QPointF()  # pixels from its dot to the foot of its stack
        self.selected = False
        self.setZValue(Z_MARKERS)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.font = QFont("DejaVu Sans", 1)
        self.font.setPointSizeF(8.5 * unit)
        self.font.setBold(True)
        self.small = QFont("DejaVu Sans", 1)
        self.small.setPointSizeF(7.0 * unit)
        self.small.setBold(True)
        self.spec = spec
        self.set_spec(spec)

    @property
    def row_height(self) -> float:
        """The height of one flag in the stack."""
        return self._row_height

    def set_spec(self, spec: MarkerSpec) -> None:
        """Show another state of the command (its place is set by the scene)."""
        self.spec = spec
        self.setToolTip(spec.tooltip or spec.label)
        # the flag's size, measured once for its words (the names' placement asks for its box
        # at every corner it tries)
        text, badges = self._widths()
        pennant = 7 * self.unit if spec.hq else 0.0
        self._flag_width = 6 * self.unit + pennant + text + sum(b + 2 * self.unit
                                                                 for b in badges)
        self._row_height = QFontMetricsF(self.font).height() + 3 * self.unit
        self._relayout()

    def set_slot(self, slot: int) -> None:
        """Its row in the stack at its place (0 nearest the dot)."""
        if slot != self.slot:
            self.slot = slot
            self._relayout()

    def set_selected(self, selected: bool) -> None:
        """Ring the flag when it is the command selected."""
        if selected != self.selected:
            self.selected = selected
            self.update()

    def _widths(self) -> tuple[float, list[float]]:
        metrics = QFontMetricsF(self.font)
        small = QFontMetricsF(self.small)
        text = metrics.horizontalAdvance(self.spec.label)
        badges = [small.horizontalAdvance(b) + 6 * self.unit for b in self.spec.badges]
        return text, badges

    def flag_rect(self) -> QRectF:
        """The flag's box in pixels round the command's point."""
        return self.flag_rect_at(self.slot, self.corner, self.shift)

    def flag_rect_at(self, slot: int, corner: tuple[int, int], shift: QPointF) -> QRectF:
        """The flag's box in pixels round the command's point were it in row ``slot`` of a
        stack at ``corner`` of its foot, ``shift`` pixels from its dot (nothing is moved)."""
        w, h = self._flag_width, self._row_height
        gap = self.GAP * self.unit
        sx, sy = corner
        x = gap if sx > 0 else -gap - w
        y = -gap - (slot + 1) * h if sy < 0 else gap + slot * h
        return QRectF(x + shift.x(), y + shift.y(), w, h)

    def set_stack(self, slot: int, shift: QPointF) -> None:
        """Its row in a stack whose foot is ``shift`` pixels from its own dot (a stack shared
        with commands a few pixels away at this scale)."""
        if slot != self.slot or shift != self.shift:
            self.slot, self.shift = slot, shift
            self._relayout()

    def set_corner(self, corner: tuple[int, int]) -> None:
        """Which side of its dot the flag stands: (1, -1) up and right, (-1, 1) down and left."""
        if corner != self.corner:
            self.corner = corner
            self._relayout()

    def _relayout(self) -> None:
        self.prepareGeometryChange()
        flag = self.flag_rect()
        dot = 4 * self.unit
        self._rect = flag.united(QRectF(-dot, -dot, 2 * dot, 2 * dot)).adjusted(-3, -3, 3, 3)
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """The dot, a short tick to the flag, and the flag with its badges."""
        u = self.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        side = SIDE_COLOUR[self.spec.side]
        colour = QColor(self.spec.colour)
        flag = self.flag_rect()
        if self.slot == 0 or not self.shift.isNull():
            painter.setPen(QPen(side, 1.4 * u))
            corner = QPointF(flag.left() if self.corner[0] > 0 else flag.right(),
                             flag.bottom() if self.corner[1] < 0 else flag.top())
            if self.slot == 0 and not self.shift.isNull():
                # a stack pushed out from its dot: a leader, pale-edged, over the roads
                painter.setPen(QPen(QColor("#ffffff"), 3.4 * u))
                painter.drawLine(QPointF(0, 0), corner)
                painter.setPen(QPen(side, 1.8 * u))
                painter.drawLine(QPointF(0, 0), corner)
            elif self.slot == 0 or self.shift.isNull():
                painter.drawLine(QPointF(0, 0), corner)
            painter.setPen(QPen(QColor("#ffffff"), 1.2 * u))
            painter.setBrush(QBrush(side))
            painter.drawEllipse(QPointF(0, 0), 4.0 * u, 4.0 * u)
        painter.setPen(QPen(QColor("#ffffff") if not self.selected else QColor("#ffd400"),
                            (1.0 if not self.selected else 2.6) * u))
        painter.setBrush(QBrush(colour))
        painter.drawRect(flag)
        x = flag.left() + 3 * u
        if self.spec.hq:
            # The HQ's pennant: a small swallow-tail at the flag's head.
            top, mid = flag.top() + 3 * u, flag.center().y()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor("#ffffff")))
            painter.drawPolygon(QPolygonF([QPointF(x, top), QPointF(x + 6 * u, top),
                                           QPointF(x + 3.5 * u, mid),
                                           QPointF(x + 6 * u, flag.bottom() - 3 * u),
                                           QPointF(x, flag.bottom() - 3 * u)]))
            x += 7 * u
        painter.setFont(self.font)
        painter.setPen(_text_on(colour))
        text, badges = self._widths()
        painter.drawText(QRectF(x, flag.top(), text + 1, flag.height()),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                         self.spec.label)
        x += text + 3 * u
        painter.setFont(self.small)
        for badge, w in zip(self.spec.badges, badges, strict=True):
            fill = badge_colour(badge)
            cell = QRectF(x, flag.top() + 2 * u, w, flag.height() - 4 * u)
            painter.setPen(QPen(QColor("#ffffff"), 0.8 * u))
            painter.setBrush(QBrush(fill))
            painter.drawRoundedRect(cell, 3 * u, 3 * u)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, badge)
            x += w + 2 * u


def _text_on(colour: QColor) -> QColor:
    """White on a dark flag, ink on a pale one."""
    return INK if colour.lightnessF() > 0.62 else QColor("#ffffff")


class BattleMarker(ScreenItem):
    """A scheduled battle: a burst at its town and its date, below-left of the town sign."""

    def __init__(self, spec: BattleSpec, unit: float):
        super().__init__()
        self.spec = spec
        self.unit = unit
        self.font = QFont("DejaVu Sans", 1)
        self.font.setPointSizeF(8 * unit)
        self.font.setBold(True)
        self.setZValue(Z_BATTLES)
        self.setToolTip(spec.title)
        self.text = f"Battle {spec.when}"
        metrics = QFontMetricsF(self.font)
        w = metrics.horizontalAdvance(self.text) + 8 * unit
        h = metrics.height() + 2 * unit
        self.box = QRectF(-w - 11 * unit, 11 * unit, w, h)
        r = 17 * unit
        self.burst = QRectF(-r, -r, 2 * r, 2 * r)
        self._rect = self.burst.united(self.box).adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """A red star of eight points round the town, and the battle's date."""
        u = self.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pts = []
        for i in range(16):
            ang = i * math.pi / 8
            rad = (17 if i % 2 == 0 else 11.5) * u
            pts.append(QPointF(rad * math.cos(ang), rad * math.sin(ang)))
        burst = QPainterPath()
        burst.addPolygon(QPolygonF(pts))
        burst.closeSubpath()
        hole = QPainterPath()
        hole.addEllipse(QPointF(0, 0), 9 * u, 9 * u)
        # open in the middle, so the town's sign, holder and objective show through
        painter.setPen(QPen(QColor("#ffffff"), 1.0 * u))
        painter.setBrush(QBrush(QColor(200, 30, 20, 190)))
        painter.drawPath(burst.subtracted(hole))
        painter.setPen(QPen(QColor("#ffffff"), 0.8 * u))
        painter.setBrush(QBrush(QColor("#8c1010")))
        painter.drawRoundedRect(self.box, 3 * u, 3 * u)
        painter.setFont(self.font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(self.box, Qt.AlignmentFlag.AlignCenter, self.text)


def _ringed(scene: TownsShown, painter: QPainter, option: QStyleOptionGraphicsItem,
            names: Iterable[str]) -> Iterator[tuple[str, QPointF, float, float]]:
    """Each of these towns the scale shows near the part exposed, in order of name, with its
    point, the radius of a ring round its sign (pixels) and a pixel in scene units; the
    painter set to draw smooth."""
    lod = lod_of(painter)
    px = 1.0 / lod
    u = scene.unit
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    exposed = option.exposedRect.adjusted(-30 * px, -30 * px, 30 * px, 30 * px)
    for name in sorted(names):
        town = scene.towns.get(name)
        if town is None or not scene.shows_town(town, lod):
            continue
        at = scene.town_point(name)
        if exposed.contains(at):
            yield name, at, town_radius(town.kind, town.fortress, u) + 2.6 * u, px


class ObjectiveStars(QGraphicsItem):
    """The objectives: a gold star behind each objective town's sign, its points reaching past
    the holder's ring. Cached apart from the rings, which change as towns change hands while
    the objectives stay as they are: a day that changes who holds a town draws no star."""

    def __init__(self, scene: TownsShown, z: float):
        super().__init__()
        self._scene = scene
        self.objectives: dict[str, Side] = {}  # objective town -> the side that seeks it
        self.setZValue(z)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The whole ground."""
        return self._scene.ground_rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """A star round each objective town the scale shows."""
        u = self._scene.unit
        for _, at, r, px in _ringed(self._scene, painter, option, self.objectives):
            star = []
            big, small = (r + 7 * u) * px, (r + 1 * u) * px
            for i in range(10):
                ang = -math.pi / 2 + i * math.pi / 5
                rad = big if i % 2 == 0 else small
                star.append(QPointF(at.x() + rad * math.cos(ang), at.y() + rad * math.sin(ang)))
            painter.setPen(QPen(OBJECTIVE.darker(160), 1.0 * u * px))
            fill = QColor(OBJECTIVE)
            fill.setAlpha(170)
            painter.setBrush(QBrush(fill))
            painter.drawPolygon(QPolygonF(star))


class ControlLayer(QGraphicsItem):
    """Who holds each town (a ring in the holder's colour) and the objectives (a gold star,
    behind every ring: :class:`ObjectiveStars`, an item of its own, which the scene adds
    beside this one)."""

    def __init__(self, scene: TownsShown):
        super().__init__()
        self._scene = scene
        self._rect = scene.ground_rect
        self.held: dict[str, Side] = {}
        # under the town signs, so a star's gold shows round the sign and never hides it
        self.setZValue(Z_TOWNS - 0.5)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.stars = ObjectiveStars(scene, Z_TOWNS - 0.6)

    @property
    def objectives(self) -> dict[str, Side]:
        """The objective towns, each with the side that seeks it."""
        return self.stars.objectives

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The whole ground."""
        return self._rect

    def set_state(self, held: dict[str, Side], objectives: dict[str, Side]) -> None:
        """Show these holders and objectives; repaint only the rings or the stars that
        differ."""
        if held != self.held:
            self.held = dict(held)
            self.update()
        if objectives != self.stars.objectives:
            self.stars.objectives = dict(objectives)
            self.stars.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """Rings round the towns held that the scale shows."""
        u = self._scene.unit
        for name, at, r, px in _ringed(self._scene, painter, option, self.held):
            painter.setPen(QPen(SIDE_COLOUR[self.held[name]], 2.2 * u * px))
            painter.setBrush(QBrush(QColor(255, 255, 255, 200)))
            painter.drawEllipse(at, r * px, r * px)


class SupplyLayer(QGraphicsItem):
    """Depots and columns of supplies: a small store (a house with a roof, doubled for the main
    depot) or a wagon beside the town, in its side's colour, with its days inside."""

    def __init__(self, scene: TownsShown):
        super().__init__()
        self._scene = scene
        self._rect = scene.ground_rect
        self.marks: tuple[SupplySpec, ...] = ()
        self.font = QFont("DejaVu Sans", 1)
        self.font.setPointSizeF(7.0 * scene.unit)
        self.font.setBold(True)
        self.setZValue(Z_SUPPLY)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The whole ground."""
        return self._rect

    def set_marks(self, marks: Sequence[SupplySpec]) -> None:
        """Show these depots and columns (none when supply is off); repaint only if changed."""
        marks = tuple(marks)
        if marks != self.marks:
            self.marks = marks
            self.update()

    def sign_rect(self, mark: SupplySpec, lod: float) -> QRectF:
        """The sign's box in scene units: a store below and left of the town, a column's
        wagon below and right of it (both at once where an army has both there)."""
        u, px = self._scene.unit, 1.0 / lod
        at = self._scene.town_point(mark.town)
        w, h = 17 * u * px, 15 * u * px
        x = at.x() + (4 * u * px if mark.column else -4 * u * px - w)
        return QRectF(x, at.y() + 4 * u * px, w, h)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """Each depot's store and each column's wagon at the towns the scale shows."""
        lod = lod_of(painter)
        px = 1.0 / lod
        u = self._scene.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        exposed = option.exposedRect.adjusted(-40 * px, -40 * px, 40 * px, 40 * px)
        for mark in self.marks:
            town = self._scene.towns.get(mark.town)
            if town is None or not self._scene.shows_town(town, lod):
                continue
            box = self.sign_rect(mark, lod)
            if not exposed.intersects(box):
                continue
            side = SIDE_COLOUR[mark.side]
            painter.setPen(QPen(side, (1.6 if mark.main else 1.0) * u * px))
            painter.setBrush(QBrush(QColor("#fffdf5")))
            if mark.column:
                body = box.adjusted(0, 0, 0, -3 * u * px)
                painter.drawRoundedRect(body, 2 * u * px, 2 * u * px)
                painter.setBrush(QBrush(side))
                for x in (body.left() + 3.5 * u * px, body.right() - 3.5 * u * px):
                    painter.drawEllipse(QPointF(x, box.bottom() - 1.5 * u * px),
                                        1.8 * u * px, 1.8 * u * px)
                text_box = body
            else:
                roof = 4 * u * px
                painter.drawPolygon(QPolygonF([
                    QPointF(box.left(), box.top() + roof), QPointF(box.center().x(), box.top()),
                    QPointF(box.right(), box.top() + roof), QPointF(box.right(), box.bottom()),
                    QPointF(box.left(), box.bottom())]))
                if mark.main:
                    painter.drawLine(QPointF(box.left(), box.top() + roof),
                                     QPointF(box.right(), box.top() + roof))
                text_box = box.adjusted(0, roof, 0, 0)
            painter.setPen(OUT_OF_SUPPLY if mark.days == 0 else SUPPLY_INK)
            painter.save()
            painter.translate(text_box.center())
            painter.scale(px, px)
            painter.setFont(self.font)
            half = QRectF(-text_box.width() / (2 * px), -text_box.height() / (2 * px),
                          text_box.width() / px, text_box.height() / px)
            painter.drawText(half, Qt.AlignmentFlag.AlignCenter, str(mark.days))
            painter.restore()


class OrderArrow(QGraphicsItem):
    """Today's order of one command: a dashed line along its route with an arrowhead."""

    def __init__(self, points: Sequence[QPointF], side: Side, unit: float):
        super().__init__()
        self.side = side
        self.unit = unit
        self.setZValue(Z_ORDERS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.points: tuple[QPointF, ...] = ()
        self._rect = QRectF()
        self.set_points(points)

    def set_points(self, points: Sequence[QPointF]) -> None:
        """Draw along these scene points (the command's place, then the towns to pass)."""
        pts = tuple(points)
        if pts == self.points:
            return
        self.prepareGeometryChange()
        self.points = pts
        xs = [p.x() for p in pts] or [0.0]
        ys = [p.y() for p in pts] or [0.0]
        # a margin for the arrowhead, which is drawn in pixels
        self._rect = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(
            -15, -15, 15, 15)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The route's box."""
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """The dashed route and its head."""
        if len(self.points) < 2:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor(SIDE_COLOUR[self.side])
        line = QPolygonF(list(self.points))
        # a pale casing under the dashes, so an order reads over a road of any colour
        casing = QPen(QColor(255, 255, 255, 220), 5.5 * self.unit)
        casing.setCosmetic(True)
        casing.setCapStyle(Qt.PenCapStyle.RoundCap)
        casing.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(casing)
        painter.drawPolyline(line)
        pen = QPen(colour, 2.6 * self.unit)
        pen.setCosmetic(True)
        pen.setDashPattern([3.0, 1.5])
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        painter.drawPolyline(line)
        _arrowhead(painter, self.points[-2], self.points[-1], colour, 11 * self.unit)


def _arrowhead(painter: QPainter, a: QPointF, b: QPointF, colour: QColor, size_px: float) -> None:
    px = 1.0 / lod_of(painter)
    dx, dy = b.x() - a.x(), b.y() - a.y()
    length = math.hypot(dx, dy)
    if length == 0:
        return
    ux, uy = dx / length, dy / length
    s = size_px * px
    tip = b
    left = QPointF(b.x() - ux * s - uy * s * 0.5, b.y() - uy * s + ux * s * 0.5)
    right = QPointF(b.x() - ux * s + uy * s * 0.5, b.y() - uy * s - ux * s * 0.5)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(colour))
    painter.drawPolygon(QPolygonF([tip, left, right]))


class PreviewPath(QGraphicsItem):
    """The road a proposed order would march, drawn broad under the pieces."""

    def __init__(self, legs: Sequence[tuple[QPointF, QPointF]], refused: bool, unit: float):
        super().__init__()
        self.legs = tuple(legs)
        self.refused = refused
        self.unit = unit
        self.setZValue(Z_PREVIEW)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        pts = [p for leg in self.legs for p in leg] or [QPointF()]
        xs, ys = [p.x() for p in pts], [p.y() for p in pts]
        self._rect = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(
            -15, -15, 15, 15)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        """The route's box."""
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """Each leg broad and translucent, an arrowhead on the last."""
        if not self.legs:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor(REFUSED) if self.refused else QColor(PREVIEW)
        colour.setAlpha(150)
        pen = QPen(colour, 7 * self.unit)
        pen.setCosmetic(True)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        for a, b in self.legs:
            painter.drawLine(a, b)
        a, b = self.legs[-1]
        _arrowhead(painter, a, b, colour.darker(140), 14 * self.unit)


class NoteItem(ScreenItem):
    """A few lines of text in a box beside a town: a route's figures, or why it is refused."""

    def __init__(self, lines: Sequence[str], refused: bool, unit: float):
        super().__init__()
        # a long reason is folded so the note stays beside its town
        self.lines = tuple(part for line in lines
                           for part in (textwrap.wrap(line, NOTE_WIDTH) or [""]))
        self.refused = refused
        self.unit = unit
        self.font = QFont("DejaVu Sans", 1)
        self.font.setPointSizeF(9 * unit)
        self.bold = QFont(self.font)
        self.bold.setBold(True)
        metrics = QFontMetricsF(self.bold)
        self.line_height = metrics.height()
        w = max(metrics.horizontalAdvance(t) for t in self.lines) + 12 * unit
        h = self.line_height * len(self.lines) + 8 * unit
        # above and to the left of the town: a menu opened on the town drops down to its right
        self.box = QRectF(-w - 12 * unit, -h - 10 * unit, w, h)
        self._rect = self.box.adjusted(-2, -2, 2, 2)
        self.setZValue(Z_NOTE)

    @property
    def text(self) -> str:
        """The note's lines joined."""
        return "\n".join(self.lines)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """A pale box with a coloured edge, the first line bold."""
        u = self.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        edge = REFUSED if self.refused else QColor("#a06a10")
        painter.setPen(QPen(edge, 1.6 * u))
        painter.setBrush(QBrush(QColor(255, 252, 240, 235)))
        painter.drawRoundedRect(self.box, 4 * u, 4 * u)
        painter.setPen(REFUSED if self.refused else INK)
        y = self.box.top() + 4 * u
        for i, line in enumerate(self.lines):
            painter.setFont(self.bold if i == 0 else self.font)
            painter.drawText(QRectF(self.box.left() + 6 * u, y, self.box.width(),
                                    self.line_height), Qt.AlignmentFlag.AlignVCenter, line)
            y += self.line_height
