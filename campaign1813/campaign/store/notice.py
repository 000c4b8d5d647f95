"""What a server campaign's notification says changed, so that a window re-reads only that.

Each commit to a server campaign notifies the channel ``c1813_changed`` with the payload
``CAMPAIGN TOKEN BODY``: the campaign's name, the committing store's (or player's seat's) token,
and what the commit changed. ``BODY`` is a :class:`Notice` as compact JSON (the names of the
commands, the numbers of the battles, the towns, the places, the fights and reports of the
enemy the action touched, and its flags), or ``whole`` when the commit's changes are not known
or would not fit in PostgreSQL's payload (under 8000 bytes): the window then reads the campaign
whole. An umpire's action (or its undo or redo) says ``logged``, even one that changed nothing
of the day's state (a bookmark), so the window's Undo menu and History follow it; a player's
order form submitted, or marked taken by the umpire, says ``forms`` and nothing of the state.
The action's diary lines and its day's report are never sent: the report is told as the day it
closed (``report``), which the window may read on its own.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import msgspec

from campaign1813.campaign.day.changes import Changes

__all__ = ["LABEL_LENGTH", "MAX_PAYLOAD", "WHOLE", "Notice", "merged", "notice_of", "payload",
           "read_payload"]

MAX_PAYLOAD = 7999  # PostgreSQL's NOTIFY takes a payload shorter than 8000 bytes
WHOLE = "whole"  # the body that says: read the campaign again whole
LABEL_LENGTH = 200  # an action's label, cut to this many characters in a notification


class Notice(msgspec.Struct, frozen=True):
    """What one commit (or several, merged) changed, as a notification tells it."""

    label: str = ""
    commands: frozenset[str] = frozenset()
    battles: frozenset[int] = frozenset()
    towns: frozenset[str] = frozenset()
    positions: frozenset[str] = frozenset()
    fights: frozenset[int] = frozenset()
    reports: frozenset[int] = frozenset()
    date_changed: bool = False
    marched_changed: bool = False
    supply: bool = False
    battle_step: bool = False
    report: date | None = None  # the day whose report an End Day made
    logged: bool = False  # an umpire's action logged, undone or redone (Undo follows it)
    forms: bool = False  # a player's order form submitted, or marked by the umpire
    whole: bool = False  # not known, or too much to tell: read the campaign again whole
    count: int = 1  # how many commits this notice stands for

    @property
    def state(self) -> bool:
        """Whether the commit changed the campaign's state (anything but the forms)."""
        return bool(self.commands or self.battles or self.towns or self.positions
                    or self.fights or self.reports or self.date_changed
                    or self.marched_changed or self.supply or self.report is not None)

    def changes(self) -> Changes:
        """The notice as the ``Changes`` a window's own action gives (without diary lines or
        the day's report, which a notification never carries)."""
        return Changes(self.label, (), self.commands, self.battles, self.towns,
                       self.date_changed, None, self.positions, self.marched_changed,
                       self.fights, self.battle_step, self.reports, self.supply)


_NOTHING = Notice()


def notice_of(changes: Changes) -> Notice:
    """What a notification says of an action's changes."""
    report = changes.report.day if changes.report is not None else None
    return Notice(changes.label[:LABEL_LENGTH], changes.commands, changes.battles,
                  changes.towns, changes.positions, changes.fights, changes.reports,
                  changes.date_changed, changes.marched_changed, changes.supply,
                  changes.battle_step, report, logged=True)


_DECODER = msgspec.json.Decoder(Notice)


def _compact(notice: Notice) -> bytes:
    """A notice as JSON holding only what it says: no empty set, no flag left down, the
    names and numbers sorted (so one change is always one text)."""
    plain: dict[str, Any] = {}
    for name in notice.__struct_fields__:
        value = getattr(notice, name)
        if value != getattr(_NOTHING, name):
            plain[name] = sorted(value) if isinstance(value, frozenset) else value
    return msgspec.json.encode(plain)


def payload(campaign: str, token: str, notice: Notice | None) -> str:
    """A notification's payload: the campaign, the token of the store that committed, and the
    notice as compact JSON, or ``whole`` where there is none or it would not fit."""
    head = f"{campaign} {token} "
    if notice is not None and not notice.whole:
        text = f"{head}{_compact(notice).decode()}"
        if len(text.encode()) <= MAX_PAYLOAD:
            return text
    return head + WHOLE


def read_payload(text: str) -> tuple[str, str, Notice]:
    """A notification's campaign, token and notice; a payload of an older program (no body),
    ``whole`` or one that cannot be read stands for the whole campaign."""
    campaign, _, rest = text.partition(" ")
    token, _, body = rest.partition(" ")
    try:
        notice = _DECODER.decode(body) if body and body != WHOLE else Notice(whole=True)
    except msgspec.DecodeError:  # a validation error is one too
        notice = Notice(whole=True)
    return campaign, token, notice


def merged(notices: list[Notice]) -> Notice:
    """Several notices as one (one refresh for several commits heard together): every name and
    number of each, a flag if any has it, the latest day's report, the labels joined."""
    if len(notices) == 1:
        return notices[0]
    labels = [n.label for n in notices if n.label]
    reports = [n.report for n in notices if n.report is not None]
    count = sum(n.count for n in notices)
    label = labels[0] if len(labels) == 1 else f"{count} changes: {'; '.join(labels)}"
    return Notice(
        label[:LABEL_LENGTH * 2],
        frozenset().union(*(n.commands for n in notices)),
        frozenset().union(*(n.battles for n in notices)),
        frozenset().union(*(n.towns for n in notices)),
        frozenset().union(*(n.positions for n in notices)),
        frozenset().union(*(n.fights for n in notices)),
        frozenset().union(*(n.reports for n in notices)),
        any(n.date_changed for n in notices),
        any(n.marched_changed for n in notices),
        any(n.supply for n in notices),
        all(n.battle_step for n in notices),
        max(reports) if reports else None,
        any(n.logged for n in notices),
        any(n.forms for n in notices),
        any(n.whole for n in notices),
        count,
    )
