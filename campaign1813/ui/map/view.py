"""The campaign at a glance: the map with every command on it, and the commands' table.

The view takes the open campaign in its constructor and follows its two signals: a file opened
fills everything; an :class:`~campaign1813.ui.open_campaign.Update` refreshes only the rows of
the commands it names and only their items on the map (their flags and order arrows), the
battles and who holds the towns only when those changed, the heading only when the date or the
day's march changed. The map's ground is built once per scenario, a piece at a time after the
window shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from time import perf_counter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QPointF, QRectF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPixmapCache,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import queries
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.state import Kind, Status
from campaign1813.campaign.queries import CampaignStatus, CommandView
from campaign1813.campaign.scenario.types import Scenario, Side
from campaign1813.maps.types import Theatre
from campaign1813.ui.map.palette import NATION_COLOUR, OFF_MAP, SIDE_COLOUR
from campaign1813.ui.map.specs import (
    BattleSpec,
    MarkerSpec,
    SupplySpec,
    supply_badge,
    supply_note,
)
from campaign1813.ui.open_campaign import OpenCampaign, Update
from campaign1813.ui.supply_orders import SupplyRequest, supply_kept

if TYPE_CHECKING:  # the map's scene and items are loaded with the first map (see defer_map)
    from campaign1813.ui.map.scene import MapScene

WHOLE_MAP = "The whole map"
STATE = 2  # the commands' table's state column
STATE_WIDTH, STATE_MAX_WIDTH = 90, 130  # "surrendered"; "retreating, 12 cas."
WINDOW_UNIT = 0.85  # the window's lettering and signs, against the printed map's
THEATRE_MARGIN_MILES = 60.0  # how far past a theatre's towns its map reaches
# how far past its towns Fit shows a theatre, or the whole map, before the room its names,
# signs and flags take (measured in pixels, see MapView.fit)
FIT_MARGIN_MILES = 5.0
ORDER_VERBS = ("Move", "Attack", "Hold")
# the ground is built in pieces between paints: steps are taken while the piece is shorter than
# this, so with the longest step (about 35 ms) no piece holds the window for 50 ms
BUILD_BUDGET_MS = 12
# the names are placed in pieces too, each turn of the loop placing names for about this long
LABEL_BUDGET_MS = 15
# a piece of the ground or of the names is taken up again this long after the last: a timer
# of 0 ms would run in the same pass of Qt's loop as the paint and the other timers then due,
# which together held the window over 50 ms; 1 ms lets the loop turn between them
NEXT_TURN_MS = 1
BUILD_UNPAINTED_MS = 40
# names are placed again this long after the flags moved or the view was fitted, and after the
# last step of a zoom: a gesture of several wheel steps is drawn from the cached layers, its
# names placed once it ends
LABELS_AFTER_MS, LABELS_AFTER_ZOOM_MS = 30, 180
# Fit leaves this many pixels between the outermost thing it shows (a town's name or sign, a
# flag) and the map's edge: each time the names of a fitted map are placed, how far they reach
# is measured and, if past that, the map is scaled again (a few times at most)
FIT_MARGIN_PX, FIT_TRIES = 12.0, 6
FIT_PADS = (FIT_MARGIN_PX,) * 4
FRAME_INSET_PX = 2.0  # the names of a fitted map stay this far inside its edge
# A route preview: (document, command, verb, objective) -> queries.RoutePreview
Preview = Callable[[Any, str, str, str], queries.RoutePreview]


def state_text(c: CommandView) -> str:
    """The state in one word, and the casualties it carries in all: ``ready, 12 cas.``."""
    total = sum(n for _, n in c.casualties)
    return f"{c.status.value}, {total} cas." if total else c.status.value


def state_tooltip(c: CommandView) -> str:
    """Why the state binds the command today, and its casualties brigade by brigade."""
    text = c.reason or c.status.value
    if c.casualties_text:
        text += f"\nCasualties carried to its next battle: {c.casualties_text}."
    return text


def marker_spec(c: CommandView, label: str, colour: str, cinc: str = "") -> MarkerSpec:
    """A command's flag: where it truly stands, its short name, its state badges, its army
    group and that group's CinC (``cinc``, as his HQ's flag names him)."""
    badges = [] if c.status is Status.READY else [c.status.value]
    total = sum(n for _, n in c.casualties)
    if total:
        badges.append(f"−{total}")
    tooltip = f"{c.name}: {c.where}\n{state_tooltip(c)}\n{c.orders_text}"
    if c.supply_days is not None and c.kind is Kind.CORPS:
        badges.append(supply_badge(c.supply_days))
        tooltip += "\n" + supply_note(c.supply_days)
    return MarkerSpec(c.name, c.position.a, c.position.b, c.position.miles, label, c.side,
                      colour, c.kind is Kind.HQ, tuple(badges), tooltip, c.army, cinc)


def flag_names(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """Each command's short name and flag colour: ``5`` for 5 Corps, the CinC's surname for an
    HQ; its nation's colour (an HQ flies that of its army's first corps)."""
    out = {}
    for army in scenario.armies:
        first = army.corps[0].nationality if army.corps else ""
        colour = NATION_COLOUR.get(first, SIDE_COLOUR[army.side]).name()
        out[f"{army.name} HQ"] = (army.cinc.name.split()[-1] if army.cinc.name else "HQ",
                                  colour)
        for corps in army.corps:
            out[corps.name] = (corps.name.removesuffix(" Corps"),
                               NATION_COLOUR.get(corps.nationality,
                                                 SIDE_COLOUR[army.side]).name())
    return out


def preview_lines(preview: queries.RoutePreview) -> list[str]:
    """A route preview in words for the map: the order, its miles and days, its arrival; or
    why it would be refused."""
    title = f"{preview.command} – {preview.verb} {preview.objective}"
    if preview.refusal:
        return [f"{title}: refused", preview.refusal]
    if not preview.arrival:
        return [title, "no march: it stands there"]
    days = f"{preview.days} day" + ("" if preview.days == 1 else "s")
    lines = [title, f"{preview.miles:g} miles, {days} marching", f"arrives {preview.arrival}"]
    if preview.by_messenger:
        lines.append("the order goes by messenger")
    return lines


# The map's cached layers (``MapScene.cached_layers``: the ground, the towns, the holders'
# rings, the objectives' stars, the supply), each kept by Qt as a picture of the map shown,
# and the flags' small pictures
CACHED_LAYERS = 5
FLAGS_ROOM_KB = 2048


def room_for_layers(width: int, height: int, ratio: float) -> None:
    """Let Qt's picture cache (10 MB by default) hold every cached layer of a map this many
    pixels wide and high: where it cannot, a layer pushed out is drawn afresh at the next
    repaint (the whole ground, 12–20 ms, after every End Day). Never lowered."""
    needed = int(width * height * ratio * ratio * 4 * CACHED_LAYERS / 1024) + FLAGS_ROOM_KB
    if needed > QPixmapCache.cacheLimit():
        QPixmapCache.setCacheLimit(needed)


class MapView(QGraphicsView):
    """The map scene in a window: wheel to zoom, drag to pan, click a flag to pick its
    command (double-click an army group's flag to zoom in on it), right-click a town for
    orders. Its zoom and centre are kept for each theatre in
    the settings given."""

    command_clicked = Signal(str)
    battle_clicked = Signal(int)  # a battle's marker double-clicked
    town_menu_wanted = Signal(str, QPoint)
    ground_built = Signal()  # the scene's ground is complete (built in pieces after a paint)
    first_painted = Signal()

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setBackgroundBrush(OFF_MAP)
        self.map_scene: MapScene | None = None
        self.key = WHOLE_MAP
        # no scroll bars: the map is dragged, and its size does not change as they come and go
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # what to fit again on a resize, until the umpire zooms, and the room round it in
        # pixels (west, north, east, south) that its names and flags took at the last fit
        self._fit_rect: QRectF | None = None
        self._fit_pads: tuple[float, ...] = FIT_PADS
        self._fitting = False
        self._fit_tries = 0  # how many more times the fitted map may be scaled again
        self._painted = self._build_pending = False
        self._build_timer = QTimer(self)
        self._build_timer.setSingleShot(True)
        self._build_timer.timeout.connect(self._build_some)
        self._label_timer = QTimer(self)
        self._label_timer.setSingleShot(True)
        self._label_timer.setInterval(LABELS_AFTER_MS)
        self._label_timer.timeout.connect(self._on_labels_due)
        self._placing: Iterator[None] | None = None  # a placement of the names under way
        self._held = False  # the scene's changes not painted until the names are placed
        self._place_timer = QTimer(self)
        self._place_timer.setSingleShot(True)
        self._place_timer.timeout.connect(self._place_some)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(400)
        self._save_timer.timeout.connect(self._on_save_due)
        self.horizontalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)

    @property
    def painted(self) -> bool:
        """Whether the view has been painted once."""
        return self._painted

    # ---- the scene ----
    def set_map_scene(self, scene: MapScene | None) -> None:
        """Show another scene; its ground is built in pieces once the event loop runs."""
        self._stop_placing()
        self._release()
        self.map_scene = scene
        self.setSceneRect(QRectF())  # the new scene's own, until a fit reaches past it
        self.setScene(scene)
        if scene is not None and not scene.built:
            # the ground starts once the scene (its flags) has been painted, in a turn of the
            # loop of its own; a view not painted meanwhile (hidden) starts it a little later
            self._build_pending = True
            if self._painted:
                self._build_timer.start(BUILD_UNPAINTED_MS)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()
        if self._build_pending:
            self._build_pending = False
            self._build_timer.start(NEXT_TURN_MS)

    def _build_some(self) -> None:
        self._build_pending = False
        scene = self.map_scene
        if scene is None or scene.built:
            return
        end = perf_counter() + BUILD_BUDGET_MS / 1000
        while perf_counter() < end:
            if not scene.build_step():
                self.labels_later()  # in a step of its own: no step holds the window long
                self.ground_built.emit()
                return
        self._build_timer.start(NEXT_TURN_MS)

    def finish_building(self) -> None:
        """Build the rest of the ground now and place the names (for pictures and tests)."""
        if self.map_scene is not None:
            self._build_timer.stop()
            self.map_scene.build()
            self.place_labels()

    def scale_now(self) -> float:
        """Pixels per mile."""
        return self.transform().m11()

    def frame(self) -> QRectF:
        """The part of the scene the window shows: no name or flag is placed across its
        edge (a pan places them again)."""
        return self.mapToScene(self.viewport().rect().adjusted(2, 2, -2, -2)).boundingRect()

    def names_frame(self) -> QRectF:
        """Where names and flags are placed: inside the fitted frame while the map is as Fit
        left it, else inside the part of the scene shown."""
        fitted = self.fitted_frame()
        return self.frame() if fitted is None else fitted

    def place_labels(self) -> None:
        """Place the names for the scale and part shown, now and whole (a fitted map scaled
        again until they lie inside it)."""
        self._label_timer.stop()
        self._stop_placing()
        if self.map_scene is not None:
            self.map_scene.set_rough(False)
            self.map_scene.place_labels(self.scale_now(), self.names_frame())
            while self._refit():
                self.map_scene.place_labels(self.scale_now(), self.names_frame())
        self._release()

    def _on_labels_due(self) -> None:
        """Place the names in pieces, a turn of the event loop each, from the next turn (and
        a zoom gesture ended: the ground smooth again)."""
        self._stop_placing()
        scene = self.map_scene
        if scene is not None:
            scene.set_rough(False)
        frame = self.names_frame()
        if scene is not None and scene.labels_due(self.scale_now(), frame):
            self._placing = scene.labels_placing(self.scale_now(), frame,
                                                 ratio=self.viewport().devicePixelRatioF())
            self._hold()  # the flags and names half-placed are not painted
            self._place_timer.start(NEXT_TURN_MS)
        else:
            self._release()

    def _place_some(self) -> None:
        placing = self._placing
        if placing is None:
            return
        end = perf_counter() + LABEL_BUDGET_MS / 1000
        while perf_counter() < end:
            if next(placing, StopIteration) is StopIteration:
                self._placing = None
                if self._refit():  # placed again at the new scale, still held
                    self._label_timer.start(NEXT_TURN_MS)
                    return
                self._release()
                return
        self._place_timer.start(NEXT_TURN_MS)

    def _stop_placing(self) -> None:
        self._place_timer.stop()
        self._placing = None

    def _hold(self) -> None:
        """Paint nothing of the scene's changes until the names are placed for them."""
        if not self._held:
            self._held = True
            self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)

    def _release(self) -> None:
        """Paint the scene's changes again, and what was held back."""
        if self._held:
            self._held = False
            self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
            self.viewport().update()

    def labels_later(self, after_ms: int = LABELS_AFTER_MS, hold: bool = False) -> None:
        """Place the names again soon (flags moved, or the scale changed); a placement under
        way is left for the new one. ``hold``: the flags moved are painted with their names
        placed round them, in one paint, rather than once before and once after."""
        self._stop_placing()
        if hold:
            self._hold()
        else:
            self._release()
        self._label_timer.start(after_ms)

    def labels_pending(self) -> bool:
        """Whether names are waiting to be placed, or being placed."""
        return self._label_timer.isActive() or self._placing is not None

    # ---- zoom and pan, kept ----
    def show_area(self, key: str, rect: QRectF) -> None:
        """Show a theatre (``key``): as the umpire last left it, or fitted to ``rect``."""
        self.key = key
        if not self.restore_state(key):
            self.fit(rect)

    def fit(self, rect: QRectF) -> None:
        """Fit a scene rectangle in the window: it, and the names, signs and flags of what
        stands in it, all inside the map with a margin (the room they take is measured each
        time the names are placed, see ``_refit``)."""
        self._fit_rect = rect
        self._fit_pads = FIT_PADS
        self._fit_tries = FIT_TRIES
        self._scale_to(rect, self._fit_pads)
        self.labels_later()
        self._save_timer.start()

    def _refit(self) -> bool:
        """Names just placed on a fitted map: measure how far they, the towns' signs and the
        flags reach past the fitted rectangle, and if any lies nearer the map's edge than the
        margin, make that side's room as wide and scale again; whether it did."""
        rect, scene = self._fit_rect, self.map_scene
        if rect is None or scene is None or not scene.built or self._fit_tries <= 0:
            return False
        scale = self.scale_now()
        box = scene.shown_box(rect, scale)
        reach = (rect.left() * scale - box.left(), rect.top() * scale - box.top(),
                 box.right() - rect.right() * scale, box.bottom() - rect.bottom() * scale)
        need = tuple(r + FIT_MARGIN_PX for r in reach)
        pads = self._fit_pads
        if all(n <= p + 0.5 for n, p in zip(need, pads, strict=True)):
            self._fit_tries = 0  # it fits: the names are left where they are
            return False
        self._fit_tries -= 1
        self._fit_pads = tuple(max(n, p) for n, p in zip(need, pads, strict=True))
        self._scale_to(rect, self._fit_pads)
        return True

    def _scale_to(self, rect: QRectF, pads: tuple[float, ...]) -> None:
        """The largest scale at which ``rect`` and the room round it (west, north, east, south,
        in pixels) fit the map, the room's middle at the map's middle."""
        west, north, east, south = pads
        port = self.viewport().rect()
        wide = max(port.width() - west - east, 1.0)
        tall = max(port.height() - north - south, 1.0)
        scale = min(wide / max(rect.width(), 1e-6), tall / max(rect.height(), 1e-6))
        centre = rect.center() + QPointF((east - west) / 2, (south - north) / 2) / scale
        self._fitting = True  # the scrolling this makes is not the umpire's
        if self.map_scene is not None:
            # the view may reach past the drawn ground, so that the room falls where wanted
            shown = QRectF(0, 0, port.width() / scale, port.height() / scale)
            shown.moveCenter(centre)
            self.setSceneRect(self.map_scene.sceneRect().united(shown))
        self.setTransform(QTransform.fromScale(scale, scale))
        self.centerOn(centre)
        self._fitting = False

    def fitted_frame(self) -> QRectF | None:
        """While the map is as Fit left it, the part of the scene shown, less a few pixels:
        its names are placed inside it, none cut at the edge; None once the umpire zooms or
        drags the map."""
        if self._fit_rect is None:
            return None
        inset = FRAME_INSET_PX / self.scale_now()
        return self.mapToScene(self.viewport().rect()).boundingRect().adjusted(
            inset, inset, -inset, -inset)

    def zoom_by(self, factor: float) -> None:
        """Zoom in (factor above 1) or out, keeping the view between a whole-map look and a
        close look at a few villages."""
        now = self.scale_now()
        factor = min(max(factor, 0.05 / now), 60.0 / now)
        self._fit_rect = None
        if self.map_scene is not None:
            self.map_scene.set_rough(True)
        self.scale(factor, factor)
        self.labels_later(LABELS_AFTER_ZOOM_MS)
        self._save_timer.start()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        self.zoom_by(1.25 if event.angleDelta().y() > 0 else 0.8)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        room_for_layers(self.viewport().width(), self.viewport().height(),
                        self.devicePixelRatioF())
        if self._fit_rect is not None:  # with the room kept, measured again once placed
            self._fit_tries = FIT_TRIES
            self._scale_to(self._fit_rect, self._fit_pads)
            self.labels_later()

    def _on_scrolled(self) -> None:
        if self.map_scene is not None:
            self._save_timer.start()
            if self._fit_rect is not None and not self._fitting:
                self._fit_rect = None  # dragged: the names no longer kept to the fitted frame
            if not self._label_timer.isActive():  # a pan: the names at the edges again
                self.labels_later(LABELS_AFTER_ZOOM_MS, hold=self._held)

    def centre(self) -> QPointF:
        """The scene point at the middle of the window."""
        return self.mapToScene(self.viewport().rect().center())

    def _on_save_due(self) -> None:
        self.save_state()

    def save_state(self) -> None:
        """Keep the zoom and centre of the theatre shown in the settings."""
        if self.settings is None or self.map_scene is None:
            return
        c = self.centre()
        self.settings.setValue(f"zoom/{self.key}", f"{self.scale_now():.6f} {c.x():.3f} "
                                                  f"{c.y():.3f}")

    def restore_state(self, key: str) -> bool:
        """Show a theatre as kept in the settings; False if nothing is kept."""
        if self.settings is None:
            return False
        value = self.settings.value(f"zoom/{key}")
        try:
            scale, x, y = (float(v) for v in str(value).split())
        except ValueError:
            return False
        if not 0.01 < scale < 100:
            return False
        self._fit_rect = None
        self.resetTransform()
        self.scale(scale, scale)
        self.centerOn(QPointF(x, y))
        self.labels_later()
        return True

    # ---- working on the map ----
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton and self.map_scene is not None:
            name = self.map_scene.marker_at(self.mapToScene(event.position().toPoint()),
                                            self.viewportTransform())
            if name is not None:
                self.command_clicked.emit(name)
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton and self.map_scene is not None:
            at = self.mapToScene(event.position().toPoint())
            battle = self.map_scene.battle_at(at, self.viewportTransform())
            if battle is not None:
                self.battle_clicked.emit(battle)
                event.accept()
                return
            army = self.map_scene.group_at(at, self.viewportTransform())
            if army is not None:  # an army group drawn as one flag: zoom in on it to open it
                self.open_group(army)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    def open_group(self, army: str) -> None:
        """Zoom in twice as close on an army group's flag, centred on where it stands."""
        scene = self.map_scene
        if scene is None or army not in scene.groups:
            return
        self.centerOn(scene.groups[army].pos())
        self.zoom_by(2.0)
        self.centerOn(scene.groups[army].pos())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        if self.map_scene is None:
            return
        at = self.mapToScene(event.pos())
        town = self.map_scene.town_at(at, self.scale_now())
        # on a command's flag: that command selected, and the menu of the town it stands in
        name = self.map_scene.marker_at(at, self.viewportTransform())
        marker = self.map_scene.markers.get(name) if name is not None else None
        if marker is not None:
            self.command_clicked.emit(name)
            if marker.spec.b is None:
                town = marker.spec.a
        if town is not None:
            self.town_menu_wanted.emit(town, event.globalPos())


class CommandsTable(QTreeWidget):
    """Army groups and their commands: where each stands, its state and its orders."""

    COLUMNS = ("Command", "Where", "State", "Orders")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setColumnCount(len(self.COLUMNS))
        self.setHeaderLabels(self.COLUMNS)
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        # long places ("6.5 miles from Burg on the road to Magdeburg") and reasons would push
        # the orders out of sight: those columns keep a set width, the full text is a tooltip
        header = self.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for column, width in ((1, 170), (STATE, STATE_WIDTH)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        self._rows: dict[str, QTreeWidgetItem] = {}

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        # the stretched orders column grows with the table but keeps its width when the table
        # narrows (the map beside it took the room): stretch it again to what is left
        header = self.header()
        header.setStretchLastSection(False)
        header.setStretchLastSection(True)

    def _fit_state(self) -> None:
        """Widen the state column (a little, up to a limit) when a state with casualties needs
        it, so "ready, 12 cas." is read whole and the orders keep the rest."""
        metrics = self.fontMetrics()
        widest = max((metrics.horizontalAdvance(row.text(STATE)) for row in self._rows.values()),
                     default=0)
        wanted = min(STATE_MAX_WIDTH, widest + 2 * metrics.averageCharWidth() + 8)
        if self.header().sectionSize(STATE) < wanted:
            self.header().resizeSection(STATE, wanted)

    def show_commands(self, scenario: Scenario | None,
                      commands: Iterable[CommandView]) -> None:
        """Fill the table with army groups and their commands, keeping the selection."""
        current = self.currentItem()
        keep = current.text(0) if current is not None and current.parent() is not None else None
        self.clear()
        self._rows = {}
        if scenario is None:
            return
        armies = {a.name: a for a in scenario.armies}
        groups: dict[str, QTreeWidgetItem] = {}
        for c in commands:
            group = groups.get(c.army)
            if group is None:
                army = armies[c.army]
                group = QTreeWidgetItem([army.name, army.theatre.value,
                                         f"{army.side.value}", f"CinC {army.cinc.name}"])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                self.addTopLevelItem(group)
                groups[c.army] = group
            row = QTreeWidgetItem(group)
            self._fill(row, c)
            self._rows[c.name] = row
            if c.name == keep:
                self.setCurrentItem(row)
        self.expandAll()
        self._fit_state()

    def update_commands(self, commands: Iterable[CommandView]) -> None:
        """Rewrite the rows of these commands in place (those not shown are left alone)."""
        for c in commands:
            row = self._rows.get(c.name)
            if row is not None:
                self._fill(row, c)
        self._fit_state()

    def row(self, name: str) -> QTreeWidgetItem | None:
        """A command's row, if the table shows it."""
        return self._rows.get(name)

    @staticmethod
    def _fill(row: QTreeWidgetItem, c: CommandView) -> None:
        for column, text in enumerate((c.name, c.where, state_text(c), c.orders_text)):
            row.setText(column, text)
        for column in (1, 3):  # the columns are often narrower than their text
            row.setToolTip(column, row.text(column))
        # the state at a glance; why it binds the command today, on hovering
        row.setToolTip(STATE, state_tooltip(c))


class CampaignView(QWidget):
    """The map of a chosen theatre beside the table of its commands."""

    theatre_changed = Signal(str)
    shown = Signal()  # a file opened or another theatre chosen: everything shown again
    order_wanted = Signal(str, str, str)  # command, verb, town: an order given on the map
    battle_wanted = Signal(int)  # a battle to fight at the table, from its marker or town menu
    supply_wanted = Signal(object)  # a SupplyRequest chosen on the map

    def __init__(self, campaign: OpenCampaign, parent: QWidget | None = None,
                 settings: QSettings | None = None, preview: Preview | None = None,
                 defer_map: bool = False):
        """``defer_map``: make the map's scene, with its flags, only once the map has been
        painted (empty, as the sea) — as the application does at start, so that the window
        shows the campaign before the map is drawn; otherwise it is made with the campaign."""
        super().__init__(parent)
        self.campaign = campaign
        self._defer_map = defer_map
        self._map_pending = False
        self._scenes: dict[str, MapScene] = {}  # each theatre's, made when first shown
        self._preview: Preview = preview if preview is not None else queries.route_preview
        self._scenario: Scenario | None = None
        self._flags: dict[str, tuple[str, str]] = {}
        self.map_scene: MapScene | None = None
        self.theatres = QComboBox()
        self.theatres.addItem(WHOLE_MAP)
        for theatre in Theatre:
            self.theatres.addItem(theatre.value)
        self.theatres.currentTextChanged.connect(self._on_theatre)
        self.fit_button = QPushButton("Fit theatre")
        self.fit_button.setToolTip("Show the whole of the theatre chosen")
        self.fit_button.clicked.connect(self._on_fit)
        self.heading = QLabel()
        self.heading.setObjectName("campaignHeading")
        font = self.heading.font()
        font.setPointSize(font.pointSize() + 4)
        font.setBold(True)
        self.heading.setFont(font)
        self.map_view = MapView(settings)
        self.map_view.command_clicked.connect(self._on_command_clicked)
        self.map_view.town_menu_wanted.connect(self._on_town_menu)
        self.map_view.battle_clicked.connect(self.battle_wanted)
        self.table = CommandsTable()
        self.table.currentItemChanged.connect(self._on_selection)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(QLabel("Show:"))
        top.addWidget(self.theatres)
        top.addWidget(self.fit_button)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.map_view)
        split.addWidget(self.table)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 1)
        split.setSizes([1040, 520])
        self.splitter = split
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        campaign.opened.connect(self._on_opened)
        campaign.changed.connect(self._on_changed)
        self._on_opened()

    def theatre(self) -> Theatre | None:
        """The theatre chosen, or None for the whole map."""
        text = self.theatres.currentText()
        return None if text == WHOLE_MAP else Theatre(text)

    def commands_shown(self) -> tuple[CommandView, ...]:
        """The commands of the theatre chosen (all for the whole map)."""
        status = self.campaign.status
        return () if status is None else status.commands_in(self.theatre())

    def select_command(self, name: str) -> None:
        """Select a command's row in the table (and its flag), if the theatre shown has it."""
        item = self.table.row(name)
        if item is not None:
            self.table.setCurrentItem(item)
            self.table.scrollToItem(item)

    def selected_command(self) -> str | None:
        """The command selected in the table, if a command (not an army group) is selected."""
        item = self.table.currentItem()
        if item is None or item.parent() is None:
            return None
        return item.text(0)

    def _on_fit(self) -> None:
        self.fit_theatre()

    def _on_command_clicked(self, name: str) -> None:
        self.select_command(name)

    def fit_theatre(self) -> None:
        """Show the whole of the theatre chosen."""
        if self.map_scene is not None:
            self.map_view.fit(self.map_scene.theatre_rect(self.theatre(), FIT_MARGIN_MILES))

    # ----- orders on the map --------------------------------------------------------------
    def town_menu(self, town: str) -> QMenu:
        """The menu of a town: Move / Attack / Hold here, for the command selected."""
        command = self.selected_command()
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        title = menu.addAction(town if command is None else f"{command} to {town}")
        title.setEnabled(False)
        menu.addSeparator()
        for verb in ORDER_VERBS:
            action = menu.addAction(f"{verb} here")
            action.setData(verb)
            action.setEnabled(command is not None)
            if command is None:
                action.setToolTip("Select a command first, on the map or in the table")
            else:
                action.hovered.connect(
                    lambda v=verb: self.preview_route(command, v, town))
        battles = self.map_scene.battles_at(town) if self.map_scene is not None else []
        if battles:
            menu.addSeparator()
        for spec in battles:
            fight = menu.addAction(f"Fight Battle {spec.id} at the Table…")
            fight.setData(spec.id)
        self._supply_menu(menu, command, town)
        return menu

    def supply_requests(self, command: str | None, town: str) -> list[tuple[str, SupplyRequest]]:
        """The supply orders the map offers at a town (none while supply is off): for the
        corps selected, to draw from each depot within its reach, to make a depot here and
        to name the brigade that loses its men out of supply; from a depot here, to send
        supplies on."""
        status, doc = self.campaign.status, self.campaign.document
        if not supply_kept(status) or status is None or doc is None:
            return []
        offers: list[tuple[str, SupplyRequest]] = []
        corps = None
        if command is not None:
            found = [c for c in status.commands if c.name == command and c.supply_days is not None]
            corps = found[0] if found else None
        if corps is not None:
            for depot in queries.depots_in_reach(doc, corps.name):
                offers.append((f"Resupply {corps.name} from {depot}",
                               SupplyRequest("resupply", corps=corps.name, origin=depot)))
            offers.append((f"Make a depot here with {corps.name}…",
                           SupplyRequest("depot", corps=corps.name, town=town, ready=False)))
            if corps.owed_men:
                offers.append((f"Choose the brigade of {corps.name} that loses "
                               f"{corps.owed_men} men…",
                               SupplyRequest("attrition", corps=corps.name)))
        for mark in status.supply:
            if mark.town == town:
                offers.append((f"Send supplies from {town} to…",
                               SupplyRequest("move", origin=town, ready=False)))
                break
        return offers

    def _supply_menu(self, menu: QMenu, command: str | None, town: str) -> None:
        offers = self.supply_requests(command, town)
        if offers:
            menu.addSeparator()
        for text, request in offers:
            menu.addAction(text).setData(request)

    def _on_town_menu(self, town: str, at: QPoint) -> None:
        command = self.selected_command()
        menu = self.town_menu(town)
        if command is not None:
            self.preview_route(command, ORDER_VERBS[0], town)
        chosen = menu.exec(at)
        verb = chosen.data() if chosen is not None else None
        if isinstance(verb, SupplyRequest):
            self.clear_preview()
            self.supply_wanted.emit(verb)
            return
        if isinstance(verb, int):  # a battle at the town, to fight at the table
            self.clear_preview()
            self.battle_wanted.emit(verb)
            return
        if command is None or verb not in ORDER_VERBS:
            self.clear_preview()
            return
        shown = self.preview_route(command, verb, town)
        if shown is None or shown.refusal is None:
            self.clear_preview()
        self.order_wanted.emit(command, verb, town)

    def preview_route(self, command: str, verb: str,
                      town: str) -> queries.RoutePreview | None:
        """Draw the route a proposed order would march, with its miles, days and arrival (or
        why it would be refused) beside the town; the preview, or None if none can be had."""
        doc, scene = self.campaign.document, self.map_scene
        if doc is None or scene is None:
            return None
        preview = self._preview(doc, command, verb, town)
        legs = [(scene.place_point(leg.a, leg.b, leg.start),
                 scene.place_point(leg.a, leg.b, leg.end)) for leg in preview.legs]
        lines = preview_lines(preview)
        scene.show_preview(legs, town, lines, preview.refusal is not None)
        return preview

    def show_refusal(self, town: str, reason: str) -> None:
        """Say on the map, beside the town, why an order was refused."""
        if self.map_scene is not None and town in self.map_scene.towns:
            self.map_scene.show_note(town, ["Order refused", reason], True)

    def clear_preview(self) -> None:
        """Take the route preview off the map."""
        if self.map_scene is not None:
            self.map_scene.clear_preview()

    # ----- slots --------------------------------------------------------------------------
    def _on_opened(self) -> None:
        status, scenario = self.campaign.status, self.campaign.scenario
        if scenario is not self._scenario:
            self._scenario = scenario
            self._flags = flag_names(scenario) if scenario is not None else {}
            same_map = (self.map_scene is not None and scenario is not None
                        and self.map_scene.map == scenario.map)
            if not same_map:
                if scenario is not None and self._defer_map and not self.map_view.painted:
                    self._set_scene(None)
                    if not self._map_pending:
                        self._map_pending = True
                        self.map_view.first_painted.connect(
                            lambda: QTimer.singleShot(0, self._make_pending_map),
                            Qt.ConnectionType.SingleShotConnection)
                else:
                    self._set_scene(scenario)
        if status is None:
            self.heading.setText("No campaign open — File ▸ New Campaign or Open")
            self.table.show_commands(None, ())
            if self.map_scene is not None:
                self.map_scene.set_markers(())
        else:
            self.heading.setText(status.heading)
            self._show_all()
        self.shown.emit()

    def _set_scene(self, scenario: Scenario | None) -> None:
        """Show the map of a scenario, or none: the scenes of another map are let go."""
        self._map_pending = False
        for scene in self._scenes.values():
            scene.deleteLater()
        self._scenes = {}
        if scenario is None:
            self.map_scene = None
            self.map_view.set_map_scene(None)
        else:
            self._show_scene()

    def _show_scene(self) -> None:
        """Show the scene of the theatre chosen, made when it is first shown (its ground then
        built in pieces). Each theatre is drawn in its own projection, true east–west at its
        own latitude, as its printed map is, with its neighbours' towns greyed; the whole map
        in the whole map's."""
        # the scene with its items and style: loaded with the first map, which the application
        # makes after the window's first paint (defer_map)
        from campaign1813.ui.map.scene import MapScene, scene_bounds

        scenario = self._scenario
        if scenario is None:
            return
        key, theatre = self.theatres.currentText(), self.theatre()
        scene = self._scenes.get(key)
        if scene is None:
            bounds = (None if theatre is None
                      else scene_bounds(scenario.map, theatre, THEATRE_MARGIN_MILES))
            scene = MapScene(scenario.map, bounds, unit=WINDOW_UNIT, parent=self,
                             theatre=theatre)
            self._scenes[key] = scene
        if scene is not self.map_scene:
            if self.map_scene is not None:
                self.map_scene.clear_preview()
            self.map_scene = scene
            self.map_view.set_map_scene(scene)
        self._show_area()

    def _make_pending_map(self) -> None:
        """The map put off until the window was shown: its scene now, with the campaign's
        flags, battles and holders on it."""
        if not self._map_pending:
            return
        self._set_scene(self._scenario)
        if self.campaign.status is not None:
            self._show_all()

    def map_settled(self) -> bool:
        """Whether the map is complete: no scene waiting to be made, its ground built."""
        scene = self.map_scene
        return not self._map_pending and (scene is None or scene.built)

    def _on_changed(self, update: Update) -> None:
        self.table.update_commands(update.commands)
        status, scene = self.campaign.status, self.map_scene
        if scene is not None and status is not None:
            theatre = self.theatre()
            mine = [c for c in update.commands if theatre is None or c.theatre is theatre]
            self._show_commands(mine, whole=False)
            if update.battles:
                scene.set_battles(_battles(status))
            if update.changes.towns or update.changes.date_changed or update.battles:
                scene.control.set_state(*_control(status))
            scene.supply.set_marks(supply_specs(status, theatre))
            self.map_view.labels_later(hold=True)
        if update.heading and status is not None:
            self.heading.setText(status.heading)

    def _on_theatre(self, text: str) -> None:
        if self.map_scene is not None:  # (a map put off until the window is shown waits)
            self._show_scene()
        if self.campaign.status is not None:
            self._show_all()
        self.shown.emit()
        self.theatre_changed.emit(text)

    def _on_selection(self, *_: object) -> None:
        if self.map_scene is not None:
            self.map_scene.select_marker(self.selected_command())

    def _show_area(self) -> None:
        if self.map_scene is not None:
            self.map_view.show_area(self.theatres.currentText(),
                                    self.map_scene.theatre_rect(self.theatre(),
                                                                FIT_MARGIN_MILES))

    def _show_all(self) -> None:
        status, scene = self.campaign.status, self.map_scene
        self.table.show_commands(self._scenario, self.commands_shown())
        if scene is None or status is None:
            return
        self._show_commands(self.commands_shown(), whole=True)
        scene.set_battles(_battles(status))
        scene.control.set_state(*_control(status))
        scene.supply.set_marks(supply_specs(status, self.theatre()))
        scene.select_marker(self.selected_command())
        self.map_view.labels_later()

    def _show_commands(self, commands: Iterable[CommandView], whole: bool) -> None:
        """Flags and order arrows of these commands: all of the theatre (``whole``), or only
        those an action changed."""
        scene = self.map_scene
        if scene is None:
            return
        commands = list(commands)
        live = [c for c in commands if c.status is not Status.SURRENDERED]
        specs = [marker_spec(c, *self._flags.get(c.name, (c.name, SIDE_COLOUR[c.side].name())),
                             self._flags.get(f"{c.army} HQ", ("",))[0])
                 for c in live]
        if whole:
            scene.set_markers(specs)
        else:
            scene.update_markers(specs)
            scene.remove_markers(c.name for c in commands if c not in live)
        if whole:
            for key in [k for k in scene.orders if k not in {c.name for c in live}]:
                scene.set_order(key, None, live[0].side if live else next(iter(SIDE_COLOUR)))
        for c in commands:  # each view carries its order's route: the state is read once
            route = c.route if c in live else ()
            points = [scene.place_point(c.position.a, c.position.b, c.position.miles)]
            points += [scene.town_point(t) for t in route if t in scene.towns]
            scene.set_order(c.name, points if route else None, c.side)


def _battles(status: CampaignStatus) -> list[BattleSpec]:
    """The battles still to be fought, for the map."""
    return [BattleSpec(b.id, b.place, format_date(b.date).rsplit(" ", 1)[0], b.title)
            for b in status.battles_due]


def supply_specs(status: CampaignStatus, theatre: Theatre | None) -> list[SupplySpec]:
    """The depots and columns of the army groups of the theatre shown (all on the whole map)."""
    armies = {c.army for c in status.commands_in(theatre)}
    return [SupplySpec(m.town, m.side, m.days, m.column, m.main, m.army)
            for m in status.supply if m.army in armies]


def _control(status: CampaignStatus) -> tuple[dict[str, Side], dict[str, Side]]:
    """Who holds each town, and which side seeks each objective town."""
    sought = {t.town: o.objective.side for o in status.objectives for t in o.towns}
    return dict(status.control), sought
