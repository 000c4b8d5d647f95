"""Properties of the campaign day over random sequences of orders the rules accept.

For any orders, results and umpire choices: every command stands at one real place, no
hostile commands end a day in the same town without a battle between them, no command
marches farther in a day than its rate (plus the forced-march miles), and no command resting
or retreating marches to the sound of the guns.
"""

from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign1813.campaign.day.aftermath import (
    apply_result,
    battle_ground,
    breakout_options,
    choose_option,
    enemy_towns,
    retreat_destinations,
)
from campaign1813.campaign.day.battles import postpone
from campaign1813.campaign.day.cycle import advance_day
from campaign1813.campaign.day.ground import EPS, Ground, OrderRefused, Position
from campaign1813.campaign.day.orders import build_order, issue
from campaign1813.campaign.day.state import Status, Verb, initial_state
from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.types import RoadClass

from .builders import army, road, scenario

TOWNS = ["Alden", "Birk", "Colm", "Dorn", "Enz", "Falk", "Gries", "Horn"]
ROADS = [
    road("Alden", "Birk", 12), road("Birk", "Colm", 9), road("Colm", "Dorn", 14, RoadClass.MINOR),
    road("Dorn", "Enz", 7), road("Enz", "Falk", 11, RoadClass.TRACK), road("Falk", "Alden", 20),
    road("Birk", "Gries", 8, RoadClass.TRACK), road("Gries", "Enz", 16), road("Colm", "Horn", 5),
    road("Horn", "Dorn", 13, RoadClass.MINOR),
]


def make(contact, steps, messengers=False):
    return scenario(
        TOWNS, ROADS,
        [army("Armée", Side.FRENCH, "Alden", {"1 Corps": "Birk", "2 Corps": "Falk"}),
         army("Prussians", Side.ALLIED, "Dorn", {"I Corps": "Enz", "II Corps": "Horn"})],
        contact_miles=contact, reinforce_miles=contact, steps_per_day=steps,
        messenger_orders=messengers, messenger_miles=15.0,
    )


def check_day(ground, state, starts):
    s = ground.settings
    for c in state.ordered():
        p = c.position
        if p.b is None:
            assert p.a in ground.adj
        else:
            assert p.a < p.b and EPS / 2 < p.miles < ground.miles(p.a, p.b) - EPS / 2
        rates = s.mounted_rate if c.mounted else s.foot_rate
        limit = rates.road + s.forced_march_extra_miles
        assert c.marched <= limit + 1e-5, (c.name, c.marched)
        assert ground.distance(starts[c.name], p) <= c.marched + 1e-5
    live = [c for c in state.ordered() if c.on_map]
    for a in live:
        for b in live:
            if a.side is Side.FRENCH and b.side is Side.ALLIED and a.position.b is None \
                    and a.position == b.position:
                together = [x for x in state.battles.values()
                            if a.name in x.everyone() and b.name in x.everyone()]
                assert together, f"{a.name} and {b.name} share {a.position.a} with no battle"


def check_reinforcements(state, battles, barred):
    """Seed 000's campaign: a command resting or retreating (or cut off, or in battle) at dawn
    marches to the sound of no battle that day."""
    for n in battles:
        b = state.battles[n]
        coming = set(b.french_reinforcements) | set(b.allied_reinforcements)
        assert not coming & barred, (b, coming & barred)


def check_retreat(ground, state, name, order):
    """A retreat goes through its waypoints, each town farther from the battle than the
    last, none the enemy's."""
    c = state.commands[name]
    ground_of_battle = battle_ground(state, name)
    assert order.route[-1] == order.objective
    assert all(v in order.route for v in order.via)
    barred = enemy_towns(state, c.side)
    last = min(ground.distance(s, c.position) for s in ground_of_battle)
    for town in order.route:
        here = min(ground.distance(s, Position(town)) for s in ground_of_battle)
        assert here > last + EPS / 2 and town not in barred, (order, town)
        last = here


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), contact=st.sampled_from([0.0, 5.0, 10.0]),
       steps=st.sampled_from([1, 3, 12]), messengers=st.booleans())
def test_random_legal_orders_keep_the_campaign_sound(data, contact, steps, messengers):
    scen = make(contact, steps, messengers)
    ground = Ground(scen)
    state = initial_state(scen, date(1813, 5, 1))
    for _day in range(5):
        for c in state.ordered():
            if c.status is Status.SURRENDERED:
                continue
            if c.status in (Status.RETREATING, Status.CUT_OFF) and \
                    (c.status_date or state.date) <= state.date:
                legal = retreat_destinations(ground, state, c.name) \
                    if c.status is Status.RETREATING else {}
                if legal:
                    town = data.draw(st.sampled_from(sorted(legal)))
                    via = tuple(data.draw(st.lists(st.sampled_from(TOWNS), max_size=1)))
                    try:
                        order = build_order(ground, state, c.name, Verb.MOVE, town, via)
                    except OrderRefused:
                        order = build_order(ground, state, c.name, Verb.MOVE, town)
                    check_retreat(ground, state, c.name, order)
                    issue(state, order)
                elif breakout_options(ground, state, c.name) and data.draw(st.booleans()):
                    choose_option(ground, state, c.name, "break-out")
                else:
                    choose_option(ground, state, c.name, "surrender")
                continue
            if not data.draw(st.booleans()):
                continue
            verb = data.draw(st.sampled_from(list(Verb)))
            town = data.draw(st.sampled_from(TOWNS))
            via = tuple(data.draw(st.lists(st.sampled_from(TOWNS), max_size=1)))
            forced = data.draw(st.booleans())
            try:
                issue(state, build_order(ground, state, c.name, verb, town, via, forced))
            except OrderRefused:
                pass
        starts = {c.name: c.position for c in state.ordered()}
        barred = {c.name for c in state.ordered() if c.status is not Status.READY}
        report = advance_day(ground, state)
        check_day(ground, state, starts)
        check_reinforcements(state, report.battles, barred)
        if not report.closed:
            for b in sorted(state.battles.values(), key=lambda b: b.id):
                if b.result is None and b.date <= state.date:
                    outcome = data.draw(st.sampled_from(["French", "Allied", "draw", "later"]))
                    if outcome == "later":
                        postpone(state, b.id, 1, "the table is not free")
                    else:
                        apply_result(ground, state, b.id, outcome)
            check_day(ground, state, starts)
            advance_day(ground, state)
        assert not state.marched
