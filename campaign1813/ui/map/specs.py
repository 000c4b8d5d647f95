"""What the map shows of the campaign, as plain values: a command's flag and a battle to be
fought. The campaign view makes them from the campaign's read models before the map's scene and
its items (``scene.py``, ``items.py``) are loaded, which draw them once the map is made.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign1813.campaign.scenario.types import Side


@dataclass(frozen=True)
class MarkerSpec:
    """What a command's marker shows: where (town, or a point along a road), its short name,
    side and flag colour, whether it is an HQ, its state badges and its full description."""

    key: str
    a: str
    b: str | None
    miles: float
    label: str
    side: Side
    colour: str  # the flag's colour, '#rrggbb'
    hq: bool = False
    badges: tuple[str, ...] = ()
    tooltip: str = ""

    @property
    def place(self) -> tuple[str, str | None, float]:
        """The spot several markers may share: a town, or a point of a road to a tenth of a mile."""
        return (self.a, self.b, round(self.miles, 1) if self.b is not None else 0.0)


@dataclass(frozen=True)
class BattleSpec:
    """A battle still to be fought: its number, town, short date and title."""

    id: int
    place: str
    when: str
    title: str
