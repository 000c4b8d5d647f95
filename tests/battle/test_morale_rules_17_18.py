"""Rules 17 and 18: morale tests, automatic rout, the states and rally.

Every probability is worked by hand from 1d6 and the modifier list of Rule 17: a total of 3 or
more passes, 1-2 is Shaken, 0 or less routs (DESIGN 4.4).
"""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import ImpossibleRoll, TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, CavalryWeight
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import UnknownFact
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MORALE,
    ROUT_REACTION,
    MoraleOutcome,
    MoraleTest,
    automatic_rout,
    end_of_sequence,
    morale_modifiers,
    morale_odds,
    owed_morale_tests,
    rally_state,
    state_odds,
    take_morale_test,
)
from campaign1813.campaign.battle.terms import Arm, MoraleState, Rating

PASS, SHAKEN, ROUT = MoraleOutcome.PASS, MoraleOutcome.SHAKEN, MoraleOutcome.ROUT


def infantry(**kw) -> Brigade:
    return Brigade(kw.pop("name", "14 Brigade"), Arm.INFANTRY, **kw)


def cavalry(**kw) -> Brigade:
    kw.setdefault("cavalry", CavalryWeight.MEDIUM)
    return Brigade(kw.pop("name", "3 Cavalry"), Arm.CAVALRY, **kw)


def battery(**kw) -> Brigade:
    return Brigade(kw.pop("name", "5 Corps artillery"), Arm.ARTILLERY, **kw)


def odds(brigade, *facts, rallying=False):
    return morale_odds(MoraleTest(brigade, frozenset(facts), rallying=rallying))


def test_rule17_class_b_no_modifiers():
    """Rule 17: class B, formed, no casualties: 1d6 → pass on 3-6 = 2/3, Shaken on 1-2 = 1/3."""
    assert odds(infantry()) == {PASS: F(2, 3), SHAKEN: F(1, 3), ROUT: F(0)}


def test_rule17_class_c_two_casualties_no_general():
    """Rule 17: class C, 2 casualties, no general within 8": 1d6 −1 −2 −1 = 1d6 −4.

    Totals −3..2: nothing passes, 5-6 give 1-2 (Shaken) = 1/3, 1-4 rout = 2/3.
    """
    test = MoraleTest(infantry(rating=Rating.C, casualties=2),
                      frozenset({"no-general-within-8"}))
    assert [(m.key, m.value) for m in morale_modifiers(test)] == [
        ("class-c", -1), ("no-general-within-8", -1), ("casualties", -2)]
    assert morale_odds(test) == {PASS: F(0), SHAKEN: F(1, 3), ROUT: F(2, 3)}


def test_rule17_every_plus_passes_always():
    """Rule 17: class A, general attached, supports within 4", in BUA: 1d6 +4 always passes."""
    b = infantry(rating=Rating.A)
    assert odds(b, "general-attached", "supports-within-4", "in-bua") == {
        PASS: F(1), SHAKEN: F(0), ROUT: F(0)}


def test_rule17_behind_formed_supports_and_rout_within_4_cancel():
    """Rule 17: +1 behind formed supports −1 rout within 4": class B as plain 1d6 (2/3 pass)."""
    assert odds(infantry(), "behind-formed-supports", "rout-within-4")[PASS] == F(2, 3)


def test_rule17_shaken_brigade_minus_two():
    """Rule 17: Shaken −2: 1d6 −2 gives −1..4: pass on 5-6, Shaken on 3-4, rout on 1-2."""
    assert odds(infantry(state=MoraleState.SHAKEN)) == {PASS: F(1, 3), SHAKEN: F(1, 3),
                                                        ROUT: F(1, 3)}


def test_rule17_routing_brigade_minus_two():
    """Rule 17: Rout −2, same as Shaken: 1/3 each."""
    assert odds(infantry(state=MoraleState.ROUT)) == {PASS: F(1, 3), SHAKEN: F(1, 3),
                                                      ROUT: F(1, 3)}


def test_rule17_disordered_or_pursuit_counts_once():
    """Rule 17: "Disordered or pursuit" −1 once, even for disordered pursuing cavalry.

    1d6 −1: pass on 4-6 = 1/2, Shaken on 2-3 = 1/3, rout on 1 = 1/6.
    """
    expected = {PASS: F(1, 2), SHAKEN: F(1, 3), ROUT: F(1, 6)}
    assert odds(cavalry(state=MoraleState.DISORDERED)) == expected
    assert odds(cavalry(), "pursuit") == expected
    assert odds(cavalry(state=MoraleState.DISORDERED), "pursuit") == expected


def test_rule17_routed_through_and_no_supports():
    """Rule 17: −1 routed through −1 rout within 4" −1 no supports within 8": 1d6 −3.

    Pass on 6 = 1/6, Shaken on 4-5 = 1/3, rout on 1-3 = 1/2.
    """
    assert odds(infantry(), "routed-through", "rout-within-4", "no-supports-within-8") == {
        PASS: F(1, 6), SHAKEN: F(1, 3), ROUT: F(1, 2)}


@pytest.mark.parametrize("face, outcome", [(6, PASS), (5, SHAKEN), (4, SHAKEN), (3, ROUT)])
def test_rule17_thresholds_3_pass_1_to_2_shaken_0_rout(face, outcome):
    """DESIGN 4.4 / Rule 17: with −3 (three casualties), totals 3 / 2 / 1 / 0 → pass/S/S/rout."""
    result = take_morale_test(MoraleTest(infantry(casualties=3)), TypedDice([face]))
    assert result.total == face - 3
    assert result.outcome is outcome


@pytest.mark.parametrize("brigade, limit", [
    (infantry(casualties=6), 6), (cavalry(casualties=4), 4), (battery(casualties=3), 3),
    (infantry(casualties=7, rating=Rating.A), 6)])
def test_rule17_automatic_rout_limits(brigade, limit):
    """Rule 17: infantry rout at 6 casualties, cavalry at 4, artillery at 3, without a roll."""
    assert automatic_rout(brigade)
    assert odds(brigade, "general-attached") == {PASS: F(0), SHAKEN: F(0), ROUT: F(1)}
    result = take_morale_test(MoraleTest(brigade), TypedDice([]))  # no roll is asked for
    assert result.roll is None and result.outcome is ROUT
    assert result.effect.new_state is MoraleState.ROUT


@pytest.mark.parametrize("brigade", [infantry(casualties=5), cavalry(casualties=3),
                                     battery(casualties=2)])
def test_rule17_one_below_the_limit_still_rolls(brigade):
    """Rule 17: one casualty short of the limit the brigade tests (5 infantry: 1d6 −5)."""
    assert not automatic_rout(brigade)
    with pytest.raises(ImpossibleRoll):
        take_morale_test(MoraleTest(brigade), TypedDice([]))


def test_rule17_five_casualty_infantry_odds():
    """Rule 17: class B infantry with 5 casualties: 1d6 −5: Shaken only on a 6 (1/6)."""
    assert odds(infantry(casualties=5)) == {PASS: F(0), SHAKEN: F(1, 6), ROUT: F(5, 6)}


def test_rule17_rout_result_moves_and_triggers_reaction():
    """Rules 16-17: a formed brigade that routs moves 6" (infantry) and friends within 4" react."""
    result = take_morale_test(MoraleTest(infantry(casualties=3)), TypedDice([1]))
    assert result.outcome is ROUT
    assert result.effect.new_state is MoraleState.ROUT and result.effect.rout_inches == 6
    assert [f.test for f in result.follow_ons] == [ROUT_REACTION]
    assert result.brigade_after.state is MoraleState.ROUT


def test_rule16_cavalry_rout_twelve_inches_artillery_six():
    """Rule 16: cavalry rout 12"; artillery (not listed) is read as 6" like infantry."""
    cav = take_morale_test(MoraleTest(cavalry(casualties=3)), TypedDice([1]))
    gun = take_morale_test(MoraleTest(battery(casualties=2)), TypedDice([1]))
    assert cav.effect.rout_inches == 12 and gun.effect.rout_inches == 6


def test_rule17_formed_brigade_shaken_result():
    """Rule 17: a total of 1-2 leaves a formed brigade Shaken, with no follow-on test."""
    result = take_morale_test(MoraleTest(infantry()), TypedDice([2]))
    assert result.outcome is SHAKEN and result.effect.new_state is MoraleState.SHAKEN
    assert result.follow_ons == ()


def test_rule17_pass_changes_nothing_for_formed():
    """Rule 17: a pass leaves a formed brigade as it was."""
    result = take_morale_test(MoraleTest(infantry()), TypedDice([3]))
    assert result.outcome is PASS and result.effect.new_state is None


def test_rule18_shaken_stays_shaken_on_a_middling_total():
    """Rule 18: a Shaken brigade with a total of 1-2 stays Shaken (demo: cuirassiers)."""
    result = take_morale_test(MoraleTest(infantry(state=MoraleState.SHAKEN)), TypedDice([4]))
    assert result.outcome is SHAKEN and result.effect.new_state is None
    assert "remains shaken" in result.effect.note


def test_rule18_demo_shaken_brigade_rolls_one_and_routs():
    """Demo Game - Move 7: "Test morale for Shaken 6 brigade, roll 1, Rout": 1 −2 = −1 → rout."""
    result = take_morale_test(MoraleTest(infantry(state=MoraleState.SHAKEN)), TypedDice([1]))
    assert result.total == -1 and result.outcome is ROUT
    assert result.effect.new_state is MoraleState.ROUT
    assert [f.test for f in result.follow_ons] == [ROUT_REACTION]


def test_rule18_rally_rout_to_shaken_with_commander():
    """Rule 18 (demo: dragoons roll 6, rally and become Shaken): Rout −2, 6 → 4 passes."""
    test = MoraleTest(cavalry(state=MoraleState.ROUT), rallying=True)
    result = take_morale_test(test, TypedDice([6]))
    assert result.total == 4 and result.outcome is PASS
    assert result.effect.new_state is MoraleState.SHAKEN


def test_rule18_rally_shaken_to_disordered_with_commander():
    """Rule 18: a passed rally test brings a Shaken brigade to Disordered."""
    test = MoraleTest(infantry(state=MoraleState.SHAKEN), rallying=True)
    result = take_morale_test(test, TypedDice([5]))
    assert result.effect.new_state is MoraleState.DISORDERED
    assert rally_state(MoraleState.SHAKEN) is MoraleState.DISORDERED
    assert rally_state(MoraleState.ROUT) is MoraleState.SHAKEN
    assert rally_state(MoraleState.FORMED) is None


def test_rule18_no_rally_without_commander():
    """Rules 16/18: without a commander in base contact a pass rallies nobody."""
    shaken = take_morale_test(MoraleTest(infantry(state=MoraleState.SHAKEN)), TypedDice([6]))
    assert shaken.outcome is PASS and shaken.effect.new_state is None
    routing = take_morale_test(MoraleTest(infantry(state=MoraleState.ROUT)), TypedDice([6]))
    assert routing.effect.new_state is None and routing.effect.rout_inches == 6
    assert routing.follow_ons == ()


def test_rule16_routers_that_fail_run_on_without_new_reaction():
    """Rule 16 (demo: hussars roll 2, continue to rout): routing again shakes no neighbours."""
    result = take_morale_test(MoraleTest(cavalry(state=MoraleState.ROUT), rallying=True),
                              TypedDice([2]))
    assert result.outcome is ROUT
    assert result.effect.new_state is None and result.effect.rout_inches == 12
    assert result.follow_ons == ()
    middling = take_morale_test(MoraleTest(cavalry(state=MoraleState.ROUT), rallying=True),
                                TypedDice([4]))
    assert middling.outcome is SHAKEN and middling.effect.rout_inches == 12


def test_rule18_disordered_reforms_at_end_of_sequence():
    """Rule 18: disordered troops become formed at the end of a sequence; others do not."""
    assert end_of_sequence(infantry(state=MoraleState.DISORDERED)).state is MoraleState.FORMED
    shaken = infantry(state=MoraleState.SHAKEN)
    assert end_of_sequence(shaken) is shaken


def test_rule17_unknown_modifier_is_named():
    """Rule 17: a modifier the rule does not have is refused, naming it and the valid ones."""
    with pytest.raises(UnknownFact, match=r"unknown modifier 'flank'.*general-attached"):
        odds(infantry(), "flank")


def test_rule17_contradictory_modifiers_refused():
    """Rule 17: a general cannot be both attached and further than 8" away."""
    with pytest.raises(UnknownFact, match="cannot both hold"):
        odds(infantry(), "general-attached", "no-general-within-8")


def test_morale_follow_on_names_are_shared():
    """The follow-on names the morale module hands out are fixed strings other modules use."""
    assert MORALE == "morale test" and ROUT_REACTION == "reaction to rout"


def test_rule17_shaken_and_routing_brigades_test_each_move():
    """Rule 17: every brigade in Rout or Shaken tests at the end of its corps move."""
    brigades = (infantry(name="1"), infantry(name="2", state=MoraleState.SHAKEN),
                cavalry(state=MoraleState.ROUT), battery(state=MoraleState.DISORDERED))
    due = owed_morale_tests(brigades)
    assert [(f.test, f.who) for f in due] == [(MORALE, "2"), (MORALE, "3 Cavalry")]


def test_rule18_rally_odds_of_a_routing_brigade():
    """Rule 18: a routing class B brigade with a commander in contact: 1d6 −2 → Shaken on 5-6
    (1/3); otherwise it runs on (2/3). Without the commander it runs on for certain."""
    routing = infantry(state=MoraleState.ROUT)
    assert state_odds(MoraleTest(routing, rallying=True)) == {MoraleState.SHAKEN: F(1, 3),
                                                              MoraleState.ROUT: F(2, 3)}
    assert state_odds(MoraleTest(routing)) == {MoraleState.ROUT: F(1)}


def test_rule18_rally_odds_of_a_shaken_class_a_brigade_with_general():
    """Rule 18: Shaken class A, general attached: 1d6 +1 +1 −2 = 1d6: Disordered on 3-6 (2/3),
    stays Shaken on 1-2 (1/3)."""
    test = MoraleTest(infantry(rating=Rating.A, state=MoraleState.SHAKEN),
                      frozenset({"general-attached"}), rallying=True)
    assert state_odds(test) == {MoraleState.DISORDERED: F(2, 3), MoraleState.SHAKEN: F(1, 3)}
