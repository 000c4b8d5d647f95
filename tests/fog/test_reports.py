"""What each side knows is data: the day's reports of the enemy, worked by hand on the line of
towns of ``tests/day/test_scenarios.py`` (Westhall –100– Aston –10– Brook –10– Carden –10–
Dunmore –10– Elford –10– Fenwick …; 15 miles a day on roads in 12 hourly steps from 0800;
contact at 10 miles). A builders' corps is four infantry brigades, a cavalry brigade and a
battery: 4 × 5,000 + 1,500 + 500 = 22,000 men (record 0025)."""

import sqlite3
from datetime import date

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.day.intelligence import known_day, strength
from campaign1813.campaign.day.reports import Band, How, band_of
from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.store.document import open_campaign

from ..day.test_scenarios import make


def test_fog_off_makes_no_reports_and_keeps_the_day_as_it_was(tmp_path):
    """Fog off (the default) keeps today's behaviour: the same day, no report made."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    ch = u.end_day()
    assert u.state().reports == {}
    assert not any("Reports of the enemy" in line for line in ch.lines)
    assert u.dump()["reports"] == {}


def test_contact_tells_both_sides_the_enemy_exactly_at_the_hour_it_halted_them(tmp_path):
    """§3.6 / seed 000's campaign: contact at contact_miles tells each side the enemy's name
    and exact strength. On 2 May the columns close 10 miles in 4 hourly steps: contact at 1200,
    1 Corps at Carden, I Corps at Dunmore; messengers off, so known the same day."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True)
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    assert u.state().reports == {}  # 20 miles apart on the first evening: nothing seen
    ch = u.end_day()
    assert "Reports of the enemy: 2 made." in ch.lines
    reports = sorted(u.state().reports.values(), key=lambda r: r.side)
    allied, french = reports
    assert french.side == "French" and french.subject == "I Corps"
    assert french.place == "Dunmore" and french.how is How.CONTACT
    assert french.band is Band.EXACT and french.men == 22_000 and french.identity
    assert (french.seen_day, french.seen_hour, french.known_day) == (
        date(1813, 5, 2), "1200", date(1813, 5, 2))
    assert french.released
    assert french.text() == ("I Corps at Dunmore (22,000 men), seen 2 May 1813 12:00 by "
                             "1 Corps, known 2 May 1813")
    assert allied.side == "Allied" and allied.subject == "1 Corps" and allied.place == "Carden"


def test_a_recce_order_sees_further_but_only_a_corps_of_about_so_many(tmp_path):
    """A Recce order's wider reach (recce_miles, 20 by default): on 1 May evening 1 Corps
    (Recce on Fenwick) is 15 miles out of Aston and I Corps 15 out of Fenwick, 20 apart: the
    French learn of an Allied corps about 20,000 strong (22,000 to the nearest 5,000), not its
    name; the Allies, with no Recce, learn nothing."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True)
    u.order("1 Corps", "Recce", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    (report,) = u.state().reports.values()
    assert (report.side, report.how, report.band, report.men) == (
        "French", How.RECCE, Band.ABOUT, 20_000)
    assert not report.identity and report.name == "an Allied corps"
    assert report.seen_hour == "2000"
    assert report.text() == ("an Allied corps at 5 miles from Dunmore on the road to Elford "
                             "(about 20,000), seen 1 May 1813 20:00 by 1 Corps' cavalry, "
                             "known 1 May 1813")


def test_a_recce_at_ten_miles_reach_sees_nothing_twenty_miles_off(tmp_path):
    """recce_miles is a setting: at 10 the same 20 miles hide I Corps."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True, recce_miles=10)
    u.order("1 Corps", "Recce", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    assert u.state().reports == {}


def test_reports_are_undone_with_the_day(tmp_path):
    """The reports are kept in the log: undoing End Day takes them back, redo puts them again."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True)
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    u.end_day()
    made = dict(u.state().reports)
    assert len(made) == 2
    u.undo()
    assert u.state().reports == {}
    u.redo()
    assert u.state().reports == made
    assert queries.state_json(u.doc)["reports"]["1"]["subject"] in ("I Corps", "1 Corps")


def test_the_umpire_release_mode_holds_the_days_reports(tmp_path):
    """release = umpire: the day's reports are made but held until he releases them."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True,
             release="umpire")
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    ch = u.end_day()
    assert "Reports of the enemy: 2 made, 2 held for the umpire." in ch.lines
    assert not any(r.released for r in u.state().reports.values())


def test_the_fog_settings_are_checked_like_the_others(tmp_path):
    """The three settings are read and refused as the umpire types them."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    services.change_setting(u.doc, "fog", "on")
    services.change_setting(u.doc, "recce_miles", "25")
    services.change_setting(u.doc, "release", "Umpire")
    assert u.state().settings == {"fog": True, "recce_miles": 25.0, "release": "umpire"}
    with pytest.raises(Exception, match="release must be end of day or umpire, not 'later'"):
        services.change_setting(u.doc, "release", "later")


def test_a_messenger_brings_a_sighting_a_day_for_each_sixty_miles_begun(tmp_path):
    """With messengers on (60 miles a day), a sighting at Dunmore reaches the CinC at
    Westhall, 100 + 30 = 130 miles off, on the third day after: ceil(130 / 60) = 3."""
    u = make(tmp_path, {"1 Corps": "Carden"}, {"I Corps": "Dunmore"}, fog=True,
             messenger_orders=True)
    state = u.state()
    ground = u.ground().adjusted(state.settings)
    seer = state.commands["1 Corps"]
    assert known_day(ground, state, seer, Position("Dunmore"), date(1813, 5, 2)) == \
        date(1813, 5, 5)
    # at the CinC's own HQ: the same day
    assert known_day(ground, state, seer, Position("Westhall"), date(1813, 5, 2)) == \
        date(1813, 5, 2)


def test_strength_is_the_brigades_less_the_carried_casualties(tmp_path):
    """22,000 men; seven casualties carried cost 7 × 625 = 4,375: 17,625, about 20,000."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    state = u.state()
    ground = u.ground()
    assert strength(ground, state.commands["I Corps"]) == 22_000
    state.update("I Corps", casualties=(("1", 3), ("2", 4)))
    assert strength(ground, state.commands["I Corps"]) == 17_625
    assert band_of(17_625) == 20_000 and band_of(1_000) == 5_000


def _held_contact(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True,
             release="umpire")
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    u.end_day()
    numbers = {r.side: r.id for r in u.state().reports.values()}
    return u, numbers


def test_the_umpire_releases_holds_edits_and_adds_each_logged_and_undone(tmp_path):
    """§3.6: before a report reaches a side the umpire may hold it back, edit what it says or
    add his own; each act is one logged action, and undo takes it back."""
    u, numbers = _held_contact(tmp_path)
    french = numbers["French"]
    ch = services.release_reports(u.doc, [french])
    assert ch.label == "Release 1 report" and ch.reports == frozenset({french})
    assert u.state().reports[french].released
    assert not u.state().reports[numbers["Allied"]].released
    ch = services.edit_report(u.doc, french, town="Elford", band="about", men=30_000,
                              identity=False, note="a deserter's word")
    assert ch.lines == (f"Report {french} edited: an Allied corps at Elford (about 30,000), "
                        "seen 2 May 1813 12:00 by 1 Corps, known 2 May 1813; a deserter's "
                        "word.",)
    services.hold_report(u.doc, french)
    assert not u.state().reports[french].released
    ch = services.add_report(u.doc, "French", "II Corps", "Gorton", band="kind",
                             identity=True, released=True)
    (added,) = ch.reports
    rumour = u.state().reports[added]
    assert rumour.text() == ("II Corps at Gorton (a corps), seen 3 May 1813 08:00 by the "
                             "umpire, known 3 May 1813")
    for label in ("Undo Report for the French: II Corps", f"Undo Hold report {french}",
                  f"Undo Edit report {french}", "Undo Release 1 report"):
        assert u.undo().label == label
    assert not any(r.released for r in u.state().reports.values())
    assert u.state().reports[french].place == "Dunmore"


def test_the_umpires_acts_are_refused_with_the_reason_and_change_nothing(tmp_path):
    """A report that does not exist, one released twice, a side's own command: refused."""
    u, numbers = _held_contact(tmp_path)
    before = u.dump()
    with pytest.raises(Exception, match="there is no report number 99 in this campaign"):
        services.hold_report(u.doc, 99)
    with pytest.raises(Exception, match=f"report {numbers['French']} is held back already"):
        services.hold_report(u.doc, numbers["French"])
    with pytest.raises(Exception, match="1 Corps is a French command: a side always knows its "
                                        "own commands"):
        services.add_report(u.doc, "French", "1 Corps", "Aston")
    with pytest.raises(Exception, match="a report is for the French or the Allied, not 'Swiss'"):
        services.add_report(u.doc, "Swiss", "I Corps", "Aston")
    assert u.dump() == before
    services.release_reports(u.doc)
    with pytest.raises(Exception, match="no report is held back: there is nothing to release"):
        services.release_reports(u.doc)


def test_a_battle_tells_each_side_every_enemy_command_in_it(tmp_path):
    """§3.6: a battle fought. 1 Corps attacks I Corps at Elford from Carden (20 miles): contact
    at 10 miles, at 1600; II Corps at Fenwick, 10 miles off, marches to the sound of the guns,
    so the French learn of it too, exactly, as they learn of I Corps."""
    u = make(tmp_path, {"1 Corps": "Carden"}, {"I Corps": "Elford", "II Corps": "Fenwick"},
             fog=True)
    u.order("1 Corps", "Attack", "Elford")
    u.order("I Corps", "Hold", "Elford")
    ch = u.end_day()
    assert "  II Corps (Allied) march to the sound of the guns, on the table at turn 4." in \
        ch.lines
    french = sorted((r.subject, r.place, r.how, r.band, r.men, r.seen_hour)
                    for r in u.state().reports.values() if r.side == "French")
    assert french == [("I Corps", "Elford", How.BATTLE, Band.EXACT, 22_000, "1600"),
                      ("II Corps", "Fenwick", How.BATTLE, Band.EXACT, 22_000, "1600")]
    allied = [(r.subject, r.place) for r in u.state().reports.values() if r.side == "Allied"]
    assert allied == [("1 Corps", "Dunmore")]


def test_a_damaged_report_row_is_refused_naming_it(tmp_path):
    """A day_report row that is no report (its band unknown) is refused with its table and
    number when the campaign is opened, as a damaged command or order is."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True)
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    u.end_day()
    u.end_day()
    path = u.doc.path
    u.doc.close()
    con = sqlite3.connect(path)
    con.execute("UPDATE day_report SET band = 'rumour' WHERE id = 1")
    con.commit()
    con.close()
    with pytest.raises(CampaignFileError, match="is damaged: day_report row 1: Invalid enum "
                                                "value 'rumour'"):
        open_campaign(path)


def test_each_campaign_issues_each_side_a_key_of_its_own(tmp_path):
    """Two campaigns, two sides: four different keys of 256 bits, read through the store."""
    keys = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        u = make(tmp_path / name, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
        with u.doc.read() as reader:
            keys += [reader.side_key("French"), reader.side_key("Allied")]
    assert len(set(keys)) == 4 and all(len(k) == 32 for k in keys)
