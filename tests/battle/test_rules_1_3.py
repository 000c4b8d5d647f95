"""Rules 1-3: spotting, blind-movement pips, command pips and what they buy.

Every number is worked by hand from the seed's tables and cited by rule.
"""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import AVERAGE, D10, TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.command import (
    Activation,
    Commander,
    CorpsAction,
    Grade,
    Role,
    change_to_halt,
    cinc_change_orders,
    cinc_may_move_again,
    cinc_move_inches,
    corps_action,
    corps_action_cost,
    give_move,
    may_command,
    pips_odds,
    roll_pips,
    swap_brigades,
)
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.spotting import (
    Cover,
    SpotSituation,
    Spotter,
    blind_pips_odds,
    roll_blind_pips,
    spot,
    spot_odds,
    spotting_band,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables import spotting_table
from campaign1813.campaign.battle.terms import MoraleState

RULESETS = ("1813", "1813-revised")
GIFTED, AVERAGE_GRADE, POOR = Grade.GIFTED, Grade.AVERAGE, Grade.POOR


def looks(cover, inches, kind=Spotter.CAVALRY):
    return SpotSituation("Prussian hussars", kind, "French blind", cover, inches)


# --- Rule 1: spotting ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("cover", "inches", "p"), [
    (Cover.OPEN, 10, F(1)),          # 0-16 automatic
    (Cover.OPEN, 16, F(1)),          # on the limit: the easier band
    (Cover.OPEN, 20, F(2, 5)),       # 16-24: 7-10 on a d10 = 4/10
    (Cover.OPEN, 25, F(0)),          # beyond 24: not seen
    (Cover.SCREENED, 12, F(1)),      # 0-12 automatic
    (Cover.SCREENED, 14, F(2, 5)),   # 12-16: 7-10
    (Cover.SCREENED, 20, F(1, 5)),   # 16-24: 9-10 = 2/10
    (Cover.COVER, 4, F(1)),          # woods, BUA, behind a hill: 0-4 automatic
    (Cover.COVER, 6, F(2, 5)),       # 4-8: 7-10
    (Cover.COVER, 10, F(1, 5)),      # 8-12: 9-10
    (Cover.COVER, 13, F(0)),         # beyond 12
])
def test_rule_1_spotting_odds(ruleset, cover, inches, p):
    """Rule 1: P(spotted) by cover and distance, e.g. behind a blind at 20 inches = 2/10."""
    odds = spot_odds(looks(cover, inches), ruleset)
    assert odds[True] == p
    assert odds.get(False, F(0)) == 1 - p


def test_rule_1_spotting_uses_a_d10_in_both_rulesets():
    """DESIGN 4.4: the spotting die is a d10; the revision does not change Rule 1."""
    for ruleset in RULESETS:
        table = spotting_table(ruleset)
        assert table.die == D10
        assert table.source == "1813/spotting.toml"


def test_rule_1_generals_cannot_spot():
    with pytest.raises(ActionRefused, match="a general may not spot"):
        spot_odds(looks(Cover.OPEN, 10, Spotter.GENERAL), "1813")
    with pytest.raises(ActionRefused, match="a general may not spot"):
        spot(looks(Cover.OPEN, 10, Spotter.GENERAL), TypedDice(), "1813")


def test_rule_1_a_seven_spots_at_long_range_and_a_six_does_not():
    """Rule 1: in line of sight at 16-24 inches the d10 must show 7 or more."""
    seen = spot(looks(Cover.OPEN, 20), TypedDice([7]), "1813")
    assert seen.spotted and seen.roll.total == 7
    assert seen.follow_ons[0].test == "place figures"
    missed = spot(looks(Cover.OPEN, 20), TypedDice([6]), "1813")
    assert not missed.spotted and missed.follow_ons == ()


def test_rule_1_automatic_and_hopeless_spots_roll_no_die():
    dice = TypedDice()          # empty: any roll asked for would be refused
    assert spot(looks(Cover.SCREENED, 5), dice, "1813").spotted
    far = spot(looks(Cover.COVER, 30), dice, "1813")
    assert not far.spotted and far.roll is None and far.band is None


def test_rule_1_negative_distance_is_refused():
    with pytest.raises(ValueError, match="negative"):
        spotting_band(Cover.OPEN, -1, "1813")


def test_rule_1_blind_pips_are_average_die_plus_one_gifted_minus_one_poor():
    """Rule 1: Gifted 3-6, Average 2-5, Poor 1-4, with 1/6, 1/3, 1/3, 1/6."""
    assert blind_pips_odds(GIFTED, "1813") == {3: F(1, 6), 4: F(1, 3), 5: F(1, 3), 6: F(1, 6)}
    assert blind_pips_odds(AVERAGE_GRADE, "1813") == {2: F(1, 6), 3: F(1, 3), 4: F(1, 3),
                                                      5: F(1, 6)}
    assert blind_pips_odds(POOR, "1813") == {1: F(1, 6), 2: F(1, 3), 3: F(1, 3), 4: F(1, 6)}
    roll, pips = roll_blind_pips("Bülow", POOR, TypedDice([2]), "1813")
    assert roll.die == AVERAGE and pips == 1


# --- Rules 2 and 3: pips --------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rules_2_3_pips_are_average_die_plus_grade(ruleset):
    """Rules 2/3: average die +3 Gifted (5-8), +2 Average (4-7), +1 Poor (3-6)."""
    assert pips_odds(GIFTED, ruleset) == {5: F(1, 6), 6: F(1, 3), 7: F(1, 3), 8: F(1, 6)}
    assert pips_odds(AVERAGE_GRADE, ruleset) == {4: F(1, 6), 5: F(1, 3), 6: F(1, 3), 7: F(1, 6)}
    assert pips_odds(POOR, ruleset) == {3: F(1, 6), 4: F(1, 3), 5: F(1, 3), 6: F(1, 6)}


def test_rule_5_caption_an_average_commander_has_7_pips_one_time_in_six():
    """Rule 5's example needs 7 pips to move a whole corps: P(Average >= 7) = 1/6."""
    assert sum(p for n, p in pips_odds(AVERAGE_GRADE, "1813").items() if n >= 7) == F(1, 6)


def test_rule_3_rolled_pips_and_costs():
    """Rule 3: Average commander rolls 4 -> 6 pips; move 1, retire half move 2, swap 3."""
    davout = Commander("Davout", AVERAGE_GRADE, Role.CORPS, "French")
    act = roll_pips(davout, TypedDice([4]), "1813")
    assert act.pips == 6 and act.roll.total == 4
    act = corps_action(act, CorpsAction.MOVE, "1813", "13 Brigade")
    act = corps_action(act, CorpsAction.RETIRE_HALF_MOVE, "1813")
    assert act.remaining == 3
    assert [s.cost for s in act.spent] == [1, 2]
    assert act.spent[0].action == "move (13 Brigade)"
    with pytest.raises(ActionRefused, match="costs 3 pips and 2 are left"):
        corps_action(corps_action(act, CorpsAction.INFANTRY_FIRE, "1813"),
                     CorpsAction.SWAP_BRIGADES, "1813")


@pytest.mark.parametrize(("action", "cost"), [
    (CorpsAction.MOVE, 1), (CorpsAction.CHANGE_FORMATION, 1), (CorpsAction.ARTILLERY_ACTION, 1),
    (CorpsAction.INFANTRY_FIRE, 1), (CorpsAction.RETIRE_HALF_MOVE, 2),
    (CorpsAction.HALF_MOVE_AND_CHANGE_FORMATION, 2), (CorpsAction.ARTILLERY_TWO_ACTIONS, 2),
    (CorpsAction.SWAP_BRIGADES, 3), (CorpsAction.RALLY, 1), (CorpsAction.GARRISON, 1)])
def test_rule_3_pip_costs(action, cost):
    """Rule 3's cost table (and Rule 16's 1 pip to rally, Rule 9's 1 pip to garrison)."""
    assert corps_action_cost(action, "1813") == cost
    assert corps_action_cost(action, "1813-revised") == cost


@pytest.mark.parametrize(("grade", "cost"), [(GIFTED, 1), (AVERAGE_GRADE, 2), (POOR, 3)])
def test_rule_3_change_to_halt_costs_by_grade(grade, cost):
    act = Activation(Commander("Vandamme", grade), 5)
    assert change_to_halt(act, 16, "1813").remaining == 5 - cost


def test_rule_3_change_to_halt_needs_every_brigade_within_16_inches():
    act = Activation(Commander("Vandamme", GIFTED), 5)
    with pytest.raises(ActionRefused, match="within 16 inches of every brigade"):
        change_to_halt(act, 17, "1813")


def test_rule_3_the_cinc_does_not_spend_on_corps_actions():
    act = Activation(Commander("Davout", AVERAGE_GRADE, Role.CINC), 5)
    with pytest.raises(ActionRefused, match="is the CinC"):
        corps_action(act, CorpsAction.MOVE, "1813")
    with pytest.raises(ActionRefused, match="is the CinC"):
        change_to_halt(act, 4, "1813")


def test_negative_cost_is_a_programming_error():
    with pytest.raises(ValueError, match="negative"):
        Activation(Commander("x", GIFTED), 3).spend("nothing", -1)


# --- Rule 2: the commander-in-chief -----------------------------------------------------------


def test_rule_2_cinc_changes_orders_paying_by_his_grade():
    """Rule 2: a Poor CinC pays 3 pips to change a corps' orders, in base contact only."""
    cinc = Activation(Commander("Davout", POOR, Role.CINC), 5)
    corps = Commander("Vandamme", GIFTED)
    assert cinc_change_orders(cinc, corps, True, "1813").remaining == 2
    with pytest.raises(ActionRefused, match="must be in base contact with Vandamme"):
        cinc_change_orders(cinc, corps, False, "1813")
    with pytest.raises(ActionRefused, match="only the CinC"):
        cinc_change_orders(Activation(corps, 5), corps, True, "1813")


def test_rule_2_give_move_passes_the_balance():
    """Rule 2: an Average CinC with 6 pips pays 2 to give his move; the corps gets 4."""
    cinc = Activation(Commander("Blücher", AVERAGE_GRADE, Role.CINC), 6)
    done, corps = give_move(cinc, Commander("Yorck", GIFTED), True, "1813")
    assert done.remaining == 0
    assert corps.pips == 4 and corps.commander.name == "Yorck"
    exact = Activation(Commander("Blücher", POOR, Role.CINC), 3)
    done, corps = give_move(exact, Commander("Yorck", GIFTED), True, "1813")
    assert corps.pips == 0 and len(done.spent) == 1


def test_rule_2_cinc_moves_16_inches_a_pip_and_again_only_clear_of_the_enemy():
    assert cinc_move_inches(3, "1813") == 48
    with pytest.raises(ValueError):
        cinc_move_inches(-1, "1813")
    assert not cinc_may_move_again(4, "1813")
    assert cinc_may_move_again(5, "1813")
    assert cinc_may_move_again(None, "1813").allowed


def test_rule_3_orders_reach_brigades_within_8_inches_spanish_need_contact():
    french = Commander("Vandamme", GIFTED, nation="French")
    spanish = Commander("Copons", AVERAGE_GRADE, nation="Spanish")
    assert may_command(french, 8, "1813")
    assert not may_command(french, 9, "1813")
    assert may_command(spanish, 0, "1813")
    verdict = may_command(spanish, 1, "1813")
    assert not verdict and "base contact" in verdict.reason


def test_rule_3_swap_brigades_costs_3_and_leaves_both_disordered():
    """Rules 3 and 18: a swap costs 3 pips; both brigades are Disordered (Shaken stays)."""
    act = Activation(Commander("Vandamme", GIFTED), 4)
    act, effects = swap_brigades(act, "13 Brigade", MoraleState.DISORDERED, "14 Brigade",
                                 MoraleState.FORMED, True, 3, "1813")
    assert act.remaining == 1
    assert [e.new_state for e in effects] == [None, MoraleState.DISORDERED]
    _, effects = swap_brigades(Activation(Commander("V", GIFTED), 4), "13 Brigade",
                               MoraleState.FORMED, "14 Brigade", MoraleState.FORMED, True, 4,
                               "1813")
    assert [e.new_state for e in effects] == [MoraleState.DISORDERED] * 2
    with pytest.raises(ActionRefused, match="directly behind"):
        swap_brigades(Activation(Commander("V", GIFTED), 4), "a", MoraleState.SHAKEN, "b",
                      MoraleState.FORMED, True, 5, "1813")
    with pytest.raises(ActionRefused, match="must be fresh"):
        swap_brigades(Activation(Commander("V", GIFTED), 4), "a", MoraleState.SHAKEN, "b",
                      MoraleState.DISORDERED, True, 2, "1813")
