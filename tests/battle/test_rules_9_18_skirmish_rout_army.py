"""Rule 11 (skirmish), Rule 16 (reaction to rout, pursuit, rally of pursuers) and the army break.

Probabilities worked by hand from 1d6 and the seed's tables.
"""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.army import (
    ArmyStanding,
    BrigadeStanding,
    CorpsStanding,
    InvalidArmy,
    army_break,
    brigade_broken,
    corps_broken,
    winner_by_break,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, CavalryWeight
from campaign1813.campaign.battle.ruleset1813.rules.combat import CombatRefused, CombatSide
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import UnknownFact
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MORALE,
    PURSUIT_RALLY,
    ROUT_REACTION,
    MoraleOutcome,
    MoraleTest,
    morale_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.rout import (
    CHARGE,
    Nearby,
    pursue,
    pursuit_chance,
    pursuit_odds,
    rally_pursuers,
    rally_pursuers_odds,
    rout_reaction,
)
from campaign1813.campaign.battle.ruleset1813.rules.skirmish import (
    Skirmish,
    hit_chance,
    skirmish,
    skirmish_modifiers,
    skirmish_odds,
)
from campaign1813.campaign.battle.terms import Arm, Formation, MoraleState, Rating


def inf(name="13 Brigade", facts=(), **kw) -> CombatSide:
    return CombatSide(Brigade(name, Arm.INFANTRY, **kw), frozenset(facts))


def horse(name="Hussars", **kw) -> Brigade:
    kw.setdefault("cavalry", CavalryWeight.LIGHT)
    return Brigade(name, Arm.CAVALRY, **kw)


# --- Rule 11 -------------------------------------------------------------------------------

def test_rule11_skirmish_a_against_c():
    """Rule 11: skirmish A: 1d6 +3 ≥ 6 on 3-6 = 2/3; skirmish C: 1d6 +1 ≥ 6 on 5-6 = 1/3.

    Both kill: 2/9; only the attacker: 4/9; only the defender: 1/9; neither: 2/9.
    """
    odds = skirmish_odds(Skirmish(inf(skirmish=Rating.A), inf("16", skirmish=Rating.C)))
    assert (odds.attacker_hits, odds.defender_hits) == (F(2, 3), F(1, 3))
    assert odds.outcomes == {(True, True): F(2, 9), (True, False): F(4, 9),
                             (False, True): F(1, 9), (False, False): F(2, 9)}


def test_rule11_skirmish_b_is_plus_two():
    """Rule 11: skirmish B: 1d6 +2 ≥ 6 on 4-6 = 1/2."""
    assert skirmish_odds(Skirmish(inf(), inf("2"))).attacker_hits == F(1, 2)


def test_rule11_every_minus():
    """Rule 11: defender skirmish A in square, disordered, 1 casualty, outnumbered, facing
    deployed artillery and an enemy in a wood: +3 −1 −1 −1 −1 −1 −1 = −3: never kills."""
    d = inf("2", facts={"outnumbered", "enemy-artillery", "enemy-in-cover"},
            skirmish=Rating.A, formation=Formation.SQUARE, state=MoraleState.DISORDERED,
            casualties=1)
    _, mods = skirmish_modifiers(Skirmish(inf(), d))
    assert sum(m.value for m in mods) == -3
    assert hit_chance(mods) == 0


def test_rule11_shaken_minus_two():
    """Rule 11: a Shaken skirmish A defender: 1d6 +1 → 5-6 = 1/3."""
    odds = skirmish_odds(Skirmish(inf(), inf("2", skirmish=Rating.A, state=MoraleState.SHAKEN)))
    assert odds.defender_hits == F(1, 3)


def test_design_44_skirmish_six_or_more_kills():
    """DESIGN 4.4 / Rule 11: a total of exactly 6 kills, 5 does not; a kill costs 1 casualty
    and the brigade that took it tests morale."""
    sk = Skirmish(inf(skirmish=Rating.A), inf("16 Brigade", skirmish=Rating.C))
    result = skirmish(sk, TypedDice([3, 4]))  # 3 +3 = 6 kills; 4 +1 = 5 does not
    assert result.totals == (6, 5)
    assert [(e.brigade, e.casualties) for e in result.effects] == [("16 Brigade", 1)]
    assert [(f.test, f.who) for f in result.follow_ons] == [(MORALE, "16 Brigade")]


def test_rule11_both_kill_both_test():
    """Rule 11: both reach 6: each loses a casualty and each tests morale."""
    result = skirmish(Skirmish(inf(skirmish=Rating.A), inf("2")), TypedDice([6, 6]))
    assert sorted(e.brigade for e in result.effects) == ["13 Brigade", "2"]
    assert len([f for f in result.follow_ons if f.test == MORALE]) == 2


def test_rule11_sixth_casualty_routs_without_test():
    """Rules 11/17: a skirmish casualty that makes 6 routs the brigade with no morale test."""
    result = skirmish(Skirmish(inf(skirmish=Rating.A), inf("2", casualties=5)), TypedDice([6, 1]))
    (effect,) = result.effects
    assert effect.new_state is MoraleState.ROUT
    assert [f.test for f in result.follow_ons] == [ROUT_REACTION]


def test_rule11_defender_may_decline():
    """Rule 11: the defender may skirmish back, or not: no roll is taken for it."""
    sk = Skirmish(inf(), inf("2"), defender_replies=False)
    assert skirmish_odds(sk).defender_hits == 0
    result = skirmish(sk, TypedDice([1]))
    assert result.rolls[1] is None and result.effects == ()


def test_rule11_refusals():
    """Rule 11: only infantry skirmish, not disordered starters, only the listed modifiers."""
    with pytest.raises(CombatRefused, match="only infantry"):
        skirmish_odds(Skirmish(CombatSide(horse()), inf()))
    with pytest.raises(CombatRefused, match="disordered"):
        skirmish_odds(Skirmish(inf(state=MoraleState.DISORDERED), inf("2")))
    with pytest.raises(UnknownFact, match="garrison"):
        skirmish_odds(Skirmish(inf(facts={"garrison"}), inf("2")))


# --- Rule 16 -------------------------------------------------------------------------------

def test_rule16_reaction_of_nearby_friends():
    """Rule 16: routers within 4" leave the table, Shaken ones rout, others test with −1."""
    routed = Brigade("Hussars", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT,
                     state=MoraleState.ROUT)
    near = (Nearby(Brigade("Lancers", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT,
                           state=MoraleState.ROUT)),
            Nearby(Brigade("1 Brigade", Arm.INFANTRY, state=MoraleState.SHAKEN)),
            Nearby(Brigade("Dragoons", Arm.CAVALRY, cavalry=CavalryWeight.MEDIUM)))
    reaction = rout_reaction(routed, near)
    removed, routs = reaction.effects
    assert removed.brigade == "Lancers" and removed.removed
    assert (routs.brigade, routs.new_state, routs.rout_inches) == ("1 Brigade",
                                                                  MoraleState.ROUT, 6)
    (test,) = reaction.tests
    assert test.brigade.name == "Dragoons" and test.facts == {"rout-within-4"}
    assert [f.test for f in reaction.follow_ons] == [ROUT_REACTION, MORALE]
    # Rule 17: class B dragoons, rout within 4": 1d6 −1 → pass 1/2, Shaken 1/3, rout 1/6.
    assert morale_odds(test) == {MoraleOutcome.PASS: F(1, 2), MoraleOutcome.SHAKEN: F(1, 3),
                                 MoraleOutcome.ROUT: F(1, 6)}


def test_rule16_routed_through_disorders_and_tests():
    """Rule 16: a formed battery routed through becomes Disordered and tests with −1 disordered,
    −1 rout within 4", −1 routed through: 1d6 −3 → pass 1/6, Shaken 1/3, rout 1/2."""
    routed = Brigade("Hussars", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT)
    gun = Brigade("Horse battery", Arm.ARTILLERY)
    reaction = rout_reaction(routed, (Nearby(gun, routed_through=True),))
    (effect,) = reaction.effects
    assert effect.new_state is MoraleState.DISORDERED
    (test,) = reaction.tests
    assert test.brigade.state is MoraleState.DISORDERED
    assert test.facts == {"rout-within-4", "routed-through"}
    assert morale_odds(test) == {MoraleOutcome.PASS: F(1, 6), MoraleOutcome.SHAKEN: F(1, 3),
                                 MoraleOutcome.ROUT: F(1, 2)}
    assert reaction.follow_ons[0].facts == {"rout-within-4", "routed-through"}


def test_rule16_a_brigade_cannot_react_to_itself():
    """Rule 16: the routing brigade is not one of its own neighbours."""
    b = Brigade("1", Arm.INFANTRY)
    with pytest.raises(CombatRefused):
        rout_reaction(b, (Nearby(b),))


def test_rule16_pursuit_chance_all_nations_and_british():
    """Rule 16: cavalry that cause a rout pursue on 5-6 (1/3), British on 4-6 (1/2)."""
    assert pursuit_chance(horse()) == F(1, 3)
    assert pursuit_chance(horse(nation="British")) == F(1, 2)


def test_rule16_pursuit_odds():
    """Rule 16: no pursuit 2/3; each result (1-2, 3-4, 5-6) 1/3 × 1/3 = 1/9."""
    odds = pursuit_odds(horse())
    assert [p for _, p in odds] == [F(2, 3), F(1, 9), F(1, 9), F(1, 9)]
    assert [row.within for row, _ in odds[1:]] == [0, 8, 4]
    assert [p for _, p in pursuit_odds(horse(nation="british"))] == [F(1, 2)] + [F(1, 6)] * 3


def test_rule16_no_pursuit_on_four_for_french():
    """Rule 16: a 4 is no pursuit for French cavalry; no second roll is taken."""
    result = pursue(horse(nation="French"), None, TypedDice([4]))
    assert not result.pursues and result.result_roll is None and result.follow_ons == ()


def test_rule16_british_pursue_on_four_and_ride_down_routers():
    """Rule 16: British pursue on 4; then 1-2: pursue the routers 12" and cause a casualty."""
    routers = Brigade("2 Brigade", Arm.INFANTRY, state=MoraleState.ROUT, casualties=3)
    result = pursue(horse(nation="British"), routers, TypedDice([4, 2]))
    assert result.pursues and result.row.action == "routers" and result.row.move == 12
    assert [(e.brigade, e.casualties) for e in result.effects] == [("Hussars", 0),
                                                                   ("2 Brigade", 1)]
    assert [f.test for f in result.follow_ons] == [PURSUIT_RALLY]


def test_rule16_pursuit_charges_nearest_enemy():
    """Rule 16: 3-4: charge the nearest enemy within 8"; 5-6 within 4"."""
    r8 = pursue(horse(), None, TypedDice([5, 3]))
    r4 = pursue(horse(), None, TypedDice([6, 6]))
    assert [f.test for f in r8.follow_ons] == [CHARGE, PURSUIT_RALLY]
    assert "within 8\"" in r8.follow_ons[0].reason and "within 4\"" in r4.follow_ons[0].reason
    assert r8.follow_ons[1].facts == {"pursuit"}


def test_rule16_only_cavalry_pursue():
    """Rule 16: only cavalry pursue."""
    with pytest.raises(CombatRefused, match="only cavalry"):
        pursuit_chance(Brigade("1", Arm.INFANTRY))


def test_rule16_rally_pursuers():
    """Rule 16: disordered pursuers rally with −1 (disordered or pursuit, once):
    pass on 4-6 = 1/2 → Disordered; otherwise back to own lines Shaken = 1/2."""
    test = MoraleTest(horse(state=MoraleState.DISORDERED), rallying=True)
    assert rally_pursuers_odds(test) == {MoraleState.DISORDERED: F(1, 2),
                                         MoraleState.SHAKEN: F(1, 2)}
    ok = rally_pursuers(test, TypedDice([4]))
    assert ok.effect.new_state is MoraleState.DISORDERED
    bad = rally_pursuers(test, TypedDice([1]))
    assert bad.outcome is MoraleOutcome.ROUT and bad.effect.new_state is MoraleState.SHAKEN
    assert "own lines" in bad.effect.note and bad.follow_ons == ()


def test_rule16_rally_pursuers_needs_a_commander_and_limit_routs():
    """Rule 16: rallying needs a commander in contact; 4 casualties rout cavalry regardless."""
    with pytest.raises(CombatRefused, match="base contact"):
        rally_pursuers_odds(MoraleTest(horse()))
    worn = MoraleTest(horse(casualties=4), rallying=True)
    assert rally_pursuers_odds(worn) == {MoraleState.ROUT: F(1)}
    assert rally_pursuers(worn, TypedDice([])).effect.new_state is MoraleState.ROUT


# --- Army break (DESIGN 4.4) -----------------------------------------------------------------

S = MoraleState


def corps(name, *states, destroyed=0):
    units = [BrigadeStanding(f"{name}-{i}", s) for i, s in enumerate(states)]
    units += [BrigadeStanding(f"{name}-x{i}", S.FORMED, destroyed=True) for i in range(destroyed)]
    return CorpsStanding(name, tuple(units))


def test_design_44_broken_brigades():
    """DESIGN 4.4: Rout, Shaken or destroyed is broken; Formed and Disordered are not."""
    assert [brigade_broken(BrigadeStanding("b", s)) for s in S] == [False, False, True, True]
    assert brigade_broken(BrigadeStanding("b", S.FORMED, destroyed=True))
    assert BrigadeStanding.of(Brigade("b", Arm.INFANTRY, state=S.SHAKEN)).state is S.SHAKEN


def test_design_44_corps_breaks_at_half():
    """DESIGN 4.4: 3 of 6 (half) breaks a corps; 2 of 6 does not; destroyed ones count."""
    assert corps_broken(corps("4", S.ROUT, S.SHAKEN, S.ROUT, S.FORMED, S.FORMED, S.DISORDERED))
    assert not corps_broken(corps("4", S.ROUT, S.SHAKEN, *[S.FORMED] * 4))
    assert corps_broken(corps("4", S.ROUT, S.SHAKEN, *[S.FORMED] * 3, destroyed=1))
    with pytest.raises(InvalidArmy, match="no brigades"):
        corps_broken(CorpsStanding("empty", ()))


def test_design_44_side_loses_at_half_its_corps():
    """DESIGN 4.4: 2 of 4 corps broken loses the battle; 1 of 4 does not."""
    broken, whole = corps("5", S.ROUT, S.ROUT, S.ROUT), corps("6", S.FORMED, S.FORMED)
    french = ArmyStanding("French", (broken, corps("cav", S.SHAKEN, S.ROUT), whole, whole))
    prussians = ArmyStanding("Prussians", (broken, whole, whole, whole))
    fr = army_break(french)
    assert fr.lost and fr.broken_corps == ("5", "cav") and fr.corps_count == 4
    assert not army_break(prussians).lost
    assert winner_by_break(french, prussians) == "Prussians"
    assert winner_by_break(prussians, french) == "Prussians"
    assert winner_by_break(prussians, prussians) is None
    with pytest.raises(InvalidArmy):
        army_break(ArmyStanding("Nobody", ()))
