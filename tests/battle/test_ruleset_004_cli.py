"""``campaign1813 odds --ruleset 004 KIND``: every kind of ruleset 004, as text and as JSON
with exact fractions, hand-worked from the seed."""

import json
import os
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.cli.odds_004 import KINDS

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "musketry": ["--firer", "foot", "--effectiveness", "75"],
    "artillery": ["--shot", "roundshot", "--effectiveness", "50"],
    "save": ["--hits", "1", "--cuirassiers"],
    "melee": ["--attacker", "lancers", "--attacker-effectiveness", "25", "--defender", "foot"],
    "morale": ["--quality", "regular"],
    "variation": ["--distance", "12"],
    "first-move": [],
    "dice": ["--dice", "1.5", "--need", "4"],
}


def _json(capsys, kind, *args):
    assert main(["odds", "--ruleset", "004", kind, *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == kind and data["ruleset"] == "004" and data["rules"]
    return data


def test_every_kind_has_an_example():
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_prints_text_and_json(capsys, kind):
    assert main(["odds", "--ruleset", "004", kind, *EXAMPLES[kind]]) == 0
    assert capsys.readouterr().out.count("%") >= 2
    data = _json(capsys, kind, *EXAMPLES[kind])
    tables = [v for v in data.values() if isinstance(v, dict)]
    assert tables and all(sum(F(p) for p in t.values()) == 1 for t in tables)


def test_musketry_as_the_seed_example(capsys):
    """seed 004: regular foot in firing order at 75 % effectiveness, 3 dice hitting on 4-6:
    P(2 or more hits) = 3/8 + 1/8 = 1/2."""
    data = _json(capsys, "musketry", "--firer", "foot", "--effectiveness", "75")
    assert data["hits"] == {"0": "1/8", "1": "3/8", "2": "3/8", "3": "1/8"}
    assert F(data["hits"]["2"]) + F(data["hits"]["3"]) == F(1, 2)


def test_the_half_die_and_a_saving_throw(capsys):
    """seed 004: a half die (lancers at 25 % against foot in firing order, 1½ dice): P(no hit)
    = 1/2·1/2 + 1/2·1/4 = 3/8; cuirassiers save on 6: one hit stands 5/6."""
    melee = _json(capsys, "melee", *EXAMPLES["melee"])
    assert melee["attacker_dice"] == "1½ dice" and melee["defender_suffers"]["0"] == "3/8"
    save = _json(capsys, "save", "--hits", "1", "--cuirassiers")
    assert save["hits_standing"] == {"0": "1/6", "1": "5/6"} and save["save_on"] == "6"


def test_a_flank_attack(capsys):
    """seed 004: lancers in the flank of foot: (4 + 1) a step, 20 dice at 100 %."""
    melee = _json(capsys, "melee", "--attacker", "lancers", "--defender", "foot", "--flank")
    assert melee["attacker_dice"] == "20 dice"


def test_artillery_and_morale(capsys):
    """seed 004: weakened roundshot is a half die: P(0 potential hits) = 13/24; a poor unit
    with its general passes on 4-6: 1/2."""
    art = _json(capsys, "artillery", "--shot", "roundshot", "--effectiveness", "50")
    assert art["potential_hits"]["0"] == "13/24" and art["dice"] == "½ die"
    morale = _json(capsys, "morale", "--quality", "poor", "--general")
    assert morale["test"]["passes"] == "1/2" and morale["passes_on"] == "4-6"


def test_the_ruleset_comes_first(capsys):
    """`odds --ruleset 004 KIND`: after the kind, --ruleset names an 1813 ruleset."""
    assert main(["odds", "--ruleset", "004", "morale", "--quality", "elite", "--json",
                 "--ruleset", "004"]) == 0
    assert json.loads(capsys.readouterr().out)["test"]["passes"] == "2/3"
    assert main(["odds", "morale", "--type", "infantry", "--class", "B", "--ruleset",
                 "004"]) == 1
    assert "invalid choice: '004'" in capsys.readouterr().err


def test_bad_input_is_one_line(capsys):
    assert main(["odds", "--ruleset", "004", "musketry", "--firer", "foot", "--range",
                 "9"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "beyond musket range (8 cm)" in err
    assert main(["odds", "--ruleset", "004", "dice", "--dice", "1/3", "--need", "4"]) == 1
    assert "dice come whole or in halves" in capsys.readouterr().err


def test_the_1813_kinds_are_untouched(capsys):
    assert main(["odds", "pips", "--grade", "Average", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "pips"


def test_odds_of_ruleset_004_import_no_pydantic():
    code = ("import sys\n"
            "from campaign1813.campaign.cli import main\n"
            "main(['odds', '--ruleset', '004', 'melee', '--attacker', 'lancers', '--defender',"
            " 'foot', '--json'])\n"
            "print('pydantic' in sys.modules, file=sys.stderr)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    assert out.stderr.strip().splitlines()[-1] == "False"
    assert json.loads(out.stdout)["attacker_dice"] == "6 dice"


def test_odds_help_lists_the_kinds(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "--ruleset", "004", "--help"])
    out = capsys.readouterr().out
    assert all(kind in out for kind in KINDS)


def test_the_text_form_names_each_fact_once(capsys):
    """seed 004: regular foot in firing order at 75 %: 3 dice hitting on 4-6."""
    from campaign1813.campaign.cli import main

    assert main(["odds", "--ruleset", "004", "musketry", "--firer", "foot",
                 "--effectiveness", "75"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Ruleset 004, MUSKETRY: firer: foot; effectiveness: 75 %; "
                            "dice: 3 dice; hit on: 4-6")

