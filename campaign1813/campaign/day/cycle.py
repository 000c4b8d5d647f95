"""Ending the campaign day: march, find contacts, schedule battles, then close the day.

``advance_day`` (the umpire's End Day) works in two halves. The first call of a day marches
everyone, finds contacts and schedules battles; if battles were found the day stays open until
each has a result. The next call (or the same one, when there was no battle) closes the day:
the date moves on, enforced rests and retreats of the past day lapse, and messengers deliver
their orders.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day import supply
from campaign1813.campaign.day.aftermath import enemy_towns, retreat_destinations, winner_of
from campaign1813.campaign.day.battles import REINFORCEMENT_TURN, intends_to_fight, schedule
from campaign1813.campaign.day.contact import ContactSearch, contacts_among
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position, describe
from campaign1813.campaign.day.intelligence import day_reports
from campaign1813.campaign.day.movement import ARRIVAL_SLACK, MarchResult, march
from campaign1813.campaign.day.orders import replan
from campaign1813.campaign.day.state import Battle, DayState, Status, Verb
from campaign1813.campaign.scenario.types import Side


@dataclass(frozen=True)
class DayReport:
    """What ending the day did: whether it marched and closed, the battles found, diary lines."""

    day: date
    marched: bool
    closed: bool
    battles: tuple[int, ...]
    lines: tuple[str, ...]


def _join(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_ready(ground: Ground, state: DayState) -> None:
    """Refuse to march while a beaten command has no lawful retreat order or no umpire choice.

    Every such command is named in the one refusal, in the stable order of commands.
    """
    blocked: list[str] = []
    held = {side: enemy_towns(state, side) for side in Side}  # read once: nothing moves here
    for c in state.ordered():
        if c.status is Status.CUT_OFF and (c.status_date or state.date) <= state.date:
            place = state.battle_of(c).place
            blocked.append(
                f"{c.name} is cut off after losing at {place}; the umpire must choose "
                "surrender or break out"
            )
            continue
        if c.status is Status.RETREATING and c.status_date == state.date:
            order = state.orders.get(c.name)
            if order is not None and order.breakout:
                continue
            legal = retreat_destinations(ground, state, c.name, held)
            place = state.battle_of(c).place
            if not legal:
                blocked.append(
                    f"{c.name} must retreat after losing at {place} but no road of retreat "
                    "is left; the umpire must choose surrender or break out"
                )
            elif order is None or order.verb is not Verb.MOVE or order.objective not in legal:
                towns = " or ".join(sorted(legal))
                blocked.append(
                    f"{c.name} must retreat after losing at {place}; order it to {towns}"
                )
    blocked += supply.owed_choices(state)
    if blocked:
        raise OrderRefused(f"{format_date(state.date)} cannot march: " + "; ".join(blocked))


def advance_day(ground: Ground, state: DayState) -> DayReport:
    """March the day (if not yet done) and close it once every battle of the day has a result."""
    lines: list[str] = []
    found: tuple[int, ...] = ()
    marched_now = False
    today = state.date
    search: ContactSearch | None = None
    if not state.marched:
        check_ready(ground, state)
        found, search = _march_day(ground, state, lines)
        marched_now = True
    waiting = [b for b in state.battles.values() if b.result is None and b.date <= state.date]
    if waiting:
        if marched_now:
            return DayReport(today, True, False, found, tuple(lines))
        titles = _join(b.title for b in sorted(waiting, key=lambda b: b.id))
        raise OrderRefused(
            f"{format_date(state.date)} cannot end: {titles} "
            + ("has" if len(waiting) == 1 else "have")
            + " no result yet"
        )
    _close_day(ground, state, lines, search)
    return DayReport(today, marched_now, True, found, tuple(lines))


def _march_day(ground: Ground, state: DayState,
               lines: list[str]) -> tuple[tuple[int, ...], ContactSearch]:
    """March the day: its report's lines, the battles it scheduled, and the contacts found
    where the commands stood when it ended."""
    for c in state.ordered():
        if c.marched or c.halted:
            state.update(c.name, marched=0.0, halted=False)
    held = {c.name: c.position for c in state.ordered()}  # the ground each stood on at dawn
    recce = [n for n, o in state.orders.items() if o.verb is Verb.RECCE]  # read before arrival
    result = march(state, ground)
    for c in state.ordered():
        if c.name not in result.marched:
            continue
        miles = result.marched[c.name]
        if miles > 0:
            text = (f"{c.name} marched {round(miles, 1):g} miles: "
                    f"{describe(result.starts[c.name], ground)} → {describe(c.position, ground)}")
        else:
            text = f"{c.name} stood at {describe(c.position, ground)}"
        if c.name in result.stopped:
            step, enemy = result.stopped[c.name]
            if _arrived_by(result, c.name, step):  # it had done its march: nothing halted it
                text += f"; in contact with {enemy} from {_hour(ground, step)} " \
                        f"({_move(ground, step)})"
            else:
                text += f"; halted by contact with {enemy} ({_clock(ground, step)})"
        lines.append(text + ".")
    _forced_march_cost(ground, state, result.marched, lines)
    for c in state.ordered():
        if c.name in result.stopped and c.name not in result.marched:
            step, enemy = result.stopped[c.name]
            lines.append(f"{c.name} at {describe(c.position, ground)} is in contact with "
                         f"{enemy} from {_hour(ground, step)} ({_move(ground, step)}).")
    _winners_occupy(ground, state, held, lines)
    _occupy(state, lines)
    live = {c.name: c.position for c in state.ordered() if c.on_map}
    sides = {c.name: c.side for c in state.ordered() if c.on_map}
    search = contacts_among(ground, sides, live, ground.settings.contact_miles)
    contacts = list(search.contacts)
    # who meant to fight whom, read before the battles clear the orders of those in them
    meant = {(p.french, p.allied): (intends_to_fight(ground, state, p.french, p.allied),
                                    intends_to_fight(ground, state, p.allied, p.french))
             for p in contacts}
    battles = schedule(ground, state, contacts)
    if ground.settings.fog:
        made = day_reports(ground, state, contacts, battles, recce, result.stopped)
        state.reports.update((r.id, r) for r in made)
        if made:
            held_back = sum(not r.released for r in made)
            lines.append(f"Reports of the enemy: {len(made)} made"
                         + (f", {held_back} held for the umpire." if held_back else "."))
    fighting = {n for b in battles for n in b.everyone()}
    for pair in contacts:
        if pair.french in fighting or pair.allied in fighting:
            continue
        french, allied = state.commands[pair.french], state.commands[pair.allied]
        if Status.IN_BATTLE in (french.status, allied.status):
            continue
        lines.append(f"{pair.french} and {pair.allied} stand off, "
                     f"{round(pair.miles, 1):g} miles apart.")
        for me, enemy in ((pair.french, pair.allied), (pair.allied, pair.french)):
            order = state.orders.get(me)
            if order is not None and order.verb is Verb.RECCE:
                where = describe(state.commands[enemy].position, ground)
                lines.append(f"Recce: {me} finds {enemy} ({state.commands[enemy].side.value}) "
                             f"at {where}.")
    for b in battles:
        text = (f"Battle: {b.title}: {_join(b.french)} (French) against "
                f"{_join(b.allied)} (Allied)")
        if b.attacker:
            text += f"; the {b.attacker.value} attack"
        elif _both_attack(b, meant):
            text += "; the French and the Allied both attack"
        lines.append(text + ".")
        for side in (Side.FRENCH, Side.ALLIED):
            if b.reinforcements(side):
                lines.append(f"  {_join(b.reinforcements(side))} ({side.value}) march to the "
                             f"sound of the guns, on the table at turn {REINFORCEMENT_TURN}.")
    for name, order in list(state.orders.items()):
        if state.commands[name].status is Status.IN_BATTLE:
            continue  # its order stands for the battle (``battles._enter``); it marched no more
        if order.verb.marches and not order.route:
            when = result.arrived.get(name)
            at = f" at {_hour(ground, when)}" if when is not None else ""
            lines.append(f"{name} has reached {order.objective}{at}.")
            if order.verb is not Verb.HALT:
                del state.orders[name]
    state.marched = True
    return tuple(b.id for b in battles), search


def _arrived_by(result: MarchResult, name: str, step: float) -> bool:
    """Whether a command had reached the end of its route when contact found it."""
    arrived = result.arrived.get(name)
    return arrived is not None and arrived <= step + ARRIVAL_SLACK


def _both_attack(battle: Battle, meant: dict[tuple[str, str], tuple[bool, bool]]) -> bool:
    """Whether commands of both sides of a battle meant to fight (Attack, or a march through
    the enemy): a battle with no one attacker because both came on."""
    sides = set()
    for (french, allied), (f, a) in meant.items():
        if french in battle.french and allied in battle.allied:
            sides |= {Side.FRENCH} if f else set()
            sides |= {Side.ALLIED} if a else set()
    return len(sides) == 2


def _forced_march_cost(ground: Ground, state: DayState, marched: Mapping[str, float],
                       lines: list[str]) -> None:
    """A corps that force-marched pays the setting's cost: a casualty on each infantry
    brigade, carried to its next battle."""
    for name, miles in marched.items():
        order = state.orders.get(name)
        corps = ground.corps.get(name)
        if order is None or not order.forced or miles <= 0 or corps is None:
            continue
        losses = dict(state.commands[name].casualties)
        for brigade in corps.infantry:
            key = str(brigade.number)
            losses[key] = losses.get(key, 0) + 1
        state.update(name, casualties=tuple(sorted(losses.items(), key=lambda kv: int(kv[0])
                                                   if kv[0].isdigit() else 0)))
        lines.append(f"{name} force-marched: {ground.settings.forced_march_cost}.")


def _winners_occupy(ground: Ground, state: DayState, held: dict[str, Position],
                    lines: list[str]) -> None:
    """On their rest day the winners of a battle move onto the ground the beaten held (the
    first of the beaten in contact, at dawn), once the beaten have marched off it and no enemy
    is within contact of it: a winner within a day's march of it moves in and rests there, and
    a town there passes to the winners."""
    touching: dict[str, set[str]] = defaultdict(set)  # town -> commands at it or on its roads
    for c in state.ordered():
        if c.on_map:
            for end in c.position.ends():
                touching[end].add(c.name)
    for battle in sorted(state.battles.values(), key=lambda b: b.id):
        winner = winner_of(battle)
        if winner is None:
            continue
        resting = [n for n in battle.everyone(winner) if n in state.commands
                   and state.commands[n].status is Status.RESTING
                   and state.commands[n].status_date == state.date
                   and state.commands[n].battle == battle.id]
        beaten = [n for n in battle.side(winner.enemy) if n in held]
        if not resting or not beaten:
            continue
        ground_held = held[beaten[0]].rounded()
        contact = ground.settings.contact_miles
        # only an enemy touching a town around the ground can be within contact of it
        near = {n for town in ground.around(ground_held, contact) for n in touching.get(town, ())}
        enemies = [state.commands[n].position for n in near
                   if state.commands[n].side is not winner]
        if any(ground.distance(p, ground_held, contact + EPS) <= contact + EPS
               for p in enemies):
            continue  # the beaten (or other enemies) are still there, or still in contact
        movers = []
        for n in resting:
            c = state.commands[n]
            rates = ground.settings.mounted_rate if c.mounted else ground.settings.foot_rate
            miles = ground.distance(c.position, ground_held, rates.road)
            if EPS < miles <= rates.road + EPS:  # within a day's march, as the march itself
                for end in c.position.ends():
                    touching[end].discard(n)
                for end in ground_held.ends():
                    touching[end].add(n)
                state.update(n, position=ground_held, marched=c.marched + miles)
                movers.append(n)
        if movers:
            lines.append(f"{_join(movers)} {'occupies' if len(movers) == 1 else 'occupy'} "
                         f"{describe(ground_held, ground)}, the ground "
                         f"{_join(beaten)} held.")


def _occupy(state: DayState, lines: list[str]) -> None:
    """A town where only one side stands passes to that side."""
    sides: dict[str, set[Side]] = defaultdict(set)
    for c in state.ordered():
        if c.on_map and c.position.b is None:
            sides[c.position.a].add(c.side)
    for town in sorted(sides):
        if len(sides[town]) == 1:
            side = next(iter(sides[town]))
            if state.control.get(town) is not side:
                before = state.control.get(town)
                state.take(town, side)
                if before is not None:
                    lines.append(f"{town} passes to the {side.value}.")


def _close_day(ground: Ground, state: DayState, lines: list[str],
               search: ContactSearch | None = None) -> None:
    closing = state.date
    lines += supply.close_day(ground, state, search)
    state.date = closing + timedelta(days=1)
    state.marched = False
    for c in state.ordered():
        if c.status in (Status.RESTING, Status.RETREATING) and (
            c.status_date is None or c.status_date < state.date
        ):
            state.update(c.name, status=Status.READY, status_date=None, battle=None)
    for name, order in sorted(state.pending.items(), key=lambda kv: state.commands[kv[0]].key):
        if order.effective <= state.date:
            del state.pending[name]
            fresh = replan(ground, state, order, state.commands[name].position)
            if fresh is None:
                lines.append(f"The messenger's order for {name} can no longer be carried out.")
            else:
                state.orders[name] = fresh
                lines.append(f"The messenger reaches {name}: {fresh.text()}.")
    lines.append(f"{format_date(closing)} ends.")


def _minutes(ground: Ground, steps: float) -> int:
    """Minutes after 0800 of so many steps into his twelve marching hours."""
    return round(12 * steps / max(1, ground.settings.steps_per_day) * 60)


def _hour(ground: Ground, steps: float) -> str:
    """The hour of so many steps into the marching day: ``0936``."""
    minutes = _minutes(ground, steps)
    return f"{8 + minutes // 60:02d}{minutes % 60:02d}"


def _move(ground: Ground, steps: float) -> str:
    """Which of his three moves (0800–1200, 1200–1600, 1600–2000) it falls in."""
    move = min(3, max(1, -(-_minutes(ground, steps) // 240)))
    return f"{('first', 'second', 'third')[move - 1]} move"


def _clock(ground: Ground, steps: float) -> str:
    """The hour, and which of his three moves it falls in: ``0943, first move``."""
    return f"{_hour(ground, steps)}, {_move(ground, steps)}"
