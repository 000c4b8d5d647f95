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

from sqlalchemy import delete, insert, update
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.errors import CampaignError
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


# -- the state as JSON values: what the event log keeps, keyed so that changes are small ------


def _command_json(c: CommandState) -> dict:
    return {
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


def _command_from(d: dict) -> CommandState:
    return CommandState(
        name=d["name"],
        key=d["key"],
        side=Side(d["side"]),
        army=d["army"],
        kind=Kind(d["kind"]),
        mounted=d["mounted"],
        position=Position.from_json(d["position"]),
        status=Status(d["status"]),
        status_date=date.fromisoformat(d["status_date"]) if d["status_date"] else None,
        battle=d["battle"],
        marched=d["marched"],
        halted=d["halted"],
        casualties=tuple(tuple(x) for x in d["casualties"]),
    )


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


def _order_from(d: dict) -> Order:
    return Order(
        command=d["command"],
        verb=Verb(d["verb"]),
        objective=d["objective"],
        issued=date.fromisoformat(d["issued"]),
        effective=date.fromisoformat(d["effective"]),
        via=tuple(d["via"]),
        route=tuple(d["route"]),
        forced=d["forced"],
        breakout=d["breakout"],
    )


def _order_key(command: str, pending: bool) -> str:
    return f"{command}|{'pending' if pending else 'active'}"


def _battle_json(b: Battle) -> dict:
    return {
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


def _battle_from(d: dict) -> Battle:
    return Battle(
        id=d["id"],
        date=date.fromisoformat(d["date"]),
        place=d["place"],
        french=tuple(d["french"]),
        allied=tuple(d["allied"]),
        french_reinforcements=tuple(d["french_reinforcements"]),
        allied_reinforcements=tuple(d["allied_reinforcements"]),
        attacker=Side(d["attacker"]) if d["attacker"] else None,
        result=d["result"],
        notes=tuple(d["notes"]),
    )


SECTIONS = ("commands", "orders", "battles", "control")


def state_to_json(state: DayState) -> dict:
    """The state as plain JSON values, keyed by command, order, battle and town."""
    orders = {_order_key(n, False): _order_json(o, False) for n, o in state.orders.items()}
    orders.update({_order_key(n, True): _order_json(o, True) for n, o in state.pending.items()})
    return {
        "date": state.date.isoformat(),
        "marched": state.marched,
        "next_battle": state.next_battle,
        "commands": {c.name: _command_json(c) for c in state.ordered()},
        "orders": dict(sorted(orders.items())),
        "battles": {str(b.id): _battle_json(b) for b in sorted(state.battles.values(),
                                                               key=lambda b: b.id)},
        "control": {t: state.control[t].value for t in sorted(state.control)},
    }


def state_from_json(data: dict) -> DayState:
    """The inverse of ``state_to_json``."""
    commands = {n: _command_from(d) for n, d in data["commands"].items()}
    state = DayState(
        date.fromisoformat(data["date"]), data["marched"], data["next_battle"], commands
    )
    for d in data["orders"].values():
        (state.pending if d["pending"] else state.orders)[d["command"]] = _order_from(d)
    for d in data["battles"].values():
        state.battles[d["id"]] = _battle_from(d)
    state.control = {t: Side(s) for t, s in data["control"].items()}
    return state


def state_diff(before: dict, after: dict) -> tuple[dict, dict]:
    """The entries that differ, as (their values before, their values after); a missing
    entry is None. Applying the first to the after-state gives back the before-state."""
    old: dict = {}
    new: dict = {}
    for key in ("date", "marched", "next_battle"):
        if before[key] != after[key]:
            old[key], new[key] = before[key], after[key]
    for section in SECTIONS:
        b, a = before[section], after[section]
        changed = {k for k in b.keys() | a.keys() if b.get(k) != a.get(k)}
        if changed:
            old[section] = {k: b.get(k) for k in sorted(changed)}
            new[section] = {k: a.get(k) for k in sorted(changed)}
    return old, new


# -- rows of the file ------------------------------------------------------------------------


def _command_row_json(r: CommandRow) -> dict:
    return {
        "name": r.name,
        "key": r.key,
        "side": r.side,
        "army": r.army,
        "kind": r.kind,
        "mounted": r.mounted,
        "position": json.loads(r.position_json),
        "status": r.status,
        "status_date": r.status_date.isoformat() if r.status_date else None,
        "battle": r.battle_id,
        "marched": r.marched,
        "halted": r.halted,
        "casualties": json.loads(r.casualties_json),
    }


def _command_row_fields(d: dict) -> dict:
    return {
        "name": d["name"],
        "key": d["key"],
        "side": d["side"],
        "army": d["army"],
        "kind": d["kind"],
        "mounted": d["mounted"],
        "position_json": json.dumps(d["position"]),
        "status": d["status"],
        "status_date": date.fromisoformat(d["status_date"]) if d["status_date"] else None,
        "battle_id": d["battle"],
        "marched": d["marched"],
        "halted": d["halted"],
        "casualties_json": json.dumps(d["casualties"]),
    }


def _order_row_json(r: OrderRow) -> dict:
    return {
        "command": r.command,
        "verb": r.verb,
        "objective": r.objective,
        "issued": r.issued.isoformat(),
        "effective": r.effective.isoformat(),
        "via": json.loads(r.via_json),
        "route": json.loads(r.route_json),
        "forced": r.forced,
        "breakout": r.breakout,
        "pending": r.pending,
    }


def _order_row_fields(d: dict) -> dict:
    return {
        "command": d["command"],
        "verb": d["verb"],
        "objective": d["objective"],
        "issued": date.fromisoformat(d["issued"]),
        "effective": date.fromisoformat(d["effective"]),
        "via_json": json.dumps(d["via"]),
        "route_json": json.dumps(d["route"]),
        "forced": d["forced"],
        "breakout": d["breakout"],
        "pending": d["pending"],
    }


def _battle_row_json(r: BattleRow) -> dict:
    reinf = json.loads(r.reinforcements_json)
    return {
        "id": r.id,
        "date": r.date.isoformat(),
        "place": r.place,
        "french": json.loads(r.french_json),
        "allied": json.loads(r.allied_json),
        "french_reinforcements": reinf.get(Side.FRENCH.value, []),
        "allied_reinforcements": reinf.get(Side.ALLIED.value, []),
        "attacker": r.attacker,
        "result": r.result,
        "notes": json.loads(r.notes_json),
    }


def _battle_row_fields(d: dict) -> dict:
    return {
        "id": d["id"],
        "date": date.fromisoformat(d["date"]),
        "place": d["place"],
        "french_json": json.dumps(d["french"]),
        "allied_json": json.dumps(d["allied"]),
        "reinforcements_json": json.dumps({
            Side.FRENCH.value: d["french_reinforcements"],
            Side.ALLIED.value: d["allied_reinforcements"],
        }),
        "attacker": d["attacker"],
        "result": d["result"],
        "notes_json": json.dumps(d["notes"]),
    }


def load_json(session: Session) -> dict:
    """The campaign-day state of the file as JSON values (for undo and for tests)."""
    con = session.connection()
    info = con.execute(select(CampaignInfo.__table__)).one()
    try:
        day = con.execute(select(DayRow.__table__)).first() or DayRow()
    except OperationalError:
        raise CampaignError(
            "this campaign file has no campaign-day tables (it was made by an earlier "
            "version); start a new campaign from it"
        ) from None
    t = CommandRow.__table__
    commands = {r.name: _command_row_json(r) for r in con.execute(select(t).order_by(t.c.key))}
    t = OrderRow.__table__
    orders = {_order_key(r.command, r.pending): _order_row_json(r)
              for r in con.execute(select(t).order_by(t.c.id))}
    t = BattleRow.__table__
    battles = {str(r.id): _battle_row_json(r) for r in con.execute(select(t).order_by(t.c.id))}
    t = TownControlRow.__table__
    control = {r.town: r.side for r in con.execute(select(t).order_by(t.c.town))}
    return {
        "date": info.current_date.isoformat(),
        "marched": day.marched,
        "next_battle": day.next_battle,
        "commands": commands,
        "orders": dict(sorted(orders.items())),
        "battles": battles,
        "control": control,
    }


def load_state(session: Session) -> DayState:
    """Read the campaign day's state from the file."""
    return state_from_json(load_json(session))


def dump_state(session: Session) -> dict:
    """The whole campaign-day state of the file as JSON values, for comparing and for tests."""
    return load_json(session)


def write_changes(session: Session, changes: dict) -> None:
    """Write only the given entries (a side of ``state_diff``); None deletes an entry."""
    session.flush()
    con = session.connection()
    if "date" in changes:
        con.execute(update(CampaignInfo.__table__).values(
            current_date=date.fromisoformat(changes["date"])))
    if "marched" in changes or "next_battle" in changes:
        t = DayRow.__table__
        day = con.execute(select(t)).first()
        fields = {
            "marched": changes.get("marched", day.marched if day else False),
            "next_battle": changes.get("next_battle", day.next_battle if day else 1),
        }
        con.execute(delete(t))
        con.execute(insert(t).values(id=1, **fields))
    entries = changes.get("commands", {})
    _replace(con, CommandRow.__table__.c.name, list(entries),
             [_command_row_fields(d) for d in entries.values() if d is not None])
    entries = changes.get("battles", {})
    _replace(con, BattleRow.__table__.c.id, [int(k) for k in entries],
             [_battle_row_fields(d) for d in entries.values() if d is not None])
    entries = changes.get("control", {})
    _replace(con, TownControlRow.__table__.c.town, list(entries),
             [{"town": k, "side": v} for k, v in entries.items() if v is not None])
    t = OrderRow.__table__
    for pending in (False, True):
        names = [k.rsplit("|", 1)[0] for k in changes.get("orders", {})
                 if k.endswith("|pending") == pending]
        for start in range(0, len(names), 500):
            con.execute(delete(t).where(t.c.command.in_(names[start:start + 500]),
                                        t.c.pending == pending))
    rows = [_order_row_fields(d) for d in changes.get("orders", {}).values() if d is not None]
    if rows:
        con.execute(insert(t), rows)
    session.expire_all()


def _replace(con, column, keys: list, rows: list[dict]) -> None:
    """Delete the rows with these keys, then insert the new ones, in two statements each."""
    for start in range(0, len(keys), 500):  # keep within SQLite's limit on bound parameters
        con.execute(delete(column.table).where(column.in_(keys[start:start + 500])))
    if rows:
        con.execute(insert(column.table), rows)


def save_state(session: Session, state: DayState) -> None:
    """Write the state to the file, changing only the rows that differ from it."""
    _old, new = state_diff(load_json(session), state_to_json(state))
    write_changes(session, new)


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
