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


@pytest.fixture
def german_map():
    towns = (town("Köpenick", 10.0), town("Munich", 10.2, ["München"]), town("Lübeck", 10.4),
             town("Magdeburg", 10.6), town("Weißenfels", 10.8), town("Besançon", 11.0))
    roads = tuple(Road(a.name, b.name, 10, RoadClass.MAIN)
                  for a, b in zip(towns, towns[1:], strict=False))
    return RoadMap(MapData(towns, roads, ()))


@pytest.mark.parametrize(("typed", "town_name"), [
    ("Köpenick", "Köpenick"), ("Koepenick", "Köpenick"), ("Kopenick", "Köpenick"),
    ("KOEPENICK", "Köpenick"), ("kopenick", "Köpenick"),
    ("München", "Munich"), ("Munchen", "Munich"), ("Muenchen", "Munich"),
    ("Lubeck", "Lübeck"), ("Luebeck", "Lübeck"), ("LÜBECK", "Lübeck"),
    ("Weissenfels", "Weißenfels"), ("Besancon", "Besançon"),
    ("Ko\u0308penick", "Köpenick"),  # the umlaut typed as o and a combining diaeresis
])
def test_umlauts_and_accents_may_be_left_out_or_spelt_with_an_e(german_map, typed, town_name):
    assert german_map.resolve(typed) == town_name


def test_a_near_miss_is_told_the_closest_town(german_map):
    with pytest.raises(UnknownTown) as err:
        german_map.resolve("Magdeberg")
    assert str(err.value) == "no town called 'Magdeberg' on the map; did you mean Magdeburg?"
    with pytest.raises(UnknownTown) as err:
        german_map.resolve("Lubek")
    assert str(err.value) == "no town called 'Lubek' on the map; did you mean Lübeck?"
    with pytest.raises(UnknownTown) as err:  # nothing close: the message as it always was
        german_map.resolve("Atlantis")
    assert str(err.value) == "no town called 'Atlantis' on the map"


def test_two_towns_folded_alike_are_both_offered():
    towns = (town("Mühlberg", 10.0), town("Muhlberg", 10.2))
    road_map = RoadMap(MapData(towns, (Road("Mühlberg", "Muhlberg", 5, RoadClass.MAIN),), ()))
    assert road_map.resolve("Muhlberg") == "Muhlberg"  # the exact name first
    assert road_map.resolve("mühlberg") == "Mühlberg"
    with pytest.raises(UnknownTown) as err:  # a macron: either town, folded
        road_map.resolve("Mūhlberg")
    assert str(err.value) == ("no town called 'Mūhlberg' on the map; did you mean Muhlberg or "
                              "Mühlberg?")


def test_the_shipped_map_takes_ascii_spellings():
    from campaign1813.maps.tools.map_toml import read_map

    shipped = RoadMap(read_map())
    assert [shipped.resolve(n) for n in ("Koepenick", "Kopenick", "Munchen", "Muenchen",
                                         "Lubeck", "Luebeck", "Muenster")] == [
        "Köpenick", "Köpenick", "Munich", "Munich", "Lübeck", "Lübeck", "Münster"]
    with pytest.raises(UnknownTown, match="did you mean Magdeburg[?]$"):
        shipped.resolve("Magdeberg")


# --- searches from a place on a road --------------------------------------------------------

@pytest.fixture
def loop():
    # A long winding road A-B (30 miles) and a short way round it, B-C-A (5 + 5).
    towns = (town("A", 10.0), town("B", 10.1), town("C", 10.05), town("D", 10.2))
    roads = (Road("A", "B", 30, RoadClass.MINOR), Road("B", "C", 5, RoadClass.MAIN),
             Road("C", "A", 5, RoadClass.MAIN), Road("B", "D", 4, RoadClass.MAIN))
    return RoadMap(MapData(towns, roads, ()))


def test_from_a_road_the_far_end_may_be_nearer_the_other_way_round(loop):
    start = (("A", 29.0), ("B", 1.0))  # a mile short of B on the winding road
    assert loop.reach(start) == {"B": 1.0, "D": 5.0, "C": 6.0, "A": 11.0}
    assert loop.reach(start, cutoff=5.0) == {"B": 1.0, "D": 5.0}
    assert loop.miles_to(start, "A") == 11.0 and loop.miles_to(start, "B") == 1.0
    assert loop.routes(start)["A"] == (("B", "C", "A"), 11.0)


def test_from_a_town_a_march_leaves_it(loop):
    found = loop.routes((("B", 0.0),))
    assert "B" not in found and found["A"] == (("C", "A"), 10.0)
    assert loop.reach((("B", 0.0),)) == {"B": 0.0, "D": 4.0, "C": 5.0, "A": 10.0}


def test_a_march_goes_on_only_from_towns_short_of_its_miles(loop):
    found = loop.routes((("B", 0.0),), within=4.5)  # D (4) is short of them, C (5) past
    assert found == {"D": (("D",), 4.0), "C": (("C",), 5.0), "A": (("A",), 30.0)}


def test_equal_routes_go_the_first_way_in_alphabetical_order():
    towns = tuple(town(n, 10.0 + i / 10) for i, n in enumerate("SNMT"))
    roads = (Road("S", "N", 6, RoadClass.MAIN), Road("N", "T", 4, RoadClass.MAIN),
             Road("S", "M", 4, RoadClass.MAIN), Road("M", "T", 6, RoadClass.MAIN))
    found = RoadMap(MapData(towns, roads, ())).routes((("S", 0.0),))
    assert found["T"] == (("M", "T"), 10.0)


def test_a_search_may_avoid_towns_and_roads(loop):
    assert "C" not in loop.routes((("B", 0.0),), avoiding=["C"])
    assert loop.routes((("B", 0.0),), avoiding=["C"])["A"] == (("A",), 30.0)
    never_back_to_a = lambda u, v, road: None if v == "A" else road["miles"]  # noqa: E731
    assert set(loop.routes((("B", 0.0),), miles=never_back_to_a)) == {"C", "D"}
