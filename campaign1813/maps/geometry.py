"""Geometry of the road map: great-circle miles, a drawing projection and the river-crossing check.

Everything here is plain arithmetic on (lat, lon) degrees; nothing draws and nothing imports Qt.

>>> round(great_circle_miles(52.1205, 11.6276, 52.2279, 11.0099), 1)  # Magdeburg to Helmstedt
27.2
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from campaign1813.maps.types import MapData, Theatre, Town

EARTH_RADIUS_MILES = 3958.8
# Miles in one degree of latitude on the sphere above.
MILES_PER_DEGREE = EARTH_RADIUS_MILES * math.pi / 180.0


def great_circle_miles(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The great-circle distance in statute miles between two (lat, lon) points (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(min(1.0, math.sqrt(h)))


def town_miles(a: Town, b: Town) -> float:
    """The great-circle miles between two towns."""
    return great_circle_miles(a.lat, a.lon, b.lat, b.lon)


@dataclass(frozen=True)
class Bounds:
    """A box of latitude and longitude, south-west to north-east."""

    south: float
    west: float
    north: float
    east: float

    def __post_init__(self) -> None:
        if not (self.south < self.north and self.west < self.east):
            raise ValueError(f"bounds {self} are empty: south < north and west < east needed")

    @classmethod
    def around(cls, points: Iterable[tuple[float, float]], margin_miles: float = 0.0) -> Bounds:
        """The smallest box holding the (lat, lon) points, widened by a margin in miles."""
        pts = list(points)
        if not pts:
            raise ValueError("cannot take the bounds of no points")
        south = min(p[0] for p in pts)
        north = max(p[0] for p in pts)
        west = min(p[1] for p in pts)
        east = max(p[1] for p in pts)
        mid = math.radians((south + north) / 2)
        dlat = margin_miles / MILES_PER_DEGREE
        dlon = margin_miles / (MILES_PER_DEGREE * max(math.cos(mid), 0.01))
        # A single point still gets a box, so that a one-town theatre can be drawn.
        dlat = max(dlat, 1e-3)
        dlon = max(dlon, 1e-3)
        return cls(south - dlat, west - dlon, north + dlat, east + dlon)

    def contains(self, lat: float, lon: float) -> bool:
        """Whether the point lies inside the box."""
        return self.south <= lat <= self.north and self.west <= lon <= self.east


@dataclass(frozen=True)
class Projection:
    """Equirectangular projection scaled by the cosine of the box's middle latitude.

    ``project`` gives (x, y) in a unit box: x runs west to east, y runs north to south (north is
    up, as on a screen), and the longer side of the box spans 0..1 so that the map keeps its shape.
    """

    bounds: Bounds

    @property
    def _cos(self) -> float:
        return math.cos(math.radians((self.bounds.south + self.bounds.north) / 2))

    @property
    def _span_miles(self) -> float:
        wide = (self.bounds.east - self.bounds.west) * self._cos
        tall = self.bounds.north - self.bounds.south
        return max(wide, tall) * MILES_PER_DEGREE

    @property
    def width(self) -> float:
        """The width of the box in projected units (1.0 when it is wider than tall)."""
        wide = (self.bounds.east - self.bounds.west) * self._cos * MILES_PER_DEGREE
        return wide / self._span_miles

    @property
    def height(self) -> float:
        """The height of the box in projected units (1.0 when it is taller than wide)."""
        return (self.bounds.north - self.bounds.south) * MILES_PER_DEGREE / self._span_miles

    @property
    def miles_per_unit(self) -> float:
        """Miles on the ground for one projected unit (along a parallel at the middle latitude)."""
        return self._span_miles

    def project(self, lat: float, lon: float) -> tuple[float, float]:
        """(lat, lon) to (x, y) in the unit box, north up."""
        x = (lon - self.bounds.west) * self._cos * MILES_PER_DEGREE / self._span_miles
        y = (self.bounds.north - lat) * MILES_PER_DEGREE / self._span_miles
        return x, y

    def unproject(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) in the unit box back to (lat, lon)."""
        lon = self.bounds.west + x * self._span_miles / (self._cos * MILES_PER_DEGREE)
        lat = self.bounds.north - y * self._span_miles / MILES_PER_DEGREE
        return lat, lon


def map_projection(
    map_data: MapData, theatre: Theatre | None = None, margin_miles: float = 25.0
) -> Projection:
    """The projection for the whole map, or for one theatre's towns, with a margin in miles."""
    towns = [t for t in map_data.towns if theatre is None or t.theatre == theatre]
    if not towns:
        raise ValueError(f"no towns in theatre {theatre}")
    return Projection(Bounds.around(((t.lat, t.lon) for t in towns), margin_miles))


def _local_xy(lat: float, lon: float, cos0: float) -> tuple[float, float]:
    """Miles east and north of (0, 0) on a plane tangent near the latitude whose cosine is cos0."""
    return lon * cos0 * MILES_PER_DEGREE, lat * MILES_PER_DEGREE


def segment_intersection(
    p1: tuple[float, float],
    p2: tuple[float, float],
    q1: tuple[float, float],
    q2: tuple[float, float],
) -> float | None:
    """Where segment p1-p2 meets segment q1-q2, as a fraction along p1-p2, or None if apart.

    Points are planar (x, y); touching at an end point counts as meeting.
    """
    rx, ry = p2[0] - p1[0], p2[1] - p1[1]
    sx, sy = q2[0] - q1[0], q2[1] - q1[1]
    denom = rx * sy - ry * sx
    if denom == 0:
        return None  # parallel: a road never runs exactly along a river's straight reach here
    qpx, qpy = q1[0] - p1[0], q1[1] - p1[1]
    t = (qpx * sy - qpy * sx) / denom
    u = (qpx * ry - qpy * rx) / denom
    if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
        return t
    return None


@dataclass(frozen=True)
class RiverMeeting:
    """A road's straight line meeting a river's polyline, with the miles from each road end."""

    road_from: str
    road_to: str
    river: str
    miles_from_start: float
    miles_from_end: float


def river_meetings(map_data: MapData) -> list[RiverMeeting]:
    """Every place where a road's straight line meets a river's polyline."""
    towns = {t.name: t for t in map_data.towns}
    rivers = []
    for river in map_data.rivers:
        if len(river.points) < 2:
            continue
        lats = [p[0] for p in river.points]
        lons = [p[1] for p in river.points]
        rivers.append((river, (min(lats), min(lons), max(lats), max(lons))))
    meetings: list[RiverMeeting] = []
    for road in map_data.roads:
        a, b = towns.get(road.a), towns.get(road.b)
        if a is None or b is None:
            continue  # the loader reports unknown towns; nothing to measure here
        box = (min(a.lat, b.lat), min(a.lon, b.lon), max(a.lat, b.lat), max(a.lon, b.lon))
        cos0 = math.cos(math.radians((a.lat + b.lat) / 2))
        pa, pb = _local_xy(a.lat, a.lon, cos0), _local_xy(b.lat, b.lon, cos0)
        length = math.dist(pa, pb)
        for river, rbox in rivers:
            if rbox[0] > box[2] or rbox[2] < box[0] or rbox[1] > box[3] or rbox[3] < box[1]:
                continue
            pts = [_local_xy(lat, lon, cos0) for lat, lon in river.points]
            for q1, q2 in zip(pts, pts[1:], strict=False):
                t = segment_intersection(pa, pb, q1, q2)
                if t is not None:
                    meetings.append(
                        RiverMeeting(road.a, road.b, river.name, t * length, (1 - t) * length)
                    )
    return meetings


def uncrossed_rivers(map_data: MapData, end_tolerance_miles: float = 3.0,
                     meetings: Sequence[RiverMeeting] | None = None) -> list[str]:
    """Messages for roads whose line meets a river they declare no crossing of.

    A meeting within ``end_tolerance_miles`` of a road end whose town stands on that river is
    ignored: the town's own bridge, or a road that merely leaves along the bank. ``meetings``:
    the map's river meetings, if already known (else they are worked out).
    """
    towns = {t.name: t for t in map_data.towns}
    declared = {
        (r.a, r.b): r.river
        for r in map_data.roads
        if r.river is not None and r.crossing is not None
    }
    messages: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    for m in river_meetings(map_data) if meetings is None else meetings:
        if declared.get((m.road_from, m.road_to)) == m.river:
            continue
        a, b = towns[m.road_from], towns[m.road_to]
        if m.miles_from_start <= end_tolerance_miles and a.river == m.river:
            continue
        if m.miles_from_end <= end_tolerance_miles and b.river == m.river:
            continue
        key = (m.road_from, m.road_to, m.river)
        if key in seen:
            continue
        seen.add(key)
        messages.append(
            f"road {m.road_from} - {m.road_to} crosses the {m.river} about "
            f"{m.miles_from_start:.0f} miles from {m.road_from} but declares no crossing of it"
        )
    return messages


def polyline_miles(points: Sequence[tuple[float, float]]) -> float:
    """The great-circle length of a (lat, lon) polyline in miles."""
    return sum(
        great_circle_miles(p[0], p[1], q[0], q[1]) for p, q in zip(points, points[1:], strict=False)
    )
