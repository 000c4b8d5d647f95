"""Orders that say what they do: a retreat's waypoints honoured or refused, a merge of
battles far apart refused without ``force``, every blocked retreat named in one refusal."""

import pytest

from campaign1813.campaign.day.ground import OrderRefused

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
