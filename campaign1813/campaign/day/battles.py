"""Which contacts become battles, where and with whom; the umpire's merge, split and postpone.

Commands in contact fight when either has Attack orders, is breaking out, or marches on a route
that runs through the enemy's position or beyond it; hostile commands that end the day in the
same town always fight. Otherwise both stand off. Only the commands in contact fight; friends
within ``reinforce_miles`` march to the sound of the guns and reach the table on battle turn 4,
unless they are resting or retreating after a battle (or otherwise not free to march) that day.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, timedelta

from msgspec.structs import replace

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.contact import Contact, PositionIndex
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position
from campaign1813.campaign.day.state import Battle, CommandState, DayState, Status, Verb
from campaign1813.campaign.scenario.types import Side

REINFORCEMENT_TURN = 4


def intends_to_fight(ground: Ground, state: DayState, me: str, enemy: str) -> bool:
    """Whether ``me``'s orders carry it into ``enemy``: Attack, break-out, or a march through.

    A beaten command's retreat seeks no fight (seed 000's campaign: the loser spends the next
    day retreating), even where its road passes an enemy; only a break-out does.
    """
    order = state.orders.get(me)
    if order is None:
        return False
    if order.verb is Verb.ATTACK or order.breakout:
        return True
    command = state.commands[me]
    if command.status is Status.RETREATING and command.status_date == state.date:
        return False
    if order.verb is Verb.MOVE and order.route:
        mine = state.commands[me].position
        if state.commands[enemy].position == mine:
            return True  # stopped in the enemy's own town with further still to go
        return ground.on_route(state.commands[enemy].position, mine, order.route)
    return False


def schedule(ground: Ground, state: DayState, contacts: list[Contact]) -> list[Battle]:
    """Turn today's fighting contacts into battles; the commands are put in battle."""
    free = {
        n
        for n, c in state.commands.items()
        if c.on_map and c.status not in (Status.IN_BATTLE, Status.CUT_OFF)
    }
    fights: list[tuple[Contact, Side | None]] = []
    joined: list[Battle] = []
    for pair in contacts:
        if pair.french not in free or pair.allied not in free:
            joined.extend(_join_battle(ground, state, pair, free))
            continue
        f = intends_to_fight(ground, state, pair.french, pair.allied)
        a = intends_to_fight(ground, state, pair.allied, pair.french)
        same_town = pair.miles <= EPS and state.commands[pair.french].position.b is None
        if f or a or same_town:
            attacker = Side.FRENCH if f and not a else Side.ALLIED if a and not f else None
            fights.append((pair, attacker))
    parent: dict[str, str] = {}

    def root(n: str) -> str:
        while parent.setdefault(n, n) != n:
            n = parent[n]
        return n

    for pair, _ in fights:
        parent[root(pair.french)] = root(pair.allied)
    groups: dict[str, list[tuple[Contact, Side | None]]] = {}
    for pair, attacker in fights:
        groups.setdefault(root(pair.french), []).append((pair, attacker))
    def key(n: str) -> int:
        return state.commands[n].key

    battles = []
    ordered = sorted(groups.values(), key=lambda g: min(key(p.french) for p, _ in g))
    for fights_here in ordered:
        french = sorted({p.french for p, _ in fights_here}, key=key)
        allied = sorted({p.allied for p, _ in fights_here}, key=key)
        attackers = {a for _, a in fights_here}
        attacker = attackers.pop() if len(attackers) == 1 else None
        first = min(fights_here, key=lambda f: (key(f[0].french), key(f[0].allied)))[0]
        place = _place(ground, state, first, attacker)
        battle = Battle(state.next_battle, state.date, place, tuple(french), tuple(allied),
                        attacker=attacker)
        state.next_battle += 1
        state.battles[battle.id] = battle
        _enter(state, battle)
        battles.append(battle)
    battles.sort(key=lambda b: b.id)
    ready = free_to_march(ground, state)  # those already sent to one battle drop out as they go
    for battle in battles:
        fr, al = reinforcements(ground, state, battle, ready)
        battle = replace(battle, french_reinforcements=fr, allied_reinforcements=al)
        state.battles[battle.id] = battle
        _enter(state, battle)
    return [state.battles[b.id] for b in battles]


def _join_battle(ground: Ground, state: DayState, pair: Contact, free: set[str]) -> list[Battle]:
    """A free command that marches into (or shares a town with) a command already in an
    undecided battle joins that battle on its own side."""
    for me, enemy in ((pair.french, pair.allied), (pair.allied, pair.french)):
        if me not in free or enemy in free:
            continue
        other = state.commands[enemy]
        battle = state.battles.get(other.battle) if other.battle else None
        if battle is None or battle.result is not None or other.status is not Status.IN_BATTLE:
            continue
        same_town = pair.miles <= EPS and state.commands[me].position.b is None
        if not (same_town or intends_to_fight(ground, state, me, enemy)):
            continue
        side = state.commands[me].side
        if side is Side.FRENCH:
            battle = replace(battle, french=(*battle.french, me))
        else:
            battle = replace(battle, allied=(*battle.allied, me))
        battle = replace(battle, notes=(*battle.notes, f"{me} marched into the battle"))
        state.battles[battle.id] = battle
        _enter(state, battle)
        free.discard(me)
        return [battle]
    return []


def _enter(state: DayState, battle: Battle) -> None:
    """Put a battle's commands in it. Each keeps its order of the day, which the battle's
    written orders are taken from (``fight_setup``), but with no road left to march: a command
    in battle marches no farther. A messenger's order for it is void. The orders go when the
    battle's result is recorded (``aftermath.apply_result``)."""
    for n in battle.everyone():
        state.update(n, status=Status.IN_BATTLE, status_date=battle.date, battle=battle.id)
        order = state.orders.get(n)
        if order is not None and order.route:
            state.orders[n] = replace(order, route=())
        state.pending.pop(n, None)


def _place(ground: Ground, state: DayState, first: Contact, attacker: Side | None) -> str:
    """The defender's town, or the town nearer the contact when both sides were moving."""
    fpos = state.commands[first.french].position
    apos = state.commands[first.allied].position
    if attacker is not None:
        defender = apos if attacker is Side.FRENCH else fpos
        return ground.nearest_town(defender)
    candidates = sorted(set(fpos.ends()) | set(apos.ends()))

    def score(town: str) -> tuple[float, float, str]:
        here = Position(town)
        a = ground.distance(fpos, here)
        b = ground.distance(apos, here)
        return (max(a, b), a + b, town)

    return min(candidates, key=score)


def may_march_to_the_guns(command: CommandState) -> bool:
    """Whether a command is free to march to the sound of the guns: only a ready one is.

    Seed 000's campaign: the winner of a battle spends the next day resting and the loser the
    next day retreating, so neither marches to another battle that day; a command in battle
    or cut off is barred already, and one that surrendered is off the map.
    """
    return command.status is Status.READY


def free_to_march(ground: Ground, state: DayState) -> dict[Side, PositionIndex]:
    """The commands of each side free to march to the sound of the guns, by position."""
    return {
        side: PositionIndex(
            ground,
            (
                (c.name, c.position)
                for c in state.ordered()
                if c.side is side and may_march_to_the_guns(c)
            ),
        )
        for side in (Side.FRENCH, Side.ALLIED)
    }


def reinforcements(
    ground: Ground,
    state: DayState,
    battle: Battle,
    ready: Mapping[Side, PositionIndex] | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Friends of each side within ``reinforce_miles`` of the battle town or its fighters
    that are free to march today (``may_march_to_the_guns``). ``ready`` may give those free
    earlier in the day (``free_to_march``): of them only those still free are sent, for a
    command is freed by no battle, and none moves while the day's battles are set."""
    miles = ground.settings.reinforce_miles
    key = lambda n: state.commands[n].key  # noqa: E731
    ready = ready or free_to_march(ground, state)
    out = []
    for side in (Side.FRENCH, Side.ALLIED):
        index = ready[side]
        found: set[str] = set(index.near(Position(battle.place), miles))
        for n in battle.side(side):
            found.update(index.near(state.commands[n].position, miles))
        free = (n for n in found if may_march_to_the_guns(state.commands[n]))
        out.append(tuple(sorted(free, key=key)))
    return out[0], out[1]


def _battle(state: DayState, battle_id: int) -> Battle:
    battle = state.battles.get(battle_id)
    if battle is None:
        raise OrderRefused(f"there is no battle number {battle_id}")
    if battle.result is not None:
        raise OrderRefused(f"{battle.title} has already been fought ({battle.result})")
    return battle


def _need_reason(reason: str) -> str:
    if not reason.strip():
        raise OrderRefused("the umpire's reason must be given")
    return reason.strip()


def merge_limit(ground: Ground) -> float:
    """The farthest apart by road two battles may be and still merge without ``force``:
    twice ``reinforce_miles``, so that a command between them could march to both."""
    return 2 * ground.settings.reinforce_miles


def merge(
    state: DayState,
    battle_id: int,
    other_id: int,
    reason: str,
    ground: Ground,
    force: bool = False,
) -> list[str]:
    """Fight two battles of the same day as one, at the first battle's town.

    Battles farther apart by road than ``merge_limit`` are merged only with ``force``.
    """
    reason = _need_reason(reason)
    a, b = _battle(state, battle_id), _battle(state, other_id)
    if a.id == b.id:
        raise OrderRefused(f"{a.title} cannot be merged with itself")
    if a.date != b.date:
        raise OrderRefused(f"{a.title} and {b.title} are not on the same day")
    limit = merge_limit(ground)
    apart = ground.distance(Position(a.place), Position(b.place))
    if apart > limit + EPS and not force:
        both = f"the battle of {a.place} and the battle of {b.place}"
        gap = (f"are {round(apart, 1):g} miles apart by road" if math.isfinite(apart)
               else "are joined by no road")
        raise OrderRefused(f"{both} {gap}; merge them with --force if they are one fight")
    note = f"merged with the battle of {b.place} (no. {b.id}): {reason}"

    def union(x: tuple[str, ...], y: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*x, *y)))

    french = union(a.french, b.french)
    allied = union(a.allied, b.allied)
    merged = replace(
        a,
        french=french,
        allied=allied,
        french_reinforcements=tuple(
            n for n in union(a.french_reinforcements, b.french_reinforcements) if n not in french
        ),
        allied_reinforcements=tuple(
            n for n in union(a.allied_reinforcements, b.allied_reinforcements) if n not in allied
        ),
        attacker=a.attacker if a.attacker == b.attacker else None,
        notes=(*a.notes, *b.notes, note),
    )
    del state.battles[b.id]
    state.battles[a.id] = merged
    for n in merged.everyone():
        state.update(n, battle=a.id)
    return [f"Umpire: {b.title} is merged into {merged.title}: {reason}"]


def split(
    state: DayState, battle_id: int, commands: tuple[str, ...], reason: str, ground: Ground
) -> list[str]:
    """Fight some of a battle's commands as a separate battle at the nearer town to them."""
    reason = _need_reason(reason)
    battle = _battle(state, battle_id)
    names = []
    for text in commands:
        match = [n for n in battle.everyone() if n.casefold() == text.strip().casefold()]
        if not match:
            raise OrderRefused(f"{text} is not in {battle.title}")
        names.append(match[0])
    moved = set(names)
    french = tuple(n for n in battle.everyone(Side.FRENCH) if n in moved)
    allied = tuple(n for n in battle.everyone(Side.ALLIED) if n in moved)
    if not french or not allied:
        raise OrderRefused(f"a battle split from {battle.title} needs commands of both sides")
    rest_f = tuple(n for n in battle.french if n not in moved)
    rest_a = tuple(n for n in battle.allied if n not in moved)
    if not rest_f or not rest_a:
        raise OrderRefused(f"{battle.title} would be left without commands of both sides")
    first = Contact(french[0], allied[0], 0.0)
    place = _place(ground, state, first, battle.attacker)
    new = Battle(
        state.next_battle, battle.date, place, french, allied,
        attacker=battle.attacker,
        notes=(f"split from {battle.title}: {reason}",),
    )
    state.next_battle += 1
    old = replace(
        battle, french=rest_f, allied=rest_a,
        french_reinforcements=tuple(n for n in battle.french_reinforcements if n not in moved),
        allied_reinforcements=tuple(n for n in battle.allied_reinforcements if n not in moved),
        notes=(*battle.notes, f"split off the battle of {place} (no. {new.id}): {reason}"),
    )
    state.battles[old.id] = old
    state.battles[new.id] = new
    for n in new.everyone():
        state.update(n, battle=new.id)
    return [f"Umpire: {new.title} is split from {old.title}: {reason}"]


MAX_POSTPONE_DAYS = 366  # a campaign season; a longer wait is a new campaign


def postpone(state: DayState, battle_id: int, days: int, reason: str) -> list[str]:
    """Put a battle off to a later day; its commands wait where they stand."""
    reason = _need_reason(reason)
    battle = _battle(state, battle_id)
    if not 1 <= days <= MAX_POSTPONE_DAYS:
        raise OrderRefused(f"{battle.title} can be postponed by 1 to {MAX_POSTPONE_DAYS} days, "
                           f"not {days}")
    when: date = battle.date + timedelta(days=days)
    moved = replace(
        battle, date=when, notes=(*battle.notes, f"postponed to {format_date(when)}: {reason}")
    )
    state.battles[battle.id] = moved
    for n in moved.everyone():
        state.update(n, status_date=when)
    return [f"Umpire: {battle.title} is postponed to {format_date(when)}: {reason}"]
