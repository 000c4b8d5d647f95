"""The campaign's day-to-day state as values: commands, orders, battles and who holds each town.

The day's rules work on a ``DayState`` in memory; the store reads it from the campaign file and
writes it back, in one transaction per umpire action.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations when
# a campaign is opened, and would compile each written as text

from datetime import date
from enum import StrEnum
from typing import Annotated, Any, Literal

import msgspec
from msgspec.structs import replace

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.ground import OrderRefused, Position
from campaign1813.campaign.day.reports import Report
from campaign1813.campaign.day.supply_state import SupplyState
from campaign1813.campaign.scenario.types import Scenario, Side
from campaign1813.maps.names import NameIndex

Day = date  # the type, where a field called ``date`` hides its name


class Status(StrEnum):
    """What a command may do today."""

    READY = "ready"
    RESTING = "resting"
    RETREATING = "retreating"
    IN_BATTLE = "in battle"
    CUT_OFF = "cut off"
    SURRENDERED = "surrendered"


class Verb(StrEnum):
    """The order types of the campaign: his Move, Halt, Hold, Attack and Recce, plus Rest."""

    MOVE = "Move"
    HALT = "Halt"
    HOLD = "Hold"
    ATTACK = "Attack"
    RECCE = "Recce"
    REST = "Rest"

    @property
    def marches(self) -> bool:
        """Whether the order takes the command along a road."""
        return self in (Verb.MOVE, Verb.HALT, Verb.ATTACK, Verb.RECCE)


class Kind(StrEnum):
    """An army group's headquarters or one of its corps."""

    HQ = "HQ"
    CORPS = "corps"


# The day's entities are frozen and hold only text, numbers, dates, enumerations, tuples and
# positions: none can ever be part of a reference cycle, so the cycle collector does not track
# them (``gc=False``). A day's march makes hundreds of new ones; tracked, they brought on the
# collector's full passes over every object of the program, the more often the larger the
# campaign.
class CommandState(msgspec.Struct, frozen=True, gc=False):
    """One HQ or corps: where it is and what state it is in."""

    name: str
    key: int
    side: Side
    army: str
    kind: Kind
    mounted: bool
    position: Position
    status: Status = Status.READY
    status_date: date | None = None
    battle: int | None = None
    # miles marched today: never negative, and no rate marches a thousand in a day
    marched: Annotated[float, msgspec.Meta(ge=0, le=1000)] = 0.0
    halted: bool = False
    casualties: tuple[tuple[str, int], ...] = ()

    @property
    def on_map(self) -> bool:
        """False once a command has surrendered."""
        return self.status is not Status.SURRENDERED


class Order(msgspec.Struct, frozen=True, gc=False):
    """An order for one command, with the towns its march will pass through."""

    command: str
    verb: Verb
    objective: str
    issued: date
    effective: date
    via: tuple[str, ...] = ()
    route: tuple[str, ...] = ()
    forced: bool = False
    breakout: bool = False

    def text(self) -> str:
        """The order as the umpire writes it: ``5 Corps – Attack Magdeburg``."""
        via = f" via {', '.join(self.via)}" if self.via else ""
        forced = " (forced march)" if self.forced else ""
        return f"{self.command} – {self.verb.value} {self.objective}{via}{forced}"


class Battle(msgspec.Struct, frozen=True, gc=False):
    """A battle: where, when, who fights on each side, who marches to the guns, the result."""

    id: int
    date: date
    place: str
    french: tuple[str, ...]
    allied: tuple[str, ...]
    french_reinforcements: tuple[str, ...] = ()
    allied_reinforcements: tuple[str, ...] = ()
    attacker: Side | None = None
    # who won, as the log and the file keep it: a side's name, or draw
    result: Literal["French", "Allied", "draw"] | None = None
    notes: tuple[str, ...] = ()

    def side(self, side: Side) -> tuple[str, ...]:
        """The commands of one side in contact."""
        return self.french if side is Side.FRENCH else self.allied

    def reinforcements(self, side: Side) -> tuple[str, ...]:
        """The commands of one side marching to the sound of the guns (on table at turn 4)."""
        return self.french_reinforcements if side is Side.FRENCH else self.allied_reinforcements

    def everyone(self, side: Side | None = None) -> tuple[str, ...]:
        """Every command taking part, of one side or both."""
        sides = (side,) if side else (Side.FRENCH, Side.ALLIED)
        return tuple(n for s in sides for n in (*self.side(s), *self.reinforcements(s)))

    @property
    def title(self) -> str:
        """``the battle of Helmstedt (2 May 1813)``."""
        return f"the battle of {self.place} ({format_date(self.date)})"


class DayState(msgspec.Struct):
    """The whole mutable state of the campaign day, as one value."""

    date: date
    marched: bool
    next_battle: int
    commands: dict[str, CommandState]
    orders: dict[str, Order] = msgspec.field(default_factory=dict)
    pending: dict[str, Order] = msgspec.field(default_factory=dict)
    battles: dict[int, Battle] = msgspec.field(default_factory=dict)
    control: dict[str, Side] = msgspec.field(default_factory=dict)
    # the day each town passed to its holder (towns held from the start have none)
    control_since: dict[str, Day] = msgspec.field(default_factory=dict)
    # the campaign's changes to its scenario's settings (day/settings.py), by name
    settings: dict[str, Any] = msgspec.field(default_factory=dict)
    # what each side has been told of the enemy (day/reports.py), by the report's number
    reports: dict[int, Report] = msgspec.field(default_factory=dict)
    # the sides' order forms taken in: each form's number, and the digest of what was signed
    imports: dict[str, str] = msgspec.field(default_factory=dict)
    # the supplies of every army group, while the supply rule is on (day/supply.py)
    supply: SupplyState | None = None

    def ordered(self) -> list[CommandState]:
        """Commands in their stable order (army group order, HQ first)."""
        return sorted(self.commands.values(), key=lambda c: c.key)

    def take(self, town: str, side: Side) -> bool:
        """Give a town to a side from today; returns whether it changed hands."""
        if self.control.get(town) is side:
            return False
        self.control[town] = side
        self.control_since[town] = self.date
        return True

    def battle_of(self, command: CommandState) -> Battle:
        """The battle a command is in or last fought (refused if it has none)."""
        if command.battle is None:
            raise OrderRefused(f"{command.name} has fought no battle")
        return self.battles[command.battle]

    def update(self, name: str, **changes: Any) -> CommandState:
        """Replace fields of one command."""
        self.commands[name] = replace(self.commands[name], **changes)
        return self.commands[name]


def hq_name(army: str) -> str:
    """The name of an army group's headquarters as a command."""
    return f"{army} HQ"


def initial_state(scenario: Scenario, day: date) -> DayState:
    """Every army group HQ and corps at its starting town; each side holds those towns."""
    commands: dict[str, CommandState] = {}
    control: dict[str, Side] = {}
    key = 0
    for army in scenario.armies:
        for name, kind, town in (
            (hq_name(army.name), Kind.HQ, army.hq),
            *((c.name, Kind.CORPS, c.start) for c in army.corps),
        ):
            commands[name] = CommandState(
                name, key, army.side, army.name, kind, kind is Kind.HQ, Position(town)
            )
            control[town] = army.side
            key += 1
    return DayState(day, False, 1, commands, control=control)


def find_command(state: DayState, name: str) -> CommandState:
    """A command by its name, or its army group's name for the HQ: any case, umlauts and
    accents optional; a near miss is told the closest names."""
    if name in state.commands:  # spelt as it is: no index of every name to build
        return state.commands[name]
    ordered = state.ordered()
    index = NameIndex([*((c.name, c.name) for c in ordered),
                       *((c.army, c.name) for c in ordered if c.kind is Kind.HQ)])
    found = index.find(name)
    if found is None:
        raise OrderRefused(index.unknown(name, f"no command called '{name}' in this campaign"))
    return state.commands[found]


def status_reason(state: DayState, name: str) -> str | None:
    """Why a command cannot take ordinary orders today, or None if it can."""
    c = state.commands[name]
    battle = state.battles.get(c.battle) if c.battle else None
    if c.status is Status.SURRENDERED:
        return f"{name} has surrendered"
    if c.status is Status.IN_BATTLE and battle:
        return f"{name} is in {battle.title}, which has no result yet"
    if battle and c.status_date == state.date:
        if c.status is Status.RESTING:
            return f"{name} is resting on {format_date(state.date)} after winning at {battle.place}"
        if c.status is Status.RETREATING:
            return (
                f"{name} must retreat on {format_date(state.date)} after losing at {battle.place}"
            )
    if c.status is Status.CUT_OFF and battle:
        return (
            f"{name} is cut off after losing at {battle.place}: "
            "the umpire must choose surrender or break out"
        )
    return None
