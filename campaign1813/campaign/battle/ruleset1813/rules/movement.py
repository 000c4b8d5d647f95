"""Rule 5: how far blinds, generals and brigades move for a pip.

>>> allowance(mover_for(Arm.INFANTRY, Formation.LINE), "1813")
Fraction(4, 1)
>>> allowance(mover_for(Arm.INFANTRY, Formation.LINE), "1813", difficult=True)
Fraction(2, 1)
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from campaign1813.campaign.battle.ruleset1813.rules.common import Verdict
from campaign1813.campaign.battle.ruleset1813.rules.tables.movement import Mover, movement_table
from campaign1813.campaign.battle.terms import Arm, Calibre, Formation

__all__ = ["CavalryWeight", "Mover", "mover_for", "allowance", "blind_move_inches",
           "may_move_again"]


class CavalryWeight(StrEnum):
    """Light, medium or heavy cavalry; medium moves as heavy."""

    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


_INFANTRY = {Formation.COLUMN_OF_MARCH: Mover.INFANTRY_COLUMN_OF_MARCH,
             Formation.COLUMN_OF_ATTACK: Mover.INFANTRY_COLUMN_OF_ATTACK,
             Formation.LINE: Mover.INFANTRY_LINE,
             Formation.SQUARE: Mover.INFANTRY_SQUARE}
_MANHANDLE = {Calibre.LIGHT: Mover.MANHANDLE_LIGHT, Calibre.MEDIUM: Mover.MANHANDLE_MEDIUM,
              Calibre.HEAVY: Mover.MANHANDLE_HEAVY}


def mover_for(arm: Arm, formation: Formation, *, weight: CavalryWeight = CavalryWeight.MEDIUM,
              horse_artillery: bool = False, calibre: Calibre = Calibre.MEDIUM) -> Mover:
    """The row of the movement table for a brigade or battery in a formation.

    Unlimbered guns are manhandled, at the rate of their calibre.
    """
    if arm is Arm.INFANTRY and formation in _INFANTRY:
        return _INFANTRY[formation]
    if arm is Arm.CAVALRY and formation in (Formation.CAVALRY_COLUMN, Formation.CAVALRY_LINE):
        column = formation is Formation.CAVALRY_COLUMN
        if weight is CavalryWeight.LIGHT:
            return Mover.LIGHT_CAVALRY_COLUMN if column else Mover.LIGHT_CAVALRY_LINE
        return Mover.HEAVY_CAVALRY_COLUMN if column else Mover.HEAVY_CAVALRY_LINE
    if arm is Arm.ARTILLERY and formation is Formation.LIMBERED:
        return Mover.HORSE_ARTILLERY_LIMBERED if horse_artillery else Mover.FOOT_ARTILLERY_LIMBERED
    if arm is Arm.ARTILLERY and formation is Formation.UNLIMBERED:
        return _MANHANDLE[calibre]
    raise ValueError(f"{arm.value} cannot stand in {formation.value}")


def allowance(mover: Mover, ruleset: str, *, difficult: bool = False,
              half: bool = False) -> Fraction:
    """Inches moved for one move: halved in difficult terrain, and for a half move."""
    table = movement_table(ruleset)
    inches = table.allowance[mover]
    if difficult:
        inches *= table.difficult_fraction
    if half:
        inches /= 2
    return inches


def blind_move_inches(pips: int, blinds: int, ruleset: str) -> Fraction:
    """How far a corps on blinds moves for ``pips``: faster on one blind than on several."""
    if pips < 0:
        raise ValueError(f"cannot move a blind with {pips} pips")
    if blinds < 1:
        raise ValueError(f"a corps on blinds has at least one blind, not {blinds}")
    table = movement_table(ruleset)
    per_pip = table.blind_single_per_pip if blinds == 1 else table.blind_multiple_per_pip
    return per_pip * pips


def may_move_again(mover: Mover | None, nearest_enemy_inches: Fraction | float | None,
                   ruleset: str) -> Verdict:
    """Whether a general (``Mover.GENERAL``), brigade or blind (None) may take a further move.

    Closer to the enemy, a half move with a change of formation, or two artillery actions, are
    still allowed: they are single actions of Rule 3.
    """
    table = movement_table(ruleset)
    general = mover is Mover.GENERAL
    clear = table.general_clear_inches if general else table.brigade_clear_inches
    if nearest_enemy_inches is not None and nearest_enemy_inches <= clear:
        return Verdict(False, f"an enemy blind or brigade is {nearest_enemy_inches} inches "
                              f"away; more than one move needs none within {clear} inches "
                              f"(a half move with a change of formation, or two artillery "
                              f"actions, are still allowed)")
    return Verdict(True, f"no enemy within {clear} inches")
