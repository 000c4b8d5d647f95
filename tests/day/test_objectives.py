"""Objectives tracked: met while their side holds every town they name, since the last of them
passed to it; diary lines when one is met or lost, and when a theatre's are all met."""

from datetime import date

from msgspec.structs import replace

from campaign1813.campaign.day.objectives import changes_of_hands, objective_states
from campaign1813.campaign.day.state import initial_state
from campaign1813.campaign.scenario.types import Objective, Side
from campaign1813.maps.types import Theatre

from .builders import army, line, scenario

NG = Theatre.NORTHERN_GERMANY


def setup():
    scen = scenario(
        ["Aston", "Brook", "Carden"], line(["Aston", "Brook", "Carden"]),
        [army("Armée", Side.FRENCH, "Aston", {"1 Corps": "Aston"}),
         army("Prussians", Side.ALLIED, "Carden", {"I Corps": "Carden"})])
    scen = replace(scen, objectives=(
        Objective(NG, Side.FRENCH, "Hold Aston.", ("Aston",)),
        Objective(NG, Side.ALLIED, "Take Aston and Brook.", ("Aston", "Brook")),
    ))
    return scen, initial_state(scen, date(1813, 5, 1))


def test_held_from_the_start_and_not_yet_met():
    scen, state = setup()
    french, allied = objective_states(scen, state)
    assert (french.met, french.since) == (True, None)
    assert french.text() == ("French, Northern Germany: Hold Aston. — met from the start "
                             "(Aston: French)")
    assert not allied.met
    assert allied.text() == ("Allied, Northern Germany: Take Aston and Brook. — not met "
                             "(Aston: French; Brook: nobody)")


def test_met_since_the_last_town_passed_and_the_diary_says_so():
    scen, state = setup()
    before = objective_states(scen, state)
    state.date = date(1813, 5, 3)
    assert state.take("Brook", Side.ALLIED)
    state.date = date(1813, 5, 5)
    assert state.take("Aston", Side.ALLIED)
    assert not state.take("Aston", Side.ALLIED)  # already theirs: no change of hands
    after = objective_states(scen, state)
    assert (after[1].met, after[1].since) == (True, date(1813, 5, 5))
    assert changes_of_hands(before, after) == [
        "Objective lost: the French no longer hold Aston (Northern Germany: Hold Aston.)",
        "Objective met: the Allied hold Aston and Brook (Northern Germany: Take Aston and "
        "Brook.)",
        "The Allied have met every objective in Northern Germany.",
        "The French no longer meet every objective in Northern Germany.",
    ]
    assert changes_of_hands(after, after) == []
