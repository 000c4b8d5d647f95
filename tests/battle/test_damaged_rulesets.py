"""A damaged ruleset folder is refused with the file, the entry and the reason, wherever the
rules are first read (a battle set up, a test's odds, auto-resolve), never as an internal error,
and nothing the schema forbids is taken (a die so big its odds never end, a morale test every
brigade passes, a ruleset extending itself)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from campaign1813.campaign.battle.files import RulesetError, rulesets_root
from campaign1813.campaign.battle.ruleset1813.rules.loader import load_table
from campaign1813.campaign.battle.ruleset1813.rules.schema import check_table
from campaign1813.errors import CampaignError

RUN = textwrap.dedent("""
    import sys
    from pathlib import Path
    import campaign1813.campaign.battle.files as files
    files.data_root = lambda: Path(sys.argv[1])
    from campaign1813.campaign.cli import main
    sys.exit(main(sys.argv[2:]))
""")


def _damaged(tmp_path: Path, ruleset: str, filename: str, old: str, new: str) -> Path:
    root = tmp_path / "data"
    shutil.copytree(rulesets_root(), root / "rulesets")
    path = root / "rulesets" / ruleset / filename
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def _cli(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, str(root), *argv], capture_output=True,
                          text=True, timeout=120)


def test_a_ruleset_error_is_a_refusal_the_umpire_is_shown():
    assert issubclass(RulesetError, CampaignError)


@pytest.mark.parametrize(("table", "entry", "why"), [
    ("fire.toml", {"dice": "100000d6"}, "dice: should be a die such as d6, 2d6, d10 or average "
                                        "(at most 9 dice)"),
    ("ruleset.toml", {"name": "house", "extends": "house"}, "cannot extend itself"),
])
def test_the_schema_refuses_what_cannot_be_a_rule(table, entry, why):
    data = dict(load_table("1813", table)) if table != "ruleset.toml" else {}
    data.update(entry)
    with pytest.raises(RulesetError) as err:
        check_table(table, data, f"house/{table}")
    assert str(err.value).startswith(f"house/{table}: ")
    assert why in str(err.value)


def test_rule_17_a_morale_test_must_be_one_a_brigade_can_fail():
    data = dict(load_table("1813", "morale.toml"))
    data["test"] = dict(data["test"], pass_at=-5)
    with pytest.raises(RulesetError, match="house/morale.toml: test.pass_at: "):
        check_table("morale.toml", data, "house/morale.toml")


def test_battle_setup_with_a_damaged_table_is_a_one_line_refusal(tmp_path, fresh_campaign):
    from campaign1813.campaign import services
    from campaign1813.campaign.store.document import open_campaign

    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
    root = _damaged(tmp_path, "1813", "morale.toml", "pass_at = 3", "pass_at = -5")
    for argv in (("battle", str(path), "1", "setup"), ("autoresolve", str(path), "1")):
        done = _cli(root, *argv)
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith("campaign1813: error: 1813/morale.toml")
        assert "test.pass_at: should be at least 1, not -5" in done.stderr
        assert "internal error" not in done.stderr and done.stderr.count("\n") == 1


def test_odds_with_a_die_too_big_is_refused_at_once(tmp_path):
    root = _damaged(tmp_path, "1813", "fire.toml", 'dice = "2d6"', 'dice = "100000d6"')
    done = _cli(root, "odds", "artillery", "--gunners", "A", "--calibre", "12",
                "--range", "short", "--target", "infantry")
    assert done.returncode == 1, done.stderr
    assert "1813/fire.toml: dice: should be a die such as d6" in done.stderr


@pytest.mark.parametrize("key", ["\x1e", "a\nb", "\u2028", "\x1b[31m"])
def test_a_key_with_a_line_break_is_refused_on_one_line(key):
    """Found by the ruleset fuzzer: an unknown key holding a record separator split the
    refusal in two."""
    data = dict(load_table("1813", "combat.toml"))
    data[key] = 1
    with pytest.raises(RulesetError) as err:
        check_table("combat.toml", data, "house/combat.toml")
    message = str(err.value)
    assert len(message.splitlines()) == 1 and "\x1b" not in message
    assert message.startswith("house/combat.toml: unknown entry ")
    assert repr(key)[1:-1] in message
