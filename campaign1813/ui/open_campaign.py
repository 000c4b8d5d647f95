"""The campaign open in the window: its file, what the window last read of it, and the two
signals its views follow.

Opening a file reads the whole campaign (``opened``). After an umpire action, an undo or a redo,
:meth:`OpenCampaign.apply` re-reads only what the action's ``Changes`` name and says so in an
:class:`Update` (``changed``), so each view refreshes just its part: the table the rows of the
commands named, the map only when a command moved or changed state, the heading only when the
date, the day's march or its battles still waiting changed, the Battle menu only when a battle
or a command's state did. An action refused that no view shows itself is told on ``refused``.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace
from PySide6.QtCore import QObject, Signal

from campaign1813.campaign import queries
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.state import DayState
from campaign1813.campaign.queries import BattleView, CampaignStatus, CommandView
from campaign1813.campaign.scenario.types import Scenario
from campaign1813.campaign.store.protocol import CampaignStore


class Update(msgspec.Struct, frozen=True):
    """What an action, undo or redo changed, as the views need it."""

    changes: Changes
    commands: tuple[CommandView, ...]  # the commands read again: named, or changed with the day
    heading: bool  # the date, the day's marched state or its battles waiting changed
    battles: bool  # a battle changed, or the state of a command (what the Battle menu lists)

    @property
    def positions(self) -> frozenset[str]:
        """The commands whose place or state changed: their flags on the map."""
        return self.changes.positions


class OpenCampaign(QObject):
    """One open campaign file (or none) and the latest read of it, shared by the views."""

    opened = Signal()  # a file was opened or closed: read everything again
    changed = Signal(object)  # an Update, after an action, an undo or a redo
    # an action was refused and the view that ran it leaves the telling to the window: its
    # reason, word for word (see ui/operation.py)
    refused = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.document: CampaignStore | None = None
        self.scenario: Scenario | None = None
        self.status: CampaignStatus | None = None
        self._state: DayState | None = None  # while an update is told: the state it was read from

    @property
    def battles_due(self) -> tuple[BattleView, ...]:
        """The battles still to be fought, as last read (none with no campaign open)."""
        return () if self.status is None else self.status.battles_due

    def open(self, doc: CampaignStore | None) -> None:
        """Show another campaign, a file or a server's (None for none): the one full read."""
        self.document = doc
        self.scenario = doc.scenario() if doc is not None else None
        self.status = queries.campaign_status(doc) if doc is not None else None
        self.opened.emit()

    def reload(self) -> None:
        """Read the open file again whole (it was changed elsewhere)."""
        self.open(self.document)

    def apply(self, changes: Changes) -> Update:
        """Re-read what the changes name and tell the views.

        The commands named are read on their own; the day as a whole (battles, date, towns,
        whether it has marched) only when the changes touch it.
        """
        doc, old = self.document, self.status
        if doc is None or old is None:
            raise RuntimeError("no campaign is open")
        whole = (changes.battles or changes.towns or changes.date_changed
                 or changes.marched_changed or changes.report is not None or changes.supply)
        state = None
        if whole or changes.commands:  # the state read once, every view built from it
            state, name = queries.day_read(doc)
            ground = doc.ground().adjusted(state.settings)
        if whole:
            assert state is not None
            status = queries.status_of(state, ground, name)
            # a command's read model also depends on the day (its reason names the date, its
            # roads of retreat are offered only on the day after its defeat), so every view
            # that differs is fresh, named in the changes or not
            seen = {c.name: c for c in old.commands}
            fresh = tuple(c for c in status.commands
                          if c.name in changes.commands or seen.get(c.name) != c)
        else:
            fresh = (queries.command_views(state, ground, changes.commands)
                     if state is not None else ())
            by_name = {c.name: c for c in fresh}
            status = replace(old, commands=tuple(by_name.get(c.name, c) for c in old.commands))
        before = {c.name: c.status for c in old.commands}
        states = any(before.get(c.name) is not c.status for c in fresh)
        self.status = status
        update = Update(
            changes, fresh,
            heading=old.heading != status.heading,
            battles=bool(changes.battles) or states,
        )
        self._state = state
        try:
            self.changed.emit(update)
        finally:
            self._state = None
        return update

    def state_just_read(self) -> DayState | None:
        """While the views take an update: the state of the day it was read from (so that
        what they work out from the state, a route's preview, needs no second read); else
        None."""
        return self._state
