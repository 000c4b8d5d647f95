"""Rule 1: moving on blinds and spotting them.

A spotter (any blind or brigade, never a general) looks at a target at a distance; how well the
target is hidden picks a row of bands. Near enough, the spot is automatic; further out the
spotting die must show a number or more; beyond the last band nothing is seen.

>>> s = SpotSituation("Prussian hussars", Spotter.CAVALRY, "French blind 3", Cover.SCREENED, 14)
>>> spot_odds(s, "1813")[True]
Fraction(2, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset1813.rules.common import (
    ActionRefused,
    certain,
    odds_of,
    roll_for,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.spotting import (
    Cover,
    SpotBand,
    spotting_table,
)
from campaign1813.campaign.battle.terms import FollowOn, FollowOnTest, Grade
from campaign1813.campaign.words import with_article

__all__ = ["Cover", "Spotter", "SpotSituation", "SpotResult", "spotting_band", "spot_odds",
           "spot", "blind_pips_odds", "roll_blind_pips"]


class Spotter(StrEnum):
    """What is doing the spotting."""

    BLIND = "blind"
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    GENERAL = "general"


@dataclass(frozen=True)
class SpotSituation:
    """One attempt to spot: who looks, at what, how hidden it is and how far away (inches)."""

    spotter: str
    spotter_kind: Spotter
    target: str
    cover: Cover
    inches: Fraction | float


@dataclass(frozen=True)
class SpotResult:
    """The attempt made: the roll if one was needed, whether the target was spotted."""

    situation: SpotSituation
    band: SpotBand | None
    roll: Roll | None
    spotted: bool
    follow_ons: tuple[FollowOn, ...]


def spotting_band(cover: Cover, inches: Fraction | float, ruleset: str) -> SpotBand | None:
    """The band a distance falls in for that cover, or None when too far to spot at all."""
    if inches < 0:
        raise ValueError(f"a spotting distance cannot be negative ({inches} inches)")
    for band in spotting_table(ruleset).bands[cover]:
        if inches <= band.up_to:
            return band
    return None


def _refusal(situation: SpotSituation, ruleset: str) -> str | None:
    if situation.spotter_kind.value not in spotting_table(ruleset).spotters:
        kind = with_article(situation.spotter_kind.value)
        return f"{situation.spotter} cannot spot: {kind} may not spot"
    return None


def _seen(band: SpotBand, rolled: int) -> bool:
    return band.automatic or rolled >= (band.need or 0)


def spot_odds(situation: SpotSituation, ruleset: str) -> dict[bool, Fraction]:
    """The exact chance that the target is spotted (True) or not (False)."""
    refusal = _refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    band = spotting_band(situation.cover, situation.inches, ruleset)
    if band is None:
        odds = certain(False)
    elif band.automatic:
        odds = certain(True)
    else:
        odds = odds_of(spotting_table(ruleset).die, 1, lambda rolled: _seen(band, rolled))
    return {True: odds.get(True, Fraction(0)), False: odds.get(False, Fraction(0))}


def spot(situation: SpotSituation, dice: DiceSource, ruleset: str) -> SpotResult:
    """Try to spot; the die is rolled only when the band needs it."""
    refusal = _refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    band = spotting_band(situation.cover, situation.inches, ruleset)
    roll = None
    if band is None:
        spotted = False
    elif band.automatic:
        spotted = True
    else:
        roll = roll_for(dice, spotting_table(ruleset).die, 1,
                        f"Rule 1 spotting: {situation.spotter} looks for {situation.target}")
        spotted = _seen(band, roll.total)
    follow_ons: tuple[FollowOn, ...] = ()
    if spotted:
        follow_ons = (FollowOn(FollowOnTest.PLACE_FIGURES, situation.target,
                               "Rule 1: a spotted blind's brigades go on the table at its "
                               "forward edge, no wider than the blind"),)
    return SpotResult(situation, band, roll, spotted, follow_ons)


def _blind_pips(grade: Grade, rolled: int, ruleset: str) -> int:
    return max(0, rolled + spotting_table(ruleset).blind_pips_bonus[grade])


def blind_pips_odds(grade: Grade, ruleset: str) -> dict[int, Fraction]:
    """The exact distribution of a commander's pips for moving blinds (Rule 1)."""
    return odds_of(spotting_table(ruleset).blind_pips_die, 1,
                   lambda rolled: _blind_pips(grade, rolled, ruleset))


def roll_blind_pips(commander: str, grade: Grade, dice: DiceSource,
                    ruleset: str) -> tuple[Roll, int]:
    """Roll a commander's pips for moving blinds: the roll and the pips."""
    roll = roll_for(dice, spotting_table(ruleset).blind_pips_die, 1,
                    f"Rule 1 blind movement pips: {commander}")
    return roll, _blind_pips(grade, roll.total, ruleset)
