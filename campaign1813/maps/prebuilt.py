"""The ground derived from the map's TOML, shipped pre-built: the land outline and where each
road's line meets a river.

Both are pure functions of shipped files, yet took tens of milliseconds at every start (the
outline's TOML parsed, every road's line tested against every river's reaches). They are made
once by ``python tools/build_ground.py`` into ``data/geography/ground.json``, which names what
it was made from: the land file's SHA-256 and a digest of the map (towns' places, roads' ends,
rivers' courses). A map or land file that differs from those is worked out as before, so an
edited scenario is never drawn from a stale file; a test checks that the shipped file is what
the build step makes from the TOML now.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from campaign1813.maps.geometry import RiverMeeting, river_meetings
from campaign1813.maps.land import LAND_FILE, Ring, read_land
from campaign1813.maps.types import MapData

GROUND_FILE = LAND_FILE.with_name("ground.json")
FORMAT = 1  # raised when the file's layout changes: an older file is then not read


@dataclass(frozen=True)
class Ground:
    """What the file holds: the land's rings, and the meetings of the map it was made from."""

    land_sha256: str
    land: tuple[Ring, ...]
    map_digest: str
    meetings: tuple[RiverMeeting, ...]


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def map_digest(map_data: MapData) -> str:
    """A digest of what the river meetings depend on: the towns' names and places, the roads'
    ends and the rivers' names and courses (in the map's order)."""
    basis = (tuple((t.name, t.lat, t.lon) for t in map_data.towns),
             tuple((r.a, r.b) for r in map_data.roads),
             tuple((r.name, r.points) for r in map_data.rivers))
    return hashlib.sha256(repr(basis).encode("utf-8")).hexdigest()


def ground_text(map_data: MapData, land_file: Path = LAND_FILE) -> str:
    """The file the build step writes, made afresh from the land file and the map."""
    land = read_land(land_file)
    meetings = river_meetings(map_data)
    data = {
        "about": "Made by tools/build_ground.py from the map's TOML and "
                 f"{land_file.name}; do not edit.",
        "format": FORMAT,
        "land_sha256": file_sha256(land_file),
        # each ring flattened: lat, lon, lat, lon ...
        "land": [[c for point in ring for c in point] for ring in land],
        "map_digest": map_digest(map_data),
        "meetings": [[m.road_from, m.road_to, m.river, m.miles_from_start, m.miles_from_end]
                     for m in meetings],
    }
    return json.dumps(data, separators=(",", ":")) + "\n"


@cache
def shipped_ground(path: Path = GROUND_FILE) -> Ground | None:
    """The pre-built ground shipped, or None if there is none of this format."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    land = tuple(tuple(zip(flat[::2], flat[1::2], strict=True)) for flat in data["land"])
    meetings = tuple(RiverMeeting(a, b, river, start, end)
                     for a, b, river, start, end in data["meetings"])
    return Ground(data["land_sha256"], land, data["map_digest"], meetings)


@cache
def land_outline() -> tuple[Ring, ...]:
    """The land's outline rings, from the pre-built file while it matches the land file."""
    ground = shipped_ground()
    if ground is not None and ground.land_sha256 == file_sha256(LAND_FILE):
        return ground.land
    return read_land(LAND_FILE)


@lru_cache(maxsize=4)
def meetings_of(map_data: MapData) -> tuple[RiverMeeting, ...]:
    """Every place where a road's line meets a river (as :func:`river_meetings`), from the
    pre-built file when the map is the one it was made from."""
    ground = shipped_ground()
    if ground is not None and ground.map_digest == map_digest(map_data):
        return ground.meetings
    return tuple(river_meetings(map_data))
