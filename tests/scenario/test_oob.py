"""The printed order of battle: text laid out like the rules' own table, and JSON."""

import json

import pytest

from campaign1813.campaign.export.oob import army_oob_text, oob_json, oob_text
from campaign1813.campaign.scenario.forces import load_armies
from campaign1813.data import scenario_dir

TOWNS = {t: t for t in (
    "Hamburg", "Magdeburg", "Hanover", "Brunswick", "Berlin", "Potsdam", "Spandau", "Köpenick",
    "Erfurt", "Fulda", "Gera", "Halle", "Dresden", "Munich", "Passau", "Salzburg", "Ratisbon",
    "Linz", "Steyr", "Amstetten", "Vienna", "Barcelona", "Tarragona", "Gerona", "Figueras",
    "Lerida", "Tortosa", "Mora", "Olot", "Burgos", "Valladolid", "Madrid", "Santander",
    "Salamanca", "Avila", "Medina del Campo", "Miranda do Douro")}


@pytest.fixture(scope="module")
def armies():
    text = (scenario_dir("1813") / "armies.toml").read_text(encoding="utf-8")
    return load_armies({"armies.toml": text}, TOWNS)


def army(armies, name):
    return next(a for a in armies if a.name == name)


def test_davout_order_of_battle_text(armies):
    """Seed 000's table, printed: CinC with bonus, each corps, brigade lines, the reserve."""
    lines = army_oob_text(army(armies, "Second French Army")).splitlines()
    assert lines[:6] == [
        "Second French Army",
        "==================",
        "CinC               Marshal Davout, Average +2",
        "Side               French",
        "Theatre            Northern Germany",
        "HQ                 Hamburg",
    ]
    assert lines[6:16] == [
        "",
        "4 Corps (French)",
        "  Commander            General Vandamme, Gifted +3",
        "  Starts at            Hamburg",
        "  13 Infantry Brigade  Class A  Firepower B  Skirmish A",
        "  14 Infantry Brigade  Class B  Firepower B  Skirmish A",
        "  15 Infantry Brigade  Class B  Firepower C  Skirmish B",
        "  16 Infantry Brigade  Class C  Firepower C  Skirmish B",
        "  11 Cavalry Brigade   Class A  Light",
        "  Corps Artillery      Class B  12-pounder",
    ]
    polish = lines[lines.index("13 Polish Corps (Polish)"):]
    assert polish == [
        "13 Polish Corps (Polish)",
        "  Commander            General Dąbrowski, Poor +1",
        "  Starts at            Brunswick",
        "  1 Infantry Brigade   Class A  Firepower A  Skirmish A",
        "  2 Infantry Brigade   Class B  Firepower B  Skirmish B",
        "  3 Infantry Brigade   Class B  Firepower B  Skirmish B",
        "  4 Infantry Brigade   Class C  Firepower C  Skirmish C",
        "  13 Cavalry Brigade   Class B  Light",
        "  Corps Artillery      Class C  9-pounder",
        "",
        "Reserve Commander  General Sébastiani, Average +2",
    ]
    assert "  3 Cavalry Brigade    Class B  Medium" in lines
    assert "  5 Cavalry Brigade    Class C  Heavy" in lines
    assert len(lines) == 6 + 4 * 10 + 2


def test_names_lancers_and_horse_artillery_are_printed_in_aligned_columns(armies):
    lines = army_oob_text(army(armies, "Russian Army")).splitlines()
    assert "  3 Cavalry Brigade    Class C  Light, lancers              Cossacks" in lines
    assert "  Corps Artillery      Class B  6-pounder, horse artillery" in lines
    assert "  3 Infantry Brigade   Class A  Firepower B  Skirmish A     Guard Jäger" in lines
    names = ("Cossacks", "Guard Jäger", "Dragoons", "Grenadiers")
    columns = {line.rindex(name) for line in lines for name in names if line.endswith(name)}
    assert columns == {60}


def test_all_armies_one_after_another(armies):
    text = oob_text(armies)
    assert text.count("\nReserve Commander  ") == 10
    assert text.count(" Infantry Brigade ") == 160
    assert text.startswith("Second French Army\n")
    assert text.endswith("Reserve Commander  Sir Stapleton Cotton, Average +2\n")


def test_oob_json_carries_every_grade(armies):
    data = oob_json([army(armies, "Second French Army")])
    json.dumps(data)  # plain values only
    (davout,) = data["armies"]
    assert davout["cinc"] == {"name": "Marshal Davout", "grade": "Average", "bonus": 2}
    four = davout["corps"][0]
    assert four["commander"] == {"name": "General Vandamme", "grade": "Gifted", "bonus": 3}
    assert four["infantry"][2] == {"number": 15, "class": "B", "firepower": "C",
                                   "skirmish": "B", "name": ""}
    assert four["cavalry"] == {"number": 11, "class": "A", "type": "light", "lancers": False,
                               "name": ""}
    assert four["artillery"] == {"class": "B", "calibre": 12, "calibre_band": "12",
                                 "horse": False}
    assert [c["start"] for c in davout["corps"]] == ["Hamburg", "Magdeburg", "Hanover",
                                                     "Brunswick"]


# --- campaign1813 oob -------------------------------------------------------------------------

def test_cli_prints_one_army_group_named_in_any_case(capsys):
    from campaign1813.campaign.cli import main
    from campaign1813.campaign.scenario.loader import load_scenario

    davout = army(load_scenario().armies, "Second French Army")
    assert main(["oob", "--army", "Second French Army"]) == 0
    out = capsys.readouterr().out
    assert out == army_oob_text(davout)
    assert out.splitlines()[10] == "  13 Infantry Brigade  Class A  Firepower B  Skirmish A"
    assert main(["oob", "--army", "second FRENCH army"]) == 0
    assert capsys.readouterr().out == out


def test_cli_prints_every_army_group_and_json(capsys):
    from campaign1813.campaign.cli import main

    assert main(["oob"]) == 0
    assert capsys.readouterr().out.count("\nReserve Commander  ") == 10
    assert main(["oob", "--army", "Prussian Army", "--json"]) == 0
    (prussians,) = json.loads(capsys.readouterr().out)["armies"]
    assert [(c["name"], c["commander"]["grade"], c["start"]) for c in prussians["corps"]] == [
        ("I Prussian Corps", "Gifted", "Berlin"), ("II Prussian Corps", "Average", "Potsdam"),
        ("III Prussian Corps", "Average", "Spandau"), ("IV Prussian Corps", "Poor", "Köpenick")]


def test_cli_unknown_army_is_a_one_line_error(capsys):
    from campaign1813.campaign.cli import main

    assert main(["oob", "--army", "Army of Bohemia"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "campaign1813: error: no army group called 'Army of Bohemia' (known: Second French "
        "Army, Prussian Army, First French Army, Russian Army, Third French Army, Austrian "
        "Army, Fourth French Army, Spanish Army, Fifth French Army, Anglo-Portuguese Army)\n")


def test_cli_reads_another_scenario_folder_and_reports_its_faults(tmp_path, capsys):
    from campaign1813.campaign.cli import main
    from campaign1813.campaign.scenario.loader import read_scenario_folder

    for name, text in read_scenario_folder().items():
        if name == "armies.toml":
            text = text.replace('{ number = 15, class = "B", firepower = "C"',
                                '{ number = 15, class = "B", firepower = "D"', 1)
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["oob", "--scenario", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        "campaign1813: error: armies.toml: 4 Corps (Second French Army), brigade 15: "
        "firepower 'D' is not A, B or C\n")
