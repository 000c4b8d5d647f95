"""A battle's full report in a window of its own, opened from the diary's link to it.

The report is read with ``queries.battle_report`` (the one the result was given with, or the
report so far of a battle still on the table), shown as the battle window shows it, and put on
paper from Report ▸ Print… and Export… as ``export report`` writes it; Esc closes the window.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QWidget

from campaign1813.campaign import queries
from campaign1813.campaign.errors import CampaignError
from campaign1813.ui.battle.report_view import ReportView
from campaign1813.ui.document_paper import PaperActions, campaign_folder, report_document
from campaign1813.ui.open_campaign import OpenCampaign


class ReportWindow(QMainWindow):
    """One battle's full report, move by move, with Print… and Export…."""

    def __init__(self, campaign: OpenCampaign, battle: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.campaign = campaign
        self.battle = battle
        self.report = ReportView()
        self.setCentralWidget(self.report)
        self.paper = PaperActions(self, "the battle report",
                                  lambda: report_document(campaign, battle),
                                  lambda: campaign_folder(campaign),
                                  lambda text: self.statusBar().showMessage(text))
        menu = self.menuBar().addMenu("&Report")
        menu.addAction(self.paper.print_action)
        menu.addAction(self.paper.export_action)
        menu.addSeparator()
        close = QAction("&Close", self)
        close.setShortcut(QKeySequence(QKeySequence.StandardKey.Close))
        close.triggered.connect(lambda _c=False: self.close())
        menu.addAction(close)
        self.resize(760, 640)
        self._document = campaign.document
        campaign.changed.connect(self._on_changed)
        campaign.opened.connect(self._on_opened)
        self.refresh()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        """Esc closes the report, wherever the focus is in it."""
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)

    def _on_changed(self, _update: object) -> None:
        if self.campaign.document is self._document:
            self.refresh()  # an undone result gives the report so far back, and so on

    def _on_opened(self) -> None:
        if self.campaign.document is not self._document:
            self.close()  # another campaign is open: this battle is not in it

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        try:
            self.campaign.changed.disconnect(self._on_changed)
            self.campaign.opened.disconnect(self._on_opened)
        except (RuntimeError, TypeError):  # already gone with the campaign
            pass
        super().closeEvent(event)

    def refresh(self) -> None:
        """Read the report again and show it."""
        doc = self.campaign.document
        if doc is None:
            return
        try:
            report = queries.battle_report(doc, self.battle)
        except CampaignError as exc:
            self.setWindowTitle(f"Battle {self.battle} — no report")
            self.report.setPlainText(str(exc))
            return
        self.setWindowTitle(f"Battle report: {report.heading}")
        lines = list(report.lines)
        if not lines or lines[0].casefold() != report.title.casefold():
            lines.insert(0, report.heading)  # an auto-resolved report opens at its first turn
        self.report.show_lines(lines)
        # read from the diary, a report opens at its beginning (the battle window's follows
        # its latest line)
        QTimer.singleShot(0, self, lambda: self.report.verticalScrollBar().setValue(0))
