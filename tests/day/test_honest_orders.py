"""Orders that say what they do: a retreat's waypoints honoured or refused, a merge of
battles far apart refused without ``force``, every blocked retreat named in one refusal."""

import pytest

from campaign1813.campaign.cli import main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.services import merge_battles

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
