"""Ruleset folders: extends, assumptions, and refusals that name the ruleset and the file."""

import pytest

from campaign1813.campaign.battle import files
from campaign1813.campaign.battle.ruleset1813.rules.loader import (
    RulesetError,
    assumptions,
    load_table,
    ruleset_info,
    ruleset_names,
)


def test_shipped_rulesets():
    assert ruleset_names() == ("1813", "1813-revised")
    assert ruleset_info("1813-revised")["extends"] == "1813"


def test_revised_inherits_what_it_does_not_change():
    assert load_table("1813-revised", "combat.toml") == load_table("1813", "combat.toml")
    assert load_table("1813-revised", "fire.toml") != load_table("1813", "fire.toml")


def test_revised_takes_the_assumptions_of_1813_first():
    base = assumptions("1813")
    assert assumptions("1813-revised")[: len(base)] == base


def test_unknown_ruleset_and_table():
    known = r"no ruleset called 'house' \(known: 1813, 1813-revised\)"
    with pytest.raises(RulesetError, match=known):
        ruleset_info("house")
    with pytest.raises(RulesetError, match="ruleset '1813' has no table file nothing.toml"):
        load_table("1813", "nothing.toml")


def test_a_cycle_and_bad_toml_are_refused(tmp_path, monkeypatch):
    for name, extends in (("a", "b"), ("b", "a")):
        (tmp_path / "rulesets" / name).mkdir(parents=True)
        (tmp_path / "rulesets" / name / "ruleset.toml").write_text(
            f'name = "{name}"\nextends = "{extends}"\n')
    (tmp_path / "rulesets" / "b" / "bad.toml").write_text("x = [\n")
    monkeypatch.setattr(files, "data_root", lambda: tmp_path)
    ruleset_info.cache_clear()
    load_table.cache_clear()
    try:
        with pytest.raises(RulesetError, match="ruleset 'a' extends itself through a → b"):
            load_table("a", "missing.toml")
        with pytest.raises(RulesetError, match="^b/bad.toml: "):
            load_table("a", "bad.toml")
    finally:
        ruleset_info.cache_clear()
        load_table.cache_clear()
