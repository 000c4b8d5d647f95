"""Pieces every rule of Rules 1-8 shares: commander grades, named modifiers, refusals, odds.

A test is always the same shape: a die (or dice) is rolled, named modifiers are added, and the
total is read against the ruleset's table. :func:`odds_of` turns such a reading into the exact
distribution of its outcomes, so the odds shown before a roll and the result of the roll come
from one function and cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from campaign1813.campaign.battle.core.refusal import ActionRefused as ActionRefused
from campaign1813.campaign.battle.core.refusal import roll_for as roll_for
from campaign1813.campaign.battle.dice import Die, distribution
from campaign1813.campaign.battle.terms import MoraleState

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Modifier:
    """One modifier applied to a roll: its table key, its label and the amount added."""

    key: str
    label: str
    value: int

    def __str__(self) -> str:
        return f"{self.label} {self.value:+d}"


@dataclass(frozen=True)
class Verdict:
    """Whether the rules allow an action, whether they oblige it, and why."""

    allowed: bool
    reason: str
    obliged: bool = False

    def __bool__(self) -> bool:
        return self.allowed


def total_of(modifiers: Iterable[Modifier]) -> int:
    """The sum of the modifiers' values."""
    return sum(m.value for m in modifiers)


def odds_of(die: Die, count: int, outcome_for: Callable[[int], T]) -> dict[T, Fraction]:
    """The exact chance of each outcome, reading every possible total of the dice."""
    odds: dict[T, Fraction] = {}
    for total, chance in distribution(die, count).items():
        outcome = outcome_for(total)
        odds[outcome] = odds.get(outcome, Fraction(0)) + chance
    return odds


def certain(outcome: T) -> dict[T, Fraction]:
    """The distribution of an outcome that needs no roll."""
    return {outcome: Fraction(1)}


def percent_as_casualties(percent: int, strength: int) -> int:
    """A loss given as a percentage, in casualties of a brigade of ``strength`` figures.

    Rounded half up, and never less than one casualty for a loss greater than nothing.

    >>> percent_as_casualties(20, 8), percent_as_casualties(40, 8), percent_as_casualties(20, 4)
    (2, 3, 1)
    """
    if percent <= 0:
        return 0
    exact = Fraction(percent * strength, 100)
    return max(1, int(exact + Fraction(1, 2)))


def worse_state(current: MoraleState, imposed: MoraleState) -> MoraleState | None:
    """The state a brigade takes when a result imposes ``imposed``, or None if no change.

    A result never improves a brigade: a Shaken brigade told to be Disordered stays Shaken.
    """
    order = list(MoraleState)
    return imposed if order.index(imposed) > order.index(current) else None


def inches_text(inches: Fraction | float) -> str:
    """A distance as the umpire reads it: "1 inch", "4 inches", "1/2 inch"."""
    return f"{inches} inch" if inches <= 1 else f"{inches} inches"
