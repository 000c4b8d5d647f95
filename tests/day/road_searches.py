"""Every road search of the shipped map, recorded: routes, reaches, distances and retreats.

``record()`` asks the road map, the ground and the aftermath the questions the campaign asks of
them, on the shipped 1813 map: the route between every two towns of each theatre (and some
across theatres), the alternatives and neighbourhoods of some, the miles reached from every
town and from positions on the roads between towns, the distances between positions, and the
retreats, retreat routes and break-outs of beaten commands in a set of battles with enemy towns
to avoid. ``tests/day/test_road_searches.py`` compares it with the copy kept in
``tests/fixtures/road-searches.json.gz``, so a change to a search that changes any answer shows.

``python -m tests.day.road_searches`` writes that copy again (only when an answer is meant to
change).
"""

from __future__ import annotations

import gzip
import itertools
import json
import math
import random
from collections import defaultdict
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from campaign1813.campaign.day.aftermath import (
    breakout_options,
    retreat_destinations,
    retreat_route,
)
from campaign1813.campaign.day.ground import Ground, OrderRefused, Position
from campaign1813.campaign.day.state import Battle, DayState, Kind, Status, initial_state
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.road_map import RoadMap
from campaign1813.maps.types import Theatre

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "road-searches.json.gz"
DAY = date(1813, 5, 10)


@cache
def shipped() -> Ground:
    """The ground of the shipped 1813 scenario."""
    return Ground(load_scenario())


def _key(pos: Position) -> str:
    return pos.a if pos.b is None else f"{pos.a}|{pos.b}|{pos.miles!r}"


def _reached(found: dict[str, float]) -> dict[str, float]:
    return dict(sorted(found.items()))


def _on_roads(ground: Ground, every: int, fraction: float) -> list[Position]:
    """Positions on every ``every``-th road, ``fraction`` of its length plus an odd bit from
    its first town (miles that are no multiple of a half, as a march leaves them)."""
    roads = sorted(ground.length.items())[::every]
    return [Position(a, b, round(miles * fraction + 0.123456789, 9) % miles)
            for (a, b), miles in roads]


def _routes(road_map: RoadMap, ground: Ground) -> dict[str, Any]:
    by_theatre: dict[Theatre, list[str]] = defaultdict(list)
    for town in road_map.data.towns:
        by_theatre[town.theatre].append(town.name)
    pairs = [pair for names in by_theatre.values()
             for pair in itertools.combinations(sorted(names), 2)]
    rng = random.Random(1813)
    everyone = sorted(road_map.towns)
    pairs += [tuple(rng.sample(everyone, 2)) for _ in range(300)]  # across the theatres
    routes: dict[str, dict[str, list[Any]]] = defaultdict(dict)
    for a, b in pairs:
        route = road_map.route(a, b)
        routes[a][b] = [" – ".join(route.towns), route.miles]
    grounds = [[a, b, " – ".join(ground.route(a, b))] for a, b in pairs[::20]]
    vias = []
    for _ in range(100):
        a, via, b = rng.sample(everyone, 3)
        route = road_map.route(a, b, via=(via,))
        vias.append([a, via, b, " – ".join(route.towns), route.miles])
    alternatives = []
    for a, b in pairs[::150]:
        alternatives.append([a, b, [[" – ".join(r.towns), r.miles]
                                    for r in road_map.alternative_routes(a, b)]])
    within = {t: road_map.within(t, 25.0) for t in everyone[::3]}
    return {"routes": routes, "ground's routes": grounds, "via": vias,
            "alternatives": alternatives, "within": within}


def _reaches(ground: Ground) -> dict[str, Any]:
    towns = sorted(ground.adj)
    on_roads = _on_roads(ground, 3, 0.37) + _on_roads(ground, 7, 0.81)
    reach = {
        "towns within 40 miles": {t: _reached(ground.reach(Position(t), 40.0)) for t in towns},
        "towns, the whole map": {t: _reached(ground.reach(Position(t))) for t in towns[::25]},
        "roads within 40 miles": {_key(p): _reached(ground.reach(p, 40.0)) for p in on_roads},
        "roads, the whole map": {_key(p): _reached(ground.reach(p)) for p in on_roads[::20]},
    }
    rng = random.Random(7)
    places = [Position(t) for t in towns] + on_roads
    distances = []
    for _ in range(3000):
        p, q = rng.sample(places, 2)
        cutoff = rng.choice((math.inf, 10.0, 15.0, 30.0, 60.0))
        distances.append([_key(p), _key(q), cutoff, ground.distance(p, q, cutoff)])
    for p in on_roads[::4]:  # on the same road, and from a road to its own ends
        length = ground.length[(p.a, p.b)]
        q = Position(p.a, p.b, length - p.miles)
        for other in (q, Position(p.a), Position(p.b)):
            for cutoff in (math.inf, 5.0):
                distances.append([_key(p), _key(other), cutoff, ground.distance(p, other, cutoff)])
    reach["distances"] = distances
    return reach


def _battle_state(
    ground: Ground, loser: str, winner: str, place: str, loser_at: Position,
    winner_at: Position, enemy_holds: list[str],
) -> DayState:
    state = initial_state(ground.scenario, DAY)
    beaten = state.commands[loser]
    won = Side.FRENCH if beaten.side is Side.ALLIED else Side.ALLIED
    french, allied = ((loser,), (winner,)) if beaten.side is Side.FRENCH else ((winner,), (loser,))
    state.battles[1] = Battle(1, DAY, place, french, allied, result=won.value)
    state.update(loser, position=loser_at, status=Status.RETREATING, status_date=DAY, battle=1)
    state.update(winner, position=winner_at, status=Status.RESTING, status_date=DAY, battle=1)
    for town in enemy_holds:
        state.control[town] = won
    return state


def _cases(ground: Ground) -> list[tuple[str, DayState, str]]:
    """Beaten commands in each theatre: at a town with the winner in it, at a town with the
    winner next door, and on a road short of the winner; each with towns held by the enemy
    near by (and the other commands where the scenario starts them)."""
    rng = random.Random(18)
    state0 = initial_state(ground.scenario, DAY)
    cases = []
    for army in ground.scenario.armies:
        enemy = next(a for a in ground.scenario.armies
                     if a.theatre is army.theatre and a.side is not army.side)
        towns = sorted(t.name for t in ground.scenario.map.towns if t.theatre is army.theatre)
        for n, corps in enumerate(army.corps):
            loser = corps.name
            winner = enemy.corps[n % len(enemy.corps)].name
            for kind in ("at the town", "next door", "on the road"):
                place = rng.choice(towns)
                neighbours = [t for t, _ in ground.adj[place]]
                near = sorted(ground.reach(Position(place), 40.0))
                holds = rng.sample(near, min(len(near), rng.choice((2, 4, 8))))
                if kind == "at the town":
                    loser_at = winner_at = Position(place)
                    holds = [t for t in holds if t != place]
                elif kind == "next door":
                    loser_at, winner_at = Position(place), Position(rng.choice(neighbours))
                    holds = [t for t in holds if t != place]
                else:
                    other = rng.choice(neighbours)
                    length = ground.miles(place, other)
                    loser_at = ground.on_road(place, other, length * rng.uniform(0.2, 0.8))
                    winner_at = Position(other)
                if kind != "at the town" and rng.random() < 0.5:
                    holds.append(rng.choice(neighbours))  # an enemy town next to the beaten
                state = _battle_state(ground, loser, winner, place, loser_at, winner_at, holds)
                label = f"{loser} beaten {kind} {place} by {winner}, the enemy in {sorted(holds)}"
                cases.append((label, state, loser))
    # a beaten HQ too (mounted: a longer day's march)
    hq = next(c for c in state0.ordered() if c.kind is Kind.HQ and c.side is Side.ALLIED)
    foe = next(c for c in state0.ordered() if c.kind is Kind.CORPS and c.side is Side.FRENCH)
    place = hq.position.a
    state = _battle_state(ground, hq.name, foe.name, place, Position(place), Position(place), [])
    cases.append((f"{hq.name} beaten at {place} by {foe.name}", state, hq.name))
    return cases


def _retreat_route(ground: Ground, state: DayState, name: str, town: str,
                   via: tuple[str, ...]) -> Any:
    """The route of a retreat to ``town``, or the refusal's words."""
    try:
        return list(retreat_route(ground, state, name, town, via))
    except OrderRefused as refused:
        return f"refused: {refused}"


def _retreats(ground: Ground) -> dict[str, Any]:
    out = {}
    for label, state, name in _cases(ground):
        legal = retreat_destinations(ground, state, name)
        pos = state.commands[name].position
        asked = sorted({t for end in pos.ends() for t in (end, *(n for n, _ in ground.adj[end]))}
                       | set(legal))
        routes = {t: _retreat_route(ground, state, name, t, ()) for t in asked}
        vias = {town: _retreat_route(ground, state, name, town, (route[0],))
                for town, route in legal.items() if len(route) >= 2}
        breakouts = [[o.town, list(o.route), list(o.through)]
                     for o in breakout_options(ground, state, name)]
        out[label] = {"where": _key(pos),
                      "destinations": {t: list(r) for t, r in sorted(legal.items())},
                      "retreat routes": routes, "via the first town": vias,
                      "break-outs": breakouts}
    return out


def record() -> dict[str, Any]:
    """Every answer, as JSON values."""
    ground = shipped()
    return json.loads(json.dumps({
        "routes": _routes(ground.road_map, ground),
        "reach": _reaches(ground),
        "retreats": _retreats(ground),
    }))


def read() -> dict[str, Any]:
    """The recorded answers."""
    return json.loads(gzip.decompress(FIXTURE.read_bytes()).decode("utf-8"))


def write() -> None:
    """Record the answers again."""
    text = json.dumps(record(), ensure_ascii=False, sort_keys=True, indent=0)
    FIXTURE.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


if __name__ == "__main__":
    write()
