"""Ruleset 004's data: the seed's numbers as shipped, refused when malformed, its JSON Schema."""

import json
import os
import shutil
import subprocess
import sys
import tomllib
from fractions import Fraction as F
from pathlib import Path

import jsonschema
import pytest

from campaign1813.campaign.battle import files, registry
from campaign1813.campaign.battle.files import RulesetError
from campaign1813.campaign.battle.ruleset004 import schema as schema004
from campaign1813.campaign.battle.ruleset004.tables import FILES, PACKAGE, tables, tables_at
from campaign1813.campaign.battle.ruleset1813.rules import loader, schema
from campaign1813.data import data_root

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path(str(data_root())) / "rulesets" / "004"


@pytest.fixture
def house(tmp_path):
    """A house-ruled copy of ruleset 004's folder, read by ``tables_at``."""
    folder = tmp_path / "house004"
    shutil.copytree(SHIPPED, folder)
    return folder


def _house_rule(folder, name, old, new):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


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


def test_the_ruleset_is_registered_with_its_own_engine():
    assert "004" in registry.all_ruleset_names()
    assert registry.own_engine("004").startswith(PACKAGE + ".")
    assert "004" not in registry.ruleset_names(), "the 1813 rules list only what they read"
    assert loader.ruleset_info("004")["name"] == "004"
    assert any("half die" in a for a in tables().assumptions) and tables().title
    with pytest.raises(RulesetError, match="'1813' is not read by the 004 rules"):
        tables("1813")
    with pytest.raises(RulesetError, match="no ruleset called 'nope'"):
        tables("nope")


def test_the_1813_manifest_and_loader_leave_the_004_files_to_their_engine():
    assert not [label for label in schema.validated_files() if label.startswith("004/")]
    with pytest.raises(RulesetError, match="ruleset '004' has rules of its own .*ruleset004.; "
                                           "the 1813 rules cannot read its fire.toml"):
        loader.load_table("004", "fire.toml")


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
    ("ruleset.toml", 'name = "004"', 'nom = "004"', "house004/ruleset.toml: unknown entry nom"),
])
def test_bad_numbers_are_refused_naming_file_and_entry(house, filename, old, new, message):
    _house_rule(house, filename, old, new)
    with pytest.raises(RulesetError) as caught:
        tables_at(house, "house004")
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_house_copy_with_good_numbers_is_read(house):
    _house_rule(house, "morale.toml", "poor = 5", "poor = 6")
    assert tables_at(house, "house004").morale.passes_on["poor"] == 6
    assert tables("004").morale.passes_on["poor"] == 5


def test_a_missing_file_is_refused(house):
    (house / "national.toml").unlink()
    with pytest.raises(RulesetError, match="house004/national.toml: missing"):
        tables_at(house, "house004")


def test_only_a_changed_file_is_checked(house, monkeypatch):
    checked = []
    monkeypatch.setattr(schema004, "check_file", lambda f, data, label: checked.append(label))
    tables_at(house, "house004")
    assert checked == []
    _house_rule(house, "morale.toml", "poor = 5", "poor = 6")
    tables_at(house, "house004")
    assert checked == ["house004/morale.toml"]
    (house / "validated.json").unlink()
    checked.clear()
    tables_at(house, "house004")
    assert checked == [f"house004/{f}" for f in FILES]


def test_reading_the_tables_imports_no_pydantic():
    code = ("import sys\n"
            "from campaign1813.campaign.battle.ruleset004.fire import musketry_odds\n"
            "from campaign1813.campaign.battle.ruleset004.tables import tables\n"
            "tables()\n"
            "print('pydantic' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    assert out.stdout.strip() == "False"


def test_the_manifest_is_current():
    """Regenerate with `python -m campaign1813.campaign.battle.ruleset004.schema docs/schemas`."""
    assert (SHIPPED / "validated.json").read_text(encoding="utf-8") == schema004.manifest_text()


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


def test_the_schema_writer(tmp_path, capsys, monkeypatch):
    root = tmp_path / "data"
    shutil.copytree(str(data_root() / "rulesets"), root / "rulesets")
    monkeypatch.setattr(files, "data_root", lambda: root)
    assert schema004.main([str(tmp_path / "schemas")]) == 0
    written = json.loads((tmp_path / "schemas" / "ruleset-004.json").read_text(encoding="utf-8"))
    assert set(written["properties"]) == set(FILES)
    assert (root / "rulesets" / "004" / "validated.json").read_bytes() == (
        SHIPPED / "validated.json").read_bytes()
    _house_rule(root / "rulesets" / "004", "fire.toml", "cover = 4", "cover = 9")
    assert schema004.main([str(tmp_path / "schemas")]) == 1
    assert "004/fire.toml: saves.cover: should be at most 6" in capsys.readouterr().err
    assert schema004.main([]) == 2


def test_every_assumption_is_in_the_docs():
    text = (REPO / "docs" / "ruleset-004.md").read_text(encoding="utf-8")
    assert tables().assumptions and all(f"- {a}\n" in text for a in tables().assumptions)


def test_the_tables_read_exactly_the_files_the_schema_checks():
    """The loader's file list and the schema's models name the same six files, in order."""
    assert FILES == tuple(schema004.MODELS)
