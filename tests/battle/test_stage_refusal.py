"""The sequence of an activation asked before the roll (seed 000, "Summary of the Rules": spot,
artillery fire, its morale tests, movement, combats, morale): ``fight.stage_refusal`` is the
step's own check (``enter_stage``) applying nothing, and the odds of a test (what the battle
window asks before the roll) are refused with it, ``NotNow``, word for word what the step
refuses after the roll.

The battle: 1 French Corps against 1 Prussian Corps, both class B (tests/battle/setups.py);
chip 2 is the French corps commander, Average (+2)."""

from __future__ import annotations

import pytest

from campaign1813.campaign.battle.core.refusal import NotNow
from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.session import act
from tests.battle.setups import setup

FR, PR = "1 French Corps", "1 Prussian Corps"
FIRE = {"band": "long"}
# Rule 1: the two blinds spot each other at 12 inches (automatic) before the first chip, so
# the brigades are on the table to be fired on.
SPOTTED = (("test", None, {"test": "spot", "who": PR, "target": FR, "options": {"inches": 12}}),
           ("test", None, {"test": "spot", "who": FR, "target": PR, "options": {"inches": 12}}))


def _steps(s, *actions):
    steps: list[f.Step] = []
    for action, typed, inputs in actions:
        steps.append(act(s, steps, action, typed=typed, **inputs))
    return steps


def test_sequence_a_fire_test_after_a_skirmish_is_refused_before_and_after_the_roll():
    """Seed 000's sequence: artillery fire comes before the combats; a skirmish (a combat)
    moves the activation on, so the battery's fire is refused, and the query says so first."""
    s = setup(["B"], ["B"], cinc=True)
    steps = _steps(s, *SPOTTED, ("draw", None, {"chip": "2"}), ("pips", [4], {}),
                   ("test", [1, 1], {"test": "skirmish", "who": f"{FR}/1",
                                     "target": f"{PR}/1"}))
    state = f.replay(s, steps)
    why = f.stage_refusal(s, state, f.Stage.FIRE, "a fire test")
    with pytest.raises(NotNow) as asked:                  # the odds, before the roll
        prepare(s, state, "fire", f"{FR}/art", f"{PR}/1", FIRE)
    assert str(asked.value) == why == (
        "a fire test comes at the artillery fire step, and this move has gone on to combats "
        "(seed 000's sequence: spot, artillery fire, its morale tests, movement, combats, "
        "morale)")
    with pytest.raises(ActionRefused) as refused:
        act(s, steps, "test", typed=[(1, 1)], test="fire", who=f"{FR}/art",
            target=f"{PR}/1", options=FIRE)
    assert str(refused.value) == why
    assert f.replay(s, steps) == state   # asking changed nothing


def test_sequence_a_test_before_the_pips_is_refused_and_one_in_order_is_not():
    """Rule 3: the commander rolls his pips before his brigades act; once he has, his battery
    may fire (the artillery fire step) and the query has nothing to say."""
    s = setup(["B"], ["B"], cinc=True)
    steps = _steps(s, *SPOTTED, ("draw", None, {"chip": "2"}))
    state = f.replay(s, steps)
    why = f"{s.commander(state.activation.commander).name} must roll his pips before a fire test"
    assert f.stage_refusal(s, state, f.Stage.FIRE, "a fire test") == why
    with pytest.raises(NotNow, match=why):
        prepare(s, state, "fire", f"{FR}/art", f"{PR}/1", FIRE)
    rolled = f.replay(s, [*steps, act(s, steps, "pips", typed=[4])])
    assert prepare(s, rolled, "fire", f"{FR}/art", f"{PR}/1", FIRE).stage == f.Stage.FIRE
    assert f.stage_refusal(s, rolled, f.Stage.FIRE, "a fire test") is None
    assert f.stage_refusal(s, rolled, None, "a rout reaction") is None
