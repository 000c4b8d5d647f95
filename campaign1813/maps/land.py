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
