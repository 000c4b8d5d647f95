"""Read the map's TOML files into a ``MapData`` for the map tools and the pictures.

The scenario loader validates the same files for play; this reader only parses them, so that the
tools that build and check the data can run on a half-finished map.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from campaign1813.maps.types import (
    Crossing,
    MapData,
    River,
    Road,
    RoadClass,
    Town,
)

MAP_DIR = Path(__file__).resolve().parents[2] / "data" / "scenarios" / "1813" / "map"


def read_towns(path: Path) -> list[Town]:
    """The ``[[town]]`` tables of a towns file as towns."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [Town.from_table(t) for t in data.get("town", [])]


def read_roads(path: Path) -> list[Road]:
    """The ``[[road]]`` tables of a roads file as roads."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    roads = []
    for r in data.get("road", []):
        crossing = r.get("crossing")
        roads.append(
            Road(
                a=r["from"],
                b=r["to"],
                miles=float(r["miles"]),
                road_class=RoadClass(r["class"]),
                river=r.get("river"),
                crossing=Crossing(crossing) if crossing else None,
            )
        )
    return roads


def read_rivers(path: Path) -> list[River]:
    """The ``[[river]]`` tables of a rivers file as rivers."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        River(name=r["name"], points=tuple((float(p[0]), float(p[1])) for p in r["points"]))
        for r in data.get("river", [])
    ]


def read_map(folder: Path = MAP_DIR) -> MapData:
    """The map in ``folder`` (towns.toml, roads.toml, rivers.toml) as a ``MapData``."""
    return MapData(
        towns=tuple(read_towns(folder / "towns.toml")),
        roads=tuple(read_roads(folder / "roads.toml")),
        rivers=tuple(read_rivers(folder / "rivers.toml")),
    )
