"""Ruleset 004: campaign corps converted to units by the documented mapping, and auto-resolve
deterministic for a seed with a sane estimate."""

from dataclasses import replace

import pytest

from campaign1813.campaign.battle.core.results import AutoOdds, AutoResult
from campaign1813.campaign.battle.ruleset004.autoresolve import estimate, resolve
from campaign1813.campaign.battle.ruleset004.convert import (
    MAPPING_HEADERS,
    convert,
    mapping_rows,
)
from campaign1813.campaign.battle.ruleset004.units import Kind, Quality
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.battle.terms import CavalryWeight, Grade, Rating
from campaign1813.campaign.errors import CampaignError
from tests.battle.setups import setup


def test_brigades_become_units_one_for_one_and_each_army_has_its_general():
    s = setup(["B"], ["B"], ruleset="004")
    forces = convert(s)
    assert len(forces.french.units) == 6 + 1 and len(forces.allied.units) == 6 + 1
    kinds = [u.kind for u in forces.french.units]
    assert kinds == [Kind.FOOT] * 4 + [Kind.HEAVY_HORSE, Kind.GUNS, Kind.GENERAL]
    assert {u.quality for u in forces.units} == {Quality.REGULAR}
    assert forces.unit("1 French Corps/1").name == "1 Infantry Brigade (1 French Corps)"


def test_grades_and_ratings_give_quality():
    """Gifted elite, Average regular, Poor poor; an A brigade one better, C one worse."""
    s = setup(["A"], ["C"], ruleset="004")
    forces = convert(s)
    assert forces.french.units[0].quality is Quality.ELITE
    assert forces.allied.units[0].quality is Quality.POOR
    gifted = replace(s, commanders=tuple(replace(c, grade=Grade.GIFTED) if c.side == ALLIED
                                         else replace(c, grade=Grade.POOR)
                                         for c in s.commanders))
    forces = convert(gifted)
    assert forces.allied.units[0].quality is Quality.REGULAR  # Gifted, rated C
    assert forces.french.units[0].quality is Quality.REGULAR  # Poor, rated A
    assert forces.allied.units[-1].quality is Quality.ELITE   # the Gifted general


def test_cavalry_light_foot_cuirassiers_and_casualties_carried():
    s = setup(["B"], ["B"], ruleset="004")
    b = list(s.brigades)
    b[0] = replace(b[0], skirmish=Rating.A)
    b[4] = replace(b[4], cavalry=CavalryWeight.HEAVY, rating=Rating.A)
    b[10] = replace(b[10], cavalry=CavalryWeight.LIGHT, lancers=True)
    b[1] = replace(b[1], casualties=3)   # 3 of the infantry rout point 6: half, 2 steps lost
    b[2] = replace(b[2], casualties=6)   # never the last step
    carried = replace(s, brigades=tuple(b), carry_casualties=True)
    forces = convert(carried)
    units = {u.key: u for u in forces.units}
    assert units[b[0].key].kind is Kind.LIGHT_FOOT
    assert units[b[4].key].kind is Kind.HEAVY_HORSE and units[b[4].key].cuirassiers
    assert units[b[10].key].kind is Kind.LANCERS
    assert (units[b[1].key].steps, units[b[2].key].steps) == (2, 1)
    assert convert(replace(carried, carry_casualties=False)).unit(b[1].key).steps == 4
    rows = mapping_rows(carried)
    assert len(rows[0]) == len(MAPPING_HEADERS)
    assert rows[4][3] == "heavy horse (cuirassiers)" and rows[1][5] == "50 %"
    with pytest.raises(CampaignError, match="no national characteristics called 'x'"):
        convert(s, {"Prussian": "x"})


def test_a_cinc_is_the_general():
    s = setup(["B"], ["B"], cinc=True, ruleset="004")
    assert convert(s).french.units[-1].name == "French CinC"


def test_auto_resolve_is_the_same_battle_for_a_seed():
    s = setup(["B"], ["B"], ruleset="004")
    one, again = resolve(s, 11), resolve(s, 11)
    assert isinstance(one, AutoResult) and one == again
    assert one.report[0] == "Turn 1" and one.report[-1].startswith("Result:")
    assert resolve(s, 12).report != one.report
    assert {b.key for b in one.brigades} == {b.key for b in s.brigades}
    assert all(b.destroyed == (b.casualties == 4) for b in one.brigades)


def test_the_estimate_is_sane():
    strong = setup(["A", "A"], ["C"], ruleset="004")
    odds = estimate(strong, 60, seed=3)
    assert isinstance(odds, AutoOdds) and odds.runs == 60 and not odds.cancelled
    assert odds.french.count + odds.allied.count + odds.draw.count == 60
    assert odds.french.count > 50, "two A corps against one C corps nearly always win"
    assert odds.french.low > 0.9 and odds.allied.high < 0.1
    assert estimate(strong, 60, seed=3) == odds
    even = estimate(setup(["B"], ["B"], ruleset="004"), 60, seed=3)
    assert even.french.count > 10 and even.allied.count > 10, "an even battle goes both ways"
    assert even.french.low < even.french.fraction < even.french.high


def test_the_estimate_can_be_stopped():
    s = setup(["B"], ["B"], ruleset="004")
    seen = []
    odds = estimate(s, 200, progress=lambda done, total: seen.append(done) or done < 20)
    assert odds.cancelled and odds.runs == 20 and seen == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    with pytest.raises(ValueError, match="at least one run"):
        estimate(s, 0)
    assert odds.french.outcome == FRENCH
