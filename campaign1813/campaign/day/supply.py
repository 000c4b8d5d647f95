"""Supply and depots as the campaign's author ran them (his 2016 rule and its 2020 revision).

The rule's numbers are data (``data/supply/<version>.toml``, read strictly: an unknown key, a
wrong type or a number out of range is refused with the file and the key named); the
procedures here are pure. A day's supply is worked when the day ends, after the march, in the
order the rule file's readings give: depots in towns the enemy took are lost; new depots are
made; columns move; corps draw; every corps eats a day; depots gather; the main depot is topped
up. Every change of any stock is a ``LedgerEntry`` with its reason, and every corps that is
short or out of supply gets a line saying why.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations

import hashlib
import tomllib
from collections.abc import Iterable, Mapping
from datetime import date
from importlib import resources
from typing import Annotated, Literal

import msgspec

from campaign1813.campaign.day.contact import ContactSearch, contacts_among
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position
from campaign1813.campaign.day.state import DayState, Kind, Status, find_command, initial_state
from campaign1813.campaign.day.supply_state import (
    Column,
    Depot,
    LedgerEntry,
    SupplyOrder,
    SupplyState,
)
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import ArmyGroup, Corps, Scenario, Side

VERSIONS = ("2016", "2020")

Days = Annotated[int, msgspec.Meta(ge=0, le=100)]
Miles = Annotated[float, msgspec.Meta(ge=0, le=100)]
Men = Annotated[int, msgspec.Meta(ge=0, le=100_000)]


class SupplyRulesError(CampaignError):
    """A supply rule file that cannot be read: the file and the key are named."""


class Stocks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What each holder starts with and may hold."""

    corps_start: Days
    corps_carry: Days
    main_depot_start: Days
    per_corps_in_depot: Days
    army_limit: Days  # 0: no limit
    top_up_main_depot: bool
    depot_collects: Days


class Use(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a corps eats."""

    per_day: Annotated[int, msgspec.Meta(ge=1, le=10)]


class DepotRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How a new depot is made."""

    made_by: Literal["brigade", "corps halt"]
    days_to_make: Annotated[int, msgspec.Meta(ge=1, le=10)]
    needs_secure_road: bool


class Transport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How far and how much an army's supply columns carry in a day."""

    days_per_day: Days
    miles_per_day: Miles


class Draw(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a corps must be to draw supplies from a depot."""

    within_miles: Miles
    not_moved: bool
    not_in_contact: bool
    concentrated: bool


class Attrition(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a corps out of supply loses, and how men become casualties on this program's scale."""

    men_per_day: Men
    men_per_casualty: Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class Assumption(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A point the author's text leaves open, and the reading taken."""

    point: str
    reading: str


class SupplyRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One version of the supply rule, as read from its data file."""

    version: Literal["2016", "2020"]
    title: str
    stocks: Stocks
    use: Use
    depot: DepotRule
    transport: Transport
    draw: Draw
    attrition: Attrition
    assumptions: tuple[Assumption, ...] = ()


def read_rules(text: bytes, source: str) -> SupplyRules:
    """A supply rule file's contents checked strictly, or a refusal naming the file and key."""
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SupplyRulesError(f"{source}: not a TOML file ({exc})") from None
    try:
        return msgspec.convert(data, SupplyRules)
    except msgspec.ValidationError as exc:
        raise SupplyRulesError(f"{source}: {exc}") from None


def load_rules(version: str) -> SupplyRules:
    """The shipped supply rule of a version (``2016`` or ``2020``)."""
    if version not in VERSIONS:
        raise SupplyRulesError(f"there is no supply rule '{version}'; the versions are "
                               f"{', '.join(VERSIONS)}")
    source = resources.files("campaign1813.data").joinpath("supply", f"{version}.toml")
    rules = read_rules(source.read_bytes(), f"supply/{version}.toml")
    if rules.version != version:
        raise SupplyRulesError(f"supply/{version}.toml: version says {rules.version!r}")
    return rules


class SupplyDay(msgspec.Struct, frozen=True):
    """What a day's supply did: the ledger's entries, the report's lines, the choices owed."""

    ledger: tuple[LedgerEntry, ...]
    lines: tuple[str, ...]
    pending: tuple[tuple[str, int], ...]


def _column_key(army: str, town: str) -> str:
    return f"{army}|{town}"


def _armies(ground: Ground) -> dict[str, ArmyGroup]:
    return {a.name: a for a in ground.scenario.armies}


def main_depot_town(army: ArmyGroup) -> str:
    """Reading: an army's main depot is at its headquarters' starting town."""
    return army.hq


def start_supply(rules: SupplyRules, scenario: Scenario, day: date) -> SupplyState:
    """Every corps with its starting days and each army's first depots (2016: the main depot
    with 6; 2020: 6 days a corps in a depot at its starting town)."""
    corps: dict[str, int] = {}
    depots: dict[str, Depot] = {}
    for army in scenario.armies:
        main = main_depot_town(army)
        if rules.stocks.main_depot_start or not rules.stocks.per_corps_in_depot:
            depots[main] = Depot(main, army.name, rules.stocks.main_depot_start, True, since=day)
        for c in army.corps:
            corps[c.name] = rules.stocks.corps_start
            if rules.stocks.per_corps_in_depot:
                held = depots.get(c.start)
                days = rules.stocks.per_corps_in_depot + (held.days if held else 0)
                depots[c.start] = Depot(c.start, army.name, days, c.start == main, since=day)
    return SupplyState(rules.version, corps, depots)


def army_total(supply: SupplyState, army: ArmyGroup, state: DayState) -> int:
    """Every day's supplies an army group holds: its corps on the map, depots and columns."""
    carried = sum(supply.corps.get(c.name, 0) for c in army.corps
                  if c.name in state.commands and state.commands[c.name].on_map)
    stored = sum(d.days for d in supply.depots.values() if d.army == army.name)
    moving = sum(c.days for c in supply.columns.values() if c.army == army.name)
    return carried + stored + moving


# -- what a side may not pass through --------------------------------------------------------

def unsafe_towns(ground: Ground, state: DayState, side: Side) -> frozenset[str]:
    """Towns a side's supplies may not pass: held by the enemy, or where (or on whose roads)
    an enemy command stands."""
    towns = {t for t, holder in state.control.items() if holder is not side}
    for c in state.commands.values():
        if c.on_map and c.side is not side:
            towns.update(c.position.ends())
    return frozenset(towns)


def secure_road(ground: Ground, state: DayState, side: Side, start: str, end: str) -> bool:
    """Whether a road path joins two towns through no unsafe town (the ends included)."""
    return _safe_miles(ground, state, side, start, end) < float("inf")


def _safe_miles(ground: Ground, state: DayState, side: Side, start: str, end: str) -> float:
    """Road miles between two towns by the shortest path through no unsafe town (``inf`` if
    there is none): the road map's own search, barred from those towns."""
    unsafe = unsafe_towns(ground, state, side)
    if start in unsafe or end in unsafe:
        return float("inf")
    if start == end:
        return 0.0
    found = ground.road_map.routes(((start, 0.0),), avoiding=unsafe).get(end)
    return float("inf") if found is None else found[1]


# -- checking an order when it is given -------------------------------------------------------

def _army_of(ground: Ground, name: str) -> ArmyGroup:
    for army in ground.scenario.armies:
        if army.name == name:
            return army
    raise OrderRefused(f"'{name}' is not an army group of the campaign")


def _corps_of(army: ArmyGroup, name: str | None) -> Corps:
    for c in army.corps:
        if c.name == name:
            return c
    raise OrderRefused(f"{army.cinc.name} of the {army.name} cannot order {name}: it is not "
                       f"one of his corps")


def in_contact(ground: Ground, state: DayState, name: str) -> bool:
    """Whether a command stands within contact miles of an enemy command (or is in battle)."""
    me = state.commands[name]
    if me.status is Status.IN_BATTLE:
        return True
    miles = ground.settings.contact_miles
    near = ground.around(me.position, miles)
    for c in state.commands.values():
        if c.on_map and c.side is not me.side and set(c.position.ends()) & near \
                and ground.distance(me.position, c.position, miles + EPS) <= miles + EPS:
            return True
    return False


def _marches_today(state: DayState, name: str) -> bool:
    """Whether a command's order for today takes it along a road (before the day's march)."""
    order = state.orders.get(name)
    return order is not None and order.verb.marches and bool(order.route)


def check_order(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                order: SupplyOrder) -> None:
    """Refuse a supply order that cannot be carried out today, naming who and why."""
    army = _army_of(ground, order.army)
    hq = state.commands.get(f"{army.name} HQ")
    if hq is None or not hq.on_map:
        raise OrderRefused(f"the {army.name} has no CinC on the map to authorise supplies")
    if order.kind == "resupply":
        _check_resupply(rules, ground, state, supply, army, order)
    elif order.kind == "move":
        _check_move(rules, ground, state, supply, army, order)
    else:
        _check_depot(rules, ground, state, supply, army, order)


def _check_resupply(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                    army: ArmyGroup, order: SupplyOrder) -> None:
    corps = _corps_of(army, order.corps)
    command = state.commands[corps.name]
    depot = supply.depots.get(order.origin or "")
    if depot is None or depot.army != army.name:
        raise OrderRefused(f"{corps.name} cannot draw from {order.origin}: the {army.name} "
                           "has no depot there")
    if rules.draw.not_moved and _marches_today(state, corps.name):
        raise OrderRefused(f"{corps.name} cannot draw from {depot.town}: it moves today, and a "
                           "corps draws only on a day it stands still")
    if rules.draw.not_in_contact and in_contact(ground, state, corps.name):
        raise OrderRefused(f"{corps.name} cannot draw from {depot.town}: it is in contact "
                           "with the enemy")
    miles = ground.distance(command.position, Position(depot.town))
    if miles > rules.draw.within_miles + EPS:
        raise OrderRefused(f"{corps.name} cannot draw from {depot.town}: it is "
                           f"{round(miles, 1):g} miles away by road, more than "
                           f"{rules.draw.within_miles:g}")


def _check_move(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                army: ArmyGroup, order: SupplyOrder) -> None:
    origin, town = order.origin or "", order.town or ""
    if order.days < 1:
        raise OrderRefused(f"a column of the {army.name} must carry at least one day")
    already = sum(o.days for o in supply.orders
                  if o.kind == "move" and o.army == army.name and o.day == order.day)
    if already + order.days > rules.transport.days_per_day:
        raise OrderRefused(f"the {army.name} can move {rules.transport.days_per_day} days of "
                           f"supplies a day; {already} already move today, and "
                           f"{order.days} more is too many")
    held = _stock_at(supply, army.name, origin)
    if held < order.days:
        raise OrderRefused(f"the {army.name} has {held} days at {origin}, not {order.days}")
    miles = _safe_miles(ground, state, army.side, origin, town)
    if miles == float("inf"):
        raise OrderRefused(f"no safe road leads the {army.name}'s column from {origin} to "
                           f"{town}")
    if miles > rules.transport.miles_per_day + EPS:
        raise OrderRefused(f"a column goes {rules.transport.miles_per_day:g} miles a day; "
                           f"{origin} to {town} is {round(miles, 1):g}")


def _check_depot(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                 army: ArmyGroup, order: SupplyOrder) -> None:
    town = order.town or ""
    if town in supply.depots:
        raise OrderRefused(f"{town} has a depot already")
    corps = _corps_of(army, order.corps)
    command = state.commands[corps.name]
    if command.position != Position(town):
        raise OrderRefused(f"{corps.name} is not at {town}: a depot is made where the corps "
                           "stands")
    if _marches_today(state, corps.name):
        raise OrderRefused(f"{corps.name} moves today: a depot takes a whole day in the town")
    if in_contact(ground, state, corps.name):
        raise OrderRefused(f"{corps.name} is in contact with the enemy and cannot make a depot")
    if rules.depot.made_by == "brigade":
        numbers = {b.number for b in corps.infantry}
        if order.brigade not in numbers:
            raise OrderRefused(f"{order.brigade} Brigade is not an infantry brigade of "
                               f"{corps.name}; a depot needs one as its garrison")
        hurt = dict(command.casualties).get(str(order.brigade), 0)
        if hurt or supply.men_lost.get(corps.name, {}).get(order.brigade, 0):
            raise OrderRefused(f"{order.brigade} Brigade is not at full strength; a depot "
                               "needs a full-strength infantry brigade")
        if any(d.garrison == order.brigade and d.garrison_corps == corps.name
               for d in supply.depots.values()):
            raise OrderRefused(f"{order.brigade} Brigade already garrisons a depot")
    if rules.depot.needs_secure_road:
        main = main_depot_town(army)
        if main not in supply.depots or not secure_road(ground, state, army.side, town, main):
            raise OrderRefused(f"no secure road joins {town} to the {army.name}'s main depot "
                               f"at {main}")


def _stock_at(supply: SupplyState, army: str, town: str) -> int:
    depot = supply.depots.get(town)
    days = depot.days if depot is not None and depot.army == army else 0
    column = supply.columns.get(_column_key(army, town))
    return days + (column.days if column else 0)


def give_order(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
               order: SupplyOrder) -> None:
    """Take a supply order for today once it is checked (one resupply per corps a day: a later
    one replaces it)."""
    check_order(rules, ground, state, supply, order)
    if order.kind == "resupply":
        supply.orders[:] = [o for o in supply.orders
                            if not (o.kind == "resupply" and o.corps == order.corps)]
    supply.orders.append(order)


# -- the day's supply -----------------------------------------------------------------------

class _Book:
    """The day's ledger and report lines as they are written."""

    def __init__(self, day: date):
        self.day = day
        self.ledger: list[LedgerEntry] = []
        self.lines: list[str] = []

    def enter(self, army: str, holder: str, amount: int, balance: int, reason: str) -> None:
        if amount:
            self.ledger.append(LedgerEntry(self.day, holder, amount, balance, reason, army))


def _depot_name(depot: Depot) -> str:
    return f"{'main depot' if depot.main else 'depot'} at {depot.town} ({depot.army})"


def _set_depot(supply: SupplyState, depot: Depot, days: int) -> Depot:
    fresh = msgspec.structs.replace(depot, days=days)
    supply.depots[depot.town] = fresh
    return fresh


def supply_day(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
               contacts: Iterable[str]) -> SupplyDay:
    """Work the supply of the day that is ending (after its march); ``contacts`` names every
    command that met the enemy today. The supply state changes in place; the orders of the day
    are used up."""
    book = _Book(state.date)
    met = set(contacts)
    armies = _armies(ground)
    _lose_depots(state, supply, book)
    drawn: dict[str, str] = {}
    why_not: dict[str, str] = {}
    for order in [o for o in supply.orders if o.day == state.date]:
        army = armies[order.army]
        if order.kind == "depot":
            _make_depot(rules, ground, state, supply, army, order, met, book)
        elif order.kind == "move":
            _move_column(rules, ground, state, supply, army, order, book)
    for order in [o for o in supply.orders if o.day == state.date and o.kind == "resupply"]:
        _draw(rules, ground, state, supply, order, met, book, drawn, why_not)
    supply.orders[:] = [o for o in supply.orders if o.day > state.date]
    pending = _eat(rules, state, supply, book, drawn, why_not)
    _gather(rules, state, supply, armies, book)
    supply.ledger = tuple(book.ledger)
    return SupplyDay(tuple(book.ledger), tuple(book.lines), pending)


def _lose_depots(state: DayState, supply: SupplyState, book: _Book) -> None:
    armies_side = {c.army: c.side for c in state.commands.values()}
    for town, depot in sorted(supply.depots.items()):
        side = armies_side.get(depot.army)
        holder = state.control.get(town)
        if side is None or holder is None or holder is side:
            continue
        del supply.depots[town]
        book.enter(depot.army, _depot_name(depot), -depot.days, 0,
                   f"lost: {town} passed to the {holder.value}")
        rejoin = f"; {depot.garrison} Brigade rejoins {depot.garrison_corps}" \
            if depot.garrison is not None else ""
        book.lines.append(f"The {depot.army} lost its depot at {town} with {depot.days} days "
                          f"of supplies{rejoin}.")
    for key, column in sorted(supply.columns.items()):
        side = armies_side.get(column.army)
        holder = state.control.get(column.town)
        if side is not None and holder is not None and holder is not side:
            del supply.columns[key]
            book.enter(column.army, f"column at {column.town} ({column.army})", -column.days, 0,
                       f"lost: {column.town} passed to the {holder.value}")
            book.lines.append(f"The {column.army} lost {column.days} days of supplies on the "
                              f"road at {column.town}.")


def _stood_all_day(state: DayState, name: str, town: str) -> bool:
    c = state.commands[name]
    return c.on_map and c.position == Position(town) and c.marched <= EPS


def _make_depot(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                army: ArmyGroup, order: SupplyOrder, met: set[str], book: _Book) -> None:
    town, corps = order.town or "", order.corps or ""
    if town in supply.depots:
        book.lines.append(f"No depot made at {town}: one is there already.")
        return
    if not _stood_all_day(state, corps, town) or corps in met:
        book.lines.append(f"No depot made at {town}: {corps} did not stand there all day out "
                          "of contact.")
        return
    if rules.depot.needs_secure_road and not secure_road(
            ground, state, army.side, town, main_depot_town(army)):
        book.lines.append(f"No depot made at {town}: no secure road to the main depot.")
        return
    garrison = order.brigade if rules.depot.made_by == "brigade" else None
    supply.depots[town] = Depot(town, army.name, 0, False, garrison,
                                corps if garrison is not None else None, state.date)
    kept = f", {garrison} Brigade of {corps} left as its garrison" if garrison is not None \
        else ""
    book.lines.append(f"The {army.name} made a depot at {town}{kept}.")


def _take(supply: SupplyState, army: str, town: str, days: int, book: _Book,
          reason: str) -> None:
    """Take days from a column waiting at a town first, then from the depot there."""
    key = _column_key(army, town)
    column = supply.columns.get(key)
    if column is not None:
        used = min(days, column.days)
        left = column.days - used
        if left:
            supply.columns[key] = Column(town, army, left)
        else:
            del supply.columns[key]
        book.enter(army, f"column at {town} ({army})", -used, left, reason)
        days -= used
    if days:
        depot = supply.depots[town]
        depot = _set_depot(supply, depot, depot.days - days)
        book.enter(army, _depot_name(depot), -days, depot.days, reason)


def _move_column(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                 army: ArmyGroup, order: SupplyOrder, book: _Book) -> None:
    origin, town = order.origin or "", order.town or ""
    miles = _safe_miles(ground, state, army.side, origin, town)
    held = _stock_at(supply, army.name, origin)
    if miles > rules.transport.miles_per_day + EPS or held < order.days:
        book.lines.append(f"The {army.name}'s column from {origin} to {town} could not go: "
                          + ("no safe road a day long" if held >= order.days
                             else f"only {held} days at {origin}") + ".")
        return
    _take(supply, army.name, origin, order.days, book, f"sent to {town}")
    depot = supply.depots.get(town)
    if depot is not None and depot.army == army.name:
        depot = _set_depot(supply, depot, depot.days + order.days)
        book.enter(army.name, _depot_name(depot), order.days, depot.days,
                   f"column from {origin}")
    else:
        key = _column_key(army.name, town)
        waiting = supply.columns.get(key)
        days = order.days + (waiting.days if waiting else 0)
        supply.columns[key] = Column(town, army.name, days)
        book.enter(army.name, f"column at {town} ({army.name})", order.days, days,
                   f"arrived from {origin}")
    book.lines.append(f"The {army.name} moved {order.days} days of supplies from {origin} to "
                      f"{town}.")


def _draw(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
          order: SupplyOrder, met: set[str], book: _Book, drawn: dict[str, str],
          why_not: dict[str, str]) -> None:
    name, town = order.corps or "", order.origin or ""
    command = state.commands.get(name)
    depot = supply.depots.get(town)
    if command is None or not command.on_map:
        return
    reason = None
    if depot is None or depot.army != order.army:
        reason = f"the depot at {town} is gone"
    elif rules.draw.not_moved and command.marched > EPS:
        reason = "moved today"
    elif rules.draw.not_in_contact and (name in met or command.status is Status.IN_BATTLE):
        reason = "in contact with the enemy"
    elif ground.distance(command.position, Position(town)) > rules.draw.within_miles + EPS:
        reason = f"more than {rules.draw.within_miles:g} miles from {town}"
    if reason is not None:
        why_not[name] = f"not resupplied from {town} — {reason}"
        return
    assert depot is not None
    want = rules.stocks.corps_carry - supply.corps.get(name, 0)
    days = min(want, depot.days)
    if days <= 0:
        why_not[name] = f"not resupplied from {town} — " + \
            ("it carries all it can" if want <= 0 else f"the depot at {town} is empty")
        return
    depot = _set_depot(supply, depot, depot.days - days)
    book.enter(depot.army, _depot_name(depot), -days, depot.days, f"issued to {name}")
    supply.corps[name] = supply.corps.get(name, 0) + days
    book.enter(depot.army, name, days, supply.corps[name], f"drew from {town}")
    drawn[name] = f"drew {days} days from {town}"


def _eat(rules: SupplyRules, state: DayState, supply: SupplyState, book: _Book,
         drawn: Mapping[str, str], why_not: Mapping[str, str]) -> tuple[tuple[str, int], ...]:
    pending: list[tuple[str, int]] = []
    for c in state.ordered():
        if c.kind is not Kind.CORPS or not c.on_map or c.name not in supply.corps:
            continue
        have = supply.corps[c.name]
        use = min(have, rules.use.per_day)
        if use:
            supply.corps[c.name] = have - use
            book.enter(c.army, c.name, -use, have - use, "eaten")
        why = why_not.get(c.name)
        if use < rules.use.per_day:
            men = rules.attrition.men_per_day
            supply.pending[c.name] = supply.pending.get(c.name, 0) + men
            pending.append((c.name, men))
            because = f" ({why})" if why else ""
            book.lines.append(f"{c.name}: out of supply{because}, {men} men lost (the umpire "
                              "chooses the brigade).")
        elif supply.corps[c.name] == 0:
            because = f"; {why}" if why else ""
            book.lines.append(f"{c.name}: its last day of supplies eaten{because}.")
        elif why:
            left = supply.corps[c.name]
            book.lines.append(f"{c.name}: {why}; {left} day{'' if left == 1 else 's'} left.")
    return tuple(pending)


def _gather(rules: SupplyRules, state: DayState, supply: SupplyState,
            armies: Mapping[str, ArmyGroup], book: _Book) -> None:
    limit = rules.stocks.army_limit
    for army in armies.values():
        depots = sorted((d for d in supply.depots.values() if d.army == army.name),
                        key=lambda d: (d.main, d.town))
        for depot in depots:
            room = limit - army_total(supply, army, state) if limit else rules.stocks.depot_collects
            days = max(0, min(rules.stocks.depot_collects, room))
            if days:
                depot = _set_depot(supply, depot, depot.days + days)
                book.enter(army.name, _depot_name(depot), days, depot.days, "gathered")
        main = supply.depots.get(main_depot_town(army))
        if rules.stocks.top_up_main_depot and limit and main is not None \
                and main.army == army.name:
            days = limit - army_total(supply, army, state)
            if days > 0:
                main = _set_depot(supply, main, main.days + days)
                book.enter(army.name, _depot_name(main), days, main.days,
                           f"topped up to the army's {limit}")


def apply_attrition(rules: SupplyRules, ground: Ground, state: DayState, supply: SupplyState,
                    corps: str, brigade: int) -> LedgerEntry | None:
    """The umpire's choice of the brigade that loses a corps' men out of supply: the men go to
    the ledger of losses, and each whole ``men_per_casualty`` becomes a casualty on the brigade,
    carried to its next battle. Returns the casualty's record, if one was made."""
    men = supply.pending.get(corps)
    if not men:
        raise OrderRefused(f"{corps} owes no men to attrition")
    found = ground.corps[corps]
    if brigade not in {b.number for b in found.infantry} | {found.cavalry.number}:
        raise OrderRefused(f"{brigade} Brigade is not a brigade of {corps}")
    if brigade in supply.garrisons(corps):
        raise OrderRefused(f"{brigade} Brigade is a depot's garrison, not with {corps}: choose "
                           "a brigade that marched with the corps")
    del supply.pending[corps]
    lost = supply.men_lost.setdefault(corps, {})
    before = lost.get(brigade, 0)
    lost[brigade] = before + men
    per = rules.attrition.men_per_casualty
    made = (before + men) // per - before // per
    if not made:
        return None
    casualties = dict(state.commands[corps].casualties)
    key = str(brigade)
    casualties[key] = casualties.get(key, 0) + made
    state.update(corps, casualties=tuple(sorted(
        casualties.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0)))
    return LedgerEntry(state.date, f"{brigade} Brigade of {corps}", made, casualties[key],
                       f"a casualty for {lost[brigade]} men lost out of supply", found.army)


# -- the rule in the campaign day ------------------------------------------------------------

def switch(ground: Ground, state: DayState, version: str) -> list[str]:
    """Switch the supply rule on (a version: every army starts with its stocks today), or off
    (the supplies are put away; undo brings them back)."""
    if version == "off":
        state.supply = None
        return ["Supply is no longer kept."]
    rules = load_rules(version)
    state.supply = start_supply(rules, ground.scenario, state.date)
    depots = sum(1 for _ in state.supply.depots)
    return [f"Supply is kept ({rules.title}): every corps starts with "
            f"{rules.stocks.corps_start} days, and the armies' {depots} depots with their "
            "stocks."]


def opening_state(scenario: Scenario, day: date) -> DayState:
    """A new campaign's first day: every command at its starting town and, if the scenario's
    settings keep supply, every army with its starting stocks."""
    state = initial_state(scenario, day)
    if scenario.settings.supply != "off":
        state.supply = start_supply(load_rules(scenario.settings.supply), scenario, day)
    return state


def owed_choices(state: DayState) -> list[str]:
    """What the umpire still owes the supply rule before the day can march: the brigade of
    each corps that lost men out of supply."""
    if state.supply is None or not state.supply.pending:
        return []
    owed = state.supply.pending
    names = [c.name for c in state.ordered() if c.name in owed]
    if len(names) == 1:
        return [f"{names[0]} lost {owed[names[0]]} men out of supply; the umpire must choose "
                "the brigade that loses them"]
    return [f"{len(names)} corps lost men out of supply ("
            + ", ".join(f"{n} {owed[n]}" for n in names)
            + "); the umpire must choose the brigade that loses them in each"]


def close_day(ground: Ground, state: DayState, search: ContactSearch | None = None) -> list[str]:
    """The supply of the day that is ending, as the day's report says it: the changes by
    reason, the corps short or out of supply and why, and each army's stocks at nightfall.
    ``search``, the contacts the day's march found, is used again where no command has moved
    since (after battles, the retreats and surrenders are searched afresh)."""
    supply = state.supply
    if supply is None:
        return []
    rules = load_rules(supply.version)
    met = {n for b in state.battles.values() if b.date == state.date for n in b.everyone()}
    live = {c.name: c.position for c in state.ordered() if c.on_map}
    sides = {c.name: c.side for c in state.ordered() if c.on_map}
    for pair in contacts_among(ground, sides, live, ground.settings.contact_miles,
                               search).contacts:
        met.update((pair.french, pair.allied))
    day = supply_day(rules, ground, state, supply, met)
    lines = list(day.lines)
    if ground.settings.supply_attrition == "seeded":
        for corps, _men in day.pending:
            brigade = by_lot(ground, state, corps)
            apply_attrition(rules, ground, state, supply, corps, brigade)
            lines.append(f"{corps}: the lot falls on {brigade} Brigade.")
    for army in ground.scenario.armies:
        lines += army_lines(ground, state, supply, army)
    return lines


def army_lines(ground: Ground, state: DayState, supply: SupplyState,
               army: ArmyGroup) -> list[str]:
    """An army's ledger of the day in words, then what it holds at nightfall."""
    entries = [e for e in supply.ledger if e.army == army.name]
    eaten = [e for e in entries if e.reason == "eaten"]
    own = f" ({army.name})"
    words = [f"{e.holder.removesuffix(own)} {e.amount:+d} ({e.reason})" for e in entries
             if e.reason != "eaten"]
    if eaten:
        every = len(eaten) == sum(1 for c in army.corps if c.name in supply.corps
                                  and state.commands[c.name].on_map)
        words.append(("every corps" if every else ", ".join(e.holder for e in eaten))
                     + " ate a day")
    held = [f"{c.name} {supply.corps[c.name]}" for c in army.corps
            if c.name in supply.corps and state.commands[c.name].on_map]
    depots = [f"{d.town} {d.days}" for d in sorted(supply.depots.values(),
                                                    key=lambda d: (not d.main, d.town))
              if d.army == army.name]
    columns = [f"{c.town} {c.days}" for c in supply.columns.values() if c.army == army.name]
    if not (words or held or depots):
        return []
    stock = ", ".join(held) + ("; depots: " + ", ".join(depots) if depots else "") \
        + ("; on the road: " + ", ".join(columns) if columns else "")
    lines = [f"Supply of the {army.name}: " + "; ".join(words) + "."] if words else []
    return lines + [f"  {army.name}, days of supplies at nightfall: {stock}."]


def by_lot(ground: Ground, state: DayState, corps: str) -> int:
    """The brigade the lot picks for a corps' attrition: the same for the same corps and day,
    so a day run again picks the same (a brigade left as a garrison is not with the corps)."""
    supply = state.supply
    garrisons = supply.garrisons(corps) if supply else frozenset()
    found = ground.corps[corps]
    numbers = [b.number for b in found.infantry if b.number not in garrisons]
    digest = hashlib.sha256(f"{state.date.isoformat()}|{corps}".encode()).digest()
    return numbers[int.from_bytes(digest[:4], "big") % len(numbers)]


def attrition_casualties(state: DayState, corps: str) -> tuple[tuple[str, int], ...]:
    """The casualties a corps keeps from attrition whatever the battle-casualties setting:
    each whole ``men_per_casualty`` a brigade lost out of supply."""
    supply = state.supply
    if supply is None or corps not in supply.men_lost:
        return ()
    per = load_rules(supply.version).attrition.men_per_casualty
    return tuple((str(b), men // per) for b, men in sorted(supply.men_lost[corps].items())
                 if men // per)


OrderKind = Literal["resupply", "move", "depot"]
KINDS: tuple[OrderKind, ...] = ("resupply", "move", "depot")


def _rules_of(state: DayState) -> tuple[SupplyRules, SupplyState]:
    if state.supply is None:
        raise OrderRefused("supply is not kept in this campaign: switch it on with the "
                           "setting supply (2016 or 2020)")
    return load_rules(state.supply.version), state.supply


def build_order(ground: Ground, state: DayState, kind: str, *, army: str | None = None,
                corps: str | None = None, origin: str | None = None, town: str | None = None,
                days: int = 0, brigade: int | None = None) -> SupplyOrder:
    """A supply order from the umpire's words, its names made canonical: the army is the
    corps' (or, for a column, the army whose supplies are at ``origin``) unless named."""
    _rules, supply = _rules_of(state)
    chosen = next((k for k in KINDS if k == kind.strip().casefold()), None)
    if chosen is None:
        raise OrderRefused(f"'{kind}' is not a supply order; the orders are {', '.join(KINDS)}")
    if corps is not None:
        corps = find_command(state, corps).name
        if corps not in ground.corps:
            raise OrderRefused(f"{corps} is not a corps: only a corps draws or makes a depot")
    origin = ground.resolve(origin) if origin else None
    town = ground.resolve(town) if town else None
    if army is not None:
        army = _army_named(ground, army)
    elif corps is not None:
        army = ground.corps[corps].army
    elif origin is not None:
        owners = sorted({d.army for d in supply.depots.values() if d.town == origin}
                        | {c.army for c in supply.columns.values() if c.town == origin})
        if not owners:
            raise OrderRefused(f"no army has supplies at {origin}")
        army = owners[0]
    needs = {"resupply": ("corps", "origin"), "move": ("origin", "town"),
             "depot": ("corps", "town")}[chosen]
    given = {"corps": corps, "origin": origin, "town": town}
    missing = [n for n in needs if given[n] is None]
    if missing or army is None:
        raise OrderRefused(f"a {chosen} order needs " + " and ".join(
            {"corps": "a corps", "origin": "the town it is drawn or sent from",
             "town": "the town it goes to or is made at"}[n] for n in missing or needs))
    return SupplyOrder(chosen, army, state.date, corps=corps, origin=origin, town=town,
                       days=days, brigade=brigade)


def depots_in_reach(ground: Ground, state: DayState, corps: str) -> list[str]:
    """The towns of the depots of a corps' army it stands near enough to draw from (by the
    rule's road miles), nearest first; none while supply is not kept."""
    if state.supply is None or corps not in ground.corps:
        return []
    rules, supply = _rules_of(state)
    army = ground.corps[corps].army
    at = state.commands[corps].position
    found = []
    for depot in supply.depots.values():
        if depot.army == army:
            miles = ground.distance(at, Position(depot.town), rules.draw.within_miles + EPS)
            if miles <= rules.draw.within_miles + EPS:
                found.append((miles, depot.town))
    return [town for _, town in sorted(found)]


def _army_named(ground: Ground, name: str) -> str:
    wanted = " ".join(name.split()).casefold()
    for army in ground.scenario.armies:
        if army.name.casefold() == wanted:
            return army.name
    raise OrderRefused(f"'{name}' is not an army group of the campaign; they are "
                       + ", ".join(a.name for a in ground.scenario.armies))


def give(ground: Ground, state: DayState, order: SupplyOrder) -> None:
    """Check a supply order against the rule in force and take it for today."""
    rules, supply = _rules_of(state)
    give_order(rules, ground, state, supply, order)


def choose_brigade(ground: Ground, state: DayState, corps: str, brigade: int) -> list[str]:
    """The umpire's brigade for a corps' men lost out of supply, as the diary says it."""
    rules, supply = _rules_of(state)
    men = supply.pending.get(corps, 0)
    made = apply_attrition(rules, ground, state, supply, corps, brigade)
    line = f"{corps}: {brigade} Brigade loses the {men} men lost out of supply"
    if made is not None:
        line += f" — {made.amount} more casualty (now {made.balance})"
    return [line + "."]
