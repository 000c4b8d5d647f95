"""The road map as a graph: routes, distances, neighbourhoods and march times.

Every search of the roads is networkx's: from a town, or from a place between two towns on a
road (a command on the march), bounded or not, over the whole map or a view of it that leaves
out the towns a retreat may not enter.

>>> from campaign1813.maps.types import MapData, Road, RoadClass, Theatre, Town, TownKind
>>> t = lambda n, lon: Town(n, 52.0, lon, Theatre.NORTHERN_GERMANY, TownKind.TOWN, True)
>>> m = RoadMap(MapData((t("A", 10.0), t("B", 10.2), t("C", 10.4)),
...     (Road("A", "B", 12.0, RoadClass.MAIN), Road("B", "C", 9.5, RoadClass.MINOR)), ()))
>>> m.route("A", "C").miles
21.5
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import networkx as nx  # type: ignore[import-untyped]  # networkx ships no type hints

from campaign1813.errors import CampaignError
from campaign1813.maps.names import NameIndex
from campaign1813.maps.types import MapData, Road, Theatre, Town


class UnknownTown(CampaignError):
    """A name that is neither a town nor an alias of one."""


class NoRoad(CampaignError):
    """Two towns that no single road joins."""


class NoRoute(CampaignError):
    """Two towns that no chain of roads joins."""


@dataclass(frozen=True)
class Route:
    """A way along roads: the towns passed in order and the miles of each leg."""

    towns: tuple[str, ...]
    legs: tuple[float, ...]

    @property
    def miles(self) -> float:
        """Total road miles."""
        return round(sum(self.legs), 6)

    @property
    def start(self) -> str:
        """Where the route begins."""
        return self.towns[0]

    @property
    def end(self) -> str:
        """Where the route ends."""
        return self.towns[-1]


# Where a search starts: a town and the miles to it (none: at the town), or both ends of the
# road a place stands on, each with the miles from the place.
Start = Sequence[tuple[str, float]]
# The miles of a road u -> v (with its edge's data), or None for a road the search may not take.
Miles = Callable[[str, str, Mapping[str, Any]], float | None]
Routes = dict[str, tuple[tuple[str, ...], float]]
_KEPT = 1024  # searches of the whole map kept, each from its own place


def _miles(u: str, v: str, road: Mapping[str, Any]) -> float:
    miles: float = road["miles"]
    return miles


def _leaving(start: Start, miles: Miles | None = None) -> tuple[str, float, Miles | str]:
    """The town a search from ``start`` sets out from, its miles from the start, and each
    road's miles as seen from there (``miles``, or the road's length: networkx's own reading
    of it where nothing is added).

    networkx searches from one town. A place on a road is searched from the road's nearer end:
    every road out of that end is longer by the miles to it, and the place's own road leads to
    its far end in the miles from the place. Each town is then reached by the same sums, in
    the same order, as from the place itself (the nearer end is never reached sooner another
    way, and the far end only by the place's road or some other way round).
    """
    if len(start) == 1:
        (town, offset), = start
        if offset == 0:
            return town, offset, "miles" if miles is None else miles
        given = miles or _miles

        def from_town(u: str, v: str, road: Mapping[str, Any]) -> float | None:
            more = given(u, v, road)
            return offset + more if u == town and more is not None else more

        return town, offset, from_town
    (near, to_near), (far, to_far) = start
    if to_far < to_near:
        (near, to_near), (far, to_far) = (far, to_far), (near, to_near)
    if miles is None:  # the campaign day's most common search: kept to plain lookups

        def along(u: str, v: str, road: Mapping[str, Any]) -> float:
            if u != near:
                length: float = road["miles"]
                return length
            return to_far if v == far else to_near + road["miles"]

        return near, to_near, along

    def from_road(u: str, v: str, road: Mapping[str, Any]) -> float | None:
        if u != near:
            return miles(u, v, road)
        if v == far:
            return to_far
        more = miles(u, v, road)
        return None if more is None else to_near + more

    return near, to_near, from_road


def _reach(graph: Any, start: Start, cutoff: float | None = None) -> dict[str, float]:
    """Road miles from a place to every town no more than ``cutoff`` miles away."""
    source, offset, miles = _leaving(start)
    found: dict[str, float] = nx.single_source_dijkstra_path_length(
        graph, source, cutoff=cutoff, weight=miles)
    if cutoff is not None and offset > cutoff:
        del found[source]
    else:
        found[source] = offset
    return found


def _miles_to(graph: Any, start: Start, town: str) -> float:
    """Road miles from a place to one town (``inf`` if no road leads there); the search stops
    at the town."""
    source, offset, miles = _leaving(start)
    if town == source:
        return offset
    if town not in graph:
        return math.inf
    try:
        found: float = nx.dijkstra_path_length(graph, source, town, weight=miles)
    except nx.NetworkXNoPath:
        return math.inf
    return found


def _routes(graph: Any, start: Start, within: float | None = None,
            miles: Miles | None = None) -> Routes:
    """The shortest route from a place to every town it reaches, with its miles: the towns
    passed in order, the start's own towns first (a start at a town with no miles leaves it,
    and is no town reached); of routes equally short, the first in alphabetical order.

    With ``within``, a route goes on only from a town less than ``within`` miles out, so it
    may end at the first town past them. ``miles`` gives a road's length, or None for a road
    the search may not take; ``graph`` may be a view that leaves out towns.
    """
    source, offset, weight = _leaving(start, miles or _miles)
    assert callable(weight)
    before, found = nx.dijkstra_predecessor_and_distance(graph, source, cutoff=within,
                                                         weight=weight)
    leaves = len(start) == 1 and start[0][1] == 0
    far = max(start, key=lambda end: end[1])[0] if len(start) == 2 else None
    found[source] = offset
    out: Routes = {}

    def way(town: str, last: str) -> tuple[str, ...]:
        """The route to ``town`` by ``last``'s (the far end of the start's road: by the road)."""
        return (town,) if last == source and town == far else (*out[last][0], town)

    for town, d in found.items():  # nearest first, so each town's way is there for the next
        out[town] = ((() if leaves else (source,)) if town == source
                     else min(way(town, last) for last in before[town]), d)
    if within is not None:  # the first towns past ``within``, from the towns short of it
        # the start's own towns are entered however far off, as the first towns past it
        past: dict[str, tuple[float, tuple[str, ...]]] = {
            town: (offset, (town,)) for town, offset in start if town not in out}
        for town, (_route, d) in list(out.items()):
            if d >= within:
                continue
            for nxt, road in graph[town].items():
                length = weight(town, nxt, road)
                if length is None or nxt in out:
                    continue
                # miles from the source are counted from the place already
                candidate = ((length if town == source else d + length), way(nxt, town))
                if nxt not in past or candidate < past[nxt]:
                    past[nxt] = candidate
        out.update((town, (route, d)) for town, (d, route) in past.items())
    if leaves:
        del out[source]
    return out


class RoadMap:
    """Towns as nodes and roads as edges, with the questions a campaign asks of them."""

    def __init__(self, map_data: MapData):
        self.data = map_data
        self.towns: dict[str, Town] = {t.name: t for t in map_data.towns}
        # names before aliases, so a town's own name wins over another town's alias
        self._names = NameIndex([*((t.name, t.name) for t in map_data.towns),
                                 *((a, t.name) for t in map_data.towns for a in t.aliases)])
        self.graph = nx.Graph()
        self._whole: dict[tuple[tuple[str, float], ...], dict[str, float]] = {}
        self.graph.add_nodes_from(self.towns)
        for road in map_data.roads:
            self.graph.add_edge(road.a, road.b, miles=road.miles, road=road)

    def resolve(self, name: str) -> str:
        """The canonical name of a town, given its name or an alias (any case, umlauts and
        accents optional: ``Koepenick`` or ``Kopenick`` for Köpenick); a near miss is told
        the closest names."""
        found = self._names.find(name)
        if found is None:
            raise UnknownTown(self._names.unknown(name, f"no town called '{name}' on the map"))
        return found

    def town(self, name: str) -> Town:
        """The town of that name or alias."""
        return self.towns[self.resolve(name)]

    def theatre(self, name: str) -> Theatre:
        """The theatre a town belongs to."""
        return self.town(name).theatre

    def neighbours(self, name: str) -> list[str]:
        """The towns one road away, sorted by name."""
        return sorted(self.graph.neighbors(self.resolve(name)))

    def road(self, a: str, b: str) -> Road:
        """The road joining two towns directly."""
        a, b = self.resolve(a), self.resolve(b)
        if not self.graph.has_edge(a, b):
            raise NoRoad(f"no road joins {a} and {b}")
        road: Road = self.graph.edges[a, b]["road"]
        return road

    def miles(self, a: str, b: str) -> float:
        """The length of the road joining two towns directly."""
        return self.road(a, b).miles

    def route(self, a: str, b: str, via: Sequence[str] = ()) -> Route:
        """The shortest route by road miles from ``a`` to ``b`` through the waypoints in order."""
        stops = [self.resolve(n) for n in (a, *via, b)]
        towns: list[str] = [stops[0]]
        for start, end in zip(stops, stops[1:], strict=False):
            if start == end:
                continue
            try:
                path = nx.shortest_path(self.graph, start, end, weight="miles")
            except nx.NetworkXNoPath:
                raise NoRoute(f"no road leads from {start} to {end}") from None
            towns.extend(path[1:])
        return self._route(towns)

    def alternative_routes(self, a: str, b: str, count: int = 3) -> list[Route]:
        """Up to ``count`` loop-free routes from ``a`` to ``b``, shortest first."""
        a, b = self.resolve(a), self.resolve(b)
        if a == b:
            return [self._route([a])]
        try:
            paths = list(islice(nx.shortest_simple_paths(self.graph, a, b, weight="miles"),
                                count))
        except nx.NetworkXNoPath:
            raise NoRoute(f"no road leads from {a} to {b}") from None
        return [self._route(p) for p in paths]

    def route_through(self, towns: Iterable[str]) -> Route:
        """The route along the given towns, each joined to the next by a road."""
        names = [self.resolve(t) for t in towns]
        for x, y in zip(names, names[1:], strict=False):
            self.road(x, y)
        return self._route(names)

    def _route(self, towns: Sequence[str]) -> Route:
        legs = tuple(self.graph.edges[x, y]["miles"] for x, y in zip(towns, towns[1:],
                                                                      strict=False))
        return Route(tuple(towns), legs)

    def distance(self, a: str, b: str) -> float:
        """The shortest road distance in miles between two towns."""
        return self.route(a, b).miles

    def distances_from(self, name: str, cutoff: float | None = None) -> dict[str, float]:
        """Road miles from a town to every town (within ``cutoff`` if given)."""
        return self.reach(((self.resolve(name), 0.0),), cutoff)

    def reach(self, start: Start, cutoff: float | None = None) -> dict[str, float]:
        """Road miles from a place (``Start``: a town, or the ends of the road it is on with
        the miles to each) to every town no more than ``cutoff`` miles away."""
        if cutoff is not None:
            return _reach(self.graph, start, cutoff)
        key = tuple(start)  # the whole map from one place: asked again and again after a battle
        if key not in self._whole:
            if len(self._whole) >= _KEPT:
                self._whole.clear()
            self._whole[key] = _reach(self.graph, start)
        return dict(self._whole[key])

    def miles_to(self, start: Start, town: str) -> float:
        """Road miles from a place to one town (``inf`` if no road leads there); the search
        goes no farther than that town."""
        return _miles_to(self.graph, start, town)

    def routes(self, start: Start, within: float | None = None, miles: Miles | None = None,
               avoiding: Iterable[str] = ()) -> Routes:
        """The shortest route from a place to every town (see ``_routes``) by roads that
        ``miles`` lets it take and through no town of ``avoiding`` (where the enemy is)."""
        barred = set(avoiding) - {town for town, _ in start}  # a march may start in one
        graph = nx.subgraph_view(self.graph, filter_node=lambda town: town not in barred) \
            if barred else self.graph
        return _routes(graph, start, within, miles)

    def within(self, name: str, miles: float) -> dict[str, float]:
        """The towns within ``miles`` by road, with their distances, the town itself included."""
        return dict(sorted(self.distances_from(name, cutoff=miles).items(),
                           key=lambda kv: (kv[1], kv[0])))

    def crossings(self, route: Route) -> list[Road]:
        """The roads of a route that cross a river, in order of march."""
        roads = [self.road(x, y) for x, y in zip(route.towns, route.towns[1:], strict=False)]
        return [r for r in roads if r.river]

    @staticmethod
    def march_days(route: Route, miles_per_day: float) -> int:
        """Whole days to march a route at a rate (a part day counts as a day)."""
        if miles_per_day <= 0:
            raise ValueError(f"a march rate must be positive, not {miles_per_day}")
        return math.ceil(round(route.miles / miles_per_day, 9))

    def towns_in(self, theatre: Theatre) -> list[str]:
        """The towns of one theatre, sorted by name."""
        return sorted(t.name for t in self.data.towns if t.theatre is theatre)
