"""The grades an order of battle gives its brigades and commanders: class, firepower and
skirmish ratings (A, B, C) and a commander's grade.

The scenario's orders of battle read these without the rest of the engine's vocabulary
(``terms.py``, which speaks them too).
"""

from enum import StrEnum


class Rating(StrEnum):
    """Class, firepower or skirmish grade: A best, B average, C worst."""

    A = "A"
    B = "B"
    C = "C"


class Grade(StrEnum):
    """A commander's grade: Gifted, Average or Poor."""

    GIFTED = "Gifted"
    AVERAGE = "Average"
    POOR = "Poor"

    @property
    def bonus(self) -> int:
        """The grade score an order of battle prints beside it: Gifted +3, Average +2, Poor +1."""
        return {"Gifted": 3, "Average": 2, "Poor": 1}[self.value]
