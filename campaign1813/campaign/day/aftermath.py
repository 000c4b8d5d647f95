"""After a battle: the winner rests and takes the town, the loser retreats or is cut off.

A legal retreat leaves the battle along roads, every town on the way farther from the battle
town than the last, never entering a town the enemy holds or stands in, and ends the day at
least ``contact_miles`` from every command of the winning side. A loser with no such road is
cut off and the umpire chooses: surrender, or break out through the weakest enemy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.contact import PositionIndex
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position
from campaign1813.campaign.day.movement import advance
from campaign1813.campaign.day.state import Battle, DayState, Order, Status, Verb
from campaign1813.campaign.scenario.types import Side

DRAW = "draw"


@dataclass(frozen=True)
class BreakOut:
    """A way out for a cut-off command: the town it makes for and the enemies in the way."""

    town: str
    route: tuple[str, ...]
    through: tuple[str, ...]


def result_side(text: str) -> Side | None:
    """``French``, ``Allied`` or ``draw`` (any case) as a side, or None for a draw."""
    t = text.strip().casefold()
    for side in Side:
        if side.value.casefold() == t:
            return side
    if t == DRAW:
        return None
    raise OrderRefused(f"'{text}' is not a result: give French, Allied or draw")


def winner_of(battle: Battle) -> Side | None:
    """The winning side of a fought battle (None for a draw or no result)."""
    return result_side(battle.result) if battle.result and battle.result != DRAW else None


def enemy_towns(state: DayState, side: Side) -> set[str]:
    """Towns the enemy of ``side`` holds or stands in."""
    towns = {t for t, s in state.control.items() if s is not side}
    for c in state.commands.values():
        if c.on_map and c.side is not side and c.position.b is None:
            towns.add(c.position.a)
    return towns


def winners_ground(state: DayState, name: str) -> list[Position]:
    """Where the commands that beat ``name`` stand (the battle town if none is left)."""
    c = state.commands[name]
    battle = state.battle_of(c)
    found = [state.commands[n].position for n in battle.everyone(c.side.enemy)
             if n in state.commands and state.commands[n].on_map]
    return found or [Position(battle.place)]


def _away_from(ground: Ground, sources: list[Position], cutoff: float) -> dict[str, float]:
    """Road miles from the nearest of some positions to every town within ``cutoff``."""
    best: dict[str, float] = {}
    for source in sources:
        for town, miles in ground.reach(source, cutoff).items():
            best[town] = min(miles, best.get(town, miles))
    return best


def _paths_away(
    ground: Ground, state: DayState, name: str, respect_enemy: bool
) -> dict[str, tuple[tuple[str, ...], float]]:
    """Towns reachable by going ever farther from the winners, within a day's march or the
    first town past it; each with the shortest such route and its miles.

    "Away from the battle" is measured from where the winners stand, not from the town the
    battle is named after: a fight on a road is named after the nearer town, which may lie
    behind the beaten command, on the very road it must take."""
    c = state.commands[name]
    rates = ground.settings.mounted_rate if c.mounted else ground.settings.foot_rate
    day = rates.road
    pos = c.position
    sources = winners_ground(state, name)
    start_away = min(ground.distance(s, pos) for s in sources)
    longest = max(ground.length.values(), default=0.0)
    away = _away_from(ground, sources, start_away + day + longest + 1.0)
    barred = enemy_towns(state, c.side) if respect_enemy else set()
    best: dict[str, tuple[tuple[str, ...], float]] = {}
    frontier: list[tuple[float, tuple[str, ...], float]] = []
    first = ground.adj[pos.a] if pos.b is None else ground.offsets(pos)
    for town, d in first:
        if town in away and away[town] > start_away + EPS and town not in barred:
            frontier.append((d, (town,), away[town]))
    while frontier:
        frontier.sort()
        miles, route, last_away = frontier.pop(0)
        town = route[-1]
        if town in best and best[town][1] <= miles:
            continue
        best[town] = (route, miles)
        if miles >= day - EPS:
            continue  # the day's march ends short of or at this town
        for nxt, length in ground.adj[town]:
            if nxt in away and away[nxt] > last_away + EPS and nxt not in barred:
                frontier.append((miles + length, (*route, nxt), away[nxt]))
    return best


def retreat_destinations(ground: Ground, state: DayState, name: str) -> dict[str, tuple[str, ...]]:
    """The towns a beaten command may retreat to today, each with its route."""
    c = state.commands[name]
    battle = state.battle_of(c)
    winner = c.side.enemy
    winners = [
        state.commands[n].position
        for n in battle.everyone(winner)
        if n in state.commands and state.commands[n].on_map
    ]
    legal: dict[str, tuple[str, ...]] = {}
    contact = ground.settings.contact_miles
    for town, (route, _miles) in sorted(_paths_away(ground, state, name, True).items()):
        end = advance(ground, c.position, route, 1.0, c.mounted, False).position
        index = PositionIndex(ground, ((str(i), p) for i, p in enumerate(winners)))
        near = index.near(end, contact)
        if any(d < contact - EPS for d in near.values()):
            continue
        legal[town] = route
    return legal


def breakout_options(ground: Ground, state: DayState, name: str) -> list[BreakOut]:
    """Ways out through the enemy, the weakest opposition first.

    A way out leads somewhere: to a town within a day's march (or the first past it) by the
    shortest road, where no enemy stands, and from which a road leads on — never back into the
    dead end the command is leaving, nor onto the winners' own ground."""
    c = state.commands[name]
    enemies = [o for o in state.ordered() if o.on_map and o.side is not c.side]
    barred = {e.position.a for e in enemies if e.position.b is None}
    rates = ground.settings.mounted_rate if c.mounted else ground.settings.foot_rate
    day = rates.road
    here = set(c.position.ends()) if c.position.b is None else set()
    best: dict[str, tuple[tuple[str, ...], float]] = {}
    frontier: list[tuple[float, tuple[str, ...]]] = [
        (d, (town,)) for town, d in
        (ground.adj[c.position.a] if c.position.b is None else ground.offsets(c.position))]
    while frontier:
        frontier.sort()
        miles, route = frontier.pop(0)
        town = route[-1]
        if town in best or town in here:
            continue
        best[town] = (route, miles)
        if miles >= day - EPS:
            continue
        for nxt, length in ground.adj[town]:
            if nxt not in best and nxt not in route and nxt not in here:
                frontier.append((miles + length, (*route, nxt)))
    options = []
    for town, (route, _miles) in best.items():
        if town in barred:
            continue
        onward = [n for n, _ in ground.adj[town] if n not in route and n not in here]
        if not onward:
            continue  # a dead end: no way on from there
        through = tuple(
            e.name for e in enemies if ground.on_route(e.position, c.position, route)
        )
        options.append(BreakOut(town, route, through))
    options.sort(key=lambda o: (len(o.through), len(o.route), o.town))
    return options


def _key(state: DayState):
    return lambda n: state.commands[n].key


def apply_result(
    ground: Ground,
    state: DayState,
    battle_id: int,
    result: str,
    casualties: dict[str, dict[str, int]] | None = None,
) -> list[str]:
    """Record a battle's result and enforce its aftermath; returns diary lines."""
    battle = state.battles.get(battle_id)
    if battle is None:
        raise OrderRefused(f"there is no battle number {battle_id}")
    if battle.result is not None:
        raise OrderRefused(f"{battle.title} already has a result ({battle.result})")
    if battle.date > state.date:
        raise OrderRefused(f"{battle.title} is postponed; it cannot be fought before its day")
    winner = result_side(result)
    text = winner.value if winner else DRAW
    state.battles[battle_id] = replace(battle, result=text)
    battle = state.battles[battle_id]
    next_day = battle.date + timedelta(days=1)
    lines = []
    after = _casualties(ground, state, battle, casualties)
    if winner is None:
        lines.append(f"{battle.title}: a draw; both sides stand.")
        for n in battle.everyone():
            state.update(n, status=Status.READY, status_date=None, battle=None)
        return lines + after
    loser = winner.enemy
    town = Position(battle.place)
    if any(state.commands[n].position == town for n in battle.side(loser)):
        lines.append(f"{battle.title}: the {winner.value} win; they take {battle.place}.")
        state.take(battle.place, winner)
    elif any(state.commands[n].position == town for n in battle.side(winner)):
        lines.append(f"{battle.title}: the {winner.value} win; they hold {battle.place}.")
        state.take(battle.place, winner)
    else:  # fought on a road: the winners take the ground the beaten held, not a town
        lines.append(f"{battle.title}: the {winner.value} win; they take the field.")
    for n in battle.everyone(winner):
        state.update(n, status=Status.RESTING, status_date=next_day, battle=battle_id)
    cut_off = []
    for n in battle.everyone(loser):
        state.update(n, status=Status.RETREATING, status_date=next_day, battle=battle_id)
    for n in battle.everyone(loser):
        if not retreat_destinations(ground, state, n):
            state.update(n, status=Status.CUT_OFF)
            cut_off.append(n)
    lines.append(
        f"{_names(battle.everyone(winner))} rest on {format_date(next_day)}; "
        f"{_names(battle.everyone(loser))} must retreat."
    )
    for n in cut_off:
        lines.append(f"{n} has no road of retreat: the umpire must choose surrender or break out.")
    return lines + after


def _casualties(ground: Ground, state: DayState, battle: Battle, casualties) -> list[str]:
    """Losses after a battle: kept only when the campaign carries casualties forward."""
    if not ground.settings.carry_casualties_forward:
        for n in battle.everyone():  # losses brought to this battle are spent in it
            state.update(n, casualties=())
        return ["Casualties are not carried forward (the campaign's setting)."] if casualties \
            else []
    if not casualties:
        return []
    for n, losses in casualties.items():
        if n not in battle.everyone():
            raise OrderRefused(f"{n} did not fight in {battle.title}")
        state.update(n, casualties=tuple(sorted((str(k), int(v)) for k, v in losses.items())))
    return ["Casualties are carried forward to the next battle."]


def _names(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


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


def choose_option(
    ground: Ground, state: DayState, name: str, option: str, town: str | None = None
) -> list[str]:
    """The umpire's choice for a cut-off command: ``surrender`` or ``break-out`` to a town."""
    c = state.commands[name]
    stranded = (
        c.status is Status.RETREATING
        and c.status_date == state.date
        and not retreat_destinations(ground, state, name)
    )
    if c.status is not Status.CUT_OFF and not stranded:
        raise OrderRefused(f"{name} is not cut off; it needs no surrender or break-out")
    battle = state.battle_of(c)
    choice = option.strip().casefold().replace("_", "-").replace(" ", "-")
    if choice == "surrender":
        state.update(name, status=Status.SURRENDERED, status_date=state.date)
        state.orders.pop(name, None)
        state.pending.pop(name, None)
        return [f"{name}, cut off after {battle.place}, surrenders."]
    if choice != "break-out":
        raise OrderRefused(f"'{option}' is not an option for {name}: surrender or break-out")
    options = breakout_options(ground, state, name)
    if not options:
        raise OrderRefused(f"{name} has no road out at all; it can only surrender")
    chosen = options[0]
    if town is not None:
        wanted = ground.resolve(town)
        match = [o for o in options if o.town == wanted]
        if not match:
            allowed = ", ".join(o.town for o in options)
            raise OrderRefused(f"{name} cannot break out to {wanted}; it may make for {allowed}")
        chosen = match[0]
    when = c.status_date or state.date
    state.update(name, status=Status.RETREATING)
    state.orders[name] = Order(
        name, Verb.MOVE, chosen.town, state.date, max(state.date, when),
        route=chosen.route, breakout=True,
    )
    through = f" through {_names(chosen.through)}" if chosen.through else ""
    return [f"{name}, cut off after {battle.place}, will break out towards {chosen.town}{through}."]


def next_day(day: date) -> date:
    """The following calendar day."""
    return day + timedelta(days=1)
