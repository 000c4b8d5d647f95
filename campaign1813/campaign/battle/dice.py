"""Dice and dice sources.

Every die knows its faces, so every roll has an exact distribution. The engine never draws a random
number itself: it asks a :class:`DiceSource`, which is either a seeded generator that records its
rolls (a battle replays exactly) or the umpire's physical roll typed in.

>>> distribution(D6, 2)[7]
Fraction(1, 6)
>>> distribution(AVERAGE)[3]
Fraction(1, 3)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Protocol


@dataclass(frozen=True)
class Die:
    """One kind of die: its name and the numbers on its faces."""

    name: str
    faces: tuple[int, ...]


D6 = Die("d6", (1, 2, 3, 4, 5, 6))
AVERAGE = Die("average die", (2, 3, 3, 4, 4, 5))
D10 = Die("d10", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10))

DICE = {d.name: d for d in (D6, AVERAGE, D10)}


class ImpossibleRoll(ValueError):
    """A typed roll that the dice cannot show."""


@cache
def distribution(die: Die, count: int = 1) -> dict[int, Fraction]:
    """The exact distribution of the sum of ``count`` such dice."""
    if count < 1:
        raise ValueError(f"cannot roll {count} {die.name}")
    totals = Counter(sum(faces) for faces in product(die.faces, repeat=count))
    n = len(die.faces) ** count
    return {total: Fraction(k, n) for total, k in sorted(totals.items())}


def possible_totals(die: Die, count: int = 1) -> tuple[int, ...]:
    """Every total that ``count`` such dice can show."""
    return tuple(distribution(die, count))


def describe(die: Die, count: int = 1) -> str:
    """``2d6``, ``d10``, ``average die``."""
    if die is D6 or die.name.startswith("d"):
        return f"{count}{die.name}" if count > 1 else die.name
    return f"{count} × {die.name}" if count > 1 else die.name


@dataclass(frozen=True)
class Roll:
    """A roll made: what was rolled, why, the faces and their total."""

    die: Die
    count: int
    faces: tuple[int, ...]
    purpose: str = ""

    @property
    def total(self) -> int:
        """The sum of the faces."""
        return sum(self.faces)


class DiceSource(Protocol):
    """Where the engine's rolls come from."""

    def roll(self, die: Die, count: int = 1, purpose: str = "") -> Roll:
        """Roll ``count`` dice of a kind."""


class SeededDice:
    """A seeded generator; every roll is recorded so a battle replays exactly."""

    def __init__(self, seed: int | str):
        self.seed = seed
        self._random = random.Random(seed)
        self.record: list[Roll] = []

    def roll(self, die: Die, count: int = 1, purpose: str = "") -> Roll:
        """Roll and record."""
        faces = tuple(self._random.choice(die.faces) for _ in range(count))
        result = Roll(die, count, faces, purpose)
        self.record.append(result)
        return result


class TypedDice:
    """The umpire's physical rolls, typed in, checked against what the dice can show.

    Each typed value is either the total of the dice rolled or, for several dice, the tuple of
    their faces.
    """

    def __init__(self, values: Iterable[int | tuple[int, ...]] = ()):
        self._queue: list[int | tuple[int, ...]] = list(values)
        self.record: list[Roll] = []

    @property
    def remaining(self) -> int:
        """Typed rolls not yet taken."""
        return len(self._queue)

    def push(self, value: int | tuple[int, ...]) -> None:
        """Add the next typed roll."""
        self._queue.append(value)

    def roll(self, die: Die, count: int = 1, purpose: str = "") -> Roll:
        """Take the next typed roll, refusing one the dice cannot show."""
        if not self._queue:
            raise ImpossibleRoll(f"no roll typed for {describe(die, count)}"
                                 + (f" ({purpose})" if purpose else ""))
        value = self._queue.pop(0)
        result = typed_roll(die, count, value, purpose)
        self.record.append(result)
        return result


def typed_roll(die: Die, count: int, value: int | tuple[int, ...], purpose: str = "") -> Roll:
    """A typed roll as a :class:`Roll`, or :class:`ImpossibleRoll` naming the die and the value."""
    what = describe(die, count)
    if isinstance(value, tuple):
        if len(value) != count:
            raise ImpossibleRoll(f"{what} needs {count} faces, got {len(value)}")
        for face in value:
            if face not in die.faces:
                raise ImpossibleRoll(f"{face} is not a face of the {die.name} "
                                     f"(faces {', '.join(map(str, sorted(set(die.faces))))})")
        return Roll(die, count, tuple(value), purpose)
    if value not in distribution(die, count):
        low, high = min(possible_totals(die, count)), max(possible_totals(die, count))
        raise ImpossibleRoll(f"{value} cannot be rolled on {what} (possible: {low}–{high})")
    return Roll(die, count, _faces_for_total(die, count, value), purpose)


def _faces_for_total(die: Die, count: int, total: int) -> tuple[int, ...]:
    for faces in product(sorted(set(die.faces)), repeat=count):
        if sum(faces) == total:
            return faces
    raise ImpossibleRoll(f"{total} cannot be rolled on {describe(die, count)}")
