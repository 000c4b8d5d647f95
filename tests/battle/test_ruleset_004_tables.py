"""Ruleset 004's data: the seed's numbers as shipped, refused when malformed, its JSON Schema."""

import json
import shutil
import tomllib
from fractions import Fraction as F
from pathlib import Path

import jsonschema
import pytest

from campaign1813.campaign.battle.rules import files, loader, schema
from campaign1813.campaign.battle.rules.files import RulesetError
from campaign1813.campaign.battle.ruleset004 import schema as schema004
from campaign1813.campaign.battle.ruleset004.tables import FILES, engine_rulesets, tables
from campaign1813.data import data_root

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path(str(data_root())) / "rulesets" / "004"


def _clear():
    tables.cache_clear()
    loader.ruleset_info.cache_clear()
    loader.load_table.cache_clear()


@pytest.fixture
def house(tmp_path, monkeypatch):
    """A copy of the shipped rulesets with a house copy of ruleset 004 called 'house004'."""
    root = tmp_path / "data"
    shutil.copytree(str(data_root() / "rulesets"), root / "rulesets")
    folder = root / "rulesets" / "house004"
    shutil.copytree(root / "rulesets" / "004", folder)
    info = folder / "ruleset.toml"
    info.write_text(info.read_text(encoding="utf-8").replace('name = "004"', 'name = "house004"'),
                    encoding="utf-8")
    monkeypatch.setattr(files, "data_root", lambda: root)
    _clear()
    yield folder
    _clear()


def _house_rule(folder, name, old, new):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _clear()


def test_the_seed_numbers_as_shipped():
    """seed 004: hits 4-6 / 5-6 / 6; canister 0-12 cm two dice (one at 50 %); roundshot 24 cm;
    4-6 on foot and horse, 6 on guns; saves 4-6 cover, 6 cuirassiers; morale 3/4/5; moves 6,
    7.5, 6, 10, 12 cm; variation 6 +25 %, 1 −25 %."""
    t = tables()
    f = t.fire
    assert f.musketry_hits_on == {"firing_order": 4, "light_foot": 5, "light_horse": 6,
                                  "not_in_firing_order": 6}
    assert (f.musket_range_cm, f.carbine_range_cm) == (8, 4)
    assert (f.canister.range_cm, f.canister.dice, f.canister.weakened_dice) == (12, 2, 1)
    assert (f.roundshot.range_cm, f.roundshot.dice, f.roundshot.weakened_dice) == (24, 1,
                                                                                  F(1, 2))
    assert f.artillery_hits_on == {"foot": 4, "horse": 4, "guns": 6}
    assert f.saves == t.melee.saves == {"cover": 4, "cuirassiers": 6}
    assert t.morale.passes_on == {"elite": 3, "regular": 4, "poor": 5}
    assert t.morale.lost_below == F(1, 2)
    assert t.movement.distance_cm["foot"] == F(15, 2)
    assert t.movement.variation == {1: F(-1, 4), 2: 0, 3: 0, 4: 0, 5: 0, 6: F(1, 4)}
    assert t.national["mollwitz_prussian"].horse_melee_hits_on == 5


def test_the_melee_matrix_as_shipped():
    """seed 004 MELEES: 'Heavy Cav 1 2 2 1 3 2 / Lancers 1 1 1 1.5 4 4 / Other Lt Cav 1 2 1 1 2
    3 / Close Order Inf 1 1 1 1 1 1'."""
    cols = ("heavy_horse", "lancers", "light_horse", "foot_firing_order", "foot", "light_foot")
    rows = {"heavy_horse": (1, 2, 2, 1, 3, 2), "lancers": (1, 1, 1, F(3, 2), 4, 4),
            "light_horse": (1, 2, 1, 1, 2, 3), "foot": (1, 1, 1, 1, 1, 1)}
    dice = tables().melee.dice
    assert {r: tuple(dice[r][c] for c in cols) for r in rows} == rows


def test_the_ruleset_is_registered_and_read_by_its_engine():
    assert loader.all_ruleset_names() == ("004", "1813", "1813-revised")
    assert "004" not in loader.ruleset_names(), "the 1813 rules list only what they read"
    assert files.engine_of("004") == "004" and files.engine_of("1813") == "1813"
    assert engine_rulesets() == ("004",)
    assert loader.ruleset_info("004")["engine"] == "004"
    assert any("half die" in a for a in tables().assumptions)
    with pytest.raises(RulesetError, match="'1813' is not read by the 004 rules"):
        tables("1813")
    with pytest.raises(RulesetError, match="no ruleset called 'nope'"):
        tables("nope")


def test_the_1813_manifest_leaves_the_004_files_to_their_engine():
    assert not [label for label in schema.validated_files() if label.startswith("004/")]


@pytest.mark.parametrize(("filename", "old", "new", "message"), [
    ("movement.toml", "foot = 7.5", "foot = nan",
     "house004/movement.toml: distance_cm.foot: "),
    ("movement.toml", "heavy_horse = 10.0", "heavy_horse = inf",
     "house004/movement.toml: distance_cm.heavy_horse: "),
    ("fire.toml", "light_foot = 5", "light_foot = 7",
     "house004/fire.toml: musketry.hits_on.light_foot: should be at most 6, not 7"),
    ("fire.toml", "cover = 4", "cover = 0",
     "house004/fire.toml: saves.cover: should be at least 1, not 0"),
    ("melee.toml", 'foot_firing_order = "3/2"', 'foot_firing_order = "one and a half"',
     "house004/melee.toml: dice.lancers.foot_firing_order: should be a fraction"),
    ("melee.toml", "hits_on = 4", "hits_on = 4.0",
     "house004/melee.toml: hits_on: should be a whole number, not 4.0"),
    ("morale.toml", "elite = 3", "elite = 3\nveteran = 2",
     "house004/morale.toml: passes_on: unknown"),
    ("fire.toml", 'weakened_dice = "1/2"', 'weakened_dice = "1/3"',
     "house004/fire.toml: artillery.roundshot.weakened_dice: should be whole dice or a half"),
    ("movement.toml", '"6" = "1/4"', '"7" = "1/4"',
     "house004/movement.toml: variation.faces"),
    ("movement.toml", '"1" = "-1/4", ', "",
     "house004/movement.toml: variation.faces: every face 1-6 needs a share (missing: 1)"),
])
def test_bad_numbers_are_refused_naming_file_and_entry(house, filename, old, new, message):
    _house_rule(house, filename, old, new)
    with pytest.raises(RulesetError) as caught:
        tables("house004")
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_house_copy_with_good_numbers_is_read(house):
    _house_rule(house, "morale.toml", "poor = 5", "poor = 6")
    assert tables("house004").morale.passes_on["poor"] == 6
    assert tables("004").morale.passes_on["poor"] == 5


def test_a_missing_file_is_refused(house):
    (house / "national.toml").unlink()
    _clear()
    with pytest.raises(RulesetError, match="house004/national.toml: missing"):
        tables("house004")


def test_the_committed_json_schema_is_current():
    """Regenerate with `python -m campaign1813.campaign.battle.ruleset004.schema docs/schemas`."""
    committed = REPO / "docs" / "schemas" / "ruleset-004.json"
    assert committed.read_text(encoding="utf-8") == schema004.schema_text()


def test_the_shipped_files_fit_the_json_schema():
    """The exported schema accepts the shipped files and refuses an out-of-range number."""
    document = {f: tomllib.loads((SHIPPED / f).read_text(encoding="utf-8")) for f in FILES}
    jsonschema.validate(document, schema004.json_schema())
    document["morale.toml"]["passes_on"]["poor"] = 9
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema004.json_schema())
    assert '"null"' not in schema004.schema_text()


def test_the_schema_writer(tmp_path, capsys):
    assert schema004.main([str(tmp_path)]) == 0
    written = json.loads((tmp_path / "ruleset-004.json").read_text(encoding="utf-8"))
    assert set(written["properties"]) == set(FILES)
    assert schema004.main([]) == 2


def test_the_1813_loader_refuses_the_004_tables():
    with pytest.raises(RulesetError, match="ruleset '004' has rules of its own .engine 004.; "
                                           "the 1813 rules cannot read its fire.toml"):
        loader.load_table("004", "fire.toml")


def test_every_assumption_is_in_the_docs():
    text = (REPO / "docs" / "ruleset-004.md").read_text(encoding="utf-8")
    assert tables().assumptions and all(f"- {a}\n" in text for a in tables().assumptions)
