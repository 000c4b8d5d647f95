"""The day's entities are left out of Python's cycle collector: a day's march of hundreds of
new ones does not bring on the collector's passes over the whole program."""

from __future__ import annotations

import gc
from datetime import date

from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.day.state import Battle, Order, Verb, initial_state
from campaign1813.campaign.scenario.loader import load_scenario


def test_the_days_entities_are_left_out_of_the_cycle_collector():
    """Frozen values with no reference back (commands, their positions, orders, battles) are
    never tracked by the collector."""
    state = initial_state(load_scenario(), date(1813, 5, 1))
    command = state.commands["5 Corps"]
    order = Order("5 Corps", Verb.MOVE, "Burg", date(1813, 5, 1), date(1813, 5, 1),
                  route=("Burg",))
    battle = Battle(1, date(1813, 5, 1), "Burg", ("5 Corps",), ("I Prussian Corps",))
    assert not any(gc.is_tracked(value) for value in (command, command.position, order,
                                                      battle, Position("Burg", "Magdeburg", 3.0)))
