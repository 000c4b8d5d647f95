"""The day's report pane: what the umpire's actions did, read-only. (The diary's own window is
``diary_window.py``.)"""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QWidget

from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.store.protocol import REPORT_MARK

KEPT_WITH_THE_BATTLE = "The battle's full report is kept with it: Campaign ▸ Diary links to it."


class ReportPane(QPlainTextEdit):
    """What the umpire's latest actions did, newest at the bottom, as the diary will say it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setPlaceholderText("What each order, march and result does is reported here.")
        self.setMaximumBlockCount(2000)

    def show_changes(self, changes: Changes, note: str | None = None) -> None:
        """Add an action's label and its lines (and a closing note) to the report; a battle's
        steps and its full report stay with the battle, as in the diary."""
        if changes.battle_step:
            return
        lines = [line for line in changes.lines if line != changes.label]
        if REPORT_MARK in lines:
            lines = [*lines[:lines.index(REPORT_MARK)], KEPT_WITH_THE_BATTLE]
        self.appendPlainText(f"— {changes.label} —" if lines else changes.label)
        for line in lines:
            self.appendPlainText(f"  {line}")
        if note:
            self.appendPlainText(f"  {note}")
        self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())
