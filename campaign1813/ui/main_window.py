"""The main window: the campaign overview, order entry, the day's report and the objectives,
under its menus (:mod:`campaign1813.ui.menus`).

Every umpire action goes the same way, from here, the map, the pad, the dialogs or the battle
window: one campaign service run on the open file (:class:`~campaign1813.ui.operation.Operation`),
whose ``Changes`` go to the open campaign, which re-reads just what they name and tells each view
(:meth:`MainWindow._on_changed` for the window's own parts). A refusal that no view shows
itself is told here (:meth:`MainWindow.report_error`). Undo and Redo work on the file's event
log (:class:`~campaign1813.ui.undo.UndoHistory`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import structs
from PySide6.QtCore import QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMessageBox, QWidget

from campaign1813.campaign import queries
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.settings import shown
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.queries import RoutePreview
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import (
    SUFFIX,
    CampaignDocument,
    backup_campaign,
    create_campaign,
    open_campaign,
    restore_campaign,
    save_campaign_as,
)
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.ui import APP_TITLE
from campaign1813.ui.day_windows import ReportPane
from campaign1813.ui.map.view import CampaignView
from campaign1813.ui.menus import Menus
from campaign1813.ui.objectives_panel import ObjectivesPanel
from campaign1813.ui.open_campaign import OpenCampaign, Update
from campaign1813.ui.operation import Operation, Service, day_service
from campaign1813.ui.orders_panel import OrdersPanel
from campaign1813.ui.supply_orders import AttritionDialog, ask_attrition, owed
from campaign1813.ui.undo import UndoHistory

# What only a menu command opens is loaded when it is first asked for, not before the window is
# shown: the battle window (it brings the battle engine), the battle and settings dialogs, the
# setup sheet and the orders-of-battle printing.
# The day's rules, with the campaign services that apply them, come with the first action
# (ui/operation.py's day_service, or loaded behind the shown window, ui/app.py): the window
# shows the campaign without them.
if TYPE_CHECKING:
    from campaign1813.campaign.day.actions import IssueOrder
    from campaign1813.campaign.store.notice import Notice
    from campaign1813.ui.battle import BattleWindow
    from campaign1813.ui.battle_dialogs import BattleDialog
    from campaign1813.ui.club import ClubWatch, OpenClubDialog
    from campaign1813.ui.diary_window import DiaryWindow
    from campaign1813.ui.history_panel import HistoryPanel
    from campaign1813.ui.report_window import ReportWindow
    from campaign1813.ui.reports_dialog import ReportsDialog
    from campaign1813.ui.settings_dialog import SettingsDialog
    from campaign1813.ui.side_window import SideWindow

__all__ = ["APP_TITLE", "MainWindow"]

WATCH_MS = 1500  # how often the window looks whether another program changed its file
ANOTHER = " (in another window or program)"  # after the label of another client's action


class MainWindow(QMainWindow):
    """The umpire's main window over one open campaign file."""

    document_changed = Signal()
    error_reported = Signal(str)
    campaign_changed = Signal(object)  # the Changes of the action, undo or redo

    def __init__(self, settings: QSettings, parent: QWidget | None = None,
                 defer_map: bool = False):
        """``defer_map``: draw the map only once the window has been shown (the application's
        start: see ``CampaignView``)."""
        super().__init__(parent)
        self._settings = settings
        self.campaign = OpenCampaign(self)
        self.campaign.refused.connect(self._on_refused)
        # how the umpire is asked for an attrition brigade (the dialog's exec, unless replaced)
        self.ask_brigade: Callable[[AttritionDialog], int | None] | None = None
        self._message_box: QMessageBox | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.battle_dialog: BattleDialog | None = None
        self.history = UndoHistory(self.campaign, self)
        self.undo_action, self.redo_action = self.history.undo_action, self.history.redo_action
        self.diary_window: DiaryWindow | None = None
        self.report_windows: dict[int, ReportWindow] = {}  # battles' reports opened from the diary
        self.battle_windows: dict[int, BattleWindow] = {}  # the battles open at the table
        self.side_windows: dict[Side, SideWindow] = {}  # View ▸ As the French / the Allies
        self.reports_dialog: ReportsDialog | None = None
        self.history_dock: QDockWidget | None = None  # Campaign ▸ History, while it is open
        self.campaign_view = CampaignView(self.campaign, self, settings=self._settings,
                                          defer_map=defer_map)
        self.campaign_view.battle_wanted.connect(self._on_battle_wanted)
        theatre = self._settings.value("view/theatre")
        if theatre:
            self.campaign_view.theatres.setCurrentText(str(theatre))
        self.campaign_view.theatre_changed.connect(
            lambda text: self._settings.setValue("view/theatre", text))
        self.setCentralWidget(self.campaign_view)
        self.orders_panel = OrdersPanel(self.campaign, self.campaign_view, self.preview_route)
        self.orders_panel.refused.connect(self._on_refused_on_pad)
        self.orders_dock = self._dock("Orders", self.orders_panel,
                                      Qt.DockWidgetArea.BottomDockWidgetArea)
        self.report_pane = ReportPane()
        self.report_dock = self._dock("Day's Report", self.report_pane,
                                      Qt.DockWidgetArea.BottomDockWidgetArea)
        # the pad and the report share the bottom, so the map and the table keep the width
        self.splitDockWidget(self.orders_dock, self.report_dock, Qt.Orientation.Horizontal)
        self.resizeDocks([self.orders_dock, self.report_dock], [380, 700],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.orders_dock], [250], Qt.Orientation.Vertical)
        self.objectives_panel = ObjectivesPanel(self.campaign)
        self.objectives_dock = self._dock("Objectives", self.objectives_panel,
                                          Qt.DockWidgetArea.BottomDockWidgetArea)
        # a tab beside the day's report: the report comes forward after End Day
        self.tabifyDockWidget(self.report_dock, self.objectives_dock)
        self.report_dock.raise_()
        self.objectives_panel.set_seen(False)  # filled when its tab comes forward
        self.objectives_dock.visibilityChanged.connect(self.objectives_panel.set_seen)
        self.menus = Menus(self, settings)
        self.statusBar().showMessage("Ready")
        geometry = self._settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:  # the first start: most of the screen, centred on it
            area = self.screen().availableGeometry()
            self.resize(first_size(area.size()))
            frame = self.frameGeometry()
            frame.moveCenter(area.center())
            self.move(frame.topLeft())
        docks = self._settings.value("window/state")
        if docks is not None:
            self.restoreState(docks)
        self._seen_version: int | None = None
        self.campaign.opened.connect(self._on_opened)
        self.campaign.changed.connect(self._on_changed)
        self._on_opened()
        # another window or the command line may write the open file: look now and then
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._on_watch)
        self._watch.start()
        # a server campaign is not polled: its notifications wake the window (ui/club.py)
        self.club_address = ""
        self._club_watch: ClubWatch | None = None
        self._told_by_another = False  # while a change another client made is shown
        self._another_ended: date | None = None  # ... and the day its End Day reported on
        # how the umpire is asked again for a club's address and password (the dialog's
        # exec, unless replaced)
        self.ask_club: Callable[[OpenClubDialog], int] | None = None

    @property
    def document(self) -> CampaignStore | None:
        """The open campaign (a file, or a club's on a server), if any."""
        return self.campaign.document

    @property
    def file(self) -> CampaignDocument | None:
        """The open campaign's file, if it is a file (None for a server campaign)."""
        doc = self.campaign.document
        return doc if isinstance(doc, CampaignDocument) else None

    def _not_for_server(self, what: str) -> bool:
        if self.document is not None:
            self.report_error(f"{what} is for a campaign file; a server campaign is copied "
                              "with 'campaign1813 pull URL FILE'")
        return False

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.replace("'", "").replace(" ", "") + "Dock")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # ----- documents ---------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        """Open a campaign file; on refusal report why and keep the current campaign."""
        try:
            doc = open_campaign(path)
        except CampaignError as exc:
            self.report_error(f"Cannot open campaign: {exc}")
            self.menus.forget_if_gone(path)
            return False
        self._set_document(doc)
        return True

    def new_campaign(self, path: str | Path, *, replace: bool | None = None) -> bool:
        """Create a new campaign file from the 1813 scenario and open it. An existing file is
        replaced only if ``replace`` says so, or (for None) the umpire says so when asked."""
        path = _campaign_path(path)
        if self.file is not None and path.exists() and path.samefile(self.file.path):
            self.report_error(f"Cannot create campaign: {path} is the campaign open now; "
                              "choose another name")
            return False
        if not self._may_replace(path, replace):
            return False
        try:
            doc = create_campaign(path, overwrite=path.exists())
        except (CampaignError, OSError) as exc:
            self.report_error(f"Cannot create campaign: {exc}")
            return False
        self._set_document(doc)
        return True

    def save_as(self, path: str | Path, *, replace: bool | None = None) -> bool:
        """Copy the open campaign to a new file and continue in the copy (an existing file is
        replaced as for a new campaign)."""
        if self.file is None:
            return self._not_for_server("Save As")
        path = _campaign_path(path)
        if path.exists() and path.samefile(self.file.path):
            return True
        if not self._may_replace(path, replace):
            return False
        try:
            doc = save_campaign_as(self.file, path, overwrite=path.exists())
        except (CampaignError, OSError) as exc:
            self.report_error(f"Cannot save campaign: {exc}")
            return False
        self._set_document(doc)
        return True

    def back_up(self, path: str | Path, *, replace: bool | None = None) -> bool:
        """Write a whole, consistent copy of the open campaign and go on working in this one."""
        if self.file is None:
            return self._not_for_server("Back Up")
        path = _campaign_path(path)
        if not self._may_replace(path, replace):
            return False
        try:
            backup_campaign(self.file, path, overwrite=path.exists())
        except (CampaignError, OSError) as exc:
            self.report_error(f"Cannot back up the campaign: {exc}")
            return False
        self.statusBar().showMessage(f"Backed up to {path}")
        return True

    def restore_from_backup(self, backup: str | Path, *, confirm: bool | None = None) -> bool:
        """Put a backup in the place of the open campaign (``campaign1813 restore``): the
        campaign as it is now is kept beside it as ``NAME.before-restore``, journal and all,
        and the backup is opened. ``confirm`` None asks the umpire first."""
        doc = self.file
        if doc is None:
            return self._not_for_server("Restore From Backup")
        backup, path = Path(backup), doc.path
        if confirm is None:
            answer = QMessageBox.question(
                self, "Restore From Backup",
                f"Put {backup.name} in the place of {path.name}?\n\nThe campaign as it is now "
                f"is kept beside it as {path.name}.before-restore.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            confirm = answer == QMessageBox.StandardButton.Yes
        if not confirm:
            return False
        doc.close()  # the file is replaced only once no connection of ours holds it
        try:
            aside = restore_campaign(backup, path)
            restored = open_campaign(path)
        except (CampaignError, OSError) as exc:
            self.report_error(f"Cannot restore {backup}: {exc}")
            self.open_file(path)  # the campaign as it was, which the refusal left in place
            return False
        self._set_document(restored)
        kept = f"; the campaign as it was is kept as {aside.name}" if aside else ""
        self.statusBar().showMessage(f"Restored {backup}{kept}")
        return True

    def _may_replace(self, path: Path, replace: bool | None) -> bool:
        """Whether a file may be written at ``path``: always if there is none; otherwise as
        ``replace`` says, or as the umpire answers when asked."""
        if not path.exists():
            return True
        if replace is None:
            answer = QMessageBox.question(
                self, APP_TITLE, f"{path.name} already exists in {path.parent}.\n"
                                 "Do you want to replace it?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            replace = answer == QMessageBox.StandardButton.Yes
        return replace

    def _on_watch(self) -> None:
        self.check_for_changes()

    def check_for_changes(self) -> bool:
        """Read the file again if another window or program has written it since; returns
        whether it had."""
        doc = self.file
        if doc is None:  # a server campaign is heard of by its notifications, never polled
            return False
        if doc.replaced():
            self._open_again(doc)
            return True
        try:
            version = doc.data_version()
        except Exception:  # a file gone or unreadable is reported when next used
            return False
        if self._seen_version is None or version == self._seen_version:
            self._seen_version = version
            return False
        try:
            self.campaign.reload()
        except CampaignError as exc:
            self.report_error(f"The campaign was changed elsewhere and cannot be read: {exc}")
            return False
        self.statusBar().showMessage(
            "The campaign was changed in another window or program; it is shown as it is now")
        return True

    def _open_again(self, doc: CampaignDocument) -> None:
        """The file was replaced on disk (a backup or an export written over it by another
        program) or removed: open what the name holds now, or close the campaign, and say so."""
        path = doc.path
        doc.close()
        try:
            fresh = open_campaign(path)
        except CampaignError as exc:
            self.campaign.open(None)
            self.report_error(f"The campaign file {path} was replaced or removed by another "
                              f"program and cannot be opened again ({exc}); it is closed.")
            return
        self._set_document(fresh)
        self.report_error(f"The campaign file {path} was replaced on disk by another program; "
                          "it has been opened again and is shown as it is now.")

    def open_club_dialog(self, address: str | None = None, reason: str = "") -> bool:
        """File ▸ Open Club Campaign…: ask for the address and password (the address given,
        else the last one opened, filled in; ``reason``: why it is asked again), then open
        it."""
        from campaign1813.ui.club import OpenClubDialog

        shown = address if address is not None else str(self._settings.value("club/last", ""))
        dialog = OpenClubDialog(self, shown, reason)
        asked = dialog.exec() if self.ask_club is None else self.ask_club(dialog)
        if asked != OpenClubDialog.DialogCode.Accepted:
            return False
        address, password, remember = dialog.values()
        return self.open_club(address, password, remember=remember)

    def open_recent_club(self, address: str) -> bool:
        """File ▸ Open Recent, a club's campaign: opened with the keyring's password, else
        libpq's ~/.pgpass; where that is refused, the Open Club dialog is shown with the
        address filled in and the reason."""
        refused = self._open_club(address, "", remember=False)
        if refused is None:
            return True
        return self.open_club_dialog(address, refused)

    def open_club(self, address: str, password: str = "", *, remember: bool = False) -> bool:
        """Open a club's campaign on a server (the password typed, else the one the keyring
        keeps, else libpq's own ~/.pgpass); the password is kept in the system's keyring only
        if ``remember``. On refusal report why and keep the current campaign."""
        refused = self._open_club(address, password, remember=remember)
        if refused is not None:
            self.report_error(f"Cannot open the club's campaign: {refused}")
        return refused is None

    def _open_club(self, address: str, password: str, *, remember: bool) -> str | None:
        """Open a club's campaign; None if it opened, else why not (the current campaign
        kept)."""
        from campaign1813.campaign.store.server import ServerAddress, open_server_campaign
        from campaign1813.ui.club import (
            ClubWatch,
            keep_password,
            stored_password,
            with_password,
            without_password,
        )

        try:
            given = password or stored_password(address) or ""
            doc = open_server_campaign(with_password(address, given))
        except CampaignError as exc:
            return str(exc)
        try:
            if remember and password:
                keep_password(address, password)
            watch = ClubWatch(doc.listen(), self)
        except CampaignError as exc:
            doc.close()
            return str(exc)
        kept = without_password(address)
        self._settings.setValue("club/last", kept)
        self.menus.remember_recent(kept)
        self._set_store(doc)
        self._club_watch = watch
        watch.news.connect(self._on_club_news)
        watch.lost.connect(self._on_club_lost)
        watch.back.connect(self._on_club_back)
        self.club_address = str(ServerAddress(kept))  # the password, if any, kept out
        self.statusBar().showMessage(f"Opened {self.club_address} — every change is kept on the "
                                     "server as it is made")
        return None

    def _on_club_news(self, notice: Notice) -> None:
        """Another umpire, program or player committed to the open server campaign: re-read
        what the notice names, as after one of the window's own actions (the campaign whole
        only where the notice cannot say)."""
        if notice.whole:
            self._read_club_again("The campaign was changed in another window or program; it "
                                  "is shown as it is now")
            return
        if notice.logged:
            self._apply_another(notice)
        elif notice.forms:  # an order form sent by a player, or marked: no view shows them
            self.statusBar().showMessage(f"In another window or program: {notice.label} "
                                         "(the forms waiting: 'campaign1813 import-orders URL "
                                         "--submitted')")

    def _apply_another(self, notice: Notice) -> None:
        """Another client's action (undo, redo), re-read as the window's own is."""
        changes = notice.changes()
        label = f"{notice.label}{ANOTHER}"
        lines: tuple[str, ...] = ()
        if notice.report is not None:
            lines = self._day_report_of_another(notice.report)
        changes = structs.replace(changes, label=label, lines=lines)
        self._told_by_another = True
        self._another_ended = notice.report
        try:
            self.campaign.apply(changes)
        except CampaignError as exc:
            self.report_error(f"The campaign was changed elsewhere and cannot be read: {exc}")
        finally:
            self._told_by_another = False
            self._another_ended = None

    def _day_report_of_another(self, day: date) -> tuple[str, ...]:
        """The report of a day another umpire ended (its End Day's one log entry), or a line
        saying he ended it where it cannot be read."""
        assert self.document is not None
        try:
            lines = queries.day_report(self.document, day)
        except CampaignError:
            lines = None
        if lines is None:
            return (f"Another umpire ended {format_date(day)}; its report is in the diary "
                    "(Campaign ▸ Diary)",)
        return lines

    def _read_club_again(self, said: str) -> None:
        try:
            self.campaign.reload()
        except CampaignError as exc:
            self.report_error(f"The campaign was changed elsewhere and cannot be read: {exc}")
            return
        self.statusBar().showMessage(said)

    def _on_club_lost(self, reason: str) -> None:
        self.statusBar().showMessage(f"Connection lost, trying again… ({reason})")

    def _on_club_back(self) -> None:
        """Listening again after a lost connection: what was committed meanwhile was not
        heard, so the campaign is read once whole."""
        self._read_club_again("Connected again; the campaign is shown as it is now")

    def _stop_club_watch(self) -> None:
        if self._club_watch is not None:
            self._club_watch.close()
            self._club_watch.deleteLater()
            self._club_watch = None
            self.club_address = ""

    def _set_store(self, doc: CampaignStore) -> None:
        """Show a campaign that is not a file (a club's on a server)."""
        if self.document is not None and self.document is not doc:
            self.document.close()
        self._stop_club_watch()
        self.report_pane.clear()
        self.campaign.open(doc)
        self.document_changed.emit()

    def _set_document(self, doc: CampaignDocument) -> None:
        if self.document is not None and self.document is not doc:
            self.document.close()
        self._stop_club_watch()
        self.report_pane.clear()
        self.menus.remember_recent(doc.path)
        self._settings.setValue("files/last", str(doc.path))
        self.campaign.open(doc)  # the one full read; the file's log keeps the undo history
        self.statusBar().showMessage(f"Opened {doc.path} — every change is saved as it is made")
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

    def export_setup_sheet(self, battle: int) -> Path | None:
        """Battle ▸ Setup Sheet…: write a battle's setup sheet as PDF, or its table as SVG."""
        from campaign1813.ui.setup_sheet_dialog import save_setup_sheet  # the battle's setup

        if self.document is None:
            return None
        try:
            path = save_setup_sheet(self, self.document, battle, self.start_folder())
        except CampaignError as exc:
            self.report_error(str(exc))
            return None
        if path is not None:
            self.statusBar().showMessage(f"Wrote {path}", 5000)
        return path
        # -- end of Battle ▸ Setup Sheet --

    def open_battle_dialog(self, battle: int,
                           kind: str | type[BattleDialog]) -> BattleDialog | None:
        """Open the dialog that postpones, merges or splits a battle due (one at a time);
        ``kind`` is the dialog's class or its verb (Postpone, Merge, Split)."""
        from campaign1813.ui.battle_dialogs import DIALOGS, MergeDialog  # with the services

        due = self.campaign.battles_due
        found = next((b for b in due if b.id == battle), None)
        if found is None or self.document is None:
            return None
        if isinstance(kind, str):
            kind = DIALOGS[kind]
        if self.battle_dialog is not None:
            self.battle_dialog.close()
        dialog: BattleDialog
        if kind is MergeDialog:
            dialog = MergeDialog(found, due, self.campaign, self)
        else:
            dialog = kind(found, self.campaign, self)
        dialog.open()
        self.battle_dialog = dialog
        return dialog

    # ----- the battle window ---------------------------------------------------------------
    def open_battle_window(self, battle: int) -> BattleWindow:
        """Open (or bring forward) the window of one battle at the table."""
        windows = self.battle_windows
        window = windows.get(battle)
        if window is None or not window.isVisible():
            from campaign1813.ui.battle import BattleWindow  # with the battle engine

            # the battle window has its own Undo, which stops at the battle's setup
            window = BattleWindow(self.campaign, battle, (self.redo_action,), self)
            # a closed window goes when Qt deletes it, unless another took its place already
            window.destroyed.connect(
                lambda _o=None, b=battle, w=window: windows.pop(b) if windows.get(b) is w
                else None)
            window.finished.connect(lambda _b: self.activateWindow())
            windows[battle] = window
        window.show()
        window.raise_()
        return window

    def _on_battle_wanted(self, battle: int) -> None:
        self.open_battle_window(battle)

    # ----- umpire actions ----------------------------------------------------------------
    def _run(self, service: Service) -> Changes | None:
        """One action run from the window's menus; a refusal is told by :meth:`report_error`."""
        return Operation(self.campaign, service).run()

    def _on_refused(self, reason: str) -> None:
        """An action refused that no view shows itself: told as any error is."""
        self.report_error(reason)

    def _on_refused_on_pad(self, reason: str) -> None:
        self.statusBar().showMessage(f"Refused: {reason}")
        self.error_reported.emit(reason)

    def give_order(self, request: IssueOrder) -> Changes | None:
        """Give an order from the pad; a refusal is shown on the pad and in the status bar."""
        return self.orders_panel.give(request)

    def order_here(self, command: str, verb: str, town: str) -> Changes | None:
        """An order asked for on the map (a town's Move / Attack / Hold here): given as from
        the pad, which shows it (and a refusal's reason)."""
        return self.orders_panel.order_here(command, verb, town)

    def preview_route(self, command: str, verb: str, town: str, via: tuple[str, ...] = (),
                      forced: bool = False) -> RoutePreview:
        """What an order would do, before it is given (for the pad and the map)."""
        if self.document is None:
            return RoutePreview(command, verb, town, (), (), 0.0, 0, "", "no campaign is open")
        state = self.campaign.state_just_read()
        if state is not None:  # the pad follows an action: the state it was read from
            ground = self.document.ground().adjusted(state.settings)
            return queries.preview_of(state, ground, command, verb, town, via, forced)
        return queries.route_preview(self.document, command, verb, town, via, forced)

    def cancel_order(self, command: str) -> Changes | None:
        """Withdraw a command's orders."""
        return self.orders_panel.cancel(command)

    def end_day(self) -> Changes | None:
        """March the day, or close it once its battles have results; the report is shown."""
        return (Operation(self.campaign, day_service("end_day")).success(self._on_day_ended)
                .failure(self._on_end_day_refused).run())

    def _on_end_day_refused(self, exc: CampaignError) -> None:
        """End Day refused: told as any refusal; when corps' men lost out of supply wait for
        their brigade, the umpire is asked for it (then presses End Day again)."""
        self.report_error(str(exc))
        if owed(self.campaign.status):
            ask_attrition(self.campaign, self, self.ask_brigade)

    def _on_day_ended(self, _changes: Changes) -> None:
        self.report_dock.show()
        self.report_dock.raise_()

    def record_result(self, battle: int, winner: str) -> Changes | None:
        """Record a battle's result: ``French``, ``Allied`` or ``draw``."""
        return self._run(day_service("record_result", battle, winner))

    def choose_retreat(self, command: str, option: str,
                       town: str | None = None) -> Changes | None:
        """The umpire's choice for a cut-off command: surrender or break out (to a town)."""
        return self._run(day_service("choose_retreat", command, option, town))

    def undo(self) -> Changes | None:
        """Take back the action Edit ▸ Undo names, from the file's log."""
        return self._step(self.history.undoing)

    def redo(self) -> Changes | None:
        """Apply again the action Edit ▸ Redo names."""
        return self._step(self.history.redoing)

    def _step(self, step: Callable[[], Service]) -> Changes | None:
        if self.document is None:
            return None
        return Operation(self.campaign, step()).failure(self._on_step_refused).run()

    def _on_step_refused(self, exc: CampaignError) -> None:
        # most likely another window or the command line acted since the menu was read:
        # say so, and show the file as it now is
        self.report_error(str(exc))
        try:
            self.campaign.reload()
        except CampaignError as busy:  # still busy elsewhere: the next action reads it
            self.statusBar().showMessage(f"{exc} ({busy})")

    def _on_changed(self, update: Update) -> None:
        """After any action, undo or redo: the window's own parts, and what changed."""
        changes = update.changes
        if update.heading:
            self._show_title()
        report = changes.report
        ended = report.day if report is not None else self._another_ended
        note = self.day_open_note(ended) if ended is not None else None
        self.report_pane.show_changes(changes, note)
        if self._told_by_another and note is None:
            self.statusBar().showMessage(f"The campaign was changed in another window or "
                                         f"program: {changes.label.removesuffix(ANOTHER)}")
        else:
            self.statusBar().showMessage(note or changes.label)
        if self.diary_window is not None and self.diary_window.isVisible():
            self.show_diary()
        if self.side_windows:
            self._show_sides()
        if self.reports_dialog is not None and changes.reports:
            self.reports_dialog.refresh()
        self.campaign_changed.emit(changes)

    def day_open_note(self, ended: date) -> str | None:
        """What to say after an End Day of this window's or another umpire's on ``ended``: that
        the day stays open until its battles have results, or None if it closed."""
        status = self.campaign.status
        count = len(self.campaign.battles_due)
        if status is None or status.date != ended or not count:
            return None
        return (f"{format_date(ended)} stays open until its "
                f"{'battle has a result' if count == 1 else 'battles have results'}"
                " (Battle menu); then End Day again.")

    def show_diary(self) -> None:
        """Open (or bring forward) the campaign diary window."""
        if self.document is None:
            if self.diary_window is not None:
                self.diary_window.close()  # no campaign open: no diary to show
            return
        # the diary window brings the printing: loaded when first opened
        from campaign1813.campaign.export.diary import diary_places
        from campaign1813.ui.diary_window import DiaryWindow

        name = self.document.summary().name
        if self.diary_window is None:
            self.diary_window = DiaryWindow(lambda: Path(self.start_folder()), self)
            self.diary_window.report_requested.connect(self.show_report)
        self.diary_window.setWindowTitle(f"Campaign Diary — {name}")
        self.diary_window.show_diary(queries.diary(self.document), diary_places(self.document),
                                     name)
        self.diary_window.show()
        self.diary_window.raise_()

    def show_report(self, battle: int) -> ReportWindow:
        """Open (or bring forward) a battle's full report in its own window."""
        from campaign1813.ui.report_window import ReportWindow  # with the diary's printing

        window = self.report_windows.get(battle)
        if window is None or not window.isVisible():
            window = ReportWindow(self.campaign, battle, self)
            window.destroyed.connect(
                lambda _o=None, b=battle, w=window: self.report_windows.pop(b)
                if self.report_windows.get(b) is w else None)
            self.report_windows[battle] = window
        else:
            window.refresh()
        window.show()
        window.raise_()
        return window

    def show_history(self) -> HistoryPanel | None:
        """Campaign ▸ History: the campaign day by day in a dock of its own, read-only, under
        the banner of the past; the window's own map and table keep today."""
        if self.document is None:
            return None
        from campaign1813.ui.history_panel import HistoryPanel  # with the first history

        self.leave_history()
        panel = HistoryPanel(self.document, self._run)
        self.campaign.changed.connect(panel.refresh)
        dock = self._dock("History", panel, Qt.DockWidgetArea.RightDockWidgetArea)
        dock.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dock.destroyed.connect(lambda _o=None, d=dock: self._forget_history(d))
        self.history_dock = dock
        dock.show()
        dock.raise_()
        panel.setFocus()
        return panel

    def leave_history(self) -> None:
        """Close the history: the window shows today, as it always did."""
        dock, self.history_dock = self.history_dock, None
        if dock is not None:
            dock.widget().close()
            self.removeDockWidget(dock)
            dock.deleteLater()

    def _forget_history(self, dock: QDockWidget) -> None:
        if self.history_dock is dock:
            self.history_dock = None

    def view_as(self, side: Side | None) -> SideWindow | None:
        """View ▸ As the French / As the Allies: the side's own window, built from its view
        alone; As the umpire (None): the umpire's own map, every side's window closed."""
        if side is None or self.document is None:
            for open_window in list(self.side_windows.values()):
                open_window.close()
            self.side_windows.clear()
            self.raise_()
            return None
        from campaign1813.ui.side_window import SideWindow  # with the first side's view

        view = queries.side_view(self.document, side)
        found = self.side_windows.get(side)
        if found is None:
            window = SideWindow(view, self.document.scenario().map, self)
            window.setWindowFlag(Qt.WindowType.Window)
            window.closed.connect(lambda _side, w=window: self._side_closed(w))
            self.side_windows[side] = window
        else:
            window = found
            window.show_view(view)
        window.show()
        window.raise_()
        return window

    def _side_closed(self, window: SideWindow) -> None:
        """A side's window closed by hand: it is let go, and with none left the View menu says
        the umpire's own view again."""
        if self.side_windows.get(window.side) is window:
            del self.side_windows[window.side]
        if not self.side_windows:
            self.menus.view_actions[None].setChecked(True)

    def write_turn_packets(self, folder: str | Path) -> list[Path]:
        """File ▸ Turn Packets…: both sides' packets (situation report and order form, PDF and
        JSON, each built from its side's view) written into ``folder``."""
        if self.document is None:
            return []
        from campaign1813.campaign.export.turn_packet import write_packet  # rare: when asked
        from campaign1813.ui.paper import QtPaper

        written: list[Path] = []
        try:
            for side in Side:
                written += write_packet(self.document, side, Path(folder), force=True,
                                        paper=QtPaper())
        except (CampaignError, OSError) as exc:
            self.report_error(str(exc))
            return written
        self.statusBar().showMessage(f"Wrote {len(written)} files of the turn packets to "
                                     f"{folder}", 5000)
        return written

    def export_history(self, folder: str | Path, side: Side | None = None) -> list[Path]:
        """File ▸ Export History…: the history of the theatre the map shows (the umpire's, or a
        side's) written into ``folder``: a map a day, index.html and a PDF."""
        if self.document is None:
            return []
        from campaign1813.campaign.export.history import write_history  # rare: when asked
        from campaign1813.ui.history_pictures import QtHistoryPainter

        try:
            written = write_history(self.document, Path(folder), self.campaign_view.theatre(),
                                    side, QtHistoryPainter(), force=True)
        except (CampaignError, OSError) as exc:
            self.report_error(str(exc))
            return []
        self.statusBar().showMessage(f"Wrote the history to {folder}: {len(written)} files",
                                     5000)
        return written

    def show_reports(self) -> ReportsDialog | None:
        """Campaign ▸ Reports of the Enemy…: hold back, edit, add and release reports."""
        if self.document is None:
            return None
        from campaign1813.ui.reports_dialog import ReportsDialog  # a rare dialog

        if self.reports_dialog is None:
            doc = self.document
            names = [c.name for c in queries.day_state(doc).ordered()]
            self.reports_dialog = ReportsDialog(
                lambda: queries.enemy_reports(doc) if self.document is doc else (),
                self._run, names, self)
        self.reports_dialog.refresh()
        self.reports_dialog.show()
        self.reports_dialog.raise_()
        return self.reports_dialog

    def _show_sides(self) -> None:
        """Each side's window shows what its side knows now (closed with no campaign)."""
        if self.document is None:
            self.view_as(None)
            return
        for side, window in self.side_windows.items():
            window.show_view(queries.side_view(self.document, side))

    # ----- view --------------------------------------------------------------------------
    def _on_opened(self) -> None:
        """A file opened (or none): everything the window shows of it, read whole."""
        self._seen_version = self.document.data_version() if self.document else None
        self._show_title()
        if self.diary_window is not None and self.diary_window.isVisible():
            self.show_diary()
        if self.reports_dialog is not None:
            self.reports_dialog.close()
            self.reports_dialog = None
        self.leave_history()  # another campaign (or none): no history of the last one stays
        if self.side_windows:  # another campaign: no side's window of the last one stays
            self.view_as(None)
            self.menus.view_actions[None].setChecked(True)

    def _show_title(self) -> None:
        status = self.campaign.status
        if status is None:
            self.setWindowTitle(APP_TITLE)
        else:
            self.setWindowTitle(f"{status.name} — {format_date(status.date)} — {APP_TITLE}")

    def start_folder(self) -> str:
        """Where a file dialog starts: the open campaign's folder, else the home folder."""
        if self.file is not None:
            return str(self.file.path.parent)
        return str(Path.home())

    def show_settings(self) -> SettingsDialog | None:
        """Campaign ▸ Settings…: the campaign's settings, each change an undoable action."""
        if self.document is None:
            return None
        from campaign1813.ui.settings_dialog import SettingsDialog  # with the services

        if self.settings_dialog is not None:
            self.settings_dialog.close()
        dialog = SettingsDialog(self.campaign, self)
        dialog.refused.connect(
            lambda reasons: self.statusBar().showMessage(f"Refused: {reasons.splitlines()[0]}"))
        dialog.open()
        self.settings_dialog = dialog
        return dialog

    def details_text(self) -> str:
        """What Campaign ▸ Campaign Details shows: name, dates, file and the settings, those
        changed from the scenario's marked with the scenario's value."""
        doc, scenario = self.document, self.campaign.scenario
        if doc is None or scenario is None:
            return ""
        s = doc.summary()
        stored = doc.settings().get("campaign", {})
        where = str(self.file.path) if self.file else self.club_address
        lines = [f"<b>{escape(s.name)}</b>", f"Today: {format_date(s.current_date)}",
                 f"Began: {format_date(s.start_date)}", f"File: {escape(where)}"]
        lines += [f"{k.replace('_', ' ')}: {escape(str(v))}" for k, v in stored.items()
                  if k not in ("name", "start_date")]
        lines.append("<br><b>Settings</b> (Campaign ▸ Settings… changes them)")
        base = scenario.settings
        for view in queries.campaign_settings(doc):
            mark = (f" <i>— changed; the scenario's is {escape(shown(getattr(base, view.name)))}"
                    "</i>" if view.changed else "")
            lines.append(f"{view.name.replace('_', ' ')}: {escape(view.value)}{mark}")
        lines.append("<br><b>March rates</b> (the scenario's), miles a day")
        lines += [f"{who}: {r.road:g} on roads, {r.off_road:g} off road, {r.difficult:g} in "
                  "difficult country"
                  for who, r in (("foot", base.foot_rate), ("HQ and cavalry", base.mounted_rate))]
        return "<br>".join(lines)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self._watch.stop()  # a closed window no longer looks at its file
        self._stop_club_watch()
        self._settings.setValue("window/geometry", self.saveGeometry())
        self._settings.setValue("window/state", self.saveState())
        doc = self.document
        if doc is not None:
            # the views let the campaign go first: a map still to be made (one turn of the
            # loop after the first paint) must not read a file closed under it
            self.campaign.open(None)
            doc.close()
        super().closeEvent(event)


def first_size(available: QSize) -> QSize:
    """The window's size at its first start: nine tenths of the screen's free area each way,
    so the map and the table both have room, never more than the screen holds."""
    return QSize(max(min(available.width(), 1100), round(available.width() * 0.9)),
                 max(min(available.height(), 720), round(available.height() * 0.9)))


def _campaign_path(path: str | Path) -> Path:
    """The file a name means: with the campaign suffix added when it has none."""
    path = Path(path)
    return path if path.suffix == SUFFIX else path.with_name(path.name + SUFFIX)
