"""The day's contacts found once: supply's closing of a day uses the contacts its march found
where no command has moved since, and searches afresh where one has (DESIGN §3.5: a corps in
contact may not draw)."""

from __future__ import annotations

from datetime import date

import pytest

from campaign1813.campaign.day import contact, supply
from campaign1813.campaign.day.contact import Contact, contacts_among
from campaign1813.campaign.day.cycle import advance_day
from campaign1813.campaign.day.ground import Ground, Position
from campaign1813.campaign.day.orders import build_order
from campaign1813.campaign.day.state import DayState, initial_state
from campaign1813.campaign.scenario.types import Side
from tests.day.builders import army, line, scenario

TOWNS = ["A", "B", "C", "D", "E"]


def _day(ground: Ground) -> DayState:
    """1 Corps at B (its depot at A, 10 miles off, 2 days carried, drawing today); I Corps
    marches from D to C and halts there in contact, 10 miles from B, with no battle."""
    state = initial_state(ground.scenario, date(1813, 5, 1))
    supply.switch(ground, state, "2016")
    assert state.supply is not None
    state.supply.corps["1 Corps"] = 2
    state.orders["I Corps"] = build_order(ground, state, "I Corps", "Move", "C")
    supply.give(ground, state, supply.SupplyOrder("resupply", "Fr", state.date,
                                                  corps="1 Corps", origin="A"))
    return state


@pytest.fixture
def ground() -> Ground:
    return Ground(scenario(TOWNS, line(TOWNS), [army("Fr", Side.FRENCH, "A", {"1 Corps": "B"}),
                                                army("Al", Side.ALLIED, "E", {"I Corps": "D"})]))


def test_a_day_closed_with_its_march_searches_for_contacts_once(ground, monkeypatch):
    """Supply 2016, a corps in contact may not draw: the contact the march found at 1600 keeps
    1 Corps from drawing, and the whole day (march and supply) searched for contacts once."""
    state = _day(ground)
    searches = []
    search = contact.find_contacts
    monkeypatch.setattr(contact, "find_contacts",
                        lambda *a, **kw: searches.append(1) or search(*a, **kw))
    report = advance_day(ground, state)
    assert report.closed
    assert "1 Corps: not resupplied from A — in contact with the enemy; 1 day left." \
        in report.lines
    assert len(searches) == 1


def test_a_search_is_used_again_only_where_nobody_moved(ground):
    """The march's search answers the close only for the same positions: after a command
    moved (a retreat, a surrender) the contacts are found afresh."""
    sides = {"1 Corps": Side.FRENCH, "I Corps": Side.ALLIED}
    where = {"1 Corps": Position("B"), "I Corps": Position("C")}
    found = contacts_among(ground, sides, where, 10.0)
    assert found.contacts == (Contact("1 Corps", "I Corps", 10.0),)
    assert contacts_among(ground, dict(sides), dict(where), 10.0, found) is found
    moved = contacts_among(ground, sides, {**where, "I Corps": Position("D")}, 10.0, found)
    assert moved is not found and moved.contacts == ()
    gone = contacts_among(ground, {"1 Corps": Side.FRENCH}, {"1 Corps": Position("B")}, 10.0,
                          found)
    assert gone.contacts == ()
    assert contacts_among(ground, sides, where, 5.0, found).contacts == ()
