"""The land outline drawn under the road map (seas, coasts and islands), read from shipped data."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

LAND_FILE = Path(__file__).resolve().parents[1] / "data" / "geography" / "land.toml"

Ring = tuple[tuple[float, float], ...]


@cache
def land_rings(path: Path = LAND_FILE) -> tuple[Ring, ...]:
    """The land's outline rings as (lat, lon) points; holes (lakes) are rings inside rings
    (read from the TOML; the map draws them from the pre-built file, see ``prebuilt``)."""
    return read_land(path)


def read_land(path: Path) -> tuple[Ring, ...]:
    """The land's outline rings, read from a TOML file of ``[[land]]`` rings of points."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path.name}: cannot read the land outline: {e}") from e
    rings = []
    for i, entry in enumerate(data.get("land", []), start=1):
        points = entry.get("points", [])
        if len(points) < 3:
            raise ValueError(
                f"{path.name}: land ring {i} has {len(points)} points, 3 or more needed"
            )
        rings.append(tuple((float(p[0]), float(p[1])) for p in points))
    return tuple(rings)


def on_land(lat: float, lon: float, rings: tuple[Ring, ...]) -> bool:
    """Whether a point is land: inside an odd number of rings (a lake's ring inside the land's
    takes it out again), as the map fills the outline."""
    inside = False
    for ring in rings:
        for (lat1, lon1), (lat2, lon2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (lat1 > lat) != (lat2 > lat):
                cross = lon1 + (lat - lat1) * (lon2 - lon1) / (lat2 - lat1)
                if lon < cross:
                    inside = not inside
    return inside


def rings_box(rings: tuple[Ring, ...]) -> tuple[float, float, float, float]:
    """The box the rings reach, as (south, west, north, east) degrees: how far the outline
    knows the land and the sea."""
    lats = [p[0] for ring in rings for p in ring]
    lons = [p[1] for ring in rings for p in ring]
    if not lats:
        raise ValueError("an outline of no rings reaches nowhere")
    return min(lats), min(lons), max(lats), max(lons)

