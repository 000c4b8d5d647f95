"""The battle window at the table: Setup, then Play one activation at a time, the live Report;
Auto-resolve and Finish from the same window.

The window takes the open campaign in its constructor: every step it takes is one service call
(``open_battle``, ``battle_action``, ``finish_battle``, ``abandon_battle``,
``autoresolve_battle``) run as any action is (:class:`~campaign1813.ui.operation.Operation`), so
each is one action in the file's log, undone from Edit ▸ Undo like any other. It reads the
battle only through ``queries.fight_view`` and follows the open campaign's ``changed`` signal,
so an undo, a redo or another program's step shows here as soon as the main window sees it.
Nothing of the battle is kept in the window: closed and opened again, it shows the battle at the
step it had reached.

Its own Edit ▸ Undo takes back the battle's steps and its setup; an action of the campaign
beyond them (the day's march, an order) is undone from here only once the umpire confirms it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.setup_sheet import SetupSheet
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.ui.battle.autoresolve_dialog import AutoResolveDialog
from campaign1813.ui.battle.brigades import army_line
from campaign1813.ui.battle.generic_page import GenericPlayPage
from campaign1813.ui.battle.play_page import PlayPage
from campaign1813.ui.battle.report_view import ReportView
from campaign1813.ui.battle.setup_page import SetupPage
from campaign1813.ui.document_paper import PaperActions, campaign_folder, report_document
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.operation import Operation

SETUP, PLAY, REPORT = range(3)


class BattleWindow(QMainWindow):
    """One battle of the open campaign, at the table."""

    finished = Signal(int)  # the battle's number, once its result is recorded here

    def __init__(self, campaign: OpenCampaign, battle: int,
                 edit_actions: Sequence[QAction] = (), parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.campaign = campaign
        self.battle = battle
        self._document = campaign.document
        self.view: queries.FightView | None = None
        self._sheet_of: tuple[BattleSetup, SetupSheet] | None = None
        self.autoresolve_dialog: AutoResolveDialog | None = None
        self.heading = QLabel()
        self.heading.setStyleSheet("font-weight: bold; font-size: 11pt")
        self.standing = QLabel()
        self.standing.setStyleSheet("color: #333")
        self.result_text = QLabel()
        self.result_text.setWordWrap(True)
        self.auto_button = QPushButton("&Auto-resolve…")
        self.auto_button.clicked.connect(self.show_autoresolve)
        self.finish_button = QPushButton("&Finish battle")
        self.finish_button.setToolTip("Give the result to the campaign, once (Ctrl+Shift+F)")
        self.finish_button.clicked.connect(self.finish)
        self.setup_page = SetupPage(self._setup_act, self._open_fight)
        self.setup_page.begin_requested.connect(self._on_begin)
        self.setup_page.autoresolve_requested.connect(self.show_autoresolve)
        self.play_page = PlayPage(self._act)
        self.play_page.message_shown.connect(lambda text: self.statusBar().showMessage(
            text.splitlines()[0] if text else ""))
        # a ruleset without the 1813 chips is played on the generic page, from its engine
        self.generic_page = GenericPlayPage(self._act, self.finish)
        self.generic_page.message_shown.connect(lambda text: self.statusBar().showMessage(
            text.splitlines()[0] if text else ""))
        self.play_stack = QStackedWidget()
        self.play_stack.addWidget(self.play_page)
        self.play_stack.addWidget(self.generic_page)
        self.report = ReportView()
        # the report on paper: as ``export report`` writes it, and the diary's link opens it
        self.paper = PaperActions(self, "the battle report",
                                  lambda: report_document(campaign, battle),
                                  lambda: campaign_folder(campaign),
                                  lambda text: self.statusBar().showMessage(text), keys=False)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.setup_page, "&1 Setup")
        self.tabs.addTab(self.play_stack, "&2 Play")
        self.tabs.addTab(self._report_page(), "&3 Report")

        top = QHBoxLayout()
        texts = QVBoxLayout()
        texts.setSpacing(1)
        first = QHBoxLayout()
        first.addWidget(self.heading)
        first.addSpacing(16)
        first.addWidget(self.standing, 1)
        texts.addLayout(first)
        texts.addWidget(self.result_text)
        top.addLayout(texts, 1)
        top.addWidget(self.auto_button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.finish_button, 0, Qt.AlignmentFlag.AlignTop)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 2)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(body)
        self.undo_action = QAction("&Undo", self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.setToolTip(
            "Take back the battle's last step (its setup last); an action of the campaign "
            "beyond the setup only after you confirm it. In a text field Ctrl+Z undoes the "
            "typing instead.")
        self.undo_action.triggered.connect(lambda _c=False: self.undo())
        self._menus(edit_actions)
        # a laptop's 1366 × 768, less what the desktop keeps for itself
        room = self.screen().availableGeometry() if self.screen() is not None else None
        self.resize(min(1366, room.width()) if room else 1366,
                    min(740, room.height() - 30) if room else 740)
        campaign.changed.connect(self._on_changed)
        campaign.opened.connect(self._on_opened)
        view = self.refresh()
        if view is not None and self._begun(view):
            self.tabs.setCurrentIndex(PLAY)

    def _report_page(self) -> QWidget:
        """The Report tab: the report as it grows, with Print… and Export… above it."""
        page = QWidget()
        row = QHBoxLayout()
        row.addStretch(1)
        for action in (self.paper.print_action, self.paper.export_action):
            button = QPushButton(action.text().replace("&", ""))
            button.setToolTip(action.toolTip())
            button.clicked.connect(action.trigger)
            row.addWidget(button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.report, 1)
        return page

    @staticmethod
    def _begun(view: Any) -> bool:
        if view.engine.chips:
            return bool(view.state.phase != "setup")
        return bool(view.steps)

    @property
    def generic(self) -> bool:
        """Whether the battle is played on the generic page (its ruleset draws no chips)."""
        return self.view is not None and not self.view.engine.chips

    def _menus(self, edit_actions: Sequence[QAction]) -> None:
        edit = self.menuBar().addMenu("&Edit")
        edit.setToolTipsVisible(True)
        edit.addAction(self.undo_action)
        edit.addActions(list(edit_actions))
        menu = self.menuBar().addMenu("&Battle")
        p, g = self.play_page, self.generic_page
        # each shortcut does the 1813 page's step, or the generic page's when it is shown
        for text, slot, other, keys in (
                ("&Draw Chip", p.draw, None, "Ctrl+D"),
                ("Roll &Pips", p.roll_pips, None, "Ctrl+P"),
                ("&Roll the Test (or Take the Action)", p.form.roll, g.act, "Ctrl+R"),
                ("&Next Queued Test (or Next Step)", p.open_next, g.next_step, "Ctrl+N"),
                ("&End Turn", p.end_turn, None, "Ctrl+Shift+E")):
            action = menu.addAction(text)
            action.triggered.connect(lambda _c=False, s=slot, o=other: self._key(s, o))
            action.setShortcut(QKeySequence(keys))
        menu.addSeparator()
        auto = menu.addAction("&Auto-resolve…")
        auto.triggered.connect(self.show_autoresolve)
        finish = menu.addAction("&Finish Battle")
        finish.setShortcut(QKeySequence("Ctrl+Shift+F"))
        finish.triggered.connect(self.finish)
        menu.addSeparator()
        report = self.menuBar().addMenu("&Report")
        report.setToolTipsVisible(True)
        self.paper.print_action.setText("&Print Report…")
        self.paper.export_action.setText("E&xport Report…")
        report.addAction(self.paper.print_action)
        report.addAction(self.paper.export_action)
        close = menu.addAction("&Close Window")
        close.setShortcut(QKeySequence.StandardKey.Close)
        close.triggered.connect(self.close)

    def _key(self, chips: Callable[[], Any], generic: Callable[[], Any] | None) -> None:
        if not self.generic:
            chips()
        elif generic is not None:
            generic()
        elif self.view is not None:
            self.generic_page.say(f"Ruleset {self.view.ruleset} draws no chips: choose the "
                                  "action on the Play page")

    # ----- undo -------------------------------------------------------------------------
    def _show_undo(self) -> None:
        doc = self.campaign.document
        label = queries.next_undo(doc) if doc is not None else None
        self.undo_action.setEnabled(label is not None)
        self.undo_action.setText(f"&Undo {label}" if label else "&Undo")

    def undo(self) -> Changes | None:
        """Take back the battle's last step; past its setup, into the campaign, only once the
        umpire confirms it."""
        doc = self.campaign.document
        if doc is None:
            return None
        step = queries.undo_step(doc)
        if step is None:
            self.statusBar().showMessage("There is nothing to undo")
            return None
        label = step.label
        if not queries.undo_is_in_battle(doc, self.battle) and not self._confirm_undo(label):
            self.statusBar().showMessage(f"Nothing undone: {label} is the campaign's, beyond "
                                         "this battle's setup")
            return None
        return (Operation(self.campaign, lambda d: services.undo(d, expected=step))
                .failure(self._on_undo_refused).run())

    def _confirm_undo(self, label: str) -> bool:
        where = ("The battle's steps and its setup are all undone"
                 if self.view is None else "The next step to undo is not this battle's")
        answer = QMessageBox.question(
            self, "Undo beyond the battle",
            f"{where}. Undo goes on into the campaign:\n\n{label}\n\nUndo it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _on_undo_refused(self, exc: CampaignError) -> None:
        (self.generic_page if self.generic else self.play_page).say(f"Refused: {exc}",
                                                                    error=True)
        self.statusBar().showMessage(f"Refused: {exc}")

    # ----- reading ------------------------------------------------------------------------
    def _battle_view(self) -> Any:
        status = self.campaign.status
        if status is None:
            return None
        return next((b for b in status.battles if b.id == self.battle), None)

    def _sheet(self, doc: CampaignStore, view: queries.FightView) -> SetupSheet:
        """The battle's setup sheet, for the table drawn on the Setup page: read again only
        when the setup on the table has changed (its steps leave the table as it is)."""
        if self._sheet_of is None or self._sheet_of[0] != view.setup:
            self._sheet_of = (view.setup, queries.battle_setup_view(doc, self.battle))
        return self._sheet_of[1]

    def refresh(self) -> queries.FightView | None:
        """Read the battle again and show it everywhere; the battle on the table, if it is."""
        doc = self.campaign.document
        if doc is None:
            return None
        self.view = view = queries.fight_view(doc, self.battle)
        self._show_undo()
        battle = self._battle_view()
        title = battle.title if battle is not None else f"battle {self.battle}"
        title = title[0].upper() + title[1:]
        self.setWindowTitle(f"{title} — at the table")
        self.heading.setText(title)
        decided = battle is not None and battle.result is not None
        if view is None:
            self.setup_page.show_unopened(battle)
            self.standing.setText("Not yet set up on the table.")
            self.result_text.setText(f"Result: {battle.result}" if decided else "")
            self.tabs.setTabEnabled(PLAY, False)
            self.tabs.setTabEnabled(REPORT, False)
            self.tabs.setCurrentIndex(SETUP)
            self.finish_button.setEnabled(False)
            self.auto_button.setEnabled(not decided)
            return None
        self.tabs.setTabEnabled(PLAY, True)
        self.tabs.setTabEnabled(REPORT, True)
        self.setup_page.show_view(view)
        self.setup_page.diagram.show_sheet(self._sheet(doc, view))
        if view.engine.chips:
            self.play_stack.setCurrentWidget(self.play_page)
            self.play_page.show_view(view)
        else:
            self.play_stack.setCurrentWidget(self.generic_page)
            self.generic_page.show_view(view)
        self.report.show_lines(view.report)
        d = view.decision
        broken = ", ".join(view.broken_corps)
        self.standing.setText(army_line(view) + (f" · broken: {broken}" if broken else ""))
        where = view.step_now or ""
        self.result_text.setText(f"Rules {escape(view.ruleset)}: <b>{escape(where)}</b> — "
                                 f"result: <b>{escape(d.result or 'undecided')}</b> "
                                 f"({escape(d.reason)})")
        finished = view.closed
        self.finish_button.setEnabled(d.final and not finished)
        self.auto_button.setEnabled(not finished and not decided)
        return view

    def _on_changed(self, update: Any) -> None:
        if self.campaign.document is self._document:
            if update.changes.label.startswith(("Undo ", "Redo ")):
                # the battle went back (or on again): a refusal shown before no longer stands
                self.play_page.clear_refusal()
                self.generic_page.clear_refusal()
            self.refresh()

    def _on_opened(self) -> None:
        if self.campaign.document is not self._document:
            self.close()  # another campaign is open: this battle is not in it
        else:
            self.refresh()

    # ----- acting -------------------------------------------------------------------------
    def _act(self, action: str, typed: Any, inputs: dict[str, Any]) -> Changes:
        """One step of the battle, as one action in the campaign's log; a refusal is raised to
        the page that asked, which shows it."""
        return Operation(self.campaign, lambda doc: services.battle_action(
            doc, self.battle, action, typed=typed, **inputs)).perform()

    def _on_begin(self) -> None:
        self.tabs.setCurrentIndex(PLAY)

    def _setup_act(self, action: str, inputs: dict[str, Any]) -> Changes:
        return self._act(action, None, inputs)

    def _open_fight(self, seed: int | None, specials: list[str],
                    ruleset: str | None = None) -> Changes:
        changes = Operation(self.campaign, lambda doc: services.open_battle(
            doc, self.battle, seed=seed, specials=specials, ruleset=ruleset)).perform()
        self.statusBar().showMessage(changes.label)
        return changes

    def finish(self) -> Changes | None:
        """Give the battle's result to the campaign, once; the window closes onto the map."""
        return (Operation(self.campaign, lambda doc: services.finish_battle(doc, self.battle))
                .success(self._on_finished).failure(self._on_finish_refused).run())

    def _on_finished(self, _changes: Changes) -> None:
        self.finished.emit(self.battle)
        self.close()

    def _on_finish_refused(self, exc: CampaignError) -> None:
        (self.generic_page if self.generic else self.play_page).say(f"Refused: {exc}",
                                                                    error=True)
        self.statusBar().showMessage(f"Refused: {exc}")

    def show_autoresolve(self) -> AutoResolveDialog:
        """The Monte Carlo odds, then the seeded run if the umpire commits."""
        in_progress = self.view is not None and not self.view.closed
        dialog = AutoResolveDialog(self._estimate, self._autoresolve, in_progress, self)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.finished.connect(lambda _r: self._after_autoresolve(dialog))
        dialog.show()
        self.autoresolve_dialog = dialog
        return dialog

    def _estimate(self, runs: int, progress: Callable[[int, int], bool]) -> list[str]:
        doc = self.campaign.document
        if doc is None:
            raise CampaignError("no campaign is open")
        return services.autoresolve_odds(doc, self.battle, runs, progress=progress,
                                         ruleset=self._ruleset())

    def _ruleset(self) -> str:
        """The ruleset to auto-resolve by: the battle's on the table, else the setup's choice."""
        return str(self.view.ruleset if self.view is not None
                   else self.setup_page.chosen_ruleset())

    def _autoresolve(self) -> Changes:
        ruleset = self._ruleset()
        if self.view is not None and not self.view.closed:
            Operation(self.campaign,
                      lambda doc: services.abandon_battle(doc, self.battle)).perform()
        return Operation(self.campaign, lambda doc: services.autoresolve_battle(
            doc, self.battle, ruleset=ruleset)).perform()

    def _after_autoresolve(self, dialog: AutoResolveDialog) -> None:
        if dialog.committed is not None:
            self.finished.emit(self.battle)
            self.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        try:
            self.campaign.changed.disconnect(self._on_changed)
            self.campaign.opened.disconnect(self._on_opened)
        except (RuntimeError, TypeError):  # already gone with the campaign
            pass
        super().closeEvent(event)
