"""``campaign1813 odds --ruleset 002 KIND``: each kind's exact odds as text and as JSON."""

import json
from fractions import Fraction as F

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.cli.odds_002 import KINDS

EXAMPLES = {
    "shooting": ["--shooter", "artillery", "--cover", "--hits", "11"],
    "charge": ["--target", "cavalry", "--hill", "--flank"],
    "sides": [],
}


def _odds(capsys, *words):
    code = main(["odds", "--ruleset", "002", *words])
    return code, capsys.readouterr()


def test_every_kind_has_an_example():
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_prints_json_with_exact_fractions(capsys, kind):
    code, out = _odds(capsys, kind, *EXAMPLES[kind], "--json")
    assert code == 0, out.err
    data = json.loads(out.out)
    assert data["kind"] == kind and data["ruleset"] == "002" and data["rules"]
    chances = data.get("hits") or data.get("side_a")
    assert sum(F(p) for p in chances.values()) == 1


def test_shooting_json(capsys):
    """seed 002: artillery 1D6-2 at a target in cover: 0, 1, 2 hits at 1/3 each; a target
    with 11 hits is eliminated (past 12) by 2 hits: 1/3."""
    code, out = _odds(capsys, "shooting", *EXAMPLES["shooting"], "--json")
    data = json.loads(out.out)
    assert data["hits"] == {"0": "1/3", "1": "1/3", "2": "1/3"}
    assert data["eliminated"] == "1/3" and data["hits_now"] == 11


def test_charge_text(capsys):
    """seed 002, Charges: cavalry on a hill charged in the flank: 2 hits 1/3, 4 hits 2/3."""
    code, out = _odds(capsys, "charge", *EXAMPLES["charge"])
    assert code == 0
    assert "2 hits    1/3" in out.out and "4 hits    2/3" in out.out
    assert "halve (target on a hill), halve (target is cavalry), double" in out.out


def test_a_charge_on_guns_is_certain(capsys):
    code, out = _odds(capsys, "charge", "--target", "artillery", "--json")
    assert code == 0 and json.loads(out.out)["eliminated"] == "1"


def test_sides(capsys):
    """seed 002: "Roll the dice or flip a coin … to determine who is Side A": 1/2 each."""
    code, out = _odds(capsys, "sides", "--json")
    assert code == 0
    assert json.loads(out.out)["side_a"] == {"French": "1/2", "Allied": "1/2"}


@pytest.mark.parametrize(("words", "message"), [
    (["shooting", "--shooter", "cavalry"], "cavalry do not shoot"),
    (["charge", "--target", "artillery", "--infantry-near"], "cannot be charged"),
    (["shooting", "--shooter", "infantry", "--range", "7"], "reach 6 inches"),
])
def test_refusals_are_one_line(capsys, words, message):
    code, out = _odds(capsys, *words)
    assert code == 1
    assert message in out.err and out.err.count("\n") == 1


def test_the_1813_kinds_are_untouched(capsys):
    assert main(["odds", "artillery", "--calibre", "12", "--range", "short", "--target",
                 "infantry", "--gunners", "B", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "1813"


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_prints_text(capsys, kind):
    code, out = _odds(capsys, kind, *EXAMPLES[kind])
    assert code == 0 and out.out.startswith("Seed 002 ") and "%" in out.out


def test_the_shooting_text_names_the_roll_and_the_elimination(capsys):
    """seed 002: artillery 1D6-2, halved in cover; 11 hits + 2 passes 12: 1/3."""
    code, out = _odds(capsys, "shooting", *EXAMPLES["shooting"])
    assert out.out.splitlines()[1] == "Roll 1D6−2 (never below 0), halved for cover (rounded up)"
    assert "Eliminated (now 11 hits, past 12): 1/3" in out.out


def test_odds_without_a_kind_prints_the_kinds(capsys):
    code, out = _odds(capsys)
    assert code == 0 and "shooting" in out.out and "sides" in out.out
