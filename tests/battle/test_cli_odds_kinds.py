"""``campaign1813 odds``: every kind registered, JSON from each, and only the kind asked for
loaded."""

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.cli.odds import KINDS

REPO = Path(__file__).resolve().parents[2]
RULES = "campaign1813.campaign.battle.ruleset1813.rules."
# the smallest command line of each kind
EXAMPLES = {
    "spotting": ["--cover", "open", "--inches", "20"],
    "pips": ["--grade", "Average"],
    "charge": ["--class", "B", "--target", "cavalry", "--target-formation", "column"],
    "reaction": ["--reaction", "turn-to-face", "--type", "infantry", "--class", "B"],
    "crest": ["--class", "B"],
    "artillery": ["--calibre", "12", "--range", "short", "--target", "infantry", "--gunners",
                  "B"],
    "skirmish": [],
    "combat": ["--rule", "13"],
    "pursuit": [],
    "morale": ["--type", "infantry", "--class", "B"],
}


def test_every_kind_has_an_example():
    assert set(EXAMPLES) == set(KINDS)


def _fractions(value):
    """Every string in the JSON that reads as a fraction."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _fractions(v)
    elif isinstance(value, list):
        for v in value:
            yield from _fractions(v)
    elif isinstance(value, str) and value.replace("/", "").isdigit():
        yield Fraction(value)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_prints_json_with_exact_fractions(capsys, kind):
    assert main(["odds", kind, *EXAMPLES[kind], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == kind and data["rules"] and "ruleset" in data
    chances = list(_fractions(data))
    assert chances and all(0 <= p for p in chances)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_prints_text(capsys, kind):
    assert main(["odds", kind, *EXAMPLES[kind]]) == 0
    out = capsys.readouterr().out
    assert out.count("%") >= 2


def _loaded(argv):
    code = ("import json, sys\n"
            "from campaign1813.campaign.cli import main\n"
            "try:\n"
            f"    main({argv!r})\n"
            "except SystemExit:\n"
            "    pass\n"
            f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({RULES!r}))), "
            "file=sys.stderr)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(out.stderr.strip().splitlines()[-1])


def test_odds_help_loads_no_rule():
    assert [m for m in _loaded(["odds", "--help"]) if m != RULES + "files"] == []


def test_a_kind_loads_only_its_own_rules():
    loaded = _loaded(["odds", "pips", "--grade", "Average"])
    assert RULES + "command" in loaded
    for other in ("combat", "morale", "opportunity", "artillery", "quick"):
        assert RULES + other not in loaded
