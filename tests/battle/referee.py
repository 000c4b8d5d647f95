"""A real campaign battle for the referee tests of rulesets 002 and 004, and a table that takes
each action through the ruleset's engine as the window and the command line do, checking that
a refusal leaves the battle and what ``battle … show`` prints exactly as they were.

The battle is the campaign's own setup (``day/fight_setup.battle_setup`` from the shipped
scenario): 5 Corps holding Magdeburg on 5 May 1813 against I Prussian Corps, 5 miles out on the
Burg road, with II Prussian Corps (9 miles out) marching to the sound of the guns: it comes on
at turn 4 (seed 000).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from functools import cache

import pytest

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.registry import find_ruleset
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.day.fight_setup import battle_setup
from campaign1813.campaign.day.ground import Ground, Position
from campaign1813.campaign.day.state import Battle, initial_state
from campaign1813.campaign.scenario.loader import load_scenario


@cache
def magdeburg(ruleset: str) -> BattleSetup:
    """The battle of Magdeburg of 5 May 1813 as the campaign sets it up, under ``ruleset``."""
    ground = Ground(load_scenario())
    day = date(1813, 5, 5)
    state = initial_state(ground.scenario, day)
    state.update("I Prussian Corps", position=Position("Magdeburg", "Burg", 5.0))
    state.update("II Prussian Corps", position=Position("Magdeburg", "Burg", 9.0))
    state.battles[1] = Battle(1, day, "Magdeburg", ("5 Corps",), ("I Prussian Corps",),
                              allied_reinforcements=("II Prussian Corps",))
    return replace(battle_setup(ground, state, 1), ruleset=ruleset)


class Table:
    """The battle's steps kept as the battle service keeps them, every action through the
    ruleset's engine."""

    def __init__(self, setup: BattleSetup) -> None:
        self.setup = setup
        self.engine = find_ruleset(setup.ruleset)
        self.steps: list = []

    def do(self, action, typed=None, **inputs):
        """Take an action; the step kept."""
        step = self.engine.action(self.setup, self.steps, action, inputs).apply(typed)
        self.steps.append(step)
        return step

    def odds(self, action, **inputs):
        """The odds of an action before it is rolled."""
        return self.engine.action(self.setup, self.steps, action, inputs).chance_outcomes()

    @property
    def state(self):
        return self.engine.replay(self.setup, self.steps)

    def show(self):
        """The state and what ``battle … show`` prints of it (text and JSON)."""
        state = self.state
        return (state, self.engine.status_lines(self.setup, state),
                self.engine.status_json(self.setup, state),
                self.engine.decision(self.setup, state))

    def refused(self, action, match, typed=None, *, odds=False, **inputs):
        """The action is refused with a reason matching ``match`` (and its odds too, when
        ``odds``); the battle and its show are unchanged."""
        before, kept = self.show(), len(self.steps)
        pending = self.engine.action(self.setup, self.steps, action, inputs)
        with pytest.raises(ActionRefused, match=match):
            pending.apply(typed)
        if odds:
            with pytest.raises(ActionRefused, match=match):
                pending.chance_outcomes()
        assert self.show() == before and len(self.steps) == kept

    def acting(self):
        """The units marked as able to act now (``*`` in ``show``)."""
        return self.engine.who_acts(self.setup, self.state)
