"""Supply, as the campaign's author ran it: ten-day histories on the shipped Northern Germany
theatre worked by hand from his 2016 rule and its 2020 revision, and the refusals.

The numbers (his rule, DESIGN §3.5): 2016 — a corps starts with 4 days and carries 4, eats 1 a
day; the main depot starts with 6; every depot gathers 1 a day; the army holds at most 20 and
the main depot is topped up to it; a corps draws on the CinC's order if it has not moved, is
within 15 miles and out of contact; a column moves 4 days 15 miles a day; a corps with nothing
to eat loses 400 men. 2020 — 10 days a corps (4 carried, 6 in a depot at its town), nothing
gathered or topped up, a depot made by a corps halting a day in a town.
"""

from __future__ import annotations

from datetime import date, timedelta
from importlib import resources

import pytest

from campaign1813.campaign.day.aftermath import apply_result
from campaign1813.campaign.day.fight_setup import battle_setup
from campaign1813.campaign.day.ground import Ground, OrderRefused, Position
from campaign1813.campaign.day.state import Battle, DayState, Order, Status, Verb, initial_state
from campaign1813.campaign.day.supply import (
    Depot,
    SupplyOrder,
    SupplyRulesError,
    SupplyState,
    apply_attrition,
    army_total,
    give_order,
    load_rules,
    read_rules,
    start_supply,
    supply_day,
)
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.campaign.scenario.types import Side

FRENCH = "Second French Army"
CORPS = ("4 Corps", "5 Corps", "6 Corps", "13 Polish Corps")
START = date(1813, 5, 1)


@pytest.fixture(scope="module")
def ground() -> Ground:
    return Ground(load_scenario())


def _fresh(ground: Ground, version: str) -> tuple[DayState, SupplyState]:
    rules = load_rules(version)
    state = initial_state(ground.scenario, START)
    return state, start_supply(rules, ground.scenario, START)


def _order(state: DayState, kind: str, **kw) -> SupplyOrder:
    return SupplyOrder(kind, FRENCH, state.date, **kw)  # type: ignore[arg-type]


def _end(ground, state, supply, version, choices=None, contacts=()):
    """The day's supply, then the umpire's attrition choices, then the next dawn."""
    rules = load_rules(version)
    day = supply_day(rules, ground, state, supply, contacts)
    for corps, _men in day.pending:  # other armies lose theirs from their first brigade
        brigade = (choices or {}).get(corps, ground.corps[corps].infantry[0].number)
        apply_attrition(rules, ground, state, supply, corps, brigade)
    state.date += timedelta(days=1)
    for c in state.ordered():
        state.update(c.name, marched=0.0)
    return day


def _stocks(supply: SupplyState) -> tuple:
    depots = {t: d.days for t, d in supply.depots.items() if d.army == FRENCH}
    columns = {c.town: c.days for c in supply.columns.values() if c.army == FRENCH}
    return tuple(supply.corps[c] for c in CORPS), depots, columns


def test_2016_ten_days_on_northern_germany(ground):
    """2016 rule, the Second French Army (HQ and main depot at Hamburg), worked by hand.

    Start: four corps of 4 and Hamburg's 6 make 22, above the army's 20, and are kept (the
    limit only stops gathering and topping-up). Each line below is the day's end: corps days
    (4, 5, 6, 13 Polish), depots, columns.
    1 May: all eat 1 (12); Hamburg gathers 1 (7, total 19), topped up 1 to 20 (8).
    2 May: 5 Corps makes a depot at Magdeburg with 17 Brigade (0); 4 Corps draws 1 from
      Hamburg (7); all eat (3, 2, 2, 2); Magdeburg gathers 1, Hamburg 1 (8), top-up 2 (10).
    3 May: a column takes 4 days from Hamburg to Harburg, 9 miles (Hamburg 6); all eat
      (2, 1, 1, 1); Magdeburg 2, Hamburg 7, top-up 2 → 9.
    4 May: 5 Corps draws Magdeburg's 2 (it wanted 3); eat (1, 2, 0, 0); Magdeburg 1,
      Hamburg 10, top-up 2 → 12.
    5 May: 6 and 13 Polish have nothing: out of supply, 400 men each; eat (0, 1); total 18:
      Magdeburg 2, Hamburg 13 (20).
    6 May: 4 Corps draws 4 from Hamburg (9); eat (3, 0); total 18: Magdeburg 3, Hamburg 10.
    7 May: the Allied take Magdeburg: its 3 days are lost and 17 Brigade rejoins 5 Corps;
      5 Corps (marched to Wolmirstedt, its last day eaten on the 6th) is out of supply;
      4 Corps eats (2); total 16: Hamburg gathers 1 (11), top-up 3 → 14.
    8 May: 4 Corps draws 2 (12), eats (3); total 19: Hamburg 13.
    9 May: the Harburg column is brought into Hamburg (17); 4 Corps eats (2); Hamburg 18.
    10 May: 4 Corps eats (1); Hamburg 19 — the army at 20 again.
    """
    state, supply = _fresh(ground, "2016")
    rules = load_rules("2016")
    choose = {"5 Corps": 18, "6 Corps": 21, "13 Polish Corps": 1}
    expected = [
        ((3, 3, 3, 3), {"Hamburg": 8}, {}),
        ((3, 2, 2, 2), {"Hamburg": 10, "Magdeburg": 1}, {}),
        ((2, 1, 1, 1), {"Hamburg": 9, "Magdeburg": 2}, {"Harburg": 4}),
        ((1, 2, 0, 0), {"Hamburg": 12, "Magdeburg": 1}, {"Harburg": 4}),
        ((0, 1, 0, 0), {"Hamburg": 13, "Magdeburg": 2}, {"Harburg": 4}),
        ((3, 0, 0, 0), {"Hamburg": 10, "Magdeburg": 3}, {"Harburg": 4}),
        ((2, 0, 0, 0), {"Hamburg": 14}, {"Harburg": 4}),
        ((3, 0, 0, 0), {"Hamburg": 13}, {"Harburg": 4}),
        ((2, 0, 0, 0), {"Hamburg": 18}, {}),
        ((1, 0, 0, 0), {"Hamburg": 19}, {}),
    ]
    army = next(a for a in ground.scenario.armies if a.name == FRENCH)
    assert _stocks(supply) == ((4, 4, 4, 4), {"Hamburg": 6}, {})
    days = []
    for n in range(10):
        if n == 1:
            give_order(rules, ground, state, supply,
                       _order(state, "depot", corps="5 Corps", town="Magdeburg", brigade=17))
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="4 Corps", origin="Hamburg"))
        elif n == 2:
            give_order(rules, ground, state, supply,
                       _order(state, "move", origin="Hamburg", town="Harburg", days=4))
        elif n == 3:
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="5 Corps", origin="Magdeburg"))
        elif n in (5, 7):
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="4 Corps", origin="Hamburg"))
        elif n == 6:
            state.update("5 Corps", position=Position("Wolmirstedt"), marched=10.5)
            state.take("Magdeburg", Side.ALLIED)
        elif n == 8:
            give_order(rules, ground, state, supply,
                       _order(state, "move", origin="Harburg", town="Hamburg", days=4))
        days.append(_end(ground, state, supply, "2016", choose))
        assert _stocks(supply) == expected[n], f"day {n + 1}"
    assert army_total(supply, army, state) == 20
    # out of supply: 6 and 13 Polish on days 5-10 (2,400 men: 3 casualties each), 5 Corps on
    # days 7-10 (1,600 men: 2 casualties), on the brigades the umpire chose
    assert {c: m for c, m in supply.men_lost.items() if c in CORPS} == {
        "6 Corps": {21: 2400}, "13 Polish Corps": {1: 2400}, "5 Corps": {18: 1600}}
    assert dict(state.commands["6 Corps"].casualties) == {"21": 3}
    assert dict(state.commands["13 Polish Corps"].casualties) == {"1": 3}
    assert dict(state.commands["5 Corps"].casualties) == {"18": 2}
    lines = [line for d in days for line in d.lines]
    assert "The Second French Army made a depot at Magdeburg, 17 Brigade of 5 Corps left as " \
           "its garrison." in lines
    assert "6 Corps: its last day of supplies eaten." in days[3].lines
    assert "6 Corps: out of supply, 400 men lost (the umpire chooses the brigade)." \
        in days[4].lines
    assert "The Second French Army lost its depot at Magdeburg with 3 days of supplies; " \
           "17 Brigade rejoins 5 Corps." in days[6].lines
    topped = [e for e in days[0].ledger if e.reason == "topped up to the army's 20"
              and e.holder.endswith(f"({FRENCH})")]
    assert [(e.holder, e.amount, e.balance) for e in topped] == \
        [("main depot at Hamburg (Second French Army)", 1, 8)]


def test_2020_ten_days_on_northern_germany(ground):
    """2020 revision, the Second French Army, worked by hand: 10 days a corps, 4 carried and 6
    in a depot at each corps' town (Hamburg, Magdeburg, Hanover, Brunswick: 40 in all);
    nothing gathered or topped up.
    1 May: all eat (3, 3, 3, 3).  2 May: 4 and 5 Corps draw 1 (Hamburg 5, Magdeburg 5).
    3 May: 13 Polish marches Brunswick → Peine, 15 miles; eat (2, 2, 1, 1).
    4 May: 13 Polish halts at Peine out of contact: a depot (0); a column brings 4 days from
      Brunswick, 15 miles (Brunswick 2, Peine 4); eat (1, 1, 0, 0).
    5 May: 13 Polish draws 4 from Peine (0), 6 Corps 4 from Hanover (2); eat (0, 0, 3, 3).
    6 May: 4 Corps draws 4 from Hamburg (1); 5 Corps out of supply; eat (3, 0, 2, 2).
    7 May: the Allied take Magdeburg and its 5 days; 5 Corps (at Wolmirstedt) out again.
    8 May: eat (1, 0, 0, 0).  9 May: 6 Corps draws Hanover's 2 (wanted 4), eats (1);
      13 Polish out.  10 May: 4 Corps and 13 Polish out, 6 Corps eats its last.
    """
    state, supply = _fresh(ground, "2020")
    rules = load_rules("2020")
    assert _stocks(supply) == ((4, 4, 4, 4), {"Hamburg": 6, "Magdeburg": 6, "Hanover": 6,
                                              "Brunswick": 6}, {})
    choose = {"4 Corps": 13, "5 Corps": 17, "6 Corps": 21, "13 Polish Corps": 1}
    expected = [
        ((3, 3, 3, 3), {"Hamburg": 6, "Magdeburg": 6, "Hanover": 6, "Brunswick": 6}),
        ((3, 3, 2, 2), {"Hamburg": 5, "Magdeburg": 5, "Hanover": 6, "Brunswick": 6}),
        ((2, 2, 1, 1), {"Hamburg": 5, "Magdeburg": 5, "Hanover": 6, "Brunswick": 6}),
        ((1, 1, 0, 0), {"Hamburg": 5, "Magdeburg": 5, "Hanover": 6, "Brunswick": 2,
                        "Peine": 4}),
        ((0, 0, 3, 3), {"Hamburg": 5, "Magdeburg": 5, "Hanover": 2, "Brunswick": 2,
                        "Peine": 0}),
        ((3, 0, 2, 2), {"Hamburg": 1, "Magdeburg": 5, "Hanover": 2, "Brunswick": 2,
                        "Peine": 0}),
        ((2, 0, 1, 1), {"Hamburg": 1, "Hanover": 2, "Brunswick": 2, "Peine": 0}),
        ((1, 0, 0, 0), {"Hamburg": 1, "Hanover": 2, "Brunswick": 2, "Peine": 0}),
        ((0, 0, 1, 0), {"Hamburg": 1, "Hanover": 0, "Brunswick": 2, "Peine": 0}),
        ((0, 0, 0, 0), {"Hamburg": 1, "Hanover": 0, "Brunswick": 2, "Peine": 0}),
    ]
    out = []
    for n in range(10):
        if n == 1:
            for corps, town in (("4 Corps", "Hamburg"), ("5 Corps", "Magdeburg")):
                give_order(rules, ground, state, supply,
                           _order(state, "resupply", corps=corps, origin=town))
        elif n == 2:
            state.update("13 Polish Corps", position=Position("Peine"), marched=15.0)
        elif n == 3:
            give_order(rules, ground, state, supply,
                       _order(state, "depot", corps="13 Polish Corps", town="Peine"))
            give_order(rules, ground, state, supply,
                       _order(state, "move", origin="Brunswick", town="Peine", days=4))
        elif n == 4:
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="13 Polish Corps", origin="Peine"))
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="6 Corps", origin="Hanover"))
        elif n == 5:
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="4 Corps", origin="Hamburg"))
        elif n == 6:
            state.update("5 Corps", position=Position("Wolmirstedt"), marched=10.5)
            state.take("Magdeburg", Side.ALLIED)
        elif n == 8:
            give_order(rules, ground, state, supply,
                       _order(state, "resupply", corps="6 Corps", origin="Hanover"))
        day = _end(ground, state, supply, "2020", choose)
        out.append({c for c, _ in day.pending if c in CORPS})
        assert _stocks(supply) == (*expected[n], {}), f"day {n + 1}"
    assert out == [set(), set(), set(), set(), set(), {"5 Corps"}, {"5 Corps"}, {"5 Corps"},
                   {"5 Corps", "13 Polish Corps"},
                   {"4 Corps", "5 Corps", "13 Polish Corps"}]
    # 5 Corps: 5 days × 400 = 2,000 men on 17 Brigade, 2 casualties; 13 Polish 800: 1
    assert supply.men_lost["5 Corps"] == {17: 2000}
    assert dict(state.commands["5 Corps"].casualties) == {"17": 2}
    assert dict(state.commands["13 Polish Corps"].casualties) == {"1": 1}
    # 4 Corps: one day out, 400 men — short of a casualty's 800
    assert supply.men_lost["4 Corps"] == {13: 400}
    assert state.commands["4 Corps"].casualties == ()


@pytest.mark.parametrize("version", ["2016", "2020"])
def test_resupply_refusals(ground, version):
    """Both versions: a corps draws only if it does not move that day, is out of contact, is
    within 15 road miles of the depot, and has its own CinC's order."""
    state, supply = _fresh(ground, version)
    rules = load_rules(version)
    depot = "Hamburg"

    def refused(order):
        before = (list(supply.orders), dict(supply.corps), dict(supply.depots))
        with pytest.raises(OrderRefused) as err:
            give_order(rules, ground, state, supply, order)
        assert (list(supply.orders), dict(supply.corps), dict(supply.depots)) == before
        return str(err.value)

    state.orders["4 Corps"] = Order("4 Corps", Verb.MOVE, "Harburg", START, START,
                                    route=("Harburg",))
    assert refused(_order(state, "resupply", corps="4 Corps", origin=depot)) == (
        "4 Corps cannot draw from Hamburg: it moves today, and a corps draws only on a day "
        "it stands still")
    del state.orders["4 Corps"]
    # 20 miles: Harburg is 9 from Hamburg; Lauenburg 30.5 — put 4 Corps on the Lauenburg road
    # 20 miles out
    state.update("4 Corps", position=Position("Hamburg", "Lauenburg", 20.0))
    assert refused(_order(state, "resupply", corps="4 Corps", origin=depot)) == (
        "4 Corps cannot draw from Hamburg: it is 20 miles away by road, more than 15")
    # in contact: an Allied corps 5 miles away by road
    state.update("4 Corps", position=Position("Hamburg"))
    state.update("I Prussian Corps", position=Position("Hamburg", "Harburg", 5.0))
    assert refused(_order(state, "resupply", corps="4 Corps", origin=depot)) == (
        "4 Corps cannot draw from Hamburg: it is in contact with the enemy")
    # another army's CinC cannot order it: the Prussian CinC has no say over 4 Corps
    allied = SupplyOrder("resupply", "Prussian Army", START, corps="4 Corps", origin="Berlin")
    assert refused(allied).endswith("cannot order 4 Corps: it is not one of his corps")


def test_depot_and_column_refusals(ground):
    """2016: a depot needs a full-strength infantry brigade of the corps standing in the town;
    a column carries at most 4 days a day, at most 15 miles."""
    state, supply = _fresh(ground, "2016")
    rules = load_rules("2016")
    state.update("5 Corps", casualties=(("17", 1),))
    with pytest.raises(OrderRefused, match="17 Brigade is not at full strength"):
        give_order(rules, ground, state, supply,
                   _order(state, "depot", corps="5 Corps", town="Magdeburg", brigade=17))
    with pytest.raises(OrderRefused, match="3 Brigade is not an infantry brigade of 5 Corps"):
        give_order(rules, ground, state, supply,
                   _order(state, "depot", corps="5 Corps", town="Magdeburg", brigade=3))
    with pytest.raises(OrderRefused, match="5 Corps is not at Burg"):
        give_order(rules, ground, state, supply,
                   _order(state, "depot", corps="5 Corps", town="Burg", brigade=18))
    with pytest.raises(OrderRefused, match="can move 4 days of supplies a day; 0 already "
                                           "move today, and 5 more is too many"):
        give_order(rules, ground, state, supply,
                   _order(state, "move", origin="Hamburg", town="Harburg", days=5))
    give_order(rules, ground, state, supply,
               _order(state, "move", origin="Hamburg", town="Harburg", days=3))
    with pytest.raises(OrderRefused, match="3 already move today, and 2 more"):
        give_order(rules, ground, state, supply,
                   _order(state, "move", origin="Hamburg", town="Harburg", days=2))
    supply.orders.clear()
    with pytest.raises(OrderRefused, match="a column goes 15 miles a day; Hamburg to "
                                           "Lauenburg is 30.5"):
        give_order(rules, ground, state, supply,
                   _order(state, "move", origin="Hamburg", town="Lauenburg", days=2))
    assert supply.orders == []


def test_secure_road_needed_for_a_2016_depot(ground):
    """2016: a new depot needs a secure road to the main depot; Allied corps standing at
    Harburg, Lauenburg and Lübeck, the three towns a road leaves Hamburg by, cut every road
    from Magdeburg to Hamburg."""
    state, supply = _fresh(ground, "2016")
    rules = load_rules("2016")
    for corps, town in (("I Prussian Corps", "Harburg"), ("II Prussian Corps", "Lauenburg"),
                        ("III Prussian Corps", "Lübeck")):
        state.update(corps, position=Position(town))
    with pytest.raises(OrderRefused, match="no secure road joins Magdeburg to the Second "
                                           "French Army's main depot at Hamburg"):
        give_order(rules, ground, state, supply,
                   _order(state, "depot", corps="5 Corps", town="Magdeburg", brigade=17))


def test_the_rule_files_are_read_strictly():
    """A supply rule file with an unknown key or a number out of range is refused, naming the
    file and the key."""
    text = load_rules_text("2016")
    with pytest.raises(SupplyRulesError, match=r"my\.toml: Object contains unknown field "
                                               r"`corps_strat` - at `\$\.stocks`"):
        read_rules(text.replace(b"corps_start", b"corps_strat"), "my.toml")
    with pytest.raises(SupplyRulesError, match=r"my\.toml: Expected `int` <= 100000 - at "
                                               r"`\$\.attrition\.men_per_day`"):
        read_rules(text.replace(b"men_per_day = 400", b"men_per_day = 400000"), "my.toml")
    with pytest.raises(SupplyRulesError, match="there is no supply rule '2017'"):
        load_rules("2017")
    assert len(load_rules("2016").assumptions) >= 8


def load_rules_text(version: str) -> bytes:
    """A shipped supply rule file's bytes."""
    return resources.files("campaign1813.data").joinpath("supply", f"{version}.toml") \
        .read_bytes()


def test_hunger_casualties_outlast_a_battle_that_carries_none_forward(ground):
    """Reading (docs/supply.md, record 0029): attrition is no battle's, so the casualties it
    made stay on the brigade after a battle even with carry_casualties_forward off, while the
    battle's own are spent: 5 Corps' 17 Brigade lost 1,600 men out of supply (2 casualties)
    and brings them to the battle of Magdeburg; after it, 17 Brigade still has 2 and nothing
    else is carried."""
    state, supply = _fresh(ground, "2016")
    state.supply = supply
    supply.men_lost["5 Corps"] = {17: 1600}
    state.update("5 Corps", casualties=(("17", 2), ("18", 1)))  # 18's from a forced march
    state.battles[1] = Battle(1, START, "Magdeburg", ("5 Corps",), ("I Prussian Corps",))
    for name in ("5 Corps", "I Prussian Corps"):
        state.update(name, status=Status.IN_BATTLE, battle=1, status_date=START)
    state.update("I Prussian Corps", position=Position("Burg", "Magdeburg", 5.0))
    assert not ground.settings.carry_casualties_forward
    apply_result(ground, state, 1, "French", None)
    assert state.commands["5 Corps"].casualties == (("17", 2),)
    assert state.commands["I Prussian Corps"].casualties == ()


def test_a_depots_garrison_does_not_fight_with_its_corps(ground):
    """2016 rule: the brigade that made a depot stays as its garrison, so 5 Corps comes to the
    battle of Magdeburg with 18, 19 and 20 Brigades, not 17 (left at Burg); and the umpire may
    not put hunger's losses on a brigade that is not with the corps."""
    state, supply = _fresh(ground, "2016")
    rules = load_rules("2016")
    state.supply = supply
    supply.depots["Burg"] = Depot("Burg", FRENCH, 0, False, 17, "5 Corps", START)
    state.battles[1] = Battle(1, START, "Magdeburg", ("5 Corps",), ("I Prussian Corps",))
    state.update("I Prussian Corps", position=Position("Burg", "Magdeburg", 5.0))
    setup = battle_setup(ground, state, 1)
    infantry = sorted(b.number for b in setup.brigades
                      if b.corps == "5 Corps" and b.number is not None and "Infantry" in b.name)
    assert infantry == [18, 19, 20]
    supply.pending["5 Corps"] = 400
    with pytest.raises(OrderRefused, match="17 Brigade is a depot's garrison, not with 5 Corps"):
        apply_attrition(rules, ground, state, supply, "5 Corps", 17)
    assert supply.pending == {"5 Corps": 400}
