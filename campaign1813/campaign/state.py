"""The campaign's day-to-day state: commands, orders, battles and towns, in memory and on file.

Every service reads the whole state with ``load_state``, works on it, and writes it back with
``save_state`` inside the caller's session, so one umpire action is one transaction. The same
JSON form (``state_to_json``) is what the event log keeps for undo and redo.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum

from sqlmodel import Session, delete, select

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.ground import OrderRefused, Position
from campaign1813.campaign.model import CampaignInfo
from campaign1813.campaign.model_day import (
    BattleRow,
    CommandRow,
    DayRow,
    OrderRow,
    TownControlRow,
)
from campaign1813.campaign.scenario.types import Scenario, Side


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


@dataclass(frozen=True)
class CommandState:
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
    marched: float = 0.0
    halted: bool = False
    casualties: tuple[tuple[str, int], ...] = ()

    @property
    def on_map(self) -> bool:
        """False once a command has surrendered."""
        return self.status is not Status.SURRENDERED


@dataclass(frozen=True)
class Order:
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


@dataclass(frozen=True)
class Battle:
    """A battle: where, when, who fights on each side, who marches to the guns, the result."""

    id: int
    date: date
    place: str
    french: tuple[str, ...]
    allied: tuple[str, ...]
    french_reinforcements: tuple[str, ...] = ()
    allied_reinforcements: tuple[str, ...] = ()
    attacker: Side | None = None
    result: str | None = None
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


@dataclass
class DayState:
    """The whole mutable state of the campaign day, as one value."""

    date: date
    marched: bool
    next_battle: int
    commands: dict[str, CommandState]
    orders: dict[str, Order] = field(default_factory=dict)
    pending: dict[str, Order] = field(default_factory=dict)
    battles: dict[int, Battle] = field(default_factory=dict)
    control: dict[str, Side] = field(default_factory=dict)

    def ordered(self) -> list[CommandState]:
        """Commands in their stable order (army group order, HQ first)."""
        return sorted(self.commands.values(), key=lambda c: c.key)

    def update(self, name: str, **changes) -> CommandState:
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


def start_campaign(session: Session, scenario: Scenario) -> DayState:
    """Write the starting positions of a new campaign into its file."""
    info = session.exec(select(CampaignInfo)).one()
    state = initial_state(scenario, info.current_date)
    save_state(session, state)
    return state


def load_state(session: Session) -> DayState:
    """Read the campaign day's state from the file."""
    info = session.exec(select(CampaignInfo)).one()
    day = session.get(DayRow, 1) or DayRow()
    commands = {}
    for r in session.exec(select(CommandRow).order_by(CommandRow.key)):
        commands[r.name] = CommandState(
            name=r.name,
            key=r.key,
            side=Side(r.side),
            army=r.army,
            kind=Kind(r.kind),
            mounted=r.mounted,
            position=Position.from_json(json.loads(r.position_json)),
            status=Status(r.status),
            status_date=r.status_date,
            battle=r.battle_id,
            marched=r.marched,
            halted=r.halted,
            casualties=tuple(tuple(x) for x in json.loads(r.casualties_json)),
        )
    state = DayState(info.current_date, day.marched, day.next_battle, commands)
    for r in session.exec(select(OrderRow).order_by(OrderRow.id)):
        order = Order(
            command=r.command,
            verb=Verb(r.verb),
            objective=r.objective,
            issued=r.issued,
            effective=r.effective,
            via=tuple(json.loads(r.via_json)),
            route=tuple(json.loads(r.route_json)),
            forced=r.forced,
            breakout=r.breakout,
        )
        (state.pending if r.pending else state.orders)[r.command] = order
    for r in session.exec(select(BattleRow).order_by(BattleRow.id)):
        reinf = json.loads(r.reinforcements_json)
        state.battles[r.id] = Battle(
            id=r.id,
            date=r.date,
            place=r.place,
            french=tuple(json.loads(r.french_json)),
            allied=tuple(json.loads(r.allied_json)),
            french_reinforcements=tuple(reinf.get(Side.FRENCH.value, ())),
            allied_reinforcements=tuple(reinf.get(Side.ALLIED.value, ())),
            attacker=Side(r.attacker) if r.attacker else None,
            result=r.result,
            notes=tuple(json.loads(r.notes_json)),
        )
    for r in session.exec(select(TownControlRow)):
        state.control[r.town] = Side(r.side)
    return state


def save_state(session: Session, state: DayState) -> None:
    """Write the whole state back (rows replaced), within the caller's transaction."""
    info = session.exec(select(CampaignInfo)).one()
    info.current_date = state.date
    session.add(info)
    for table in (CommandRow, OrderRow, BattleRow, TownControlRow, DayRow):
        session.exec(delete(table))
    session.add(DayRow(id=1, marched=state.marched, next_battle=state.next_battle))
    for c in state.ordered():
        session.add(
            CommandRow(
                name=c.name,
                key=c.key,
                side=c.side.value,
                army=c.army,
                kind=c.kind.value,
                mounted=c.mounted,
                position_json=json.dumps(c.position.to_json()),
                status=c.status.value,
                status_date=c.status_date,
                battle_id=c.battle,
                marched=c.marched,
                halted=c.halted,
                casualties_json=json.dumps([list(x) for x in c.casualties]),
            )
        )
    for pending, orders in ((False, state.orders), (True, state.pending)):
        for name in sorted(orders, key=lambda n: state.commands[n].key):
            o = orders[name]
            session.add(
                OrderRow(
                    command=o.command,
                    verb=o.verb.value,
                    objective=o.objective,
                    via_json=json.dumps(list(o.via)),
                    route_json=json.dumps(list(o.route)),
                    forced=o.forced,
                    breakout=o.breakout,
                    issued=o.issued,
                    effective=o.effective,
                    pending=pending,
                )
            )
    for b in state.battles.values():
        session.add(
            BattleRow(
                id=b.id,
                date=b.date,
                place=b.place,
                french_json=json.dumps(list(b.french)),
                allied_json=json.dumps(list(b.allied)),
                reinforcements_json=json.dumps(
                    {
                        Side.FRENCH.value: list(b.french_reinforcements),
                        Side.ALLIED.value: list(b.allied_reinforcements),
                    }
                ),
                attacker=b.attacker.value if b.attacker else None,
                result=b.result,
                notes_json=json.dumps(list(b.notes)),
            )
        )
    for town in sorted(state.control):
        session.add(TownControlRow(town=town, side=state.control[town].value))
    session.flush()


def state_to_json(state: DayState) -> dict:
    """The state as plain JSON values, in a stable order: what undo and redo restore."""
    return {
        "date": state.date.isoformat(),
        "marched": state.marched,
        "next_battle": state.next_battle,
        "commands": [
            {
                "name": c.name,
                "key": c.key,
                "side": c.side.value,
                "army": c.army,
                "kind": c.kind.value,
                "mounted": c.mounted,
                "position": c.position.to_json(),
                "status": c.status.value,
                "status_date": c.status_date.isoformat() if c.status_date else None,
                "battle": c.battle,
                "marched": c.marched,
                "halted": c.halted,
                "casualties": [list(x) for x in c.casualties],
            }
            for c in state.ordered()
        ],
        "orders": [_order_json(o, False) for o in _sorted_orders(state, state.orders)]
        + [_order_json(o, True) for o in _sorted_orders(state, state.pending)],
        "battles": [
            {
                "id": b.id,
                "date": b.date.isoformat(),
                "place": b.place,
                "french": list(b.french),
                "allied": list(b.allied),
                "french_reinforcements": list(b.french_reinforcements),
                "allied_reinforcements": list(b.allied_reinforcements),
                "attacker": b.attacker.value if b.attacker else None,
                "result": b.result,
                "notes": list(b.notes),
            }
            for b in sorted(state.battles.values(), key=lambda b: b.id)
        ],
        "control": {t: state.control[t].value for t in sorted(state.control)},
    }


def _sorted_orders(state: DayState, orders: dict[str, Order]) -> list[Order]:
    return [orders[n] for n in sorted(orders, key=lambda n: state.commands[n].key)]


def _order_json(o: Order, pending: bool) -> dict:
    return {
        "command": o.command,
        "verb": o.verb.value,
        "objective": o.objective,
        "issued": o.issued.isoformat(),
        "effective": o.effective.isoformat(),
        "via": list(o.via),
        "route": list(o.route),
        "forced": o.forced,
        "breakout": o.breakout,
        "pending": pending,
    }


def state_from_json(data: dict) -> DayState:
    """The inverse of ``state_to_json``."""
    commands = {}
    for c in data["commands"]:
        commands[c["name"]] = CommandState(
            name=c["name"],
            key=c["key"],
            side=Side(c["side"]),
            army=c["army"],
            kind=Kind(c["kind"]),
            mounted=c["mounted"],
            position=Position.from_json(c["position"]),
            status=Status(c["status"]),
            status_date=date.fromisoformat(c["status_date"]) if c["status_date"] else None,
            battle=c["battle"],
            marched=c["marched"],
            halted=c["halted"],
            casualties=tuple(tuple(x) for x in c["casualties"]),
        )
    state = DayState(
        date.fromisoformat(data["date"]), data["marched"], data["next_battle"], commands
    )
    for o in data["orders"]:
        order = Order(
            command=o["command"],
            verb=Verb(o["verb"]),
            objective=o["objective"],
            issued=date.fromisoformat(o["issued"]),
            effective=date.fromisoformat(o["effective"]),
            via=tuple(o["via"]),
            route=tuple(o["route"]),
            forced=o["forced"],
            breakout=o["breakout"],
        )
        (state.pending if o["pending"] else state.orders)[order.command] = order
    for b in data["battles"]:
        state.battles[b["id"]] = Battle(
            id=b["id"],
            date=date.fromisoformat(b["date"]),
            place=b["place"],
            french=tuple(b["french"]),
            allied=tuple(b["allied"]),
            french_reinforcements=tuple(b["french_reinforcements"]),
            allied_reinforcements=tuple(b["allied_reinforcements"]),
            attacker=Side(b["attacker"]) if b["attacker"] else None,
            result=b["result"],
            notes=tuple(b["notes"]),
        )
    state.control = {t: Side(s) for t, s in data["control"].items()}
    return state


def dump_state(session: Session) -> dict:
    """The whole campaign-day state of the file as JSON values (for undo and for tests)."""
    return state_to_json(load_state(session))


def find_command(state: DayState, name: str) -> CommandState:
    """A command by its name (any case), its army group's name or its CinC's name for the HQ."""
    wanted = name.strip().casefold()
    for c in state.ordered():
        if c.name.casefold() == wanted:
            return c
    for c in state.ordered():
        if c.kind is Kind.HQ and c.army.casefold() == wanted:
            return c
    raise OrderRefused(f"no command called '{name}' in this campaign")
