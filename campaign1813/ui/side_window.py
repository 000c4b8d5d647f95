"""A side's own window: the campaign as one side knows it, built from its ``SideView`` alone.

View ▸ As the French / As the Allies opens it. Everything in it (the banner, the map's flags
and sightings, the table of commands, the enemy as reported, the day's report, the diary, the
objectives and the orders of battle) comes from the view the window is given; the public road
map is the only other thing it draws. A coloured banner across the top says whose view it is,
so it is never taken for the other side's or the umpire's; an old sighting is drawn faded, with
the day it was seen. While supply is kept, the side's own depots (its main depot's store
doubled), its columns waiting on the road with their days, and each of its corps' days (or
out of supply) are drawn as the umpire's map draws them, from the view's own supplies alone;
nothing of the enemy's supply is in the view to draw.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QMainWindow,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.day.sideview import ForeignInput, SideView, people
from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.types import MapData
from campaign1813.ui.map.palette import SIDE_COLOUR
from campaign1813.ui.map.scene import MapScene
from campaign1813.ui.map.specs import MarkerSpec, SupplySpec, supply_badge, supply_note
from campaign1813.ui.map.view import WINDOW_UNIT, MapView

FADED_OPACITY = 0.4  # an old sighting's flag
BANNER_COLOUR = {Side.FRENCH: "#1f3f8f", Side.ALLIED: "#8f1f1f"}


def marker_specs(view: SideView) -> list[tuple[MarkerSpec, bool]]:
    """The view's map items as flags, each with whether it is drawn faded."""
    out = []
    for item in view.map_items:
        side = view.side if item.own else view.side.enemy
        colour = SIDE_COLOUR[side].lighter(150 if item.faded else 100).name()
        label = item.label.removesuffix(" Corps") if item.own else item.label
        badges: tuple[str, ...] = ("old",) if item.faded else ()
        tooltip = item.tooltip
        if item.own and item.supply_days is not None:
            badges += (supply_badge(item.supply_days),)
            tooltip += "\n" + supply_note(item.supply_days)
        out.append((MarkerSpec(item.key or item.label, item.town, item.road, item.miles, label,
                               side, colour, item.hq, badges, tooltip), item.faded))
    return out


def supply_marks(view: SideView) -> list[SupplySpec]:
    """The side's own depots and columns as the map's supply signs (none while supply is off;
    the view holds no other side's)."""
    return [SupplySpec(s.town, s.side, s.days, s.column, s.main, s.army)
            for s in view.own_supply if s.side is view.side]


class SideWindow(QMainWindow):
    """The campaign as one side knows it."""

    closed = Signal(object)  # the side, once the window is closed (by hand or by the umpire)

    def __init__(self, view: SideView, map_data: MapData, parent: QWidget | None = None):
        super().__init__(parent)
        self.side = view.side
        self.banner = QLabel()
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setStyleSheet(
            f"background: {BANNER_COLOUR[view.side]}; color: white; font-size: 16pt; "
            "font-weight: bold; padding: 8px;")
        self.scene = MapScene(map_data, unit=WINDOW_UNIT, parent=self)
        self.map_view = MapView(None, self)
        self.map_view.set_map_scene(self.scene)
        self.table = QTableWidget()
        self.enemy = QListWidget()
        self.day_report = QListWidget()
        self.diary = QListWidget()
        self.objectives = QListWidget()
        self.oob = QListWidget()
        tabs = QTabWidget()
        tabs.addTab(self.table, "Our commands")
        tabs.addTab(self.enemy, "The enemy as reported")
        tabs.addTab(self.day_report, "The day's report")
        tabs.addTab(self.diary, "Diary")
        tabs.addTab(self.objectives, "Objectives")
        tabs.addTab(self.oob, "Orders of battle")
        self.tabs = tabs
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.map_view)
        split.addWidget(tabs)
        split.setSizes([620, 300])
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(split)
        self.setCentralWidget(body)
        self.resize(1280, 960)
        self.show_view(view)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        super().closeEvent(event)
        if event.isAccepted():
            self.closed.emit(self.side)

    def show_view(self, view: SideView) -> None:
        """Show what the side knows now."""
        if view.side is not self.side:
            raise ForeignInput(f"the {people(self.side)}' window cannot show the "
                               f"{people(view.side)}' view")
        self.view = view
        self.banner.setText(f"{view.banner.upper()} — what the {people(view.side)} know; not "
                            "the umpire's map")
        self.setWindowTitle(view.banner)
        specs = marker_specs(view)
        self.scene.set_markers(spec for spec, _faded in specs)
        for spec, faded in specs:
            marker = self.scene.markers.get(spec.key)
            if marker is not None:
                marker.setOpacity(FADED_OPACITY if faded else 1.0)
        self.scene.supply.set_marks(supply_marks(view))
        self.table.clear()
        heading, *rows = view.table
        self.table.setColumnCount(len(heading))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels(list(heading))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        for widget, lines in ((self.enemy, view.enemy_oob), (self.day_report, view.day_report),
                              (self.diary, view.diary), (self.objectives, view.objectives),
                              (self.oob, view.own_oob)):
            widget.clear()
            widget.addItems(list(lines))
        self.fit()

    def fit(self) -> None:
        """Frame the theatre of the newest sighting (the whole map before any)."""
        seen = [i for i in self.view.map_items if not i.own and i.town in self.scene.towns]
        if not seen:
            self.map_view.fit(self.scene.theatre_rect(None))
            return
        theatre = self.scene.towns[seen[-1].town].theatre
        self.map_view.fit(self.scene.theatre_rect(theatre))
