"""The brigades table: per brigade its casualties against the automatic-rout point, its morale
state and formation; per corps how many brigades are broken against its break point; and the
armies' standing in one line that is always in view."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from campaign1813.campaign.battle.ruleset1813.fight import label_of, standing
from campaign1813.campaign.battle.ruleset1813.rules.army import break_rules, brigade_broken
from campaign1813.campaign.battle.ruleset1813.rules.morale import rout_point
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.battle.terms import MoraleState

COLUMNS = ["Brigade", "Casualties", "Morale", "Formation"]
WORSE = {MoraleState.DISORDERED: "#8a5a00", MoraleState.SHAKEN: "#b34700",
         MoraleState.ROUT: "#a00000"}


def corps_standing(view: Any, corps: str) -> tuple[int, int, int]:
    """How many of a corps' brigades on the field are broken, of how many, and how many
    broken break it (the ruleset's share, rounded up)."""
    setup, state = view.setup, view.state
    army = standing(setup, state, setup.corps_of(corps).side)
    for c in army.corps:
        if c.name == corps:
            broken = sum(brigade_broken(b, setup.ruleset) for b in c.brigades)
            at = math.ceil(len(c.brigades) * break_rules(setup.ruleset).corps_breaks_at)
            return broken, len(c.brigades), at
    return 0, 0, 0


def corps_line(view: Any, corps: str) -> str:
    """``2 of 6 broken (breaks at 3)`` or ``BROKEN: 3 of 6 broken``."""
    broken, count, at = corps_standing(view, corps)
    if not count:
        return "no brigades on the field"
    if corps in view.broken_corps:
        return f"BROKEN: {broken} of {count} broken"
    return f"{broken} of {count} broken (breaks at {at})"


def army_line(view: Any) -> str:
    """Both armies' standing: how many corps broken, and whether an army has lost (for a
    ruleset without the 1813 corps morale: each side's units from the units table)."""
    setup = view.setup
    if not view.engine.chips:
        return generic_army_line(view)
    parts = []
    for side in (FRENCH, ALLIED):
        corps = [c.key for c in setup.side_corps(side) if view.state.corps[c.key].brigades]
        broken = [c for c in corps if c in view.broken_corps]
        text = f"{side}: {len(broken)} of {len(corps)} corps broken"
        if side in view.lost:
            text += " — ARMY BROKEN"
        parts.append(text)
    return " · ".join(parts)


def generic_army_line(view: Any) -> str:
    """``French: 7 units · Allied: 7 units — ARMY LOST`` from the units table's Side column."""
    table = view.units
    column = table.headers.index("Side") if "Side" in table.headers else None
    parts = []
    for side in (FRENCH, ALLIED):
        count = sum(1 for row in table.rows if column is not None and row[column] == side)
        text = f"{side}: {count} unit{'' if count == 1 else 's'}"
        if side in view.lost:
            text += " — ARMY LOST"
        parts.append(text)
    return " · ".join(parts)


class BrigadesTable(QTreeWidget):
    """Every corps and its brigades as they stand now."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setColumnCount(len(COLUMNS))
        self.setHeaderLabels(COLUMNS)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)

    def show_view(self, view: Any) -> None:
        """Fill the table from the battle now."""
        self.clear()
        setup, state = view.setup, view.state
        bold = QFont()
        bold.setBold(True)
        for c in setup.corps:
            now = state.corps[c.key]
            head = QTreeWidgetItem([f"{c.key} ({c.side}) — {corps_line(view, c.key)}"])
            head.setFirstColumnSpanned(True)
            head.setFont(0, bold)
            if c.key in view.broken_corps:
                head.setForeground(0, QBrush(QColor("#a00000")))
            self.addTopLevelItem(head)
            head.setFirstColumnSpanned(True)
            for key in now.brigades:
                b, bn = setup.brigade(key), state.brigades[key]
                point = rout_point(b.arm, setup.ruleset)
                morale = "off the table" if bn.removed else bn.state.value
                row = QTreeWidgetItem(head, [
                    label_of(setup, key).replace(f" ({c.key})", ""),
                    f"{bn.casualties} of {point}",
                    morale, bn.formation.value if bn.formation else ""])
                row.setData(0, 256, key)
                row.setToolTip(0, key)
                colour = WORSE.get(bn.state)
                if colour and not bn.removed:
                    row.setForeground(2, QBrush(QColor(colour)))
                if bn.casualties >= point - 1:
                    row.setForeground(1, QBrush(QColor("#a00000")))
            head.setExpanded(True)

    def row_of(self, key: str) -> list[str]:
        """The cells of a brigade's row (for tests and the keyboard)."""
        for i in range(self.topLevelItemCount()):
            head = self.topLevelItem(i)
            for j in range(head.childCount() if head is not None else 0):
                row = head.child(j) if head is not None else None
                if row is not None and row.data(0, 256) == key:
                    return [row.text(c) for c in range(self.columnCount())]
        raise KeyError(key)
