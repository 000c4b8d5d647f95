"""A scheduled battle's setup, built from the campaign (DESIGN.md §4.1; seed 000's Summary of
the Rules, Organisation of Armies and the Demo Game).

The shipped scenario gives the demo's two army groups; small hand-made maps give the bearings,
edges and squares, each worked by hand from the towns' coordinates.
"""

from __future__ import annotations

from datetime import date

import pytest
from msgspec.structs import replace

from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    REINFORCEMENT_TURN,
    Edge,
    Special,
)
from campaign1813.campaign.battle.terms import Arm, CavalryWeight, CorpsOrder, Grade, Rating, Role
from campaign1813.campaign.day.fight_setup import (
    battle_setup,
    initial_bearing,
    square_of_bearing,
)
from campaign1813.campaign.day.ground import Ground, OrderRefused, Position
from campaign1813.campaign.day.state import Battle, DayState, Order, Verb, initial_state
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.campaign.scenario.types import Scenario, Settings, Side
from campaign1813.maps.types import (
    Crossing,
    MapData,
    River,
    Road,
    RoadClass,
    Theatre,
    Town,
    TownKind,
)

from .builders import army, line, road, scenario
from .test_scenarios import make

DAY = date(1813, 5, 2)
FRENCH_ARMY = ["Second French Army HQ", "4 Corps", "5 Corps", "6 Corps", "13 Polish Corps"]
PRUSSIANS = ["Prussian Army HQ", "I Prussian Corps", "II Prussian Corps", "III Prussian Corps",
             "IV Prussian Corps"]


@pytest.fixture(scope="module")
def shipped() -> Ground:
    return Ground(load_scenario())


def with_battle(scen: Scenario, battle: Battle, at: dict[str, Position],
                **state_fields) -> DayState:
    """The scenario's starting state on the battle's day, commands moved, the battle scheduled."""
    state = initial_state(scen, battle.date)
    for name, pos in at.items():
        state.update(name, position=pos)
    for key, value in state_fields.items():
        setattr(state, key, value)
    state.battles[battle.id] = battle
    return state


def helmstedt(shipped: Ground, **battle_fields) -> tuple[Ground, DayState]:
    """The demo game: Davout's army in Helmstedt, Blücher's marching in on the Magdeburg road."""
    battle = Battle(1, DAY, "Helmstedt", tuple(FRENCH_ARMY), tuple(PRUSSIANS), **battle_fields)
    at = {n: Position("Helmstedt") for n in FRENCH_ARMY}
    at |= {n: Position("Helmstedt", "Magdeburg", 6.0) for n in PRUSSIANS}
    state = with_battle(shipped.scenario, battle, at)
    for n in PRUSSIANS:
        state.update(n, marched=15.0)
    return shipped, state


# -- the chips ----------------------------------------------------------------------------------
def test_the_two_army_battle_deals_the_demo_chips_then_poor(shipped):
    """The demo's battle reports: French CinC chip 1, 4 corps 2, 5 corps 3, 6 corps 4, 13 corps
    5, French reserve 6, Prussian CinC 7, 1 corps 8 … 4 corps 11, Prussian reserve 12."""
    setup = battle_setup(*helmstedt(shipped), 1)
    numbered = [(c.number, c.commander, c.side) for c in setup.chips if c.number]
    assert numbered == [
        (1, "Second French Army HQ", FRENCH), (2, "4 Corps", FRENCH), (3, "5 Corps", FRENCH),
        (4, "6 Corps", FRENCH), (5, "13 Polish Corps", FRENCH),
        (6, "Second French Army reserve", FRENCH),
        (7, "Prussian Army HQ", ALLIED), (8, "I Prussian Corps", ALLIED),
        (9, "II Prussian Corps", ALLIED), (10, "III Prussian Corps", ALLIED),
        (11, "IV Prussian Corps", ALLIED), (12, "Prussian Army reserve", ALLIED),
    ]
    assert [c.label for c in setup.chips[12:]] == ["Poor"]
    assert [c.key for c in setup.commanders] == [c.commander for c in setup.chips[:12]]


def test_the_chosen_special_chips_follow_poor_once_each(shipped):
    specials = (Special.FRENCH_TACTICAL, Special.ALLIED_GIFTED, Special.POOR,
                Special.FRENCH_TACTICAL)
    setup = battle_setup(*helmstedt(shipped), 1, specials=specials)
    assert [c.label for c in setup.chips[12:]] == ["Poor", "French tactical", "Allied gifted"]
    assert all(c.commander is None and c.number is None for c in setup.chips[12:])


def test_a_one_corps_a_side_battle_has_two_chips_and_poor(tmp_path):
    """1 Corps attacks I Corps down the line of towns: a battle with no HQ on either side."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Attack", "Fenwick")
    for _ in range(4):
        if u.end_day().report.battles:
            break
    setup = battle_setup(u.ground(), u.state(), 1)
    assert [(c.label, c.commander, c.side) for c in setup.chips] == [
        ("1", "1 Corps", FRENCH), ("2", "I Corps", ALLIED), ("Poor", None, None)]
    assert [c.role for c in setup.commanders] == [Role.CORPS, Role.CORPS]
    assert not any(c.reserve for c in setup.corps)


def test_past_twelve_commanders_the_chips_go_on_numbering():
    """Seven French corps with their HQ (CinC, 7 corps, reserve: 9) and three Allied corps
    with theirs (5): 14 numbered chips, then Poor."""
    towns = ["West", "Mid", "East"]
    french = {f"{n} Corps": "Mid" for n in range(1, 8)}
    allied = {f"{n} Allied Corps": "East" for n in ("I", "II", "III")}
    scen = scenario(towns, line(towns),
                    [army("Armée", Side.FRENCH, "Mid", french),
                     army("Alliés", Side.ALLIED, "East", allied)])
    battle = Battle(1, DAY, "Mid", ("Armée HQ", *french), ("Alliés HQ", *allied))
    setup = battle_setup(Ground(scen), with_battle(scen, battle, {}), 1)
    assert [c.label for c in setup.chips] == [str(n) for n in range(1, 15)] + ["Poor"]
    assert setup.chips[8].commander == "Armée reserve"
    assert setup.chips[13].commander == "Alliés reserve"


def test_corps_without_their_hq_come_after_each_hq_and_its_reserve():
    """Army group B's HQ is not at the battle: its corps follow A's CinC, corps and reserve."""
    towns = ["West", "Mid", "East"]
    scen = scenario(towns, line(towns),
                    [army("B", Side.FRENCH, "West", {"B1 Corps": "Mid"}),
                     army("A", Side.FRENCH, "Mid", {"A1 Corps": "Mid", "A2 Corps": "Mid"}),
                     army("Allies", Side.ALLIED, "East", {"I Corps": "East"})])
    battle = Battle(1, DAY, "Mid", ("B1 Corps", "A2 Corps", "A HQ", "A1 Corps"), ("I Corps",))
    setup = battle_setup(Ground(scen), with_battle(scen, battle, {}), 1)
    assert [c.key for c in setup.commanders] == [
        "A HQ", "A1 Corps", "A2 Corps", "A reserve", "B1 Corps", "I Corps"]
    assert [c.blind for c in setup.corps] == ["Blind F1", "Blind F2", "Blind F3", "Blind F4",
                                              "Blind A1"]


# -- commanders, corps and brigades --------------------------------------------------------
def test_commanders_their_roles_grades_and_the_blank_reserve(shipped):
    """Organisation of Armies: Davout Average, Vandamme (4 Corps) Gifted, the 13 Polish Corps'
    commander Poor, the reserve commander Average; the reserve is a blind with no brigades."""
    setup = battle_setup(*helmstedt(shipped), 1)
    davout = setup.commander("Second French Army HQ")
    assert (davout.name, davout.grade, davout.role, davout.nation) == \
        ("Marshal Davout", Grade.AVERAGE, Role.CINC, "French")
    assert setup.commander("4 Corps").grade is Grade.GIFTED
    assert setup.commander("13 Polish Corps").grade is Grade.POOR
    assert setup.commander("13 Polish Corps").nation == "Polish"
    reserve = setup.commander("Second French Army reserve")
    assert (reserve.role, reserve.grade) == (Role.RESERVE, Grade.AVERAGE)
    blind = setup.corps_of("Second French Army reserve")
    assert blind.reserve and blind.brigades == () and blind.commander == reserve.key
    assert blind.blind == "Blind F5"
    assert [c.blind for c in setup.side_corps(ALLIED)] == [f"Blind A{n}" for n in range(1, 6)]
    assert setup.commander("I Prussian Corps").grade is Grade.GIFTED  # the demo's grades
    assert setup.commander("IV Prussian Corps").grade is Grade.POOR


def test_brigades_march_cavalry_first_then_infantry_then_the_guns(shipped):
    """The seed's order of battle of 4 French Corps: 13 CA FB SA, 14 CB FB SA, 15 CB FC SB,
    16 CC FC SB, 11 Cavalry Brigade CA Light, Corps Artillery CB 12 pounder."""
    setup = battle_setup(*helmstedt(shipped), 1)
    rows = [(b.name, b.arm, b.rating, b.firepower, b.skirmish)
            for b in setup.corps_brigades("4 Corps")]
    assert rows[1:5] == [
        ("13 Infantry Brigade", Arm.INFANTRY, Rating.A, Rating.B, Rating.A),
        ("14 Infantry Brigade", Arm.INFANTRY, Rating.B, Rating.B, Rating.A),
        ("15 Infantry Brigade", Arm.INFANTRY, Rating.B, Rating.C, Rating.B),
        ("16 Infantry Brigade", Arm.INFANTRY, Rating.C, Rating.C, Rating.B),
    ]
    cavalry, guns = setup.corps_brigades("4 Corps")[0], setup.corps_brigades("4 Corps")[-1]
    assert (cavalry.key, cavalry.name, cavalry.arm, cavalry.rating, cavalry.cavalry,
            cavalry.number) == ("4 Corps/11 cavalry", "11 Cavalry Brigade", Arm.CAVALRY,
                                Rating.A, CavalryWeight.LIGHT, 11)
    assert (guns.key, guns.name, guns.arm, guns.rating, guns.calibre, guns.horse) == \
        ("4 Corps/artillery", "4 Corps Artillery", Arm.ARTILLERY, Rating.B, 12, False)
    assert [b.key for b in setup.corps_brigades("4 Corps")[1:5]] == \
        ["4 Corps/13", "4 Corps/14", "4 Corps/15", "4 Corps/16"]
    assert {b.nation for b in setup.corps_brigades("13 Polish Corps")} == {"Polish"}


def test_a_cavalry_brigade_numbered_like_an_infantry_one_keeps_its_own_key(shipped):
    """I Prussian Corps has 1 Infantry Brigade and 1 Cavalry Brigade (numbers counted apart);
    II Prussian Corps' cavalry are lancers with a 6-pounder battery."""
    setup = battle_setup(*helmstedt(shipped), 1)
    assert setup.corps_of("I Prussian Corps").brigades[:2] == \
        ("I Prussian Corps/1 cavalry", "I Prussian Corps/1")
    uhlans = setup.brigade("II Prussian Corps/2 cavalry")
    assert (uhlans.lancers, uhlans.cavalry) == (True, CavalryWeight.LIGHT)
    assert setup.brigade("II Prussian Corps/artillery").calibre == 6


# -- casualties ----------------------------------------------------------------------------
def test_forced_march_casualties_land_on_the_infantry_brigades(tmp_path):
    """Two days' forced march from Aston: one casualty a day on each infantry brigade, so 1
    Corps comes to Fenwick with 2 on brigades 1–4 and none on its cavalry or battery."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Attack", "Fenwick", forced=True)
    u.end_day()
    u.end_day()
    setup = battle_setup(u.ground(), u.state(), 1)
    assert [(b.name, b.casualties) for b in setup.corps_brigades("1 Corps")] == [
        ("5 Cavalry Brigade", 0), ("1 Infantry Brigade", 2), ("2 Infantry Brigade", 2),
        ("3 Infantry Brigade", 2), ("4 Infantry Brigade", 2), ("1 Corps Artillery", 0)]
    assert all(b.casualties == 0 for b in setup.corps_brigades("I Corps"))


def test_casualties_carried_forward_name_cavalry_and_guns_and_refuse_a_stranger(shipped):
    ground, state = helmstedt(shipped)
    state.update("I Prussian Corps", casualties=(("1", 2), ("cavalry", 1), ("artillery", 3)))
    setup = battle_setup(ground, state, 1)
    assert setup.brigade("I Prussian Corps/1").casualties == 2
    assert setup.brigade("I Prussian Corps/1 cavalry").casualties == 1
    assert setup.brigade("I Prussian Corps/artillery").casualties == 3
    state.update("4 Corps", casualties=(("11", 1),))  # 4 Corps' cavalry is 11 Cavalry Brigade
    assert battle_setup(ground, state, 1).brigade("4 Corps/11 cavalry").casualties == 1
    state.update("4 Corps", casualties=(("99", 1),))
    with pytest.raises(OrderRefused) as err:
        battle_setup(ground, state, 1)
    assert str(err.value) == ("the battle of Helmstedt (2 May 1813): 4 Corps brings casualties "
                              "on brigade '99', which is not in its order of battle")


# -- orders ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("verb", "written"), [
    (Verb.ATTACK, CorpsOrder.ATTACK), (Verb.MOVE, CorpsOrder.MOVE), (Verb.HOLD, CorpsOrder.HOLD),
    (Verb.HALT, CorpsOrder.HALT), (Verb.REST, CorpsOrder.HOLD), (Verb.RECCE, CorpsOrder.HOLD)])
def test_a_corps_campaign_order_is_its_written_battle_order(shipped, verb, written):
    ground, state = helmstedt(shipped)
    state.orders["5 Corps"] = Order("5 Corps", verb, "Magdeburg", DAY, DAY)
    setup = battle_setup(ground, state, 1)
    assert setup.corps_of("5 Corps").orders is written
    assert {c.objective for c in setup.corps} == {"Helmstedt"}


def test_without_an_order_of_the_day_a_corps_holds_whoever_attacked(shipped):
    """Seed 000, Rule 4 and the campaign's orders: a command with no order of the day stands
    where it is, so its written order is Hold, on the attacking side too; the written orders
    come from the day's orders, never from the battle's attacker."""
    setup = battle_setup(*helmstedt(shipped, attacker=Side.ALLIED), 1)
    assert {c.orders for c in setup.corps} == {CorpsOrder.HOLD}
    ground, state = helmstedt(shipped, attacker=Side.ALLIED)
    state.orders["I Prussian Corps"] = Order("I Prussian Corps", Verb.MOVE, "Helmstedt", DAY,
                                             DAY)
    written = {c.key: c.orders for c in battle_setup(ground, state, 1).side_corps(ALLIED)}
    assert written["I Prussian Corps"] is CorpsOrder.MOVE
    assert written["II Prussian Corps"] is CorpsOrder.HOLD


# -- entry edges ---------------------------------------------------------------------------
def _town(name: str, lat: float, lon: float, **kw) -> Town:
    return Town(name, lat, lon, Theatre.NORTHERN_GERMANY, kw.pop("kind", TownKind.TOWN),
                kw.pop("built_up", False), **kw)


def compass(centre: Town | None = None, roads: tuple[Road, ...] | None = None,
            rivers: tuple[River, ...] = (), **settings) -> Scenario:
    """Mid at 52° N 1° E with a town each way: East (52, 2), West (52, 0), North (53, 1),
    SouthEast (51.5, 1.5), and Far (52, 3) beyond East."""
    towns = (centre or _town("Mid", 52.0, 1.0), _town("East", 52.0, 2.0),
             _town("West", 52.0, 0.0), _town("North", 53.0, 1.0),
             _town("SouthEast", 51.5, 1.5), _town("Far", 52.0, 3.0))
    if roads is None:
        roads = (road("Mid", "East", 45), road("Mid", "West", 45), road("Mid", "North", 70),
                 road("Mid", "SouthEast", 40, RoadClass.MINOR), road("East", "Far", 45))
    scen = scenario([], [], [army("Armée", Side.FRENCH, "West", {"1 Corps": "Mid"}),
                             army("Allies", Side.ALLIED, "Far",
                                  {"I Corps": "East", "II Corps": "Far", "III Corps": "North"})],
                    **settings)
    return replace(scen, map=MapData(towns, roads, rivers))


def test_the_bearings_of_the_compass_towns_worked_by_hand():
    """Initial great-circle bearing θ = atan2(sin Δλ cos φ2, cos φ1 sin φ2 − sin φ1 cos φ2 cos Δλ).
    Mid (52° N, 1° E) to East (52° N, 2° E): sin 1° cos 52° = 0.017452 × 0.615661 = 0.010745;
    cos 52° sin 52° (1 − cos 1°) = 0.615661 × 0.788011 × 0.000152 = 0.0000739; θ = atan2(0.010745,
    0.0000739) = 89.61°, a shade north of east (the great circle bows north). West is its
    mirror, 270.39°; North is 0°. SouthEast (51.5° N, 1.5° E): sin 0.5° cos 51.5° = 0.005432;
    cos 52° sin 51.5° − sin 52° cos 51.5° cos 0.5° = 0.481825 − 0.490540 = −0.008715;
    θ = 180° − atan(0.005432 / 0.008715) = 180° − 31.9° = 148.0°."""
    assert initial_bearing(52, 1, 52, 2) == pytest.approx(89.61, abs=0.01)
    assert initial_bearing(52, 1, 52, 0) == pytest.approx(270.39, abs=0.01)
    assert initial_bearing(52, 1, 53, 1) == pytest.approx(0.0, abs=1e-9)
    assert initial_bearing(52, 1, 51.5, 1.5) == pytest.approx(148.0, abs=0.1)
    assert [square_of_bearing(b) for b in (0, 45, 89.61, 135, 148.0, 180, 225, 270.39, 315)] \
        == [(0, 1), (0, 2), (1, 2), (2, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0)]


def test_a_corps_on_the_road_east_of_the_town_enters_from_the_east_edge():
    """I Corps 6 miles out of Mid on the road to East: bearing 89.61° (worked above), so
    Edge.of_bearing gives the east edge; it marched, so it comes on in column of march.
    1 Corps stands in Mid: on the table, no edge, not in column."""
    scen = compass()
    battle = Battle(1, DAY, "Mid", ("1 Corps",), ("I Corps",))
    state = with_battle(scen, battle, {"1 Corps": Position("Mid"),
                                       "I Corps": Position("East", "Mid", 39.0)})
    state.update("I Corps", marched=6.0)
    setup = battle_setup(Ground(scen), state, 1)
    i_corps, first = setup.corps_of("I Corps"), setup.corps_of("1 Corps")
    assert (i_corps.edge, i_corps.column_of_march, i_corps.turn) == (Edge.EAST, True, 1)
    assert (first.edge, first.column_of_march, first.turn) == (None, False, 1)


def test_a_corps_in_contact_from_another_town_enters_by_the_road_it_comes_on():
    """III Corps stands at North, 70 miles up the road (contact at distance): bearing 0°, the
    north edge; it did not march and has no marching order, so it enters deployed. II Corps at
    Far comes by East (the last town of its road), from the east edge, its Move in hand."""
    scen = compass()
    battle = Battle(1, DAY, "Mid", ("1 Corps",), ("II Corps", "III Corps"))
    state = with_battle(scen, battle, {"1 Corps": Position("Mid"), "II Corps": Position("Far"),
                                       "III Corps": Position("North")})
    state.orders["II Corps"] = Order("II Corps", Verb.MOVE, "Mid", DAY, DAY, route=("East",))
    setup = battle_setup(Ground(scen), state, 1)
    assert (setup.corps_of("III Corps").edge, setup.corps_of("III Corps").column_of_march) == \
        (Edge.NORTH, False)
    assert (setup.corps_of("II Corps").edge, setup.corps_of("II Corps").column_of_march) == \
        (Edge.EAST, True)
    assert setup.corps_of("II Corps").orders is CorpsOrder.MOVE


def test_reinforcements_come_on_at_turn_four_from_their_edge():
    """II Corps marches to the sound of the guns from Far (by East): turn 4, east edge, in
    column; the Allied HQ with it brings its reserve blind the same way."""
    scen = compass()
    battle = Battle(1, DAY, "Mid", ("1 Corps",), ("I Corps",),
                    allied_reinforcements=("Allies HQ", "II Corps"))
    state = with_battle(scen, battle, {"1 Corps": Position("Mid"), "I Corps": Position("East")})
    setup = battle_setup(Ground(scen), state, 1)
    for key in ("II Corps", "Allies reserve"):
        corps = setup.corps_of(key)
        assert (corps.turn, corps.edge, corps.column_of_march) == \
            (REINFORCEMENT_TURN, Edge.EAST, True)
    assert setup.corps_of("I Corps").turn == 1
    assert [c.commander for c in setup.chips if c.side == ALLIED] == \
        ["Allies HQ", "I Corps", "II Corps", "Allies reserve"]


# -- the table -----------------------------------------------------------------------------
def test_the_centre_square_holds_the_town_and_roads_run_to_their_squares():
    """Mid is a built-up fortress town on the Elbe: the centre square (1, 1) holds both, and
    the road to East (89.6°) is drawn in (1, 2), West (270.4°) in (1, 0), North (0°) in
    (0, 1) and SouthEast (148.0°, a minor road) in the corner (2, 2)."""
    mid = _town("Mid", 52.0, 1.0, kind=TownKind.FORTRESS, built_up=True, fortress=True,
                river="Elbe")
    table = battle_setup(*_compass_battle(compass(mid)), 1).table
    squares = {(s.row, s.col): s.terrain for s in table.squares}
    assert len(squares) == 9 and (table.feet, table.square_feet) == (6, 2)
    assert (table.town, table.kind, table.built_up, table.fortress, table.river) == \
        ("Mid", "fortress", True, True, "Elbe")
    assert squares[(1, 1)][:3] == ("built-up area", "fortress", "river Elbe")
    assert squares[(1, 2)] == ("road to East",)
    assert squares[(1, 0)] == ("road to West",)
    assert squares[(0, 1)] == ("road to North",)
    assert squares[(2, 2)] == ("road to SouthEast",)
    assert squares[(0, 0)] == squares[(0, 2)] == squares[(2, 0)] == squares[(2, 1)] == ()
    assert [(r.to, r.bearing, r.edge, r.road_class) for r in table.roads] == [
        ("North", 0.0, Edge.NORTH, "main"), ("East", 89.6, Edge.EAST, "main"),
        ("SouthEast", 148.0, Edge.SOUTH, "minor"), ("West", 270.4, Edge.WEST, "main")]


def test_a_plain_village_has_an_open_centre():
    scen = compass(_town("Mid", 52.0, 1.0, kind=TownKind.VILLAGE))
    table = battle_setup(*_compass_battle(scen), 1).table
    centre = next(s for s in table.squares if (s.row, s.col) == (1, 1))
    assert not table.built_up and table.kind == "village" and table.river is None
    assert "built-up area" not in centre.terrain and "fortress" not in centre.terrain


def test_crossings_near_the_town_are_marked_on_their_roads_squares():
    """Mid stands on the Elbe and its road to West bridges it there: the centre square. The
    Aller runs north–south at 1.02° E, 0.02° × cos 52° × 69.09 = 0.85 miles east of Mid: the
    road to East's bridge is on the table, in (1, 2). The Ohre ford on the 4-mile road to North
    has no course on this map, so it is taken at the road's middle, 2 miles out: on the table.
    The Ohre ford on the 40-mile road to SouthEast (middle: 20 miles) is off the table."""
    mid = _town("Mid", 52.0, 1.0, river="Elbe")
    roads = (Road("Mid", "East", 45, RoadClass.MAIN, "Aller", Crossing.BRIDGE),
             Road("Mid", "West", 45, RoadClass.MAIN, "Elbe", Crossing.BRIDGE),
             Road("Mid", "North", 4, RoadClass.MINOR, "Ohre", Crossing.FORD),
             Road("Mid", "SouthEast", 40, RoadClass.TRACK, "Ohre", Crossing.FORD),
             road("East", "Far", 45))
    aller = River("Aller", ((52.5, 1.02), (51.5, 1.02)))
    table = battle_setup(*_compass_battle(compass(mid, roads, (aller,))), 1).table
    squares = {(s.row, s.col): s.terrain for s in table.squares}
    assert "Elbe bridge on the road to West" in squares[(1, 1)]
    assert squares[(1, 0)] == ("road to West",)
    assert squares[(1, 2)] == ("road to East", "river Aller", "Aller bridge on the road to East")
    assert squares[(0, 1)] == ("road to North", "river Ohre", "Ohre ford on the road to North")
    assert squares[(2, 2)] == ("road to SouthEast",)
    by_town = {r.to: (r.river, r.crossing) for r in table.roads}
    assert by_town == {"East": ("Aller", "bridge"), "West": ("Elbe", "bridge"),
                       "North": ("Ohre", "ford"), "SouthEast": (None, None)}


def test_a_road_crossing_far_out_leaves_the_table_dry():
    """The Aller at 1.5° E meets the road to East 21 miles out: not on the table."""
    roads = (Road("Mid", "East", 45, RoadClass.MAIN, "Aller", Crossing.FERRY),
             road("East", "Far", 45))
    aller = River("Aller", ((52.5, 1.5), (51.5, 1.5)))
    table = battle_setup(*_compass_battle(compass(roads=roads, rivers=(aller,))), 1).table
    assert table.river is None
    assert table.roads[0].river is None
    assert all("river Aller" not in s.terrain for s in table.squares)


def _compass_battle(scen: Scenario, **battle_fields) -> tuple[Ground, DayState]:
    battle = Battle(1, DAY, "Mid", ("1 Corps",), ("I Corps",), **battle_fields)
    return Ground(scen), with_battle(scen, battle, {"1 Corps": Position("Mid"),
                                                    "I Corps": Position("East")})


# -- seed, turns, refusals -----------------------------------------------------------------------
def test_seed_turns_and_casualty_setting_come_from_the_battle_and_the_campaign():
    """No seed given: the battle's date then its number (2 May 1813, battle 1: 18130502001).
    Turns and carrying casualties follow the scenario, then the campaign's own changes."""
    ground, state = _compass_battle(compass(battle_turns=10))
    setup = battle_setup(ground, state, 1)
    assert (setup.seed, setup.ruleset, setup.turns, setup.carry_casualties) == \
        (18130502001, "1813", 10, False)
    assert setup.title == "the battle of Mid (2 May 1813)" and setup.date == "1813-05-02"
    state.settings = {"battle_turns": 8, "carry_casualties_forward": True}
    again = battle_setup(ground, state, 1, seed=7)
    assert (again.seed, again.turns, again.carry_casualties) == (7, 8, True)
    assert battle_setup(ground, state, 1) == battle_setup(ground, state, 1)


def test_a_battle_that_cannot_be_set_up_is_refused_by_name():
    ground, state = _compass_battle(compass())
    with pytest.raises(OrderRefused, match="^there is no battle number 9$"):
        battle_setup(ground, state, 9)
    state.battles[1] = replace(state.battles[1], result="French")
    with pytest.raises(OrderRefused) as err:
        battle_setup(ground, state, 1)
    assert str(err.value) == ("the battle of Mid (2 May 1813) has been fought already "
                              "(French); it cannot be set up again")
    state.battles[1] = replace(state.battles[1], result=None, date=date(1813, 5, 4))
    with pytest.raises(OrderRefused) as err:
        battle_setup(ground, state, 1)
    assert str(err.value) == ("the battle of Mid (4 May 1813) is postponed; it cannot be set "
                              "up before its day")


def test_settings_default_to_twelve_turns():
    """Seed 000: twelve moves make a battle day."""
    assert Settings().battle_turns == 12
    assert battle_setup(*_compass_battle(compass()), 1).turns == 12
