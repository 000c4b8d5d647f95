"""The campaign at a glance: the road map with every command on it, and the commands' table.

The view takes the open campaign in its constructor and follows its two signals: a file opened
fills everything; an :class:`~campaign1813.ui.open_campaign.Update` refreshes only the rows of
the commands it names, the map only when a command moved or changed state, the heading only
when the date or the day's march changed. Map pictures are kept by theatre and flags, so an
undone march shows its cached picture again.
"""

from __future__ import annotations

from collections.abc import Iterable

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

from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.queries import CommandView
from campaign1813.campaign.scenario.types import Scenario, Side
from campaign1813.maps.types import Theatre
from campaign1813.ui.map_render import Marker, render_map
from campaign1813.ui.open_campaign import OpenCampaign, Update

WHOLE_MAP = "The whole map"
MAP_WIDTH = 2400
STATE = 2  # the commands' table's state column
STATE_WIDTH, STATE_MAX_WIDTH = 90, 130  # "surrendered"; "retreating, 12 cas."


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


def marker_town(position: Position, road_miles: dict[frozenset[str], float]) -> str:
    """The town a command's flag is drawn at: its town, or the nearer end of its road."""
    if position.b is None:
        return position.a
    a, b = position.a, position.b
    return a if position.miles <= 0.5 * road_miles[frozenset((a, b))] else b


def road_miles(scenario: Scenario) -> dict[frozenset[str], float]:
    """Each road's length, by the pair of towns it joins."""
    return {frozenset((r.a, r.b)): r.miles for r in scenario.map.roads}


def command_markers(commands: Iterable[CommandView],
                    miles: dict[frozenset[str], float]) -> list[Marker]:
    """A flag per command still in the field, one per town and side with the names joined."""
    at: dict[tuple[str, Side], list[str]] = {}
    for c in commands:
        if c.status is Status.SURRENDERED:
            continue
        name = c.name.removesuffix(" Corps")
        if c.position.b is not None:
            name += " (on the road)"
        at.setdefault((marker_town(c.position, miles), c.side), []).append(name)
    return [Marker(town, ", ".join(names), side) for (town, side), names in at.items()]


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
        for column, width in ((1, 170), (STATE, STATE_WIDTH)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        self._rows: dict[str, QTreeWidgetItem] = {}

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

    def __init__(self, campaign: OpenCampaign, parent: QWidget | None = None):
        super().__init__(parent)
        self.campaign = campaign
        self._pictures: dict[tuple, QPixmap] = {}
        self._miles: dict[frozenset[str], float] = {}
        self._scenario: Scenario | None = None
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
        """Select a command's row in the table, if the theatre shown has it."""
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

    # ----- slots --------------------------------------------------------------------------
    def _on_opened(self) -> None:
        status, scenario = self.campaign.status, self.campaign.scenario
        if scenario is not self._scenario:
            self._pictures.clear()
            self._scenario = scenario
            self._miles = road_miles(scenario) if scenario is not None else {}
        if status is None:
            self.heading.setText("No campaign open — File ▸ New Campaign or Open")
            self.map_view.show_pixmap(QPixmap())
            self.table.show_commands(None, ())
        else:
            self.heading.setText(status.heading)
            self._show_all()
        self.shown.emit()

    def _on_changed(self, update: Update) -> None:
        self.table.update_commands(update.commands)
        if update.positions:
            self._show_map()
        if update.heading and self.campaign.status is not None:
            self.heading.setText(self.campaign.status.heading)

    def _on_theatre(self, text: str) -> None:
        if self.campaign.status is not None:
            self._show_all()
        self.shown.emit()
        self.theatre_changed.emit(text)

    def _show_all(self) -> None:
        self._show_map()
        self.table.show_commands(self._scenario, self.commands_shown())

    def _show_map(self) -> None:
        """Show the theatre's picture with its flags, rendering it only if not kept already."""
        if self._scenario is None:
            return
        theatre = self.theatre()
        markers = command_markers(self.commands_shown(), self._miles)
        key = (theatre.value if theatre else WHOLE_MAP, tuple(markers))
        picture = self._pictures.get(key)
        if picture is None:
            if len(self._pictures) > 2 * len(Theatre):
                self._pictures.clear()
            image = render_map(self._scenario.map, theatre=theatre, width=MAP_WIDTH,
                               markers=markers)
            picture = self._pictures[key] = QPixmap.fromImage(image)
        if picture is not self.map_view.picture():
            self.map_view.show_pixmap(picture)
