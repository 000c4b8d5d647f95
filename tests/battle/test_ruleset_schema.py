"""Every ruleset file has a model: shipped files fit it, house-ruled ones are checked against it,
the JSON Schemas in docs/schemas and the manifest of validated files are current."""

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import get_args

import pytest

from campaign1813.campaign.battle import files
from campaign1813.campaign.battle.dice import DICE
from campaign1813.campaign.battle.ruleset1813.rules import loader, schema, tables
from campaign1813.campaign.battle.ruleset1813.rules.loader import (
    RulesetError,
    load_table,
    ruleset_info,
)
from campaign1813.campaign.battle.ruleset1813.rules.spotting import Spotter
from campaign1813.campaign.battle.terms import Arm, Calibre, CorpsOrder, MoraleState
from campaign1813.data import data_root

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "docs" / "schemas"
SHIPPED = [(name, path.name) for name in ("1813", "1813-revised")
           for path in sorted((Path(str(data_root())) / "rulesets" / name).glob("*.toml"))]


def _clear():
    ruleset_info.cache_clear()
    load_table.cache_clear()


@pytest.fixture
def house(tmp_path, monkeypatch):
    """A copy of the shipped rulesets (and manifest) plus a house ruleset extending 1813."""
    root = tmp_path / "data"
    shutil.copytree(str(data_root() / "rulesets"), root / "rulesets")
    folder = root / "rulesets" / "house"
    folder.mkdir()
    (folder / "ruleset.toml").write_text('name = "house"\nextends = "1813"\n')
    monkeypatch.setattr(files, "data_root", lambda: root)
    _clear()
    yield folder
    _clear()


def _house_rule(folder, name, old, new):
    text = (folder.parent / "1813" / name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    _clear()


@pytest.mark.parametrize(("ruleset", "filename"), SHIPPED)
def test_every_shipped_file_fits_its_model(ruleset, filename):
    raw = (Path(str(data_root())) / "rulesets" / ruleset / filename).read_bytes()
    schema.check_table(filename, tomllib.loads(raw.decode()), f"{ruleset}/{filename}")


def test_every_table_file_a_ruleset_reads_has_a_model():
    assert {filename for _, filename in SHIPPED} == set(schema.MODELS)


def test_the_manifest_lists_exactly_the_shipped_files():
    """Regenerate with
    `python -m campaign1813.campaign.battle.ruleset1813.rules.schema docs/schemas`."""
    path = Path(str(data_root())) / "rulesets" / loader.MANIFEST
    assert path.read_text(encoding="utf-8") == schema.manifest_text()
    listed = json.loads(path.read_text(encoding="utf-8"))["files"]
    assert sorted(listed) == sorted(f"{r}/{f}" for r, f in SHIPPED)


@pytest.mark.parametrize("filename", sorted(schema.MODELS))
def test_the_committed_json_schema_is_current(filename):
    """Regenerate with
    `python -m campaign1813.campaign.battle.ruleset1813.rules.schema docs/schemas`."""
    committed = SCHEMAS / schema.schema_name(filename)
    assert committed.read_text(encoding="utf-8") == schema.schema_text(filename)


def test_the_schemas_describe_toml_not_json():
    """No null in TOML: an optional entry may be left out, never written as null."""
    text = "".join(schema.schema_text(f) for f in schema.MODELS)
    assert '"null"' not in text and '"default": null' not in text
    fire = schema.json_schema("fire.toml")
    assert fire["additionalProperties"] is False
    assert set(fire["$defs"]["Ranges"]["properties"]) == {c.value for c in Calibre}


def test_the_vocabulary_is_the_engines():
    assert set(get_args(schema.ArmName)) == {a.value for a in Arm}
    assert set(get_args(schema.StateName)) == {s.value for s in MoraleState}
    assert set(get_args(schema.OrderName)) == {o.value for o in CorpsOrder}
    assert set(get_args(schema.SpotterName)) == {s.value for s in Spotter}
    assert set(get_args(schema.DieName)) == set(DICE)
    assert get_args(schema.ChargeTarget) == tables.CHARGE_TARGETS
    assert get_args(schema.EscapeFact) == tables.ESCAPE_FACTS
    assert get_args(schema.AdvanceDuty) == tables.ADVANCE_DUTIES
    assert get_args(schema.ChargeLicence) == tables.CHARGE_LICENCES
    assert get_args(schema.FireLicence) == tables.CHARGE_LICENCES[:3]
    assert get_args(schema.InfantryCharge) == tables.INFANTRY_CHARGE

    def keys(model):
        return tuple(f.alias or name for name, f in model.model_fields.items())

    assert keys(schema.ChargeModifiers) == tables.CHARGE_MODIFIERS
    assert keys(schema.ReactionModifiers) == tables.REACTION_MODIFIERS
    assert keys(schema.FireModifiers) == tables.FIRE_MODIFIERS
    assert keys(schema.CrestModifiers) == tables.CREST_MODIFIERS
    assert keys(schema.Allowance) == tuple(m.value for m in tables.Mover)
    assert keys(schema.CorpsCosts) == tuple(a.value for a in tables.CorpsAction)
    assert keys(schema.ReactionKinds) == tuple(r.value for r in tables.Reaction)
    assert set(keys(schema.QuickCases)) == {c.value for c in tables.QuickCase}
    assert keys(schema.ToHit) == tuple(t.value for t in tables.Target)
    assert keys(schema.Orders) == tuple(o.value for o in CorpsOrder)
    assert keys(schema.Ranges) == tuple(c.value for c in Calibre)


@pytest.mark.parametrize(("filename", "old", "new", "message"), [
    # wrong type
    ("fire.toml", "infantry = 6", 'infantry = "x"',
     "house/fire.toml: to_hit.short.infantry: should be a whole number, not 'x'"),
    ("orders.toml", "may_approach = false", 'may_approach = "no"',
     "house/orders.toml: orders.Halt.may_approach: should be true or false, not 'no'"),
    ("combat.toml", 'title = "Infantry firefight"', "title = 12",
     "house/combat.toml: rules.12.title: should be text, not 12"),
    ("command.toml", 'base_contact_nations = ["Spanish"]', 'base_contact_nations = "Spanish"',
     "house/command.toml: corps.base_contact_nations: should be a list, not 'Spanish'"),
    ("morale.toml", "when = { class = \"A\" }", "when = 3",
     "house/morale.toml: test.modifiers[0].when: should be a table or a list, not 3"),
    ("movement.toml", 'fraction = "1/2"', 'fraction = "half"',
     "house/movement.toml: difficult_terrain.fraction: should be a fraction such as \"1/2\", "
     "not 'half'"),
    ("fire.toml", 'dice = "2d6"', 'dice = "3d7"',
     "house/fire.toml: dice: should be a die such as d6, 2d6, d10 or average (at most 9 dice), "
     "not '3d7'"),
    ("quick.toml", 'state = "disordered"', 'state = "tired"',
     "house/quick.toml: after_combat.state: 'tired' is not a morale state "
     "(formed, disordered, shaken or rout)"),
    ("fire.toml", "bounce_through_inches = 4", "bounce_through_inches = -4",
     "house/fire.toml: bounce_through_inches: should be at least 0, not -4"),
    # unknown key
    ("fire.toml", "[to_hit.short]\n", "[to_hit.short]\nsnipers = 4\n",
     "house/fire.toml: to_hit.short: unknown target snipers "
     "(known: infantry, cavalry, woods, buildings, artillery)"),
    ("fire.toml", 'dice = "2d6"', 'dice = "2d6"\nweather = "rain"',
     "house/fire.toml: unknown entry weather (known: dice, two_hits_multiplier"),
    ("opportunity.toml", "[reaction.kinds.evade]", "[reaction.kinds.flee]",
     "house/opportunity.toml: reaction.kinds: unknown reaction flee (known: evade, "),
    ("combat.toml", "retire = 4 }, loser", "retreat = 4 }, loser",
     "house/combat.toml: tables.rule9.rows.any[1].winner: unknown effect retreat "
     "(known: casualties, state, retire, halt)"),
    # missing key
    ("fire.toml", "two_hits_multiplier = 2\n", "",
     "house/fire.toml: two_hits_multiplier: is missing"),
    ("command.toml", "Poor = 1\n", "", "house/command.toml: pips.bonus.Poor: is missing"),
    ("combat.toml", 'table = "rule9"\n', "",
     "house/combat.toml: rules.9.table: is missing"),
])
def test_a_malformed_house_rule_names_file_entry_and_reason(house, filename, old, new, message):
    _house_rule(house, filename, old, new)
    with pytest.raises(RulesetError) as exc:
        load_table("house", filename)
    assert str(exc.value).startswith(message)


def test_a_malformed_ruleset_toml_is_refused(house):
    (house / "ruleset.toml").write_text('name = "house"\nextend = "1813"\n')
    _clear()
    with pytest.raises(RulesetError, match=r"^house/ruleset.toml: unknown entry extend \(known: "
                                           r"name, title, extends, assumptions\)$"):
        ruleset_info("house")
    (house / "ruleset.toml").write_text('extends = "1813"\nassumptions = ["a", 2]\n')
    _clear()
    with pytest.raises(RulesetError, match=r"^house/ruleset.toml: name: is missing; and 1 more "
                                           r"problem$"):
        ruleset_info("house")


def test_every_problem_is_counted(house):
    _house_rule(house, "fire.toml", "[to_hit.long]\ninfantry = 8\ncavalry = 8",
                '[to_hit.long]\ninfantry = "8"\ncavalry = "8"')
    with pytest.raises(RulesetError, match=r"to_hit.long.infantry: should be a whole number, "
                                           r"not '8'; and 1 more problem$"):
        load_table("house", "fire.toml")


def test_a_house_ruled_file_is_checked_and_a_shipped_one_is_not(house, monkeypatch):
    checked = []
    real = schema.check_table
    monkeypatch.setattr(schema, "check_table",
                        lambda name, data, label: (checked.append(label), real(name, data, label)))
    load_table("house", "fire.toml")            # the shipped 1813 file
    assert checked == ["house/ruleset.toml"]    # the house ruleset.toml is not shipped
    _house_rule(house, "fire.toml", "infantry = 6", "infantry = 5")
    checked.clear()
    assert load_table("house", "fire.toml")["to_hit"]["short"]["infantry"] == 5
    assert checked == ["house/ruleset.toml", "house/fire.toml"]


def test_an_unchanged_copy_is_known_whatever_its_line_endings(house, monkeypatch):
    monkeypatch.setattr(schema, "check_table", lambda *a: pytest.fail(f"checked {a[2]}"))
    text = (house.parent / "1813" / "combat.toml").read_bytes()
    (house / "combat.toml").write_bytes(text.replace(b"\n", b"\r\n"))
    (house / "ruleset.toml").unlink()
    shutil.copy(house.parent / "1813-revised" / "ruleset.toml", house / "ruleset.toml")
    _clear()
    assert load_table("house", "combat.toml") == load_table("1813", "combat.toml")


def test_without_a_manifest_every_file_is_checked(house, monkeypatch):
    (house.parent / loader.MANIFEST).unlink()
    _clear()
    checked = []
    monkeypatch.setattr(schema, "check_table", lambda name, data, label: checked.append(label))
    load_table("1813-revised", "fire.toml")
    assert checked == ["1813-revised/ruleset.toml", "1813-revised/fire.toml"]


def test_a_file_no_ruleset_has_is_refused():
    with pytest.raises(RulesetError, match="^1813/notes.toml: not a file a ruleset has"):
        schema.check_table("notes.toml", {}, "1813/notes.toml")


def test_loading_the_shipped_rulesets_imports_neither_pydantic_nor_the_database():
    """pydantic alone takes longer to import than `campaign1813 odds` may take to start."""
    code = (
        "import sys\n"
        "from campaign1813.campaign.battle.ruleset1813.rules import (artillery, tables, combat,\n"
        "                                                          morale)\n"
        "from campaign1813.campaign.battle.ruleset1813.rules.loader import load_table\n"
        f"for ruleset, name in {SHIPPED!r}:\n"
        "    load_table(ruleset, name)\n"
        "    load_table('1813-revised', name)\n"
        "tables.fire_table('1813-revised'); combat.combat_rules(); morale.morale_rules()\n"
        "heavy = ('pydantic', 'pydantic_core', 'sqlalchemy', 'sqlmodel', 'networkx')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip() == "[]"


def test_the_writer_writes_schemas_and_manifest(house, tmp_path, capsys):
    folder = tmp_path / "schemas"
    assert schema.main([str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        schema.schema_name(f) for f in schema.MODELS)
    assert (folder / "ruleset-fire.json").read_text() == schema.schema_text("fire.toml")
    manifest = json.loads((house.parent / loader.MANIFEST).read_text())["files"]
    assert set(manifest) == {f"{r}/{f}" for r, f in SHIPPED} | {"house/ruleset.toml"}
    assert manifest["house/ruleset.toml"] == loader.content_hash(
        (house / "ruleset.toml").read_bytes())
    assert str(folder / "ruleset.json") in capsys.readouterr().out
    assert schema.main([]) == 2


def test_the_writer_refuses_a_shipped_file_that_does_not_fit(house, tmp_path, capsys):
    shipped = house.parent / "1813" / "fire.toml"
    shipped.write_text(shipped.read_text().replace("infantry = 6", 'infantry = "six"', 1))
    before = (house.parent / loader.MANIFEST).read_text()
    assert schema.main([str(tmp_path / "schemas")]) == 1
    assert "1813/fire.toml: to_hit.short.infantry" in capsys.readouterr().err
    assert (house.parent / loader.MANIFEST).read_text() == before
    assert not (tmp_path / "schemas").exists()
