"""The Helmstedt demo battle (seed 000) replayed through Rules 14, 16 and 17, plus doctests."""

import doctest

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813.rules import (
    army,
    brigade,
    combat,
    firefight,
    modifiers,
    morale,
    rout,
    skirmish,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, CavalryWeight
from campaign1813.campaign.battle.ruleset1813.rules.combat import Combat, CombatSide, fight
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    PURSUIT,
    MoraleOutcome,
    take_morale_test,
)
from campaign1813.campaign.battle.ruleset1813.rules.rout import Nearby, rout_reaction
from campaign1813.campaign.battle.terms import Arm, MoraleState, Rating


def test_demo_dragoons_rout_hussars_and_the_support_follows():
    """Demo Game - Move 4, report move 3: French dragoons (3 Cavalry, CB medium) charge the
    Prussian hussars, roll 6 and 5: medium +1, 11 + 1 = 12 → 10+, the hussars rout.
    Rule 16's photograph: the supporting Prussian dragoons test and rout, and rout through the
    horse artillery, which then rout too. Dragoons roll 2: −1 rout within 4", −1 no general
    within 8" (the reserve commander was away): 2 − 2 = 0 → Rout. Guns routed through roll 1:
    Disordered first, then −1 disordered, −1 rout within 4", −1 routed through: 1 − 3 = −2."""
    dragoons = Brigade("3 Cavalry", Arm.CAVALRY, cavalry=CavalryWeight.MEDIUM)
    hussars = Brigade("Prussian hussars", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT)
    result = fight(Combat(14, CombatSide(dragoons), CombatSide(hussars)), TypedDice([(6, 5)]))
    assert result.total == 12 and result.row.result == "Loser routs"
    assert result.effects[1].new_state is MoraleState.ROUT
    assert PURSUIT in [f.test for f in result.follow_ons]

    support = Brigade("Prussian dragoons", Arm.CAVALRY, cavalry=CavalryWeight.MEDIUM)
    (dragoon_test,) = rout_reaction(hussars, (Nearby(support, facts=frozenset(
        {"no-general-within-8"})),)).tests
    dragoon_result = take_morale_test(dragoon_test, TypedDice([2]))
    assert (dragoon_result.total, dragoon_result.outcome) == (0, MoraleOutcome.ROUT)

    guns = Brigade("Horse artillery", Arm.ARTILLERY)
    reaction = rout_reaction(support, (Nearby(guns, routed_through=True),))
    assert reaction.effects[0].new_state is MoraleState.DISORDERED
    (gun_test,) = reaction.tests
    gun_result = take_morale_test(gun_test, TypedDice([1]))
    assert (gun_result.total, gun_result.outcome) == (-2, MoraleOutcome.ROUT)


def test_demo_supporting_infantry_roll_six_and_six():
    """Demo: "Support infantry test morale (6 & 6) both ok": 6 −1 (rout within 4") passes."""
    inf = Brigade("17 Brigade", Arm.INFANTRY, rating=Rating.B)
    (test,) = rout_reaction(Brigade("x", Arm.CAVALRY, cavalry=CavalryWeight.MEDIUM),
                            (Nearby(inf),)).tests
    assert take_morale_test(test, TypedDice([6])).outcome is MoraleOutcome.PASS


@pytest.mark.parametrize("module", [army, brigade, combat, firefight, modifiers, morale, rout,
                                    skirmish])
def test_docstring_examples_run(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
