"""The road map as a graph: routes, distances, neighbourhoods and march times.

>>> from campaign1813.maps.types import MapData, Road, RoadClass, Theatre, Town, TownKind
>>> t = lambda n, lon: Town(n, 52.0, lon, Theatre.NORTHERN_GERMANY, TownKind.TOWN, True)
>>> m = RoadMap(MapData((t("A", 10.0), t("B", 10.2), t("C", 10.4)),
...     (Road("A", "B", 12.0, RoadClass.MAIN), Road("B", "C", 9.5, RoadClass.MINOR)), ()))
>>> m.route("A", "C").miles
21.5
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import islice

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


class RoadMap:
    """Towns as nodes and roads as edges, with the questions a campaign asks of them."""

    def __init__(self, map_data: MapData):
        self.data = map_data
        self.towns: dict[str, Town] = {t.name: t for t in map_data.towns}
        # names before aliases, so a town's own name wins over another town's alias
        self._names = NameIndex([*((t.name, t.name) for t in map_data.towns),
                                 *((a, t.name) for t in map_data.towns for a in t.aliases)])
        self.graph = nx.Graph()
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
        miles: dict[str, float] = nx.single_source_dijkstra_path_length(
            self.graph, self.resolve(name), cutoff=cutoff, weight="miles")
        return miles

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
