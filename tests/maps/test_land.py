"""The land outline the map is drawn on: every town of the map stands on land."""

import pytest

from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.maps.land import on_land, rings_box
from campaign1813.maps.prebuilt import land_outline

SQUARE = ((0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0))
LAKE = ((4.0, 4.0), (4.0, 6.0), (6.0, 6.0), (6.0, 4.0))


def test_a_point_is_land_inside_an_odd_number_of_rings():
    """A lake's ring inside the land's takes its water out of the land, as the map fills it."""
    assert on_land(2.0, 2.0, (SQUARE,))
    assert not on_land(11.0, 2.0, (SQUARE,))
    assert not on_land(5.0, 5.0, (SQUARE, LAKE))
    assert on_land(5.0, 3.0, (SQUARE, LAKE))
    assert rings_box((SQUARE, LAKE)) == (0.0, 0.0, 10.0, 10.0)
    with pytest.raises(ValueError, match="no rings"):
        rings_box(())


def test_every_town_of_the_map_stands_on_land():
    """No town floats on the sea: Cadiz at the tip of its spit and Toulon at its harbour were
    the two the simplified coast left out; Brussels, Lille, Luxembourg, Würzburg and Bamberg
    stand well inland."""
    rings = land_outline()
    towns = load_scenario().map.towns
    at_sea = [t.name for t in towns if not on_land(t.lat, t.lon, rings)]
    assert at_sea == []
    names = {t.name for t in towns}
    assert {"Cadiz", "Toulon", "Brussels", "Lille", "Luxembourg", "Würzburg",
            "Bamberg"} <= names


def test_the_outline_reaches_past_every_town():
    """The outline's box holds every town, so a map of any theatre can draw their ground."""
    south, west, north, east = rings_box(land_outline())
    for t in load_scenario().map.towns:
        assert south < t.lat < north and west < t.lon < east, t.name
