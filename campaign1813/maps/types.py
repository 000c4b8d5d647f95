"""The road map's own vocabulary as frozen values: theatres, towns, roads, crossings, rivers.

The map knows nothing of the campaign that uses it: the scenario loader builds these from the
TOML files, and the road network, the geometry and the drawing code read them.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations when
# a campaign is opened, and would compile each written as text

from enum import StrEnum

import msgspec


class Theatre(StrEnum):
    """The five theatres of the campaign, and France that joins them."""

    NORTHERN_GERMANY = "Northern Germany"
    CENTRAL_GERMANY = "Central Germany"
    SOUTHERN_GERMANY = "Southern Germany and Austria"
    EASTERN_SPAIN = "Eastern Spain"
    WESTERN_SPAIN = "Western Spain"
    FRANCE = "France"


class TownKind(StrEnum):
    """What sort of place a town is."""

    CITY = "city"
    TOWN = "town"
    VILLAGE = "village"
    FORTRESS = "fortress"


class RoadClass(StrEnum):
    """Main supply routes, minor roads and tracks."""

    MAIN = "main"
    MINOR = "minor"
    TRACK = "track"


class Crossing(StrEnum):
    """How a road crosses a river."""

    BRIDGE = "bridge"
    FORD = "ford"
    FERRY = "ferry"


class Town(msgspec.Struct, frozen=True):
    """A place on the road map."""

    name: str
    lat: float
    lon: float
    theatre: Theatre
    kind: TownKind
    built_up: bool
    river: str | None = None
    fortress: bool = False
    aliases: tuple[str, ...] = ()


class Road(msgspec.Struct, frozen=True):
    """A road between two towns; ``river``/``crossing`` are set where it crosses a river."""

    a: str
    b: str
    miles: float
    road_class: RoadClass
    river: str | None = None
    crossing: Crossing | None = None


class River(msgspec.Struct, frozen=True):
    """A river as a polyline of (lat, lon) points, for drawing."""

    name: str
    points: tuple[tuple[float, float], ...]


class MapData(msgspec.Struct, frozen=True):
    """The whole road map."""

    towns: tuple[Town, ...]
    roads: tuple[Road, ...]
    rivers: tuple[River, ...]
