"""The day's report pane and the campaign diary window, both read-only and non-modal."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from campaign1813.campaign.day.changes import Changes


class ReportPane(QPlainTextEdit):
    """What the umpire's latest actions did, newest at the bottom, as the diary will say it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setPlaceholderText("What each order, march and result does is reported here.")
        self.setMaximumBlockCount(2000)

    def show_changes(self, changes: Changes, note: str | None = None) -> None:
        """Add an action's label and its lines (and a closing note) to the report."""
        lines = [line for line in changes.lines if line != changes.label]
        self.appendPlainText(f"— {changes.label} —" if lines else changes.label)
        for line in lines:
            self.appendPlainText(f"  {line}")
        if note:
            self.appendPlainText(f"  {note}")
        self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())


class DiaryWindow(QWidget):
    """The campaign diary in its own window, kept up to date while it is open."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Campaign Diary")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        self.resize(760, 520)

    def show_text(self, text: str) -> None:
        """Show the diary, scrolled to its latest line."""
        self.text.setPlainText(text or "The diary is empty.")
        self.text.verticalScrollBar().setValue(self.text.verticalScrollBar().maximum())
