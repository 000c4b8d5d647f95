"""The campaign at a glance: the road map with every command on it, and the commands' table.

The view takes the open campaign in :meth:`CampaignView.show_document` and reads everything
through the ``campaign`` services; it changes nothing itself. Map pictures are kept by theatre
and flags, so an action that moves nobody (an order, a result) redraws only the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPainter, QPixmap, QWheelEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import commands as services
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.aftermath import retreat_destinations
from campaign1813.campaign.day.state import Status, load_state
from campaign1813.campaign.queries import status_json
from campaign1813.campaign.scenario.types import Scenario, Side
from campaign1813.campaign.store.document import CampaignDocument
from campaign1813.maps.types import Theatre
from campaign1813.ui.map_render import Marker, render_map

WHOLE_MAP = "The whole map"
MAP_WIDTH = 2400


@dataclass(frozen=True)
class CampaignSnapshot:
    """What the view shows, read once from the campaign file; ``retreats`` holds the towns each
    command that must retreat today may make for."""

    scenario: Scenario
    status: dict
    retreats: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def commands_in(self, theatre: Theatre | None) -> list[dict]:
        """The commands of the army groups of one theatre (all for None)."""
        armies = {a.name for a in self.scenario.armies if theatre is None or a.theatre is theatre}
        return [c for c in self.status["commands"] if c["army"] in armies]


def read_snapshot(doc: CampaignDocument) -> CampaignSnapshot:
    """Read the scenario and the day's state from an open campaign."""
    with doc.session() as session:
        scenario = services.scenario_in(session)
        state = load_state(session)
        ground = services.ground_for(scenario)
        status = status_json(state, ground)
        retreats = {
            c.name: tuple(sorted(retreat_destinations(ground, state, c.name)))
            for c in state.ordered()
            if c.status is Status.RETREATING and c.status_date == state.date
        }
    return CampaignSnapshot(scenario, status, retreats)


def marker_town(position: list, road_miles: dict[frozenset[str], float]) -> str:
    """The town a command's flag is drawn at: its town, or the nearer end of its road."""
    if len(position) == 1:
        return position[0]
    a, b, miles = position
    return a if miles <= 0.5 * road_miles[frozenset((a, b))] else b


def command_markers(snapshot: CampaignSnapshot, theatre: Theatre | None) -> list[Marker]:
    """A flag per command of the theatre (or of all), one per town with the names joined."""
    road_miles = {frozenset((r.a, r.b)): r.miles for r in snapshot.scenario.map.roads}
    at: dict[tuple[str, str], list[str]] = {}
    for c in snapshot.commands_in(theatre):
        if c["status"] == "surrendered":
            continue
        name = c["name"].removesuffix(" Corps")
        if len(c["position"]) > 1:
            name += " (on the road)"
        at.setdefault((marker_town(c["position"], road_miles), c["side"]), []).append(name)
    return [Marker(town, ", ".join(names), Side(side)) for (town, side), names in at.items()]


class MapView(QGraphicsView):
    """The rendered road map, zoomed with the wheel and dragged with the mouse."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self._item = QGraphicsPixmapItem()
        self._item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.scene().addItem(self._item)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._fitted = True
        self._shown = QPixmap()

    def picture(self) -> QPixmap:
        """The picture shown."""
        return self._shown

    def show_pixmap(self, pixmap: QPixmap) -> None:
        """Show a new picture, fitted to the view."""
        self._shown = pixmap
        self._item.setPixmap(pixmap)
        self.scene().setSceneRect(self._item.boundingRect())
        self._fitted = True
        self.fit()

    def fit(self) -> None:
        """Show the whole picture."""
        self.resetTransform()
        self.fitInView(self._item, Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if self._fitted:
            self.fit()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self._fitted = False
        self.scale(factor, factor)


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
        for column, width in ((1, 170), (2, 90)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)

    def show_commands(self, snapshot: CampaignSnapshot | None, theatre: Theatre | None) -> None:
        """Fill the table with the commands of a theatre (all for None), keeping the selection."""
        current = self.currentItem()
        keep = current.text(0) if current is not None and current.parent() is not None else None
        self.clear()
        if snapshot is None:
            return
        sides = {a.name: a for a in snapshot.scenario.armies}
        groups: dict[str, QTreeWidgetItem] = {}
        for c in snapshot.commands_in(theatre):
            group = groups.get(c["army"])
            if group is None:
                army = sides[c["army"]]
                group = QTreeWidgetItem([army.name, army.theatre.value,
                                         f"{army.side.value}", f"CinC {army.cinc.name}"])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                self.addTopLevelItem(group)
                groups[c["army"]] = group
            orders = c["order"] or "no orders"
            if c["pending"]:
                orders += f"; by messenger: {c['pending']}"
            row = QTreeWidgetItem(group, [c["name"], c["where"], c["status"], orders])
            for column in (1, 3):  # the columns are often narrower than their text
                row.setToolTip(column, row.text(column))
            # the state at a glance; why it binds the command today, on hovering
            row.setToolTip(2, c["reason"] or c["status"])
            if c["name"] == keep:
                self.setCurrentItem(row)
        self.expandAll()


class CampaignView(QWidget):
    """The map of a chosen theatre beside the table of its commands."""

    theatre_changed = Signal(str)
    shown = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.snapshot: CampaignSnapshot | None = None
        self._pictures: dict[tuple, QPixmap] = {}
        self.theatres = QComboBox()
        self.theatres.addItem(WHOLE_MAP)
        for theatre in Theatre:
            self.theatres.addItem(theatre.value)
        self.theatres.currentTextChanged.connect(self._on_theatre)
        self.heading = QLabel()
        self.heading.setObjectName("campaignHeading")
        font = self.heading.font()
        font.setPointSize(font.pointSize() + 4)
        font.setBold(True)
        self.heading.setFont(font)
        self.map_view = MapView()
        self.table = CommandsTable()
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(QLabel("Show:"))
        top.addWidget(self.theatres)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.map_view)
        split.addWidget(self.table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 3)
        split.setSizes([660, 620])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.show_document(None)

    def theatre(self) -> Theatre | None:
        """The theatre chosen, or None for the whole map."""
        text = self.theatres.currentText()
        return None if text == WHOLE_MAP else Theatre(text)

    def show_document(self, doc: CampaignDocument | None) -> None:
        """Read and show an open campaign, or clear the view."""
        if doc is None:
            self._pictures.clear()
            self.snapshot = None
            self.heading.setText("No campaign open — File ▸ New Campaign or Open")
            self.map_view.show_pixmap(QPixmap())
            self.table.clear()
            self.shown.emit()
            return
        snapshot = read_snapshot(doc)
        if self.snapshot is None or self.snapshot.scenario is not snapshot.scenario:
            self._pictures.clear()
        self.snapshot = snapshot
        s = doc.summary()
        heading = f"{s.name} — {format_date(s.current_date)}"
        if snapshot.status["marched"]:
            heading += " (marched; battles to fight)"
        self.heading.setText(heading)
        self._refresh()
        self.shown.emit()

    def select_command(self, name: str) -> None:
        """Select a command's row in the table, if the theatre shown has it."""
        for item in self.table.findItems(name, Qt.MatchFlag.MatchExactly
                                         | Qt.MatchFlag.MatchRecursive, 0):
            if item.parent() is not None:
                self.table.setCurrentItem(item)
                self.table.scrollToItem(item)
                return

    def selected_command(self) -> str | None:
        """The command selected in the table, if a command (not an army group) is selected."""
        item = self.table.currentItem()
        if item is None or item.parent() is None:
            return None
        return item.text(0)

    def _on_theatre(self, text: str) -> None:
        self._refresh()
        self.theatre_changed.emit(text)

    def _refresh(self) -> None:
        if self.snapshot is None:
            return
        theatre = self.theatre()
        markers = command_markers(self.snapshot, theatre)
        key = (theatre.value if theatre else WHOLE_MAP, tuple(markers))
        picture = self._pictures.get(key)
        if picture is None:
            if len(self._pictures) > 2 * len(Theatre):
                self._pictures.clear()
            image = render_map(self.snapshot.scenario.map, theatre=theatre, width=MAP_WIDTH,
                               markers=markers)
            picture = self._pictures[key] = QPixmap.fromImage(image)
        if picture is not self.map_view.picture():
            self.map_view.show_pixmap(picture)
        self.table.show_commands(self.snapshot, theatre)
