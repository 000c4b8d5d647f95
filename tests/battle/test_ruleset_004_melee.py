"""Seed 004, MELEES: the dice matrix with half dice, extra dice, saves, the verdict, charges."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset004.melee import (
    Fighter,
    Verdict,
    may_charge,
    melee,
    melee_odds,
    melee_pool,
)
from campaign1813.campaign.battle.ruleset004.pools import Pool
from campaign1813.campaign.battle.ruleset004.units import Kind
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused

A, D, TIE = Verdict.ATTACKER_RETREATS, Verdict.DEFENDER_RETREATS, Verdict.ANOTHER_ROUND


def test_a_matrix_entry_per_step():
    """seed 004: 'Roll the following number of dice per 25 per cent of effectiveness remaining'
    — Heavy Cav against 'all other close-order infantry' (^): 3 a step, 12 dice at 100 %;
    against foot 'in firing order and attacked frontally' (*): 1 a step."""
    heavy = Fighter(Kind.HEAVY_HORSE, 4)
    assert melee_pool(heavy, Fighter(Kind.FOOT, 4, firing_order=False)) == Pool(12)
    assert melee_pool(heavy, Fighter(Kind.FOOT, 4, frontal=False)) == Pool(12)
    assert melee_pool(heavy, Fighter(Kind.FOOT, 4)) == Pool(4)


def test_lancers_half_dice_against_foot_in_firing_order():
    """seed 004: Lancers against Cl Ord Inf* throw 1.5 a step, and 'A half-die has a 50:50 chance
    of becoming a full die': at 75 %, 4½ dice hitting on 4-6: P(no hit) = 1/2·(1/2)^4 +
    1/2·(1/2)^5 = 3/64; at 25 %, 1½ dice: P(0) = 3/8, P(1) = 1/2, P(2) = 1/8."""
    foot = Fighter(Kind.FOOT, 4)
    odds = melee_odds(Fighter(Kind.LANCERS, 3), foot)
    assert odds.attacker_pool == Pool(4, half=True)
    assert odds.defender_suffers[0] == F(3, 64)
    weak = melee_odds(Fighter(Kind.LANCERS, 1), foot)
    assert weak.defender_suffers == {0: F(3, 8), 1: F(1, 2), 2: F(1, 8)}


def test_an_extra_die_per_step_in_flank():
    """seed 004: 'Throw an extra die per 25 per cent effectiveness when attacking in flank or
    rear, on higher ground or defending a river bank or built-up area': light horse against light
    horse, 1 + 1 a step at 50 %: 4 dice."""
    assert melee_pool(Fighter(Kind.LIGHT_HORSE, 2, extra=True),
                      Fighter(Kind.LIGHT_HORSE, 4)) == Pool(4)


def test_one_die_each_and_the_verdict():
    """seed 004: 'A hit is inflicted on throwing a 4-6' and 'the unit suffering the most hits …
    retreats … A tie results in another round': heavy horse at 25 % each, one die each:
    attacker retreats 1/4, defender 1/4, another round 1/2."""
    odds = melee_odds(Fighter(Kind.HEAVY_HORSE, 1), Fighter(Kind.HEAVY_HORSE, 1))
    assert odds.verdict == {A: F(1, 4), D: F(1, 4), TIE: F(1, 2)}


def test_saving_throw_in_melee():
    """seed 004: 'Troops in cover have a saving throw of 4-6': foot against foot in cover, one die
    each: the defender suffers a hit 1/2·1/2 = 1/4, the attacker 1/2: attacker retreats 1/2·3/4
    = 3/8, defender 1/2·1/4 = 1/8, another round 1/2."""
    odds = melee_odds(Fighter(Kind.FOOT, 1), Fighter(Kind.FOOT, 1, cover=True))
    assert odds.verdict == {A: F(3, 8), D: F(1, 8), TIE: F(1, 2)}


def test_cuirassiers_save_on_six_in_melee():
    """seed 004: 'Cuirassiers have a saving throw of 6': one die at them, a hit stands
    1/2·5/6 = 5/12."""
    odds = melee_odds(Fighter(Kind.LIGHT_HORSE, 1),
                      Fighter(Kind.HEAVY_HORSE, 1, cuirassiers=True))
    assert odds.defender_suffers[1] == F(5, 12)


def test_hits_from_firing_count_in_the_melee():
    """seed 004: 'the unit suffering the most hits, including any inflicted by firing,
    retreats': one die each, the attacker already hit once by the foot firing: the attacker
    retreats unless it suffers no melee hit and the defender one: P(tie) = 1/2·1/2 = 1/4, and
    the defender never retreats."""
    odds = melee_odds(Fighter(Kind.HEAVY_HORSE, 1, fired_hits=1), Fighter(Kind.FOOT, 1))
    assert odds.verdict == {A: F(3, 4), D: F(0), TIE: F(1, 4)}
    assert odds.attacker_suffers == {1: F(1, 2), 2: F(1, 2)}


def test_light_foot_and_guns_inflict_no_casualties():
    """seed 004: 'Artillery and light infantry never charge and never inflict casualties in a
    melee. Exception: light infantry in a wood or built-up area melee as close-order foot.'
    Heavy horse throw 2 a step at light foot in the open (the sixth column), 3 at them in a wood;
    'Artillery is automatically eliminated in a melee'."""
    heavy = Fighter(Kind.HEAVY_HORSE, 2)
    odds = melee_odds(heavy, Fighter(Kind.LIGHT_FOOT, 4))
    assert odds.attacker_pool == Pool(4) and odds.defender_pool == Pool(0)
    wood = melee_odds(heavy, Fighter(Kind.LIGHT_FOOT, 4, in_wood=True, firing_order=False))
    assert wood.attacker_pool == Pool(6) and wood.defender_pool == Pool(4)
    guns = melee_odds(heavy, Fighter(Kind.GUNS, 4))
    assert guns.verdict == {Verdict.GUNS_ELIMINATED: F(1)} and guns.defender_pool == Pool(0)


def test_mollwitz_prussian_horse_hit_on_five_or_six():
    """seed 004, Mollwitz: 'Prussian horse in melees inflict a casualty on a throw of 5 or 6':
    one die: 1/3."""
    odds = melee_odds(Fighter(Kind.HEAVY_HORSE, 1, hits_on=5), Fighter(Kind.HEAVY_HORSE, 4))
    assert odds.defender_suffers == {0: F(2, 3), 1: F(1, 3)}


@pytest.mark.parametrize(("attacker", "defender", "options", "message"), [
    (Fighter(Kind.FOOT, 4), Fighter(Kind.LIGHT_HORSE, 4), {}, "may not charge horse"),
    (Fighter(Kind.GUNS, 4), Fighter(Kind.FOOT, 4), {}, "guns never charge"),
    (Fighter(Kind.LIGHT_FOOT, 4), Fighter(Kind.FOOT, 4), {}, "light foot never charge"),
    (Fighter(Kind.HEAVY_HORSE, 4), Fighter(Kind.GUNS, 4), {"foot_near_gun_cm": F(3)},
     "close-order foot within 4"),
    (Fighter(Kind.HEAVY_HORSE, 4), Fighter(Kind.FOOT, 4), {"wheel_degrees": 60},
     "no more than 45 degrees"),
    (Fighter(Kind.HEAVY_HORSE, 4), Fighter(Kind.GENERAL, 4), {}, "general is not charged"),
])
def test_charges_the_seed_forbids(attacker, defender, options, message):
    """seed 004: 'Foot may not charge horse', 'Artillery and light infantry never charge', 'A gun
    may only be charged if it has no close-order foot within 4cm', 'must not involve a wheel of
    more than 45 degrees'."""
    with pytest.raises(ActionRefused, match=message):
        may_charge(attacker, defender, **options)


def test_charges_the_seed_allows():
    may_charge(Fighter(Kind.HEAVY_HORSE, 4), Fighter(Kind.GUNS, 4), foot_near_gun_cm=F(5))
    may_charge(Fighter(Kind.LIGHT_FOOT, 4, in_wood=True), Fighter(Kind.FOOT, 4))
    may_charge(Fighter(Kind.FOOT, 4), Fighter(Kind.FOOT, 4), wheel_degrees=45)


def test_a_typed_round():
    """Lancers at 25 % (1½ dice: half die typed 4, full; dice 6, 2: one hit) against foot in
    firing order at 50 % (2 dice typed 5, 5: two hits): the lancers retreat."""
    dice = TypedDice([4, 6, 2, 5, 5])
    result = melee(Fighter(Kind.LANCERS, 1), Fighter(Kind.FOOT, 2), dice, ("lancers", "foot"))
    assert (result.attacker_hits, result.defender_hits, result.verdict) == (2, 1, A)
    assert dice.remaining == 0
    assert result.lines[-1] == ("hits suffered (firing included): lancers 2, foot 1: "
                                "attacker retreats")
