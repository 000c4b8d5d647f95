"""Campaign ▸ Diary: the diary in its own window, by theatre and dates, printed and exported.

The window shows the document the command line's ``export diary`` writes (``export.diary``),
for the theatre and the days chosen above it. A battle is one entry of its day, closed by a
link that opens the battle's full report (:attr:`DiaryWindow.report_requested`). Diary ▸
Print… and Export… put what is shown on paper (``document_paper``); Esc closes the window.
It is loaded when first opened, with the printing it brings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from html import escape
from itertools import groupby
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.export.diary import DiaryFilter, chosen_entries, diary_document
from campaign1813.campaign.export.document import Document
from campaign1813.campaign.queries import DiaryEntry
from campaign1813.maps.types import Theatre
from campaign1813.ui.document_paper import PaperActions

REPORT_SCHEME = "report"  # a link to battle N's full report: report:N


def diary_markup(entries: Sequence[DiaryEntry]) -> str:
    """The diary's entries as HTML for the window: a heading a day, a paragraph an entry (the
    lines of one action), a battle's report as a link."""
    out: list[str] = []
    for day, of_day in groupby(entries, key=lambda e: e.day):
        out.append(f"<h3>{escape(format_date(day))}</h3>")
        for _seq, action in groupby(of_day, key=lambda e: e.seq):
            parts = []
            for entry in action:
                text = escape(entry.text)
                if entry.report is not None:
                    text = f'<a href="{REPORT_SCHEME}:{entry.report}">{text}</a>'
                parts.append(text)
            out.append(f"<p>{'<br>'.join(parts)}</p>")
    return "\n".join(out) or "<p>Nothing in the diary for these days.</p>"


class DiaryWindow(QMainWindow):
    """The campaign diary in its own window, kept up to date while it is open."""

    report_requested = Signal(int)  # a battle's number: its full report was asked for

    def __init__(self, folder: Callable[[], Path], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.setWindowTitle("Campaign Diary")
        self.entries: list[DiaryEntry] = []
        self.places: Mapping[str, Theatre] = {}
        self.campaign = ""
        self.theatre = QComboBox()
        self.theatre.addItem("Every theatre", None)
        for t in Theatre:
            self.theatre.addItem(t.value, t.value)  # Qt keeps a theatre as its name
        self.since = QComboBox()
        self.until = QComboBox()
        for box in (self.theatre, self.since, self.until):
            box.currentIndexChanged.connect(self._on_filter)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._on_link)
        self.paper = PaperActions(self, "the diary", self.document, folder,
                                  lambda text: self.statusBar().showMessage(text))
        menu = self.menuBar().addMenu("&Diary")
        menu.addAction(self.paper.print_action)
        menu.addAction(self.paper.export_action)
        menu.addSeparator()
        self.close_action = QAction("&Close", self)
        self.close_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Close))
        self.close_action.triggered.connect(lambda _c=False: self.close())
        self.close_action.setToolTip("Close the diary (Esc)")
        menu.addAction(self.close_action)
        row = QHBoxLayout()
        for label, box in (("&Theatre", self.theatre), ("&From", self.since),
                           ("T&o", self.until)):
            name = QLabel(label)
            name.setBuddy(box)
            row.addWidget(name)
            row.addWidget(box)
        row.addStretch(1)
        for action in (self.paper.print_action, self.paper.export_action):
            button = QPushButton(action.text().replace("&", ""))
            button.setToolTip(action.toolTip())
            button.clicked.connect(action.trigger)
            row.addWidget(button)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 2)
        layout.addLayout(row)
        layout.addWidget(self.text, 1)
        self.setCentralWidget(body)
        self.resize(820, 600)

    # ----- what is shown -------------------------------------------------------------------
    def show_diary(self, entries: Sequence[DiaryEntry], places: Mapping[str, Theatre],
                   campaign: str) -> None:
        """Show the diary (the part the filters choose), scrolled to its latest entry."""
        self.entries, self.places, self.campaign = list(entries), places, campaign
        days = list(dict.fromkeys(e.day for e in self.entries))
        for box, first in ((self.since, "the first day"), (self.until, "the last day")):
            kept = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(first, None)
            for day in days:
                box.addItem(format_date(day), day)
            at = box.findData(kept) if kept is not None else 0
            box.setCurrentIndex(max(at, 0))
            box.blockSignals(False)
        self._show()

    @property
    def chosen(self) -> DiaryFilter:
        """The theatre and the days chosen above the diary; a range the wrong way round is
        read as the one day it starts from onwards."""
        since: date | None = self.since.currentData()
        until: date | None = self.until.currentData()
        if since is not None and until is not None and since > until:
            until = None
        theatre = self.theatre.currentData()
        return DiaryFilter(Theatre(theatre) if theatre else None, since, until)

    def document(self) -> Document:
        """The part of the diary shown, as the document that is printed and exported."""
        return self._document(self.chosen)

    def _document(self, chosen: DiaryFilter) -> Document:
        return diary_document(self.entries, campaign=self.campaign, places=self.places,
                              chosen=chosen)

    def _show(self) -> None:
        shown = chosen_entries(self.entries, places=self.places, chosen=self.chosen)
        self.text.setHtml(diary_markup(shown) if self.entries
                          else "<p>The diary is empty.</p>")
        self.text.verticalScrollBar().setValue(self.text.verticalScrollBar().maximum())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        """Esc closes the diary, wherever the focus is in it."""
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)

    def _on_filter(self, _index: int) -> None:
        self._show()

    def _on_link(self, url: QUrl) -> None:
        if url.scheme() == REPORT_SCHEME and url.path().isdigit():
            self.report_requested.emit(int(url.path()))
