"""The day's march: every marching command advances together, in equal steps, until contact.

The marching hours are cut into ``steps_per_day`` equal steps. In each step every marching
command spends the same share of the day along its route (tracks at the off-road rate). After
each step, hostile commands that have come within ``contact_miles`` by road, or that keep
closing while already that near, stop where the contact happened: the step is cut back to the
moment the distance reached ``contact_miles``, and both stand for the rest of the day. That
moment is found between the step's two ends by straight proportion, or, when one of the two
reached its destination within the step (and so did not march the whole of it), by halving
the step until the moment is known to a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from msgspec.structs import replace

from campaign1813.campaign.day.contact import find_contacts
from campaign1813.campaign.day.ground import EPS, Ground, Position
from campaign1813.campaign.day.state import DayState, Status


@dataclass(frozen=True)
class Leg:
    """Where a march got to: position, towns still to go, miles covered."""

    position: Position
    route: tuple[str, ...]
    miles: float
    passed: tuple[tuple[str, float], ...] = ()  # towns reached on the way, and when (days)


@dataclass(frozen=True)
class MarchResult:
    """What the day's march did: who moved how far, who was stopped by whom and when."""

    marched: dict[str, float]
    starts: dict[str, Position]
    stopped: dict[str, tuple[float, str]]  # command -> (steps into the day, enemy met)
    arrived: dict[str, float] = field(default_factory=dict)  # command -> steps into the day
    # at which it reached the end of its route


def advance(
    ground: Ground, pos: Position, route: tuple[str, ...], days: float, mounted: bool, forced: bool
) -> Leg:
    """March from ``pos`` along ``route`` for ``days`` of marching time."""
    miles = 0.0
    spent = 0.0
    passed = []
    while route and days > EPS / 1000:
        nxt = route[0]
        if pos.b is None and pos.a == nxt:  # reached it last step, to within a hair
            route = route[1:]
            continue
        ends = (pos.a, nxt) if pos.b is None else (pos.a, pos.b)
        rate = ground.rate(*ends, mounted=mounted, forced=forced)
        left = ground.miles_to(pos, nxt)
        need = left / rate
        if need <= days + 1e-12:
            pos, route, miles, days = Position(nxt), route[1:], miles + left, days - need
            spent += need
            passed.append((nxt, spent))
        else:
            d = days * rate
            pos, miles, days = ground.step_towards(pos, nxt, d), miles + d, 0.0
    return Leg(pos, route, miles, tuple(passed))


def marching(state: DayState) -> list[str]:
    """The commands that march today, in their stable order."""
    names = []
    for c in state.ordered():
        order = state.orders.get(c.name)
        if (
            c.on_map
            and c.status in (Status.READY, Status.RETREATING)
            and order is not None
            and order.verb.marches
            and order.route
        ):
            names.append(c.name)
    return names


def march(state: DayState, ground: Ground) -> MarchResult:
    """Move every marching command through the day's steps; updates ``state`` in place."""
    settings = ground.settings
    steps = max(1, settings.steps_per_day)
    share = 1.0 / steps
    contact = settings.contact_miles
    sides = {c.name: c.side for c in state.ordered() if c.on_map}
    positions = {c.name: c.position for c in state.ordered() if c.on_map}
    starts = dict(positions)
    routes = {n: state.orders[n].route for n in marching(state)}
    marched = {n: 0.0 for n in routes}
    halted: set[str] = set()
    stopped: dict[str, tuple[float, str]] = {}
    arrived: dict[str, float] = {}
    last_moved: dict[str, float] = {}
    for step in range(1, steps + 1):
        movers = [n for n in routes if n not in halted and routes[n]]
        if not movers:
            break
        before = {n: positions[n] for n in movers}
        legs = {n: _leg(state, ground, n, positions[n], routes[n], share) for n in movers}
        for n, leg in legs.items():
            positions[n] = leg.position
        cut: dict[str, float] = {}
        reach = contact + 2 * max(leg.miles for leg in legs.values()) + 1.0
        for pair in find_contacts(ground, sides, positions, contact, only=movers):
            a, b = pair.french, pair.allied
            p0 = before.get(a, positions[a])
            q0 = before.get(b, positions[b])
            d0 = ground.distance(p0, q0, reach)
            d1 = pair.miles
            if d0 > contact + EPS:
                f = (d0 - contact) / (d0 - d1) if d0 > d1 else 0.0
                ends = [t for t in (_arrival(legs.get(a), share), _arrival(legs.get(b), share))
                        if t is not None]
                if ends:
                    f = _contact_moment(state, ground, (a, b), before, routes, positions, share,
                                        contact, reach)
                    # reached its town as the distance came to contact_miles: it arrived
                    f = next((t for t in ends if 0.0 <= t - f < ARRIVAL_SLACK), f)
            elif d1 < d0 - EPS:
                f = 0.0
            else:
                continue  # already in contact and not closing: free to draw off or stand
            f = min(max(f, 0.0), 1.0)
            for me, enemy in ((a, b), (b, a)):
                if me in legs:
                    cut[me] = min(f, cut.get(me, 1.0))
                if me not in halted:
                    halted.add(me)
                    stopped.setdefault(me, (step - 1 + f, enemy))
        _marched_into(state, legs, positions, share, cut, halted, stopped, step)
        for n, leg in legs.items():
            if n in cut and cut[n] < 1.0:
                leg = _leg(state, ground, n, before[n], routes[n], share * cut[n])
            positions[n] = leg.position
            routes[n] = leg.route
            marched[n] += leg.miles
            if leg.miles > 0:
                last_moved[n] = step - 1 + cut.get(n, 1.0)
            if not leg.route and n not in arrived:
                arrived[n] = step - 1 + (leg.passed[-1][1] / share if leg.passed else 0.0)
    for n, miles in marched.items():
        pos, route = positions[n], routes[n]
        if route and pos.b is None and route[0] == pos.a:
            routes[n] = route[1:]
            if not routes[n]:  # reached it to within a hair, at the end of its last march
                arrived.setdefault(n, last_moved.get(n, 0.0))
        state.update(n, position=positions[n].rounded(), marched=round(miles, 6))
        state.orders[n] = replace(state.orders[n], route=routes[n])
    for n in halted:
        state.update(n, halted=True)
    return MarchResult(marched, starts, stopped, arrived)


ARRIVAL_SLACK = 1e-5  # of a step: a contact found this much before an arrival came with it


def _arrival(leg: Leg | None, share: float) -> float | None:
    """When, as a fraction of the step, a leg reached the end of its route before the step's
    end (None if it marched the whole step, or did not march)."""
    if leg is None or leg.route or not leg.passed:
        return None
    when = leg.passed[-1][1] / share
    return when if when < 1.0 - 1e-9 else None


def _contact_moment(state: DayState, ground: Ground, pair: tuple[str, str],
                    before: Mapping[str, Position], routes: Mapping[str, tuple[str, ...]],
                    positions: Mapping[str, Position], share: float, contact: float,
                    reach: float) -> float:
    """The fraction of the step at which two commands came within ``contact_miles``, found
    by halving: one of them stopped marching part-way through the step."""

    def where(n: str, f: float) -> Position:
        if n not in before:
            return positions[n]
        return _leg(state, ground, n, before[n], routes[n], share * f).position

    lo, hi = 0.0, 1.0
    for _ in range(40):  # to 1e-12 of a step
        mid = (lo + hi) / 2
        if ground.distance(where(pair[0], mid), where(pair[1], mid), reach) <= contact + EPS:
            hi = mid
        else:
            lo = mid
    return hi


def _leg(state: DayState, ground: Ground, name: str, pos: Position, route: tuple[str, ...],
         days: float) -> Leg:
    c = state.commands[name]
    order = state.orders[name]
    return advance(ground, pos, route, days, c.mounted, order.forced)


def _marched_into(state: DayState, legs: Mapping[str, Leg], positions: Mapping[str, Position],
                  share: float, cut: dict[str, float], halted: set[str],
                  stopped: dict[str, tuple[float, str]], step: int) -> None:
    """A column that reaches a town where an enemy stands stops there, however small the
    contact distance: it cannot slip through the enemy between two checks."""
    held: dict[str, list[str]] = {}
    for n, pos in positions.items():
        if pos.b is None and n not in legs:
            held.setdefault(pos.a, []).append(n)
    for n, leg in legs.items():
        side = state.commands[n].side
        for town, when in leg.passed:
            enemies = [e for e in held.get(town, ()) if state.commands[e].side is not side]
            if enemies:
                cut[n] = min(when / share, cut.get(n, 1.0))
                for me, enemy in ((n, enemies[0]), *((e, n) for e in enemies)):
                    if me not in halted:
                        halted.add(me)
                        stopped.setdefault(me, (step - 1 + when / share, enemy))
                break
