"""Who is within so many road miles of whom: contact between hostile commands.

Positions are indexed by town and by road so that a small bounded search from one command finds
everyone near it without measuring every pair on the map.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from campaign1813.campaign.day.ground import EPS, Ground, Position
from campaign1813.campaign.scenario.types import Side


@dataclass(frozen=True)
class Contact:
    """A French and an Allied command within contact miles of each other."""

    french: str
    allied: str
    miles: float


class PositionIndex:
    """Commands' positions indexed by the towns and roads they stand on."""

    def __init__(self, ground: Ground, positions: Iterable[tuple[str, Position]]):
        self.ground = ground
        self.at_town: dict[str, list[str]] = defaultdict(list)
        self.on_road: dict[tuple[str, str], list[tuple[str, float]]] = defaultdict(list)
        self.position: dict[str, Position] = {}
        for name, pos in positions:
            self.position[name] = pos
            if pos.b is None:
                self.at_town[pos.a].append(name)
            else:
                self.on_road[(pos.a, pos.b)].append((name, pos.miles))

    def near(self, pos: Position, miles: float) -> dict[str, float]:
        """Every indexed command within ``miles`` road miles of ``pos``, with its distance."""
        found: dict[str, float] = {}

        def note(name: str, d: float) -> None:
            if d <= miles + EPS and d < found.get(name, float("inf")):
                found[name] = d

        if pos.b is not None:
            for name, m in self.on_road.get((pos.a, pos.b), ()):
                note(name, abs(m - pos.miles))
        reached = self.ground.reach(pos, miles)
        for town, d in reached.items():
            for name in self.at_town.get(town, ()):
                note(name, d)
            for nxt, length in self.ground.adj[town]:
                key = (town, nxt) if town < nxt else (nxt, town)
                for name, m in self.on_road.get(key, ()):
                    note(name, d + (m if key[0] == town else length - m))
        return found


def find_contacts(
    ground: Ground,
    sides: dict[str, Side],
    positions: dict[str, Position],
    miles: float,
    only: Iterable[str] | None = None,
) -> list[Contact]:
    """Hostile pairs within ``miles`` of each other (pairs touching ``only``, if given)."""
    # each side's commands indexed apart: a search from a command walks only its enemies
    index = {side: PositionIndex(ground, ((n, p) for n, p in positions.items()
                                          if sides[n] is side)) for side in Side}
    names = sorted(positions) if only is None else sorted(set(only))
    # the towns each side touches: a command with none of its enemy's around it is in contact
    # with none of them, and its search is spared
    touched: dict[Side, set[str]] = {side: set() for side in Side}
    for name, pos in positions.items():
        touched[sides[name]].update(pos.ends())
    pairs: dict[tuple[str, str], float] = {}
    for name in names:
        side = sides[name]
        if ground.around(positions[name], miles).isdisjoint(touched[side.enemy]):
            continue
        for other, d in index[side.enemy].near(positions[name], miles).items():
            key = (name, other) if side is Side.FRENCH else (other, name)
            pairs[key] = min(d, pairs.get(key, float("inf")))
    return [Contact(f, a, d) for (f, a), d in sorted(pairs.items())]


@dataclass(frozen=True)
class ContactSearch:
    """The contacts found among commands standing where ``positions`` says, kept so that a
    later search of the same day over the same ground is answered without searching again."""

    sides: dict[str, Side]
    positions: dict[str, Position]
    miles: float
    contacts: tuple[Contact, ...]


def contacts_among(ground: Ground, sides: dict[str, Side], positions: dict[str, Position],
                   miles: float, found: ContactSearch | None = None) -> ContactSearch:
    """The contacts among the commands on the map: ``found``'s where every command stands
    where it stood then (same sides, same positions, same miles), else a fresh search."""
    if found is not None and found.miles == miles and found.sides == sides \
            and found.positions == positions:
        return found
    return ContactSearch(dict(sides), dict(positions), miles,
                         tuple(find_contacts(ground, sides, positions, miles)))
