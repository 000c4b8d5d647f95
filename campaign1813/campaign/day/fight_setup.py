"""A scheduled battle of the campaign turned into the setup its table starts from.

:func:`battle_setup` reads the battle's commands where they stand, their orders of battle and
grades from the scenario, their campaign orders and the casualties they bring, and the battle
town with the roads leaving it; it gives the pure :class:`BattleSetup` the battle module plays.
The readings taken where the rules leave a choice are in ``docs/battle-setup.md``.

>>> round(initial_bearing(52.0, 1.0, 52.0, 2.0), 2)  # one degree due east along 52° N
89.61
>>> square_of_bearing(89.61), square_of_bearing(225.0), square_of_bearing(350.0)
((1, 2), (2, 0), (0, 1))
>>> order_on_table(Verb.RECCE), order_on_table(Verb.ATTACK), order_on_table(None)
(<CorpsOrder.HOLD: 'Hold'>, <CorpsOrder.ATTACK: 'Attack'>, <CorpsOrder.HOLD: 'Hold'>)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from campaign1813.campaign.battle.setup import (
    POOR_CHIP,
    REINFORCEMENT_TURN,
    BattleSetup,
    BrigadeSetup,
    Chip,
    CommanderSetup,
    CorpsSetup,
    Edge,
    Special,
    Square,
    Table,
    TableRoad,
)
from campaign1813.campaign.battle.terms import Arm, CavalryWeight, CorpsOrder, Role
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position
from campaign1813.campaign.day.settings import effective
from campaign1813.campaign.day.state import (
    Battle,
    CommandState,
    DayState,
    Kind,
    Verb,
    hq_name,
)
from campaign1813.campaign.scenario.types import ArmyGroup, Corps, Side
from campaign1813.maps.geometry import river_meetings
from campaign1813.maps.types import MapData, Road, Town

__all__ = ["battle_setup", "initial_bearing", "square_of_bearing", "order_on_table",
           "reserve_key", "derived_seed", "casualty_keys", "TABLE_MILES", "ARTILLERY_KEY"]

# How far from the battle town the table reaches, in miles: a crossing nearer than this is on
# the table. The same three miles the map check allows a town's own bridge (maps/geometry.py).
TABLE_MILES = 3.0
# How the campaign names a corps' battery among its casualties, and its key's last part.
ARTILLERY_KEY = "artillery"

# The campaign's orders of the day as the corps' written battle orders (seed 000, Rule 4:
# Move, Halt, Hold, Engage, Attack; Engage, and the demo's Withdraw and Rally, have no
# campaign order of their own: the CinC gives them at the table).
# Move, Halt, Hold and Attack are the same words. A Recce is Hold, the one order under which
# Rule 4 sends cavalry forward to reconnoitre while the corps stays at its objective. A corps
# at Rest, or with no order of the day, stands where it is: Hold. docs/battle-setup.md.
_ORDERS = {
    Verb.MOVE: CorpsOrder.MOVE,
    Verb.HALT: CorpsOrder.HALT,
    Verb.HOLD: CorpsOrder.HOLD,
    Verb.ATTACK: CorpsOrder.ATTACK,
    Verb.RECCE: CorpsOrder.HOLD,
    Verb.REST: CorpsOrder.HOLD,
}

# The nine squares by compass sector of 45°, from north clockwise: edge-middles and corners.
_SECTOR_SQUARES = ((0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0))
CENTRE = (1, 1)


def initial_bearing(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The great-circle bearing from the first point towards the second: 0 north, 90 east."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360.0


def square_of_bearing(degrees: float) -> tuple[int, int]:
    """The outer square (row, column) a road from the centre runs into, by its bearing."""
    return _SECTOR_SQUARES[round((degrees % 360.0) / 45.0) % 8]


def order_on_table(verb: Verb | None) -> CorpsOrder:
    """A corps' written battle order from its campaign order; no order holds."""
    return CorpsOrder.HOLD if verb is None else _ORDERS[verb]


def reserve_key(army: str) -> str:
    """The key of an army group's reserve commander and of his reserve."""
    return f"{army} reserve"


def derived_seed(battle: Battle) -> int:
    """The battle's own seed when none is given: its date as YYYYMMDD, then its number.

    >>> from datetime import date
    >>> derived_seed(Battle(3, date(1813, 5, 2), "Helmstedt", ("4 Corps",), ("I Corps",)))
    18130502003
    """
    return int(battle.date.strftime("%Y%m%d")) * 1000 + battle.id


@dataclass(frozen=True)
class _Arrival:
    """Where a command comes onto the table, when, and how."""

    edge: Edge | None
    column_of_march: bool
    turn: int


class _Builder:
    """Collects the commanders, corps, brigades and chips of one battle, in chip order."""

    def __init__(self, ground: Ground, state: DayState, battle: Battle) -> None:
        self.ground = ground
        self.state = state
        self.battle = battle
        self.town = _town(ground, battle.place)
        self.armies = {a.name: a for a in ground.scenario.armies}
        self.commanders: list[CommanderSetup] = []
        self.corps: list[CorpsSetup] = []
        self.brigades: list[BrigadeSetup] = []
        self.blinds: Counter[str] = Counter()
        self.reinforcing = set(battle.french_reinforcements) | set(battle.allied_reinforcements)

    # -- one side --------------------------------------------------------------------------
    def side(self, side: Side) -> None:
        """Every command of one side: each HQ with its corps and reserve, then lone corps."""
        present = [self._command(n) for n in self.battle.everyone(side)]
        hqs = sorted((c for c in present if c.kind is Kind.HQ), key=self._army_order)
        corps = sorted((c for c in present if c.kind is Kind.CORPS), key=self._corps_order)
        placed: set[str] = set()
        for hq in hqs:
            army = self._army(hq)
            self._cinc(hq, army)
            for c in corps:
                if c.army == army.name:
                    self._corps(c)
                    placed.add(c.name)
            self._reserve(hq, army)
        for c in corps:
            if c.name not in placed:
                self._corps(c)

    def _cinc(self, hq: CommandState, army: ArmyGroup) -> None:
        """The CinC, arriving with his headquarters: its edge and turn, as a corps' are."""
        arrival = self._arrival(hq)
        self.commanders.append(CommanderSetup(hq.name, army.cinc.name, army.cinc.grade,
                                              Role.CINC, hq.side.value, _nation(army),
                                              arrival.edge, arrival.turn))

    def _reserve(self, hq: CommandState, army: ArmyGroup) -> None:
        key = reserve_key(army.name)
        self.commanders.append(CommanderSetup(key, army.reserve.name, army.reserve.grade,
                                              Role.RESERVE, hq.side.value, _nation(army)))
        arrival = self._arrival(hq)
        self.corps.append(CorpsSetup(key, hq.side.value, army.name, key, (), self._orders(hq),
                                     self.battle.place, arrival.edge, arrival.column_of_march,
                                     arrival.turn, self._blind(hq.side), reserve=True))

    def _corps(self, command: CommandState) -> None:
        corps = self.ground.corps[command.name]
        side = command.side.value
        self.commanders.append(CommanderSetup(corps.name, corps.commander.name,
                                              corps.commander.grade, Role.CORPS, side,
                                              corps.nationality))
        left = self.state.supply.garrisons(corps.name) if self.state.supply else frozenset()
        brigades = _brigades(corps, self._casualties(command, corps), left)
        self.brigades.extend(brigades)
        arrival = self._arrival(command)
        self.corps.append(CorpsSetup(corps.name, side, corps.army, corps.name,
                                     tuple(b.key for b in brigades), self._orders(command),
                                     self.battle.place, arrival.edge, arrival.column_of_march,
                                     arrival.turn, self._blind(command.side)))

    # -- what each command brings ----------------------------------------------------------
    def _orders(self, command: CommandState) -> CorpsOrder:
        """Its order of the day by the table of ``_ORDERS`` (the scheduler keeps the orders of
        the commands it puts in battle); a command with none stands, and holds."""
        order = self.state.orders.get(command.name)
        return order_on_table(None if order is None else order.verb)

    def _arrival(self, command: CommandState) -> _Arrival:
        pos = command.position
        reinforcing = command.name in self.reinforcing
        turn = REINFORCEMENT_TURN if reinforcing else 1
        if pos.town == self.battle.place:
            return _Arrival(None, False, turn)
        order = self.state.orders.get(command.name)
        marching = (reinforcing or command.marched > EPS
                    or (order is not None and order.verb.marches))
        return _Arrival(Edge.of_bearing(self._bearing_towards(pos)), marching, turn)

    def _bearing_towards(self, pos: Position) -> float:
        """The bearing of the road a command at ``pos`` comes in by: the battle town's
        neighbour on its shortest road, or straight at it if no road leads there."""
        here = self.battle.place
        if pos.b is not None and here in pos.ends():
            return self._bearing_to(pos.b if pos.a == here else pos.a)
        reach = self.ground.reach(pos)
        ways = sorted((reach[n] + miles, n) for n, miles in self.ground.adj[here] if n in reach)
        if ways:
            return self._bearing_to(ways[0][1])
        return self._bearing_to(self.ground.nearest_town(pos))

    def _bearing_to(self, name: str) -> float:
        other = _town(self.ground, name)
        return initial_bearing(self.town.lat, self.town.lon, other.lat, other.lon)

    def _casualties(self, command: CommandState, corps: Corps) -> dict[str, int]:
        """The casualties it brings, by brigade key; a loss on no brigade of its order of
        battle is refused rather than lost."""
        by_name = casualty_keys(corps)
        losses: dict[str, int] = {}
        for name, count in command.casualties:
            key = by_name.get(name.strip().casefold())
            if key is None:
                raise OrderRefused(f"{self.battle.title}: {command.name} brings casualties on "
                                   f"brigade '{name}', which is not in its order of battle")
            losses[key] = losses.get(key, 0) + count
        return losses

    def _blind(self, side: Side) -> str:
        self.blinds[side.value] += 1
        return f"Blind {side.value[0]}{self.blinds[side.value]}"

    # -- lookups ---------------------------------------------------------------------------
    def _command(self, name: str) -> CommandState:
        command = self.state.commands.get(name)
        if command is None:
            raise OrderRefused(f"{self.battle.title} names {name}, which is no command of "
                               f"this campaign")
        if command.kind is Kind.CORPS and name not in self.ground.corps:
            raise OrderRefused(f"{self.battle.title}: {name} is not in the scenario's orders "
                               f"of battle")
        return command

    def _army(self, hq: CommandState) -> ArmyGroup:
        army = self.armies.get(hq.army)
        if army is None or hq_name(army.name) != hq.name:
            raise OrderRefused(f"{self.battle.title}: {hq.name} is the HQ of no army group "
                               f"of the scenario")
        return army

    def _army_order(self, command: CommandState) -> tuple[int, int]:
        names = list(self.armies)
        return (names.index(command.army) if command.army in names else len(names),
                command.key)

    def _corps_order(self, command: CommandState) -> tuple[int, int, int]:
        army = self.armies.get(command.army)
        corps = [c.name for c in army.corps] if army else []
        where = corps.index(command.name) if command.name in corps else len(corps)
        return self._army_order(command)[0], where, command.key


def _town(ground: Ground, name: str) -> Town:
    for town in ground.scenario.map.towns:
        if town.name == name:
            return town
    raise OrderRefused(f"{name} is not a town of the scenario's map")


def _nation(army: ArmyGroup) -> str:
    """An army group's commanders' nation: that of most of its corps, the first on a tie."""
    counts = Counter(c.nationality for c in army.corps)
    if not counts:
        return ""
    best = max(counts.values())
    return next(c.nationality for c in army.corps if counts[c.nationality] == best)


def _keys(corps: Corps) -> tuple[str, str]:
    """The keys of a corps' cavalry brigade and battery (its infantry: ``corps/number``)."""
    return f"{corps.name}/{corps.cavalry.number} cavalry", f"{corps.name}/{ARTILLERY_KEY}"


def casualty_keys(corps: Corps) -> dict[str, str]:
    """The brigade key each way the campaign names a brigade's casualties: an infantry
    brigade's number, the cavalry's own number (when no infantry brigade has it), ``cavalry``
    or ``<number> cavalry``, and ``artillery``."""
    cavalry, battery = _keys(corps)
    names = {str(corps.cavalry.number): cavalry, "cavalry": cavalry,
             f"{corps.cavalry.number} cavalry": cavalry, ARTILLERY_KEY: battery}
    names.update({str(b.number): f"{corps.name}/{b.number}" for b in corps.infantry})
    return names


def _brigades(corps: Corps, losses: dict[str, int],
              left: frozenset[int] = frozenset()) -> tuple[BrigadeSetup, ...]:
    """A corps' brigades in march order: the cavalry, infantry brigades 1-4, the battery; an
    infantry brigade ``left`` behind (a depot's garrison) is not with it."""
    nation = corps.nationality
    cav, art = corps.cavalry, corps.artillery
    cavalry, battery = _keys(corps)
    out = [BrigadeSetup(cavalry, corps.name, f"{cav.number} Cavalry Brigade", Arm.CAVALRY,
                        cav.klass, cavalry=CavalryWeight(cav.type.value), lancers=cav.lancers,
                        nation=nation, number=cav.number, casualties=losses.get(cavalry, 0))]
    for b in corps.infantry:
        if b.number in left:
            continue
        key = f"{corps.name}/{b.number}"
        out.append(BrigadeSetup(key, corps.name, f"{b.number} Infantry Brigade", Arm.INFANTRY,
                                b.klass, b.firepower, b.skirmish, nation=nation,
                                number=b.number, casualties=losses.get(key, 0)))
    out.append(BrigadeSetup(battery, corps.name, f"{corps.name} Artillery", Arm.ARTILLERY,
                            art.klass, calibre=art.calibre, horse=art.horse, nation=nation,
                            casualties=losses.get(battery, 0)))
    return tuple(out)


def _chips(commanders: Iterable[CommanderSetup], specials: Iterable[Special]) -> tuple[Chip, ...]:
    """Numbered chips in commander order from 1 (past 12 if need be), Poor, then the specials."""
    chips = [Chip(str(n), c.key, c.side) for n, c in enumerate(commanders, start=1)]
    chips.append(Chip(POOR_CHIP))
    seen = {Special.POOR}
    for chosen in specials:
        special = Special(chosen)
        if special not in seen:
            seen.add(special)
            chips.append(Chip(special.value))
    return tuple(chips)


# -- the table -------------------------------------------------------------------------------
def _crossing_miles(town: Town, road: Road, map_data: MapData) -> float:
    """Miles from the battle town to where the road crosses its river: nought for the town's
    own river, the straight line's meeting with the river's course where the map has it,
    else the road's middle."""
    if road.river == town.river:
        return 0.0
    alone = MapData(map_data.towns, (road,), tuple(r for r in map_data.rivers
                                                   if r.name == road.river))
    near = [m.miles_from_start if road.a == town.name else m.miles_from_end
            for m in river_meetings(alone)]
    return min(near) if near else road.miles / 2


def _table(ground: Ground, town: Town) -> Table:
    map_data = ground.scenario.map
    towns = {t.name: t for t in map_data.towns}
    terrain: dict[tuple[int, int], list[str]] = {(r, c): [] for r in range(3) for c in range(3)}

    def mark(square: tuple[int, int], what: str) -> None:
        if what not in terrain[square]:
            terrain[square].append(what)

    if town.built_up:
        mark(CENTRE, "built-up area")
    if town.fortress:
        mark(CENTRE, "fortress")
    if town.river:
        mark(CENTRE, f"river {town.river}")
    leaving = []
    for road in map_data.roads:
        if town.name not in (road.a, road.b):
            continue
        other = towns[road.b if road.a == town.name else road.a]
        bearing = round(initial_bearing(town.lat, town.lon, other.lat, other.lon), 1) % 360.0
        leaving.append((bearing, other.name, road))
    leaving.sort(key=lambda r: (r[0], r[1]))
    roads: list[TableRoad] = []
    crossings: list[tuple[float, str]] = []
    for bearing, to, road in leaving:
        square = square_of_bearing(bearing)
        mark(CENTRE, f"road to {to}")
        mark(square, f"road to {to}")
        river = crossing = None
        if road.river is not None and road.crossing is not None:
            miles = _crossing_miles(town, road, map_data)
            if miles <= TABLE_MILES + EPS:
                river, crossing = road.river, road.crossing.value
                crossings.append((miles, river))
                at = CENTRE if road.river == town.river else square
                mark(at, f"river {river}")
                mark(at, f"{river} {crossing} on the road to {to}")
        roads.append(TableRoad(to, bearing, Edge.of_bearing(bearing), road.road_class.value,
                               river, crossing))
    river_here = town.river or (min(crossings)[1] if crossings else None)
    return Table(town.name, town.kind.value, town.built_up, town.fortress, river_here,
                 tuple(roads), tuple(Square(r, c, tuple(terrain[(r, c)]))
                                     for r in range(3) for c in range(3)))


# -- the whole setup -------------------------------------------------------------------------
def _scheduled(state: DayState, battle_id: int) -> Battle:
    battle = state.battles.get(battle_id)
    if battle is None:
        raise OrderRefused(f"there is no battle number {battle_id}")
    if battle.result is not None:
        raise OrderRefused(f"{battle.title} has been fought already ({battle.result}); "
                           f"it cannot be set up again")
    if battle.date > state.date:
        raise OrderRefused(f"{battle.title} is postponed; it cannot be set up before its day")
    return battle


def battle_setup(ground: Ground, state: DayState, battle_id: int, *, seed: int | None = None,
                 specials: Iterable[Special] = (), ruleset: str = "1813") -> BattleSetup:
    """The setup of a scheduled battle: commanders, corps, brigades, chips, table and seed,
    for the ruleset it is fought by (the 1813 rules unless the umpire chose another).

    Refused, naming the battle, if there is no such battle, it has a result, or it is
    postponed to a later day.
    """
    battle = _scheduled(state, battle_id)
    settings = effective(ground.settings, state.settings)
    builder = _Builder(ground, state, battle)
    for side in (Side.FRENCH, Side.ALLIED):
        builder.side(side)
    return BattleSetup(
        battle=battle.id,
        title=battle.title,
        place=battle.place,
        date=battle.date.isoformat(),
        commanders=tuple(builder.commanders),
        corps=tuple(builder.corps),
        brigades=tuple(builder.brigades),
        chips=_chips(builder.commanders, specials),
        table=_table(ground, builder.town),
        ruleset=ruleset,
        seed=derived_seed(battle) if seed is None else seed,
        turns=settings.battle_turns,
        carry_casualties=settings.carry_casualties_forward,
    )
