"""Ruleset 002's tables: the shipped files load, bad numbers are refused naming file and entry,
the JSON Schema in docs/schemas is current, and the ruleset id resolves."""

import json
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

from campaign1813.campaign.battle import registry
from campaign1813.campaign.battle.files import RulesetError
from campaign1813.campaign.battle.ruleset002 import schema
from campaign1813.campaign.battle.ruleset002.tables import FILES, tables, tables_at
from campaign1813.campaign.battle.ruleset002.units import Ground, UnitKind
from campaign1813.campaign.battle.ruleset1813.rules.loader import ruleset_info
from campaign1813.data import data_root

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path(str(data_root())) / "rulesets" / "002"


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "002"
    shutil.copytree(SHIPPED, folder)
    return folder


def _edit(folder, name, old, new):
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text, old
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_shipped_tables_hold_the_seeds_numbers():
    """seed 002: eliminated past 12 (elite 18); moves 6" (commanders 9"), +3" on a road and
    near the General; muskets 6", artillery 24"; 1D6+2 charges; at most 3 commanders."""
    t = tables()
    assert {k: t.units[k].eliminated_over for k in UnitKind} == {
        UnitKind.INFANTRY: 12, UnitKind.ELITE: 18, UnitKind.SKIRMISHERS: 12,
        UnitKind.CAVALRY: 12, UnitKind.ARTILLERY: 12}
    assert {t.units[k].move_inches for k in UnitKind} == {6} and t.commander_move == 9
    assert (t.road_bonus, t.general_bonus, t.general_bonus_within) == (3, 3, 6)
    assert t.fire[UnitKind.INFANTRY].range_inches == 6
    assert t.fire[UnitKind.ARTILLERY].range_inches == 24
    assert (t.charge_add, t.charge_inches, t.artillery_support, t.charge_retire) == (2, 6, 3, 6)
    assert (t.commanders_most, t.units_per_commander) == (3, 4)
    assert t.steps == ("artillery", "skirmishers", "stationary infantry", "moved infantry")
    assert t.ground[Ground.WOODS].enter == {UnitKind.SKIRMISHERS}
    assert t.ground[Ground.MARSH].enter == frozenset()
    assert t.ground[Ground.ENTRENCHMENT].best_of_two and t.ground[Ground.ENTRENCHMENT].static
    assert [m.key for m in t.charge_modifiers] == ["hill", "cavalry", "flank_or_rear",
                                                   "skirmishers"]
    assert len(t.assumptions) >= 15


def test_the_ruleset_id_resolves_beside_the_1813_rulesets():
    assert ruleset_info("002")["name"] == "002"
    assert "002" in registry.all_ruleset_names() and "1813" in registry.all_ruleset_names()
    assert "002" not in registry.ruleset_names()   # the 1813 engine's tables are not its own


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("units.toml", "eliminated_over = 18", "eliminated_over = nan",
     "002/units.toml: units.elite.eliminated_over: should be a whole number, not nan"),
    ("units.toml", "eliminated_over = 18", "eliminated_over = inf",
     "002/units.toml: units.elite.eliminated_over: should be a whole number, not inf"),
    ("units.toml", "eliminated_over = 18", "eliminated_over = 0",
     "002/units.toml: units.elite.eliminated_over: should be at least 1, not 0"),
    ("units.toml", "move_inches = 9", "move_inches = -9",
     "002/units.toml: commanders.move_inches: should be at least 0, not -9"),
    ("units.toml", 'enter = ["skirmishers"]', 'enter = ["dragoons"]',
     "002/units.toml: terrain.woods.enter[0]: 'dragoons' is not one of the words allowed"),
    ("shooting.toml", "range_inches = 24", "range_inches = 24.0",
     "002/shooting.toml: fire.artillery.range_inches: should be a whole number, not 24.0"),
    ("shooting.toml", "add = -2", "add = -7",
     "002/shooting.toml: fire.skirmishers.add: should be at least -6, not -7"),
    ("shooting.toml", 'die = "d6"', 'die = "d8"', "002/shooting.toml: die: 'd8' is not"),
    ("shooting.toml", '"moved infantry"]', '"artillery"]',
     "002/shooting.toml: steps: should name each of artillery, skirmishers, stationary "
     "infantry, moved infantry once"),
    ("charges.toml", "add = 2", "add = 2\nbonus = 1", "002/charges.toml: unknown entry bonus"),
    ("charges.toml", 'key = "hill"', 'key = "cavalry"',
     "002/charges.toml: modifiers: should have each of hill, cavalry, flank_or_rear, "
     "skirmishers once"),
    ("charges.toml", 'effect = "halve"', 'effect = "triple"',
     "002/charges.toml: modifiers[0].effect: 'triple' is not"),
    ("play.toml", 'eliminated_share = "1/2"', 'eliminated_share = "3/2"',
     "002/play.toml: victory.eliminated_share: should be more than 0 and at most 1, not 3/2"),
    ("play.toml", 'eliminated_share = "1/2"', 'eliminated_share = "half"',
     "002/play.toml: victory.eliminated_share: should be a fraction such as \"1/2\""),
    ("play.toml", "french_a_on = [1, 2, 3]", "french_a_on = [0, 2, 3]",
     "002/play.toml: sides.french_a_on[0]: should be at least 1, not 0"),
    ("play.toml", "[rally]", "[rallies]", "002/play.toml: unknown entry rallies"),
])
def test_bad_numbers_are_refused_naming_the_file_and_entry(copy, name, old, new, message):
    _edit(copy, name, old, new)
    with pytest.raises(RulesetError) as err:
        tables_at(copy)
    assert str(err.value).startswith(message), str(err.value)


def test_a_missing_or_broken_file_is_refused(copy):
    (copy / "play.toml").unlink()
    with pytest.raises(RulesetError, match="002/play.toml: the file is missing"):
        tables_at(copy)
    (copy / "play.toml").write_text("[sides\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="002/play.toml: "):
        tables_at(copy)


def test_a_house_rule_is_read(copy):
    """An umpire may house-rule a number: elite infantry eliminated past 20 hits."""
    _edit(copy, "units.toml", "eliminated_over = 18", "eliminated_over = 20")
    t = tables_at(copy)
    assert not t.eliminated(UnitKind.ELITE, 20) and t.eliminated(UnitKind.ELITE, 21)


def test_an_unknown_ruleset_of_this_kind_is_refused():
    with pytest.raises(RulesetError, match="no ruleset of seed 002's kind called '1813'"):
        tables("1813")


def test_the_committed_json_schema_is_current():
    """Regenerate with `python -m campaign1813.campaign.battle.ruleset002.schema docs/schemas`."""
    committed = REPO / "docs" / "schemas" / schema.SCHEMA_NAME
    assert committed.read_text(encoding="utf-8") == schema.schema_text()


def test_the_shipped_files_fit_the_json_schema():
    data = {f: tomllib.loads((SHIPPED / f).read_text(encoding="utf-8")) for f in FILES}
    jsonschema.validate(data, json.loads(schema.schema_text()))
    data["charges.toml"]["add"] = "two"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, json.loads(schema.schema_text()))


def test_the_docs_list_every_assumption():
    text = (REPO / "docs" / "ruleset-002.md").read_text(encoding="utf-8")
    missing = [a for a in tables().assumptions if f"- {a}" not in text]
    assert not missing


def test_the_manifest_lists_exactly_the_shipped_files():
    """Regenerate with `python -m campaign1813.campaign.battle.ruleset002.schema docs/schemas`."""
    assert (SHIPPED / "validated.json").read_text(encoding="utf-8") == schema.manifest_text()
    assert sorted(json.loads(schema.manifest_text())["files"]) == sorted(FILES)


def test_a_file_listed_in_the_manifest_is_not_checked_again_but_a_changed_one_is(copy):
    _edit(copy, "charges.toml", "add = 2", "add = 2.5")
    with pytest.raises(RulesetError, match="charges.toml: add: should be a whole number"):
        tables_at(copy)
    (copy / "validated.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(RulesetError, match="charges.toml: add: should be a whole number"):
        tables_at(copy)
