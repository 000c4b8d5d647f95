"""A battle as it stands before the first chip is drawn: who fights, on what table, with which
chips and orders.

The campaign builds a :class:`BattleSetup` from a scheduled battle (its commands, their orders of
battle and grades, the battle town's terrain and the roads they came by); the battle in progress
and auto-resolve read only this, so neither needs to know the campaign. Every value is frozen and
made of plain values, so a setup is kept in the campaign file as it is.

>>> b = BrigadeSetup("4 Corps/13", "4 Corps", "13 Infantry Brigade", Arm.INFANTRY, Rating.A,
...                  number=13, casualties=1)
>>> b.casualties, campaign_rout_point(Arm.CAVALRY)
(1, 4)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache

from campaign1813.campaign.battle.core.outcome import Side
from campaign1813.campaign.battle.files import RulesetError, rulesets_root
from campaign1813.campaign.battle.terms import (
    Arm,
    CavalryWeight,
    CorpsOrder,
    Grade,
    Rating,
    Role,
)
from campaign1813.campaign.errors import CampaignError

__all__ = ["Edge", "BrigadeSetup", "CommanderSetup", "CorpsSetup", "Chip", "Special",
           "TableRoad", "Square", "Table", "BattleSetup", "InvalidSetup", "campaign_rout_point",
           "FRENCH", "ALLIED", "POOR_CHIP", "REINFORCEMENT_TURN"]

FRENCH = Side.FRENCH.value
ALLIED = Side.ALLIED.value
POOR_CHIP = "Poor"
# Seed 000: reinforcements marching to the sound of the guns arrive on turn 4.
REINFORCEMENT_TURN = 4


class InvalidSetup(CampaignError):
    """A setup that cannot be fought as it stands; says what and why."""


class Edge(StrEnum):
    """A side of the table, named by the compass (north at the top of the setup sheet)."""

    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"

    @classmethod
    def of_bearing(cls, degrees: float) -> Edge:
        """The edge a road leaves by, from its compass bearing (0 north, 90 east).

        >>> Edge.of_bearing(44.9), Edge.of_bearing(135), Edge.of_bearing(359)
        (<Edge.NORTH: 'north'>, <Edge.SOUTH: 'south'>, <Edge.NORTH: 'north'>)
        """
        d = degrees % 360
        if d < 45 or d >= 315:
            return cls.NORTH
        if d < 135:
            return cls.EAST
        if d < 225:
            return cls.SOUTH
        return cls.WEST


class Special(StrEnum):
    """The special chips of seed 000's Summary of the Rules."""

    POOR = "Poor"
    FRENCH_TACTICAL = "French tactical"
    FRENCH_GIFTED = "French gifted"
    ALLIED_GIFTED = "Allied gifted"


@dataclass(frozen=True)
class BrigadeSetup:
    """One brigade or battery as it comes to the battle, with the casualties it brings."""

    key: str
    corps: str
    name: str
    arm: Arm
    rating: Rating
    firepower: Rating = Rating.B
    skirmish: Rating = Rating.B
    cavalry: CavalryWeight | None = None
    lancers: bool = False
    calibre: int = 0
    horse: bool = False
    nation: str = ""
    number: int | None = None
    casualties: int = 0


@dataclass(frozen=True)
class CommanderSetup:
    """A commander at the battle: a CinC, a corps commander or a reserve commander.

    A CinC comes with his headquarters: ``edge`` and ``turn`` say where and when he reaches the
    table, as a corps' do (no edge: he is at the battle town; turn 4 when his headquarters
    marches to the sound of the guns). A corps' or reserve commander comes with his corps.
    """

    key: str
    name: str
    grade: Grade
    role: Role
    side: str
    nation: str = ""
    edge: Edge | None = None
    turn: int = 1


@dataclass(frozen=True)
class CorpsSetup:
    """A corps (or the reserve) at the battle: its commander, brigades, orders and entry."""

    key: str
    side: str
    army: str
    commander: str
    brigades: tuple[str, ...]
    orders: CorpsOrder = CorpsOrder.HOLD
    objective: str = ""
    edge: Edge | None = None
    column_of_march: bool = False
    turn: int = 1
    blind: str = ""
    reserve: bool = False


@dataclass(frozen=True)
class Chip:
    """A chip in the bag: a numbered chip naming its commander, or a special chip."""

    label: str
    commander: str | None = None
    side: str | None = None

    @property
    def number(self) -> int | None:
        """The chip's number, for a commander's chip."""
        return int(self.label) if self.label.isdigit() else None


@dataclass(frozen=True)
class TableRoad:
    """A road leaving the battle town: where to, its bearing, and the edge it reaches."""

    to: str
    bearing: float
    edge: Edge
    road_class: str = "main"
    river: str | None = None
    crossing: str | None = None


@dataclass(frozen=True)
class Square:
    """One of the nine 2-foot scenic squares, row 0 at the north edge, column 0 at the west."""

    row: int
    col: int
    terrain: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """The suggested table: 6 × 6 feet of nine 2-foot squares, the battle town in the centre."""

    town: str
    kind: str = "town"
    built_up: bool = True
    fortress: bool = False
    river: str | None = None
    roads: tuple[TableRoad, ...] = ()
    squares: tuple[Square, ...] = ()
    feet: int = 6
    square_feet: int = 2


@dataclass(frozen=True)
class BattleSetup:
    """Everything a battle starts from."""

    battle: int
    title: str
    place: str
    date: str
    commanders: tuple[CommanderSetup, ...]
    corps: tuple[CorpsSetup, ...]
    brigades: tuple[BrigadeSetup, ...]
    chips: tuple[Chip, ...]
    table: Table
    ruleset: str = "1813"
    seed: int = 1813
    turns: int = 12
    carry_casualties: bool = False

    def __post_init__(self) -> None:
        keys = [b.key for b in self.brigades]
        if len(set(keys)) != len(keys):
            raise InvalidSetup(f"{self.title}: two brigades share a key")
        corps = {c.key for c in self.corps}
        for b in self.brigades:
            if b.corps not in corps:
                raise InvalidSetup(f"{self.title}: {b.name} belongs to no corps ({b.corps})")
        sides = {c.side for c in self.corps}
        if sides != {FRENCH, ALLIED}:
            raise InvalidSetup(f"{self.title}: a battle needs corps on both sides")
        if self.turns < 1:
            raise InvalidSetup(f"{self.title}: a battle day needs at least one turn")

    def brigade(self, key: str) -> BrigadeSetup:
        """A brigade by key; refused with the known keys' count if unknown."""
        for b in self.brigades:
            if b.key == key:
                return b
        raise InvalidSetup(f"{self.title}: there is no brigade '{key}'")

    def corps_of(self, key: str) -> CorpsSetup:
        """A corps by key."""
        for c in self.corps:
            if c.key == key:
                return c
        raise InvalidSetup(f"{self.title}: there is no corps '{key}'")

    def commander(self, key: str) -> CommanderSetup:
        """A commander by key."""
        for c in self.commanders:
            if c.key == key:
                return c
        raise InvalidSetup(f"{self.title}: there is no commander '{key}'")

    def side_corps(self, side: str) -> tuple[CorpsSetup, ...]:
        """The corps of one side, the reserve included."""
        return tuple(c for c in self.corps if c.side == side)

    def corps_brigades(self, corps: str) -> tuple[BrigadeSetup, ...]:
        """A corps' brigades in march order."""
        by_key = {b.key: b for b in self.brigades}
        return tuple(by_key[k] for k in self.corps_of(corps).brigades)

    def with_corps(self, corps: CorpsSetup) -> BattleSetup:
        """The setup with one corps replaced."""
        return replace(self, corps=tuple(corps if c.key == corps.key else c
                                         for c in self.corps))


# The campaign keeps a brigade's casualties in the 1813 rules' measure, whatever ruleset fights it.
_CAMPAIGN_RULES = "1813"


@cache
def _campaign_limits() -> dict[str, int]:
    path = rulesets_root() / _CAMPAIGN_RULES / "morale.toml"
    try:
        limits = tomllib.loads(path.read_text(encoding="utf-8"))["automatic_rout"]
    except (OSError, tomllib.TOMLDecodeError, KeyError) as exc:
        raise RulesetError(f"{_CAMPAIGN_RULES}/morale.toml gives no automatic_rout: {exc}") \
            from None
    return {str(k): int(v) for k, v in limits.items()}


def campaign_rout_point(arm: Arm) -> int:
    """The most casualties a brigade of this arm carries in the campaign: its rout point by
    the 1813 rules' own table (6 / 4 / 3), which a ruleset that counts losses otherwise
    converts back to."""
    return _campaign_limits()[arm.value]
