"""The road map's own vocabulary as frozen values: theatres, towns, roads, crossings, rivers.

The map knows nothing of the campaign that uses it: the scenario loader builds these from the
TOML files, and the road network, the geometry and the drawing code read them.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations when
# a campaign is opened, and would compile each written as text

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any

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
    """A place on the road map.

    The one declaration of a town: the scenario's schema makes the ``[[town]]`` table of
    ``map/towns.toml`` from these fields (their types, ranges and descriptions), and every
    reader of that file makes its towns with :meth:`from_table`.
    """

    name: str
    lat: Annotated[float, msgspec.Meta(ge=-90, le=90)]
    lon: Annotated[float, msgspec.Meta(ge=-180, le=180)]
    theatre: Theatre
    kind: TownKind
    built_up: bool
    river: Annotated[str | None, msgspec.Meta(description="the river the town stands on")] = None
    fortress: Annotated[bool, msgspec.Meta(
        description="fortified in 1813; by default only a town of kind fortress")] = False
    aliases: Annotated[tuple[str, ...], msgspec.Meta(description="other spellings")] = ()

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "Town":
        """The town of a ``[[town]]`` table's keys: one of kind fortress is fortified unless
        its table says ``fortress = false``.

        >>> Town.from_table({"name": "Torgau", "lat": 51.56, "lon": 13, "theatre": "Central "
        ...                  "Germany", "kind": "fortress", "built_up": True}).fortress
        True
        """
        values = dict(table)
        values.setdefault("fortress", values.get("kind") == TownKind.FORTRESS)
        return msgspec.convert(values, cls)


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
