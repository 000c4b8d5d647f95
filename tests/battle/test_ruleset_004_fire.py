"""Seed 004, MUSKETRY, ARTILLERY and SAVING THROWS: exact odds worked by hand, and typed rolls.

Every number here is worked from the seed's lines, quoted in each test's docstring; a half (a
half die, or a half left by halving a score) is settled on a d6, 4-6 up (ruleset assumption).
"""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import ImpossibleRoll, TypedDice
from campaign1813.campaign.battle.ruleset004.fire import (
    Battery,
    Shot,
    Target,
    Volley,
    artillery,
    artillery_odds,
    musketry,
    musketry_odds,
)
from campaign1813.campaign.battle.ruleset004.pools import Pool
from campaign1813.campaign.battle.ruleset004.units import Kind
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused

FOOT = Target(Kind.FOOT)


def test_regular_foot_in_firing_order_at_75_percent():
    """seed 004: 'Roll one die for each 25 per cent … Regular foot in firing order: 4-6':
    at 75 % effectiveness, 3 dice hitting on 4-6: P(2 or more hits) = 3/8 + 1/8 = 1/2."""
    odds = musketry_odds(Volley(Kind.FOOT, 3), FOOT)
    assert odds.pool == Pool(3) and odds.need == 4
    assert odds.hits == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    assert odds.hits[2] + odds.hits[3] == F(1, 2)


def test_light_foot_hit_on_five_or_six():
    """seed 004: 'Light foot: 5-6': 4 dice at 1/3: P(0) = (2/3)^4 = 16/81, P(4) = 1/81."""
    odds = musketry_odds(Volley(Kind.LIGHT_FOOT, 4), FOOT)
    assert odds.need == 5
    assert odds.hits[0] == F(16, 81) and odds.hits[4] == F(1, 81)
    assert odds.hits[1] == 4 * F(1, 3) * F(8, 27) == F(32, 81)


def test_foot_not_in_firing_order_hit_only_on_six():
    """seed 004: 'Light horse and regular foot not in firing order: 6': 4 dice at 1/6:
    P(no hit) = (5/6)^4 = 625/1296."""
    odds = musketry_odds(Volley(Kind.FOOT, 4, firing_order=False), FOOT)
    assert odds.need == 6 and odds.hits[0] == F(625, 1296)


def test_light_horse_in_two_ranks_throw_a_half_die():
    """seed 004: 'one die for each 25 per cent … in a single line of bases'; horse 'usually in
    two ranks' (assumption: half the steps, a half diced for). 3 steps: 1½ dice on 6. The half
    die is full on 4-6: P(0) = 1/2·5/6 + 1/2·25/36 = 55/72, P(2) = 1/2·1/36 = 1/72."""
    odds = musketry_odds(Volley(Kind.LIGHT_HORSE, 3), FOOT)
    assert odds.pool == Pool(1, half=True)
    assert odds.hits == {0: F(55, 72), 1: F(16, 72), 2: F(1, 72)}


def test_light_horse_screening_in_one_rank_roll_every_step():
    """seed 004: 'light cavalry in a screening role may deploy in one rank': 2 steps in one
    rank, 2 dice on 6: P(no hit) = 25/36."""
    odds = musketry_odds(Volley(Kind.LIGHT_HORSE, 2, one_rank=True), FOOT)
    assert odds.pool == Pool(2) and odds.hits[0] == F(25, 36)


def test_returning_fire_after_moving_subtracts_one():
    """seed 004: 'troops who are fired at may return fire … even if they have moved, but
    subtracting one from the die': firing-order foot at 50 %, 2 dice needing 4 after −1 hit on
    5-6 (1/3): P(0) = 4/9, P(1) = 4/9, P(2) = 1/9. Light horse needing 6 can no longer hit."""
    odds = musketry_odds(Volley(Kind.FOOT, 2, moved=True), FOOT)
    assert odds.modifier == -1
    assert odds.hits == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    horse = musketry_odds(Volley(Kind.LIGHT_HORSE, 2, one_rank=True, moved=True), FOOT)
    assert horse.hits == {0: F(1), 1: F(0), 2: F(0)}


def test_mollwitz_prussian_foot_add_one():
    """seed 004 NATIONAL CHARACTERISTICS, Mollwitz: 'Prussian foot add 1 to musketry throws':
    one die in firing order hits on 3-6 = 2/3."""
    odds = musketry_odds(Volley(Kind.FOOT, 1, modifier=1), FOOT)
    assert odds.hits == {0: F(1, 3), 1: F(2, 3)}


@pytest.mark.parametrize("kind", [Kind.LANCERS, Kind.HEAVY_HORSE, Kind.GUNS, Kind.GENERAL])
def test_only_foot_and_light_horse_but_lancers_fire(kind):
    """seed 004: 'Foot and light horse, except for lancers, can fire.'"""
    with pytest.raises(ActionRefused, match="cannot fire musketry"):
        musketry_odds(Volley(kind, 4), FOOT)


def test_musket_and_carbine_ranges():
    """seed 004: 'Musket range: 8cm. Carbine range: 4cm.'"""
    assert musketry_odds(Volley(Kind.FOOT, 4, distance_cm=F(8)), FOOT).pool == Pool(4)
    with pytest.raises(ActionRefused, match="beyond musket range"):
        musketry_odds(Volley(Kind.FOOT, 4, distance_cm=F(81, 10)), FOOT)
    with pytest.raises(ActionRefused, match="beyond carbine range"):
        musketry_odds(Volley(Kind.LIGHT_HORSE, 4, distance_cm=F(5)), FOOT)


def test_canister_at_full_effectiveness():
    """seed 004: 'Canister: 0-12cm. Roll two dice … Halve the score … a half is diced for.
    Each potential hit is diced for with a 4-6 scoring a hit on foot': 2d6 score 2 gives 1
    potential hit, 3 gives 1 or 2: P(1 potential) = 1/36 + 1/2·2/36 = 1/18; P(no hit on foot)
    = Σ P(n)·(1/2)^n = (32 + 48 + 40 + 20 + 6 + 1)/1152 = 49/384."""
    odds = artillery_odds(Battery(Shot.CANISTER, 4), FOOT)
    assert odds.pool == Pool(2)
    assert odds.potential == {1: F(1, 18), 2: F(1, 6), 3: F(5, 18), 4: F(5, 18), 5: F(1, 6),
                              6: F(1, 18)}
    assert odds.hits[0] == F(49, 384) and odds.hits[6] == F(1, 18) / 64


def test_canister_at_half_effectiveness_rolls_one_die():
    """seed 004: 'Roll two dice (one if effectiveness 50 per cent or lower)': one die, halved
    with a half diced for: P(0) = 1/12 (a 1 rounded down), P(1) = 1/12 + 1/6 + 1/12 = 1/3,
    P(2) = 1/3, P(3) = 1/12 + 1/6 = 1/4."""
    odds = artillery_odds(Battery(Shot.CANISTER, 2), FOOT)
    assert odds.pool == Pool(1)
    assert odds.potential == {0: F(1, 12), 1: F(1, 3), 2: F(1, 3), 3: F(1, 4)}


def test_roundshot_at_guns_hits_only_on_six():
    """seed 004: 'Roundshot: up to 24cm. Roll one die … a 6 on guns': potential 0-3 as for one
    die; P(no hit) = 1/12 + 1/3·5/6 + 1/3·25/36 + 1/4·125/216 = 1911/2592 = 637/864."""
    odds = artillery_odds(Battery(Shot.ROUNDSHOT, 4, distance_cm=F(24)), Target(Kind.GUNS))
    assert odds.need == 6 and odds.hits[0] == F(637, 864)


def test_weakened_roundshot_is_a_half_die():
    """seed 004: 'Roll one die (halve if effectiveness 50 per cent or lower)' and 'A half-die
    has a 50:50 chance of becoming a full die': no fire at all half the time, and a 1 rounds
    down half the time: P(0 potential) = 1/2 + 1/2·1/6·1/2 = 13/24."""
    odds = artillery_odds(Battery(Shot.ROUNDSHOT, 2), FOOT)
    assert odds.pool == Pool(0, half=True)
    assert odds.score[0] == F(1, 2)
    assert odds.potential == {0: F(13, 24), 1: F(1, 6), 2: F(1, 6), 3: F(1, 8)}


def test_roundshot_over_friends_heads_takes_one_off_the_score():
    """seed 004: 'The initial die throw is reduced by 1 (before halving …)': scores 0-5:
    P(0) = 1/6 + 1/12 = 1/4, P(1) = 1/3, P(2) = 1/3, P(3) = 1/12 (a 6 leaves 5, diced up)."""
    odds = artillery_odds(Battery(Shot.ROUNDSHOT, 4, over_heads=True), FOOT)
    assert odds.potential == {0: F(1, 4), 1: F(1, 3), 2: F(1, 3), 3: F(1, 12)}
    with pytest.raises(ActionRefused, match="only roundshot"):
        artillery_odds(Battery(Shot.CANISTER, 4, over_heads=True), FOOT)
    with pytest.raises(ActionRefused, match="canister reaches 12 cm"):
        artillery_odds(Battery(Shot.CANISTER, 4, distance_cm=F(13)), FOOT)


def test_saving_throws_in_cover_and_for_cuirassiers():
    """seed 004 SAVING THROWS: 'Troops in cover cancel a hit from firing with a throw of 4-6.
    Cuirassiers cancel a hit from firing with a throw of 6.' One die hitting on 4-6: a hit that
    stands is 1/2·1/2 = 1/4 in cover, 1/2·5/6 = 5/12 on cuirassiers, 1/4 on cuirassiers in
    cover (the better save, once)."""
    volley = Volley(Kind.FOOT, 1)
    assert musketry_odds(volley, Target(Kind.FOOT, cover=True)).standing[1] == F(1, 4)
    cuirassiers = musketry_odds(volley, Target(Kind.HEAVY_HORSE, cuirassiers=True))
    assert cuirassiers.save_on == 6 and cuirassiers.standing[1] == F(5, 12)
    both = Target(Kind.HEAVY_HORSE, cover=True, cuirassiers=True)
    assert musketry_odds(volley, both).standing[1] == F(1, 4)


def test_saves_against_artillery():
    """seed 004: saves cancel 'a hit from firing' (artillery too): weakened canister, one die,
    on foot in cover: P(a hit stands) per potential hit = 1/2·1/2 = 1/4; P(none stands) =
    1/12 + 1/3·3/4 + 1/3·9/16 + 1/4·27/64 = (64 + 192 + 144 + 81)/768 = 481/768."""
    odds = artillery_odds(Battery(Shot.CANISTER, 1), Target(Kind.FOOT, cover=True))
    assert odds.standing[0] == F(481, 768)


def test_a_typed_volley():
    """seed 004: 3 dice on 4-6, typed 4, 2, 6: two hits; in cover, saves typed 5, 1: one."""
    dice = TypedDice([4, 2, 6, 5, 1])
    result = musketry(Volley(Kind.FOOT, 3), Target(Kind.FOOT, cover=True), dice, "1st Line")
    assert (result.hits, result.standing, dice.remaining) == (2, 1, 0)
    assert [r.total for r in result.rolls] == [4, 2, 6, 5, 1]
    assert "2 hits, 1 after saves on 4-6" in result.lines[0]


def test_a_typed_half_die_then_the_dice():
    """seed 004: 1½ dice (light horse in two ranks at 75 %): the half die typed 5 becomes a full
    die; the two dice typed 6, 3: one hit on 6. Typed 3 the half die is dropped."""
    dice = TypedDice([5, 6, 3])
    result = musketry(Volley(Kind.LIGHT_HORSE, 3), FOOT, dice)
    assert (result.hits, dice.remaining) == (1, 0)
    assert "half die" in result.rolls[0].purpose
    dropped = TypedDice([3, 6])
    assert musketry(Volley(Kind.LIGHT_HORSE, 3), FOOT, dropped).hits == 1


def test_typed_canister_with_a_half_diced_for():
    """seed 004: canister 3 + 4 = 7, halved 3½; the half typed 2 rounds down: 3 potential hits,
    typed 4, 5, 1: two hits; in cover, saves typed 6, 2: one stands."""
    dice = TypedDice([3, 4, 2, 4, 5, 1, 6, 2])
    result = artillery(Battery(Shot.CANISTER, 4), Target(Kind.FOOT, cover=True), dice)
    assert (result.hits, result.standing, dice.remaining) == (2, 1, 0)
    assert "score 7, 3 potential hits, 2 hits, 1 after saves" in result.lines[0]


def test_a_typed_face_the_die_cannot_show_is_refused():
    with pytest.raises(ImpossibleRoll, match="7 is not a face|7 cannot be rolled"):
        musketry(Volley(Kind.FOOT, 1), FOOT, TypedDice([7]))
