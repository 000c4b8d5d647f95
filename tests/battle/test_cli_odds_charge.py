"""``campaign1813 odds charge``, ``odds reaction`` and ``odds crest``: Rule 6 and the revised
Rule 8 on the command line.

Worked by hand from ``data/rulesets/1813/opportunity.toml`` and the revision's
``1813-revised/opportunity.toml`` and ``quick.toml``: every test is 1d6 plus modifiers, the
charge and the reaction pass on a total of 4 or more.
"""

import json

import pytest

from campaign1813.campaign.cli import main

REVISED = ("--ruleset", "1813-revised")


def run(capsys, *argv):
    code = main(["odds", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def odds(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# --- Rule 6: the charge test -------------------------------------------------------------------


def test_charge_on_a_column_of_march(capsys):
    """Rule 6: class B cavalry on infantry in column of march, no modifiers: 4, 5, 6 → 1/2."""
    assert odds(capsys, "charge", "--class", "B", "--target", "infantry",
                "--target-formation", "column-of-march") == {
        "kind": "charge", "rules": [6], "ruleset": "1813",
        "cavalry": {"class": "B", "casualties": 0, "state": "formed",
                    "commander_grade": "Average"},
        "target": {"type": "infantry", "state": "formed", "formation": "column of march"},
        "grounds": ["infantry_column_of_march"], "dice": "1d6", "need": 4,
        "modifiers": [], "net": 0, "result": {"pass": "1/2", "fail": "1/2"},
        "if_pass": "the cavalry charge; the target may react if they are over half their move "
                   "away",
    }


def test_charge_modifiers_add_up(capsys):
    """Rule 6: A class +1, commander within 4" +1, Poor commander −1: 1d6 +1 needs 3 → 4/6."""
    data = odds(capsys, "charge", "--class", "a", "--target", "cavalry", "--target-state",
                "shaken", "--commander-within-4", "--commander-grade", "poor")
    assert [(m["key"], m["value"]) for m in data["modifiers"]] == [
        ("a_class", 1), ("commander_within_4", 1), ("poor_commander", -1)]
    assert data["net"] == 1 and data["result"] == {"pass": "2/3", "fail": "1/3"}
    assert data["grounds"] == ["shaken"]


def test_charge_in_flank_1813_and_revised(capsys):
    """Rule 6, class C charging a flank: 1813 −1 +1 = 0 → 1/2. Revised, 2 casualties and no
    commander within 8": −1 +1 −1 −2 = −3, the die would need 7: never."""
    old = odds(capsys, "charge", "--class", "C", "--target", "infantry", "--flank",
               "--casualties", "2")
    assert old["net"] == 0 and old["result"]["pass"] == "1/2"
    new = odds(capsys, "charge", "--class", "C", "--target", "infantry", "--flank",
               "--casualties", "2", *REVISED)
    assert new["net"] == -3 and new["result"] == {"pass": "0", "fail": "1"}
    assert {m["key"] for m in new["modifiers"]} == {"c_class", "flank_or_rear",
                                                   "no_commander_within_8", "casualty"}


def test_revised_charge_with_commander_near(capsys):
    """Revised Rule 6: A class +1, commander within 4" +1 (and so not 'none within 8'):
    1d6 +2 needs 2 → 5/6."""
    data = odds(capsys, "charge", "--class", "A", "--target", "infantry", "--target-formation",
                "column-of-march", "--commander-within-4", *REVISED)
    assert data["net"] == 2 and data["result"]["pass"] == "5/6"


def test_disordered_targets_are_fair_game_only_in_1813(capsys):
    """Rule 6 (1813) lists any Disordered enemy; the revision lists only Shaken ones."""
    data = odds(capsys, "charge", "--class", "B", "--target", "infantry", "--target-state",
                "disordered")
    assert data["grounds"] == ["disordered"] and data["result"]["pass"] == "1/2"
    code, _, err = run(capsys, "charge", "--class", "B", "--target", "infantry",
                       "--target-state", "disordered", *REVISED)
    assert code == 1
    assert "offers no opportunity charge from the front" in err


def test_charge_text(capsys):
    code, out, _ = run(capsys, "charge", "--class", "A", "--target", "artillery",
                       "--target-formation", "limbered")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("Rule 6 opportunity charge (1813): class A cavalry on artillery, formed, "
                        "limbered")
    assert lines[1] == "Open to a charge: limbered artillery"
    assert lines[2] == "Roll 1d6: +1 A class (net +1); 3 or more on the die"
    assert lines[3].split() == ["pass", "4", "or", "more", "2/3", "66.7%"]
    assert lines[4].split() == ["fail", "3", "or", "less", "1/3", "33.3%"]


@pytest.mark.parametrize("argv, message", [
    (["--class", "B", "--target", "infantry"],
     "the infantry (infantry, formed, line) offers no opportunity charge from the front"),
    (["--class", "B", "--target", "infantry", "--target-state", "shaken", "--own-move"],
     "opportunity charges are made only during the enemy's move"),
    (["--class", "B", "--target", "infantry", "--target-state", "shaken", "--state", "shaken"],
     "the class B cavalry is shaken; only formed cavalry may opportunity charge"),
    (["--class", "B", "--target", "infantry", "--target-formation", "wedge"],
     "--target-formation: 'wedge' is not a formation for infantry"),
    (["--class", "D", "--target", "infantry"],
     "odds charge: argument --class: invalid choice: 'D' (choose from 'A', 'B', 'C')"),
    (["--class", "B", "--target", "infantry", "--casualties", "-1"],
     "odds charge: argument --casualties: cannot be negative (-1)"),
    (["--class", "B", "--target", "infantry", "--commander-grade", "brilliant"],
     "odds charge: argument --commander-grade: invalid choice: 'brilliant'"),
])
def test_charge_bad_input_is_one_line(capsys, argv, message):
    code, out, err = run(capsys, "charge", *argv)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err


# --- Rule 6: the target's reaction ---------------------------------------------------------------


def test_reaction_turn_to_face_in_flank(capsys):
    """Rule 6 (1813): C class −1, charged in flank or rear −1: 1d6 −2 needs 6 → 1/6."""
    data = odds(capsys, "reaction", "--reaction", "turn-to-face", "--type", "infantry",
                "--class", "C", "--flank")
    assert data["test"] is True and data["net"] == -2
    assert data["result"] == {"pass": "1/6", "fail": "5/6"}
    assert data["effects"]["fail"] == [{"casualties": 0, "new_state": None,
                                        "note": "failed to turn to face"}]


def test_reaction_change_formation_with_a_general(capsys):
    """Rule 6 (1813): A class +1, general within 4" +1: 1d6 +2 needs 2 → 5/6."""
    data = odds(capsys, "reaction", "--reaction", "change-formation", "--type", "infantry",
                "--class", "A", "--general-within-4")
    assert data["result"]["pass"] == "5/6"


def test_counter_charge_needs_no_test_in_1813(capsys):
    """Rule 6 (1813): formed cavalry counter charge without a test; Rule 14 follows."""
    data = odds(capsys, "reaction", "--reaction", "counter-charge", "--type", "cavalry",
                "--class", "B")
    assert data["test"] is False and data["dice"] is None
    assert data["result"] == {"pass": "1", "fail": "0"}
    assert [f["test"] for f in data["then"]["pass"]] == ["cavalry combat"]
    assert "fail" not in data["effects"]


def test_revised_form_square_loses_40_percent_on_a_fail(capsys):
    """Revised Rule 6: two casualties −1 each: 1d6 −2 needs 6 → 1/6. A fail with the cavalry
    arriving first costs 40 % of 8 infantry figures = 3.2, rounded to 3 casualties."""
    data = odds(capsys, "reaction", "--reaction", "form-square", "--type", "infantry",
                "--class", "B", "--casualties", "2", *REVISED)
    assert data["result"] == {"pass": "1/6", "fail": "5/6"}
    assert data["effects"]["fail"][0]["casualties"] == 3
    assert "40% casualties" in data["effects"]["fail"][0]["note"]


def test_revised_failed_reaction_done_before_contact_costs_nothing(capsys):
    data = odds(capsys, "reaction", "--reaction", "form-square", "--type", "infantry",
                "--class", "B", "--done-before-contact", *REVISED)
    # 1d6 needs 4 → 1/2; the loss is only for a reaction the cavalry interrupt
    assert data["result"]["pass"] == "1/2"
    assert data["effects"]["fail"][0]["casualties"] == 0


def test_revised_cavalry_counter_charge(capsys):
    """Revised Rule 6: cavalry +2 → 1d6 +2 needs 2 → 5/6; a fail costs 40 % of 4 figures =
    1.6, rounded to 2 casualties."""
    data = odds(capsys, "reaction", "--reaction", "counter-charge", "--type", "cavalry",
                "--class", "B", *REVISED)
    assert data["modifiers"] == [{"key": "cavalry", "label": "cavalry", "value": 2}]
    assert data["result"] == {"pass": "5/6", "fail": "1/6"}
    assert data["effects"]["fail"][0]["casualties"] == 2


def test_reaction_text(capsys):
    code, out, _ = run(capsys, "reaction", "--reaction", "form-square", "--type", "infantry",
                       "--class", "B", "--casualties", "2", *REVISED)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("Rule 6 reaction (1813-revised): the class B infantry, formed, tries to "
                        "form square")
    assert lines[1] == "Roll 1d6: −2 each casualty ×2 (net −2); 6 or more on the die"
    assert lines[2].split() == ["pass", "4", "or", "more", "1/6", "16.7%"]
    assert lines[4].startswith("Pass: form square: done before the cavalry arrive")
    assert lines[5].startswith("Fail: failed to form square: 40% casualties as the cavalry "
                               "arrive (3 casualties)")


@pytest.mark.parametrize("argv, message", [
    (["--reaction", "form-square", "--type", "infantry", "--class", "B"],
     "'form square' is not a reaction in this ruleset (reactions: evade, counter charge, "
     "change formation, turn to face, intercept)"),
    (["--reaction", "evade", "--type", "infantry", "--class", "B"],
     "may evade only if its orders allow"),
    (["--reaction", "turn-to-face", "--type", "infantry", "--class", "B",
      "--within-half-move"], "are within half their charge move"),
    (["--reaction", "form-square", "--type", "infantry", "--class", "B", "--state",
      "disordered", *REVISED], "is disordered; only formed troops may form square"),
    (["--reaction", "intercept", "--type", "cavalry", "--class", "B"],
     "may intercept only for a brigade of its own corps"),
    (["--reaction", "wiggle", "--type", "cavalry", "--class", "B"],
     "odds reaction: argument --reaction: invalid choice: 'wiggle'"),
])
def test_reaction_bad_input_is_one_line(capsys, argv, message):
    code, out, err = run(capsys, "reaction", *argv)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err


# --- revised Rule 8: the crest of a hill --------------------------------------------------------


def test_crest_class_b(capsys):
    """Revised Rule 8: 1d6, 1 rout, 2 shaken, 3 disordered, 4-6 OK: 1/6, 1/6, 1/6, 1/2."""
    data = odds(capsys, "crest", "--class", "B")
    assert data["ruleset"] == "1813-revised" and data["modifiers"] == []
    assert data["result"] == {"rout": "1/6", "shaken": "1/6", "disordered": "1/6", "ok": "1/2"}
    assert data["ends"] == {"formed": "1/2", "disordered": "1/6", "shaken": "1/6",
                            "rout": "1/6"}


@pytest.mark.parametrize("argv", [["--class", "A"], ["--class", "B", "--british"],
                                  ["--class", "A", "--british"]])
def test_crest_british_or_a_class_is_plus_one_once(capsys, argv):
    """+1 British or A class, once for both: 1d6 +1 → totals 2-7: shaken on a 1, disordered on
    a 2, OK on 3-6 (4/6); never rout."""
    data = odds(capsys, "crest", *argv)
    assert data["net"] == 1
    assert data["result"] == {"rout": "0", "shaken": "1/6", "disordered": "1/6", "ok": "2/3"}


def test_crest_class_c_disordered_ends(capsys):
    """C class −1 → totals 0-5: rout on 1-2 (1/3), shaken on 3, disordered on 4, OK on 5-6.
    Already disordered, a 'disordered' or OK result leaves it disordered: 1/6 + 1/3 = 1/2."""
    data = odds(capsys, "crest", "--class", "C", "--state", "disordered")
    assert data["result"] == {"rout": "1/3", "shaken": "1/6", "disordered": "1/6", "ok": "1/3"}
    assert data["ends"] == {"disordered": "1/2", "shaken": "1/6", "rout": "1/3"}


def test_crest_only_within_4_inches(capsys):
    """Revised Rule 8: troops within 4" of the crest test when an enemy is within 4"."""
    due = odds(capsys, "crest", "--class", "B", "--from-crest", "4", "--enemy-within", "4")
    assert due["due"] is True and due["result"]["ok"] == "1/2"
    far = odds(capsys, "crest", "--class", "B", "--from-crest", "6", "--enemy-within", "3")
    assert far["due"] is False and far["result"] == {"ok": "1"}
    assert far["ends"] == {"formed": "1"}


def test_crest_text(capsys):
    code, out, _ = run(capsys, "crest", "--class", "A", "--state", "shaken")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Crest of hill test (Rule 8, 1813-revised): class A troops, shaken"
    assert lines[1] == "Roll 1d6: +1 British or A class (net +1)"
    assert [line.split()[0] for line in lines[2:6]] == ["rout", "shaken", "disordered", "ok"]
    # shaken already: nothing but a rout changes it, and a rout cannot be rolled at +1
    assert lines[6] == "Ends shaken 1 (a result never improves a brigade)"


def test_crest_is_refused_on_the_1813_rules(capsys):
    code, out, err = run(capsys, "crest", "--class", "B", "--ruleset", "1813")
    assert code == 1 and out == ""
    assert err == ("campaign1813: error: odds crest: ruleset '1813' has no crest-of-hill test "
                   "(it came with the revised Rule 8; rulesets that have it: 1813-revised)\n")


def test_crest_needs_both_distances(capsys):
    code, _, err = run(capsys, "crest", "--class", "B", "--from-crest", "3")
    assert code == 1 and "give both --from-crest and --enemy-within" in err
