"""Orders that say what they do: a retreat's waypoints honoured or refused, a merge of
battles far apart refused without ``force``, every blocked retreat named in one refusal."""

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.day.aftermath import retreat_destinations, retreat_route
from campaign1813.campaign.day.ground import OrderRefused, Position
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.services import merge_battles

from .builders import Umpire, army, new_campaign, road, scenario
from .test_scenarios import battle_setup, make


def refused(fn, *args, **kw):
    with pytest.raises(OrderRefused) as err:
        fn(*args, **kw)
    return str(err.value)


# -- end-day names every blocked command ------------------------------------------------------

def test_end_day_names_every_retreat_still_to_be_ordered(tmp_path):
    """The French lose at Fenwick on 3 May. On 4 May 1 Corps, at Elford (10 miles from
    Fenwick), may retreat to Dunmore (20), Carden (30, the first town past its 15 miles) or
    Dale (18); 2 Corps, which marched to the guns from Dale at the end of its spur, has no road
    leading away and is cut off. One refusal names both, in the order of the commands, each
    as the single refusal did."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.result(1, "Allied")
    u.end_day()
    before = u.dump()
    assert refused(u.end_day) == (
        "4 May 1813 cannot march: 1 Corps must retreat after losing at Fenwick; order it to "
        "Carden or Dale or Dunmore; 2 Corps is cut off after losing at Fenwick; the umpire "
        "must choose surrender or break out"
    )
    assert u.dump() == before
    u.choose("2 Corps", "surrender")
    assert refused(u.end_day) == (
        "4 May 1813 cannot march: 1 Corps must retreat after losing at Fenwick; order it to "
        "Carden or Dale or Dunmore"
    )
    u.order("1 Corps", "Move", "Carden")
    assert u.end_day().report.closed


def test_end_day_names_every_cut_off_command(tmp_path):
    """With no road east of Fenwick, I Corps and II Corps, both beaten there, are cut off;
    the refusal names both until the umpire has chosen for each."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick", "II Corps": "Fenwick"},
             east=False)
    u.order("1 Corps", "Attack", "Fenwick")
    u.end_day()
    u.end_day()
    u.end_day()
    u.result(1, "French")
    u.end_day()
    assert refused(u.end_day) == (
        "4 May 1813 cannot march: I Corps is cut off after losing at Fenwick; the umpire must "
        "choose surrender or break out; II Corps is cut off after losing at Fenwick; the "
        "umpire must choose surrender or break out"
    )
    u.choose("I Corps", "surrender")
    assert refused(u.end_day) == (
        "4 May 1813 cannot march: II Corps is cut off after losing at Fenwick; the umpire must "
        "choose surrender or break out"
    )


# -- merging battles far apart ----------------------------------------------------------------

def far_battles(tmp_path, **settings):
    """Hostile corps start together at Westhall, at Hexham (170 miles east by road: 100 to
    Aston, 50 to Fenwick, 20 on) and at Eyrie, which no road reaches: three battles on 1 May."""
    u = make(tmp_path, {"1 Corps": "Westhall", "2 Corps": "Hexham", "3 Corps": "Eyrie"},
             {"I Corps": "Westhall", "II Corps": "Hexham", "III Corps": "Eyrie"}, **settings)
    report = u.end_day().report
    places = {i: u.state().battles[i].place for i in report.battles}
    assert places == {1: "Westhall", 2: "Hexham", 3: "Eyrie"}
    return u


def test_battles_far_apart_merge_only_when_forced(tmp_path):
    u = far_battles(tmp_path)
    before = u.dump()
    assert refused(merge_battles, u.doc, 1, 2, "one table") == (
        "the battle of Westhall and the battle of Hexham are 170 miles apart by road; merge "
        "them with --force if they are one fight"
    )
    assert refused(merge_battles, u.doc, 1, 3, "one table") == (
        "the battle of Westhall and the battle of Eyrie are joined by no road; merge them "
        "with --force if they are one fight"
    )
    assert u.dump() == before
    ch = merge_battles(u.doc, 1, 2, "the players want one big table", force=True)
    assert ch.lines == ("Umpire: the battle of Hexham (1 May 1813) is merged into the battle "
                        "of Westhall (1 May 1813): the players want one big table",)
    b = u.state().battles
    assert sorted(b) == [1, 3]
    assert b[1].french == ("Armée HQ", "1 Corps", "2 Corps")


def test_the_merge_distance_is_twice_the_reinforcement_distance(tmp_path):
    """Fenwick and Gorton are 6 miles apart: merged freely at the default 10 reinforcement
    miles (a limit of 20; test_orders merges them), refused when the campaign sets 2 (a
    limit of 4). Hostile corps start together in each town (contact only in the same town)."""
    u = make(tmp_path, {"1 Corps": "Fenwick", "2 Corps": "Gorton"},
             {"I Corps": "Fenwick", "II Corps": "Gorton"}, reinforce_miles=2.0,
             contact_miles=0.0)
    report = u.end_day().report
    assert [u.state().battles[i].place for i in report.battles] == ["Fenwick", "Gorton"]
    assert refused(merge_battles, u.doc, 1, 2, "one table") == (
        "the battle of Fenwick and the battle of Gorton are 6 miles apart by road; merge "
        "them with --force if they are one fight"
    )


def test_merge_on_the_command_line_takes_force(tmp_path, capsys):
    far_battles(tmp_path).doc.close()
    path = str(tmp_path / "c.c1813")
    assert main(["merge", path, "1", "2", "--reason", "one table"]) == 1
    err = capsys.readouterr().err
    assert "are 170 miles apart by road; merge them with --force if they are one fight" in err
    assert main(["merge", path, "1", "2", "--reason", "one table", "--force"]) == 0
    assert capsys.readouterr().out == (
        "Umpire: the battle of Hexham (1 May 1813) is merged into the battle of Westhall "
        "(1 May 1813): one table\n")


# -- a retreat's waypoints ---------------------------------------------------------------------

RETREAT_TOWNS = ["Wexley", "Moor", "Lind", "Pike", "Kemp", "Nash", "Oxley", "Easton", "Burg",
                 "Tarn", "Rook", "Eyrie"]


def retreat_map(tmp_path, burg_held: bool):
    """5 Corps holds Kemp; I Corps attacks it from Oxley on 1 May and wins.

    Wexley –100– Moor –10– Lind –10– Kemp –10– Nash –10– Oxley –100– Easton, and about them
    Kemp –12– Burg –12– Moor (Burg –30– Tarn), Lind –6– Pike –6– Moor, Kemp –12– Rook –4–
    Nash and Rook –12– Moor; Eyrie has no road. From Kemp: Lind 10, Burg and Rook 12, Pike 16,
    Moor 20 (by Lind), Tarn 42. II Corps, when there, starts at Burg and marches off to Tarn,
    so Burg stays the Allies' with no one in it. On 2 May 5 Corps retreats; I Corps stands at
    Nash, where contact halted it at 1600."""
    roads = [road("Wexley", "Moor", 100), road("Moor", "Lind", 10), road("Lind", "Kemp", 10),
             road("Kemp", "Nash", 10), road("Nash", "Oxley", 10), road("Oxley", "Easton", 100),
             road("Kemp", "Burg", 12), road("Burg", "Moor", 12), road("Burg", "Tarn", 30),
             road("Lind", "Pike", 6), road("Pike", "Moor", 6), road("Kemp", "Rook", 12),
             road("Rook", "Nash", 4), road("Rook", "Moor", 12)]
    allied = {"I Corps": "Oxley"}
    if burg_held:
        allied["II Corps"] = "Burg"
    scen = scenario(RETREAT_TOWNS, roads,
                    [army("Armée", Side.FRENCH, "Wexley", {"5 Corps": "Kemp"}),
                     army("Prussians", Side.ALLIED, "Easton", allied)])
    u = Umpire(new_campaign(tmp_path / "c.c1813", scen), scen)
    u.order("5 Corps", "Hold", "Kemp")
    u.order("I Corps", "Attack", "Kemp")
    if burg_held:
        u.order("II Corps", "Move", "Tarn")
    assert u.end_day().report.battles == (1,)
    u.result(1, "Allied")
    u.end_day()
    s = u.state()
    assert s.commands["5 Corps"].status is Status.RETREATING
    assert s.commands["I Corps"].position == Position("Nash")
    assert (s.control.get("Burg") is Side.ALLIED) == burg_held
    return u


def test_a_retreat_via_an_enemy_town_is_refused_naming_it(tmp_path):
    """Burg is the enemy's: a retreat to Moor by way of it is refused (it used to be accepted,
    shown, and marched straight west by Lind); so is one by Nash, where I Corps stands, and
    one to Moor by Tarn, which only Burg leads to."""
    u = retreat_map(tmp_path, burg_held=True)
    legal = retreat_destinations(u.ground(), u.state(), "5 Corps")
    assert sorted(legal) == ["Lind", "Moor", "Pike"]
    before = u.dump()
    assert refused(u.order, "5 Corps", "Move", "Moor", via=("Burg",)) == (
        "5 Corps cannot retreat via Burg: the enemy holds it")
    assert refused(u.order, "5 Corps", "Move", "Moor", via=("Nash",)) == (
        "5 Corps cannot retreat via Nash: I Corps stands in it")
    assert refused(u.order, "5 Corps", "Move", "Moor", via=("Tarn",)) == (
        "5 Corps cannot retreat via Tarn: every road from Kemp to Tarn that leads away from "
        "Kemp enters a town the enemy holds or stands in")
    assert u.dump() == before
    u.order("5 Corps", "Move", "Moor")
    assert u.state().orders["5 Corps"].route == ("Lind", "Moor")


def test_a_retreat_goes_through_its_waypoints(tmp_path):
    """With Burg free, 5 Corps retreats to Moor by Burg: 12 miles to Burg, then 3 along the
    road to Moor by the day's end (15 miles), 25 miles by road from I Corps at Nash."""
    u = retreat_map(tmp_path, burg_held=False)
    ch = u.order("5 Corps", "Move", "Moor", via=("Burg",))
    assert ch.lines == ("Order: 5 Corps – Move Moor via Burg",)
    assert u.state().orders["5 Corps"].route == ("Burg", "Moor")
    ch = u.end_day()
    assert "5 Corps marched 15 miles: Kemp → 3 miles from Burg on the road to Moor." in ch.lines
    assert u.state().commands["5 Corps"].position == Position("Burg", "Moor", 3.0)


def test_each_leg_of_a_retreat_must_itself_be_a_retreat(tmp_path):
    """Every leg must lead farther from Kemp, the whole must reach its town or the road into
    it within the day's 15 miles, and the day must end 10 miles clear of the winners."""
    u = retreat_map(tmp_path, burg_held=False)
    before = u.dump()
    cases = {
        ("Lind", "Moor"): "5 Corps cannot retreat to Lind via Moor: Lind is no farther from "
                          "Kemp than Moor",
        ("Moor", "Tarn"): "5 Corps cannot retreat to Moor via Tarn: Moor is no farther from "
                          "Kemp than Tarn",
        ("Moor", "Eyrie"): "5 Corps cannot retreat via Eyrie: no road from Kemp to Eyrie leads "
                           "ever farther from Kemp",
        # Lind 10, Pike 16: the day's march ends before Pike, short of the road into Moor.
        ("Moor", "Pike"): "5 Corps cannot retreat to Moor via Pike: that way Moor is 22 miles "
                          "off, and a retreat must reach its town or the road into it within "
                          "the day's march of 15 miles",
        # 12 to Rook and 3 on towards Moor: 7 miles from I Corps at Nash (by Rook).
        ("Moor", "Rook"): "5 Corps cannot retreat to Moor via Rook: that way it would end the "
                          "day within 10 miles of I Corps",
    }
    for (town, waypoint), message in cases.items():
        assert refused(u.order, "5 Corps", "Move", town, via=(waypoint,)) == message
    assert refused(u.order, "5 Corps", "Move", "Moor", via=("Burg", "Tarn")) == (
        "5 Corps cannot retreat to Moor via Burg, Tarn: Moor is no farther from Kemp than Tarn")
    assert refused(u.order, "5 Corps", "Move", "Moor", via=("Rook", "Burg")) == (
        "5 Corps cannot retreat via Burg: Burg is no farther from Kemp than Rook")
    # with no waypoints the route's refusal names the town alone
    assert refused(retreat_route, u.doc.ground(), u.state(), "5 Corps", "Nash", ()) == (
        "5 Corps cannot retreat to Nash: I Corps stands in it")
    assert u.dump() == before
    u.order("5 Corps", "Move", "Pike", via=("Lind",))
    assert u.state().orders["5 Corps"].route == ("Lind", "Pike")
