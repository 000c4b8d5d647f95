"""Loading and validating the road map: ``map/towns.toml``, ``map/roads.toml``, ``map/rivers.toml``.

Every problem is reported with the file, the entry and the reason; all problems are collected and
raised together as one :class:`ScenarioError`.
"""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx

from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.files import either, parse_toml
from campaign1813.maps.geometry import town_miles, uncrossed_rivers
from campaign1813.maps.types import (
    Crossing,
    MapData,
    River,
    Road,
    RoadClass,
    Theatre,
    Town,
    TownKind,
)

TOWNS = "map/towns.toml"
ROADS = "map/roads.toml"
RIVERS = "map/rivers.toml"

_TOWN_KEYS = {"name", "lat", "lon", "theatre", "kind", "built_up", "river", "fortress", "aliases"}
_ROAD_KEYS = {"from", "to", "miles", "class", "river", "crossing"}


def _enum(enum, value, problems: list[str], where: str, what: str):
    try:
        return enum(value)
    except ValueError:
        problems.append(f"{where}: {what} '{value}' is not {either(e.value for e in enum)}")
        return None


def _number(value, problems, where, what, low=None, high=None) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        problems.append(f"{where}: {what} {value!r} is not a number")
        return None
    if (low is not None and value < low) or (high is not None and value > high):
        problems.append(f"{where}: {what} {value} is outside {low} to {high}")
        return None
    return float(value)


def _load_towns(files, problems) -> list[Town]:
    data = parse_toml(files, TOWNS)
    towns: list[Town] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(data.get("town", []), start=1):
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{TOWNS}: town {i}: has no name")
            continue
        where = f"{TOWNS}: {name}"
        for key in sorted(set(raw) - _TOWN_KEYS):
            problems.append(f"{where}: unknown key '{key}'")
        for key in ("lat", "lon", "theatre", "kind", "built_up"):
            if key not in raw:
                problems.append(f"{where}: {key} is missing")
        lat = (_number(raw.get("lat"), problems, where, "latitude", -90, 90)
               if "lat" in raw else None)
        lon = (_number(raw.get("lon"), problems, where, "longitude", -180, 180)
               if "lon" in raw else None)
        theatre = _enum(Theatre, raw.get("theatre"), problems, where, "theatre") \
            if "theatre" in raw else None
        kind = _enum(TownKind, raw.get("kind"), problems, where, "kind") if "kind" in raw else None
        aliases = tuple(raw.get("aliases", ()))
        for label in (name, *aliases):
            if label in seen:
                problems.append(f"{where}: the name '{label}' is already used by {seen[label]}")
            else:
                seen[label] = name
        if None in (lat, lon, theatre, kind) or "built_up" not in raw:
            continue
        towns.append(Town(
            name=name, lat=lat, lon=lon, theatre=theatre, kind=kind,
            built_up=bool(raw["built_up"]), river=raw.get("river"),
            fortress=bool(raw.get("fortress", kind is TownKind.FORTRESS)), aliases=aliases,
        ))
    if not data.get("town"):
        problems.append(f"{TOWNS}: there are no towns")
    return towns


def _load_rivers(files, problems) -> list[River]:
    if RIVERS not in files:
        return []
    data = parse_toml(files, RIVERS)
    rivers = []
    names = set()
    for i, raw in enumerate(data.get("river", []), start=1):
        name = raw.get("name") or f"river {i}"
        where = f"{RIVERS}: {name}"
        if name in names:
            problems.append(f"{where}: a river of that name is already listed")
        names.add(name)
        points = raw.get("points", [])
        if len(points) < 2 or not all(isinstance(p, list) and len(p) == 2 for p in points):
            problems.append(f"{where}: points must be at least two [lat, lon] pairs")
            continue
        rivers.append(River(name=name, points=tuple((float(a), float(b)) for a, b in points)))
    return rivers


def _load_roads(files, towns: Mapping[str, str], problems) -> list[Road]:
    data = parse_toml(files, ROADS)
    roads: list[Road] = []
    pairs: set[frozenset[str]] = set()
    for i, raw in enumerate(data.get("road", []), start=1):
        a, b = raw.get("from"), raw.get("to")
        where = f"{ROADS}: road {i} ({a} – {b})"
        for key in sorted(set(raw) - _ROAD_KEYS):
            problems.append(f"{where}: unknown key '{key}'")
        ends = []
        for end in (a, b):
            if end not in towns:
                problems.append(f"{where}: leads to '{end}', which is not a town on the map")
            else:
                ends.append(towns[end])
        if len(ends) < 2:
            continue
        if ends[0] == ends[1]:
            problems.append(f"{where}: a road must join two different towns")
            continue
        if frozenset(ends) in pairs:
            problems.append(f"{where}: the road {ends[0]} – {ends[1]} is listed twice")
            continue
        pairs.add(frozenset(ends))
        miles = _number(raw.get("miles"), problems, where, "miles", 0.1, 1000)
        road_class = _enum(RoadClass, raw.get("class"), problems, where, "class")
        river = raw.get("river")
        crossing = None
        if "crossing" in raw:
            crossing = _enum(Crossing, raw["crossing"], problems, where, "crossing")
        if river and "crossing" not in raw:
            problems.append(f"{where}: crosses the {river} but has no crossing "
                            "(bridge, ford or ferry)")
            continue
        if crossing and not river:
            problems.append(f"{where}: has a {crossing.value} but names no river")
            continue
        if miles is None or road_class is None:
            continue
        roads.append(Road(ends[0], ends[1], miles, road_class, river, crossing))
    return roads


def town_names(map_data: MapData) -> dict[str, str]:
    """Every town name and alias, mapped to the canonical name."""
    names: dict[str, str] = {}
    for town in map_data.towns:
        names[town.name] = town.name
        for alias in town.aliases:
            names[alias] = town.name
    return names


def load_map(files: Mapping[str, str]) -> MapData:
    """The validated road map, or one ScenarioError listing every problem."""
    problems: list[str] = []
    towns = _load_towns(files, problems)
    names = {t.name: t.name for t in towns}
    for t in towns:
        for alias in t.aliases:
            names.setdefault(alias, t.name)
    rivers = _load_rivers(files, problems)
    roads = _load_roads(files, names, problems)
    river_names = {r.name for r in rivers}
    if rivers:
        for road in roads:
            if road.river and road.river not in river_names:
                problems.append(f"{ROADS}: road {road.a} – {road.b}: the river '{road.river}' "
                                f"is not in {RIVERS}")
    map_data = MapData(tuple(towns), tuple(roads), tuple(rivers))
    if not problems and towns:
        problems.extend(_connectivity_problems(map_data))
        problems.extend(_geometry_problems(map_data))
    if problems:
        raise ScenarioError("\n".join(problems))
    return map_data


def _connectivity_problems(map_data: MapData) -> list[str]:
    graph = nx.Graph()
    graph.add_nodes_from(t.name for t in map_data.towns)
    graph.add_edges_from((r.a, r.b) for r in map_data.roads)
    parts = sorted(nx.connected_components(graph), key=lambda c: (-len(c), sorted(c)[0]))
    if len(parts) <= 1:
        return []
    cut_off = [sorted(p) for p in parts[1:]]
    listed = "; ".join(", ".join(p[:5]) + (" …" if len(p) > 5 else "") for p in cut_off)
    return [f"{ROADS}: the map is not connected: no road joins {listed} "
            f"to the rest of the map"]


def _geometry_problems(map_data: MapData) -> list[str]:
    towns = {t.name: t for t in map_data.towns}
    problems = []
    for road in map_data.roads:
        crow = town_miles(towns[road.a], towns[road.b])
        if road.miles < crow:
            problems.append(f"{ROADS}: road {road.a} – {road.b}: {road.miles:g} miles is shorter "
                            f"than the {crow:.1f} miles between the towns as the crow flies")
    problems.extend(f"{ROADS}: {message}" for message in uncrossed_rivers(map_data))
    return problems
