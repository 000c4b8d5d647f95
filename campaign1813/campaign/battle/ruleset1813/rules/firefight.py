"""Infantry firefight (Rule 12 of the 1813 rules).

Both sides exchange volleys: each adds up its firefight factors, and the higher total rolls 2d6
plus the difference on Rule 13's result table (Rule 12 has none of its own). No hand-to-hand
fighting happens, so a brigade the row leaves alone keeps its state.

>>> from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
>>> from campaign1813.campaign.battle.terms import Arm, Formation
>>> a = CombatSide(Brigade("14 Brigade", Arm.INFANTRY, formation=Formation.LINE))
>>> d = CombatSide(Brigade("3 Brigade", Arm.INFANTRY, formation=Formation.SQUARE))
>>> firefight_odds(a, d).difference
2
"""

from __future__ import annotations

from campaign1813.campaign.battle.dice import DiceSource
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatOdds,
    CombatRefused,
    CombatResult,
    CombatSide,
    combat_odds,
    fight,
)

FIREFIGHT_RULE = 12


def _combat(attacker: CombatSide, defender: CombatSide, skirmished_this_move: bool) -> Combat:
    if skirmished_this_move:
        raise CombatRefused(f"{attacker.brigade.name} has skirmished this move and may not "
                            "start a firefight")
    return Combat(FIREFIGHT_RULE, attacker, defender)


def firefight_odds(attacker: CombatSide, defender: CombatSide, ruleset: str = "1813",
                   skirmished_this_move: bool = False) -> CombatOdds:
    """The exact chance of each result row of a firefight."""
    return combat_odds(_combat(attacker, defender, skirmished_this_move), ruleset)


def firefight(attacker: CombatSide, defender: CombatSide, dice: DiceSource,
              ruleset: str = "1813", skirmished_this_move: bool = False) -> CombatResult:
    """Fight a firefight with a 2d6 roll from ``dice``."""
    return fight(_combat(attacker, defender, skirmished_this_move), dice, ruleset)
