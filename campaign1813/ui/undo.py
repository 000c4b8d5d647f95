"""Umpire actions on the window's undo stack, each a thin wrapper over one campaign service.

The campaign's own event log does the real work: the first ``redo()`` of a
:class:`CampaignAction` calls the service (``issue_order``, ``end_day``, ``record_result`` …),
later ones call ``commands.redo`` and ``undo()`` calls ``commands.undo``. The stack only keeps
the labels and the order, so undo still works on a file reopened later (the window asks the log
directly once its stack is empty).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand, QUndoStack
from sqlmodel import Session

from campaign1813.campaign import commands as services
from campaign1813.campaign.day.actions import Changes
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.document import CampaignDocument

Service = Callable[[Session], Changes]
Listener = Callable[[Changes], None]


class CampaignAction(QUndoCommand):
    """One umpire action, done by its service and undone or redone through the event log."""

    def __init__(self, document: CampaignDocument, service: Service,
                 listener: Listener | None = None,
                 on_refused: Callable[[str], None] | None = None):
        super().__init__()
        self._document = document
        self._service = service
        self._listener = listener
        self._on_refused = on_refused
        self._done_once = False
        self.changes: Changes | None = None
        self.refusal: CampaignError | None = None
        self.failure: Exception | None = None

    def redo(self) -> None:
        """Do the action the first time; apply it again from the log after an undo."""
        if not self._done_once:
            self._run(self._service, first=True)
        else:
            self._run(services.redo)

    def undo(self) -> None:
        """Put back the campaign as it was before this action."""
        self._run(services.undo)

    def _run(self, call: Service, first: bool = False) -> None:
        try:
            with self._document.session() as session:
                changes = call(session)
        except CampaignError as exc:
            # the session rolled back; a refused first attempt never stays on the stack
            self.refusal = exc
            self.setObsolete(True)
            if not first and self._on_refused is not None:
                self._on_refused(f"{self.text()}: {exc}")
            return
        except Exception as exc:  # noqa: BLE001 (an exception cannot cross Qt's redo())
            # rolled back too; push_action raises it for the application's error handler
            self.failure = exc
            self.setObsolete(True)
            if not first and self._on_refused is not None:
                self._on_refused(f"{self.text()}: {exc}")
            return
        if first:
            self._done_once = True
            self.setText(changes.label)
        self.changes = changes
        if self._listener is not None:
            self._listener(changes)


def push_action(stack: QUndoStack, action: CampaignAction) -> Changes:
    """Do an action and keep it on the stack; a refusal is raised and leaves nothing behind."""
    stack.push(action)
    if action.refusal is not None:
        raise action.refusal
    if action.failure is not None:
        raise action.failure
    if action.changes is None:
        raise RuntimeError("the action was pushed after it had already been done")
    return action.changes


def log_undo(document: CampaignDocument) -> Changes:
    """Take back the latest action in the file's log (one done before the file was opened)."""
    with document.session() as session:
        return services.undo(session)


def log_redo(document: CampaignDocument) -> Changes:
    """Apply again the earliest action taken back in the file's log."""
    with document.session() as session:
        return services.redo(session)


def log_labels(document: CampaignDocument) -> tuple[str | None, str | None]:
    """What undo and redo would do next in the file's log, or None for nothing."""
    with document.session() as session:
        return services.next_undo(session), services.next_redo(session)
