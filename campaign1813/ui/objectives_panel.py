"""The objectives of each theatre and who holds their towns, since when, as the campaign's
read model gives them (``CampaignStatus.objectives``), shown again whenever they change.

A theatre's row says which side, if either, has met every one of its objectives there; an
objective's row whether it is met and since when; a town's row its holder and since when
("from the start" when it has been held since the campaign began, "nobody" when no side has
held it yet).
"""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.objectives import ObjectiveState, TownHeld, theatre_met
from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.types import Theatre
from campaign1813.ui.open_campaign import OpenCampaign, Update

SIDE_COLOURS = {Side.FRENCH: "#1f3f8f", Side.ALLIED: "#8f1f1f"}
COLUMNS = ("Objective / town", "Held by / met", "Since")


def town_row(t: TownHeld) -> tuple[str, str, str]:
    """A town's cells: its name, its holder, since when."""
    if t.holder is None:
        return t.town, "nobody", ""
    return t.town, t.holder.value, format_date(t.since) if t.since else "from the start"


def objective_row(o: ObjectiveState) -> tuple[str, str, str]:
    """An objective's cells: its side and words, whether met, since when."""
    since = ""
    if o.met:
        since = format_date(o.since) if o.since else "from the start"
    return (f"{o.objective.side.value}: {o.objective.description}",
            "met" if o.met else "not met", since)


class ObjectivesPanel(QWidget):
    """The objectives by theatre, with their towns' holders; refreshed when they change, or,
    while the panel is not seen (a tab behind the day's report: :meth:`set_seen`), when it is
    next seen."""

    def __init__(self, campaign: OpenCampaign, parent: QWidget | None = None):
        super().__init__(parent)
        self.campaign = campaign
        self.tree = QTreeWidget()
        self.tree.setObjectName("objectives")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(False)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        self._shown: tuple[ObjectiveState, ...] | None = None
        self._seen = True
        campaign.opened.connect(self._later)
        campaign.changed.connect(self._on_changed)
        self._later()

    def _later(self) -> None:
        """Refresh now if the panel is seen, else when it is next seen."""
        self._stale = True
        if self._seen:
            self.refresh()

    def set_seen(self, seen: bool) -> None:
        """Whether the umpire can see the panel now (its dock's tab is in front)."""
        self._seen = seen
        if seen and self._stale:
            self.refresh()

    def refresh(self) -> None:
        """Show the objectives as the campaign now has them (nothing is redrawn if the same)."""
        self._stale = False
        status = self.campaign.status
        objectives = status.objectives if status is not None else ()
        if objectives == self._shown:
            return
        self._shown = objectives
        self.tree.clear()
        for theatre in Theatre:
            mine = [o for o in objectives if o.objective.theatre is theatre]
            if not mine:
                continue
            met = [s.value for s in Side if theatre_met(objectives, theatre, s)]
            group = QTreeWidgetItem([theatre.value,
                                     f"{' and '.join(met)}: all met" if met else "", ""])
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            self.tree.addTopLevelItem(group)
            for o in mine:
                row = QTreeWidgetItem(group, list(objective_row(o)))
                row.setToolTip(0, o.text())
                row.setForeground(0, QBrush(QColor(SIDE_COLOURS[o.objective.side])))
                for t in o.towns:
                    cells = town_row(t)
                    town = QTreeWidgetItem(row, list(cells))
                    if t.holder is not None:
                        town.setForeground(1, QBrush(QColor(SIDE_COLOURS[t.holder])))
        self.tree.expandAll()

    def rows(self) -> list[tuple[int, tuple[str, str, str]]]:
        """Every row shown, with its depth (0 theatre, 1 objective, 2 town), top to bottom
        (brought up to date first, if the panel was hidden)."""
        if self._stale:
            self.refresh()
        out: list[tuple[int, tuple[str, str, str]]] = []

        def walk(item: QTreeWidgetItem | None, depth: int) -> None:
            if item is None:
                return
            out.append((depth, (item.text(0), item.text(1), item.text(2))))
            for i in range(item.childCount()):
                walk(item.child(i), depth + 1)

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i), 0)
        return out

    def _on_changed(self, _update: Update) -> None:
        self._later()
