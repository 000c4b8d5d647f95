"""Campaign ▸ History: the campaign day by day, in a dock of its own (record 0030).

A day slider and the VCR buttons (first, back, play, forward, last; the left and right keys
step a day) choose a day; the panel's own map, table of commands and report show that day as
it stood at dawn (today as it stands), under a banner that says it is the past. Nothing here
acts on the campaign: the panel only reads (``queries.status_on``, ``queries.side_view_on``),
and the window's own map and table keep today, so leaving the history (closing the dock)
returns to today exactly. During play each command's flag moves along its road through the
day's hours, from where it stood at dawn to where it stood at the next dawn, and the day's
battles flash with their result. As a side, the same days show only what that side knew then.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import NamedTuple

from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import queries
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.queries import BattleView, CampaignStatus
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import CampaignStore, DayMark
from campaign1813.maps.types import Theatre
from campaign1813.ui.map.palette import SIDE_COLOUR
from campaign1813.ui.map.scene import MapScene
from campaign1813.ui.map.specs import BattleSpec, MarkerSpec, SupplySpec
from campaign1813.ui.map.view import (
    WINDOW_UNIT,
    MapView,
    flag_names,
    marker_spec,
    state_text,
    supply_specs,
)
from campaign1813.ui.operation import Service, day_service
from campaign1813.ui.side_window import marker_specs, supply_marks

PAST_COLOUR = "#6b4f1d"  # the banner of the past: sepia, never the colours of a side
HOURS = 12  # frames of a day's march in play: dawn to the next dawn in twelve steps
FRAME_MS = 80
VIEWS = {"As the umpire": None, "As the French": Side.FRENCH, "As the Allies": Side.ALLIED}


class HistoryPanel(QWidget):
    """The campaign as it stood on a chosen day: slider, VCR buttons, map, table, report."""

    day_shown = Signal(object)  # the date shown

    def __init__(self, doc: CampaignStore,
                 run: Callable[[Service], Changes | None] | None = None,
                 parent: QWidget | None = None):
        """``run`` runs the umpire's bookmark and note as an action of the window (logged and
        undone as any); without it the panel only shows them."""
        super().__init__(parent)
        self.doc = doc
        self._run = run
        self.side: Side | None = None
        self._statuses: dict[tuple[date, Side | None], CampaignStatus | SideDay] = {}
        self._read()
        self._flags = flag_names(doc.scenario())
        self.banner = QLabel()
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setStyleSheet(f"background: {PAST_COLOUR}; color: white; font-size: 14pt; "
                                  "font-weight: bold; padding: 6px;")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, len(self.days) - 1)
        self.slider.setPageStep(1)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.valueChanged.connect(self._on_slider)
        self.day_label = QLabel()
        self.bookmark = QPushButton("☆ Bookmark")
        self.bookmark.setCheckable(True)
        self.note = QLineEdit()
        self.note.setPlaceholderText("the umpire's note on this day")
        self.keep_note = QPushButton("Keep")
        self.keep_note.clicked.connect(self._on_keep)
        self.bookmark.clicked.connect(self._on_keep)
        self.note.returnPressed.connect(self._on_keep)
        for widget in (self.bookmark, self.note, self.keep_note):
            widget.setEnabled(run is not None)
        self.buttons: dict[str, QPushButton] = {}
        bar = QHBoxLayout()
        for name, text, slot in (("first", "|◀ First", self.first), ("back", "◀ Back", self.back),
                                 ("play", "▶ Play", self.toggle_play),
                                 ("forward", "Forward ▶", self.forward),
                                 ("last", "Last ▶|", self.last)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            bar.addWidget(button)
            self.buttons[name] = button
        self.viewer = QComboBox()
        self.viewer.addItems(list(VIEWS))
        self.viewer.currentTextChanged.connect(lambda text: self.view_as(VIEWS[text]))
        bar.addWidget(self.viewer)
        bar.addWidget(self.slider, 1)
        bar.addWidget(self.day_label)
        self.scene = MapScene(doc.scenario().map, unit=WINDOW_UNIT, parent=self)
        self.map_view = MapView(None, self)
        self.map_view.set_map_scene(self.scene)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.table)
        lower.addWidget(self.report)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.map_view)
        split.addWidget(lower)
        split.setSizes([560, 260])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addLayout(bar)
        marks = QHBoxLayout()
        marks.addWidget(self.bookmark)
        marks.addWidget(self.note, 1)
        marks.addWidget(self.keep_note)
        layout.addLayout(marks)
        layout.addWidget(split, 1)
        for key, step in ((Qt.Key.Key_Left, self.back), (Qt.Key.Key_Right, self.forward)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(step)
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._frame)
        self._hour = 0
        self.day = self.today
        self.slider.setValue(len(self.days) - 1)
        self.show_day(self.today)
        self.map_view.fit(self.scene.theatre_rect(None))

    def _read(self) -> None:
        """Read what every day shares: the days, the diary's lines, the battles, the marks."""
        self.days = queries.campaign_days(self.doc)
        self.today = self.days[-1]
        self._reports = queries.reports_by_day(self.doc)
        self._battles = queries.battles_by_day(self.doc)
        self.marks: dict[date, DayMark] = queries.day_marks(self.doc)

    def refresh(self) -> None:
        """The campaign changed (an action, undo, another day): read it again, keeping the day
        shown if the campaign still has it."""
        self._statuses.clear()
        self._read()
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(self.days) - 1)
        self.slider.blockSignals(False)
        self.show_day(self.day if self.day in self.days else self.today)

    def mark(self, bookmark: bool, note: str) -> Changes | None:
        """Put the umpire's bookmark and note on the day shown (logged, undone as any action)."""
        if self._run is None:
            return None
        changes = self._run(day_service("mark_day", self.day, bookmark, note))
        self.marks = queries.day_marks(self.doc)
        self.show_day(self.day)
        return changes

    def _on_keep(self) -> None:
        self.mark(self.bookmark.isChecked(), self.note.text())

    # ----- choosing a day --------------------------------------------------------------------
    def show_day(self, day: date) -> None:
        """Show the campaign as it stood on a day (at dawn; today as it stands)."""
        if day not in self.days:
            raise KeyError(f"{format_date(day)} is not a day of this campaign's history")
        self.day = day
        index = self.days.index(day)
        if self.slider.value() != index:
            self.slider.blockSignals(True)
            self.slider.setValue(index)
            self.slider.blockSignals(False)
        whose = "the umpire's map" if self.side is None else \
            f"what the {'French' if self.side is Side.FRENCH else 'Allies'} knew"
        when = "today, as it stands" if day == self.today else "at dawn"
        self.banner.setText(f"THE PAST — {format_date(day)}, {when} — {whose}; read-only "
                            f"(the campaign stands at {format_date(self.today)})")
        mark = self.marks.get(day)
        self.day_label.setText(("★ " if mark and mark.bookmark else "")
                               + f"day {index + 1} of {len(self.days)}")
        self.bookmark.setChecked(bool(mark and mark.bookmark))
        self.bookmark.setText("★ Bookmarked" if mark and mark.bookmark else "☆ Bookmark")
        self.note.setText(mark.note if mark else "")
        self.scene.set_markers(self.markers_on(day))
        self.scene.set_battles(self._battle_specs(day))
        self.scene.supply.set_marks(self.supply_on(day))
        self._fill_table(day)
        self._fill_report(day)
        self.buttons["back"].setEnabled(index > 0)
        self.buttons["first"].setEnabled(index > 0)
        self.buttons["forward"].setEnabled(index < len(self.days) - 1)
        self.buttons["last"].setEnabled(index < len(self.days) - 1)
        self.day_shown.emit(day)

    def view_as(self, side: Side | None) -> None:
        """Show the days as the umpire knew them (None), or as one side knew them."""
        self.side = side
        text = next(t for t, s in VIEWS.items() if s is side)
        if self.viewer.currentText() != text:
            self.viewer.blockSignals(True)
            self.viewer.setCurrentText(text)
            self.viewer.blockSignals(False)
        self.show_day(self.day)

    def first(self) -> None:
        """The campaign's first day."""
        self.show_day(self.days[0])

    def last(self) -> None:
        """Today."""
        self.show_day(self.days[-1])

    def back(self) -> None:
        """The day before the one shown."""
        index = self.days.index(self.day)
        if index > 0:
            self.show_day(self.days[index - 1])

    def forward(self) -> None:
        """The day after the one shown."""
        index = self.days.index(self.day)
        if index < len(self.days) - 1:
            self.show_day(self.days[index + 1])

    def _on_slider(self, index: int) -> None:
        self.stop()
        self.show_day(self.days[index])

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        """Left and right step a day back and forward."""
        if event.key() == Qt.Key.Key_Left:
            self.back()
        elif event.key() == Qt.Key.Key_Right:
            self.forward()
        else:
            super().keyPressEvent(event)

    # ----- what a day shows ------------------------------------------------------------------
    def status_on(self, day: date) -> CampaignStatus:
        """The umpire's campaign at a glance on a day (read once per day)."""
        found = self._statuses.get((day, None))
        if not isinstance(found, CampaignStatus):
            found = queries.status_on(self.doc, day)
            self._statuses[(day, None)] = found
        return found

    def markers_on(self, day: date) -> list[MarkerSpec]:
        """The flags of a day: every command the umpire knew of, or the side's own commands
        and the enemy as it was reported to it by then."""
        if self.side is not None:
            return self._side_on(day, self.side).markers
        return umpire_markers(self.status_on(day), self._flags)

    def supply_on(self, day: date) -> list[SupplySpec]:
        """The depots and columns of a day while supply was kept: every one, or the side's
        own (nothing of the enemy's supply was in its view)."""
        if self.side is not None:
            return self._side_on(day, self.side).supply
        return supply_specs(self.status_on(day), None)

    def _side_on(self, day: date, side: Side) -> SideDay:
        """What a side was shown on a day (read once per day and side)."""
        found = self._statuses.get((day, side))
        if not isinstance(found, SideDay):
            found = side_day(self.doc, side, day)
            self._statuses[(day, side)] = found
        return found

    def battles_of(self, day: date) -> tuple[BattleView, ...]:
        """The battles fought on a day, with their results (those a side fought, as a side)."""
        battles = self._battles.get(day, ())
        if self.side is None:
            return battles
        own = {s.key for s in self.markers_on(day)}
        return tuple(b for b in battles if own & {*b.french, *b.allied})

    def _battle_specs(self, day: date) -> list[BattleSpec]:
        return battle_specs(self.battles_of(day))

    def _fill_table(self, day: date) -> None:
        self.table.clear()
        if self.side is not None:
            view = queries.side_view_on(self.doc, self.side, day)
            heading, *rows = view.table
        else:
            heading = ("Command", "Where", "State", "Orders")
            rows = [(c.name, c.where, state_text(c), c.orders_text)
                    for c in self.status_on(day).commands]
        self.table.setColumnCount(len(heading))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels(list(heading))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))

    def _fill_report(self, day: date) -> None:
        if self.side is not None:
            lines = list(queries.side_view_on(self.doc, self.side, day).day_report)
        else:
            lines = list(self._reports.get(day, ()))
        for b in self.battles_of(day):
            lines.append(f"{b.title}: {b.result or 'no result yet'}")
        mark = self.marks.get(day)
        if mark and mark.note and self.side is None:  # the umpire's own note, never a side's
            lines.insert(0, f"The umpire's note: {mark.note}")
        self.report.setPlainText("\n".join(lines) or "Nothing was done on this day.")

    # ----- play ------------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        """Whether the days are being played."""
        return self._timer.isActive()

    def toggle_play(self) -> None:
        """Play the days from the one shown, or stop."""
        if self.playing:
            self.stop()
        else:
            self.play()

    def play(self) -> None:
        """March the days one after another, through each day's hours."""
        if self.day == self.days[-1]:
            self.show_day(self.days[0])
        self._hour = 0
        self.buttons["play"].setText("■ Stop")
        self._timer.start()

    def stop(self) -> None:
        """Stop playing, on the day reached."""
        if self._timer.isActive():
            self._timer.stop()
            self.buttons["play"].setText("▶ Play")
            self.show_day(self.day)

    def _frame(self) -> None:
        """One hour of the day's march: each flag moved along its road towards where it stood
        at the next dawn; the day's battles flash; at the next dawn, the next day is shown."""
        index = self.days.index(self.day)
        if index >= len(self.days) - 1:
            self.stop()
            return
        self._hour += 1
        if self._hour >= HOURS:
            self._hour = 0
            self.show_day(self.days[index + 1])
            return
        self.march_to(self.days[index + 1], self._hour / HOURS)
        for item in self.scene.battles.values():
            item.setVisible(self._hour % 2 == 0)

    def march_to(self, following: date, fraction: float) -> None:
        """Draw each flag the given fraction of the way from where it stood on the day shown
        to where it stood on ``following``, along the towns of its route."""
        ahead = {s.key: s for s in self.markers_on(following)}
        routes = {c.name: c.route for c in self.status_on(self.day).commands}
        for key, item in self.scene.markers.items():
            spec = ahead.get(key)
            if spec is None:
                continue
            start = self.scene.place_point(item.spec.a, item.spec.b, item.spec.miles)
            end = self.scene.place_point(spec.a, spec.b, spec.miles)
            path = [start, *self._road(routes.get(key, ()), spec), end]
            item.setPos(along(path, fraction))

    def _road(self, route: tuple[str, ...], end: MarkerSpec) -> list[QPointF]:
        """The towns of a route passed on the way to where a command stood next (none when it
        did not march by its route: beaten and retreating, say)."""
        if end.a not in route and end.b not in route:
            return []
        towns = []
        for town in route:
            if town not in self.scene.towns:
                break
            if town in (end.a, end.b):
                break
            towns.append(self.scene.town_point(town))
        return towns


def umpire_markers(status: CampaignStatus,
                   flags: dict[str, tuple[str, str]]) -> list[MarkerSpec]:
    """The flags of every command on the map as the umpire saw them on a day."""
    return [marker_spec(c, *flags.get(c.name, (c.name, SIDE_COLOUR[c.side].name())))
            for c in status.commands if c.status is not Status.SURRENDERED]


class SideDay(NamedTuple):
    """What a side was shown on a day: the flags (its own, and the enemy as reported to it
    then) and its own depots and columns."""

    markers: list[MarkerSpec]
    supply: list[SupplySpec]


def side_day(doc: CampaignStore, side: Side, day: date) -> SideDay:
    """What a side was shown on a day, from its view of that day."""
    view = queries.side_view_on(doc, side, day)
    return SideDay([spec for spec, _faded in marker_specs(view)], supply_marks(view))


def day_markers(doc: CampaignStore, day: date, side: Side | None,
                theatre: Theatre | None = None) -> tuple[list[MarkerSpec], list[SupplySpec]]:
    """The flags of a day, and its depots and columns (the umpire's, of the army groups of
    ``theatre``), as the umpire (None) or a side saw them (the exported history's pictures)."""
    if side is not None:
        return side_day(doc, side, day)
    status = queries.status_on(doc, day)
    return umpire_markers(status, flag_names(doc.scenario())), supply_specs(status, theatre)


def battle_specs(battles: tuple[BattleView, ...]) -> list[BattleSpec]:
    """The battles of a day on the map, each titled with its result."""
    return [BattleSpec(b.id, b.place, format_date(b.date).rsplit(" ", 1)[0],
                       f"{b.title}: {b.result or 'no result yet'}") for b in battles]


def along(path: list[QPointF], fraction: float) -> QPointF:
    """The point a fraction of the way along a polyline (by its length)."""
    legs = [(a, b, ((b.x() - a.x()) ** 2 + (b.y() - a.y()) ** 2) ** 0.5)
            for a, b in zip(path, path[1:], strict=False)]
    total = sum(length for _a, _b, length in legs)
    if total == 0:
        return path[-1]
    left = fraction * total
    for a, b, length in legs:
        if left <= length and length > 0:
            t = left / length
            return QPointF(a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t)
        left -= length
    return path[-1]
