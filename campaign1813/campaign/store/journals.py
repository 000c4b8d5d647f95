"""Each side's diary of its own commands' days, kept beside the dawn it ends at (record 0031).

A side's diary (``fog.journal``) is made from consecutive dawns: where each of its commands
went between one dawn and the next, and the state it came to. Those entries change only when a
day closes, so the action that closes a day works out both sides' entries between the newest
dawn kept before the new day and the new dawn, and keeps them with that dawn's snapshot (in
the log's ``snapshots`` section, so undo and redo and a campaign moved whole carry them). A
side's view then reads the kept entries and works out only the last stretch (the newest dawn
kept before today against today's state): one snapshot decoded, however long the campaign.
A snapshot kept without its entries (by a version before schema 11) is worked out from its
dawn and the one before it; the next day closed keeps the entries of every such snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

import msgspec

from campaign1813.campaign.day import fog
from campaign1813.campaign.day.ground import Ground
from campaign1813.campaign.day.sideview import OwnMove
from campaign1813.campaign.day.state import DayState
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import CampaignReader

__all__ = ["as_json", "closing", "fill", "side_journals"]

Moves = tuple[OwnMove, ...]


def as_json(moves: Sequence[OwnMove]) -> list[Any]:
    """Moves as the log and the snapshot's row keep them: plain JSON values."""
    out: list[Any] = msgspec.to_builtins(list(moves))
    return out


def _both(ground: Ground, before: DayState, after: DayState) -> Moves:
    """Both sides' moves between two dawns, the French first."""
    return tuple(m for side in Side for m in fog.journal(ground, (before, after), side))


def _dawn(reader: CampaignReader, first: DayState, days: Sequence[date], at: int) -> DayState:
    """The state of the ``at``-th kept dawn (-1: the first day, rebuilt from the log)."""
    return reader.first_day(first) if at < 0 else reader.snapshot(days[at])


def closing(reader: CampaignReader, ground: Ground, first: DayState, dawn: DayState) -> Moves:
    """Both sides' moves of the day a closing action ends: between the newest dawn kept before
    ``dawn``'s day (the first day if none) and ``dawn``, the state the action leaves."""
    days = [d for d in reader.journals() if first.date < d < dawn.date]
    return _both(ground, _dawn(reader, first, days, len(days) - 1), dawn)


def fill(reader: CampaignReader, ground: Ground, first: DayState) -> dict[date, Moves]:
    """The moves of every kept dawn that was kept without them (worked out from its dawn and
    the one before it), to be kept with them."""
    found = reader.journals()
    days = [d for d in found if first.date < d]
    out: dict[date, Moves] = {}
    for at, day in enumerate(days):
        if found[day] is None:
            out[day] = _both(ground, _dawn(reader, first, days, at - 1), reader.snapshot(day))
    return out


def side_journals(reader: CampaignReader, ground: Ground, first: DayState, today: DayState,
                  before: date) -> Mapping[Side, Moves]:
    """Each side's diary of its own commands' days up to ``today`` (the state of the day
    ``before``): the moves kept with each dawn after the first and before ``before``, and
    those between the newest of them and ``today``; the same as ``fog.journal`` over every
    dawn kept (``dawns_before``) and ``today``."""
    if before <= first.date:
        return {side: () for side in Side}
    found = reader.journals()
    days = [d for d in found if first.date < d < before]
    moves: list[OwnMove] = []
    for at, day in enumerate(days):
        held = found[day]
        if held is None:  # kept before the journals were: worked out from its two dawns
            held = _both(ground, _dawn(reader, first, days, at - 1), reader.snapshot(day))
        moves += held
    moves += _both(ground, _dawn(reader, first, days, len(days) - 1), today)
    return {side: tuple(m for m in moves if m.side is side) for side in Side}
