"""The campaign day on a hand-made line of towns, with every number worked by hand.

The main road runs Westhall –100– Aston –10– Brook –10– Carden –10– Dunmore –10– Elford –10–
Fenwick –6– Gorton –14– Hexham –100– Easthall, with a spur Elford –8– Dale, and Eyrie, a town
with no road at all. Corps march 15 miles a day on roads (20 when forced), in 12 hourly steps
from 0800; contact at 10 miles.
"""

from datetime import date

import pytest

from campaign1813.campaign.day.ground import OrderRefused, Position
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.scenario.types import Side

from .builders import Umpire, army, line, new_campaign, road, scenario

TOWNS = ["Westhall", "Aston", "Brook", "Carden", "Dunmore", "Elford", "Fenwick", "Gorton",
         "Hexham", "Easthall", "Dale", "Eyrie"]


def roads(east_of_fenwick: bool = True):
    rs = [road("Westhall", "Aston", 100)] + line(["Aston", "Brook", "Carden", "Dunmore",
                                                   "Elford", "Fenwick"])
    if east_of_fenwick:
        rs += [road("Fenwick", "Gorton", 6), road("Gorton", "Hexham", 14),
               road("Hexham", "Easthall", 100)]
    rs.append(road("Elford", "Dale", 8))
    return rs


def make(tmp_path, french, allied, east=True, **settings):
    towns = TOWNS if east else [t for t in TOWNS if t not in ("Gorton", "Hexham", "Easthall")]
    scen = scenario(
        towns,
        roads(east),
        [army("Armée", Side.FRENCH, "Westhall", french),
         army("Prussians", Side.ALLIED, "Easthall" if east else "Eyrie", allied)],
        **settings,
    )
    return Umpire(new_campaign(tmp_path / "c.c1813", scen), scen)


def test_contact_halts_both_at_contact_miles_on_the_second_day(tmp_path):
    """§3.4: 50 miles apart, closing at 30 a day: 20 apart on 1 May evening, and on 2 May
    contact after 10 more miles of closing, i.e. 4 hourly steps (1200): 1 Corps at Carden
    (20 miles), I Corps at Dunmore (30 miles), exactly 10 apart; both stand off (Halt orders)."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    report = u.end_day().report
    s = u.state()
    assert report.closed and report.battles == ()
    assert s.commands["1 Corps"].position == Position("Brook", "Carden", 5.0)
    assert s.commands["I Corps"].position == Position("Dunmore", "Elford", 5.0)
    assert s.date == date(1813, 5, 2)
    ch = u.end_day()
    s = u.state()
    assert s.commands["1 Corps"].position == Position("Carden")
    assert s.commands["I Corps"].position == Position("Dunmore")
    assert s.commands["1 Corps"].marched == pytest.approx(5.0)
    assert s.commands["1 Corps"].halted and s.commands["I Corps"].halted
    assert "1 Corps marched 5 miles: 5 miles from Brook on the road to Carden → Carden; " \
           "halted by contact with I Corps (1200, first move)." in ch.lines
    assert "1 Corps and I Corps stand off, 10 miles apart." in ch.lines
    assert s.battles == {}


def test_forced_march_contact_point_is_shared_by_the_closing_speeds(tmp_path):
    """§3.4, forced march +5: 1 Corps at 20 a day from Aston, I Corps at 15 from Fenwick.
    1 May: 1 Corps at Carden (20), I Corps 35; 15 apart. 2 May: the last 5 miles of gap close
    at 35 a day, 1 Corps taking 20/35 of them: 20 + 20/7 = 22.857, I Corps 35 - 15/7 = 32.857."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Halt", "Fenwick", forced=True)
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    assert u.state().commands["1 Corps"].position == Position("Carden")
    ch = u.end_day()
    s = u.state()
    f, a = s.commands["1 Corps"].position, s.commands["I Corps"].position
    # 5 miles closed at 35 a day take 1/7 of the 12 marching hours: 1 h 43 min after 0800.
    assert ch.lines[1] == ("I Corps marched 2.1 miles: 5 miles from Dunmore on the road to "
                           "Elford → 2.9 miles from Dunmore on the road to Elford; halted by "
                           "contact with 1 Corps (0943, first move).")
    assert (f.a, f.b) == ("Carden", "Dunmore") and f.miles == pytest.approx(20 / 7, abs=1e-5)
    assert (a.a, a.b) == ("Dunmore", "Elford") and a.miles == pytest.approx(5 - 15 / 7, abs=1e-5)
    assert u.ground().distance(f, a) == pytest.approx(10.0, abs=1e-5)


def test_hold_against_an_objective_short_of_it_stands_off(tmp_path):
    """§3.3 item 4: I Corps holds Fenwick; 1 Corps marches to Elford, 40 miles, arriving on the
    third day (15 + 15 + 10) exactly 10 miles from Fenwick. No one attacks: they stand off."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Elford")
    u.order("I Corps", "Hold", "Fenwick")
    u.end_day()
    u.end_day()
    ch = u.end_day()
    s = u.state()
    assert s.date == date(1813, 5, 4)
    assert s.commands["1 Corps"].position == Position("Elford")
    assert s.battles == {}
    # its last 10 miles take 8 of the 12 hours: it reaches Elford at 1600, already 10 miles
    # from Fenwick; it arrived, so nothing halted it
    assert ch.lines == (
        "1 Corps marched 10 miles: Dunmore → Elford; in contact with I Corps from 1600 "
        "(second move).",
        "I Corps at Fenwick is in contact with 1 Corps from 1600 (second move).",
        "1 Corps and I Corps stand off, 10 miles apart.",
        "1 Corps has reached Elford at 1600.",
        "3 May 1813 ends.",
    )


def battle_setup(tmp_path, east=True):
    """1 Corps attacks Fenwick on 3 May; 2 Corps waits at Dale, 8 miles from Elford; II Corps
    stands at Gorton, 6 miles from Fenwick (when the road goes on east)."""
    allied = {"I Corps": "Fenwick"}
    if east:
        allied["II Corps"] = "Gorton"
    u = make(tmp_path, {"1 Corps": "Aston", "2 Corps": "Dale", "3 Corps": "Westhall"}, allied,
             east=east)
    u.order("1 Corps", "Attack", "Fenwick")
    u.order("I Corps", "Hold", "Fenwick")
    u.end_day()
    u.end_day()
    return u


def test_attack_schedules_a_battle_at_the_defenders_town_with_reinforcements(tmp_path):
    """§3.3 item 4: 1 Corps (Attack) comes into contact at Elford at 1600 on 3 May (10 miles
    in 8 steps); the battle is at the defender's town, Fenwick. 2 Corps (8 miles from Elford)
    and II Corps (6 from Fenwick) are within 10 miles and arrive on turn 4; 3 Corps is not."""
    u = battle_setup(tmp_path)
    ch = u.end_day()
    s = u.state()
    assert not ch.report.closed and ch.report.battles == (1,)
    b = s.battles[1]
    assert (b.place, b.date, b.attacker) == ("Fenwick", date(1813, 5, 3), Side.FRENCH)
    assert b.french == ("1 Corps",) and b.allied == ("I Corps",)
    assert b.french_reinforcements == ("2 Corps",)
    assert b.allied_reinforcements == ("II Corps",)
    assert s.commands["1 Corps"].position == Position("Elford")
    assert s.commands["1 Corps"].status is Status.IN_BATTLE
    assert "  2 Corps (French) march to the sound of the guns, on the table at turn 4." \
        in ch.lines
    assert s.date == date(1813, 5, 3)


def test_day_cannot_end_until_the_battle_has_a_result(tmp_path):
    """§3.3 item 5: the day stays open while its battle is undecided; the file is unchanged."""
    u = battle_setup(tmp_path)
    u.end_day()
    before = u.dump()
    with pytest.raises(OrderRefused, match=r"^3 May 1813 cannot end: the battle of Fenwick "
                       r"\(3 May 1813\) has no result yet$"):
        u.end_day()
    assert u.dump() == before
    u.result(1, "French")
    ch = u.end_day()
    assert ch.report.closed and u.state().date == date(1813, 5, 4)


def test_aftermath_winner_rests_loser_retreats_away_and_town_changes_hands(tmp_path):
    """§3.3 item 6: the French win at Fenwick. On 4 May 1 Corps rests; I Corps must retreat
    away from Fenwick: Gorton (6) or Hexham (20, ending 15 out) are legal, Elford is not."""
    u = battle_setup(tmp_path)
    u.end_day()
    ch = u.result(1, "French")
    assert ch.towns == {"Fenwick"}
    u.end_day()
    s = u.state()
    assert s.control["Fenwick"] is Side.FRENCH
    assert s.commands["1 Corps"].status is Status.RESTING
    with pytest.raises(OrderRefused) as err:
        u.order("1 Corps", "Move", "Gorton")
    assert str(err.value) == "1 Corps is resting on 4 May 1813 after winning at Fenwick"
    with pytest.raises(OrderRefused) as err:
        u.order("I Corps", "Move", "Elford")
    assert str(err.value) == ("I Corps must retreat on 4 May 1813 after losing at Fenwick: "
                              "it may retreat to Gorton or Hexham, not Elford")
    with pytest.raises(OrderRefused, match="cannot march: I Corps must retreat"):
        u.end_day()
    u.order("I Corps", "Move", "Hexham")
    u.order("II Corps", "Move", "Hexham")
    u.order("1 Corps", "Rest", "Elford")
    ch = u.end_day()
    s = u.state()
    assert s.commands["I Corps"].position == Position("Gorton", "Hexham", 9.0)
    # The winner takes the ground: with I Corps gone (15 miles off), 1 Corps moves into Fenwick
    # on its day of rest, so control, positions and the next day's contacts agree.
    assert s.commands["1 Corps"].position == Position("Fenwick")
    assert "1 Corps occupies Fenwick, the ground I Corps held." in ch.lines
    assert s.control["Fenwick"] is Side.FRENCH
    assert s.commands["I Corps"].status is Status.READY
    # The day of rest is over: 1 Corps may march again on 5 May.
    u.order("1 Corps", "Move", "Gorton")


def test_loser_with_no_road_of_retreat_is_offered_surrender_or_break_out(tmp_path):
    """§3.3 item 6: with no road east of Fenwick, beaten I Corps is cut off; the umpire must
    choose, and the day cannot march until he has."""
    u = battle_setup(tmp_path, east=False)
    u.end_day()
    ch = u.result(1, "French")
    assert "I Corps has no road of retreat: the umpire must choose surrender or break out." \
        in ch.lines
    u.end_day()
    s = u.state()
    assert s.commands["I Corps"].status is Status.CUT_OFF
    with pytest.raises(OrderRefused, match="cut off after losing at Fenwick"):
        u.end_day()
    with pytest.raises(OrderRefused, match="surrender or break-out"):
        u.choose("I Corps", "parley")
    u.choose("I Corps", "surrender")
    assert u.state().commands["I Corps"].status is Status.SURRENDERED
    u.end_day()


def test_cut_off_command_may_break_out_through_the_weakest_enemy(tmp_path):
    """A break-out is a march through the enemy: it counts as an attack when contact comes."""
    u = battle_setup(tmp_path, east=False)
    u.end_day()
    u.result(1, "French")
    u.end_day()
    from campaign1813.campaign.day.aftermath import breakout_options

    opts = breakout_options(u.ground(), u.state(), "I Corps")
    # Every road from Fenwick leads through 1 Corps at Elford. Elford itself, where the winner
    # stands, and Dale, where 2 Corps stands, are no way out: Dunmore, beyond, is.
    assert [(o.town, o.through) for o in opts] == [("Dunmore", ("1 Corps",))]
    with pytest.raises(OrderRefused, match="cannot break out to Aston; it may make for Dunmore"):
        u.choose("I Corps", "break-out", "Aston")
    u.choose("I Corps", "break-out", "Dunmore")
    ch = u.end_day()
    s = u.state()
    b = s.battles[ch.report.battles[0]]
    assert (b.place, b.french, b.allied, b.attacker) == (
        "Elford", ("1 Corps",), ("I Corps",), Side.ALLIED)
    # 2 Corps, 8 miles off at Dale, marched to the guns at Fenwick on 3 May and shares the
    # win: it rests on 4 May (seed 000's campaign: the winner rests a day), so it does not
    # march to the sound of this battle.
    assert s.commands["2 Corps"].status is Status.RESTING
    assert b.french_reinforcements == ()


def test_undo_of_end_day_restores_the_previous_day_exactly(tmp_path):
    """Undo of an end-day gives back the full state before it; redo the state after."""
    u = battle_setup(tmp_path)
    before = u.dump()
    u.end_day()
    after = u.dump()
    assert after != before
    ch = u.undo()
    assert u.dump() == before
    assert ch.date_changed is False and "1 Corps" in ch.commands
    u.redo()
    assert u.dump() == after
    u.result(1, "Allied")
    u.end_day()
    assert u.state().date == date(1813, 5, 4)
    u.undo()
    u.undo()
    assert u.dump() == after
