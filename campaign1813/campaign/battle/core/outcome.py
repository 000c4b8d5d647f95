"""How a battle ended, as one value: the :class:`Outcome` of a :class:`Termination` and the
winning :class:`Side`, or none for a draw (after python-chess's ``Outcome(termination,
winner)``). A draw has one spelling, ``winner=None``.

>>> Outcome(Termination.ARMY_BROKE, Side.FRENCH).result
'French'
>>> Outcome.of(Termination.UMPIRE, "draw")
Outcome(termination=<Termination.UMPIRE: "the umpire's decision">, winner=None)
>>> Side.ALLIED.enemy
<Side.FRENCH: 'French'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Side", "Termination", "Outcome", "DRAW", "side_named"]

# How a draw is written where a result is text (a report line, the campaign's battle list).
DRAW = "draw"


class Side(StrEnum):
    """The two sides of every theatre."""

    FRENCH = "French"
    ALLIED = "Allied"

    @property
    def enemy(self) -> Side:
        """The other side."""
        return Side.ALLIED if self is Side.FRENCH else Side.FRENCH


class Termination(StrEnum):
    """Why a battle ended."""

    ARMY_BROKE = "an army broke"
    NIGHTFALL = "nightfall, with the side holding the field"
    UMPIRE = "the umpire's decision"
    AUTO_RESOLVED = "auto-resolved"
    TYPED = "a result typed in"


def side_named(text: str, allow_draw: bool = False) -> Side | None:
    """``French``, ``Allied`` (any case, or ``f`` / ``a`` / ``allies``) as a side, and with
    ``allow_draw`` ``draw`` as None; anything else is a ``ValueError`` naming it.

    >>> side_named("allies"), side_named("draw", allow_draw=True)
    (<Side.ALLIED: 'Allied'>, None)
    """
    t = text.strip().casefold()
    if t in ("french", "f"):
        return Side.FRENCH
    if t in ("allied", "allies", "a"):
        return Side.ALLIED
    if allow_draw and t == DRAW:
        return None
    also = " or draw" if allow_draw else ""
    raise ValueError(f"'{text}' is not a side (French, Allied{also})")


@dataclass(frozen=True)
class Outcome:
    """How a battle ended: why, and the side that won (None for a draw)."""

    termination: Termination
    winner: Side | None

    @classmethod
    def of(cls, termination: Termination, result: str | Side | None) -> Outcome:
        """The outcome of a result as a ruleset's state keeps it (``French``, ``Allied`` or
        ``draw``)."""
        winner = result if isinstance(result, Side) or result is None \
            else side_named(result, allow_draw=True)
        return cls(termination, winner)

    @property
    def result(self) -> str:
        """The result in words: ``French``, ``Allied`` or ``draw``."""
        return DRAW if self.winner is None else self.winner.value
