"""The one gate between the master state and a side's view (record 0025).

``side_inputs`` picks out of the umpire's state what one side may know: its own commands
exactly, its own army groups and objectives, the public map, and the reports released to it
that have reached its CinC, each turned into a ``Sighting`` that carries the command's name
only when the side made it out. With the fog setting off nothing is hidden: every enemy command
is a sighting, exactly, as the umpire's own word.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign1813.campaign.day.ground import Ground, describe
from campaign1813.campaign.day.intelligence import strength
from campaign1813.campaign.day.reports import Band, How, Report
from campaign1813.campaign.day.sideview import (
    OwnCommand,
    OwnMove,
    OwnSupply,
    SideInputs,
    SideView,
    Sighting,
    build,
)
from campaign1813.campaign.day.state import DayState, Kind, Status, status_reason
from campaign1813.campaign.scenario.types import Side


def sighting(report: Report, side: Side) -> Sighting:
    """A report as its side may read it (the command's name only when made out)."""
    return Sighting(side, report.name, report.identity, report.place, report.town,
                    report.strength, report.seen_day, report.seen_hour, report.known_day,
                    report.how.value, report.seen_by(), report.text())


def released_to(state: DayState, side: Side) -> list[Report]:
    """The reports released to a side that have reached its CinC by today, in their order."""
    return [r for r in sorted(state.reports.values(), key=lambda r: r.id)
            if r.side == side.value and r.known_by(state.date)]


def _everything(ground: Ground, state: DayState, side: Side) -> list[Report]:
    """With fog off: every enemy command on the map, exactly, as the umpire's word."""
    return [Report(0, side.value, c.name, describe(c.position, ground),
                   ground.nearest_town(c.position), state.date, "0800", state.date, How.UMPIRE,
                   "", True, "HQ" if c.kind is Kind.HQ else "corps", c.side.value, Band.EXACT,
                   strength(ground, c), True)
            for c in state.ordered() if c.side is not side and c.on_map]


def journal(ground: Ground, dawns: Sequence[DayState], side: Side) -> tuple[OwnMove, ...]:
    """A side's own commands' days, from the states of consecutive dawns (the campaign's kept
    snapshots, oldest first, and today): where each of its commands went between one dawn and
    the next, and the state it came to. Nothing of any other side's command is read."""
    moves: list[OwnMove] = []
    for before, after in zip(dawns, dawns[1:], strict=False):
        moves += day_moves(ground, before, after, side)
    return tuple(moves)


def day_moves(ground: Ground, before: DayState, after: DayState,
              side: Side | None = None) -> list[OwnMove]:
    """The moves of one side's commands (of every side's, if ``side`` is None) between two
    consecutive dawns, each side's in the order ``journal`` gives them."""
    moves: list[OwnMove] = []
    for c in after.ordered():
        was = before.commands.get(c.name)
        if (side is not None and c.side is not side) or was is None:
            continue
        if was.position.rounded() != c.position.rounded():
            moves.append(OwnMove(before.date, c.side, c.name,
                                 f"{c.name} marched from {describe(was.position, ground)} "
                                 f"to {describe(c.position, ground)}"))
        if c.status is not was.status and c.status is not Status.READY:
            moves.append(OwnMove(before.date, c.side, c.name, status_reason(after, c.name)
                                 or f"{c.name} is {c.status.value}"))
    return moves


def side_inputs(ground: Ground, state: DayState, side: Side, campaign: str,
                dawns: Sequence[DayState] = (),
                moves: Sequence[OwnMove] | None = None) -> SideInputs:
    """What one side may know today, out of the umpire's state (and, for its diary, its own
    commands' days: ``moves`` as kept, else made from the states of the dawns before today,
    oldest first)."""
    own = []
    for c in state.ordered():
        if c.side is not side:
            continue
        order = state.orders.get(c.name)
        pending = state.pending.get(c.name)
        words = order.text() if order else "no orders"
        if pending:
            words += f"; by messenger: {pending.text()}"
        own.append(OwnCommand(c.name, side, c.army, c.kind.value, describe(c.position, ground),
                              ground.nearest_town(c.position),
                              status_reason(state, c.name) or c.status.value, words,
                              strength(ground, c), c.position.a, c.position.b,
                              c.position.miles,
                              state.supply.corps.get(c.name) if state.supply else None))
    reports = released_to(state, side) if ground.settings.fog else \
        _everything(ground, state, side)
    scenario = ground.scenario
    return SideInputs(
        campaign, side, state.date, tuple(own),
        tuple(a for a in scenario.armies if a.side is side),
        tuple(o for o in scenario.objectives if o.side is side),
        tuple(sighting(r, side) for r in reports),
        tuple((t.name, t.lat, t.lon) for t in scenario.map.towns),
        own_supply(ground, state, side),
        journal(ground, (*dawns, state), side) if moves is None else _own(moves, side))


def _own(moves: Sequence[OwnMove], side: Side) -> tuple[OwnMove, ...]:
    """A side's own moves out of both sides' kept ones."""
    return tuple(m for m in moves if m.side is side)


def own_supply(ground: Ground, state: DayState, side: Side) -> tuple[OwnSupply, ...]:
    """A side's own depots and columns (the enemy's supply is in no report yet, so never)."""
    if state.supply is None:
        return ()
    mine = {a.name for a in ground.scenario.armies if a.side is side}
    depots = sorted((d for d in state.supply.depots.values() if d.army in mine),
                    key=lambda d: (d.army, not d.main, d.town))
    columns = sorted((c for c in state.supply.columns.values() if c.army in mine),
                     key=lambda c: (c.army, c.town))
    return (tuple(OwnSupply(d.town, d.army, side, d.days, False, d.main) for d in depots)
            + tuple(OwnSupply(c.town, c.army, side, c.days, True) for c in columns))


def side_view(ground: Ground, state: DayState, side: Side, campaign: str,
              dawns: Sequence[DayState] = (),
              moves: Sequence[OwnMove] | None = None) -> SideView:
    """One side's view of the campaign today (its diary from ``moves``, its own commands' days
    as the campaign keeps them, or else built from ``dawns``, the states of the dawns before
    today that the campaign keeps, oldest first)."""
    return build(side_inputs(ground, state, side, campaign, dawns, moves))
