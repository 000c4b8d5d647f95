"""The combat and morale tables are data: checked at load, and house-ruled without code."""

import copy
import shutil
from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle import files
from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813.rules import (
    army,
    combat,
    loader,
    morale,
    rout,
    skirmish,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import (
    Brigade,
    CavalryWeight,
    InvalidBrigade,
    formation_named,
    worse_state,
)
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError, assumptions
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import Applied, ModifierList
from campaign1813.campaign.battle.ruleset1813.rules.quick import Contact, QuickCase, quick_result
from campaign1813.campaign.battle.terms import Arm, Formation, MoraleState
from campaign1813.data import data_root

CACHED = (loader.load_table, loader.ruleset_info, morale.morale_rules, combat.combat_rules,
          skirmish.skirmish_rules, army.break_rules)


@pytest.fixture
def house(tmp_path, monkeypatch):
    """A copy of the shipped rulesets plus an empty house ruleset that extends 1813."""
    root = tmp_path / "data"
    shutil.copytree(str(data_root() / "rulesets"), root / "rulesets")
    (root / "rulesets" / "house").mkdir()
    (root / "rulesets" / "house" / "ruleset.toml").write_text(
        'name = "house"\nextends = "1813"\nassumptions = []\n')
    monkeypatch.setattr(files, "data_root", lambda: root)
    for f in CACHED:
        f.cache_clear()
    yield root / "rulesets" / "house"
    for f in CACHED:
        f.cache_clear()


def _house_copy(folder, name, old, new):
    text = (folder.parent / "1813" / name).read_text()
    assert old in text
    (folder / name).write_text(text.replace(old, new))
    for f in CACHED:
        f.cache_clear()


def test_house_rule_morale_pass_at_four(house):
    """A house rule passing morale on 4+ needs only a data change: class B 1d6 → 1/2 pass."""
    _house_copy(house, "morale.toml", "pass_at = 3", "pass_at = 4")
    test = morale.MoraleTest(Brigade("1", Arm.INFANTRY))
    assert morale.morale_odds(test, "house")[morale.MoraleOutcome.PASS] == F(1, 2)
    assert morale.morale_odds(test, "1813")[morale.MoraleOutcome.PASS] == F(2, 3)


def test_house_rule_garrison_plus_three(house):
    """Rule 9 with a house-ruled garrison factor of +3."""
    _house_copy(house, "combat.toml", 'label = "Garrison", value = 2',
                'label = "Garrison", value = 3')
    c = combat.Combat(9, combat.CombatSide(Brigade("a", Arm.INFANTRY)),
                      combat.CombatSide(Brigade("g", Arm.INFANTRY), frozenset({"garrison"})))
    assert combat.combat_odds(c, "house").difference == 3


@pytest.mark.parametrize("old, new, message", [
    ("when = { class = \"A\" } },", "when = { colour = \"A\" } },", "unknown fact 'colour'"),
    ("{ min = 4, max = 5, result = \"Winner retires 4", "{ min = 5, max = 5, result = \"W",
     "overlap or leave a gap"),
    ('table = "rule9"', 'table = "nothing"', "no result table 'nothing'"),
    ('state = "rout" }, loser = { casualties = 1 } },',
     'state = "fled" }, loser = { casualties = 1 } },', "'fled' is not a morale state"),
    ('retire = 4 }, loser', 'retreat = 4 }, loser', "unknown effect retreat"),
    # Refused by the loader's model of combat.toml before the engine reads it.
    ('arms = ["infantry", "infantry"]', 'arms = ["infantry", "dragons"]',
     r"house/combat.toml: rules.9.arms\[1\]: 'dragons' is not an arm"),
])
def test_bad_combat_tables_are_named(house, old, new, message):
    _house_copy(house, "combat.toml", old, new)
    with pytest.raises(RulesetError, match=message):
        combat.combat_rules("house")


@pytest.mark.parametrize("old, new, message", [
    # Refused by the loader's model of morale.toml before the engine reads it.
    ("pass_at = 3", "", "house/morale.toml: test.pass_at: is missing"),
    ("infantry = 6\n", "", "house/morale.toml: automatic_rout.infantry: is missing"),
    ('rout = "shaken"', 'rout = "calm"', "'calm' is not a morale state"),
    ('["general-attached", "no-general-within-8"]', '["general-attached", "nobody"]',
     "must name two declared facts"),
])
def test_bad_morale_tables_are_named(house, old, new, message):
    _house_copy(house, "morale.toml", old, new)
    with pytest.raises(RulesetError, match=message):
        morale.morale_rules("house")


def test_bad_skirmish_army_pursuit_and_reaction_tables(house):
    _house_copy(house, "combat.toml", "kill_at = 6", "")
    with pytest.raises(RulesetError, match="house/combat.toml: skirmish.kill_at: is missing"):
        skirmish.skirmish_rules("house")
    _house_copy(house, "morale.toml", 'side_loses_at = "1/2"', 'side_loses_at = "half"')
    with pytest.raises(RulesetError,
                       match="house/morale.toml: army.side_loses_at: should be a fraction"):
        army.break_rules("house")
    _house_copy(house, "morale.toml", "pursue_at = 5", "")
    with pytest.raises(RulesetError, match="house/morale.toml: pursuit.pursue_at: is missing"):
        rout.pursuit_chance(Brigade("h", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT), "house")
    _house_copy(house, "morale.toml", 'action = "charge", result = "Charge the nearest enemy '
                'within 8', 'action = "parade", result = "x 8')
    with pytest.raises(RulesetError,
                       match=r"pursuit.results\[1\].action: 'parade' is not a pursuit action"):
        rout.pursue(Brigade("h", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT), None,
                    TypedDice([6, 3]), "house")
    _house_copy(house, "morale.toml", 'other = "test"', 'other = "pray"')
    with pytest.raises(RulesetError, match="reaction.other: 'pray' is not a reaction to rout"):
        rout.rout_reaction(Brigade("a", Arm.INFANTRY), (rout.Nearby(Brigade("b", Arm.INFANTRY)),),
                           "house")


def _unchecked(monkeypatch, module, filename, change):
    """Serve the engine a changed copy of a 1813 table that has not been through the loader."""
    data = copy.deepcopy(loader.load_table("1813", filename))
    change(data)
    monkeypatch.setattr(module, "load_table",
                        lambda ruleset, name: data if name == filename else
                        loader.load_table(ruleset, name))
    for f in CACHED:
        f.cache_clear()


@pytest.mark.parametrize("module, filename, change, call, message", [
    (morale, "morale.toml", lambda d: d["test"].pop("pass_at"),
     lambda: morale.morale_rules("1813"), "malformed or missing entry"),
    (morale, "morale.toml", lambda d: d["automatic_rout"].pop("infantry"),
     lambda: morale.morale_rules("1813"), "automatic rout and rout move need infantry"),
    (combat, "combat.toml", lambda d: d["rules"]["9"].update(arms=["infantry", "dragons"]),
     lambda: combat.combat_rules("1813"), "malformed"),
    (skirmish, "combat.toml", lambda d: d["skirmish"].pop("kill_at"),
     lambda: skirmish.skirmish_rules("1813"), r"\[skirmish\]"),
    (army, "morale.toml", lambda d: d["army"].update(side_loses_at="half"),
     lambda: army.break_rules("1813"), r"\[army\]"),
    (morale, "morale.toml", lambda d: d["pursuit"].pop("pursue_at"),
     lambda: rout.pursuit_chance(Brigade("h", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT)),
     r"\[pursuit\]"),
    (morale, "morale.toml", lambda d: d["pursuit"]["results"][1].update(action="parade"),
     lambda: rout.pursue(Brigade("h", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT), None,
                         TypedDice([6, 3])), "unknown action 'parade'"),
    (morale, "morale.toml", lambda d: d["reaction"].update(other="pray"),
     lambda: rout.rout_reaction(Brigade("a", Arm.INFANTRY),
                                (rout.Nearby(Brigade("b", Arm.INFANTRY)),)),
     "unknown action 'pray'"),
])
def test_the_engine_still_names_a_bad_table_the_loader_did_not_check(
        monkeypatch, module, filename, change, call, message):
    """The loader refuses these files first; the engine's own checks stay behind it."""
    _unchecked(monkeypatch, module, filename, change)
    try:
        with pytest.raises(RulesetError, match=message):
            call()
    finally:
        monkeypatch.undo()
        for f in CACHED:
            f.cache_clear()


@pytest.mark.parametrize("raw, message", [
    ([{"key": "a", "label": "A"}], "needs key, label and value"),
    ([{"key": "a", "label": "A", "value": "one"}], "value must be a whole number"),
    ([{"key": "a", "label": "A", "value": 1}, {"key": "a", "label": "B", "value": 1}],
     "used twice"),
    ([{"key": "a", "label": "A", "value": 1, "when": 3}], "'when' must be a table"),
    ([{"key": "a", "label": "A", "value": 1, "per": "legs"}], "unknown count 'legs'"),
])
def test_modifier_list_errors(raw, message):
    with pytest.raises(RulesetError, match=message):
        ModifierList.parse(raw, "test", frozenset({"class"}), {})


def test_modifier_group_keeps_the_largest_in_its_first_place():
    mods = ModifierList.parse([
        {"key": "small", "label": "S", "value": 1, "group": "g"},
        {"key": "other", "label": "O", "value": -1},
        {"key": "big", "label": "B", "value": 3, "group": "g"},
    ], "test", frozenset(), {})
    assert mods.applied({}) == (Applied("big", "B", 3), Applied("other", "O", -1))
    assert str(Applied("casualties", "Each casualty", -2)) == "−2 Each casualty"


def test_brigade_checks():
    with pytest.raises(InvalidBrigade, match="negative"):
        Brigade("x", Arm.INFANTRY, casualties=-1)
    with pytest.raises(InvalidBrigade, match="only cavalry"):
        Brigade("x", Arm.INFANTRY, lancers=True)
    with pytest.raises(InvalidBrigade, match="cannot stand in square"):
        Brigade("x", Arm.CAVALRY, cavalry=CavalryWeight.HEAVY, formation=Formation.SQUARE)
    assert formation_named(Arm.CAVALRY, "line") is Formation.CAVALRY_LINE
    assert formation_named(Arm.INFANTRY, "COA") is Formation.COLUMN_OF_ATTACK
    assert formation_named(Arm.ARTILLERY, "unlimbered") is Formation.UNLIMBERED
    assert worse_state(MoraleState.SHAKEN, MoraleState.DISORDERED) is MoraleState.SHAKEN
    b = Brigade("x", Arm.INFANTRY, casualties=1).with_effect(2, MoraleState.SHAKEN)
    assert (b.casualties, b.state) == (3, MoraleState.SHAKEN)


def test_readings_are_recorded_as_assumptions():
    """DESIGN 4.4: the readings of Rules 9-18 are in the ruleset's assumptions, inherited."""
    text = " ".join(assumptions("1813-revised")).lower()
    for phrase in ("equal totals", "rule 13's table", "square", "6 or more",
                   "3 or more passes", "half or more"):
        assert phrase in text


def test_house_rule_rout_reach_of_8_inches_as_in_the_demo(house):
    """Rule 16 says friends within 4" react to a rout; the demo battle used 8". A house rule
    of 8" reaches the reaction named by a morale rout (Rule 17) and by a quick result (Rule 8)."""
    _house_copy(house, "morale.toml", "[reaction]\nwithin = 4", "[reaction]\nwithin = 8")
    _, follow = morale.rout_effect(Brigade("16 Brigade", Arm.INFANTRY), "house")
    assert follow[0].who.startswith('friendly brigades within 8" of 16 Brigade')
    caught = Contact("16 Brigade", Arm.INFANTRY, MoraleState.FORMED,
                     QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY, by="Prussian hussars",
                     by_arm=Arm.CAVALRY)
    assert quick_result(caught, "house").follow_ons[0].who == (
        "friendly brigades within 8 inches of 16 Brigade")
    assert quick_result(caught, "1813").follow_ons[0].who == (
        "friendly brigades within 4 inches of 16 Brigade")
