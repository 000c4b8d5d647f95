"""`campaign1813 scenario check`: counts per theatre, or every problem and status 1."""

import shutil

from campaign1813.campaign.cli import main
from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder
from campaign1813.data import scenario_dir


def copy_of_shipped(tmp_path):
    folder = tmp_path / "1813"
    shutil.copytree(str(scenario_dir()), folder)
    return folder


def test_the_shipped_scenario_is_valid_and_counted(capsys):
    assert main(["scenario", "check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "the shipped 1813 scenario: The 1813 Campaign — valid"
    assert out[1].split() == ["theatre", "towns", "roads", "armies", "corps"]
    rows = {line[:30].strip(): line[30:].split() for line in out[2:9]}
    for theatre in ("Northern Germany", "Central Germany", "Southern Germany and Austria",
                    "Eastern Spain", "Western Spain"):
        assert rows[theatre][2:] == ["2", "8"], theatre
    assert rows["France"][2:] == ["0", "0"]
    assert int(rows["all"][0]) >= 150 and rows["all"][2:] == ["10", "40"]
    assert out[9].startswith("160 infantry brigades, 40 cavalry brigades, 40 batteries; ")


def test_problems_in_map_and_armies_are_all_reported(tmp_path, capsys):
    folder = copy_of_shipped(tmp_path)
    roads = folder / "map" / "roads.toml"
    text = roads.read_text()
    first = text.index('crossing = "bridge"')
    roads.write_text(text[:first] + text[first + len('crossing = "bridge"'):])
    armies = folder / "armies.toml"
    armies.write_text(armies.read_text().replace('firepower = "B"', 'firepower = "D"', 1))
    assert main(["scenario", "check", str(folder)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{folder}: 2 problems"
    assert err[1].startswith("  map/roads.toml: road ")
    assert err[1].endswith("but has no crossing (bridge, ford or ferry)")
    assert err[2] == ("  armies.toml: 4 Corps (Second French Army), brigade 13: "
                      "firepower 'D' is not A, B or C")


def test_a_road_shorter_than_the_crow_flies_is_refused(tmp_path):
    files = read_scenario_folder()
    text = files["map/roads.toml"]
    # Magdeburg and Helmstedt are 27.5 miles apart as the crow flies.
    start = text.index('from = "Helmstedt"\nto = "Magdeburg"') if (
        'from = "Helmstedt"\nto = "Magdeburg"' in text) else text.index(
        'from = "Magdeburg"\nto = "Helmstedt"')
    miles_at = text.index("miles = ", start)
    line_end = text.index("\n", miles_at)
    files["map/roads.toml"] = text[:miles_at] + "miles = 20.0" + text[line_end:]
    try:
        load_scenario(files)
    except ScenarioError as exc:
        message = str(exc)
    else:
        raise AssertionError("a 20-mile road between Magdeburg and Helmstedt was accepted")
    assert "20 miles is shorter than the 27." in message
    assert "miles between the towns as the crow flies" in message
