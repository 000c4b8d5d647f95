"""Ruleset 002: the exact odds of every shooting and charge test of seed 002, worked by hand.

Each test names the line of seed 002 ("Shooting", "Charges", "Eliminating Units") it checks.
"""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset002.charges import (
    Charge,
    charge,
    charge_hits,
    charge_odds,
    elimination_chance,
)
from campaign1813.campaign.battle.ruleset002.shooting import (
    Shot,
    hits_for,
    shoot,
    shot_odds,
    shot_text,
)
from campaign1813.campaign.battle.ruleset002.tables import tables
from campaign1813.campaign.battle.ruleset002.units import UnitKind as K
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused

SIXTH, THIRD = F(1, 6), F(1, 3)


# --- shooting ---------------------------------------------------------------------------------


def test_infantry_roll_one_d6():
    """seed 002: "Infantry and Guard units roll 1D6": 1 to 6 hits, 1/6 each."""
    assert shot_odds(Shot(K.INFANTRY, K.INFANTRY)) == {n: SIXTH for n in range(1, 7)}
    assert shot_odds(Shot(K.ELITE, K.CAVALRY)) == {n: SIXTH for n in range(1, 7)}


@pytest.mark.parametrize("shooter", [K.SKIRMISHERS, K.ARTILLERY])
def test_skirmishers_and_artillery_roll_one_d6_less_two(shooter):
    """seed 002: "Skirmishers (Light Infantry) roll 1D6-2", "Artillery roll 1D6-2": faces 1
    and 2 give no hit (never below 0): P(0) = 2/6 = 1/3, then 1-4 hits at 1/6 each."""
    assert shot_odds(Shot(shooter, K.INFANTRY)) == {0: THIRD, 1: SIXTH, 2: SIXTH, 3: SIXTH,
                                                    4: SIXTH}


def test_an_attached_commander_rolls_the_best_of_two_d6():
    """seed 002: "Any unit with an attached Commander get to roll 2D6 and select the highest
    score": P(highest = k) = (2k - 1)/36, so P(6 hits) = 11/36 and P(1 hit) = 1/36."""
    odds = shot_odds(Shot(K.INFANTRY, K.INFANTRY, commander=True))
    assert odds == {k: F(2 * k - 1, 36) for k in range(1, 7)}
    assert odds[6] == F(11, 36) and sum(odds.values()) == 1


def test_entrenched_units_roll_the_best_of_two_d6():
    """seed 002, Terrain: entrenched units "when shooting roll 2D6 picking the highest score":
    entrenched artillery, best of 2D6 - 2: P(0) = P(highest <= 2) = 4/36 = 1/9, P(4) = 11/36."""
    odds = shot_odds(Shot(K.ARTILLERY, K.INFANTRY, entrenched=True))
    assert odds == {0: F(4, 36), 1: F(5, 36), 2: F(7, 36), 3: F(9, 36), 4: F(11, 36)}


def test_cover_halves_the_hits_rounding_up():
    """seed 002: "Any target unit in cover has the number of hits halved (rounding up and
    fractions)": 1D6 gives 1,1,2,2,3,3 hits, so 1/3 each of 1, 2 and 3."""
    assert shot_odds(Shot(K.INFANTRY, K.INFANTRY, cover=True)) == {1: THIRD, 2: THIRD,
                                                                  3: THIRD}
    # 1D6-2 in cover: 0,0,1,1,2,2 -> 0 hits 1/3, 1 hit 1/3, 2 hits 1/3
    assert shot_odds(Shot(K.ARTILLERY, K.SKIRMISHERS, cover=True)) == {0: THIRD, 1: THIRD,
                                                                      2: THIRD}


def test_cavalry_retiring_halve_the_hits():
    """seed 002: "Any target cavalry unit can retire 6" and halve the number of hits (rounding
    up fractions)": a commander's best of 2D6 halved: 1 hit on a 1 or 2 (4/36), 2 on a 3 or 4
    (16/36 - 4/36 = 12/36), 3 on a 5 or 6 (20/36)."""
    odds = shot_odds(Shot(K.INFANTRY, K.CAVALRY, commander=True, cavalry_retires=True))
    assert odds == {1: F(4, 36), 2: F(12, 36), 3: F(20, 36)}


def test_the_hits_of_a_given_roll():
    """seed 002, Shooting: artillery 1D6-2 rolling 5 makes 3 hits, 2 in cover; a commander's
    unit rolling 2 and 5 keeps the 5."""
    assert hits_for(Shot(K.ARTILLERY, K.INFANTRY), (5,)) == 3
    assert hits_for(Shot(K.ARTILLERY, K.INFANTRY, cover=True), (5,)) == 2
    assert hits_for(Shot(K.SKIRMISHERS, K.INFANTRY), (1,)) == 0
    result = shoot(Shot(K.INFANTRY, K.ELITE, commander=True), TypedDice([2, 5]), "1st Line")
    assert (result.faces, result.kept, result.hits) == ((2, 5), 5, 5)
    assert [r.purpose for r in result.rolls] == ["shooting by 1st Line, die 1",
                                                 "shooting by 1st Line, die 2"]


@pytest.mark.parametrize(("shot", "why"), [
    (Shot(K.CAVALRY, K.INFANTRY), "cavalry do not shoot"),
    (Shot(K.ARTILLERY, K.INFANTRY, moved=True), "artillery that has moved"),
    (Shot(K.SKIRMISHERS, K.INFANTRY, commander=True), "a commander is attached only to"),
    (Shot(K.INFANTRY, K.INFANTRY, cavalry_retires=True), "only cavalry retire"),
    (Shot(K.INFANTRY, K.CAVALRY, cover=True), "cavalry cannot be in cover"),
    (Shot(K.INFANTRY, K.INFANTRY, inches=F(13, 2)), "reach 6 inches; the target is 13/2"),
    (Shot(K.ARTILLERY, K.INFANTRY, inches=F(25)), "reach 24 inches"),
    (Shot(K.INFANTRY, K.INFANTRY, in_arc=False), "45-degree field of fire"),
])
def test_shots_the_rules_do_not_allow_are_refused(shot, why):
    """seed 002, Shooting: cavalry do not shoot; "Artillery that has been moved may not shoot";
    "Muskets have a range of 6" and artillery 24""; "a 45 degree field of fire"."""
    with pytest.raises(ActionRefused, match=why):
        shot_odds(shot)


def test_ranges_at_the_limit_are_allowed():
    """seed 002: "Muskets have a range of 6" and artillery 24"": exactly 6 and 24 are in range."""
    assert shot_odds(Shot(K.INFANTRY, K.INFANTRY, inches=F(6)))
    assert shot_odds(Shot(K.ARTILLERY, K.INFANTRY, inches=F(24)))


def test_the_shot_is_described_as_rolled():
    assert shot_text(Shot(K.ARTILLERY, K.INFANTRY, cover=True)) == (
        "1D6−2 (never below 0), halved for cover (rounded up)")
    assert shot_text(Shot(K.INFANTRY, K.INFANTRY, commander=True)) == "best of 2D6"


# --- charges ----------------------------------------------------------------------------------


def test_a_charge_rolls_one_d6_plus_two():
    """seed 002: "the attacking cavalry units rolls 1D6+2": 3 to 8 hits, 1/6 each."""
    odds = charge_odds(Charge(K.INFANTRY))
    assert odds.hits == {n: SIXTH for n in range(3, 9)} and not odds.overrun


def test_a_charge_on_a_hill_or_on_cavalry_is_halved_rounding_up():
    """seed 002: "If the target occupies a hill halve the number of hits (round up any
    fractions)", "If the target is cavalry, then they halve the number of hits": 3..8 halved
    up is 2,2,3,3,4,4: 2, 3 and 4 hits at 1/3 each."""
    assert charge_odds(Charge(K.INFANTRY, hill=True)).hits == {2: THIRD, 3: THIRD, 4: THIRD}
    assert charge_odds(Charge(K.CAVALRY)).hits == {2: THIRD, 3: THIRD, 4: THIRD}


def test_a_charge_in_flank_or_rear_or_on_skirmishers_is_doubled():
    """seed 002: "attacked on its flank or rear, then double", "If the target is a skirmish unit
    double": 6, 8 … 16 hits at 1/6 each; both together 12 … 32."""
    assert charge_odds(Charge(K.INFANTRY, flank_or_rear=True)).hits == {
        n: SIXTH for n in (6, 8, 10, 12, 14, 16)}
    assert charge_odds(Charge(K.SKIRMISHERS)).hits == {n: SIXTH for n in (6, 8, 10, 12, 14, 16)}
    assert charge_odds(Charge(K.SKIRMISHERS, flank_or_rear=True)).hits == {
        n: SIXTH for n in (12, 16, 20, 24, 28, 32)}


def test_modifiers_stack_halvings_first():
    """seed 002, Charges (the modifiers in their order, halvings first): cavalry on a hill
    charged in the flank: 3..8 halved twice up is 1,1,2,2,2,2, doubled 2,2,4,4,4,4:
    P(2 hits) = 1/3, P(4 hits) = 2/3. Skirmishers on a hill: 4,4,6,6,8,8."""
    assert charge_odds(Charge(K.CAVALRY, hill=True, flank_or_rear=True)).hits == {
        2: THIRD, 4: 2 * THIRD}
    assert charge_odds(Charge(K.SKIRMISHERS, hill=True)).hits == {4: THIRD, 6: THIRD, 8: THIRD}
    assert charge_hits(Charge(K.SKIRMISHERS, hill=True), 5) == 8   # 7 -> 4 -> 8


def test_guns_are_overrun_unless_infantry_stand_within_three_inches():
    """seed 002: "Artillery units are eliminated if charged and not within 3" of any infantry or
    elite infantry unit. If within 3" then they cannot be charged.\""""
    odds = charge_odds(Charge(K.ARTILLERY))
    assert odds.overrun and odds.hits == {}
    result = charge(Charge(K.ARTILLERY), TypedDice([]))
    assert result.overrun and result.rolls == ()
    with pytest.raises(ActionRefused, match="within 3 inches of infantry"):
        charge_odds(Charge(K.ARTILLERY, infantry_near=True))


@pytest.mark.parametrize(("c", "why"), [
    (Charge(K.SKIRMISHERS, cover=True), "cannot charge units in cover"),
    (Charge(K.INFANTRY, charged_before=1), "charged 1 time this turn"),
    (Charge(K.INFANTRY, retired=True), "retired 6 inches from shooting"),
    (Charge(K.INFANTRY, inches=F(13, 2)), "moves 6 inches into contact; the target is 13/2"),
    (Charge(K.INFANTRY, turn_degrees=50), "at most 45 degrees, not 50"),
])
def test_charges_the_rules_do_not_allow_are_refused(c, why):
    """seed 002: "Cavalry cannot charge units in cover", "A target unit may not be charged more
    that once during a turn", a cavalry unit that retired "may not charge in the turn"; "Move a
    cavalry unit 6" into contact"; "The turn may not exceed 45 degrees"."""
    with pytest.raises(ActionRefused, match=why):
        charge_odds(c)


def test_a_charge_at_the_limits_is_allowed():
    """seed 002: 6 inches into contact and a turn of 45 degrees are allowed."""
    assert charge_odds(Charge(K.INFANTRY, inches=F(6), turn_degrees=45)).hits


def test_the_charge_of_a_given_roll():
    """seed 002, Charges: a 4 on the D6 against cavalry is (4 + 2) / 2 = 3 hits."""
    result = charge(Charge(K.CAVALRY), TypedDice([4]), "Hussars")
    assert (result.face, result.hits) == (4, 3)
    assert result.rolls[0].purpose == "charge by Hussars"


# --- elimination ------------------------------------------------------------------------------


def test_units_are_eliminated_past_twelve_hits_elite_past_eighteen():
    """seed 002: "Units are eliminated when they exceed 12 hits", elite "when they exceed 18
    hits"; the game account: "On 13 hits of more units are eliminated"."""
    t = tables()
    assert not t.eliminated(K.CAVALRY, 12) and t.eliminated(K.CAVALRY, 13)
    assert not t.eliminated(K.ELITE, 18) and t.eliminated(K.ELITE, 19)


def test_the_chance_of_eliminating_a_unit():
    """seed 002: infantry with 6 hits charged in the flank: 6..16 hits, eliminated past 12 on
    7 or more: 8, 10, 12, 14, 16 -> P = 5/6; elite with 6 hits would need 13: 14, 16 -> 1/3."""
    hits = charge_odds(Charge(K.INFANTRY, flank_or_rear=True)).hits
    assert elimination_chance(hits, 12, 6) == F(5, 6)
    assert elimination_chance(hits, 18, 6) == THIRD


# --- the odds shown and the rolls made are one rule --------------------------------------------


def _shots():
    for shooter in (K.INFANTRY, K.ELITE, K.SKIRMISHERS, K.ARTILLERY):
        for target in K:
            for commander in (False, True):
                if commander and shooter not in (K.INFANTRY, K.ELITE):
                    continue
                for entrenched in (False, True):
                    for cover in (False, target is not K.CAVALRY):
                        for retire in (False, target is K.CAVALRY):
                            yield Shot(shooter, target, commander, entrenched, cover, retire)


def test_every_shot_odds_are_the_rolls_counted():
    """For every shot the rules allow, the odds are the hits of each roll counted (36 rolls of
    two dice, or 6 of one), and they sum to 1."""
    from itertools import product

    shots = set(_shots())
    assert len(shots) > 60
    for shot in shots:
        odds = shot_odds(shot)
        n = 2 if shot.commander or shot.entrenched else 1
        counted = {}
        for faces in product(range(1, 7), repeat=n):
            h = hits_for(shot, faces)
            counted[h] = counted.get(h, 0) + F(1, 6 ** n)
        assert odds == dict(sorted(counted.items())) and sum(odds.values()) == 1, shot


def test_every_charge_odds_are_the_rolls_counted():
    for target in (K.INFANTRY, K.ELITE, K.SKIRMISHERS, K.CAVALRY):
        for hill in (False, True):
            for flank in (False, True):
                c = Charge(target, hill, flank)
                counted = {}
                for face in range(1, 7):
                    h = charge_hits(c, face)
                    counted[h] = counted.get(h, 0) + SIXTH
                assert charge_odds(c).hits == dict(sorted(counted.items())), c
                assert min(counted) >= 1
