"""``campaign1813 odds morale`` and ``odds combat``: exact odds on the command line."""

import json

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.cli.odds import ODDS_MODULES


def run(capsys, *argv):
    code = main(["odds", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_melee_odds_module_is_registered():
    assert "campaign1813.campaign.cli.odds_melee" in ODDS_MODULES


def test_morale_json_exact(capsys):
    """Rule 17: class C infantry, 2 casualties, no general within 8": 1d6 −4 → 0 / 1/3 / 2/3."""
    code, out, _ = run(capsys, "morale", "--type", "infantry", "--class", "C", "--casualties",
                       "2", "--modifier", "no-general-within-8", "--json")
    assert code == 0
    assert json.loads(out) == {
        "kind": "morale", "rules": [17], "ruleset": "1813",
        "brigade": {"type": "infantry", "class": "C", "casualties": 2, "state": "formed"},
        "automatic_rout": False, "rout_limit": 6, "dice": "1d6",
        "modifiers": [{"key": "class-c", "label": "Class C", "value": -1},
                      {"key": "no-general-within-8", "label": "No general within 8\"",
                       "value": -1},
                      {"key": "casualties", "label": "Each casualty", "value": -2}],
        "net": -4, "bands": {"pass": "3 or more", "shaken": "1-2", "rout": "0 or less"},
        "result": {"pass": "0", "shaken": "1/3", "rout": "2/3"},
        # a formed brigade Shaken stays Shaken, a rout routs: the end states the text shows
        "rallying": False, "pursuers": False, "ends": {"shaken": "1/3", "rout": "2/3"},
        "ends_note": "",
    }


def test_morale_json_several_modifiers(capsys):
    """Rule 17: Shaken class A cavalry, general attached, supports within 4": 1d6 +1 +1 +1 −2.

    1d6 +1: pass on 2-6 = 5/6, Shaken on 1 = 1/6.
    """
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "A", "--state",
                       "shaken", "--modifier", "general-attached", "--modifier",
                       "supports-within-4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["net"] == 1
    assert data["result"] == {"pass": "5/6", "shaken": "1/6", "rout": "0"}
    # Rule 18: without a commander to rally it a Shaken brigade that passes stays Shaken
    assert data["ends"] == {"shaken": "1"}


@pytest.mark.parametrize("arm, casualties", [("infantry", 6), ("cavalry", 4), ("artillery", 3)])
def test_morale_json_automatic_rout(capsys, arm, casualties):
    """Rule 17: automatic rout at 6 / 4 / 3 casualties: rout "1", the rest "0"."""
    code, out, _ = run(capsys, "morale", "--type", arm, "--class", "A", "--casualties",
                       str(casualties), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["automatic_rout"] is True and data["rout_limit"] == casualties
    assert data["dice"] is None and data["modifiers"] == []
    assert data["result"] == {"pass": "0", "shaken": "0", "rout": "1"}
    assert data["ends"] == {"rout": "1"}


def test_morale_text(capsys):
    """The text form names the modifiers, the bands and each chance."""
    code, out, _ = run(capsys, "morale", "--type", "infantry", "--class", "B")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Morale test (Rule 17): class B infantry, 0 casualties, formed"
    assert lines[1] == "Roll 1d6 no modifiers (net +0)"
    assert lines[2].split() == ["pass", "3", "or", "more", "2/3", "66.7%"]
    assert lines[3].split() == ["shaken", "1–2", "1/3", "33.3%"]


def test_morale_text_rally_states(capsys):
    """Rule 18: a routing class B brigade rallied by its commander: Shaken 1/3, runs on 2/3."""
    code, out, _ = run(capsys, "morale", "--type", "infantry", "--class", "B", "--state", "rout",
                       "--rally")
    assert code == 0
    assert out.splitlines()[-1] == "Ends shaken 1/3, rout 2/3 (rallying)"


def test_morale_text_automatic_rout(capsys):
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "B", "--casualties",
                       "5")
    assert "Routs without testing: 5 casualties reach the cavalry limit of 4." in out


def test_morale_unknown_modifier_is_one_line(capsys):
    code, out, err = run(capsys, "morale", "--type", "infantry", "--class", "B", "--modifier",
                         "flank")
    assert code == 1 and out == ""
    assert err.count("\n") == 1
    assert "unknown modifier 'flank'" in err and "general-attached" in err and "pursuit" in err


def test_morale_negative_casualties(capsys):
    code, _, err = run(capsys, "morale", "--type", "infantry", "--class", "B", "--casualties",
                       "-1")
    assert code == 1 and "--casualties cannot be negative" in err


def test_morale_help_lists_modifiers(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "morale", "--help"])
    out = capsys.readouterr().out
    for name in ("general-attached", "no-general-within-8", "supports-within-4",
                 "no-supports-within-8", "in-bua", "behind-formed-supports", "rout-within-4",
                 "routed-through", "pursuit"):
        assert name in out


def test_combat_json_exact(capsys):
    """Rule 13: line v column +2, class A +1 against outnumbered −2: the attacker rolls +5.

    2d6 +5: 6-7 on 2 = 1/36, 8-9 on 3-4 = 5/36, 10+ on 5-12 = 30/36.
    """
    code, out, _ = run(capsys, "combat", "--rule", "13", "--attacker", "class=A",
                       "formation=line", "--defender", "formation=column-of-attack",
                       "outnumbered", "--json")
    assert code == 0
    assert json.loads(out) == {
        "rule": 13, "table": "rule13", "favoured": "attacker", "difference": 5,
        "kind": "combat", "rules": [13], "ruleset": "1813",
        "title": "Infantry against infantry", "dice": "2d6",
        "attacker": {"factors": [
            {"key": "line-v-column", "label": "Line against column", "value": 2},
            {"key": "class-a", "label": "Class A", "value": 1}], "total": 3},
        "defender": {"factors": [
            {"key": "outnumbered", "label": "Outnumbered 2 to 1", "value": -2}], "total": -2},
        "rows": [
            {"totals": "2-3", "result": "Winner routs", "probability": "0"},
            {"totals": "4-5", "result": "Winner retires 4\" shaken", "probability": "0"},
            {"totals": "6-7", "result": "Draw, both disordered", "probability": "1/36"},
            {"totals": "8-9", "result": "Loser retires 4\" shaken", "probability": "5/36"},
            {"totals": "10+", "result": "Loser routs", "probability": "5/6"},
        ],
    }


def test_combat_rule15_text(capsys):
    """Rule 15: heavy cavalry in line +3 against infantry fire A in line +1: cavalry +2."""
    code, out, _ = run(capsys, "combat", "--rule", "15", "--attacker", "cavalry=heavy",
                       "formation=line", "--defender", "formation=line", "fire=A")
    assert code == 0
    assert "+3 Heavy cavalry in line = +3" in out
    assert "The attacker rolls 2d6 +2." in out
    assert out.splitlines()[-1].split()[-2:] == ["11/12", "91.7%"]


def test_combat_defender_favoured_json(capsys):
    """Rule 9: class A garrison (+3) against a class C attacker (−1): the garrison rolls +4."""
    code, out, _ = run(capsys, "combat", "--rule", "9", "--attacker", "class=C", "--defender",
                       "class=A", "garrison=yes", "--json")
    data = json.loads(out)
    assert (data["favoured"], data["difference"]) == ("defender", 4)
    assert [r["probability"] for r in data["rows"]] == ["0", "0", "1/12", "7/36", "13/18"]


@pytest.mark.parametrize("args, message", [
    (["--attacker", "flank=yes"], "attacker: unknown factor 'flank' (valid: type, class"),
    (["--attacker", "class=D"], "attacker class: 'D' is not one of A, B, C"),
    (["--defender", "casualties=two"], "defender casualties: 'two' is not a number"),
    (["--defender", "formation=wedge"], "'wedge' is not a formation for infantry"),
    (["--attacker", "outnumbered=perhaps"], "attacker outnumbered: 'perhaps' is not yes or no"),
    (["--attacker", "state=shaken"], "attacker is shaken and may not start a combat"),
])
def test_combat_bad_input_is_one_line(capsys, args, message):
    code, out, err = run(capsys, "combat", "--rule", "13", *args)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err


def test_combat_cavalry_needs_weight(capsys):
    code, _, err = run(capsys, "combat", "--rule", "14")
    assert code == 1 and "cavalry needs a weight" in err


def test_combat_help_lists_factors(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "combat", "--help"])
    out = capsys.readouterr().out
    for name in ("garrison", "outnumbered", "stationary", "formation", "casualties", "lancers"):
        assert name in out


def test_morale_json_rally_ends(capsys):
    """Rules 17-18: routing class B, rallied: 1d6 −2 passes on 5-6 (1/3) and becomes Shaken;
    Shaken (3-4) or Rout (1-2) runs on: rout 2/3."""
    code, out, _ = run(capsys, "morale", "--type", "infantry", "--class", "B", "--state", "rout",
                       "--rally", "--json")
    data = json.loads(out)
    assert code == 0 and data["rallying"] is True
    assert data["result"] == {"pass": "1/3", "shaken": "1/3", "rout": "1/3"}
    assert data["ends"] == {"shaken": "1/3", "rout": "2/3"}


# --- Rule 16: pursuers rallying ---------------------------------------------------------------


def test_pursuers_rally_disordered_or_shaken(capsys):
    """Rule 16: pursuers rallying pass the morale test → Disordered, fail → back to their own
    lines Shaken. Class B cavalry, pursuing −1: 1d6 −1 passes on 4-6 (1/2); the Shaken band
    (2-3) and the Rout band (1) are both fails: shaken 1/3 + 1/6 = 1/2. Never formed, never
    rout."""
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "B", "--modifier",
                       "pursuit", "--rally")
    assert code == 0
    assert "−1 Disordered or pursuing (net −1)" in out
    assert out.splitlines()[-1] == ("Ends disordered 1/2, shaken 1/2 (pursuers rallying, "
                                    "Rule 16: pass disordered, fail back to own lines shaken)")


def test_pursuers_rally_json(capsys):
    """Class C pursuers with no general within 8": −1 −1 −1 = −3, passing on a 6 only:
    disordered 1/6, shaken 5/6."""
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "C", "--modifier",
                       "pursuit", "no-general-within-8", "--rally", "--json")
    data = json.loads(out)
    assert code == 0 and data["pursuers"] is True and data["rules"] == [16, 17]
    assert data["net"] == -3
    assert data["result"] == {"pass": "1/6", "shaken": "1/3", "rout": "1/2"}
    assert data["ends"] == {"disordered": "1/6", "shaken": "5/6"}


def test_disordered_pursuers_take_the_minus_one_once(capsys):
    """Rule 17: 'Disordered or pursuit' is −1 once: class B, disordered and pursuing: 1d6 −1."""
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "B", "--state",
                       "disordered", "--modifier", "pursuit", "--rally", "--json")
    data = json.loads(out)
    assert data["net"] == -1 and data["ends"] == {"disordered": "1/2", "shaken": "1/2"}


def test_pursuers_at_the_casualty_limit_rout(capsys):
    """Rule 17: cavalry rout without testing at 4 casualties, pursuing or not."""
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "B", "--casualties",
                       "4", "--modifier", "pursuit", "--rally", "--json")
    assert json.loads(out)["ends"] == {"rout": "1"}


def test_pursuers_without_a_commander_are_told_how_to_rally(capsys):
    code, out, _ = run(capsys, "morale", "--type", "cavalry", "--class", "B", "--modifier",
                       "pursuit")
    assert code == 0
    assert out.splitlines()[-1] == ("Pursuers rally only with a commander in base contact who "
                                    "pays 1 pip (--rally).")


def test_only_cavalry_pursue(capsys):
    code, out, err = run(capsys, "morale", "--type", "infantry", "--class", "B", "--modifier",
                         "pursuit", "--rally")
    assert code == 1 and out == ""
    assert err == ("campaign1813: error: --modifier pursuit: only cavalry pursue (Rule 16), "
                   "not infantry\n")


# --- Rule 16: pursuit ---------------------------------------------------------------------------


def test_pursuit_odds(capsys):
    """Rule 16: 1d6, 5-6 pursue (1/3); then 1d6: 1-2, 3-4, 5-6 each 1/3 of that = 1/9."""
    code, out, _ = run(capsys, "pursuit", "--json")
    data = json.loads(out)
    assert code == 0 and data["pursue_at"] == 5 and data["pursue"] == "1/3"
    assert [(r["faces"], r["action"], r["probability"]) for r in data["result"]] == [
        (None, None, "2/3"), ("1-2", "routers", "1/9"), ("3-4", "charge", "1/9"),
        ("5-6", "charge", "1/9")]
    assert "pass disordered, fail back to their own lines shaken" in data["then"]


@pytest.mark.parametrize("nation", ["British", "british"])
def test_british_pursue_on_4(capsys, nation):
    """Rule 16: British pursue on 4-5-6 (1/2); each result 1/2 × 1/3 = 1/6."""
    code, out, _ = run(capsys, "pursuit", "--nation", nation, "--json")
    data = json.loads(out)
    assert data["pursue_at"] == 4
    assert [r["probability"] for r in data["result"]] == ["1/2", "1/6", "1/6", "1/6"]


def test_other_nations_pursue_on_5(capsys):
    code, out, _ = run(capsys, "pursuit", "--nation", "French", "--json")
    assert json.loads(out)["pursue"] == "1/3"


def test_pursuit_text(capsys):
    code, out, _ = run(capsys, "pursuit")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("Pursuit (Rule 16, 1813): cavalry that caused a rout roll 1d6 "
                               "and pursue on 5 or more (1/3, 33.3%)")
    assert lines[1].split()[:2] == ["no", "pursuit"] and lines[1].split()[-2:] == ["2/3",
                                                                                   "66.7%"]
    assert lines[2].split()[-2:] == ["1/9", "11.1%"] and "Pursue the routers 12\"" in lines[2]


# --- Rule 11: skirmish --------------------------------------------------------------------------


def test_skirmish_json_exact(capsys):
    """Rule 11: 1d6, 6 or more kills. Skirmish A +3 needs 3 (2/3); Skirmish C +1 needs 5 (1/3).
    Independent rolls: both 2/3 × 1/3 = 2/9, attacker only 2/3 × 2/3 = 4/9, defender only
    1/3 × 1/3 = 1/9, neither 1/3 × 2/3 = 2/9."""
    code, out, _ = run(capsys, "skirmish", "--attacker", "skirmish=A", "--defender",
                       "skirmish=C", "--json")
    assert code == 0
    assert json.loads(out) == {
        "kind": "skirmish", "rules": [11], "ruleset": "1813", "dice": "1d6", "kill_at": 6,
        "casualties": 1,
        "attacker": {"modifiers": [{"key": "skirmish-a", "label": "Skirmish A", "value": 3}],
                     "net": 3, "skirmishes": True, "kills": "2/3",
                     "if_hit": "it tests morale (Rule 17)"},
        "defender": {"modifiers": [{"key": "skirmish-c", "label": "Skirmish C", "value": 1}],
                     "net": 1, "skirmishes": True, "kills": "1/3",
                     "if_hit": "it tests morale (Rule 17)"},
        "outcomes": {"both_kill": "2/9", "attacker_only": "4/9", "defender_only": "1/9",
                     "neither": "2/9"},
    }


def test_skirmish_table_facts_and_state(capsys):
    """Rule 11: skirmish B +2, outnumbered −1, enemy in a wood −1: net 0, a 6 only (1/6).
    Defender skirmish B +2, disordered −1, in square −1: net 0, 1/6 too."""
    code, out, _ = run(capsys, "skirmish", "--attacker", "outnumbered", "enemy-in-cover=yes",
                       "--defender", "state=disordered", "formation=square", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["attacker"]["net"] == 0 and data["attacker"]["kills"] == "1/6"
    assert data["defender"]["net"] == 0 and data["defender"]["kills"] == "1/6"
    assert data["outcomes"]["neither"] == "25/36"


def test_skirmish_hit_at_the_casualty_limit_routs(capsys):
    """Rule 17: infantry rout without testing at 6 casualties; a fifth-casualty defender hit
    reaches it. Its own roll: +1 C, −5 casualties = −4, never 6."""
    code, out, _ = run(capsys, "skirmish", "--defender", "skirmish=C", "casualties=5",
                       "--json")
    data = json.loads(out)
    assert data["defender"]["kills"] == "0"
    assert data["defender"]["if_hit"] == "it routs without testing at 6 casualties (Rule 17)"


def test_skirmish_without_reply(capsys):
    """The target need not skirmish back: Skirmish B +2 needs 4 → attacker only 1/2."""
    code, out, _ = run(capsys, "skirmish", "--no-reply")
    lines = out.splitlines()
    assert code == 0
    assert lines[2].split()[:4] == ["defender", "does", "not", "skirmish"]
    assert [line.split()[-2] for line in lines[3:7]] == ["0", "1/2", "0", "1/2"]
    assert lines[-1] == "If the defender is hit, it tests morale (Rule 17)."


@pytest.mark.parametrize("args, message", [
    (["--attacker", "state=shaken"], "attacker is shaken and may not start a skirmish"),
    (["--attacker", "type=cavalry", "cavalry=light"],
     "Rule 11: only infantry skirmish, not attacker (cavalry)"),
    (["--defender", "skirmish=D"], "defender skirmish: 'D' is not one of A, B, C"),
    (["--attacker", "garrison"], "attacker: unknown factor 'garrison'"),
])
def test_skirmish_bad_input_is_one_line(capsys, args, message):
    code, out, err = run(capsys, "skirmish", *args)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err


def test_morale_bad_class_is_one_line(capsys):
    code, out, err = run(capsys, "morale", "--type", "infantry", "--class", "Q")
    assert code == 1 and out == ""
    assert err == ("campaign1813: error: odds morale: argument --class: invalid choice: 'Q' "
                   "(choose from 'A', 'B', 'C')\n")
