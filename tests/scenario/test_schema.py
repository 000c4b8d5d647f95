"""The scenario file formats: their JSON Schemas as committed, and the ranges every number keeps."""

import json
from pathlib import Path

import pytest

from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.forces import load_settings
from campaign1813.campaign.scenario.map_loader import load_map
from campaign1813.campaign.scenario.schema import json_schemas, main

from .test_map_loader import ROADS, TOWNS, files

SCHEMAS = Path(__file__).parents[2] / "docs" / "schemas"


def test_the_committed_schemas_are_what_the_models_make():
    """Regenerate with ``python -m campaign1813.campaign.scenario.schema docs/schemas``."""
    made = json_schemas()
    assert sorted(p.name for p in SCHEMAS.glob("scenario-*.json")) == sorted(made)
    for name, text in made.items():
        assert (SCHEMAS / name).read_text(encoding="utf-8") == text, name


def test_the_writer_writes_one_schema_per_file_format(tmp_path, capsys):
    assert main([str(tmp_path / "schemas")]) == 0
    written = sorted(p.name for p in (tmp_path / "schemas").iterdir())
    assert written == [f"scenario-{name}.schema.json" for name in (
        "armies", "objectives", "rivers", "roads", "settings", "towns")]
    assert len(capsys.readouterr().out.splitlines()) == 6
    assert main([]) == 2


def _nodes(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


@pytest.mark.parametrize("name", sorted(json_schemas()))
def test_every_table_is_closed_and_every_number_bounded(name):
    schema = json.loads(json_schemas()[name])
    nodes = list(_nodes(schema))
    tables = [n for n in nodes if n.get("type") == "object"]
    numbers = [n for n in nodes if n.get("type") in ("number", "integer") and "enum" not in n]
    assert tables and all(t.get("additionalProperties") is False for t in tables)
    for number in numbers:
        assert {"minimum", "exclusiveMinimum"} & set(number), number
        assert {"maximum", "exclusiveMaximum"} & set(number), number


# --- the ranges, with their messages ----------------------------------------------------------

def map_problem(**kw) -> str:
    with pytest.raises(ScenarioError) as err:
        load_map(files(**kw))
    return str(err.value)


def settings_problem(text: str) -> str:
    with pytest.raises(ScenarioError) as err:
        load_settings({"settings.toml": text})
    return str(err.value)


def test_road_miles_that_are_not_a_number_are_refused():
    assert map_problem(roads=ROADS.replace("miles = 33.0", "miles = nan")) == (
        "map/roads.toml: road 1 (Magdeburg – Helmstedt): miles nan is not a finite number")


def test_road_miles_out_of_range_are_refused():
    roads = ROADS.replace("miles = 33.0", "miles = 0").replace("miles = 17.5", "miles = 1000")
    assert map_problem(roads=roads).splitlines() == [
        "map/roads.toml: road 1 (Magdeburg – Helmstedt): miles 0 is not more than 0",
        "map/roads.toml: road 2 (Magdeburg – Burg): miles 1000 is not less than 1000",
    ]


def test_an_infinite_march_rate_is_refused():
    assert settings_problem("[march.foot]\nroad = inf\n") == (
        "settings.toml: march.foot: road inf is not a finite number of miles")


def test_a_march_rate_of_1e300_is_refused():
    assert settings_problem("[march.mounted]\noff_road = 1e300\n") == (
        "settings.toml: march.mounted: off_road 1e+300 is not a number of miles (100 or less)")


def test_a_hundred_million_steps_a_day_are_refused():
    assert settings_problem("[options]\nsteps_per_day = 100000000\n") == (
        "settings.toml: options: steps_per_day 100000000 is not a whole number up to 240")


def test_distances_beyond_a_hundred_miles_are_refused():
    assert settings_problem("[distances]\ncontact_miles = 101\nreinforce_miles = -inf\n") == (
        "settings.toml: distances: contact_miles 101 is not a number of miles (100 or less)\n"
        "settings.toml: distances: reinforce_miles -inf is not a finite number of miles")


def test_aliases_given_as_a_string_are_refused():
    towns = TOWNS.replace('name = "Burg"', 'name = "Burg"\naliases = "Burg bei Magdeburg"')
    assert map_problem(towns=towns).splitlines() == [
        "map/towns.toml: Burg: aliases must be a list of names",
        "map/roads.toml: road 2 (Magdeburg – Burg): leads to 'Burg', "
        "which is not a town on the map",
    ]


def test_latitudes_and_longitudes_stay_on_the_globe():
    towns = TOWNS.replace("lat = 52.2725", "lat = 95").replace("lon = 11.0097", "lon = -181")
    assert map_problem(towns=towns).splitlines()[:2] == [
        "map/towns.toml: Helmstedt: longitude -181 is not -180 or more",
        "map/towns.toml: Burg: latitude 95 is not 90 or less",
    ]


def test_river_points_stay_on_the_globe():
    rivers = '[[river]]\nname = "Elbe"\npoints = [[51.9, 11.9], [52.13, 191.66]]\n'
    assert map_problem(rivers=rivers) == (
        "map/rivers.toml: Elbe, point 2: longitude 191.66 is not 180 or less")


def test_a_road_crossing_without_a_river_is_refused():
    roads = ROADS.replace('miles = 33.0\nclass = "main"', 'miles = 33.0\nclass = "main"\n'
                          'crossing = "ford"')
    assert map_problem(roads=roads) == (
        "map/roads.toml: road 1 (Magdeburg – Helmstedt): has a ford but names no river")


def test_brigade_numbers_and_calibres_of_the_wrong_type_are_refused():
    from .test_forces import army_toml, corps_toml, refused

    assert refused(army_toml(corps_toml(numbers=(13, 14, 1000, 16), calibre="12.5"))) == (
        "armies.toml: 4 Corps (Second French Army), brigade 1000: "
        "number 1000 is not a whole number up to 999\n"
        "armies.toml: 4 Corps (Second French Army), artillery: "
        "calibre 12.5 is not 3, 4, 6, 8, 9 or 12 pounds")


def test_a_start_date_that_is_a_moment_is_refused():
    assert settings_problem("[campaign]\nstart_date = 1813-05-01T06:00:00\n") == (
        "settings.toml: campaign: start_date 1813-05-01T06:00:00 is not a date like 1813-05-01")
    assert str(load_settings({"settings.toml": "[campaign]\nstart_date = '1813-08-17'\n"})
               .start_date) == "1813-08-17"
