"""What the map shows of the campaign, as plain values: a command's flag, an army group's one
flag for all its commands (where the map is too small to draw them apart) and a battle to be
fought. The campaign view makes them from the campaign's read models before the map's scene and
its items (``scene.py``, ``items.py``) are loaded, which draw them once the map is made.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign1813.campaign.scenario.types import Side


@dataclass(frozen=True)
class MarkerSpec:
    """What a command's marker shows: where (town, or a point along a road), its short name,
    side and flag colour, whether it is an HQ, its state badges and its full description; and
    the army group it belongs to with its CinC's short name (none for a lone command)."""

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
    army: str = ""
    cinc: str = ""

    @property
    def place(self) -> tuple[str, str | None, float]:
        """The spot several markers may share: a town, or a point of a road to a tenth of a mile."""
        return (self.a, self.b, round(self.miles, 1) if self.b is not None else 0.0)


# the states an army group's flag counts among its commands, in the order it shows them
GROUP_STATES = ("in battle", "retreating", "resting", "cut off")


def group_spec(members: list[MarkerSpec]) -> MarkerSpec:
    """One flag for an army group's commands (its HQ first): where its HQ stands (else its
    first command), its CinC and how many corps, and a badge for each state some of them are
    in, with how many: ``Blücher · 4 corps`` ``1 in battle`` ``2 resting``."""
    if not members:
        raise ValueError("an army group's flag needs at least one of its commands")
    first = members[0]
    head = next((m for m in members if m.hq), first)
    corps = sum(1 for m in members if not m.hq)
    label = f"{head.cinc or head.army or head.label} · {corps} corps"
    badges = []
    for state in GROUP_STATES:
        n = sum(1 for m in members if state in m.badges)
        if n:
            badges.append(f"{n} {state}")
    lines = [f"{first.army}: {', '.join(m.label for m in members)}"]
    lines += [f"{m.label}: {', '.join(m.badges)}" for m in members if m.badges]
    lines.append("Zoom in to see each command's flag")
    return MarkerSpec(f"army group: {first.army}", head.a, head.b, head.miles, label,
                      head.side, head.colour, True, tuple(badges), "\n".join(lines),
                      first.army, head.cinc)


@dataclass(frozen=True)
class BattleSpec:
    """A battle still to be fought: its number, town, short date and title."""

    id: int
    place: str
    when: str
    title: str
