"""The day's report pane: what the umpire's actions did, read-only. (The diary's own window is
``diary_window.py``.)"""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QTextCharFormat
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.store.protocol import REPORT_MARK

KEPT_WITH_THE_BATTLE = "The battle's full report is kept with it: Campaign ▸ Diary links to it."

# the supply lines that say why a corps or an army went short, marked so they stand out:
# in red where men or stock were lost, in amber where an order was not carried out
ALARM = ("out of supply", "lost its depot", "days of supplies on the road")
SHORT = ("not resupplied", "its last day of supplies eaten", "No depot made at",
         "could not go")
ALARM_COLOUR, SHORT_COLOUR = "#b00020", "#8a5a00"


def supply_mark(line: str) -> str | None:
    """The colour a day's report line is marked in: a supply line saying why a corps or an
    army went short (red for men or stock lost, amber for an order not carried out), else
    None."""
    if any(word in line for word in ALARM):
        return ALARM_COLOUR
    if any(word in line for word in SHORT):
        return SHORT_COLOUR
    return None


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
        # plain lines go in together (each append lays the text out again)
        plain = [f"— {changes.label} —" if lines else changes.label]
        for line in lines:
            colour = supply_mark(line)
            if colour is None:
                plain.append(f"  {line}")
                continue
            if plain:
                self.appendPlainText("\n".join(plain))
                plain = []
            self.appendHtml(f'&nbsp;&nbsp;<b style="color:{colour}">{escape(line)}</b>')
            # the next plain line starts without the mark
            cursor = self.textCursor()
            cursor.movePosition(cursor.MoveOperation.End)
            cursor.setCharFormat(QTextCharFormat())
            self.setTextCursor(cursor)
        if note:
            plain.append(f"  {note}")
        if plain:
            self.appendPlainText("\n".join(plain))
        self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())
