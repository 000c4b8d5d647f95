"""Loading and validating the road map: ``map/towns.toml``, ``map/roads.toml``, ``map/rivers.toml``.

Each file is checked against its model in :mod:`~campaign1813.campaign.scenario.schema`; what
needs more than one entry or file (unique names, roads between towns on the map, a connected map,
roads no shorter than the crow flies nor winding past ``WINDING`` times it) is checked here.
Every problem is reported with the file, the entry and the reason; all problems are collected
and raised together as one :class:`ScenarioError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import networkx as nx  # type: ignore[import-untyped]
from pydantic import BaseModel

from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.files import (
    Label,
    Loc,
    Problems,
    Style,
    one_line,
    parse_toml,
    position,
    value_at,
)
from campaign1813.campaign.scenario.schema import (
    RiverEntry,
    RiversFile,
    RoadEntry,
    RoadsFile,
    TownEntry,
    TownsFile,
)
from campaign1813.maps.geometry import town_miles, uncrossed_rivers
from campaign1813.maps.prebuilt import meetings_of
from campaign1813.maps.types import MapData, River, Road, Town

TOWNS = "map/towns.toml"
ROADS = "map/roads.toml"
RIVERS = "map/rivers.toml"

# How far a road may wind: at most this many times the towns' distance as the crow flies, and
# these miles more (for towns a few miles apart, where a detour round a hill doubles the way).
# The shipped map's most winding road is 1.52 times its crow's distance; a road beyond the bound
# is a typing slip (900 miles between neighbours), and would make a march of it take weeks.
WINDING = 3.0
WINDING_MILES = 5.0

_POINTS = "points must be at least two [lat, lon] pairs"
_STYLE = Style(
    missing="{key} is missing", list_expected_keys=False,
    lists={"aliases": ("aliases must be a list of names",) * 2,
           "points": (_POINTS, _POINTS),
           "town": ("'town' must be a list of [[town]] tables",) * 2,
           "road": ("'road' must be a list of [[road]] tables",) * 2,
           "river": ("'river' must be a list of [[river]] tables",) * 2})
_SAID = {"lat": "latitude", "lon": "longitude"}


def _valid_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _entries(problems: Problems, key: str, model: type[BaseModel],
             checked: BaseModel | None) -> list[tuple[int, Any]]:
    """The entries of a file with their places: all of them if the file passed its model
    (``checked``), else those the entry's model accepts on their own."""
    if checked is not None:
        return list(enumerate(getattr(checked, key)))
    raw = value_at(problems.data, (key,), [])
    if not isinstance(raw, list):  # reported by the model: not a list of tables
        return []
    return [(i, model.model_validate(entry)) for i, entry in enumerate(raw)
            if isinstance(entry, dict) and problems.valid((key, i))]


def _labeller(data: Any, key: str, name_of: Callable[[Any, int], str | None]) -> Label:
    """Label a value of ``[[key]]`` entry by the entry's name, as ``name_of(raw, i)`` gives it."""

    def label(loc: Loc) -> tuple[str, str] | None:
        if len(loc) < 2 or loc[0] != key:
            return "", str(loc[-1]) if loc else "the file"
        entry = name_of(value_at(data, loc[:2]), position(loc[1]) + 1)
        if entry is None:
            return None
        rest = loc[2:]
        if not rest:
            return entry, "the entry"
        if rest[0] == "points" and len(rest) == 3:
            point = f"{entry}, point {position(rest[1]) + 1}"
            return point, _SAID["lat" if rest[2] == 0 else "lon"]
        if rest[0] in ("points", "aliases") and len(rest) == 2:
            return entry, "points" if rest[0] == "points" else "alias"
        return entry, _SAID.get(str(rest[0]), str(rest[0]))

    return label


def _town_name(raw: Any, number: int) -> str | None:
    name = value_at(raw, ("name",))
    return name if _valid_text(name) else None  # a town without a name is reported once


def _load_towns(files: Mapping[str, str], lines: list[str]) -> list[Town]:
    data = parse_toml(files, TOWNS)
    problems = Problems(TOWNS, data, _STYLE)
    raw_towns = value_at(data, ("town",))
    if not isinstance(raw_towns, list) or not raw_towns:
        problems.add("", "there are no towns", ("town",))
        raw_towns = []
    label = _labeller(data, "town", _town_name)
    checked = problems.check(TownsFile, lambda loc: None if loc == ("town",) else label(loc))
    seen: dict[str, str] = {}
    for i, raw in enumerate(raw_towns):
        name = value_at(raw, ("name",))
        if not _valid_text(name):
            problems.add(f"town {i + 1}", "has no name", ("town", i))
            continue
        aliases = value_at(raw, ("aliases",), [])
        labels: list[tuple[Loc, Any]] = [(("name",), name)]
        if problems.valid(("town", i, "aliases")) and isinstance(aliases, list):
            labels += [(("aliases", k), alias) for k, alias in enumerate(aliases)]
        for loc, text in labels:
            if text in seen:
                problems.add(name, f"the name '{text}' is already used by {seen[text]}",
                             ("town", i, *loc))
            else:
                seen[text] = name
    lines.extend(problems.lines())
    return [_town(entry) for _, entry in _entries(problems, "town", TownEntry, checked)]


def _town(entry: BaseModel) -> Town:
    return Town.from_table(entry.model_dump(exclude_unset=True))


def _river_name(raw: Any, number: int) -> str:
    name = value_at(raw, ("name",))
    return name if isinstance(name, str) and name else f"river {number}"


def _load_rivers(files: Mapping[str, str], lines: list[str]) -> list[River]:
    if RIVERS not in files:
        return []
    data = parse_toml(files, RIVERS)
    problems = Problems(RIVERS, data, _STYLE)
    checked = problems.check(RiversFile, _labeller(data, "river", _river_name))
    names: set[str] = set()
    raw_rivers = value_at(data, ("river",), [])
    for i, raw in enumerate(raw_rivers if isinstance(raw_rivers, list) else []):
        name = _river_name(raw, i + 1)
        if name in names:
            problems.add(name, "a river of that name is already listed", ("river", i, "name"))
        names.add(name)
    lines.extend(problems.lines())
    return [River(name=entry.name, points=tuple(entry.points))
            for _, entry in _entries(problems, "river", RiverEntry, checked)]


def _road_name(raw: Any, number: int) -> str:
    return f"road {number} ({value_at(raw, ('from',))} – {value_at(raw, ('to',))})"


def _load_roads(files: Mapping[str, str], towns: Mapping[str, str],
                lines: list[str]) -> list[Road]:
    data = parse_toml(files, ROADS)
    problems = Problems(ROADS, data, _STYLE)
    checked = problems.check(RoadsFile, _labeller(data, "road", _road_name))
    raw_roads = value_at(data, ("road",), [])
    joined: dict[int, tuple[str, str]] = {}
    pairs: set[frozenset[str]] = set()
    for i, raw in enumerate(raw_roads if isinstance(raw_roads, list) else []):
        where = _road_name(raw, i + 1)
        ends = []
        for key in ("from", "to"):
            end = value_at(raw, (key,))
            if not problems.valid(("road", i, key)):
                continue
            if end in towns:
                ends.append(towns[end])
            else:
                problems.add(where, f"leads to '{end}', which is not a town on the map",
                             ("road", i, key))
        if len(ends) < 2:
            continue
        if ends[0] == ends[1]:
            problems.add(where, "a road must join two different towns", ("road", i))
        elif frozenset(ends) in pairs:
            problems.add(where, f"the road {ends[0]} – {ends[1]} is listed twice", ("road", i))
        else:
            pairs.add(frozenset(ends))
            joined[i] = (ends[0], ends[1])
    lines.extend(problems.lines())
    return [Road(*joined[i], entry.miles, entry.class_, entry.river, entry.crossing)
            for i, entry in _entries(problems, "road", RoadEntry, checked) if i in joined]


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
    if problems:  # names in the messages made here may hold a line break: each is one line
        raise ScenarioError("\n".join(one_line(p) for p in problems))
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
        elif road.miles > WINDING * crow + WINDING_MILES:
            problems.append(f"{ROADS}: road {road.a} – {road.b}: {road.miles:g} miles is more "
                            f"than {WINDING:g} times the {crow:.1f} miles between the towns as "
                            f"the crow flies, and {WINDING_MILES:g} more "
                            f"({WINDING * crow + WINDING_MILES:.1f})")
    problems.extend(f"{ROADS}: {message}" for message in uncrossed_rivers(
        map_data, meetings=meetings_of(map_data)))
    return problems
