"""Rules 4-6: orders, movement and opportunity charges, in 1813 and as revised."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.movement import (
    CavalryWeight,
    Mover,
    allowance,
    blind_move_inches,
    may_move_again,
    mover_for,
)
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import (
    ChargeSituation,
    Reaction,
    ReactionSituation,
    charge_grounds,
    charge_modifiers,
    charge_odds,
    opportunity_charge,
    react,
    reaction_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.orders import (
    BrigadeIntent,
    Intent,
    duties,
    enter_defence_zone,
    may_change_orders,
    order_allows,
)
from campaign1813.campaign.battle.terms import (
    Arm,
    Calibre,
    CorpsOrder,
    Formation,
    Grade,
    MoraleState,
    Rating,
    Role,
)

OLD, NEW = "1813", "1813-revised"
RULESETS = (OLD, NEW)
POOR = Grade.POOR


# --- Rule 4: orders -----------------------------------------------------------------------


def intent(arm, what, **facts):
    return BrigadeIntent("17 Brigade", arm, what, **facts)


def test_rule_4_move_keeps_4_inches_in_the_open_2_in_difficult_ground_in_1813():
    """Rule 4 (1813): Move may not end closer than 4 inches (open) or 2 (BUA, difficult)."""
    advance = intent(Arm.INFANTRY, Intent.ADVANCE, enemy_inches=3)
    verdict = order_allows(CorpsOrder.MOVE, advance, OLD)
    assert not verdict and "closer than 4 inches" in verdict.reason
    near_bua = intent(Arm.INFANTRY, Intent.ADVANCE, enemy_inches=3, difficult=True)
    verdict = order_allows(CorpsOrder.MOVE, near_bua, OLD)
    assert verdict.allowed and verdict.obliged     # every brigade must move on Move orders


def test_rule_4_revised_move_keeps_4_inches_everywhere():
    """Revised Rule 4: Move may not come closer than 4 inches, difficult ground or not."""
    near_bua = intent(Arm.INFANTRY, Intent.ADVANCE, enemy_inches=3, difficult=True)
    assert not order_allows(CorpsOrder.MOVE, near_bua, NEW)
    assert order_allows(CorpsOrder.MOVE, intent(Arm.INFANTRY, Intent.ADVANCE,
                                                enemy_inches=4), NEW)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_4_halt_may_not_approach_but_may_fall_back(ruleset):
    assert not order_allows(CorpsOrder.HALT, intent(Arm.INFANTRY, Intent.ADVANCE), ruleset)
    assert order_allows(CorpsOrder.HALT, intent(Arm.INFANTRY, Intent.RETIRE), ruleset)
    verdict = order_allows(CorpsOrder.MOVE, intent(Arm.INFANTRY, Intent.RETIRE), ruleset)
    assert not verdict and "towards the objective" in verdict.reason
    assert not order_allows(CorpsOrder.HOLD, intent(Arm.INFANTRY, Intent.RETIRE), ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_4_hold_stops_at_the_objective_except_cavalry_reconnoitring(ruleset):
    past = intent(Arm.INFANTRY, Intent.ADVANCE, beyond_objective=True)
    assert not order_allows(CorpsOrder.HOLD, past, ruleset)
    recce = intent(Arm.CAVALRY, Intent.ADVANCE, beyond_objective=True, recce=True)
    assert order_allows(CorpsOrder.HOLD, recce, ruleset)
    assert order_allows(CorpsOrder.ENGAGE, past, ruleset)
    assert order_allows(CorpsOrder.HOLD, intent(Arm.INFANTRY, Intent.ADVANCE), ruleset)


def test_rule_4_hold_and_engage_charge_and_fire_within_8_inches_in_1813():
    """Rule 4 (1813): on Hold or Engage cavalry charge, infantry fire, at enemy within 8"."""
    for order in (CorpsOrder.HOLD, CorpsOrder.ENGAGE):
        assert order_allows(order, intent(Arm.CAVALRY, Intent.CAVALRY_CHARGE,
                                          enemy_inches=8), OLD)
        assert not order_allows(order, intent(Arm.CAVALRY, Intent.CAVALRY_CHARGE,
                                              enemy_inches=9), OLD)
        assert order_allows(order, intent(Arm.INFANTRY, Intent.INFANTRY_FIRE,
                                          enemy_inches=8), OLD)
        verdict = order_allows(order, intent(Arm.INFANTRY, Intent.INFANTRY_FIRE,
                                             enemy_inches=10), OLD)
        assert not verdict and "within 8 inches" in verdict.reason


def test_rule_4_revised_hold_and_engage_charge_and_fire_at_any_enemy():
    """Revised Rule 4: the 8-inch limit is gone."""
    for order in (CorpsOrder.HOLD, CorpsOrder.ENGAGE):
        assert order_allows(order, intent(Arm.CAVALRY, Intent.CAVALRY_CHARGE,
                                          enemy_inches=12), NEW)
        assert order_allows(order, intent(Arm.INFANTRY, Intent.INFANTRY_FIRE,
                                          enemy_inches=10), NEW)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_4_move_allows_no_deliberate_charge_but_artillery_always_fires(ruleset):
    verdict = order_allows(CorpsOrder.MOVE, intent(Arm.CAVALRY, Intent.CAVALRY_CHARGE,
                                                   enemy_inches=2), ruleset)
    assert not verdict and "opportunity charge" in verdict.reason
    for order in CorpsOrder:
        assert order_allows(order, intent(Arm.ARTILLERY, Intent.ARTILLERY_FIRE), ruleset)
    assert not order_allows(CorpsOrder.HOLD, intent(Arm.INFANTRY, Intent.INFANTRY_CHARGE),
                            ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_4_attack_obliges_formed_troops_to_charge(ruleset):
    """Rule 4: on Attack cavalry and infantry must charge; Shaken or Disordered need not."""
    cav = order_allows(CorpsOrder.ATTACK, intent(Arm.CAVALRY, Intent.CAVALRY_CHARGE), ruleset)
    assert cav.allowed and cav.obliged
    inf = order_allows(CorpsOrder.ATTACK, intent(Arm.INFANTRY, Intent.INFANTRY_CHARGE,
                                                 target_arm=Arm.ARTILLERY), ruleset)
    assert inf.obliged
    shaken = order_allows(CorpsOrder.ATTACK, intent(Arm.INFANTRY, Intent.INFANTRY_CHARGE,
                                                    target_arm=Arm.INFANTRY,
                                                    state=MoraleState.SHAKEN), ruleset)
    assert shaken.allowed and not shaken.obliged and "need not attack" in shaken.reason


def test_rule_4_only_cavalry_make_cavalry_charges():
    verdict = order_allows(CorpsOrder.ATTACK, intent(Arm.INFANTRY, Intent.CAVALRY_CHARGE), OLD)
    assert not verdict and "only cavalry" in verdict.reason


def test_rule_4_duties_differ_between_the_rulesets():
    """Rule 4: Engage obliges one brigade forward in 1813, not as revised; revised Hold
    must counter attack; 1813 Attack obliges every brigade forward."""
    assert "at least one brigade must move towards the objective" in duties(CorpsOrder.ENGAGE,
                                                                             OLD)
    assert duties(CorpsOrder.ENGAGE, NEW) == ()
    assert "must counter attack if forced to fall back" in duties(CorpsOrder.HOLD, NEW)
    assert "must counter attack if forced to fall back" not in duties(CorpsOrder.HOLD, OLD)
    assert duties(CorpsOrder.ATTACK, OLD)[0] == "every brigade must move towards the objective"
    assert "every brigade must move towards the objective" not in duties(CorpsOrder.ATTACK, NEW)
    assert "may not move closer to the enemy" in duties(CorpsOrder.HALT, OLD)
    assert "may not advance beyond the far edge of the objective" in duties(CorpsOrder.HOLD, OLD)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_4_only_the_cinc_changes_orders_except_to_halt(ruleset):
    assert may_change_orders(Role.CINC, CorpsOrder.ATTACK, ruleset)
    assert may_change_orders(Role.CORPS, CorpsOrder.HALT, ruleset)
    verdict = may_change_orders(Role.CORPS, CorpsOrder.ATTACK, ruleset)
    assert not verdict and "only the CinC" in verdict.reason


def test_revised_rule_5_defence_zone():
    """Revised Rule 5: only Attack or Engage troops enter the 4-inch zone; passing through it
    draws fire. The 1813 rules have no zone."""
    verdict, follow = enter_defence_zone("Prussian 3 Brigade", CorpsOrder.MOVE, "13 Brigade",
                                         False, OLD)
    assert verdict and follow == ()
    verdict, follow = enter_defence_zone("Prussian 3 Brigade", CorpsOrder.MOVE, "13 Brigade",
                                         False, NEW)
    assert not verdict and "4-inch zone" in verdict.reason
    verdict, follow = enter_defence_zone("Prussian 3 Brigade", CorpsOrder.ATTACK, "13 Brigade",
                                         True, NEW)
    assert verdict and follow[0].test == "defence zone fire" and follow[0].who == "13 Brigade"
    verdict, follow = enter_defence_zone("Prussian 3 Brigade", CorpsOrder.ENGAGE, "13 Brigade",
                                         False, NEW)
    assert verdict and follow == ()


# --- Rule 5: movement -------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("arm", "formation", "extra", "inches"), [
    (Arm.CAVALRY, Formation.CAVALRY_COLUMN, {"weight": CavalryWeight.LIGHT}, 16),
    (Arm.CAVALRY, Formation.CAVALRY_LINE, {"weight": CavalryWeight.LIGHT}, 14),
    (Arm.CAVALRY, Formation.CAVALRY_COLUMN, {"weight": CavalryWeight.HEAVY}, 14),
    (Arm.CAVALRY, Formation.CAVALRY_LINE, {"weight": CavalryWeight.MEDIUM}, 12),
    (Arm.ARTILLERY, Formation.LIMBERED, {"horse_artillery": True}, 12),
    (Arm.ARTILLERY, Formation.LIMBERED, {}, 8),
    (Arm.INFANTRY, Formation.COLUMN_OF_MARCH, {}, 8),
    (Arm.INFANTRY, Formation.COLUMN_OF_ATTACK, {}, 6),
    (Arm.INFANTRY, Formation.LINE, {}, 4),
    (Arm.INFANTRY, Formation.SQUARE, {}, 2),
    (Arm.ARTILLERY, Formation.UNLIMBERED, {"calibre": Calibre.MEDIUM}, 2),
    (Arm.ARTILLERY, Formation.UNLIMBERED, {"calibre": Calibre.LIGHT}, 2),
    (Arm.ARTILLERY, Formation.UNLIMBERED, {"calibre": Calibre.HEAVY}, 1),
])
def test_rule_5_allowances(ruleset, arm, formation, extra, inches):
    """Rule 5's movement table, the same in the revision."""
    assert allowance(mover_for(arm, formation, **extra), ruleset) == inches


def test_rule_5_difficult_terrain_halves_and_half_moves_halve_again():
    """Rule 5: heavy cavalry line 12 -> 6 in difficult terrain; infantry line half move there
    is 1 inch; generals move 16."""
    heavy_line = mover_for(Arm.CAVALRY, Formation.CAVALRY_LINE, weight=CavalryWeight.HEAVY)
    assert allowance(heavy_line, OLD, difficult=True) == 6
    assert allowance(Mover.INFANTRY_LINE, OLD, difficult=True, half=True) == 1
    assert allowance(Mover.MANHANDLE_HEAVY, OLD, difficult=True) == F(1, 2)
    assert allowance(Mover.GENERAL, OLD) == 16


def test_rule_5_no_such_formation():
    with pytest.raises(ValueError, match="infantry cannot stand in limbered"):
        mover_for(Arm.INFANTRY, Formation.LIMBERED)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rules_1_5_blinds_move_8_inches_a_pip_alone_4_when_several(ruleset):
    assert blind_move_inches(3, 1, ruleset) == 24
    assert blind_move_inches(3, 2, ruleset) == 12
    with pytest.raises(ValueError):
        blind_move_inches(-1, 1, ruleset)
    with pytest.raises(ValueError):
        blind_move_inches(1, 0, ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_5_multiple_moves_need_4_inches_clear_for_generals_16_for_brigades(ruleset):
    assert not may_move_again(Mover.GENERAL, 4, ruleset)
    assert may_move_again(Mover.GENERAL, 5, ruleset)
    verdict = may_move_again(Mover.INFANTRY_LINE, 16, ruleset)
    assert not verdict and "half move with a change of formation" in verdict.reason
    assert may_move_again(None, 17, ruleset)
    assert may_move_again(Mover.INFANTRY_LINE, None, ruleset)


# --- Rule 6: opportunity charge ---------------------------------------------------------------


def charge(**facts):
    base = dict(cavalry="Prussian hussars", rating=Rating.B, target="French 3 Cavalry",
                target_arm=Arm.CAVALRY, target_state=MoraleState.FORMED,
                target_formation=Formation.CAVALRY_COLUMN)
    base.update(facts)
    return ChargeSituation(**base)


@pytest.mark.parametrize(("facts", "p_old", "p_new"), [
    # B class, commander within 4: +1 in both -> 3+ (4/6).
    ({"commander_within_4": True}, F(2, 3), F(2, 3)),
    # B class, nothing else: 1813 4+ (1/2); revised -1 no commander within 8 -> 5+ (1/3).
    ({}, F(1, 2), F(1, 3)),
    # A class, commander within 4, flank: 1813 +3 -> always; revised +3 -> always.
    ({"rating": Rating.A, "commander_within_4": True, "flank_or_rear": True}, F(1), F(1)),
    # C class, Poor commander (not near): 1813 -2 -> 6 only (1/6);
    # revised -1 C, -1 no commander within 8 (Poor is not a charge modifier) -> 6 only (1/6).
    ({"rating": Rating.C, "commander_grade": POOR}, F(1, 6), F(1, 6)),
    # B class, commander within 8 but not 4, 1 casualty: 1813 no modifier -> 1/2;
    # revised -1 casualty -> 5 or 6 (1/3).
    ({"commander_within_8": True, "casualties": 1}, F(1, 2), F(1, 3)),
    # B class, no commander near, 2 casualties: 1813 -> 1/2; revised -3 -> 7 needed, never.
    ({"casualties": 2}, F(1, 2), F(0)),
])
def test_rule_6_charge_test_odds(facts, p_old, p_new):
    """Rule 6: 1d6 needs 4+; +1 A, -1 C, +1 commander within 4, -1 Poor commander, +1 flank
    (1813); revised adds -1 no commander within 8 and -1 each casualty, drops Poor commander."""
    assert charge_odds(charge(**facts), OLD)[True] == p_old
    assert charge_odds(charge(**facts), NEW)[True] == p_new


def test_rule_6_revised_commander_within_4_charge_odds_worked_out():
    """Revised Rule 6: B class with commander within 4: +1 -> 3+ = 4/6."""
    assert charge_odds(charge(commander_within_4=True), NEW) == {True: F(2, 3), False: F(1, 3)}
    labels = [m.label for m in charge_modifiers(charge(casualties=2), NEW)]
    assert labels == ["no commander within 8 inches", "each casualty ×2"]


def test_rule_6_disordered_targets_are_fair_game_in_1813_only():
    """Rule 6: 1813 lists Disordered or Shaken targets; the revision only Shaken."""
    disordered_line = charge(target_arm=Arm.INFANTRY, target_state=MoraleState.DISORDERED,
                             target_formation=Formation.LINE)
    assert charge_grounds(disordered_line, OLD) == ("disordered",)
    assert charge_grounds(disordered_line, NEW) == ()
    with pytest.raises(ActionRefused, match="offers no opportunity charge"):
        charge_odds(disordered_line, NEW)
    shaken = charge(target_arm=Arm.INFANTRY, target_state=MoraleState.SHAKEN,
                    target_formation=Formation.LINE)
    assert charge_grounds(shaken, NEW) == ("shaken",)


@pytest.mark.parametrize(("arm", "formation", "ground"), [
    (Arm.INFANTRY, Formation.COLUMN_OF_MARCH, "infantry_column_of_march"),
    (Arm.ARTILLERY, Formation.LIMBERED, "limbered_artillery"),
    (Arm.CAVALRY, Formation.CAVALRY_COLUMN, "cavalry_column"),
])
def test_rule_6_targets_by_formation(arm, formation, ground):
    s = charge(target_arm=arm, target_formation=formation)
    assert charge_grounds(s, OLD) == charge_grounds(s, NEW) == (ground,)


def test_rule_6_formed_line_from_the_front_cannot_be_opportunity_charged():
    front = charge(target_arm=Arm.INFANTRY, target_formation=Formation.LINE)
    with pytest.raises(ActionRefused, match="no opportunity charge from the front"):
        charge_odds(front, OLD)
    assert charge_grounds(charge(target_arm=Arm.INFANTRY, target_formation=Formation.LINE,
                                 flank_or_rear=True), OLD) == ("flank_or_rear",)


def test_rule_6_only_formed_cavalry_in_the_enemy_move():
    with pytest.raises(ActionRefused, match="only formed cavalry"):
        charge_odds(charge(state=MoraleState.DISORDERED), OLD)
    with pytest.raises(ActionRefused, match="only during the enemy's move"):
        opportunity_charge(charge(enemy_move=False), TypedDice([6]), OLD)
    with pytest.raises(ValueError, match="negative"):
        charge_odds(charge(casualties=-1), OLD)


def test_rule_6_a_four_makes_the_charge_and_the_target_reacts():
    made = opportunity_charge(charge(), TypedDice([4]), OLD)
    assert made.passed and made.total == 4
    assert made.follow_ons[0].test == "reaction to charge"
    missed = opportunity_charge(charge(), TypedDice([3]), OLD)
    assert not missed.passed and missed.follow_ons == ()


# --- Rule 6: reaction ---------------------------------------------------------------------


def reaction(kind, arm=Arm.INFANTRY, **facts):
    base = dict(brigade="17 Brigade", arm=arm, rating=Rating.B, state=MoraleState.FORMED,
                reaction=kind, beyond_half_move=True, charger="Prussian hussars")
    base.update(facts)
    return ReactionSituation(**base)


def test_rule_6_reaction_test_1813():
    """Rule 6 (1813): change formation needs 4+ (1/2); -1 flank, -1 Poor -> 6 only (1/6);
    A class with general within 4: +2 -> 2+ (5/6)."""
    assert reaction_odds(reaction(Reaction.CHANGE_FORMATION), OLD)[True] == F(1, 2)
    hard = reaction(Reaction.TURN_TO_FACE, flank_or_rear=True, commander_grade=POOR)
    assert reaction_odds(hard, OLD)[True] == F(1, 6)
    good = reaction(Reaction.CHANGE_FORMATION, rating=Rating.A, general_within_4=True)
    assert reaction_odds(good, OLD)[True] == F(5, 6)


def test_rule_6_counter_charge_and_evade_need_no_test_in_1813():
    counter = reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY)
    assert reaction_odds(counter, OLD) == {True: F(1), False: F(0)}
    result = react(counter, TypedDice(), OLD)
    assert result.passed and result.roll is None
    assert [f.test for f in result.follow_ons] == ["cavalry combat"]
    evade = reaction(Reaction.EVADE, state=MoraleState.DISORDERED, orders_allow_evade=True)
    result = react(evade, TypedDice(), OLD)
    assert result.passed and result.follow_ons == ()
    with pytest.raises(ActionRefused, match="only if its orders allow"):
        react(reaction(Reaction.EVADE), TypedDice(), OLD)


def test_rule_6_who_may_react():
    with pytest.raises(ActionRefused, match="within half their charge move"):
        reaction_odds(reaction(Reaction.CHANGE_FORMATION, beyond_half_move=False), OLD)
    with pytest.raises(ActionRefused, match="only formed troops"):
        reaction_odds(reaction(Reaction.TURN_TO_FACE, state=MoraleState.SHAKEN), OLD)
    with pytest.raises(ActionRefused, match="intercept is for cavalry"):
        reaction_odds(reaction(Reaction.INTERCEPT), OLD)
    with pytest.raises(ActionRefused, match="own corps"):
        reaction_odds(reaction(Reaction.INTERCEPT, Arm.CAVALRY), OLD)
    assert reaction_odds(reaction(Reaction.INTERCEPT, Arm.CAVALRY, same_corps=True),
                         OLD)[True] == F(1, 2)
    with pytest.raises(ActionRefused, match="not a reaction in this ruleset"):
        reaction_odds(reaction(Reaction.FORM_SQUARE), OLD)
    with pytest.raises(ValueError, match="negative"):
        reaction_odds(reaction(Reaction.CHANGE_FORMATION, casualties=-2), OLD)


def test_rule_6_failed_reaction_in_1813_costs_nothing_by_itself():
    result = react(reaction(Reaction.CHANGE_FORMATION), TypedDice([3]), OLD)
    assert not result.passed and result.effects[0].casualties == 0
    assert result.follow_ons[0].test == "charge contact"


def test_revised_rule_6_reaction_odds():
    """Revised Rule 6: cavalry +2: B class counter charge 2+ (5/6); with 1 casualty 3+ (2/3);
    infantry forming square 4+ (1/2); C class cavalry, flank, Poor, 2 casualties: -3, never."""
    assert reaction_odds(reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY), NEW)[True] == F(5, 6)
    assert reaction_odds(reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY, casualties=1),
                         NEW)[True] == F(2, 3)
    assert reaction_odds(reaction(Reaction.FORM_SQUARE), NEW)[True] == F(1, 2)
    worst = reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY, rating=Rating.C, flank_or_rear=True,
                     commander_grade=POOR, casualties=2)
    assert reaction_odds(worst, NEW) == {True: F(0), False: F(1)}
    with pytest.raises(ActionRefused, match="not a reaction in this ruleset"):
        reaction_odds(reaction(Reaction.CHANGE_FORMATION), NEW)
    with pytest.raises(ActionRefused, match="only formed troops"):
        reaction_odds(reaction(Reaction.FORM_SQUARE, state=MoraleState.DISORDERED), NEW)


def test_revised_rule_6_failed_reaction_loses_40_percent():
    """Revised Rule 6: failing costs 40 %: 3 of 8 infantry, 2 of 4 cavalry or gunners."""
    square = react(reaction(Reaction.FORM_SQUARE), TypedDice([3]), NEW)
    assert not square.passed and square.effects[0].casualties == 3
    assert "40%" in square.effects[0].note
    cav = react(reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY, rating=Rating.C,
                         casualties=3), TypedDice([2]), NEW)
    assert not cav.passed and cav.effects[0].casualties == 2
    guns = react(reaction(Reaction.EVADE, Arm.ARTILLERY), TypedDice([1]), NEW)
    assert guns.effects[0].casualties == 2
    in_time = react(reaction(Reaction.FORM_SQUARE, reached_first=False), TypedDice([1]), NEW)
    assert in_time.effects[0].casualties == 0
    passed = react(reaction(Reaction.FORM_SQUARE), TypedDice([4]), NEW)
    assert passed.passed and passed.total == 4
    assert passed.follow_ons[0].test == "charge contact"
    evaded = react(reaction(Reaction.EVADE, Arm.ARTILLERY), TypedDice([5]), NEW)
    assert evaded.passed and evaded.follow_ons == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rules_4_11_12_13_attack_orders_forbid_infantry_fire_and_skirmish(ruleset):
    """Rules 11, 12, 13: skirmish and firefight need Hold or Engage; on Attack infantry fight
    hand to hand only (revised Rule 4: infantry melee if possible), even at 2 inches."""
    for inches in (2, 8):
        verdict = order_allows(CorpsOrder.ATTACK, intent(Arm.INFANTRY, Intent.INFANTRY_FIRE,
                                                         enemy_inches=inches), ruleset)
        assert not verdict.allowed and "may not fire" in verdict.reason
    assert order_allows(CorpsOrder.ENGAGE, intent(Arm.INFANTRY, Intent.INFANTRY_FIRE,
                                                  enemy_inches=2), ruleset).allowed


def test_rule_18_unformed_cavalry_evade_or_counter_charge_only_if_they_make_morale():
    """Rule 18 (seed 000) with Rule 17's test (3+ makes morale): Disordered class B cavalry
    evade on d6 - 1, 4+ (1/2): a 3 fails and they are reached, a 4 evades; routing class A
    cavalry counter charge on d6 + 1 - 2, 4+ (1/2). Infantry evade as Rule 6 says, with no
    test; in the revision only formed troops react at all."""
    evade = reaction(Reaction.EVADE, Arm.CAVALRY, state=MoraleState.DISORDERED,
                     orders_allow_evade=True)
    assert reaction_odds(evade, OLD) == {True: F(1, 2), False: F(1, 2)}
    failed = react(evade, TypedDice([3]), OLD)
    assert not failed.passed and failed.total == 2
    assert [x.test for x in failed.follow_ons] == ["charge contact"]
    assert failed.effects[0].note == "does not make morale (Rule 18): cannot evade"
    made = react(evade, TypedDice([4]), OLD)
    assert made.passed and made.follow_ons == ()
    routing = reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY, rating=Rating.A,
                       state=MoraleState.ROUT)
    assert reaction_odds(routing, OLD)[True] == F(1, 2)
    assert [x.test for x in react(routing, TypedDice([4]), OLD).follow_ons] == \
        ["cavalry combat"]
    infantry = reaction(Reaction.EVADE, state=MoraleState.SHAKEN, orders_allow_evade=True)
    assert reaction_odds(infantry, OLD) == {True: F(1), False: F(0)}
    with pytest.raises(ActionRefused, match="only formed troops may counter charge"):
        reaction_odds(reaction(Reaction.COUNTER_CHARGE, Arm.CAVALRY,
                               state=MoraleState.DISORDERED), NEW)
