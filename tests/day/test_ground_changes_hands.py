"""The winner takes the ground, and cut-off commands and break-outs make sense: the Eastern Spain
situation of Rosas and Figueras, and Magdeburg taken and retaken, on the shipped map."""

from datetime import date

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.aftermath import retreat_destinations
from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign


@pytest.fixture
def doc(tmp_path, fresh_campaign):
    with open_campaign(fresh_campaign(tmp_path / "spain.c1813")) as d:
        yield d


def state(doc):
    return queries.day_state(doc)


def end_day(doc):
    return services.end_day(doc)


def test_rosas_and_figueras(doc):
    # 1 May: 4 Spanish Corps (Olot) attacks 15 Corps at Figueras; contact on 2 May.
    services.issue_order(doc, "4 Spanish Corps", "Attack", "Figueras")
    services.issue_order(doc, "15 Corps", "Hold", "Figueras")
    end_day(doc)
    ch = end_day(doc)
    battle = state(doc).battles[ch.report.battles[0]]
    assert (battle.place, battle.french, battle.allied) == (
        "Figueras", ("15 Corps",), ("4 Spanish Corps",))
    ch = services.record_result(doc, battle.id, "Allied")
    assert ch.lines[0] == "the battle of Figueras (2 May 1813): the Allied win; they take Figueras."
    end_day(doc)
    # 3 May: 15 Corps retreats into the dead end of Rosas, away from the winner on the Olot
    # road; 4 Spanish Corps, resting, moves into Figueras once 15 Corps has left it.
    assert set(state(doc).battles) == {1}
    assert sorted(queries.campaign_status(doc).command("15 Corps").retreats) == [
        "Gerona", "La Junquera", "Rosas"]
    services.issue_order(doc, "15 Corps", "Move", "Rosas")
    ch = end_day(doc)
    assert "4 Spanish Corps occupies Figueras, the ground 15 Corps held." in ch.lines
    s = state(doc)
    assert s.commands["4 Spanish Corps"].position == Position("Figueras")
    assert s.commands["15 Corps"].position == Position("Rosas")
    assert s.control["Figueras"] is Side.ALLIED
    # 4 May: 4 Spanish Corps attacks Rosas and wins again: 15 Corps, in a dead end, is cut off.
    services.issue_order(doc, "4 Spanish Corps", "Attack", "Rosas")
    ch = end_day(doc)
    battle = state(doc).battles[ch.report.battles[0]]
    assert battle.place == "Rosas"
    services.record_result(doc, battle.id, "Allied")
    assert state(doc).commands["15 Corps"].status is Status.CUT_OFF
    # Its ways out lead somewhere: past the blocking corps to Figueras and beyond, never back
    # into Rosas nor onto the ground where the winner stands.
    options = queries.breakouts(doc, "15 Corps")
    assert [o.town for o in options] == ["Figueras", "Gerona", "La Junquera", "Olot"]
    assert all(o.through == ("4 Spanish Corps",) for o in options)
    end_day(doc)
    services.choose_retreat(doc, "15 Corps", "break-out", "La Junquera")
    ch = end_day(doc)
    # 5 May: the break-out is fought where the blocking corps stands, on the Figueras road,
    # named after the nearer town; the French attack.
    battle = state(doc).battles[ch.report.battles[0]]
    s = state(doc)
    blocker = s.commands["4 Spanish Corps"].position
    assert blocker.b is not None and {blocker.a, blocker.b} == {"Figueras", "Rosas"}
    assert (battle.place, battle.attacker) == ("Figueras", Side.FRENCH)
    ch = services.record_result(doc, battle.id, "French")
    # Fought on the road: the winners take the field, not Figueras behind the beaten corps.
    assert ch.lines[0] == ("the battle of Figueras (5 May 1813): the French win; "
                           "they take the field.")
    s = state(doc)
    assert s.control["Figueras"] is Side.ALLIED
    # 4 Spanish Corps is not cut off: it may retreat away from the winner, through Figueras.
    assert s.commands["4 Spanish Corps"].status is Status.RETREATING
    retreats = retreat_destinations(doc.ground(), s, "4 Spanish Corps")
    assert sorted(retreats) == ["Figueras", "La Junquera", "Olot"]
    end_day(doc)
    services.issue_order(doc, "4 Spanish Corps", "Move", "Olot")
    ch = end_day(doc)
    # and once it has gone, the French stand on the road it held
    assert state(doc).commands["15 Corps"].position == blocker


def test_magdeburg_taken_and_retaken(doc, capsys):
    """Ten days in Northern Germany: 5 Corps holds Magdeburg; I Prussian Corps takes it, then
    loses it again to 5 Corps; the objectives and the diary say so."""
    services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
    services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
    battles = []
    for _ in range(8):
        ch = end_day(doc)
        if ch.report and ch.report.battles:
            battles = list(ch.report.battles)
            break
    assert state(doc).battles[battles[0]].place == "Magdeburg"
    taken = state(doc).date
    ch = services.record_result(doc, battles[0], "Allied")
    assert state(doc).control["Magdeburg"] is Side.ALLIED
    assert ("Objective met: the Allied hold Magdeburg (Northern Germany: Cross the Elbe and "
            "take Magdeburg.)") in ch.lines
    # (the French objective names Wittenberg too, which nobody holds yet: it was not met)
    assert queries.campaign_status(doc).objectives[0].towns[0].holder is Side.ALLIED
    allied = queries.campaign_status(doc).objectives[2]
    assert (allied.met, allied.since) == (True, taken)
    end_day(doc)
    retreat = sorted(queries.campaign_status(doc).command("5 Corps").retreats)[0]
    services.issue_order(doc, "5 Corps", "Move", retreat)
    ch = end_day(doc)
    s = state(doc)
    # The Prussians move in as 5 Corps marches out: the town, the positions and the next
    # day's contacts agree.
    assert s.commands["I Prussian Corps"].position == Position("Magdeburg")
    assert s.control["Magdeburg"] is Side.ALLIED
    assert "I Prussian Corps occupies Magdeburg, the ground 5 Corps held." in ch.lines
    # 5 Corps turns about and retakes it.
    services.issue_order(doc, "5 Corps", "Attack", "Magdeburg")
    for _ in range(3):
        ch = end_day(doc)
        if ch.report and ch.report.battles:
            break
    battle = state(doc).battles[ch.report.battles[0]]
    assert battle.place == "Magdeburg" and battle.attacker is Side.FRENCH
    ch = services.record_result(doc, battle.id, "French")
    assert "they take Magdeburg" in ch.lines[0]
    assert state(doc).control["Magdeburg"] is Side.FRENCH
    assert ("Objective lost: the Allied no longer hold Magdeburg (Northern Germany: Cross the "
            "Elbe and take Magdeburg.)") in ch.lines
    while state(doc).date < date(1813, 5, 11):  # the rest of the ten days
        if queries.campaign_status(doc).command("I Prussian Corps").must_retreat_today:
            way = sorted(queries.campaign_status(doc).command("I Prussian Corps").retreats)
            services.issue_order(doc, "I Prussian Corps", "Move", way[0])
        end_day(doc)
    diary = queries.diary_text(doc)
    assert diary.count("Objective met: the Allied hold Magdeburg") == 1
    assert diary.count("Objective lost: the Allied no longer hold Magdeburg") == 1
    retaken = battle.date
    french = queries.campaign_status(doc).objectives[0]
    assert french.towns[0].holder is Side.FRENCH and french.towns[0].since == retaken
    from campaign1813.campaign.cli import main

    assert main(["objectives", str(doc.path)]) == 0
    out = capsys.readouterr().out
    assert (f"3. Allied, Northern Germany: Cross the Elbe and take Magdeburg. — not met "
            f"(Magdeburg: French since {retaken.day} May 1813)") in out
