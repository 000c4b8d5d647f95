"""A battle fought step by step at the table is one entry of the diary: its result, closed by
the line that links to its full report; the steps and the report stay with the battle.

The battle is the campaign's battle of Magdeburg (6 May 1813: I Prussian Corps attacks 5 Corps),
fought by ruleset 002 with typed dice to its end in 2 turns and 44 steps, then finished into
the campaign.
"""

from __future__ import annotations

import shutil
from datetime import date

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.store.document import open_campaign

A1, A2, A3, A4 = (f"I Prussian Corps/{n}" for n in (1, 2, 3, 4))
ACAV, AART = "I Prussian Corps/1 cavalry", "I Prussian Corps/artillery"
F17, F19, F20 = "5 Corps/17", "5 Corps/19", "5 Corps/20"
FART = "5 Corps/artillery"
RESULT = ("the battle of Magdeburg (6 May 1813): the Allied win; they take Magdeburg.",
          "I Prussian Corps rest on 7 May 1813; 5 Corps must retreat.",
          "Casualties are not carried forward (the campaign's setting).",
          "Objective met: the Allied hold Magdeburg (Northern Germany: Cross the Elbe and take "
          "Magdeburg.)",
          "Full report: the battle of Magdeburg (6 May 1813), battle 1")


def schedule(doc) -> None:
    """I Prussian Corps attacks Magdeburg; six days later battle 1 is due there."""
    services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
    for _ in range(6):
        services.end_day(doc)


def fight(doc, step=services.battle_action, setup=services.open_battle) -> int:
    """Open battle 1 by ruleset 002 and fight it with typed dice until it is decided (the
    Allies eliminate 3 of the 6 French units), each step by ``step`` (the service, or the
    window's way of running it); the number of steps taken."""
    steps = 0

    def act(action, *typed, **inputs):
        nonlocal steps
        steps += 1
        step(doc, 1, action, typed=list(typed) or None, **inputs)

    def skip(n=1):
        for _ in range(n):
            act("next")

    setup(doc, 1, ruleset="002")
    act("sides", 5)
    skip(2)
    act("shoot", 6, unit=AART, target=F19)
    skip()
    act("shoot", 5, unit=FART, target=A3)
    skip()
    act("shoot", 6, unit=A2, target=F19)
    skip(2)
    act("shoot", 6, unit=A3, target=F19)
    act("shoot", 6, unit=A4, target=F20)
    act("shoot", 6, unit=A1, target=F20)
    skip()
    act("shoot", 4, unit=F17, target=A3)
    skip(3)
    act("charge", unit=ACAV, target=FART)
    skip(4)
    act("sides", 6)
    skip(2)
    act("shoot", 3, unit=AART, target=F20)
    return steps


@pytest.fixture(scope="module")
def fought(tmp_path_factory, campaign_template):
    """The campaign with battle 1 fought at the table and finished."""
    path = tmp_path_factory.mktemp("fought") / "fought.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        schedule(doc)
        assert fight(doc) == 27
        services.battle_action(doc, 1, "finish")
    return path


def test_a_battle_fought_step_by_step_is_one_entry_of_the_diary_with_its_result(fought):
    with open_campaign(fought) as doc:
        entries = queries.diary(doc)
        report = queries.battle_report(doc, 1)
    # The day that found the battle says so; what follows in the diary is the battle's one
    # entry: a single action, its result and the link.
    found = next(e for e in entries if e.text.startswith("Battle: the battle of Magdeburg"))
    of_battle = [e for e in entries if e.seq > found.seq]
    assert len({e.seq for e in of_battle}) == 1
    assert tuple(e.text for e in of_battle) == RESULT
    assert [e.report for e in of_battle] == [None] * 4 + [1]
    # Neither the setup, nor a step, nor a line of the report is in the diary.
    texts = [e.text for e in entries]
    assert not any(t.startswith(("Open the battle", "Turn ", "  ", "Sides:")) for t in texts)
    assert len(entries) == len(set((e.seq, e.text) for e in entries))
    # The report stays with the battle: every step, from the sides to the result.
    assert (report.battle, report.title, report.day) == (
        1, "the battle of Magdeburg (6 May 1813)", date(1813, 5, 6))
    assert report.lines[0] == "The battle of Magdeburg (6 May 1813)"
    assert "Sides: rolled 5 – side A: Allied" in report.lines
    assert report.lines[-1] == ("The battle is finished: the Allied win – the Allied have "
                                "eliminated 3 of the 6 French units (needed 3)")


def test_the_report_of_a_battle_still_on_the_table_is_its_report_so_far(fought, tmp_path):
    path = tmp_path / "c.c1813"
    shutil.copy(fought, path)
    with open_campaign(path) as doc:
        services.undo(doc)  # the finish: the battle is back on the table, decided
        assert not any(e.report for e in queries.diary(doc))
        report = queries.battle_report(doc, 1)
        assert report.lines[-1] == ("Result: the Allied win – the Allied have eliminated 3 "
                                    "of the 6 French units (needed 3)")
        assert report.day == date(1813, 5, 6)
