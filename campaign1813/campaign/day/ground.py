"""Positions on the road map and distances between them, measured along the roads.

A command stands at a town, or on the road between two towns at some miles from one end. The
campaign day asks the road distance between two such positions many times each step; the road
map (``maps/road_map.py``, networkx) searches, bounded where the question is (a search towards
a town stops at the town), and this module keeps a plain table of the roads for the march.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations when
# a campaign is opened, and would compile each written as text

import copy
import math
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec.structs import replace

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Scenario
from campaign1813.maps.types import RoadClass

if TYPE_CHECKING:
    from campaign1813.maps.road_map import RoadMap

# Positions closer than this to a town count as at the town; it also absorbs float dust.
EPS = 1e-6
# The miles ``Ground.around`` looks beyond the distance asked: far more than any float dust.
AROUND_MARGIN = 1.0


class OrderRefused(CampaignError):
    """An order or an umpire's action cannot be carried out; the message names who and why."""


# untracked by the cycle collector, as the day's entities are (``day.state``)
class Position(msgspec.Struct, frozen=True, order=True, gc=False):
    """At town ``a`` (``b`` is None), or on the road a–b at ``miles`` from ``a`` (a < b)."""

    a: str
    b: str | None = None
    miles: float = 0.0

    @property
    def town(self) -> str | None:
        """The town the command stands at, or None when it is on a road."""
        return self.a if self.b is None else None

    def ends(self) -> tuple[str, ...]:
        """The towns this position touches: its town, or both ends of its road."""
        return (self.a,) if self.b is None else (self.a, self.b)

    def rounded(self) -> "Position":
        """The same place with its miles to six decimals, as the day's end records it."""
        return self if self.b is None else Position(self.a, self.b, round(self.miles, 6))

    def to_json(self) -> list[str | float]:
        """A compact JSON form: ``[town]`` or ``[a, b, miles]``."""
        return [self.a] if self.b is None else [self.a, self.b, self.miles]

    @staticmethod
    def from_json(data: list[Any]) -> "Position":
        """The inverse of ``to_json``."""
        return Position(data[0]) if len(data) == 1 else Position(data[0], data[1], data[2])


def road_key(a: str, b: str) -> tuple[str, str]:
    """The key of the road between two towns: their names in order."""
    return (a, b) if a <= b else (b, a)


def at(town: str) -> Position:
    """A position at a town."""
    return Position(town)


class Ground:
    """The road map as the campaign day uses it: adjacency, road classes, positions, routes."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.settings = scenario.settings
        self.corps = {c.name: c for army in scenario.armies for c in army.corps}
        self.adj: dict[str, list[tuple[str, float]]] = {t.name: [] for t in scenario.map.towns}
        self.length: dict[tuple[str, str], float] = {}
        self.road_class: dict[tuple[str, str], RoadClass] = {}
        for road in scenario.map.roads:
            a, b = sorted((road.a, road.b))
            for end in (a, b):  # a scenario read back from a damaged file, not from its loader
                if end not in self.adj:
                    raise CampaignError(f"the map's road {road.a} – {road.b} leads to "
                                        f"{end!r}, which is not a town of the map")
            self.adj[a].append((b, road.miles))
            self.adj[b].append((a, road.miles))
            self.length[(a, b)] = road.miles
            self.road_class[(a, b)] = road.road_class
        for links in self.adj.values():
            links.sort()
        # towns around a town, by the town and the miles: the roads never change, so each is
        # searched once for the ground's life (shared by its ``adjusted`` copies)
        self._near: dict[tuple[tuple[str, ...], float], frozenset[str]] = {}
        # the towns within so many miles of a town, by road: kept for the ground's life (a
        # command standing at a town is searched from again and again, day after day)
        self._from_town: dict[tuple[str, float], dict[str, float]] = {}

    def adjusted(self, overrides: Mapping[str, Any]) -> "Ground":
        """The same ground under the campaign's own settings (checked by day/settings.py)."""
        if not overrides:
            return self
        other = copy.copy(self)
        other.settings = replace(self.scenario.settings, **overrides)
        return other

    @cached_property
    def road_map(self) -> "RoadMap":
        """The road network (networkx), built on first use: reading positions never needs it."""
        from campaign1813.maps.road_map import RoadMap

        return RoadMap(self.scenario.map)

    # -- names and routes -------------------------------------------------------------------
    def resolve(self, name: str) -> str:
        """The canonical name of a town (aliases accepted); unknown names are refused."""
        return self.road_map.resolve(name)

    def route(self, start: str, end: str, via: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The towns of the shortest road route from ``start`` to ``end`` through ``via``."""
        return self.road_map.route(start, end, via=via).towns

    def miles(self, a: str, b: str) -> float:
        """Length of the road between two neighbouring towns."""
        return self.length[road_key(a, b)]

    def rate(self, a: str, b: str, mounted: bool, forced: bool) -> float:
        """Miles a day on the road a–b: tracks go at the off-road rate."""
        rates = self.settings.mounted_rate if mounted else self.settings.foot_rate
        base = rates.off_road if self.road_class[road_key(a, b)] is RoadClass.TRACK else rates.road
        return base + (self.settings.forced_march_extra_miles if forced else 0.0)

    # -- positions ---------------------------------------------------------------------------
    def on_road(self, frm: str, to: str, miles_from_frm: float) -> Position:
        """The position ``miles_from_frm`` along the road from ``frm`` towards ``to``."""
        length = self.miles(frm, to)
        if miles_from_frm <= EPS:
            return Position(frm)
        if miles_from_frm >= length - EPS:
            return Position(to)
        if frm < to:
            return Position(frm, to, miles_from_frm)
        return Position(to, frm, length - miles_from_frm)

    def offsets(self, pos: Position) -> tuple[tuple[str, float], ...]:
        """Each town the position touches and the miles to it."""
        if pos.b is None:
            return ((pos.a, 0.0),)
        return ((pos.a, pos.miles), (pos.b, self.miles(pos.a, pos.b) - pos.miles))

    def reach(self, pos: Position, cutoff: float = math.inf) -> dict[str, float]:
        """Road miles from a position to every town within ``cutoff`` (not to be changed by
        the caller: from a town with a cutoff it is the one kept for the ground's life)."""
        if pos.b is None and not math.isinf(cutoff):
            key = (pos.a, cutoff)
            found = self._from_town.get(key)
            if found is None:
                found = self._from_town[key] = self.road_map.reach(((pos.a, 0.0),),
                                                                   cutoff + EPS)
            return found
        return self.road_map.reach(self.offsets(pos),
                                   None if math.isinf(cutoff) else cutoff + EPS)

    def distance(self, p: Position, q: Position, cutoff: float = math.inf) -> float:
        """Road miles between two positions (``inf`` if farther than ``cutoff``)."""
        direct = math.inf
        if p.b is not None and q.b is not None and (p.a, p.b) == (q.a, q.b):
            direct = abs(p.miles - q.miles)
        if q.b is None and math.isinf(cutoff):  # to a town: the search stops there
            return min(direct, self.road_map.miles_to(self.offsets(p), q.a))
        reached = self.reach(p, cutoff)
        best = direct
        for town, d in self.offsets(q):
            if town in reached:
                best = min(best, reached[town] + d)
        return best if best <= cutoff + EPS else math.inf

    def around(self, pos: Position, miles: float) -> frozenset[str]:
        """The towns within ``miles`` and a mile more of the towns a position touches, by
        road: every position within ``miles`` of ``pos`` touches one of them (the mile covers
        the float dust of summing a route's roads the other way round). A cheap first sieve
        before ``distance``; kept for the ground's life, by the towns touched."""
        key = (pos.ends(), miles)
        found = self._near.get(key)
        if found is None:
            reached: set[str] = set()
            for end in key[0]:
                reached.update(self.road_map.reach(((end, 0.0),), miles + AROUND_MARGIN))
            found = self._near[key] = frozenset(reached)
        return found

    def nearest_town(self, pos: Position) -> str:
        """The nearer end of the road a position stands on (its town if at one)."""
        if pos.b is None:
            return pos.a
        return pos.a if pos.miles <= self.miles(pos.a, pos.b) - pos.miles else pos.b

    def plan(self, pos: Position, objective: str, via: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The towns to march through, in order, from a position to the objective.

        From a road the march leaves by whichever end gives the shorter whole route.
        """
        if pos.b is None:
            return self.route(pos.a, objective, via)[1:]
        options = []
        for end, d in self.offsets(pos):
            towns = self.route(end, objective, via)
            options.append((d + self.route_miles(towns), towns))
        options.sort()
        return options[0][1]

    def route_miles(self, towns: tuple[str, ...]) -> float:
        """Miles along a chain of neighbouring towns."""
        return sum(self.miles(a, b) for a, b in zip(towns, towns[1:], strict=False))

    def miles_to(self, pos: Position, town: str) -> float:
        """Miles from a position to a town it touches (its own town or a road end)."""
        if pos.b is None:  # asked at every step of every march: plain lookups
            if town == pos.a:
                return 0.0
            length = self.length.get(road_key(pos.a, town))
            if length is not None:
                return length
        elif town == pos.a:
            return pos.miles
        elif town == pos.b:
            return self.length[(pos.a, pos.b)] - pos.miles
        raise OrderRefused(f"{town} is not next to {describe(pos)}")

    def step_towards(self, pos: Position, town: str, miles: float) -> Position:
        """Move ``miles`` from a position towards a neighbouring town (never past it)."""
        if pos.b is None:
            return self.on_road(pos.a, town, miles)
        other = pos.b if town == pos.a else pos.a
        from_other = self.miles(pos.a, pos.b) - self.miles_to(pos, town)
        return self.on_road(other, town, from_other + miles)

    def on_route(self, pos: Position, start: Position, towns: tuple[str, ...]) -> bool:
        """Whether ``pos`` lies on the march from ``start`` through ``towns``."""
        if pos.b is None:
            return pos.a in towns
        key = (pos.a, pos.b)
        here = start
        for town in towns:
            if here.b is None:
                if tuple(sorted((here.a, town))) == key:
                    return True
            elif (here.a, here.b) == key:
                # Only the part of this road still ahead counts.
                return pos.miles >= here.miles if town == here.b else pos.miles <= here.miles
            here = Position(town)
        return False

def describe(pos: Position, ground: Ground | None = None) -> str:
    """A position in words: ``Helmstedt`` or ``6 miles from Helmstedt on the road to Magdeburg``."""
    if pos.b is None:
        return pos.a
    if ground is None:
        return f"{pos.miles:g} miles from {pos.a} on the road to {pos.b}"
    near = ground.nearest_town(pos)
    far = pos.b if near == pos.a else pos.a
    return f"{round(ground.miles_to(pos, near), 1):g} miles from {near} on the road to {far}"
