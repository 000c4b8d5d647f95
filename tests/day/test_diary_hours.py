"""The diary's hours and words for contact, arrivals and battles, worked by hand.

Corps march 15 miles a day (20 forced), HQs 30, over the twelve hours from 0800, in twelve
hourly steps; contact at 10 miles. The line of towns is the scenario tests' (Aston –10–
Brook –10– Carden –10– Dunmore –10– Elford –10– Fenwick).
"""

from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.scenario.types import Side

from .builders import Umpire, army, new_campaign, road, scenario
from .test_scenarios import make


def test_a_corps_that_arrived_before_contact_is_not_said_to_be_halted(tmp_path):
    """1 Corps force-marches the 10 miles to Brook at 20 a day: 6 hours, there at 1400.
    I Corps marches from Dunmore at 15 a day (1.25 miles an hour): at 1400 it has gone 7.5
    miles, 12.5 from Brook; the last 2.5 take two hours more: contact at 1600, I Corps at
    Carden. 1 Corps had done its march by then; I Corps was halted."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Dunmore"})
    u.order("1 Corps", "Move", "Brook", forced=True)
    u.order("I Corps", "Halt", "Aston")
    ch = u.end_day()
    assert ch.lines == (
        "1 Corps marched 10 miles: Aston → Brook; in contact with I Corps from 1600 (second "
        "move).",
        "I Corps marched 10 miles: Dunmore → Carden; halted by contact with 1 Corps (1600, "
        "second move).",
        "1 Corps force-marched: one casualty on each infantry brigade, carried to the next "
        "battle.",
        "1 Corps and I Corps stand off, 10 miles apart.",
        "1 Corps has reached Brook at 1400.",
        "1 May 1813 ends.",
    )


def test_an_hq_arriving_at_1936_is_in_contact_from_1936_not_2000(tmp_path):
    """Armée HQ rides the 29 miles from Ash to Bell at 30 a day (2.5 an hour): 11.6 hours,
    there at 1936, exactly 10 miles from the Prussians at Crane. Within its last hourly step
    it rode only 36 minutes, so the contact is at its arrival, not at the step's end."""
    scen = scenario(["Ash", "Bell", "Crane"], [road("Ash", "Bell", 29), road("Bell", "Crane", 10)],
                    [army("Armée", Side.FRENCH, "Ash", {"1 Corps": "Ash"}),
                     army("Prussians", Side.ALLIED, "Crane", {"I Corps": "Crane"})])
    u = Umpire(new_campaign(tmp_path / "c.c1813", scen), scen)
    u.order("Armée", "Move", "Bell")
    ch = u.end_day()
    assert ch.lines == (
        "Armée HQ marched 29 miles: Ash → Bell; in contact with I Corps from 1936 (third move).",
        "Prussians HQ at Crane is in contact with Armée HQ from 1936 (third move).",
        "I Corps at Crane is in contact with Armée HQ from 1936 (third move).",
        "Armée HQ and I Corps stand off, 10 miles apart.",
        "Armée HQ and Prussians HQ stand off, 10 miles apart.",
        "Armée HQ has reached Bell at 1936.",
        "1 May 1813 ends.",
    )
    assert u.state().commands["Armée HQ"].position == Position("Bell")


def test_contact_after_an_arrival_within_the_step_is_timed_from_the_arrival(tmp_path):
    """Armée HQ rides Ash–Bell (29 miles) and is at Bell at 1936 (11.6 hours); I Corps
    marches from Crane, 24.8 miles beyond, towards Ash at 1.25 an hour. After 1936 only
    I Corps closes: 24.8 − 1.25 t = 10 at t = 11.84 hours, 1950, I Corps 14.8 miles out.
    (Proportion over the whole last step, as if HQ had ridden all of it, gave 1956: from
    12.55 miles apart at 1900 to 9.8 at 2000.)"""
    scen = scenario(["Ash", "Bell", "Crane"],
                    [road("Ash", "Bell", 29), road("Bell", "Crane", 24.8)],
                    [army("Armée", Side.FRENCH, "Ash", {"1 Corps": "Ash"}),
                     army("Prussians", Side.ALLIED, "Crane", {"I Corps": "Crane"})])
    u = Umpire(new_campaign(tmp_path / "c.c1813", scen), scen)
    u.order("Armée", "Move", "Bell")
    u.order("I Corps", "Halt", "Ash")
    ch = u.end_day()
    assert ch.lines[:2] == (
        "Armée HQ marched 29 miles: Ash → Bell; in contact with I Corps from 1950 (third move).",
        "I Corps marched 14.8 miles: Crane → 10 miles from Bell on the road to Crane; halted "
        "by contact with Armée HQ (1950, third move).",
    )
    assert "Armée HQ has reached Bell at 1936." in ch.lines
    s = u.state()
    assert s.commands["Armée HQ"].position == Position("Bell")
    i_corps = s.commands["I Corps"].position
    assert (i_corps.a, i_corps.b) == ("Bell", "Crane")
    assert abs(i_corps.miles - 10.0) < 1e-6


def test_both_sides_attacking_are_both_said_to_attack(tmp_path):
    """1 Corps attacks Fenwick from Aston, I Corps attacks Aston from Fenwick, 50 miles
    apart, closing at 30 a day: 20 apart on the first evening, contact at 1200 on the second
    (10 more miles of closing in 4 hours), at Carden and Dunmore."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Attack", "Fenwick")
    u.order("I Corps", "Attack", "Aston")
    u.end_day()
    ch = u.end_day()
    assert ch.lines == (
        "1 Corps marched 5 miles: 5 miles from Brook on the road to Carden → Carden; halted by "
        "contact with I Corps (1200, first move).",
        "I Corps marched 5 miles: 5 miles from Dunmore on the road to Elford → Dunmore; halted "
        "by contact with 1 Corps (1200, first move).",
        "Battle: the battle of Carden (2 May 1813): 1 Corps (French) against I Corps "
        "(Allied); the French and the Allied both attack.",
    )
