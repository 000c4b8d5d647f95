"""The map loader refuses bad maps with the file, the entry and the reason."""

import pytest

from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.map_loader import load_map, town_names

TOWNS = """
[[town]]
name = "Magdeburg"
lat = 52.1317
lon = 11.6392
theatre = "Northern Germany"
kind = "fortress"
built_up = true
river = "Elbe"

[[town]]
name = "Helmstedt"
lat = 52.2279
lon = 11.0097
theatre = "Northern Germany"
kind = "town"
built_up = true

[[town]]
name = "Burg"
lat = 52.2725
lon = 11.8550
theatre = "Northern Germany"
kind = "town"
built_up = true
"""

ROADS = """
[[road]]
from = "Magdeburg"
to = "Helmstedt"
miles = 33.0
class = "main"

[[road]]
from = "Magdeburg"
to = "Burg"
miles = 17.5
class = "main"
river = "Elbe"
crossing = "bridge"
"""

RIVERS = """
[[river]]
name = "Elbe"
points = [[51.9, 11.9], [52.13, 11.66], [52.4, 11.9]]
"""


def files(towns=TOWNS, roads=ROADS, rivers=RIVERS):
    return {"map/towns.toml": towns, "map/roads.toml": roads, "map/rivers.toml": rivers}


def problem(**kw) -> str:
    with pytest.raises(ScenarioError) as err:
        load_map(files(**kw))
    return str(err.value)


def test_a_good_map_loads():
    m = load_map(files())
    assert [t.name for t in m.towns] == ["Magdeburg", "Helmstedt", "Burg"]
    assert m.towns[0].fortress is True and m.towns[1].fortress is False
    assert m.roads[1].crossing.value == "bridge"
    assert town_names(m)["Burg"] == "Burg"


def test_unknown_town_on_a_road():
    roads = ROADS.replace('to = "Burg"', 'to = "Burgg"')
    assert problem(roads=roads) == (
        "map/roads.toml: road 2 (Magdeburg – Burgg): leads to 'Burgg', "
        "which is not a town on the map")


def test_duplicate_town_name():
    towns = TOWNS.replace('name = "Burg"', 'name = "Helmstedt"')
    assert problem(towns=towns).splitlines()[0] == (
        "map/towns.toml: Helmstedt: the name 'Helmstedt' is already used by Helmstedt")


def test_road_across_a_river_with_no_crossing():
    roads = ROADS.replace('crossing = "bridge"\n', "")
    assert problem(roads=roads) == (
        "map/roads.toml: road 2 (Magdeburg – Burg): crosses the Elbe but has no crossing "
        "(bridge, ford or ferry)")


def test_disconnected_map():
    roads = ROADS.split("[[road]]")[0] + "[[road]]" + ROADS.split("[[road]]")[1]
    assert problem(roads=roads) == (
        "map/roads.toml: the map is not connected: no road joins Burg to the rest of the map")


def test_bad_kind_and_unknown_key():
    towns = TOWNS.replace('kind = "town"\nbuilt_up = true\n\n[[town]]\nname = "Burg"',
                          'kind = "hamlet"\nbuilt_up = true\npopulation = 3\n\n[[town]]\n'
                          'name = "Burg"')
    assert problem(towns=towns).splitlines() == [
        "map/towns.toml: Helmstedt: unknown key 'population'",
        "map/towns.toml: Helmstedt: kind 'hamlet' is not city, town, village or fortress",
        "map/roads.toml: road 1 (Magdeburg – Helmstedt): leads to 'Helmstedt', "
        "which is not a town on the map",
    ]


def test_missing_file_and_bad_toml():
    with pytest.raises(ScenarioError, match="^map/roads.toml: the file is missing$"):
        load_map({"map/towns.toml": TOWNS})
    with pytest.raises(ScenarioError, match="^map/towns.toml: not valid TOML"):
        load_map(files(towns="[[town]\n"))
