"""A side's view is a projection (§2, §3.6): built from the side's own commands and the reports
released to it, never from the master state's enemy entries. Worked on the line of towns of
``tests/day/test_scenarios.py``."""

import ast
import inspect
from datetime import date
from pathlib import Path

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day import sideview
from campaign1813.campaign.day.fog import side_inputs
from campaign1813.campaign.day.sideview import ForeignInput, SideInputs, build, view_text
from campaign1813.campaign.scenario.types import Side

from ..day.test_scenarios import make


def _contact(tmp_path, **settings):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True, **settings)
    u.order("1 Corps", "Halt", "Fenwick")
    u.order("I Corps", "Halt", "Aston")
    return u


def test_before_any_report_the_french_see_their_own_and_nothing_of_the_enemy(tmp_path):
    """A side always knows its own commands exactly; of the enemy, only what it was told."""
    u = _contact(tmp_path)
    u.end_day()
    view = queries.side_view(u.doc, Side.FRENCH)
    assert view.banner == "As the French: test, 2 May 1813"
    assert [i.label for i in view.map_items] == ["Armée HQ", "1 Corps"]
    assert view.table[2] == ("1 Corps", "Armée", "5 miles from Brook on the road to Carden",
                             "ready", "1 Corps – Halt Fenwick", "22,000")
    assert view.enemy_oob == ("No report of the enemy has reached the CinC.",)
    text = view_text(view)
    assert "I Corps" not in text and "Prussians" not in text and "Easthall" not in text.split(
        "Map:")[1].split("Commands:")[0]


def test_contact_puts_the_enemy_on_the_sides_map_with_when_and_how(tmp_path):
    """After contact on 2 May at 1200 the French see I Corps at Dunmore, exactly, fresh."""
    u = _contact(tmp_path)
    u.end_day()
    u.end_day()
    view = queries.side_view(u.doc, Side.FRENCH)
    enemy = [i for i in view.map_items if not i.own]
    assert [(i.label, i.town, i.faded) for i in enemy] == [("I Corps (seen 2 May)", "Dunmore",
                                                            False)]
    assert enemy[0].tooltip == ("I Corps at Dunmore (22,000 men), seen 2 May 1813 12:00 by "
                                "1 Corps, known 2 May 1813")
    assert view.enemy_oob == ("I Corps: 22,000 men, at Dunmore (seen 2 May 1813, known "
                              "2 May 1813)",)
    assert "Report: I Corps at Dunmore (22,000 men), seen 2 May 1813 12:00 by 1 Corps, known " \
        "2 May 1813." in view.day_report


def test_an_old_report_is_drawn_faded_with_its_date(tmp_path):
    """Staleness: a sighting seen before the day just past is faded on the map."""
    u = _contact(tmp_path)
    u.end_day()
    u.end_day()
    u.order("I Corps", "Move", "Easthall")  # I Corps goes off; the French keep the old word
    u.order("1 Corps", "Hold", "Carden")
    u.end_day()
    u.end_day()
    view = queries.side_view(u.doc, Side.FRENCH)
    (old,) = [i for i in view.map_items if not i.own]
    assert view.day == date(1813, 5, 5)
    assert old.faded and old.label == "I Corps (seen 2 May)" and old.town == "Dunmore"


def test_a_held_report_is_not_in_the_sides_view_until_released(tmp_path):
    """release = umpire: nothing reaches the French until the umpire releases it."""
    u = _contact(tmp_path, release="umpire")
    u.end_day()
    u.end_day()
    assert "I Corps" not in view_text(queries.side_view(u.doc, Side.FRENCH))
    services.release_reports(u.doc)
    assert "I Corps at Dunmore" in view_text(queries.side_view(u.doc, Side.FRENCH))


def test_with_fog_off_a_side_sees_every_enemy_command(tmp_path):
    """Fog off keeps today's way: nothing is hidden, the enemy shown exactly."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    view = queries.side_view(u.doc, Side.FRENCH)
    assert "I Corps: 22,000 men, at Fenwick (seen 1 May 1813, known 1 May 1813)" in \
        view.enemy_oob


def test_build_refuses_anything_of_the_other_side(tmp_path):
    """The projection checks its inputs: an Allied command or report handed to the French view
    is refused, naming it."""
    u = _contact(tmp_path)
    u.end_day()
    u.end_day()
    state = u.state()
    ground = u.ground().adjusted(state.settings)
    french = side_inputs(ground, state, Side.FRENCH, "test")
    allied = side_inputs(ground, state, Side.ALLIED, "test")
    with pytest.raises(ForeignInput, match="Prussians HQ is not a French command"):
        build(SideInputs(french.campaign, Side.FRENCH, french.day,
                         french.own + allied.own, french.armies, french.objectives,
                         french.sightings, french.towns))
    with pytest.raises(ForeignInput, match="a report to the Allied is not the French'"):
        build(SideInputs(french.campaign, Side.FRENCH, french.day, french.own, french.armies,
                         french.objectives, allied.sightings, french.towns))


def test_the_projection_takes_no_master_state_by_construction():
    """The view module imports nothing that holds the master state (import-linter keeps it
    so too), and ``build`` takes one argument, the side's own inputs."""
    tree = ast.parse(Path(sideview.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"datetime", "typing", "msgspec", "campaign1813.campaign.calendar",
                        "campaign1813.campaign.errors", "campaign1813.campaign.scenario.types"}
    params = inspect.signature(build).parameters
    assert list(params) == ["inputs"] and params["inputs"].annotation in (SideInputs,
                                                                          "SideInputs")


def test_a_sides_diary_holds_its_own_commands_days_and_nothing_of_the_enemys(tmp_path):
    """The side's diary is made from its own records too: each day its commands' marches
    (from the dawns the campaign keeps), beside the reports that reached its CinC; the enemy's
    marches are in it only as reports. 1 Corps halts towards Fenwick from Aston, 15 miles on
    1 May (5 miles from Brook on the road to Carden), into contact on 2 May."""
    u = _contact(tmp_path)
    u.end_day()
    view = queries.side_view(u.doc, Side.FRENCH)
    assert view.diary == ("1 May 1813:",
                          "  1 Corps marched from Aston to 5 miles from Brook on the road to "
                          "Carden.")
    u.end_day()
    u.end_day()
    diary = queries.side_view(u.doc, Side.FRENCH).diary
    assert "2 May 1813:" in diary
    assert not any("I Corps marched" in line for line in diary)
    allied = queries.side_view(u.doc, Side.ALLIED).diary
    assert any(line.startswith("  I Corps marched from Fenwick") for line in allied)
    assert not any("1 Corps marched" in line for line in allied)


def test_a_sides_diary_refuses_another_sides_day():
    """The side's own records hold only its own commands' days (ForeignInput otherwise)."""
    inputs = SideInputs("test", Side.FRENCH, date(1813, 5, 2), (), (), (), (), (),
                        journal=(sideview.OwnMove(date(1813, 5, 1), Side.ALLIED, "I Corps",
                                                  "I Corps marched from Fenwick to Eyrie"),))
    with pytest.raises(ForeignInput, match="I Corps is not a French command"):
        build(inputs)
