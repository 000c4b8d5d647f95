"""Scenario folders that cannot be read, and scenarios that cannot be a campaign: each refused
in one line per problem that names the file and the reason, never an internal error."""

import os
import shutil
from datetime import date

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder
from campaign1813.campaign.scenario.types import EARLIEST_START, LATEST_START
from campaign1813.campaign.store.document import create_campaign
from campaign1813.data import scenario_dir
from campaign1813.maps.geometry import town_miles

SHIPPED = read_scenario_folder()


def copy_of_shipped(tmp_path):
    folder = tmp_path / "1813"
    shutil.copytree(str(scenario_dir()), folder)
    return folder


def refusal(files) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(files)
    return str(caught.value).splitlines()


def with_road_miles(miles: float) -> dict[str, str]:
    """The shipped files with the road Helmstedt – Magdeburg (27.2 miles as the crow flies)
    given another length."""
    files = dict(SHIPPED)
    text = files["map/roads.toml"]
    pair = ('from = "Helmstedt"\nto = "Magdeburg"', 'from = "Magdeburg"\nto = "Helmstedt"')
    start = next(text.index(p) for p in pair if p in text)
    at = text.index("miles = ", start)
    end = text.index("\n", at)
    files["map/roads.toml"] = text[:at] + f"miles = {miles}" + text[end:]
    return files


# --- files that are not text, and folders that loop ---------------------------------------------

def test_a_file_that_is_not_utf8_is_refused_by_name_and_place(tmp_path):
    folder = copy_of_shipped(tmp_path)
    armies = folder / "armies.toml"
    armies.write_bytes(armies.read_bytes().replace("Sébastiani".encode(), b"S\xe9bastiani", 1))
    with pytest.raises(ScenarioError) as caught:
        read_scenario_folder(folder)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("armies.toml: is not UTF-8 text (byte 0xe9 on line ")


def test_a_binary_file_is_refused_as_binary(tmp_path):
    folder = copy_of_shipped(tmp_path)
    (folder / "objectives.toml").write_bytes(b"\x00\x01PK\x03\x04 not toml at all")
    with pytest.raises(ScenarioError) as caught:
        read_scenario_folder(folder)
    assert str(caught.value) == "objectives.toml: is a binary file, not TOML text"


def test_a_symlink_loop_named_as_a_file_is_refused(tmp_path):
    folder = copy_of_shipped(tmp_path)
    loop = folder / "map" / "extra.toml"
    os.symlink(loop, loop)  # a link to itself
    with pytest.raises(ScenarioError) as caught:
        read_scenario_folder(folder)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("map/extra.toml: cannot be read (")


def test_a_folder_that_links_back_to_its_parent_is_refused(tmp_path):
    folder = copy_of_shipped(tmp_path)
    os.symlink(folder, folder / "map" / "again")
    with pytest.raises(ScenarioError) as caught:
        read_scenario_folder(folder)
    assert str(caught.value) == ("map/again: leads back to a folder already read (a loop of "
                                 "symbolic links)")


def test_a_pipe_named_as_a_file_is_refused_not_read(tmp_path):
    """Reading a named pipe waits for a writer that never comes."""
    folder = copy_of_shipped(tmp_path)
    os.mkfifo(folder / "map" / "extra.toml")
    with pytest.raises(ScenarioError) as caught:
        read_scenario_folder(folder)
    assert str(caught.value) == "map/extra.toml: is not a regular file"


def test_scenario_check_says_what_is_wrong_with_an_unreadable_file(tmp_path, capsys):
    folder = copy_of_shipped(tmp_path)
    (folder / "settings.toml").write_bytes(b"[campaign]\nname = \"\xff\xfe\"\n")
    assert main(["scenario", "check", str(folder)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{folder}: 1 problem",
                   "  settings.toml: is not UTF-8 text (byte 0xff on line 2)"]


# --- what cannot be a campaign ------------------------------------------------------------------

def test_a_corps_starting_in_madrid_for_an_army_in_northern_germany_is_refused():
    """Madrid is in Western Spain, 899 miles from the nearest town of Northern Germany."""
    files = dict(SHIPPED)
    text = files["armies.toml"]
    at = text.index('start = "Hamburg"')  # 4 Corps, Second French Army
    files["armies.toml"] = text[:at] + 'start = "Madrid"' + text[at + len('start = "Hamburg"'):]
    assert refusal(files) == [
        "armies.toml: 4 Corps (Second French Army): starting town 'Madrid' is in Western Spain, "
        "899 miles from the nearest town of the army's theatre, Northern Germany (at most 100)"]


def test_an_hq_far_outside_its_theatre_is_refused():
    files = dict(SHIPPED)
    text = files["armies.toml"]
    at = text.index('hq = "Hamburg"')
    files["armies.toml"] = text[:at] + 'hq = "Madrid"' + text[at + len('hq = "Hamburg"'):]
    assert refusal(files) == [
        "armies.toml: Second French Army: HQ town 'Madrid' is in Western Spain, 899 miles from "
        "the nearest town of the army's theatre, Northern Germany (at most 100)"]


def test_a_corps_just_over_its_theatres_border_may_start_there():
    """Leipzig is in Central Germany, within 100 miles of Magdeburg in Northern Germany."""
    files = dict(SHIPPED)
    text = files["armies.toml"]
    at = text.index('start = "Magdeburg"')  # 5 Corps, Second French Army
    files["armies.toml"] = (text[:at] + 'start = "Leipzig"'
                            + text[at + len('start = "Magdeburg"'):])
    scenario = load_scenario(files)
    corps = {c.name: c for a in scenario.armies for c in a.corps}
    assert corps["5 Corps"].start == "Leipzig"


def test_a_900_mile_road_between_neighbours_is_refused():
    assert refusal(with_road_miles(900)) == [
        "map/roads.toml: road Helmstedt – Magdeburg: 900 miles is more than 3 times the 27.2 "
        "miles between the towns as the crow flies, and 5 more (86.6)"]


def test_a_road_may_wind_to_three_times_the_crow_flies_and_five_miles():
    """3 × 27.2 + 5 = 86.6 miles: 86 is a road, 87 is not."""
    assert load_scenario(with_road_miles(86)) is not None
    assert len(refusal(with_road_miles(87))) == 1


def test_the_shipped_map_winds_well_within_the_bound():
    """The shipped map's most winding road is 1.52 times the crow's distance."""
    scenario = load_scenario()
    towns = {t.name: t for t in scenario.map.towns}
    worst = max(r.miles / town_miles(towns[r.a], towns[r.b]) for r in scenario.map.roads)
    assert 1.5 < worst < 1.55


@pytest.mark.parametrize("start", ["9999-12-31", "1791-12-31", "1816-01-01", "0001-01-01"])
def test_a_start_date_outside_the_wars_of_1792_to_1815_is_refused(start):
    files = dict(SHIPPED)
    files["settings.toml"] = files["settings.toml"].replace("start_date = 1813-05-01",
                                                            f"start_date = {start}")
    assert refusal(files) == [
        f"settings.toml: campaign: start_date {start} is not between 1792-01-01 and "
        "1815-12-31 (the wars of the Revolution and Napoleon)"]


@pytest.mark.parametrize("start", ["1792-01-01", "1815-12-31"])
def test_the_first_and_last_days_of_the_range_may_start_a_campaign(start):
    files = dict(SHIPPED)
    files["settings.toml"] = files["settings.toml"].replace("start_date = 1813-05-01",
                                                            f"start_date = {start}")
    assert load_scenario(files).settings.start_date == date.fromisoformat(start)


def test_a_new_campaign_cannot_start_outside_the_range(tmp_path):
    path = tmp_path / "late.c1813"
    with pytest.raises(CampaignError) as caught:
        create_campaign(path, start_date=date(9999, 12, 31))
    assert str(caught.value) == ("the start date 9999-12-31 is not between 1792-01-01 and "
                                 "1815-12-31 (the wars of the Revolution and Napoleon)")
    assert not path.exists()
    assert (EARLIEST_START, LATEST_START) == (date(1792, 1, 1), date(1815, 12, 31))


def test_the_shipped_scenario_still_loads_unchanged():
    scenario = load_scenario()
    assert scenario.settings.start_date == date(1813, 5, 1)
    assert len(scenario.armies) == 10 and len(scenario.map.roads) > 300
