"""The ground shipped pre-built (the land outline, the roads' meetings with rivers): current with
the TOML it is made from, and never used for a map or land file it was not made from."""

import json

import msgspec
import pytest

from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.maps.geometry import river_meetings
from campaign1813.maps.land import LAND_FILE, read_land
from campaign1813.maps.prebuilt import (
    FORMAT,
    GROUND_FILE,
    ground_text,
    land_outline,
    map_digest,
    meetings_of,
    shipped_ground,
)
from campaign1813.maps.types import MapData, River, Road, RoadClass, Theatre, Town, TownKind


@pytest.fixture(scope="module")
def shipped_map() -> MapData:
    return load_scenario().map


def test_the_shipped_ground_is_what_the_build_step_makes_from_the_toml_now(shipped_map):
    """Fails after an edit of land.toml or of the map's towns, roads or rivers until
    ``python tools/build_ground.py`` is run again."""
    assert GROUND_FILE.read_text(encoding="utf-8") == ground_text(shipped_map), (
        "campaign1813/data/geography/ground.json is stale: run python tools/build_ground.py")


def test_the_outline_drawn_is_exactly_the_land_files(shipped_map):
    assert land_outline() == read_land(LAND_FILE)
    assert len(land_outline()) > 10


def test_the_shipped_maps_meetings_are_exactly_those_worked_out(shipped_map):
    assert meetings_of(shipped_map) == tuple(river_meetings(shipped_map))
    assert meetings_of(shipped_map) is shipped_ground().meetings  # read, not worked out


def test_another_map_has_its_meetings_worked_out(shipped_map):
    """A town moved 0.1 degree east changes the digest: its meetings are the new map's."""
    first = shipped_map.towns[0]
    moved = msgspec.structs.replace(
        shipped_map, towns=(msgspec.structs.replace(first, lon=first.lon + 0.1),)
        + shipped_map.towns[1:])
    assert map_digest(moved) != map_digest(shipped_map)
    assert meetings_of(moved) == tuple(river_meetings(moved))
    # a river north-south at 10.1 E between A (10.0 E) and B (10.2 E): one meeting, midway
    towns = tuple(Town(n, 52.0, lon, Theatre.NORTHERN_GERMANY, TownKind.TOWN, False)
                  for n, lon in (("A", 10.0), ("B", 10.2)))
    small = MapData(towns, (Road("A", "B", 10, RoadClass.MAIN),),
                    (River("Elbe", ((51.5, 10.1), (52.5, 10.1))),))
    (meeting,) = meetings_of(small)
    assert (meeting.road_from, meeting.road_to, meeting.river) == ("A", "B", "Elbe")
    assert meeting.miles_from_start == pytest.approx(meeting.miles_from_end)


def test_a_file_of_another_format_is_not_read(tmp_path):
    other = tmp_path / "ground.json"
    other.write_text(json.dumps({"format": FORMAT + 1, "land": [], "meetings": []}),
                     encoding="utf-8")
    assert shipped_ground(other) is None
    assert shipped_ground(tmp_path / "none.json") is None
