"""Routes, distances and march days on a small hand-made map."""

import pytest

from campaign1813.maps.road_map import NoRoad, NoRoute, RoadMap, UnknownTown
from campaign1813.maps.types import MapData, Road, RoadClass, Theatre, Town, TownKind


def town(name, lon, aliases=()):
    return Town(name, 52.0, lon, Theatre.NORTHERN_GERMANY, TownKind.TOWN, True,
                aliases=tuple(aliases))


@pytest.fixture
def road_map():
    # A square A-B-C-D-A with a diagonal A-C, and an island E with no road.
    towns = (town("A", 10.0, ["Aa"]), town("B", 10.2), town("C", 10.4), town("D", 10.2),
             town("E", 11.0))
    roads = (Road("A", "B", 10, RoadClass.MAIN), Road("B", "C", 10, RoadClass.MAIN),
             Road("C", "D", 6, RoadClass.MINOR), Road("D", "A", 6, RoadClass.MINOR),
             Road("A", "C", 25, RoadClass.TRACK, "Aller", None))
    return RoadMap(MapData(towns, roads, ()))


def test_shortest_route_by_miles(road_map):
    r = road_map.route("A", "C")
    assert r.towns == ("A", "D", "C") and r.miles == 12


def test_route_through_waypoints(road_map):
    r = road_map.route("A", "C", via=["B"])
    assert r.towns == ("A", "B", "C") and r.legs == (10, 10) and r.miles == 20


def test_alternatives_are_ordered(road_map):
    assert [r.miles for r in road_map.alternative_routes("A", "C")] == [12, 20, 25]


def test_within_and_neighbours(road_map):
    assert road_map.within("A", 10) == {"A": 0, "D": 6, "B": 10}
    assert road_map.neighbours("aa") == ["B", "C", "D"]


def test_march_days_round_up(road_map):
    r = road_map.route("A", "C", via=["B"])
    assert RoadMap.march_days(r, 15) == 2
    assert RoadMap.march_days(r, 20) == 1


def test_crossings_on_a_route(road_map):
    r = road_map.route_through(["B", "A", "C"])
    assert [c.river for c in road_map.crossings(r)] == ["Aller"]


def test_errors_name_the_town(road_map):
    with pytest.raises(UnknownTown, match="no town called 'Zz' on the map"):
        road_map.route("A", "Zz")
    with pytest.raises(NoRoute, match="no road leads from A to E"):
        road_map.route("A", "E")
    with pytest.raises(NoRoad, match="no road joins B and D"):
        road_map.road("B", "D")
