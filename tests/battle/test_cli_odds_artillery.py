"""``campaign1813 odds artillery``: exact odds of Rule 7 on the command line."""

import json

import pytest

from campaign1813.campaign.cli import main


def run(capsys, *args):
    status = main(["odds", "artillery", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_json_is_exact_for_the_rule_7_example(capsys):
    """Rule 7, 12-pounder, short, infantry, A gunners: one hit on 6, two on 2 × 6 = 12; 2d6 +1
    reaches 6 on 5-12 (30/36) and 12 on 11-12 (3/36): 6/36, 27/36, 3/36 reduced."""
    status, out, _ = run(capsys, "--calibre", "12", "--range", "short", "--target", "infantry",
                         "--gunners", "A", "--json")
    assert status == 0
    assert json.loads(out) == {
        "kind": "artillery", "rules": [7], "ruleset": "1813", "calibre": "12",
        "range": "short", "target": "infantry", "gunners": "A", "casualties": 0,
        "bounce_through": False, "dice": "2d6",
        "modifiers": [{"key": "a_class_gunners", "label": "A class gunners", "value": 1}],
        "net": 1, "need": {"1": 6, "2": 12},
        "hits": {"0": "1/6", "1": "3/4", "2": "1/12"},
    }


def test_json_long_range_9_pounder(capsys):
    """Rule 7, 9-pounder, long, infantry, B: 8+ on 2d6: 7/12 miss, 5/12 one hit."""
    _, out, _ = run(capsys, "--calibre", "9", "--range", "long", "--target", "infantry",
                    "--gunners", "B", "--json")
    assert json.loads(out)["hits"] == {"0": "7/12", "1": "5/12", "2": "0"}


def test_json_certain_miss_and_revised_cavalry(capsys):
    _, out, _ = run(capsys, "--calibre", "6", "--range", "short", "--target", "artillery",
                    "--gunners", "C", "--casualties", "2", "--bounce-through", "--json")
    data = json.loads(out)
    # 6-pounder at artillery, short: 9; C −1, two casualties −2, bounce-through −1: 2d6 −4
    # reaches at most 8
    assert data["net"] == -4 and data["hits"] == {"0": "1", "1": "0", "2": "0"}
    _, old, _ = run(capsys, "--calibre", "12", "--range", "short", "--target", "cavalry",
                    "--gunners", "B", "--json")
    _, new, _ = run(capsys, "--calibre", "12", "--range", "short", "--target", "cavalry",
                    "--gunners", "B", "--ruleset", "1813-revised", "--json")
    assert json.loads(old)["hits"] == {"0": "5/18", "1": "25/36", "2": "1/36"}
    assert json.loads(new)["hits"] == {"0": "5/12", "1": "7/12", "2": "0"}


def test_text_output_names_modifiers_and_needs(capsys):
    status, out, _ = run(capsys, "--calibre", "12", "--range", "short", "--target", "infantry",
                         "--gunners", "A")
    assert status == 0
    assert "Roll 2d6 +1 (A class gunners +1); 1 hit on 6+, 2 hits on 12+" in out
    assert "1 hit:   3/4  (75.0 %)" in out


def test_help_lists_the_modifiers(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["odds", "artillery", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name, value in (("A class gunners", "+1"), ("C class gunners", "-1"),
                        ("each gunner casualty", "-1"), ("bounce-through", "-1")):
        assert f"  {name:<24} {value}" in out


def test_unknown_ruleset_is_one_line(capsys):
    status, out, err = run(capsys, "--calibre", "12", "--range", "short", "--target",
                           "infantry", "--gunners", "A", "--ruleset", "1066")
    assert status == 1 and out == ""
    assert err == "campaign1813: error: no ruleset called '1066' (known: 1813, 1813-revised)\n"


def test_negative_casualties_are_one_line(capsys):
    status, _, err = run(capsys, "--calibre", "12", "--range", "short", "--target", "infantry",
                         "--gunners", "A", "--casualties", "-1")
    assert status == 1
    assert err == "campaign1813: error: --casualties must be 0 or more, not -1\n"


@pytest.mark.parametrize("calibre", ["8", "4"])
def test_eight_and_four_pounders_are_accepted(capsys, calibre):
    """Rule 7 (revised text): 8/9-pounders are medium, 4/6-pounders light guns. Woods at long
    range, B gunners: 9+ on 2d6 = 10/36 one hit, 18 for two: never."""
    status, out, _ = run(capsys, "--calibre", calibre, "--range", "long", "--target", "woods",
                         "--gunners", "B", "--json")
    assert status == 0
    assert json.loads(out)["hits"] == {"0": "13/18", "1": "5/18", "2": "0"}
