"""The tables of Rules 1-8: which file each ruleset reads, and errors naming file, entry, reason."""

import copy

import pytest

from campaign1813.campaign.battle.ruleset1813.rules import tables
from campaign1813.campaign.battle.ruleset1813.rules.loader import (
    RulesetError,
    assumptions,
    load_table,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables import base

OLD, NEW = "1813", "1813-revised"
LOADERS = {
    "spotting.toml": tables.spotting_table, "command.toml": tables.command_table,
    "orders.toml": tables.orders_table, "movement.toml": tables.movement_table,
    "opportunity.toml": tables.opportunity_table, "fire.toml": tables.fire_table,
    "quick.toml": tables.quick_table,
}


def test_revision_replaces_the_tables_of_rules_4_to_8_only():
    """DESIGN 4.4: seed 003 revises Rules 4-8 as ruleset 1813-revised, the same engine with its
    own tables; Rules 1-3 and the unchanged movement table come from 1813."""
    sources = {name: load(NEW).source for name, load in LOADERS.items()}
    assert sources == {
        "spotting.toml": "1813/spotting.toml", "command.toml": "1813/command.toml",
        "orders.toml": "1813-revised/orders.toml", "movement.toml": "1813/movement.toml",
        "opportunity.toml": "1813-revised/opportunity.toml",
        "fire.toml": "1813-revised/fire.toml", "quick.toml": "1813-revised/quick.toml"}
    for load in LOADERS.values():
        assert load(OLD).source.startswith("1813/")


def test_assumptions_are_recorded_and_inherited():
    old, new = assumptions(OLD), assumptions(NEW)
    assert any("average die has faces 2, 3, 3, 4, 4, 5" in a for a in old)
    assert any(a.startswith("Rule 7:") for a in old)
    assert new[:len(old)] == old and len(new) > len(old)
    assert any("20 % is 2 infantry" in a for a in new)


def broken(monkeypatch, filename, change):
    """Serve a changed copy of the 1813 table and read it afresh, bypassing the cache."""
    data = copy.deepcopy(load_table(OLD, filename))
    change(data)

    def fake(ruleset, name):
        return data if name == filename else load_table(ruleset, name)

    monkeypatch.setattr(base, "load_table", fake)
    return LOADERS[filename].__wrapped__(OLD)


@pytest.mark.parametrize(("filename", "change", "message"), [
    ("fire.toml", lambda d: d["to_hit"]["short"].pop("woods"),
     "1813/fire.toml: entry 'to_hit.short.woods' is missing"),
    ("fire.toml", lambda d: d["to_hit"]["long"].update(infantry="eight"),
     "entry 'to_hit.long.infantry' should be a whole number, not 'eight'"),
    ("fire.toml", lambda d: d.update(dice="3d7"),
     "entry 'dice' is '3d7'; expected a die such as d6"),
    ("fire.toml", lambda d: d["range"]["12"].update(long=5),
     "entry 'range.12.long' should be further than short range (10 inches)"),
    ("fire.toml", lambda d: d["modifiers"].update(weather={"value": -1, "label": "rain"}),
     "entry 'modifiers.weather' is not a modifier this rule knows"),
    ("fire.toml", lambda d: d["range"].update({"12": 10}),
     "entry 'range.12' should be a table, not 10"),
    ("fire.toml", lambda d: d.update(bounce_through_inches=-4),
     "entry 'bounce_through_inches' should not be negative"),
    ("fire.toml", lambda d: d.update(friendly_clearance_inches="one"),
     "entry 'friendly_clearance_inches' should be a distance in inches, not 'one'"),
    ("fire.toml", lambda d: d.update(two_hits_multiplier=0),
     "entry 'two_hits_multiplier' should be at least 1, not 0"),
    ("spotting.toml", lambda d: d["bands"]["open"][1].update(need=11),
     "entry 'bands.open[1].need' is 11, more than the d10 can show"),
    ("spotting.toml", lambda d: d["bands"]["cover"][1].update(up_to=3),
     "entry 'bands.cover[1].up_to' should be further than the band before it"),
    ("spotting.toml", lambda d: d["bands"].update(open={"up_to": 16}),
     "entry 'bands.open' should be an array of tables"),
    ("spotting.toml", lambda d: d.update(die="2d6"), "entry 'die' should be a single die"),
    ("spotting.toml", lambda d: d["blind_pips"].update(die="2d6"),
     "entry 'blind_pips.die' should be a single die"),
    ("spotting.toml", lambda d: d["blind_pips"]["bonus"].pop("Poor"),
     "entry 'blind_pips.bonus.Poor' is missing"),
    ("command.toml", lambda d: d["corps"]["costs"].update(move=-1),
     "entry 'corps.costs.move' should be at least 0"),
    ("command.toml", lambda d: d["pips"].update(die="2d6"),
     "entry 'pips.die' should be a single die"),
    ("command.toml", lambda d: d["corps"].update(base_contact_nations="Spanish"),
     "entry 'corps.base_contact_nations' should be a list of words"),
    ("orders.toml", lambda d: d["orders"].pop("Rally"), "entry 'orders' has no rules for Rally"),
    ("orders.toml", lambda d: d["orders"].update(Charge={}),
     "entry 'orders.Charge' is not known"),
    ("orders.toml", lambda d: d["orders"]["Hold"].update(cavalry_charge="sometimes"),
     "entry 'orders.Hold.cavalry_charge' is 'sometimes'; expected one of never, within"),
    ("orders.toml", lambda d: d["orders"]["Halt"].update(may_approach="no"),
     "entry 'orders.Halt.may_approach' should be true or false, not 'no'"),
    ("orders.toml", lambda d: d["defence_zone"].update(enter_on=["Charge"]),
     "entry 'defence_zone.enter_on' has 'Charge'; expected any of Move"),
    ("movement.toml", lambda d: d["difficult_terrain"].update(fraction="half"),
     "entry 'difficult_terrain.fraction' should be a fraction such as \"1/2\", not 'half'"),
    ("movement.toml", lambda d: d["difficult_terrain"].update(fraction=2),
     "entry 'difficult_terrain.fraction' should be between 0 and 1, not 2"),
    ("opportunity.toml", lambda d: d["reaction"]["kinds"].update(charge={"test": True}),
     "entry 'reaction.kinds.charge' is not known"),
    ("opportunity.toml", lambda d: d["reaction"]["kinds"]["evade"].update(arms=["navy"]),
     "entry 'reaction.kinds.evade.arms' has 'navy'; expected any of infantry"),
    ("opportunity.toml", lambda d: d.update(die="2d6"), "entry 'die' should be a single die"),
    ("opportunity.toml", lambda d: d["charge"]["modifiers"]["a_class"].pop("label"),
     "entry 'charge.modifiers.a_class.label' is missing"),
    ("quick.toml", lambda d: d["cases"]["routers_contacted"].pop("removed"),
     "entry 'cases.routers_contacted.new_state' is missing: the case must do something"),
    ("quick.toml", lambda d: d["cases"]["routers_contacted"].update(new_state="fleeing"),
     "entry 'cases.routers_contacted.new_state' is 'fleeing'; expected one of formed"),
    ("quick.toml", lambda d: d["cases"]["routers_contacted"].update(escape=3),
     "entry 'cases.routers_contacted.escape' should be text, not 3"),
    ("quick.toml", lambda d: d["strength"].update(cavalry=0),
     "entry 'strength.cavalry' should be at least 1, not 0"),
    ("quick.toml", lambda d: d["limits"].update(cavalry_answers=["flee"]),
     "entry 'limits.cavalry_answers' has 'flee'"),
    ("quick.toml", lambda d: d.update(crest={"die": "2d6"}),
     "entry 'crest.die' should be a single die"),
    ("quick.toml", lambda d: d.update(crest={
        "die": "d6", "crest_inches": 4, "enemy_inches": 4, "modifiers": {},
        "results": [{"up_to": 2, "state": "rout"}, {"up_to": 1, "state": "shaken"}]}),
     "entry 'crest.results[1].up_to' should be higher than the row before it"),
])
def test_a_broken_table_names_file_entry_and_reason(monkeypatch, filename, change, message):
    with pytest.raises(RulesetError) as exc:
        broken(monkeypatch, filename, change)
    assert message in str(exc.value)
    assert str(exc.value).startswith(f"1813/{filename}: entry '")


def test_a_house_ruled_number_is_used(monkeypatch):
    """An umpire's house rule: infantry at short range hit on 5; the table is read afresh."""
    table = broken(monkeypatch, "fire.toml", lambda d: d["to_hit"]["short"].update(infantry=5))
    assert table.to_hit[tables.RangeBand.SHORT][tables.Target.INFANTRY] == 5


def test_a_ruleset_without_the_rules_of_1813_says_so():
    """A later ruleset (e.g. seeds 002 or 004) need not have these tables; asking is an error
    naming the ruleset and the missing file."""
    with pytest.raises(RulesetError, match="no ruleset called 'seed-004'"):
        tables.fire_table("seed-004")
