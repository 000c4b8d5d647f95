"""The battle report as it grows, in the seed's form: the battle, each turn, each move under
its heading (``Move 2 – Prussian – I Prussian Corps (chip 8)``), every roll with its number, and
the tests a result calls for set in under the line that called for them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QTextBrowser, QWidget

# A heading is a turn, a numbered move, nightfall or the result; an umpire's note such as
# "Move forward, artillery unlimber" (seed 000's own words) stays a line of its move.
TURN = re.compile(r"^Turn \d+ of \d+$")
HEADING = re.compile(r"^(Move \d+ – |Night falls|Result:|At nightfall|The umpire decides)")


def report_markup(lines: Sequence[str], compact: bool = False) -> str:
    """The report's lines as HTML for the window.

    >>> report_markup(["The battle of X", "Rules: 1813", "French: 5 Corps", "Allied: I Corps",
    ...                "Turn 1 of 12", "Move 1 – French – 5 Corps (chip 1)",
    ...                "Move forward", "  morale test for 2 Brigade"]).count("<li")
    5
    """
    if not lines:
        return ""
    title = f"<p><b>{escape(lines[0])}</b></p>" if compact else f"<h2>{escape(lines[0])}</h2>"
    out = [title, "<ul>"]
    out += [f"<li>{escape(x)}</li>" for x in lines[1:4]]
    out.append("</ul>")
    open_list = False
    for line in lines[4:]:
        if TURN.match(line) or HEADING.match(line):
            if open_list:
                out.append("</ul>")
                open_list = False
            out.append(f"<h3>{escape(line)}</h3>" if TURN.match(line)
                       else f"<p><b>{escape(line)}</b></p>")
            continue
        if not open_list:
            out.append("<ul>")
            open_list = True
        if line.startswith("  "):
            out.append(f'<li style="margin-left:1.5em; color:#555">{escape(line.strip())}'
                       "</li>")
        else:
            out.append(f"<li>{escape(line)}</li>")
    if open_list:
        out.append("</ul>")
    return "\n".join(out)


class ReportView(QTextBrowser):
    """The live report, scrolled to its latest line."""

    def __init__(self, compact: bool = False, parent: QWidget | None = None):
        super().__init__(parent)
        self.compact = compact
        self.lines: list[str] = []

    def show_lines(self, lines: Sequence[str]) -> None:
        """Show the report's lines (only when they changed)."""
        if list(lines) == self.lines:
            return
        self.lines = list(lines)
        self.setHtml(report_markup(self.lines, self.compact))
        # the document is laid out lazily: go to its end once it has been
        QTimer.singleShot(0, self._to_end)

    def _to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())
