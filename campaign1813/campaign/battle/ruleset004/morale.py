"""Morale in ruleset 004, retreats after a melee, and when an army has lost.

A unit tests when it loses 25 % or more from firing or loses a melee: one d6, 3-6 elite, 4-6
regular, 5-6 poor; +1 with a general attached, +1 with a friendly unit directly behind to support
it (not light foot nor guns). A failed test takes a further 25 %.

>>> morale_odds(Quality.REGULAR, general=True)
{True: Fraction(2, 3), False: Fraction(1, 3)}
>>> army_lost(9, 4), army_lost(9, 5)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset004.pools import chance_of, roll_die
from campaign1813.campaign.battle.ruleset004.tables import Tables, tables
from campaign1813.campaign.battle.ruleset004.units import Kind, Quality

__all__ = ["MoraleResult", "morale_need", "morale_odds", "morale_test", "must_test_after_fire",
           "may_support", "retreat_blocked", "blocker_tests", "army_lost"]


@dataclass(frozen=True)
class MoraleResult:
    """A morale test taken: the score needed, the roll, whether it passed, the report line."""

    need: int
    roll: Roll
    passed: bool
    line: str


def morale_need(quality: Quality, *, general: bool = False, support: bool = False,
                t: Tables | None = None) -> int:
    """The score a unit needs on the die, its general's and support's +1 taken off."""
    t = t or tables()
    bonus = (t.morale.modifiers["general"] if general else 0) + (
        t.morale.modifiers["support"] if support else 0)
    return t.morale.passes_on[quality.value] - bonus


def morale_odds(quality: Quality, *, general: bool = False, support: bool = False,
                t: Tables | None = None) -> dict[bool, Fraction]:
    """The exact chance of passing (True) and failing (False) a morale test."""
    p = chance_of(morale_need(quality, general=general, support=support, t=t))
    return {True: p, False: 1 - p}


def morale_test(name: str, quality: Quality, dice: DiceSource, *, general: bool = False,
                support: bool = False, reason: str = "", t: Tables | None = None
                ) -> MoraleResult:
    """Take a morale test: one d6 against the score needed."""
    need = morale_need(quality, general=general, support=support, t=t)
    roll = roll_die(dice, f"{name} morale ({quality}, pass on {max(1, need)}-6)")
    passed = roll.total >= need
    extras = ", ".join(w for w, on in (("general", general), ("support", support)) if on)
    line = (f"{name} tests morale{f' ({reason})' if reason else ''}: {quality}"
            + (f" +1 {extras}" if extras else "") + f", needs {max(1, need)}, rolls "
            f"{roll.total}: " + ("passes" if passed else "fails and loses a further 25 %"))
    return MoraleResult(need, roll, passed, line)


def must_test_after_fire(steps_lost: int) -> bool:
    """A unit that lost 25 % or more from firing tests morale."""
    return steps_lost >= 1


def may_support(kind: Kind) -> bool:
    """Light foot and guns cannot support a unit in front of them (nor can a general alone)."""
    return kind not in (Kind.LIGHT_FOOT, Kind.GUNS, Kind.GENERAL)


def retreat_blocked(blocker: Kind) -> bool:
    """A retreat obstructed by this unit eliminates the retreating unit (not light foot, guns)."""
    return blocker not in (Kind.LIGHT_FOOT, Kind.GUNS)


def blocker_tests(blocker: Kind, retreating: Kind) -> bool:
    """A friendly unit retreated into tests morale, unless it is horse retreated into by foot."""
    return not (blocker.horse and retreating.foot)


def army_lost(start: int, left: int, t: Tables | None = None) -> bool:
    """Whether an army's units left (the general included) have fallen below half its start."""
    t = t or tables()
    if start < 1:
        raise ActionRefused("an army needs at least one unit at the start")
    return left < start * t.morale.lost_below
