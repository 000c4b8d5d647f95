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
GROUP_STATES = ("in battle", "retreating", "resting", "cut off", "out of supply")
OUT_OF_SUPPLY = "out of supply"


def supply_badge(days: int) -> str:
    """A corps' days of supplies as its flag's badge: ``3 days``, ``1 day``, or ``out of
    supply`` when it has none left to eat."""
    if days <= 0:
        return OUT_OF_SUPPLY
    return f"{days} day" + ("" if days == 1 else "s")


def supply_note(days: int) -> str:
    """A corps' days of supplies as its flag's tooltip says them: ``Supplies: 3 days``, or
    ``Supplies: 0 days — out of supply``."""
    return (f"Supplies: {days} day{'' if days == 1 else 's'}"
            + (" — out of supply" if days == 0 else ""))


def supply_days(badges: tuple[str, ...]) -> int | None:
    """The days of supplies a flag's badges show (0 out of supply), or None."""
    for badge in badges:
        if badge == OUT_OF_SUPPLY:
            return 0
        count, _, word = badge.partition(" ")
        if count.isdigit() and word in ("day", "days"):
            return int(count)
    return None


def group_spec(members: list[MarkerSpec]) -> MarkerSpec:
    """One flag for an army group's commands (its HQ first): where its HQ stands (else its
    first command), its CinC and how many corps, and a badge for each state some of them are
    in, with how many: ``Blücher · 4 corps`` ``1 in battle`` ``2 resting``; with supply kept,
    the least days of supplies of its corps (``2 days``) unless some are out of supply."""
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
    days = [d for d in (supply_days(m.badges) for m in members) if d is not None]
    if days and min(days) > 0:
        badges.append(supply_badge(min(days)))
    lines = [f"{first.army}: {', '.join(m.label for m in members)}"]
    lines += [f"{m.label}: {', '.join(m.badges)}" for m in members if m.badges]
    lines.append("Zoom in to see each command's flag")
    return MarkerSpec(f"army group: {first.army}", head.a, head.b, head.miles, label,
                      head.side, head.colour, True, tuple(badges), "\n".join(lines),
                      first.army, head.cinc)


@dataclass(frozen=True)
class SupplySpec:
    """A depot, or a column waiting on the road, at a town: its side, days of supplies, and
    whether it is its army's main depot."""

    town: str
    side: Side
    days: int
    column: bool = False
    main: bool = False
    army: str = ""


@dataclass(frozen=True)
class BattleSpec:
    """A battle still to be fought: its number, town, short date and title."""

    id: int
    place: str
    when: str
    title: str
