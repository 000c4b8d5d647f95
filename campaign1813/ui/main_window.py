"""The main window: menus, the campaign overview, the status bar, recent files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from campaign1813 import __version__
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.document import (
    SUFFIX,
    CampaignDocument,
    create_campaign,
    open_campaign,
    save_campaign_as,
)
from campaign1813.campaign.errors import CampaignError
from campaign1813.ui.campaign_view import CampaignView

APP_TITLE = "1813 Campaign Umpire"
MAX_RECENT = 8
FILE_FILTER = f"1813 campaigns (*{SUFFIX})"


class MainWindow(QMainWindow):
    """The umpire's main window over one open campaign file."""

    document_changed = Signal()
    error_reported = Signal(str)

    def __init__(self, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self.document: CampaignDocument | None = None
        self._message_box: QMessageBox | None = None
        self.campaign_view = CampaignView(self)
        shown = self._settings.value("view/theatre")
        if shown:
            self.campaign_view.theatres.setCurrentText(str(shown))
        self.campaign_view.theatre_changed.connect(
            lambda text: self._settings.setValue("view/theatre", text))
        self.setCentralWidget(self.campaign_view)
        self._build_menus()
        self.statusBar().showMessage("Ready")
        geometry = self._settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1100, 720)
        self._refresh()

    # ----- menus -------------------------------------------------------------------------
    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.new_action = self._action(self.file_menu, "&New Campaign…", self._on_new,
                                       QKeySequence.StandardKey.New)
        self.open_action = self._action(self.file_menu, "&Open…", self._on_open,
                                        QKeySequence.StandardKey.Open)
        self.recent_menu = self.file_menu.addMenu("Open &Recent")
        self.file_menu.addSeparator()
        self.save_as_action = self._action(self.file_menu, "Save &As…", self._on_save_as,
                                           QKeySequence.StandardKey.SaveAs)
        self.file_menu.addSeparator()
        self._action(self.file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        self.campaign_menu = bar.addMenu("&Campaign")
        self.details_action = self._action(self.campaign_menu, "Campaign &Details…",
                                           self._on_details)

        self.battle_menu = bar.addMenu("&Battle")
        self.battle_menu.aboutToShow.connect(self._rebuild_battle_menu)

        self.help_menu = bar.addMenu("&Help")
        self._action(self.help_menu, f"&About {APP_TITLE}", self._on_about)

    def _action(self, menu, text, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # ----- documents ---------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        """Open a campaign file; on refusal report why and keep the current campaign."""
        try:
            doc = open_campaign(path)
        except CampaignError as exc:
            self.report_error(f"Cannot open campaign: {exc}")
            self._prune_recent(path)
            return False
        self._set_document(doc)
        return True

    def new_campaign(self, path: str | Path) -> bool:
        """Create a new campaign file from the 1813 scenario and open it."""
        path = Path(path)
        if path.suffix != SUFFIX:
            path = path.with_name(path.name + SUFFIX)
        try:
            doc = create_campaign(path, overwrite=True)
        except (CampaignError, OSError) as exc:
            self.report_error(f"Cannot create campaign: {exc}")
            return False
        self._set_document(doc)
        return True

    def save_as(self, path: str | Path) -> bool:
        """Copy the open campaign to a new file and continue in the copy."""
        if self.document is None:
            return False
        path = Path(path)
        if path.suffix != SUFFIX:
            path = path.with_name(path.name + SUFFIX)
        try:
            doc = save_campaign_as(self.document, path)
        except (CampaignError, OSError) as exc:
            self.report_error(f"Cannot save campaign: {exc}")
            return False
        self._set_document(doc)
        return True

    def _set_document(self, doc: CampaignDocument) -> None:
        if self.document is not None and self.document is not doc:
            self.document.close()
        self.document = doc
        self._remember_recent(doc.path)
        self._settings.setValue("files/last", str(doc.path))
        self.statusBar().showMessage(f"Opened {doc.path} — every change is saved as it is made")
        self._refresh()
        self.document_changed.emit()

    def report_error(self, message: str) -> None:
        """Tell the umpire what went wrong, in a window-modal box that does not block."""
        self.statusBar().showMessage(message)
        self.error_reported.emit(message)
        box = QMessageBox(QMessageBox.Icon.Warning, APP_TITLE, message,
                          QMessageBox.StandardButton.Ok, self)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self._message_box = box

    # ----- recent files ------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """The recently opened campaign files, newest first."""
        value = self._settings.value("files/recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _remember_recent(self, path: Path) -> None:
        entry = str(Path(path).resolve())
        files = [f for f in self.recent_files() if f != entry]
        files.insert(0, entry)
        self._settings.setValue("files/recent", files[:MAX_RECENT])
        self._rebuild_recent_menu()

    def _prune_recent(self, path: str | Path) -> None:
        entry = str(Path(path).resolve())
        if not Path(entry).exists() and entry in self.recent_files():
            self._settings.setValue("files/recent", [f for f in self.recent_files() if f != entry])
            self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for i, name in enumerate(files, start=1):
            action = self.recent_menu.addAction(f"&{i} {Path(name).name}  —  {name}")
            action.setData(name)
            action.triggered.connect(lambda _checked=False, n=name: self.open_file(n))
        if not files:
            empty = self.recent_menu.addAction("No recent campaigns")
            empty.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction("Clear Recent")
            clear.triggered.connect(self._on_clear_recent)

    def _on_clear_recent(self) -> None:
        self._settings.setValue("files/recent", [])
        self._rebuild_recent_menu()

    def battles_due(self) -> list[str]:
        """The battles of the campaign still to be fought, as the Battle menu lists them."""
        snapshot = self.campaign_view.snapshot
        if snapshot is None:
            return []
        return [f"{b['id']}. {b['place']}: {', '.join(b['french'])} against "
                f"{', '.join(b['allied'])}"
                for b in snapshot.status["battles"] if b["result"] is None]

    def _rebuild_battle_menu(self) -> None:
        self.battle_menu.clear()
        due = self.battles_due()
        if not due:
            self.battle_menu.addAction("No battles are due").setEnabled(False)
            return
        heading = self.battle_menu.addAction("Battles to fight (record results with "
                                             "'campaign1813 result'):")
        heading.setEnabled(False)
        for line in due:
            self.battle_menu.addAction(line).setEnabled(False)

    # ----- view --------------------------------------------------------------------------
    def _refresh(self) -> None:
        self.campaign_view.show_document(self.document)
        has_doc = self.document is not None
        self.save_as_action.setEnabled(has_doc)
        self.details_action.setEnabled(has_doc)
        self._rebuild_recent_menu()
        if has_doc:
            s = self.document.summary()
            self.setWindowTitle(f"{s.name} — {format_date(s.current_date)} — {APP_TITLE}")
        else:
            self.setWindowTitle(APP_TITLE)

    def _start_folder(self) -> str:
        if self.document is not None:
            return str(self.document.path.parent)
        return str(Path.home())

    def _on_new(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "New Campaign", self._start_folder(),
                                              FILE_FILTER)
        if path:
            self.new_campaign(path)

    def _on_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open Campaign", self._start_folder(),
                                              FILE_FILTER)
        if path:
            self.open_file(path)

    def _on_save_as(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save Campaign As", self._start_folder(),
                                              FILE_FILTER)
        if path:
            self.save_as(path)

    def _on_details(self) -> None:
        if self.document is None:
            return
        s = self.document.summary()
        settings = self.document.settings().get("campaign", {})
        lines = [f"<b>{s.name}</b>", f"Today: {format_date(s.current_date)}",
                 f"Began: {format_date(s.start_date)}", f"File: {self.document.path}"]
        lines += [f"{k.replace('_', ' ')}: {v}" for k, v in settings.items()
                  if k not in ("name", "start_date")]
        QMessageBox.information(self, "Campaign Details", "<br>".join(lines))

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            f"About {APP_TITLE}",
            f"<b>{APP_TITLE}</b> {__version__}<br><br>"
            "The umpire's tool for the 1813 campaign: the road map of five theatres, "
            "ten army groups, the campaign day, and the battles that follow.",
        )

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self._settings.setValue("window/geometry", self.saveGeometry())
        if self.document is not None:
            self.document.close()
        super().closeEvent(event)
