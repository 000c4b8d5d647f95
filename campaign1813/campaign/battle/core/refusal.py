"""The rules' refusal and the checked roll: light, so a test's odds (``campaign1813 odds``) import
them without the battle's setup and steps."""

from __future__ import annotations

from campaign1813.campaign.battle.dice import DiceSource, Die, Roll
from campaign1813.campaign.errors import CampaignError

__all__ = ["ActionRefused", "NotNow", "roll_for"]


class ActionRefused(CampaignError):
    """The rules do not allow this action now; the message names the unit and the reason."""


class NotNow(ActionRefused):
    """An action the rules allow, refused only for where the move stands in the sequence (its
    step is past, the pips are not yet rolled, the move is missed): the same action may go
    through at another point of play."""


def roll_for(dice: DiceSource, die: Die, count: int, purpose: str) -> Roll:
    """Ask the dice source for a roll and check it is of the dice asked for."""
    roll = dice.roll(die, count, purpose)
    if roll.die != die or roll.count != count:
        raise ActionRefused(f"{purpose}: expected a roll of {count} {die.name}, "
                            f"got {roll.count} {roll.die.name}")
    return roll
