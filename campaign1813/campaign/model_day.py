"""Tables of the campaign day: commands on the map, orders, battles, town control, the event log.

Positions, routes and lists are stored as short JSON text; the campaign day reads the whole
state into memory, works on it and writes it back in the same transaction.
"""

from datetime import date

from sqlmodel import Field, SQLModel


class CommandRow(SQLModel, table=True):
    """One army group HQ or corps on the map: where it stands and what state it is in."""

    __tablename__ = "day_command"

    name: str = Field(primary_key=True)
    key: int = Field(index=True)
    side: str
    army: str
    kind: str
    mounted: bool = False
    position_json: str
    status: str = "ready"
    status_date: date | None = None
    battle_id: int | None = None
    marched: float = 0.0
    halted: bool = False
    casualties_json: str = "{}"


class OrderRow(SQLModel, table=True):
    """An order standing for a command (``pending`` while a messenger is still riding)."""

    __tablename__ = "day_order"

    id: int | None = Field(default=None, primary_key=True)
    command: str = Field(index=True)
    verb: str
    objective: str
    via_json: str = "[]"
    route_json: str = "[]"
    forced: bool = False
    breakout: bool = False
    issued: date
    effective: date
    pending: bool = False


class BattleRow(SQLModel, table=True):
    """A scheduled or fought battle."""

    __tablename__ = "day_battle"

    id: int = Field(primary_key=True)
    date: date
    place: str
    french_json: str = "[]"
    allied_json: str = "[]"
    reinforcements_json: str = "{}"
    attacker: str | None = None
    result: str | None = None
    notes_json: str = "[]"


class TownControlRow(SQLModel, table=True):
    """Which side holds a town."""

    __tablename__ = "town_control"

    town: str = Field(primary_key=True)
    side: str


class DayRow(SQLModel, table=True):
    """Whether the current day has marched (its battles may still be waiting for results)."""

    __tablename__ = "day_info"

    id: int = Field(default=1, primary_key=True)
    marched: bool = False
    next_battle: int = 1


class EventRow(SQLModel, table=True):
    """One umpire action: its diary lines and the state before and after it, for undo/redo."""

    __tablename__ = "event_log"

    seq: int | None = Field(default=None, primary_key=True)
    kind: str
    label: str
    date: date
    lines_json: str = "[]"
    payload_json: str = "{}"
    before_json: str
    after_json: str
    undone: bool = False
