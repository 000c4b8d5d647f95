"""Great-circle miles, the drawing projection and the river-crossing check."""

import doctest
import math

import pytest

from campaign1813.maps import geometry
from campaign1813.maps.geometry import (
    EARTH_RADIUS_MILES,
    Bounds,
    Projection,
    great_circle_miles,
    map_projection,
    river_meetings,
    segment_intersection,
    uncrossed_rivers,
)
from campaign1813.maps.tools.map_toml import read_map
from campaign1813.maps.types import (
    Crossing,
    MapData,
    River,
    Road,
    RoadClass,
    Theatre,
    Town,
    TownKind,
)


def test_one_degree_of_latitude_is_69_09_miles():
    """Along a meridian one degree is R * pi / 180 = 3958.8 * 0.0174533 = 69.094 miles."""
    assert great_circle_miles(52.0, 10.0, 53.0, 10.0) == pytest.approx(69.094, abs=0.001)


def test_a_quarter_of_the_equator():
    """90 degrees along the equator is R * pi / 2 = 3958.8 * 1.5708 = 6218.47 miles."""
    assert great_circle_miles(0.0, 0.0, 0.0, 90.0) == pytest.approx(6218.47, abs=0.01)


def test_magdeburg_to_helmstedt_worked_by_hand():
    """Magdeburg (52.1205, 11.6276) to Helmstedt (52.2279, 11.0099), worked by hand:
    dlat = 0.1074 deg = 0.0018745 rad, dlon = 0.6177 deg = 0.0107809 rad,
    a = sin^2(0.00093725) + cos 52.1205 * cos 52.2279 * sin^2(0.00539045)
      = 8.784e-7 + 0.613829 * 0.612347 * 2.90570e-5 = 1.18005e-5,
    c = 2 asin(sqrt a) = 0.0068720, d = 3958.8 * c = 27.205 miles.
    """
    d = great_circle_miles(52.1205, 11.6276, 52.2279, 11.0099)
    assert d == pytest.approx(27.205, abs=0.002)
    assert great_circle_miles(52.2279, 11.0099, 52.1205, 11.6276) == pytest.approx(d)
    assert great_circle_miles(52.0, 11.0, 52.0, 11.0) == 0.0


def test_the_earth_radius_is_the_agreed_one():
    assert EARTH_RADIUS_MILES == 3958.8


def test_docstring_examples_run():
    assert doctest.testmod(geometry).failed == 0


def test_projection_puts_north_up_in_a_unit_box():
    p = Projection(Bounds(50.0, 10.0, 52.0, 14.0))
    nw = p.project(52.0, 10.0)
    se = p.project(50.0, 14.0)
    assert nw == pytest.approx((0.0, 0.0))
    assert se == pytest.approx((p.width, p.height))
    # Further north is higher on the page, i.e. a smaller y.
    assert p.project(51.5, 12.0)[1] < p.project(50.5, 12.0)[1]
    assert p.project(51.0, 13.0)[0] > p.project(51.0, 11.0)[0]


def test_projection_keeps_the_shape_of_the_box():
    """4 degrees of longitude at cos(51 deg) = 0.62932 is 2.5173 degrees' worth against 2 of
    latitude, so the box is wider than tall: width 1, height 2 / 2.5173 = 0.7945."""
    p = Projection(Bounds(50.0, 10.0, 52.0, 14.0))
    assert p.width == pytest.approx(1.0)
    assert p.height == pytest.approx(2.0 / (4.0 * math.cos(math.radians(51.0))), rel=1e-6)
    assert p.miles_per_unit == pytest.approx(4.0 * math.cos(math.radians(51.0)) * 69.0941,
                                             rel=1e-4)


def test_projection_round_trips_and_measures_miles():
    p = Projection(Bounds(50.0, 10.0, 52.0, 14.0))
    lat, lon = p.unproject(*p.project(51.234, 12.345))
    assert (lat, lon) == pytest.approx((51.234, 12.345))
    # Along a meridian the projection is true to scale.
    y1 = p.project(50.5, 12.0)[1]
    y2 = p.project(51.5, 12.0)[1]
    assert (y1 - y2) * p.miles_per_unit == pytest.approx(69.094, abs=0.01)


def test_bounds_refuse_an_empty_box_and_no_points():
    with pytest.raises(ValueError, match="empty"):
        Bounds(52.0, 10.0, 51.0, 11.0)
    with pytest.raises(ValueError, match="no points"):
        Bounds.around([])


def test_bounds_around_add_the_margin_in_miles():
    b = Bounds.around([(52.0, 10.0), (53.0, 11.0)], margin_miles=69.0941)
    assert b.south == pytest.approx(51.0, abs=1e-3)
    assert b.north == pytest.approx(54.0, abs=1e-3)
    assert b.contains(52.5, 10.5) and not b.contains(54.5, 10.5)


def test_theatre_projection_holds_its_towns():
    shipped = read_map()
    for theatre in Theatre:
        p = map_projection(shipped, theatre)
        for town in (t for t in shipped.towns if t.theatre == theatre):
            x, y = p.project(town.lat, town.lon)
            assert 0 < x < p.width and 0 < y < p.height, town.name
    with pytest.raises(ValueError, match="no towns"):
        map_projection(MapData((), (), ()), Theatre.FRANCE)


def test_segments_meet_or_miss():
    assert segment_intersection((0, 0), (2, 0), (1, -1), (1, 1)) == pytest.approx(0.5)
    assert segment_intersection((0, 0), (2, 0), (3, -1), (3, 1)) is None
    assert segment_intersection((0, 0), (2, 0), (0, 1), (2, 1)) is None


def _town(name, lon, river=None):
    return Town(name, 52.0, lon, Theatre.NORTHERN_GERMANY, TownKind.TOWN, True, river=river)


# A river running north-south at 10.1 E, halfway between A (10.0 E) and B (10.2 E): the road
# A-B meets it about 4.3 miles from each end.
_ELBE = River("Elbe", ((51.5, 10.1), (52.5, 10.1)))


def test_a_road_over_a_river_without_a_crossing_is_caught():
    bad = MapData((_town("A", 10.0), _town("B", 10.2)), (Road("A", "B", 10, RoadClass.MAIN),),
                  (_ELBE,))
    messages = uncrossed_rivers(bad)
    assert len(messages) == 1
    assert "A - B" in messages[0] and "Elbe" in messages[0] and "4 miles from A" in messages[0]


def test_a_declared_crossing_satisfies_the_check():
    good = MapData((_town("A", 10.0), _town("B", 10.2)),
                   (Road("A", "B", 10, RoadClass.MAIN, "Elbe", Crossing.BRIDGE),), (_ELBE,))
    assert uncrossed_rivers(good) == []


def test_a_crossing_of_another_river_does_not_count():
    wrong = MapData((_town("A", 10.0), _town("B", 10.2)),
                    (Road("A", "B", 10, RoadClass.MAIN, "Oder", Crossing.FERRY),), (_ELBE,))
    assert len(uncrossed_rivers(wrong)) == 1


def test_meetings_near_a_town_on_that_river_are_ignored():
    # The river passes 0.02 deg (0.85 mile) east of A, which stands on it.
    river = River("Elbe", ((51.5, 10.02), (52.5, 10.02)))
    on_river = MapData((_town("A", 10.0, river="Elbe"), _town("B", 10.2)),
                       (Road("A", "B", 10, RoadClass.MINOR),), (river,))
    assert uncrossed_rivers(on_river) == []
    # The same meeting is caught when A stands on another river, or the tolerance is nil.
    elsewhere = MapData((_town("A", 10.0, river="Saale"), _town("B", 10.2)),
                        (Road("A", "B", 10, RoadClass.MINOR),), (river,))
    assert len(uncrossed_rivers(elsewhere)) == 1
    assert len(uncrossed_rivers(on_river, end_tolerance_miles=0.0)) == 1


def test_a_meeting_beyond_three_miles_of_the_river_town_is_caught():
    on_river = MapData((_town("A", 10.0, river="Elbe"), _town("B", 10.2)),
                       (Road("A", "B", 10, RoadClass.MINOR),), (_ELBE,))
    assert len(uncrossed_rivers(on_river)) == 1


def test_river_meetings_report_miles_from_each_end():
    m = river_meetings(MapData((_town("A", 10.0), _town("B", 10.2)),
                               (Road("A", "B", 10, RoadClass.MAIN),), (_ELBE,)))
    assert len(m) == 1
    half = great_circle_miles(52.0, 10.0, 52.0, 10.2) / 2
    assert m[0].miles_from_start == pytest.approx(half, rel=1e-3)
    assert m[0].miles_from_end == pytest.approx(half, rel=1e-3)


def test_the_shipped_map_crosses_rivers_only_at_declared_crossings():
    assert uncrossed_rivers(read_map()) == []
