"""The campaign's objectives, tracked: who holds each objective's towns, since when, and when a
side has met its theatre's objectives.

An objective (seed 000: "the French hold the Elbe and Magdeburg; the Prussians take them, then
open the road to Hannover") names the towns its side must hold. It is met while its side holds
every one of them, since the day the last of them passed to it (or from the start).
"""

from __future__ import annotations

from datetime import date

import msgspec

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.state import DayState
from campaign1813.campaign.scenario.types import Objective, Scenario, Side
from campaign1813.maps.types import Theatre


class TownHeld(msgspec.Struct, frozen=True):
    """One town of an objective: who holds it (None: nobody yet), and since when (None: from
    the start of the campaign)."""

    town: str
    holder: Side | None
    since: date | None


class ObjectiveState(msgspec.Struct, frozen=True):
    """An objective and where it stands today."""

    number: int
    objective: Objective
    towns: tuple[TownHeld, ...]

    @property
    def met(self) -> bool:
        """Whether its side holds every town it names."""
        return bool(self.towns) and all(t.holder is self.objective.side for t in self.towns)

    @property
    def since(self) -> date | None:
        """The day it was met (None: met from the start, or not met)."""
        if not self.met:
            return None
        days = [t.since for t in self.towns if t.since is not None]
        return max(days) if days else None

    def text(self) -> str:
        """``Allied, Northern Germany: Cross the Elbe and take Magdeburg — met since 9 May
        1813 (Magdeburg: Allied since 9 May 1813)``."""
        o = self.objective
        if self.met:
            when = f" since {format_date(self.since)}" if self.since else " from the start"
            head = "met" + when
        else:
            head = "not met"
        towns = "; ".join(
            f"{t.town}: " + (f"{t.holder.value}" if t.holder else "nobody")
            + (f" since {format_date(t.since)}" if t.holder and t.since else "")
            for t in self.towns)
        return f"{o.side.value}, {o.theatre.value}: {o.description} — {head} ({towns})"


def objective_states(scenario: Scenario, state: DayState) -> tuple[ObjectiveState, ...]:
    """Every objective of the scenario as it stands in the state, in the scenario's order."""
    return tuple(
        ObjectiveState(i, o, tuple(TownHeld(t, state.control.get(t), state.control_since.get(t))
                                   for t in o.towns))
        for i, o in enumerate(scenario.objectives, start=1))


def theatre_met(states: tuple[ObjectiveState, ...], theatre: Theatre, side: Side) -> bool:
    """Whether a side has met every one of its objectives in a theatre (and has some)."""
    mine = [s for s in states if s.objective.theatre is theatre and s.objective.side is side]
    return bool(mine) and all(s.met for s in mine)


def changes_of_hands(before: tuple[ObjectiveState, ...],
                     after: tuple[ObjectiveState, ...]) -> list[str]:
    """Diary lines for the objectives met or lost between two states, and for a side that has
    now met (or no longer meets) all its objectives in a theatre."""
    lines = []
    for old, new in zip(before, after, strict=True):
        o = new.objective
        if new.met and not old.met:
            lines.append(f"Objective met: the {o.side.value} hold {_towns(o)} "
                         f"({o.theatre.value}: {o.description})")
        elif old.met and not new.met:
            lost = [t.town for t in new.towns if t.holder is not o.side]
            lines.append(f"Objective lost: the {o.side.value} no longer hold "
                         f"{', '.join(lost)} ({o.theatre.value}: {o.description})")
    pairs = sorted({(s.objective.theatre, s.objective.side) for s in after},
                   key=lambda p: (list(Theatre).index(p[0]), p[1].value))
    for theatre, side in pairs:
        was, now = theatre_met(before, theatre, side), theatre_met(after, theatre, side)
        if now and not was:
            lines.append(f"The {side.value} have met every objective in {theatre.value}.")
        elif was and not now:
            lines.append(f"The {side.value} no longer meet every objective in {theatre.value}.")
    return lines


def _towns(o: Objective) -> str:
    names = list(o.towns)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
