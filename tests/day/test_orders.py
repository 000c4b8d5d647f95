"""Orders refused with their reasons, the umpire's battle overrides, messengers, recce, diary."""

from datetime import date

import pytest

from campaign1813.campaign.day.ground import OrderRefused, Position
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.queries import diary_text
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.services import (
    cancel_order,
    merge_battles,
    postpone_battle,
    split_battle,
)
from campaign1813.maps.types import RoadClass

from .builders import Umpire, army, new_campaign, road, scenario
from .test_scenarios import battle_setup, make


def refused(u, *args, **kw):
    with pytest.raises(OrderRefused) as err:
        u.order(*args, **kw)
    return str(err.value)


def test_orders_name_the_command_and_what_is_wrong(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    before = u.dump()
    assert refused(u, "1 Corps", "Move", "Atlantis") == \
        "order for 1 Corps refused: no town called 'Atlantis' on the map"
    assert refused(u, "Ghost Corps", "Move", "Brook") == \
        "no command called 'Ghost Corps' in this campaign"
    assert refused(u, "1 Corps", "Move", "Eyrie") == \
        "order for 1 Corps refused: no road leads from Aston to Eyrie"
    assert refused(u, "1 Corps", "Charge", "Brook") == \
        "'Charge' is not an order; give one of Move, Halt, Hold, Attack, Recce, Rest"
    assert refused(u, "1 Corps", "Hold", "Brook") == \
        "1 Corps cannot hold at Brook: it stands at Aston"
    assert refused(u, "1 Corps", "Rest", "Aston", forced=True) == \
        "1 Corps cannot force-march on a Rest order"
    assert u.dump() == before
    u.order("1 corps", "move", "brook")  # names in any case
    assert u.state().orders["1 Corps"].route == ("Brook",)


def test_commands_by_near_names_and_without_accents(tmp_path):
    """Command names fold as towns do (Armee for Armée); a near miss is offered the closest
    names, but a number is never guessed: 9 Corps is not a misspelt 1 Corps."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("ARMEE", "Move", "Aston")
    assert u.state().orders["Armée HQ"].objective == "Aston"
    u.order("armee hq", "Halt", "Brook")
    assert u.state().orders["Armée HQ"].objective == "Brook"
    assert refused(u, "1 Crops", "Move", "Brook") == \
        "no command called '1 Crops' in this campaign; did you mean 1 Corps?"
    assert refused(u, "Prusians", "Move", "Dunmore") == \
        "no command called 'Prusians' in this campaign; did you mean Prussians HQ?"
    assert refused(u, "9 Corps", "Move", "Brook") == \
        "no command called '9 Corps' in this campaign"
    assert refused(u, "II Corps", "Move", "Brook") == \
        "no command called 'II Corps' in this campaign"


def test_route_through_waypoints_and_the_army_hq_by_army_name(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Dunmore", via=("Dale",))
    assert u.state().orders["1 Corps"].route == (
        "Brook", "Carden", "Dunmore", "Elford", "Dale", "Elford", "Dunmore")
    u.order("Armée", "Move", "Aston")
    assert u.state().orders["Armée HQ"].objective == "Aston"


def test_hq_rides_at_the_mounted_rate_and_tracks_slow_the_foot(tmp_path):
    """§3.3 item 2: HQ 30 miles a day on roads; a corps on a track goes at the off-road 10."""
    scen = scenario(
        ["Ost", "Mitte", "West", "Far"],
        [road("Ost", "Mitte", 40), road("Mitte", "West", 40, RoadClass.TRACK),
         road("West", "Far", 100)],
        [army("Armée", Side.FRENCH, "Ost", {"1 Corps": "Mitte"}),
         army("Prussians", Side.ALLIED, "Far", {"I Corps": "Far"})],
    )
    u = Umpire(new_campaign(tmp_path / "t.c1813", scen), scen)
    u.order("Armée HQ", "Move", "Mitte")
    u.order("1 Corps", "Move", "West")
    u.end_day()
    s = u.state()
    assert s.commands["Armée HQ"].position == Position("Mitte", "Ost", 10.0)
    assert s.commands["1 Corps"].position == Position("Mitte", "West", 10.0)


def test_messenger_orders_reach_a_distant_corps_a_day_late(tmp_path):
    """§3.3 item 1 (optional): the HQ at Westhall is 100 miles from 1 Corps at Aston, more than
    the messenger's 60; the order written on 1 May is obeyed from 2 May."""
    u = make(tmp_path, {"1 Corps": "Aston", "2 Corps": "Westhall"}, {"I Corps": "Fenwick"},
             messenger_orders=True)
    ch = u.order("1 Corps", "Move", "Carden")
    assert ch.lines == ("Order: 1 Corps – Move Carden (by messenger; it arrives on 2 May 1813)",)
    u.order("2 Corps", "Move", "Aston")  # beside its HQ: at once
    ch = u.end_day()
    s = u.state()
    assert s.commands["1 Corps"].position == Position("Aston")
    assert s.commands["2 Corps"].position.a == "Aston" and s.commands["2 Corps"].marched == 15
    assert "The messenger reaches 1 Corps: 1 Corps – Move Carden." in ch.lines
    u.end_day()
    assert u.state().commands["1 Corps"].position == Position("Brook", "Carden", 5.0)


def test_recce_finds_the_enemy_and_does_not_fight(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Recce", "Fenwick")
    u.end_day()
    u.end_day()
    ch = u.end_day()
    assert "Recce: 1 Corps finds I Corps (Allied) at Fenwick." in ch.lines
    assert u.state().battles == {} and u.state().commands["1 Corps"].position == Position("Elford")


def test_cancelled_orders_leave_the_command_standing(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Carden")
    ch = cancel_order(u.doc, "1 Corps")
    assert ch.commands == {"1 Corps"}
    assert refused_cancel(u) == "1 Corps has no orders to cancel"
    u.end_day()
    assert u.state().commands["1 Corps"].position == Position("Aston")


def refused_cancel(u):
    with pytest.raises(OrderRefused) as err:
        cancel_order(u.doc, "1 Corps")
    return str(err.value)


def test_no_new_orders_once_the_day_has_marched(tmp_path):
    u = battle_setup(tmp_path)
    u.end_day()
    assert refused(u, "3 Corps", "Move", "Aston") == (
        "3 May 1813 has already marched; record its battles' results and end the day before "
        "giving 3 Corps new orders")


def test_postponed_battle_keeps_its_commands_in_battle(tmp_path):
    """§3.3 item 4: the umpire postpones the battle of Fenwick a day, with his reason kept."""
    u = battle_setup(tmp_path)
    u.end_day()
    ch = postpone_battle(u.doc, 1, "the Prussian player is away")
    assert ch.lines == ("Umpire: the battle of Fenwick (3 May 1813) is postponed to 4 May 1813: "
                        "the Prussian player is away",)
    with pytest.raises(OrderRefused, match="postponed; it cannot be fought before its day"):
        u.result(1, "French")
    assert u.end_day().report.closed
    assert refused(u, "1 Corps", "Move", "Aston") == (
        "1 Corps is in the battle of Fenwick (4 May 1813), which has no result yet")
    ch = u.end_day()
    assert not ch.report.closed
    u.result(1, "draw")
    assert u.end_day().report.closed
    s = u.state()
    assert s.battles[1].notes == ("postponed to 4 May 1813: the Prussian player is away",)
    assert s.commands["1 Corps"].status is Status.READY and s.date == date(1813, 5, 5)


def test_split_and_merge_battles_keep_the_reasons(tmp_path):
    u = battle_setup(tmp_path)
    u.end_day()
    with pytest.raises(OrderRefused, match="would be left without commands of both sides"):
        split_battle(u.doc, 1, ("1 Corps", "I Corps"), "all of it")
    split_battle(u.doc, 1, ("2 Corps", "II Corps"), "the flank fight")
    b1, b2 = u.state().battles[1], u.state().battles[2]
    assert (b1.french, b1.allied, b1.french_reinforcements) == (("1 Corps",), ("I Corps",), ())
    assert (b2.place, b2.french, b2.allied) == ("Gorton", ("2 Corps",), ("II Corps",))
    assert b2.notes == ("split from the battle of Fenwick (3 May 1813): the flank fight",)
    assert u.state().commands["2 Corps"].battle == 2
    merge_battles(u.doc, 1, 2, "one table")
    b = u.state().battles
    assert list(b) == [1]
    assert (b[1].french, b[1].allied) == (("1 Corps", "2 Corps"), ("I Corps", "II Corps"))
    assert b[1].notes[-1] == "merged with the battle of Gorton (no. 2): one table"
    with pytest.raises(OrderRefused, match="reason must be given"):
        postpone_battle(u.doc, 1, "  ")


def test_a_draw_sends_no_one_back(tmp_path):
    u = battle_setup(tmp_path)
    u.end_day()
    with pytest.raises(OrderRefused, match="'Prussia' is not a result: give French, Allied or"):
        u.result(1, "Prussia")
    ch = u.result(1, "draw")
    assert ch.lines[0] == "the battle of Fenwick (3 May 1813): a draw; both sides stand."
    s = u.state()
    assert {s.commands[n].status for n in s.battles[1].everyone()} == {Status.READY}
    assert s.control["Fenwick"] is Side.ALLIED
    with pytest.raises(OrderRefused, match="already has a result"):
        u.result(1, "French")


def test_casualties_are_not_carried_forward_unless_the_setting_says_so(tmp_path):
    """Seed 000, "Effect of the battle on the campaign": casualties are not carried forward."""
    from campaign1813.campaign.services import record_result

    u = battle_setup(tmp_path)
    u.end_day()
    ch = record_result(u.doc, 1, "French", casualties={"1 Corps": {"1": 2}})
    assert "Casualties are not carried forward (the campaign's setting)." in ch.lines
    assert u.state().commands["1 Corps"].casualties == ()


def test_diary_is_read_from_the_log_and_follows_undo(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Brook")
    u.end_day()
    text = diary_text(u.doc)
    assert text.splitlines() == [
        "1 May 1813: Order: 1 Corps – Move Brook",
        "1 May 1813: 1 Corps marched 10 miles: Aston → Brook.",
        "1 May 1813: 1 Corps has reached Brook at 1600.",  # 10 miles at 15 a day: 8 hours
        "1 May 1813: 1 May 1813 ends.",
    ]
    u.undo()
    assert diary_text(u.doc).splitlines() == ["1 May 1813: Order: 1 Corps – Move Brook"]
    u.order("1 Corps", "Move", "Carden")  # a new action drops the undone end of day
    with pytest.raises(OrderRefused, match="nothing to redo"):
        u.redo()


def test_forced_march_costs_a_casualty_per_infantry_brigade_until_the_next_battle(tmp_path):
    """The forced-march setting's cost: one casualty on each infantry brigade (1–4 here),
    carried to the next battle and spent in it."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Attack", "Fenwick", forced=True)
    ch = u.end_day()
    assert ("1 Corps force-marched: one casualty on each infantry brigade, carried to the next "
            "battle.") in ch.lines
    assert u.state().commands["1 Corps"].casualties == (("1", 1), ("2", 1), ("3", 1), ("4", 1))
    u.end_day()  # 40 miles in two forced days: contact at Elford on 2 May
    assert u.state().commands["1 Corps"].casualties == (("1", 2), ("2", 2), ("3", 2), ("4", 2))
    assert u.state().battles[1].date == date(1813, 5, 2)
    u.result(1, "Allied")
    assert u.state().commands["1 Corps"].casualties == ()


def test_casualties_carried_forward_when_the_setting_says_so(tmp_path):
    from campaign1813.campaign.services import record_result

    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"},
             carry_casualties_forward=True)
    u.order("1 Corps", "Attack", "Fenwick")
    u.end_day()
    u.end_day()
    u.end_day()
    with pytest.raises(OrderRefused, match="2 Corps did not fight in the battle of Fenwick"):
        record_result(u.doc, 1, "French", casualties={"2 Corps": {"1": 1}})
    ch = record_result(u.doc, 1, "French", casualties={"I Corps": {"3": 2, "1": 1}})
    assert ch.lines[-1] == "Casualties are carried forward to the next battle."
    assert u.state().commands["I Corps"].casualties == (("1", 1), ("3", 2))


def test_the_battle_module_may_record_a_side_or_none_for_a_draw(tmp_path):
    from campaign1813.campaign.services import record_result

    u = battle_setup(tmp_path)
    u.end_day()
    record_result(u.doc, 1, Side.ALLIED)
    assert u.state().battles[1].result == "Allied"
    assert u.state().commands["1 Corps"].status is Status.RETREATING
    u.undo()
    record_result(u.doc, 1, None)
    assert u.state().battles[1].result == "draw"
