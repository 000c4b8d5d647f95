"""Ten scripted days of the Magdeburg campaign on the shipped map (1-10 May 1813), and what
seed 000's campaign rules make of them: the winner of a battle rests the next day and the loser
retreats, so neither marches to the sound of the guns that day (DESIGN §3.3 steps 4 and 6);
the written orders on the table are the orders of the day (§4.1); a CinC marching to the guns
comes on at turn 4 at the edge he comes from, as his corps would.

The script, worked out on the shipped map (15 miles a day on foot, 30 for an HQ, contact and
reinforcement at 10 miles):
- 1 May: I and II Prussian Corps attack Magdeburg from Berlin and Potsdam (99 and 79.5 miles),
  Blücher's HQ moves to Burg (16.5 miles short of Magdeburg), 5 Corps holds Magdeburg,
  13 Polish Corps moves there from Brunswick (55.5 miles), 6 Corps moves to Helmstedt, and
  III Prussian Corps moves to Genthin.
- 5 May: II Prussian Corps is halted 6.5 miles out of Burg (10 from Magdeburg) by 5 Corps and
  13 Polish Corps: battle 1 at Magdeburg; the HQ at Burg, 6.5 miles off, marches to the guns.
  The French win.
- 6 May: II Prussian Corps and the HQ retreat (to Burg and Brandenburg); 5 Corps and 13 Polish
  Corps rest at Magdeburg; I Prussian Corps comes up to where II Prussian Corps stood: battle 2
  at Magdeburg. II Prussian Corps at Burg is 6.5 miles from I Prussian Corps, within
  reinforcement distance, but it is retreating. The Allies win.
- 7 May: 5 Corps retreats to Schönebeck (10 miles from Magdeburg) and 13 Polish Corps to
  Wolmirstedt; I Prussian Corps rests; 6 Corps (from Helmstedt) and II Prussian Corps (from
  Burg) both attack Magdeburg and meet 5 miles either side of it: battle 3. 5 Corps (10 miles
  from Magdeburg) and I Prussian Corps (5 miles from II Prussian Corps) are near enough, but
  one retreats and the other rests. The French win.
- 8 May: II Prussian Corps retreats to Burg again; 6 Corps rests.
- 9 May: III Prussian Corps attacks 6 Corps: battle 4; now 5 Corps and I Prussian Corps, ready
  again, do march to the guns. The Allies win; on 10 May 5 Corps retreats to Barby and 6 Corps
  to Helmstedt.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import date

import pytest
from msgspec.structs import replace

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.setup import REINFORCEMENT_TURN, BattleSetup, Edge
from campaign1813.campaign.battle.terms import CorpsOrder
from campaign1813.campaign.day.aftermath import retreat_destinations
from campaign1813.campaign.day.battles import (
    intends_to_fight,
    may_march_to_the_guns,
    postpone,
    reinforcements,
)
from campaign1813.campaign.day.cycle import advance_day
from campaign1813.campaign.day.fight_setup import battle_setup, order_on_table
from campaign1813.campaign.day.ground import Ground, OrderRefused, Position
from campaign1813.campaign.day.orders import build_order, cancel, issue
from campaign1813.campaign.day.state import (
    Battle,
    CommandState,
    DayState,
    Kind,
    Status,
    Verb,
    initial_state,
)
from campaign1813.campaign.export.setup_sheet import setup_sheet, sheet_json
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.services import cancel_order
from campaign1813.campaign.store.document import open_campaign

from .builders import army, road, scenario
from .test_scenarios import battle_setup as fenwick

ORDERS = {
    1: [("II Prussian Corps", "Attack", "Magdeburg"), ("I Prussian Corps", "Attack", "Magdeburg"),
        ("Prussian Army HQ", "Move", "Burg"), ("5 Corps", "Hold", "Magdeburg"),
        ("13 Polish Corps", "Move", "Magdeburg"), ("6 Corps", "Move", "Helmstedt"),
        ("III Prussian Corps", "Move", "Genthin")],
    6: [("6 Corps", "Attack", "Magdeburg")],
    7: [("II Prussian Corps", "Attack", "Magdeburg")],
    8: [("III Prussian Corps", "Attack", "Magdeburg")],
}
RETREATS = {(6, "II Prussian Corps"): "Burg", (6, "Prussian Army HQ"): "Brandenburg",
            (7, "5 Corps"): "Schönebeck", (7, "13 Polish Corps"): "Wolmirstedt",
            (8, "II Prussian Corps"): "Burg", (10, "5 Corps"): "Barby",
            (10, "6 Corps"): "Helmstedt"}
RESULTS = {1: "French", 2: "Allied", 3: "French", 4: "Allied"}


@dataclass
class Day:
    """One scripted day: the state at dawn (orders given), after the march, and the setups
    of the battles the march brought."""

    dawn: DayState
    marched: DayState
    battles: tuple[Battle, ...]
    setups: dict[int, BattleSetup]


@pytest.fixture(scope="module")
def campaign(campaign_template, tmp_path_factory) -> tuple[Ground, dict[date, Day]]:
    """The ten days played once through the services on a copy of the shipped campaign."""
    path = tmp_path_factory.mktemp("magdeburg") / "magdeburg.c1813"
    shutil.copyfile(campaign_template, path)
    days: dict[date, Day] = {}
    with open_campaign(path) as doc:
        ground = doc.ground()
        for n in range(1, 11):
            for order in ORDERS.get(n, []):
                services.issue_order(doc, *order)
            for c in queries.campaign_status(doc).commands:
                if c.must_retreat_today:
                    services.issue_order(doc, c.name, "Move", RETREATS[n, c.name])
            dawn = queries.day_state(doc)
            assert dawn.date == date(1813, 5, n)
            report = services.end_day(doc).report
            marched = queries.day_state(doc)
            fought = tuple(marched.battles[b] for b in report.battles)
            setups = {b.id: battle_setup(ground, marched, b.id) for b in fought}
            days[dawn.date] = Day(dawn, marched, fought, setups)
            for b in fought:
                services.record_result(doc, b.id, RESULTS[b.id])
            if queries.day_state(doc).marched:
                services.end_day(doc)
        assert queries.day_state(doc).date == date(1813, 5, 11)
    return ground, days


def _barred_at_dawn(day: Day) -> set[str]:
    """The commands resting or retreating (or otherwise not free) on the day, at dawn."""
    return {c.name for c in day.dawn.ordered() if not may_march_to_the_guns(c)}


def test_the_script_fights_four_battles_at_magdeburg(campaign):
    """The ten days as worked out above: battles on 5, 6, 7 and 9 May, all at Magdeburg."""
    _ground, days = campaign
    fought = [(b.date.day, b.id, b.french, b.allied) for d in days.values() for b in d.battles]
    assert fought == [
        (5, 1, ("5 Corps", "13 Polish Corps"), ("II Prussian Corps",)),
        (6, 2, ("5 Corps", "13 Polish Corps"), ("I Prussian Corps",)),
        (7, 3, ("6 Corps",), ("II Prussian Corps",)),
        (9, 4, ("6 Corps",), ("III Prussian Corps",)),
    ]
    assert all(b.place == "Magdeburg" for d in days.values() for b in d.battles)


def test_on_no_day_of_the_ten_is_a_resting_or_retreating_command_a_reinforcement(campaign):
    """Seed 000's campaign: the winner spends the next day resting, the loser the next day
    retreating; DESIGN §3.3 step 4: only free friends march to the sound of the guns. On
    every one of the ten days, no command resting, retreating, cut off or in battle at dawn
    is listed to march to any battle of that day."""
    ground, days = campaign
    near_but_barred = []
    for day in days.values():
        barred = _barred_at_dawn(day)
        for b in day.battles:
            coming = set(b.french_reinforcements) | set(b.allied_reinforcements)
            assert not coming & barred, (day.dawn.date, b.id, coming & barred)
            # the rule is tried: barred commands stood within reinforcement distance
            for name in sorted(barred - set(b.everyone())):
                here = day.marched.commands[name].position
                sources = [Position(b.place)] + [day.marched.commands[n].position
                                                 for n in b.side(day.marched.commands[name].side)]
                if min(ground.distance(here, s) for s in sources) <= 10.0:
                    near_but_barred.append((day.dawn.date.day, b.id, name))
    assert near_but_barred == [(6, 2, "II Prussian Corps"), (7, 3, "5 Corps"),
                               (7, 3, "I Prussian Corps")]


def test_ready_commands_still_march_to_the_guns(campaign):
    """DESIGN §3.3 step 4: friends within 10 miles march to the guns, on the table at turn 4.
    Battle 1 (5 May): Blücher's HQ at Burg, 6.5 miles from II Prussian Corps. Battle 4 (9 May):
    5 Corps at Schönebeck (10 miles from Magdeburg) and I Prussian Corps, 5 miles behind III
    Prussian Corps on the Burg road, their rest and retreat over."""
    _ground, days = campaign
    first = days[date(1813, 5, 5)].battles[0]
    assert (first.french_reinforcements, first.allied_reinforcements) == (
        (), ("Prussian Army HQ",))
    fourth = days[date(1813, 5, 9)].battles[0]
    assert (fourth.french_reinforcements, fourth.allied_reinforcements) == (
        ("5 Corps",), ("I Prussian Corps",))
    assert {n: days[date(1813, 5, 9)].dawn.commands[n].status
            for n in ("5 Corps", "I Prussian Corps")} == {
        "5 Corps": Status.READY, "I Prussian Corps": Status.READY}


def test_ii_prussian_corps_retreating_to_burg_is_not_listed_for_the_second_battle(campaign):
    """The case as found: II Prussian Corps lost at Magdeburg on 5 May and retreated to Burg on
    6 May, 6.5 miles from I Prussian Corps, which fought the second battle of Magdeburg that
    day. Retreating, it is not listed; had it been ready, it would have been."""
    ground, days = campaign
    day = days[date(1813, 5, 6)]
    battle = day.battles[0]
    ii = day.marched.commands["II Prussian Corps"]
    assert (ii.position, ii.status, ii.status_date) == (Position("Burg"), Status.RETREATING,
                                                        date(1813, 5, 6))
    assert ground.distance(ii.position, day.marched.commands["I Prussian Corps"].position) \
        == pytest.approx(6.5)
    assert reinforcements(ground, day.marched, battle)[1] == ()
    ready = replace_state(day.marched)
    ready.update("II Prussian Corps", status=Status.READY, status_date=None, battle=None)
    assert reinforcements(ground, ready, battle)[1] == ("II Prussian Corps",)


@pytest.mark.parametrize(("status", "free"), [
    (Status.READY, True), (Status.RESTING, False), (Status.RETREATING, False),
    (Status.IN_BATTLE, False), (Status.CUT_OFF, False), (Status.SURRENDERED, False)])
def test_only_a_ready_command_may_march_to_the_guns(status, free):
    """Seed 000's campaign and DESIGN §3.3: resting (winner), retreating (loser), cut off, in
    battle or surrendered: none marches to the sound of the guns."""
    c = CommandState("1 Corps", 0, Side.FRENCH, "Armée", Kind.CORPS, False, Position("Aston"),
                     status=status)
    assert may_march_to_the_guns(c) is free


def test_the_written_orders_on_the_table_are_the_orders_of_the_day(campaign):
    """DESIGN §4.1 and seed 000, Rule 4: each corps' written battle order is its campaign order
    of the day, by the documented table (Attack → Attack, Move → Move, Hold → Hold, Halt →
    Halt, Recce and Rest → Hold; no order → Hold), never the battle's attacker's. So 5 Corps
    holds at Magdeburg on 5 May while II Prussian Corps attacks; 13 Polish Corps, whose march
    to Magdeburg ended on 4 May, has no order and holds; the reserve takes its HQ's order. On
    9 May 6 Corps, its Attack spent in battle 3 and its rest day over, and 5 Corps, its retreat
    to Schönebeck done, have no order of the day: both hold."""
    _ground, days = campaign
    seen = {}
    for day in days.values():
        for b in day.battles:
            setup = day.setups[b.id]
            for corps in setup.corps:
                command = corps.key.removesuffix(" reserve") + " HQ" if corps.reserve \
                    else corps.key
                order = day.dawn.orders.get(command)
                assert corps.orders is order_on_table(None if order is None else order.verb)
                seen[(b.id, corps.key)] = corps.orders.value
    assert seen == {
        (1, "5 Corps"): "Hold", (1, "13 Polish Corps"): "Hold",
        (1, "II Prussian Corps"): "Attack", (1, "Prussian Army reserve"): "Hold",
        (2, "5 Corps"): "Hold", (2, "13 Polish Corps"): "Hold", (2, "I Prussian Corps"): "Attack",
        (3, "6 Corps"): "Attack", (3, "II Prussian Corps"): "Attack",
        (4, "6 Corps"): "Hold", (4, "5 Corps"): "Hold", (4, "III Prussian Corps"): "Attack",
        (4, "I Prussian Corps"): "Hold",
    }


def test_a_command_in_battle_keeps_its_order_without_its_road_until_the_result(campaign):
    """DESIGN §3.3 step 4: a command in battle marches no farther. Its order of the day stays
    (for the battle's written orders) with no road left to march; once the result is in, the
    winner rests and the loser retreats, and the order is gone."""
    _ground, days = campaign
    day = days[date(1813, 5, 5)]
    order = day.marched.orders["II Prussian Corps"]
    assert (order.verb, order.objective, order.route) == (Verb.ATTACK, "Magdeburg", ())
    assert day.dawn.orders["II Prussian Corps"].route == ("Burg", "Magdeburg")
    after = days[date(1813, 5, 6)].dawn
    assert "5 Corps" not in after.orders and "13 Polish Corps" not in after.orders
    assert after.orders["II Prussian Corps"].objective == "Burg"   # its retreat, given at dawn


def test_a_cinc_marching_to_the_guns_arrives_on_turn_4_at_his_edge(campaign):
    """DESIGN §4.1: reinforcements marching to the sound of the guns come on at turn 4 at the
    edge they come from. Blücher's HQ at Burg marches to battle 1: he, like his reserve, comes
    on at turn 4 by the edge of the Burg road. Magdeburg 52.1205° N 11.6276° E, Burg 52.2725° N
    11.8550° E: the initial bearing is 42.4°, under 45°, so the north edge."""
    _ground, days = campaign
    setup = days[date(1813, 5, 5)].setups[1]
    blucher = setup.commander("Prussian Army HQ")
    reserve = setup.corps_of("Prussian Army reserve")
    burg = next(r for r in setup.table.roads if r.to == "Burg")
    assert burg.bearing == pytest.approx(42.4, abs=0.05) and burg.edge is Edge.NORTH
    assert (blucher.name, blucher.turn, blucher.edge) == (
        "General Blücher", REINFORCEMENT_TURN, Edge.NORTH)
    assert (reserve.turn, reserve.edge) == (blucher.turn, blucher.edge)
    lauriston = setup.commander("5 Corps")
    assert (lauriston.turn, lauriston.edge) == (1, None)
    # the setup sheet says so beside his chip; the others' chips carry no such word
    sheet = setup_sheet(setup)
    chips = {c.command: c.meaning for c in sheet.chips if not c.special}
    assert chips == {"5 Corps": None, "13 Polish Corps": None,
                     "Prussian Army HQ": "arrives on turn 4 by the north edge",
                     "II Prussian Corps": None, "Prussian Army reserve": None}
    assert sheet_json(sheet)["chips"][2]["meaning"] == "arrives on turn 4 by the north edge"


def test_the_order_of_a_command_in_a_postponed_battle_stands_and_it_does_not_march(campaign):
    """A battle put off to a later day: its commands wait where they stand (DESIGN §3.3 step
    4), their orders stand for the table and cannot be cancelled meanwhile."""
    ground, days = campaign
    state = replace_state(days[date(1813, 5, 5)].marched)
    postpone(state, 1, 1, "rain")
    where = state.commands["II Prussian Corps"].position
    report = advance_day(ground, state)  # closes 5 May: the battle is on 6 May now
    assert report.closed
    with pytest.raises(OrderRefused, match="II Prussian Corps is in the battle of Magdeburg"):
        cancel(state, "II Prussian Corps")
    advance_day(ground, state)
    assert state.commands["II Prussian Corps"].position == where
    assert state.orders["II Prussian Corps"].verb is Verb.ATTACK
    setup = battle_setup(ground, state, 1)
    assert setup.corps_of("II Prussian Corps").orders is CorpsOrder.ATTACK


def replace_state(state: DayState) -> DayState:
    """A copy of a day's state to change without touching the recorded one."""
    return replace(state, commands=dict(state.commands), orders=dict(state.orders),
                   pending=dict(state.pending), battles=dict(state.battles),
                   control=dict(state.control), control_since=dict(state.control_since),
                   settings=dict(state.settings))


def _retreat_past_an_enemy() -> tuple[Ground, DayState]:
    """Westhall –100– Aston –10– Brook –20– Carden –10– Dale –100– Easthall. On 4 May 1 Corps,
    beaten at Brook on 3 May by I Corps (now at Aston), retreats towards Carden; II Corps
    stands on that road 15 miles out of Brook (it came from Dale, which the Allies hold).
    Both HQs are 100 miles off."""
    towns = ["Westhall", "Aston", "Brook", "Carden", "Dale", "Easthall"]
    roads = [road("Westhall", "Aston", 100), road("Aston", "Brook", 10),
             road("Brook", "Carden", 20), road("Carden", "Dale", 10),
             road("Dale", "Easthall", 100)]
    scen = scenario(towns, roads, [army("Armée", Side.FRENCH, "Easthall", {"1 Corps": "Brook"}),
                                   army("Allies", Side.ALLIED, "Westhall",
                                        {"I Corps": "Aston", "II Corps": "Dale"})])
    ground = Ground(scen)
    day = date(1813, 5, 4)
    state = initial_state(scen, day)
    state.update("II Corps", position=Position("Brook", "Carden", 15.0))
    state.battles[1] = Battle(1, date(1813, 5, 3), "Brook", ("1 Corps",), ("I Corps",),
                              result="Allied")
    state.next_battle = 2
    state.update("1 Corps", status=Status.RETREATING, status_date=day, battle=1)
    state.update("I Corps", status=Status.RESTING, status_date=day, battle=1)
    state.take("Brook", Side.ALLIED)
    return ground, state


def test_a_retreat_that_meets_an_enemy_on_its_road_is_no_attack():
    """Seed 000's campaign: the loser spends the next day retreating. 1 Corps' retreat to
    Carden (20 miles; the day's 15 end 25 from I Corps, clear of contact) is legal, but
    II Corps stands on that road: at 1 Corps' fifth mile the two are 10 miles apart, in
    contact, and both halt. A retreat seeks no fight and II Corps has no orders: they stand
    off, where a Move through the enemy would have been an attack."""
    ground, state = _retreat_past_an_enemy()
    assert sorted(retreat_destinations(ground, state, "1 Corps")) == ["Carden"]
    issue(state, build_order(ground, state, "1 Corps", "Move", "Carden"))
    assert intends_to_fight(ground, state, "1 Corps", "II Corps") is False
    report = advance_day(ground, state)
    assert report.battles == () and report.closed
    assert state.commands["1 Corps"].position == Position("Brook", "Carden", 5.0)
    assert "1 Corps and II Corps stand off, 10 miles apart." in report.lines
    # the same march by a command that is not retreating is an attack on II Corps
    ground, ready = _retreat_past_an_enemy()
    ready.update("1 Corps", status=Status.READY, status_date=None, battle=None)
    issue(ready, build_order(ground, ready, "1 Corps", "Move", "Carden"))
    assert intends_to_fight(ground, ready, "1 Corps", "II Corps") is True


def test_orders_that_break_a_rest_or_retreat_day_are_refused_with_the_reason(tmp_path):
    """DESIGN §3.3 step 6: orders that break a rest or a retreat day are refused, with the
    reason, and change nothing. The French win at Fenwick on 3 May (tests/day/test_scenarios):
    on 4 May 1 Corps rests at Elford, I Corps must retreat to Gorton or Hexham."""
    u = fenwick(tmp_path)
    u.end_day()
    u.result(1, "French")
    u.end_day()
    before = u.dump()

    def refused(*args, **kw):
        with pytest.raises(OrderRefused) as err:
            u.order(*args, **kw)
        return str(err.value)

    must = "I Corps must retreat on 4 May 1813 after losing at Fenwick"
    assert refused("I Corps", "Hold", "Fenwick") == (
        f"{must}; only a Move to Gorton or Hexham is allowed")
    assert refused("I Corps", "Attack", "Elford") == (
        f"{must}; only a Move to Gorton or Hexham is allowed")
    assert refused("I Corps", "Move", "Gorton", forced=True) == (
        "I Corps cannot force-march on its retreat")
    resting = "1 Corps is resting on 4 May 1813 after winning at Fenwick"
    assert refused("1 Corps", "Attack", "Gorton") == resting
    assert refused("1 Corps", "Move", "Dunmore") == resting
    assert refused("1 Corps", "Hold", "Dunmore") == (
        "1 Corps cannot hold at Dunmore: it stands at Elford and is resting")
    assert refused("1 Corps", "Rest", "Elford", forced=True) == (
        "1 Corps cannot force-march on a Rest order")
    assert u.dump() == before
    u.order("I Corps", "Move", "Gorton")
    u.order("1 Corps", "Hold", "Elford")   # a resting command may hold where it stands
    ordered = u.dump()
    with pytest.raises(OrderRefused, match="I Corps must retreat today; its retreat cannot be "
                                           "cancelled"):
        cancel_order(u.doc, "I Corps")
    assert u.dump() == ordered
