"""Every umpire action, taking the open campaign and returning what changed.

Each service runs one action from ``day.actions`` inside one write transaction of the campaign
file (``BEGIN IMMEDIATE``): the state is read, changed, written back and logged together, so a
second window or process waits or is told the campaign is busy, and never interleaves. A refused
action raises ``OrderRefused`` with the reason and leaves the file as it was. The window and the
command line call these and nothing else to change a campaign.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign1813.campaign.day.actions import (
    Action,
    CancelOrder,
    ChangeSetting,
    ChooseRetreat,
    EndDay,
    IssueOrder,
    IssueOrders,
    MergeBattles,
    PostponeBattle,
    RecordResult,
    SplitBattle,
)
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.store import log
from campaign1813.campaign.store.document import CampaignDocument

__all__ = [
    "Changes", "IssueOrder", "cancel_order", "change_setting", "choose_retreat", "end_day",
    "issue_order", "issue_orders", "merge_battles", "perform", "postpone_battle",
    "record_result", "redo", "split_battle", "undo",
]


def perform(doc: CampaignDocument, action: Action) -> Changes:
    """Apply one umpire action to the campaign and log it, in one write transaction."""
    ground = doc.ground()
    with doc.writing() as con:
        return log.perform(con, ground, action)


def issue_order(doc: CampaignDocument, command: str, verb: str, objective: str, *,
                via: Sequence[str] = (), forced: bool = False) -> Changes:
    """Give a command an order (refused with the reason if it breaks the rules)."""
    return perform(doc, IssueOrder(command, verb, objective, tuple(via), forced))


def issue_orders(doc: CampaignDocument, orders: Sequence[IssueOrder]) -> Changes:
    """Give several orders as one action (one undo step); refused whole if any is refused."""
    return perform(doc, IssueOrders(tuple(orders)))


def cancel_order(doc: CampaignDocument, command: str) -> Changes:
    """Withdraw a command's orders."""
    return perform(doc, CancelOrder(command))


def end_day(doc: CampaignDocument) -> Changes:
    """March the day, find contacts and schedule battles; close it once its battles have
    results."""
    return perform(doc, EndDay())


def record_result(doc: CampaignDocument, battle: int, winner: str | None, *,
                  casualties: dict[str, Any] | None = None) -> Changes:
    """Record a battle's result (a Side or its name, ``draw`` or None) and its aftermath."""
    text = "draw" if winner is None else str(winner)
    return perform(doc, RecordResult(battle, text, casualties or {}))


def merge_battles(doc: CampaignDocument, battle: int, other: int, reason: str,
                  force: bool = False) -> Changes:
    """Fight two battles of a day as one, with the umpire's reason kept; battles far apart by
    road are refused unless ``force`` says they are one fight."""
    return perform(doc, MergeBattles(battle, other, reason, force))


def split_battle(doc: CampaignDocument, battle: int, commands: Sequence[str],
                 reason: str) -> Changes:
    """Fight the named commands of a battle as a separate battle."""
    return perform(doc, SplitBattle(battle, tuple(commands), reason))


def postpone_battle(doc: CampaignDocument, battle: int, reason: str, days: int = 1) -> Changes:
    """Put a battle off by some days."""
    return perform(doc, PostponeBattle(battle, reason, days))


def choose_retreat(doc: CampaignDocument, command: str, option: str,
                   town: str | None = None) -> Changes:
    """Surrender or break out for a command with no road of retreat."""
    return perform(doc, ChooseRetreat(command, option, town))


def change_setting(doc: CampaignDocument, name: str, value: str) -> Changes:
    """Change one of the campaign's settings (refused with the reason if the value is not
    one it can take); logged and undone like any action."""
    return perform(doc, ChangeSetting(name, value))


def undo(doc: CampaignDocument, expected: str | None = None) -> Changes:
    """Take back the latest action in force; with ``expected``, only if it is that one."""
    with doc.writing() as con:
        return log.undo(con, expected)


def redo(doc: CampaignDocument, expected: str | None = None) -> Changes:
    """Apply again the earliest action taken back; with ``expected``, only if it is that one."""
    with doc.writing() as con:
        return log.redo(con, expected)
