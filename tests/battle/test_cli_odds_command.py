"""``campaign1813 odds spotting`` and ``odds pips``: Rules 1-3 on the command line.

The numbers are worked by hand from ``data/rulesets/1813/spotting.toml`` and ``command.toml``:
the spotting die is a d10 (faces 1-10), the average die has faces 2, 3, 3, 4, 4, 5.
"""

import json
from fractions import Fraction

import pytest

from campaign1813.campaign.cli import main


def run(capsys, *argv):
    code = main(["odds", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def spot(capsys, *argv):
    code, out, err = run(capsys, "spotting", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# --- Rule 1: spotting ------------------------------------------------------------------------


@pytest.mark.parametrize("cover, inches, spotted", [
    # Rule 1, target in line of sight: 0-16" automatic, 16-24" on 7-10 of the d10.
    ("open", "12", "1"),
    ("open", "16", "1"),      # a distance on a band's limit belongs to the easier band
    ("open", "20", "2/5"),    # 7, 8, 9, 10: 4 faces of 10
    ("open", "24", "2/5"),
    ("open", "24.5", "0"),    # beyond the last band nothing is spotted
    # Behind a blind or deployed troops: 0-12" automatic, 12-16" on 7-10, 16-24" on 9-10.
    ("screened", "12", "1"),
    ("screened", "14", "2/5"),
    ("screened", "20", "1/5"),  # 9, 10: 2 faces of 10
    # In woods, a built-up area or behind a hill: 0-4" automatic, 4-8" 7-10, 8-12" 9-10.
    ("cover", "4", "1"),
    ("cover", "17/2", "1/5"),   # 8 1/2 inches, typed as a fraction
    ("cover", "13", "0"),
])
def test_spotting_chance_by_cover_and_range(capsys, cover, inches, spotted):
    data = spot(capsys, "--cover", cover, "--inches", inches)
    assert data["result"]["spotted"] == spotted
    assert data["result"]["not_spotted"] == str(1 - Fraction(spotted))


def test_spotting_json_names_the_band(capsys):
    """Rule 1: 20" in the open falls in the 16-24" band, 7 or more on the d10: 2/5."""
    assert spot(capsys, "--cover", "open", "--inches", "20", "--spotter", "cavalry") == {
        "kind": "spotting", "rules": [1], "ruleset": "1813", "spotter": "cavalry",
        "cover": "open", "inches": "20", "dice": "1d10", "modifiers": [], "net": 0,
        "band": {"from": "16", "up_to": "24", "automatic": False, "need": 7},
        "result": {"spotted": "2/5", "not_spotted": "3/5"},
    }


def test_spotting_beyond_the_last_band_has_no_band(capsys):
    data = spot(capsys, "--cover", "cover", "--inches", "13")
    assert data["band"] is None and data["result"] == {"spotted": "0", "not_spotted": "1"}


def test_the_revision_keeps_rule_1(capsys):
    """1813-revised rewrites Rules 4-8 only: screened at 14" is still 7-10 on the d10, 2/5."""
    data = spot(capsys, "--cover", "screened", "--inches", "14", "--ruleset", "1813-revised")
    assert data["result"]["spotted"] == "2/5"


def test_spotting_text(capsys):
    code, out, _ = run(capsys, "spotting", "--cover", "Screened", "--inches", "20")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("Rule 1 spotting (1813): a blind looks at a target behind a blind or "
                        "deployed troops, 20 inches away")
    assert lines[1] == "Band over 16 inches up to 24: needs 9 or more on the d10; no modifiers"
    assert lines[2].split() == ["spotted", "9", "or", "more", "1/5", "20.0%"]
    assert lines[3].split() == ["not", "spotted", "8", "or", "less", "4/5", "80.0%"]


def test_spotting_text_automatic(capsys):
    code, out, _ = run(capsys, "spotting", "--cover", "open", "--inches", "16")
    assert "Band up to 16 inches: spotted without a roll; no modifiers" in out
    assert out.splitlines()[2].split() == ["spotted", "automatic", "1", "100.0%"]


def test_spotting_help_lists_the_bands(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "spotting", "--help"])
    out = capsys.readouterr().out
    assert "screened  behind a blind or deployed troops: to 12\" automatic, 12-16\" 7+, " \
           "16-24\" 9+" in out


# --- Rules 2 and 3: pips; Rule 1: blind pips -------------------------------------------------


def pips(capsys, *argv):
    code, out, err = run(capsys, "pips", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_pips_of_an_average_commander(capsys):
    """Rules 2-3: average die +2. Faces 2,3,3,4,4,5 → 4 (1/6), 5 (2/6), 6 (2/6), 7 (1/6)."""
    assert pips(capsys, "--grade", "Average") == {
        "kind": "pips", "rules": [2, 3], "ruleset": "1813", "grade": "Average",
        "blind": False, "dice": "average die", "faces": [2, 3, 3, 4, 4, 5],
        "modifiers": [{"key": "average", "label": "Average commander", "value": 2}], "net": 2,
        "pips": {"4": "1/6", "5": "1/3", "6": "1/3", "7": "1/6"},
        # at least 5: 1 - 1/6; at least 6: 2/6 + 1/6; at least 7: 1/6
        "at_least": {"4": "1", "5": "5/6", "6": "1/2", "7": "1/6"},
    }


@pytest.mark.parametrize("grade, blind, expected", [
    # Rules 2-3: Gifted +3 → 5..8; Poor +1 → 3..6.
    ("Gifted", False, {"5": "1/6", "6": "1/3", "7": "1/3", "8": "1/6"}),
    ("poor", False, {"3": "1/6", "4": "1/3", "5": "1/3", "6": "1/6"}),
    # Rule 1, moving on blinds: Gifted +1 → 3..6; Average +0 → 2..5; Poor −1 → 1..4.
    ("gifted", True, {"3": "1/6", "4": "1/3", "5": "1/3", "6": "1/6"}),
    ("Average", True, {"2": "1/6", "3": "1/3", "4": "1/3", "5": "1/6"}),
    ("Poor", True, {"1": "1/6", "2": "1/3", "3": "1/3", "4": "1/6"}),
])
def test_pips_by_grade(capsys, grade, blind, expected):
    data = pips(capsys, "--grade", grade, *(["--blind"] if blind else []))
    assert data["pips"] == expected
    assert data["rules"] == ([1] if blind else [2, 3])


def test_blind_pips_of_an_average_commander_have_no_modifier(capsys):
    data = pips(capsys, "--grade", "Average", "--blind")
    assert data["modifiers"] == [] and data["net"] == 0


def test_pips_text(capsys):
    code, out, _ = run(capsys, "pips", "--grade", "Poor", "--blind")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Blind movement pips (Rule 1) for a Poor commander (1813)"
    assert lines[1] == "Roll the average die (2, 3, 3, 4, 4, 5) −1 Poor commander (net −1)"
    assert lines[2].split() == ["1", "pip", "1/6", "16.7%", "1", "or", "more:", "1"]
    assert lines[4].split() == ["3", "pips", "1/3", "33.3%", "3", "or", "more:", "1/2"]


# --- bad input: one line on stderr, status 1 -------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["pips", "--grade", "Great"],
     "odds pips: argument --grade: invalid choice: 'Great' (choose from 'Gifted', 'Average', "
     "'Poor')"),
    (["pips"], "odds pips: the following arguments are required: --grade"),
    (["spotting", "--cover", "open", "--inches", "-3"],
     "odds spotting: argument --inches: a distance cannot be negative (-3)"),
    (["spotting", "--cover", "open", "--inches", "far"],
     "odds spotting: argument --inches: 'far' is not a distance in inches"),
    (["spotting", "--cover", "fog", "--inches", "3"],
     "odds spotting: argument --cover: invalid choice: 'fog'"),
    (["spotting", "--cover", "open", "--inches", "3", "--spotter", "general"],
     "a general cannot spot: a general may not spot"),
    (["pips", "--grade", "Average", "--ruleset", "1066"],
     "odds pips: argument --ruleset: invalid choice: '1066'"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith("campaign1813: error: ") and err.count("\n") == 1
    assert message in err
