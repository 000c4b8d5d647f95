"""The main window's menu bar: File, Edit, Campaign, Battle and Help, and their actions.

The menus take the window in their constructor and follow its open campaign: a file opened
enables what needs one and lists the recent files and the battles again; an action that changed
a battle or a command's state rebuilds the Battle menu. Each entry calls the window's own
action (``end_day``, ``record_result``, ``open_battle_window`` …); the file dialogs, the recent
files, the About and Details boxes are kept here. Edit ▸ Undo and Redo are the undo history's
actions (:class:`~campaign1813.ui.undo.UndoHistory`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import parse_qsl, urlsplit

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QMenu,
    QMenuBar,
    QMessageBox,
    QStatusBar,
    QWidget,
)

from campaign1813 import __version__
from campaign1813.campaign import queries
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.address import is_address
from campaign1813.campaign.store.document import SUFFIX
from campaign1813.ui import APP_TITLE
from campaign1813.ui.open_campaign import OpenCampaign, Update

if TYPE_CHECKING:
    from campaign1813.campaign.store.protocol import CampaignStore

MAX_RECENT = 8
FILE_FILTER = f"1813 campaigns (*{SUFFIX})"
RESULTS = (("French Win", "French"), ("Allied Win", "Allied"), ("Draw", "draw"))


class Window(Protocol):
    """What the menus use of the main window (which imports this module, so this module names
    it only by what it does): its parts, and the actions its entries call."""

    campaign: OpenCampaign
    undo_action: QAction
    redo_action: QAction
    orders_dock: QDockWidget
    report_dock: QDockWidget
    objectives_dock: QDockWidget

    @property
    def document(self) -> CampaignStore | None: ...
    def menuBar(self) -> QMenuBar: ...  # noqa: N802 (Qt's names)
    def statusBar(self) -> QStatusBar: ...  # noqa: N802
    def close(self) -> bool: ...
    def report_error(self, message: str) -> None: ...
    def start_folder(self) -> str: ...
    def open_file(self, path: str | Path) -> bool: ...
    def open_club_dialog(self) -> bool: ...
    def open_recent_club(self, address: str) -> bool: ...
    def new_campaign(self, path: str | Path, *, replace: bool | None = None) -> bool: ...
    def save_as(self, path: str | Path, *, replace: bool | None = None) -> bool: ...
    def back_up(self, path: str | Path, *, replace: bool | None = None) -> bool: ...
    def restore_from_backup(self, backup: str | Path, *,
                            confirm: bool | None = None) -> bool: ...
    def details_text(self) -> str: ...
    def undo(self) -> object: ...
    def redo(self) -> object: ...
    def end_day(self) -> object: ...
    def show_diary(self) -> None: ...
    def show_history(self) -> object: ...
    def show_reports(self) -> object: ...
    def write_turn_packets(self, folder: str | Path) -> object: ...
    def export_history(self, folder: str | Path) -> object: ...
    def view_as(self, side: Side | None) -> object: ...
    def show_settings(self) -> object: ...
    def record_result(self, battle: int, winner: str) -> object: ...
    def choose_retreat(self, command: str, option: str, town: str | None = None) -> object: ...
    def open_battle_dialog(self, battle: int, kind: str) -> object: ...
    def open_battle_window(self, battle: int) -> object: ...
    def export_setup_sheet(self, battle: int) -> object: ...


def club_name(address: str) -> str:
    """A club campaign's name, as its address's query gives it.

    >>> club_name("postgresql://anne@club/club?campaign=spring-1813")
    'spring-1813'
    """
    names = [v for k, v in parse_qsl(urlsplit(address).query) if k == "campaign"]
    return names[0] if names else address


def _widget(window: Window) -> QWidget:
    """The window as the parent of a dialog (it is a QMainWindow)."""
    assert isinstance(window, QWidget)
    return window


def _viewer(window: Window, side: Side | None) -> Callable[[], object]:
    """View ▸ As …: the window as one side knows it (or the umpire)."""
    return lambda: window.view_as(side)


class Menus(QObject):
    """The main window's menus and their actions, kept in step with its open campaign."""

    def __init__(self, window: Window, settings: QSettings):
        super().__init__(_widget(window))
        self._window = window
        self._settings = settings
        self.campaign = window.campaign
        bar = window.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.new_action = self._action(self.file_menu, "&New Campaign…", self._on_new,
                                       QKeySequence.StandardKey.New)
        self.open_action = self._action(self.file_menu, "&Open…", self._on_open,
                                        QKeySequence.StandardKey.Open)
        self.recent_menu = self.file_menu.addMenu("Open &Recent")
        self.open_club_action = self._action(self.file_menu, "Open &Club Campaign…",
                                             self._on_open_club)
        self.file_menu.addSeparator()
        self.save_as_action = self._action(self.file_menu, "Save &As…", self._on_save_as,
                                           QKeySequence.StandardKey.SaveAs)
        self.backup_action = self._action(self.file_menu, "&Back Up…", self._on_backup)
        self.restore_action = self._action(self.file_menu, "Restore From Bac&kup…",
                                           self._on_restore)
        self.file_menu.addSeparator()
        # File ▸ Print / Export Orders of Battle…: the dialogs and slots are in ui/print_oob.py
        self.print_oob_action = self._action(self.file_menu, "&Print Orders of Battle…",
                                             lambda: self._orders_of_battle("on_print"),
                                             QKeySequence.StandardKey.Print)
        self.export_oob_action = self._action(self.file_menu, "E&xport Orders of Battle…",
                                              lambda: self._orders_of_battle("on_export"))
        self.packets_action = self._action(self.file_menu, "&Turn Packets…",
                                           self._on_turn_packets)
        self.history_export_action = self._action(self.file_menu, "Export &History…",
                                                  self._on_export_history)
        self.file_menu.addSeparator()
        self._action(self.file_menu, "&Quit", window.close, QKeySequence.StandardKey.Quit)

        self.edit_menu = bar.addMenu("&Edit")
        window.undo_action.triggered.connect(window.undo)
        window.redo_action.triggered.connect(window.redo)
        self.edit_menu.addActions([window.undo_action, window.redo_action])

        self.campaign_menu = bar.addMenu("&Campaign")
        self.end_day_action = self._action(self.campaign_menu, "&End Day", window.end_day,
                                           QKeySequence("Ctrl+E"))
        self.diary_action = self._action(self.campaign_menu, "&Diary…", window.show_diary)
        self.history_action = self._action(self.campaign_menu, "&History", window.show_history,
                                           QKeySequence("Ctrl+H"))
        self.campaign_menu.addSeparator()
        for dock in (window.orders_dock, window.report_dock, window.objectives_dock):
            self.campaign_menu.addAction(dock.toggleViewAction())
        self.reports_action = self._action(self.campaign_menu, "&Reports of the Enemy…",
                                           window.show_reports)
        self.campaign_menu.addSeparator()
        self.settings_action = self._action(self.campaign_menu, "&Settings…",
                                            window.show_settings, QKeySequence("Ctrl+,"))
        self.details_action = self._action(self.campaign_menu, "Campaign &Details…",
                                           self._on_details)

        # View ▸ As the French / As the Allies / As the umpire: whose knowledge is shown
        self.view_menu = bar.addMenu("&View")
        self.view_group = QActionGroup(self)
        self.view_actions: dict[Side | None, QAction] = {}
        for text, side in (("As the &Umpire", None), ("As the &French", Side.FRENCH),
                           ("As the &Allies", Side.ALLIED)):
            action = self._action(self.view_menu, text, _viewer(window, side))
            action.setCheckable(True)
            self.view_group.addAction(action)
            self.view_actions[side] = action
        self.view_actions[None].setChecked(True)

        self.battle_menu = bar.addMenu("&Battle")  # rebuilt when battles or states change
        self.setup_sheet_menu: QMenu | None = None

        self.help_menu = bar.addMenu("&Help")
        self._action(self.help_menu, f"&About {APP_TITLE}", self._on_about)

        self.campaign.opened.connect(self._on_opened)
        self.campaign.changed.connect(self._on_changed)
        self._on_opened()

    def _action(self, menu: QMenu, text: str, slot: Callable[[], object],
                shortcut: QKeySequence | QKeySequence.StandardKey | None = None) -> QAction:
        action = QAction(text, _widget(self._window))
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _on_export_history(self) -> None:
        """Ask for a folder, and write the history of the theatre the map shows into it."""
        folder = QFileDialog.getExistingDirectory(_widget(self._window), "Export History",
                                                  self._window.start_folder())
        if folder:
            self._window.export_history(folder)

    def _on_turn_packets(self) -> None:
        """Ask for a folder, and write both sides' turn packets into it."""
        folder = QFileDialog.getExistingDirectory(_widget(self._window), "Turn Packets",
                                                  self._window.start_folder())
        if folder:
            self._window.write_turn_packets(folder)

    def _on_opened(self) -> None:
        """A file opened (or none): what needs one is enabled, the lists read again."""
        has_doc = self.campaign.document is not None
        for action in (self.save_as_action, self.backup_action, self.details_action,
                       self.settings_action, self.end_day_action, self.diary_action,
                       self.history_action,
                       self.print_oob_action, self.export_oob_action, self.packets_action,
                       self.history_export_action,
                       self.reports_action, *self.view_actions.values()):
            action.setEnabled(has_doc)
        self.rebuild_recent_menu()
        self.rebuild_battle_menu()

    def _on_changed(self, update: Update) -> None:
        if update.battles:
            self.rebuild_battle_menu()

    # ----- File ----------------------------------------------------------------------------
    def _save_dialog(self, title: str) -> tuple[str, bool] | None:
        """A file name from a save dialog that adds the suffix itself, so that it asks before
        replacing the very file that will be written; and whether it asked."""
        dialog = QFileDialog(_widget(self._window), title, self._window.start_folder(),
                             FILE_FILTER)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(SUFFIX.lstrip("."))
        if not dialog.exec() or not dialog.selectedFiles():
            return None
        chosen = dialog.selectedFiles()[0]
        # a dialog that kept the name as typed has not asked about the file with the suffix
        return chosen, chosen.endswith(SUFFIX)

    def _on_new(self) -> None:
        chosen = self._save_dialog("New Campaign")
        if chosen:
            self._window.new_campaign(chosen[0], replace=True if chosen[1] else None)

    def _on_open_club(self) -> None:
        self._window.open_club_dialog()

    def _on_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(_widget(self._window), "Open Campaign",
                                              self._window.start_folder(), FILE_FILTER)
        if path:
            self._window.open_file(path)

    def _on_save_as(self) -> None:
        chosen = self._save_dialog("Save Campaign As")
        if chosen:
            self._window.save_as(chosen[0], replace=True if chosen[1] else None)

    def _on_backup(self) -> None:
        chosen = self._save_dialog("Back Up Campaign")
        if chosen:
            self._window.back_up(chosen[0], replace=True if chosen[1] else None)

    def _on_restore(self) -> None:
        path, _ = QFileDialog.getOpenFileName(_widget(self._window), "Restore From Backup",
                                              self._window.start_folder(), FILE_FILTER)
        if path:
            self._window.restore_from_backup(path)

    def _orders_of_battle(self, slot: str) -> None:
        """File ▸ Print or Export Orders of Battle…, from ui/print_oob.py loaded when asked."""
        from campaign1813.ui import print_oob

        getattr(print_oob, slot)(self._window)

    # ----- File ▸ Open Recent --------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """The recently opened campaigns, newest first: files' paths, and club campaigns'
        addresses (never with a password)."""
        value = self._settings.value("files/recent", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list | tuple) else []

    def remember_recent(self, path: Path | str) -> None:
        """Put a file opened, or a club campaign's address (given without its password), at
        the head of the recent campaigns."""
        entry = str(path) if is_address(path) else str(Path(path).resolve())
        files = [f for f in self.recent_files() if f != entry]
        files.insert(0, entry)
        self._settings.setValue("files/recent", files[:MAX_RECENT])
        self.rebuild_recent_menu()

    def forget_if_gone(self, path: str | Path) -> None:
        """Take a file that no longer exists off the recent files."""
        entry = str(Path(path).resolve())
        if not Path(entry).exists() and entry in self.recent_files():
            self._settings.setValue("files/recent", [f for f in self.recent_files() if f != entry])
            self.rebuild_recent_menu()

    def rebuild_recent_menu(self) -> None:
        """List the recent files under File ▸ Open Recent."""
        self.recent_menu.clear()
        files = self.recent_files()
        for i, name in enumerate(files, start=1):
            if is_address(name):
                action = self.recent_menu.addAction(
                    f"&{i} {club_name(name)} (club campaign)  —  {name}")
                action.triggered.connect(
                    lambda _checked=False, n=name: self._window.open_recent_club(n))
            else:
                action = self.recent_menu.addAction(f"&{i} {Path(name).name}  —  {name}")
                action.triggered.connect(lambda _checked=False, n=name: self._window.open_file(n))
            action.setData(name)
        if not files:
            empty = self.recent_menu.addAction("No recent campaigns")
            empty.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction("Clear Recent")
            clear.triggered.connect(self._on_clear_recent)

    def _on_clear_recent(self) -> None:
        self._settings.setValue("files/recent", [])
        self.rebuild_recent_menu()

    # ----- Campaign ------------------------------------------------------------------------
    def _on_details(self) -> None:
        if self.campaign.document is None:
            return
        QMessageBox.information(_widget(self._window), "Campaign Details",
                                self._window.details_text())

    # ----- Battle --------------------------------------------------------------------------
    def battles_due(self) -> list[str]:
        """The battles of the campaign still to be fought, as the Battle menu lists them."""
        return [f"{b.id}. {b.place}: {', '.join(b.french)} against {', '.join(b.allied)}"
                for b in self.campaign.battles_due]

    def cut_off_commands(self) -> list[str]:
        """Commands cut off after a defeat, waiting for the umpire's surrender or break-out."""
        status = self.campaign.status
        return [] if status is None else [c.name for c in status.cut_off]

    def rebuild_battle_menu(self) -> None:
        """The Battle menu for the battles due and the commands cut off, as they are now."""
        window = self._window
        self.battle_menu.clear()
        due = self.campaign.battles_due
        cut_off = self.cut_off_commands()
        if not due:
            self.battle_menu.addAction("No battles are due").setEnabled(False)
        else:
            heading = self.battle_menu.addAction("Record a result:")
            heading.setEnabled(False)
        for battle, line in zip(due, self.battles_due(), strict=True):
            menu = self.battle_menu.addMenu(line)
            for text, winner in RESULTS:
                action = menu.addAction(text)
                action.setData((battle.id, winner))
                action.triggered.connect(
                    lambda _checked=False, b=battle.id, w=winner: window.record_result(b, w))
            menu.addSeparator()
            for text, verb in (("&Postpone…", "Postpone"), ("&Merge With…", "Merge"),
                               ("&Split…", "Split")):
                action = menu.addAction(text)
                action.setData((battle.id, verb))
                action.triggered.connect(
                    lambda _checked=False, b=battle.id, v=verb: window.open_battle_dialog(b, v))
        # -- the battle window: one entry per battle due (or being fought on the table) --
        if due:
            self.battle_menu.addSeparator()
        for battle in due:
            fight = self.battle_menu.addAction(f"{battle.id}. {battle.place}: Fight at the Table…")
            fight.triggered.connect(
                lambda _checked=False, b=battle.id: window.open_battle_window(b))
        if cut_off:
            self.battle_menu.addSeparator()
            self.battle_menu.addAction("Cut off — the umpire chooses:").setEnabled(False)
        for name in cut_off:
            menu = self.battle_menu.addMenu(name)
            menu.aboutToShow.connect(lambda m=menu, n=name: self._fill_cut_off_menu(m, n))
        # -- Battle ▸ Setup Sheet: a due battle's sheet for the table, as PDF or SVG --
        if due:
            self.battle_menu.addSeparator()
            self.setup_sheet_menu = self.battle_menu.addMenu("Setup Sheet…")
            for battle in due:
                self.setup_sheet_menu.addAction(f"{battle.id}. {battle.place}…").triggered.connect(
                    lambda _checked=False, b=battle.id: window.export_setup_sheet(b))

    def _fill_cut_off_menu(self, menu: QMenu, name: str) -> None:
        """Surrender, or break out towards each town open to the command, weakest enemy first."""
        window = self._window
        menu.clear()
        menu.addAction("Surrender").triggered.connect(
            lambda _checked=False: window.choose_retreat(name, "surrender"))
        doc = self.campaign.document
        if doc is None:
            return
        for option in queries.breakouts(doc, name):
            through = f" through {', '.join(option.through)}" if option.through else ""
            menu.addAction(f"Break Out towards {option.town}{through}").triggered.connect(
                lambda _checked=False, t=option.town: window.choose_retreat(name, "break-out", t))

    # ----- Help ----------------------------------------------------------------------------
    def _on_about(self) -> None:
        QMessageBox.about(
            _widget(self._window),
            f"About {APP_TITLE}",
            f"<b>{APP_TITLE}</b> {__version__}<br><br>"
            "The umpire's tool for the 1813 campaign: the road map of five theatres, "
            "ten army groups, the campaign day, and the battles that follow.",
        )
