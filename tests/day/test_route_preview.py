"""The route preview: the miles, marching days and arrival an order would give, before it is
given, worked by hand from the 1813 scenario's road miles and the march rates (§3.3 item 2:
foot 15 miles a day on roads, 10 off them; HQ 30 and 15; forced march +5), over his 0800–2000
marching day."""

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.queries import RouteLeg, route_preview
from campaign1813.campaign.store.document import open_campaign

from .test_scenarios import battle_setup


@pytest.fixture
def doc(tmp_path, fresh_campaign):
    d = open_campaign(fresh_campaign(tmp_path / "war.c1813"))
    yield d
    d.close()


def test_a_corps_at_its_town_marches_the_sum_of_the_roads(doc):
    """5 Corps at Magdeburg to Berlin by main roads: Burg 16.5 + Genthin 18.5 + Brandenburg
    18.5 + Potsdam 26 + Berlin 19.5 = 99 miles; at 15 a day 6.6 days, so the 7th day (7 May),
    0.6 of its 12 hours after 0800 = 1512."""
    p = route_preview(doc, "5 Corps", "Move", "Berlin")
    assert p.refusal is None
    assert p.towns == ("Burg", "Genthin", "Brandenburg", "Potsdam", "Berlin")
    assert p.legs == (RouteLeg("Magdeburg", "Burg", 0.0, 16.5),
                      RouteLeg("Burg", "Genthin", 0.0, 18.5),
                      RouteLeg("Genthin", "Brandenburg", 0.0, 18.5),
                      RouteLeg("Brandenburg", "Potsdam", 0.0, 26.0),
                      RouteLeg("Potsdam", "Berlin", 0.0, 19.5))
    assert (p.miles, p.days, p.arrival) == (99.0, 7, "7 May 1813, 15:12")
    assert p.text == "99 miles, 7 days of march; arrives 7 May 1813, 15:12"


def test_a_forced_march_adds_five_miles_a_day(doc):
    """The same 99 miles at 15 + 5 = 20 a day: 4.95 days, the 5th day at 0800 + 0.95 × 12 h
    = 1924."""
    p = route_preview(doc, "5 Corps", "Move", "Berlin", forced=True)
    assert (p.miles, p.days, p.arrival, p.forced) == (99.0, 5, "5 May 1813, 19:24", True)


def test_an_hq_rides_the_track_at_the_off_road_rate_as_the_day_does(doc):
    """Second French Army HQ, Hamburg to Magdeburg: 134 miles of road at 30 a day (4.4667
    days) and the 22.5-mile track Gardelegen–Colbitz at 15 (1.5 days): 5.9667 days, the 6th
    day at 0800 + 0.9667 × 12 h = 1936 — and the day's march agrees."""
    p = route_preview(doc, "Second French Army HQ", "Move", "Magdeburg")
    assert p.towns == ("Harburg", "Lüneburg", "Uelzen", "Gardelegen", "Colbitz",
                       "Wolmirstedt", "Magdeburg")
    assert (p.miles, p.days, p.arrival) == (156.5, 6, "6 May 1813, 19:36")
    services.issue_order(doc, "Second French Army HQ", "Move", "Magdeburg")
    for _ in range(6):
        services.end_day(doc)
    assert "6 May 1813: Second French Army HQ has reached Magdeburg at 1936." in \
        queries.diary_text(doc).splitlines()


def test_a_command_on_the_road_marches_from_where_it_stands(doc):
    """5 Corps ordered to Burg marches 15 of the 16.5 miles on 1 May and stands 1.5 from Burg
    (it arrives on 2 May at 0800 + 0.1 × 12 h = 0912, as the preview said). Ordered on from
    there to Berlin: 1.5 + 82.5 = 84 miles, 5.6 days from 2 May: 7 May at 1512; back to
    Magdeburg: 15 miles, one whole day, 2 May at 2000."""
    assert route_preview(doc, "5 Corps", "Move", "Burg").arrival == "2 May 1813, 09:12"
    services.issue_order(doc, "5 Corps", "Move", "Burg")
    services.end_day(doc)
    p = route_preview(doc, "5 Corps", "Move", "Berlin")
    assert p.legs[0] == RouteLeg("Magdeburg", "Burg", 15.0, 16.5)
    assert p.towns[0] == "Burg" and p.towns[-1] == "Berlin"
    assert (p.miles, p.days, p.arrival) == (84.0, 6, "7 May 1813, 15:12")
    back = route_preview(doc, "5 Corps", "Move", "Magdeburg")
    assert back.legs == (RouteLeg("Burg", "Magdeburg", 1.5, 16.5),)
    assert (back.miles, back.days, back.arrival) == (15.0, 1, "2 May 1813, 20:00")


def test_hold_does_not_march(doc):
    p = route_preview(doc, "5 Corps", "hold", "Magdeburg")
    assert (p.verb, p.towns, p.legs, p.miles, p.days, p.arrival, p.refusal) == \
        ("Hold", ("Magdeburg",), (), 0.0, 0, "", None)
    assert p.text == "5 Corps stands at Magdeburg: no march"


def test_a_refused_order_carries_the_order_checks_reason_and_changes_nothing(doc):
    before = queries.state_json(doc)
    p = route_preview(doc, "5 Corps", "Move", "Atlantis")
    assert p.refusal == "order for 5 Corps refused: no town called 'Atlantis' on the map"
    assert (p.towns, p.legs, p.miles, p.days) == ((), (), 0.0, 0)
    assert route_preview(doc, "5 Corps", "Hold", "Burg").refusal == \
        "5 Corps cannot hold at Burg: it stands at Magdeburg"
    assert queries.state_json(doc) == before


def test_a_resting_command_is_refused_and_a_retreat_may_only_go_where_it_may(tmp_path):
    """After the French win at Fenwick, 1 Corps rests on 4 May; I Corps must retreat, to
    Gorton (6 miles) or Hexham, not Elford."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.result(1, "French")
    u.end_day()
    p = route_preview(u.doc, "1 Corps", "Move", "Gorton")
    assert p.refusal == "1 Corps is resting on 4 May 1813 after winning at Fenwick"
    assert route_preview(u.doc, "I Corps", "Move", "Elford").refusal == (
        "I Corps must retreat on 4 May 1813 after losing at Fenwick: "
        "it may retreat to Gorton or Hexham, not Elford")
    gorton = route_preview(u.doc, "I Corps", "Move", "Gorton")
    assert (gorton.refusal, gorton.towns, gorton.miles, gorton.days) == \
        (None, ("Gorton",), 6.0, 1)
    assert gorton.arrival == "4 May 1813, 12:48"  # 6 / 15 of 12 h = 4 h 48 min after 0800


def test_an_order_by_messenger_marches_a_day_late(doc):
    """With messengers on, 5 Corps at Magdeburg is 156.5 road miles from its HQ at Hamburg,
    beyond the 60 a messenger rides: the order takes effect on 2 May, so the 1.1 days to Burg
    end on 3 May at 0912 — as the day's march does it."""
    services.change_setting(doc, "messenger_orders", "on")
    p = route_preview(doc, "5 Corps", "Move", "Burg")
    assert (p.by_messenger, p.days, p.arrival) == (True, 2, "3 May 1813, 09:12")
    assert p.text == ("16.5 miles, 2 days of march; arrives 3 May 1813, 09:12 "
                      "(the order goes by messenger)")
    services.issue_order(doc, "5 Corps", "Move", "Burg")
    for _ in range(3):
        services.end_day(doc)
    assert "3 May 1813: 5 Corps has reached Burg at 0912." in queries.diary_text(doc).splitlines()
