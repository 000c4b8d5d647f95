"""Edit ▸ Undo and Redo as a view of the campaign file's event log.

The log in the file is the only undo history: it outlives the window, and the command line and
other windows write to it too. The two menu entries show the labels the log gives
(``queries.undo_step``/``redo_step``, e.g. "Undo Order: 4 Corps – Move Lüneburg") and ask the
services to take back or apply again exactly that log entry (``expected=``, by the entry's own
id, not its label), so an undo is refused, not misapplied, when someone else acted since the
menu was read, even if they logged an action with the same label. There is no stack or counter
of our own to keep in step with the log. Each step is run as any action is
(:class:`~campaign1813.ui.operation.Operation`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from campaign1813.campaign import queries
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.protocol import CampaignStore, LogStep
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.operation import Operation, Service, day_service


class UndoHistory(QObject):
    """The Undo and Redo actions of the Edit menu, labelled from the file's log."""

    def __init__(self, campaign: OpenCampaign, parent: QObject | None = None):
        super().__init__(parent)
        self.campaign = campaign
        self.undo_next: LogStep | None = None
        self.redo_next: LogStep | None = None
        self.undo_action = QAction("&Undo", self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = QAction("&Redo", self)
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        campaign.opened.connect(self._on_read)
        campaign.changed.connect(self._on_read)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Read what the log would undo and redo next into the menu."""
        doc = self.campaign.document
        self.undo_next = queries.undo_step(doc) if doc is not None else None
        self.redo_next = queries.redo_step(doc) if doc is not None else None
        for action, word, step in ((self.undo_action, "&Undo", self.undo_next),
                                   (self.redo_action, "&Redo", self.redo_next)):
            action.setEnabled(step is not None)
            action.setText(f"{word} {step.label}" if step else word)

    def _on_read(self, *_args: object) -> None:
        """The file was opened or changed: the log's next steps may have changed too."""
        self.refresh()

    def undoing(self) -> Service:
        """The service call that takes back the action the menu shows; refused if the log's
        latest is another."""
        return self._step("undo", self.undo_next)

    def redoing(self) -> Service:
        """The service call that applies again the action the menu shows; refused if the
        log's next is another."""
        return self._step("redo", self.redo_next)

    def undo(self) -> Changes:
        """Take back the action the menu shows, and show what changed; a refusal is raised."""
        return Operation(self.campaign, self.undoing()).perform()

    def redo(self) -> Changes:
        """Apply again the action the menu shows, and show what changed; a refusal is raised."""
        return Operation(self.campaign, self.redoing()).perform()

    @staticmethod
    def _step(what: str, shown: LogStep | None) -> Service:
        def step(doc: CampaignStore) -> Changes:
            if shown is None:
                raise CampaignError(f"there is nothing to {what}")
            return day_service(what, expected=shown)(doc)

        return step
