"""After a battle: the winner rests and takes the town, the loser retreats or is cut off.

A legal retreat leaves the battle along roads, every town on the way farther from the battle
town than the last, never entering a town the enemy holds or stands in, and ends the day at
least ``contact_miles`` from every command of the winning side. A loser with no such road is
cut off and the umpire chooses: surrender, or break out through the weakest enemy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day import supply
from campaign1813.campaign.day.contact import PositionIndex
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position, describe
from campaign1813.campaign.day.movement import advance
from campaign1813.campaign.day.state import (  # noqa: F401 (status_reason: said here too)
    Battle,
    DayState,
    Order,
    Status,
    Verb,
    status_reason,
)
from campaign1813.campaign.scenario.types import Side

if TYPE_CHECKING:
    from campaign1813.maps.road_map import Miles

DRAW = "draw"


@dataclass(frozen=True)
class BreakOut:
    """A way out for a cut-off command: the town it makes for and the enemies in the way."""

    town: str
    route: tuple[str, ...]
    through: tuple[str, ...]


def result_side(text: str) -> Side | None:
    """``French``, ``Allied`` or ``draw`` (any case) as a side, or None for a draw."""
    t = text.strip().casefold()
    for side in Side:
        if side.value.casefold() == t:
            return side
    if t == DRAW:
        return None
    raise OrderRefused(f"'{text}' is not a result: give French, Allied or draw")


def winner_of(battle: Battle) -> Side | None:
    """The winning side of a fought battle (None for a draw or no result)."""
    return result_side(battle.result) if battle.result and battle.result != DRAW else None


def enemy_towns(state: DayState, side: Side) -> set[str]:
    """Towns the enemy of ``side`` holds or stands in."""
    towns = {t for t, s in state.control.items() if s is not side}
    for c in state.commands.values():
        if c.on_map and c.side is not side and c.position.b is None:
            towns.add(c.position.a)
    return towns


def battle_ground(state: DayState, name: str) -> list[Position]:
    """What a beaten command retreats away from: the battle town, when the fight was at it
    (someone who fought stands there); after a fight on a road, where the winners stand, for
    the town such a battle is named after may lie behind the beaten, on their way out."""
    c = state.commands[name]
    battle = state.battle_of(c)
    town = Position(battle.place)
    fought = [state.commands[n] for n in battle.everyone() if n in state.commands]
    if any(f.on_map and f.position == town for f in fought):
        return [town]
    found = [f.position for f in fought if f.on_map and f.side is not c.side]
    return found or [town]


def _away_from(ground: Ground, sources: list[Position], cutoff: float) -> dict[str, float]:
    """Road miles from the nearest of some positions to every town within ``cutoff``."""
    best: dict[str, float] = {}
    for source in sources:
        for town, miles in ground.reach(source, cutoff).items():
            best[town] = min(miles, best.get(town, miles))
    return best


def _start_away(
    ground: Ground, here: Position, here_away: float, away: dict[str, float], barred: set[str]
) -> tuple[tuple[str, float], ...]:
    """Where a retreat from ``here`` (``here_away`` miles from the battle) sets out: its town,
    or the ends of its road that lie farther from the battle and are not barred."""
    if here.b is None:
        return ((here.a, 0.0),)
    return tuple((t, d) for t, d in ground.offsets(here)
                 if away.get(t, -1.0) > here_away + EPS and t not in barred)


def _away_roads(here: Position, here_away: float, away: dict[str, float]) -> Miles:
    """The roads a retreat may take: those to a town farther from the battle than the last
    (than ``here``, from its town)."""

    def miles(u: str, v: str, road: Mapping[str, Any]) -> float | None:
        last = here_away if here.b is None and u == here.a else away[u]
        return road["miles"] if away.get(v, -1.0) > last + EPS else None

    return miles


def _paths_away(
    ground: Ground, state: DayState, name: str, respect_enemy: bool,
    held: Mapping[Side, set[str]] | None = None,
) -> dict[str, tuple[tuple[str, ...], float]]:
    """Towns reachable by going ever farther from the battle's ground (``battle_ground``),
    within a day's march or the first town past it; each with the shortest such route and its
    miles. ``held`` may give each side's ``enemy_towns``, read once for many commands."""
    c = state.commands[name]
    rates = ground.settings.mounted_rate if c.mounted else ground.settings.foot_rate
    day = rates.road
    pos = c.position
    sources = battle_ground(state, name)
    start_away = min(ground.distance(s, pos) for s in sources)
    longest = max(ground.length.values(), default=0.0)
    away = _away_from(ground, sources, start_away + day + longest + 1.0)
    barred = set() if not respect_enemy else \
        held[c.side] if held is not None else enemy_towns(state, c.side)
    start = _start_away(ground, pos, start_away, away, barred)
    if not start:
        return {}
    return ground.road_map.routes(start, day - EPS, _away_roads(pos, start_away, away), barred)


def _winners(ground: Ground, state: DayState, name: str) -> PositionIndex:
    """The commands of the side that beat ``name``, indexed by position."""
    c = state.commands[name]
    battle = state.battle_of(c)
    return PositionIndex(
        ground,
        (
            (n, state.commands[n].position)
            for n in battle.everyone(c.side.enemy)
            if n in state.commands and state.commands[n].on_map
        ),
    )


def _too_close(
    ground: Ground, state: DayState, name: str, route: tuple[str, ...], winners: PositionIndex
) -> str | None:
    """The first winner (in command order) the day's retreat along ``route`` would end
    nearer than ``contact_miles`` to, or None."""
    c = state.commands[name]
    contact = ground.settings.contact_miles
    end = advance(ground, c.position, route, 1.0, c.mounted, False).position
    near = [n for n, d in winners.near(end, contact).items() if d < contact - EPS]
    return min(near, key=_key(state)) if near else None


def retreat_destinations(
    ground: Ground, state: DayState, name: str, held: Mapping[Side, set[str]] | None = None
) -> dict[str, tuple[str, ...]]:
    """The towns a beaten command may retreat to today, each with its route (``held``: each
    side's ``enemy_towns`` in this state, when many commands are asked about)."""
    winners = _winners(ground, state, name)
    legal: dict[str, tuple[str, ...]] = {}
    for town, (route, _miles) in sorted(_paths_away(ground, state, name, True, held).items()):
        if _too_close(ground, state, name, route, winners) is None:
            legal[town] = route
    return legal


def _leg_away(
    ground: Ground,
    here: Position,
    here_away: float,
    target: str,
    away: dict[str, float],
    barred: set[str],
) -> tuple[str, ...] | None:
    """The shortest road from ``here`` (``here_away`` miles from the battle) to ``target`` on
    which every town is farther from the battle than the last and none is barred; None if
    there is no such road."""
    start = _start_away(ground, here, here_away, away, barred)
    if not start:
        return None
    found = ground.road_map.routes(start, None, _away_roads(here, here_away, away), barred)
    return found[target][0] if target in found else None


def retreat_route(
    ground: Ground, state: DayState, name: str, town: str, via: tuple[str, ...]
) -> tuple[str, ...]:
    """The route of a retreat to ``town`` through the waypoints ``via``, in order.

    Each leg must itself be a legal retreat (every town farther from the battle than the last,
    none held by the enemy or with an enemy in it), the whole must reach ``town`` or the road
    into it within the day's march and end it clear of the winners; otherwise the order is
    refused, naming the waypoint or the way that breaks the rule.
    """
    c = state.commands[name]
    sources = battle_ground(state, name)
    towns = {s.a for s in sources if s.b is None}
    place = next(iter(towns)) if len(towns) == 1 and len(sources) == 1 else "the winners"
    away = _away_from(ground, sources, math.inf)
    standing: dict[str, str] = {}
    for o in state.ordered():
        if o.on_map and o.side is not c.side and o.position.b is None:
            standing.setdefault(o.position.a, o.name)
    holds = {t for t, s in state.control.items() if s is not c.side}
    barred = holds | set(standing)
    way = f"{name} cannot retreat to {town}" + (f" via {', '.join(via)}" if via else "")
    here, here_text = c.position, describe(c.position, ground)
    route: tuple[str, ...] = ()
    for stop in (*via, town):
        refused = way if stop == town else f"{name} cannot retreat via {stop}"
        if stop in standing:
            raise OrderRefused(f"{refused}: {standing[stop]} stands in it")
        if stop in holds:
            raise OrderRefused(f"{refused}: the enemy holds it")
        here_away = min(ground.distance(s, here) for s in sources)
        if away.get(stop, math.inf) <= here_away + EPS:
            raise OrderRefused(f"{refused}: {stop} is no farther from {place} than {here_text}")
        leg = _leg_away(ground, here, here_away, stop, away, barred)
        if leg is None:
            if _leg_away(ground, here, here_away, stop, away, set()) is not None:
                raise OrderRefused(
                    f"{refused}: every road from {here_text} to {stop} that leads away from "
                    f"{place} enters a town the enemy holds or stands in"
                )
            raise OrderRefused(
                f"{refused}: no road from {here_text} to {stop} leads ever farther from {place}"
            )
        route += leg
        here, here_text = Position(stop), stop
    rates = ground.settings.mounted_rate if c.mounted else ground.settings.foot_rate
    day = rates.road
    start = ground.miles_to(c.position, route[0])
    before_last = start + ground.route_miles(route[:-1]) if len(route) > 1 else 0.0
    if before_last >= day - EPS:
        total = start + ground.route_miles(route)
        raise OrderRefused(
            f"{way}: that way {town} is {round(total, 1):g} miles off, and a retreat must reach "
            f"its town or the road into it within the day's march of {day:g} miles"
        )
    winner = _too_close(ground, state, name, route, _winners(ground, state, name))
    if winner is not None:
        raise OrderRefused(
            f"{way}: that way it would end the day within "
            f"{ground.settings.contact_miles:g} miles of {winner}"
        )
    return route


def breakout_options(ground: Ground, state: DayState, name: str) -> list[BreakOut]:
    """Ways out through the enemy, the weakest opposition first.

    A way out leads somewhere: to a town within a day's march (or the first past it) by the
    shortest road, where no enemy stands, and from which a road leads on — never back into the
    dead end the command is leaving, nor onto the winners' own ground."""
    c = state.commands[name]
    enemies = [o for o in state.ordered() if o.on_map and o.side is not c.side]
    barred = {e.position.a for e in enemies if e.position.b is None}
    rates = ground.settings.mounted_rate if c.mounted else ground.settings.foot_rate
    day = rates.road
    here = set(c.position.ends()) if c.position.b is None else set()
    best = ground.road_map.routes(ground.offsets(c.position), day - EPS)
    options = []
    for town, (route, _miles) in best.items():
        if town in barred:
            continue
        onward = [n for n, _ in ground.adj[town] if n not in route and n not in here]
        if not onward:
            continue  # a dead end: no way on from there
        through = tuple(
            e.name for e in enemies if ground.on_route(e.position, c.position, route)
        )
        options.append(BreakOut(town, route, through))
    options.sort(key=lambda o: (len(o.through), len(o.route), o.town))
    return options


def _key(state: DayState) -> Callable[[str], int]:
    return lambda n: state.commands[n].key


def apply_result(
    ground: Ground,
    state: DayState,
    battle_id: int,
    result: str,
    casualties: dict[str, dict[str, int]] | None = None,
) -> list[str]:
    """Record a battle's result and enforce its aftermath; returns diary lines."""
    battle = state.battles.get(battle_id)
    if battle is None:
        raise OrderRefused(f"there is no battle number {battle_id}")
    if battle.result is not None:
        raise OrderRefused(f"{battle.title} already has a result ({battle.result})")
    if battle.date > state.date:
        raise OrderRefused(f"{battle.title} is postponed; it cannot be fought before its day")
    winner = result_side(result)
    text = winner.value if winner else DRAW
    state.battles[battle_id] = replace(battle, result=text)
    battle = state.battles[battle_id]
    next_day = battle.date + timedelta(days=1)
    lines = []
    after = _casualties(ground, state, battle, casualties)
    for n in battle.everyone():  # the orders it was fought under are done with
        state.orders.pop(n, None)
    if winner is None:
        lines.append(f"{battle.title}: a draw; both sides stand.")
        for n in battle.everyone():
            state.update(n, status=Status.READY, status_date=None, battle=None)
        return lines + after
    loser = winner.enemy
    town = Position(battle.place)
    if any(state.commands[n].position == town for n in battle.side(loser)):
        lines.append(f"{battle.title}: the {winner.value} win; they take {battle.place}.")
        state.take(battle.place, winner)
    elif any(state.commands[n].position == town for n in battle.side(winner)):
        lines.append(f"{battle.title}: the {winner.value} win; they hold {battle.place}.")
        state.take(battle.place, winner)
    else:  # fought on a road: the winners take the ground the beaten held, not a town
        lines.append(f"{battle.title}: the {winner.value} win; they take the field.")
    for n in battle.everyone(winner):
        state.update(n, status=Status.RESTING, status_date=next_day, battle=battle_id)
    cut_off = []
    for n in battle.everyone(loser):
        state.update(n, status=Status.RETREATING, status_date=next_day, battle=battle_id)
    for n in battle.everyone(loser):
        if not retreat_destinations(ground, state, n):
            state.update(n, status=Status.CUT_OFF)
            cut_off.append(n)
    lines.append(
        f"{_names(battle.everyone(winner))} rest on {format_date(next_day)}; "
        f"{_names(battle.everyone(loser))} must retreat."
    )
    for n in cut_off:
        lines.append(f"{n} has no road of retreat: the umpire must choose surrender or break out.")
    return lines + after


def _casualties(ground: Ground, state: DayState, battle: Battle,
                casualties: Mapping[str, Mapping[str, int]] | None) -> list[str]:
    """Losses after a battle: kept only when the campaign carries casualties forward (those of
    hunger stay whatever the setting: they are no battle's)."""
    if not ground.settings.carry_casualties_forward:
        for n in battle.everyone():  # losses brought to this battle are spent in it
            state.update(n, casualties=supply.attrition_casualties(state, n))
        return ["Casualties are not carried forward (the campaign's setting)."] if casualties \
            else []
    if not casualties:
        return []
    for n, losses in casualties.items():
        if n not in battle.everyone():
            raise OrderRefused(f"{n} did not fight in {battle.title}")
        state.update(n, casualties=tuple(sorted((str(k), int(v)) for k, v in losses.items())))
    return ["Casualties are carried forward to the next battle."]


def _names(names: Iterable[str]) -> str:
    listed = list(names)
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def choose_option(
    ground: Ground, state: DayState, name: str, option: str, town: str | None = None
) -> list[str]:
    """The umpire's choice for a cut-off command: ``surrender`` or ``break-out`` to a town."""
    c = state.commands[name]
    stranded = (
        c.status is Status.RETREATING
        and c.status_date == state.date
        and not retreat_destinations(ground, state, name)
    )
    if c.status is not Status.CUT_OFF and not stranded:
        raise OrderRefused(f"{name} is not cut off; it needs no surrender or break-out")
    battle = state.battle_of(c)
    choice = option.strip().casefold().replace("_", "-").replace(" ", "-")
    if choice == "surrender":
        state.update(name, status=Status.SURRENDERED, status_date=state.date)
        state.orders.pop(name, None)
        state.pending.pop(name, None)
        return [f"{name}, cut off after {battle.place}, surrenders."]
    if choice != "break-out":
        raise OrderRefused(f"'{option}' is not an option for {name}: surrender or break-out")
    options = breakout_options(ground, state, name)
    if not options:
        raise OrderRefused(f"{name} has no road out at all; it can only surrender")
    chosen = options[0]
    if town is not None:
        wanted = ground.resolve(town)
        match = [o for o in options if o.town == wanted]
        if not match:
            allowed = ", ".join(o.town for o in options)
            raise OrderRefused(f"{name} cannot break out to {wanted}; it may make for {allowed}")
        chosen = match[0]
    when = c.status_date or state.date
    state.update(name, status=Status.RETREATING)
    state.orders[name] = Order(
        name, Verb.MOVE, chosen.town, state.date, max(state.date, when),
        route=chosen.route, breakout=True,
    )
    through = f" through {_names(chosen.through)}" if chosen.through else ""
    return [f"{name}, cut off after {battle.place}, will break out towards {chosen.town}{through}."]


def next_day(day: date) -> date:
    """The following calendar day."""
    return day + timedelta(days=1)
