"""Orders for HQs and corps: checked against the map and the command's state, then stood.

An order stands until it is carried out (a march reaches its objective), replaced, cancelled,
or the command is caught up in a battle. With the messenger setting on, an order for a corps
whose CinC's HQ is more than ``messenger_miles`` away by road takes effect a day late.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.aftermath import retreat_destinations, retreat_route
from campaign1813.campaign.day.ground import Ground, OrderRefused, Position
from campaign1813.campaign.day.state import (
    DayState,
    Kind,
    Order,
    Status,
    Verb,
    find_command,
    hq_name,
    status_reason,
)
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.words import with_article


def parse_verb(text: str) -> Verb:
    """An order type from its name, in any case."""
    for verb in Verb:
        if verb.value.casefold() == text.strip().casefold():
            return verb
    allowed = ", ".join(v.value for v in Verb)
    raise OrderRefused(f"'{text}' is not an order; give one of {allowed}")


def _join(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def build_order(
    ground: Ground,
    state: DayState,
    command: str,
    verb: Verb | str,
    objective: str,
    via: tuple[str, ...] = (),
    forced: bool = False,
) -> Order:
    """Check an order and plan its route; refuses with the command and the reason."""
    c = find_command(state, command)
    name = c.name
    verb = parse_verb(verb) if isinstance(verb, str) else verb
    if state.marched:
        raise OrderRefused(
            f"{format_date(state.date)} has already marched; record its battles' results "
            f"and end the day before giving {name} new orders"
        )
    try:
        town = ground.resolve(objective)
        via = tuple(ground.resolve(v) for v in via)
    except CampaignError as exc:
        raise OrderRefused(f"order for {name} refused: {exc}") from None
    reason = status_reason(state, name)
    if c.status is Status.RETREATING and c.status_date == state.date:
        legal = retreat_destinations(ground, state, name)
        if verb is not Verb.MOVE:
            raise OrderRefused(f"{reason}; only a Move to {_join(sorted(legal))} is allowed")
        if town not in legal:
            raise OrderRefused(f"{reason}: it may retreat to {_join(sorted(legal))}, not {town}")
        if forced:
            raise OrderRefused(f"{name} cannot force-march on its retreat")
        route = retreat_route(ground, state, name, town, via) if via else legal[town]
        return Order(name, verb, town, state.date, state.date, via, route, forced)
    if reason and not (
        c.status is Status.RESTING and verb in (Verb.REST, Verb.HOLD, Verb.HALT)
    ):
        raise OrderRefused(reason)
    pos = c.position
    if not verb.marches or (c.status is Status.RESTING):
        if town not in pos.ends():
            where = pos.a if pos.b is None else f"the road {pos.a}–{pos.b}"
            raise OrderRefused(
                f"{name} cannot {verb.value.lower()} at {town}: it stands at {where}"
                + (" and is resting" if c.status is Status.RESTING else "")
            )
        if forced:
            raise OrderRefused(f"{name} cannot force-march on {with_article(verb.value)} order")
        return Order(name, verb, town, state.date, state.date)
    try:
        route = ground.plan(pos, town, via)
    except CampaignError as exc:
        raise OrderRefused(f"order for {name} refused: {exc}") from None
    effective = state.date
    if ground.settings.messenger_orders and c.kind is Kind.CORPS:
        hq = state.commands.get(hq_name(c.army))
        if hq is not None and hq.on_map:
            miles = ground.distance(hq.position, pos, ground.settings.messenger_miles)
            if miles > ground.settings.messenger_miles:
                effective = state.date.fromordinal(state.date.toordinal() + 1)
    return Order(name, verb, town, state.date, effective, via, route, forced)


def issue(state: DayState, order: Order) -> str:
    """Put a checked order in force (or in the messenger's bag); returns a diary line."""
    if order.effective > state.date:
        state.pending[order.command] = order
        return (
            f"Order: {order.text()} (by messenger; it arrives on {format_date(order.effective)})"
        )
    state.orders[order.command] = order
    state.pending.pop(order.command, None)
    return f"Order: {order.text()}"


def cancel(state: DayState, command: str) -> str:
    """Withdraw a command's orders; it stands where it is."""
    c = find_command(state, command)
    if state.marched:
        raise OrderRefused(
            f"{format_date(state.date)} has already marched; {c.name}'s orders stand"
        )
    if c.status is Status.IN_BATTLE:
        raise OrderRefused(f"{status_reason(state, c.name)}; the orders it fights under stand")
    if c.name not in state.orders and c.name not in state.pending:
        raise OrderRefused(f"{c.name} has no orders to cancel")
    if c.status is Status.RETREATING and c.status_date == state.date:
        raise OrderRefused(f"{c.name} must retreat today; its retreat cannot be cancelled")
    state.orders.pop(c.name, None)
    state.pending.pop(c.name, None)
    return f"Orders cancelled: {c.name} stands at its place"


def replan(ground: Ground, state: DayState, order: Order, pos: Position) -> Order | None:
    """A pending order's route planned afresh from where the command now stands."""
    try:
        route = ground.plan(pos, order.objective, order.via) if order.verb.marches else ()
    except CampaignError:
        return None
    return replace(order, route=route)
