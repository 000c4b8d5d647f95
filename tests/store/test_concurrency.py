"""Two processes on one file never lose an acknowledged action.

Two forked processes each open the same campaign, wait at a barrier, and take one action at
the same moment: orders, End Day, Undo, a result, an auto-resolve and a battle set up on the
table, in the combinations below (each raced twice, so 20 races). Each reports whether its
action was acknowledged or refused (busy, or refused by the rules) with the label or the
reason. The file must then hold exactly what one of the two serial orders gives (A then B, or
B then A, run on copies made before the race, a busy refusal left out), with the same
acknowledgements and refusals, and every acknowledged action's effect must be there.

A direct test holds the file from another connection, as a writer (``BEGIN IMMEDIATE``), as a
writer in its commit (``BEGIN EXCLUSIVE``) and as a reader the commit must wait for: every
action is refused with the busy message, the file byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import shutil
import sqlite3
from collections.abc import Callable
from datetime import date, timedelta
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.store import document
from campaign1813.campaign.store.document import CampaignBusy, CampaignDocument, open_campaign
from campaign1813.campaign.store.protocol import LogStep
from tests.day.test_scenarios import battle_setup, make

Action = Callable[[CampaignDocument], services.Changes]
Outcome = tuple[str, str]  # ("acknowledged", label) | ("refused", reason) | ("busy", message)


def order(command: str, verb: str, town: str) -> Action:
    def act(doc: CampaignDocument) -> services.Changes:
        return services.issue_order(doc, command, verb, town)

    act.__name__ = f"order {command} {verb} {town}"
    return act


def end_day(doc: CampaignDocument) -> services.Changes:
    return services.end_day(doc)


def undo(doc: CampaignDocument) -> services.Changes:
    return services.undo(doc)


def undo_shown(doc: CampaignDocument) -> services.Changes:
    """Undo of the action the window showed when the race began (the latest one then), asked
    for by its log entry as the window does."""
    with sqlite3.connect(doc.path) as con:  # the entry the race began with, still in the log
        (entry,) = con.execute("SELECT entry FROM event_log WHERE label = ?",
                               (SHOWN_UNDO,)).fetchone()
    return services.undo(doc, LogStep(entry, SHOWN_UNDO))


def french_win(doc: CampaignDocument) -> services.Changes:
    return services.record_result(doc, 1, "French")


def autoresolve(doc: CampaignDocument) -> services.Changes:
    return services.autoresolve_battle(doc, 1, seed=3)


def set_up(doc: CampaignDocument) -> services.Changes:
    return services.open_battle(doc, 1, seed=5)


SHOWN_UNDO = "Order: 2 Corps – Move Elford"


# -- the campaigns the races start from -------------------------------------------------------


def plain(tmp_path: Path) -> Path:
    """2 May: four actions in the log (two orders, an End Day, then 2 Corps ordered to Elford);
    nothing will fight today."""
    u = make(tmp_path, {"1 Corps": "Aston", "2 Corps": "Dale"},
             {"I Corps": "Fenwick", "II Corps": "Gorton"})
    u.order("1 Corps", "Move", "Carden")
    u.order("I Corps", "Hold", "Fenwick")
    u.end_day()
    u.order("2 Corps", "Move", "Elford")
    assert queries.next_undo(u.doc) == SHOWN_UNDO
    u.doc.close()
    return tmp_path / "c.c1813"


def battle_day(tmp_path: Path) -> Path:
    """3 May: ending the day finds a battle at Fenwick."""
    battle_setup(tmp_path).doc.close()
    return tmp_path / "c.c1813"


def battle_found(tmp_path: Path) -> Path:
    """3 May: the battle of Fenwick found, waiting for its result."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.doc.close()
    return tmp_path / "c.c1813"


# -- what a file holds ------------------------------------------------------------------------


def log_rows(doc: CampaignDocument) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in doc.con.execute(
        "SELECT seq, kind, label, date, undone FROM event_log ORDER BY seq")]


def contents(path: Path) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    doc = open_campaign(path)
    try:
        return queries.state_json(doc), log_rows(doc)
    finally:
        doc.close()


def attempt(doc: CampaignDocument, action: Action) -> Outcome:
    try:
        return ("acknowledged", action(doc).label)
    except CampaignBusy as exc:
        return ("busy", str(exc))
    except OrderRefused as exc:
        return ("refused", str(exc))


def serial(pristine: Path, where: Path, steps: list[tuple[str, Action]]) -> tuple[Any, ...]:
    """The outcomes and contents when the actions are taken one after another."""
    shutil.copy(pristine, where)
    doc = open_campaign(where)
    try:
        outcomes = {slot: attempt(doc, action) for slot, action in steps}
    finally:
        doc.close()
    return outcomes, contents(where)


Attempt = Callable[[CampaignDocument, Action], Outcome]


def _racer(path: Path, action: Action, barrier: Any, conn: Any, tried: Attempt) -> None:
    doc = open_campaign(path)
    try:
        barrier.wait(30)
        conn.send(tried(doc, action))
    finally:
        doc.close()
        conn.close()


def race(path: Path, a: Action, b: Action, tried: Attempt = attempt) -> dict[str, Outcome]:
    """Two forked processes, each with the campaign open, take one action each at once;
    ``tried`` says what each made of its action."""
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    children, ends = [], {}
    for slot, action in (("A", a), ("B", b)):
        mine, theirs = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_racer, args=(path, action, barrier, theirs, tried))
        child.start()
        theirs.close()
        children.append(child)
        ends[slot] = mine
    outcomes = {}
    for slot, conn in ends.items():
        assert conn.poll(60), f"racer {slot} never reported"
        outcomes[slot] = conn.recv()
    for child in children:
        child.join(60)
        assert child.exitcode == 0
    return outcomes


# -- what each race must leave ----------------------------------------------------------------


def in_force(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [r for r in rows if not r[4]]


def acknowledged(outcomes: dict[str, Outcome]) -> list[str]:
    return [label for kind, label in outcomes.values() if kind == "acknowledged"]


def days(state: dict[str, Any], base: dict[str, Any]) -> int:
    return (date.fromisoformat(state["date"]) - date.fromisoformat(base["date"])).days


def check_order_and_end_day(base, final, outcomes) -> None:
    (a_kind, _), (b_kind, b_label) = outcomes["A"], outcomes["B"]
    assert a_kind == b_kind == "acknowledged"
    assert final[0]["orders"]["1 Corps|active"]["objective"] == "Elford"
    assert days(final[0], base[0]) == 1 and b_label == "End day: 2 May 1813"


def check_two_end_days(base, final, outcomes) -> None:
    assert [k for k, _ in outcomes.values()] == ["acknowledged"] * 2
    assert days(final[0], base[0]) == 2
    assert sorted(acknowledged(outcomes)) == ["End day: 2 May 1813", "End day: 3 May 1813"]
    assert [r[2] for r in in_force(final[1])[-2:]] == ["End day: 2 May 1813",
                                                       "End day: 3 May 1813"]


def check_two_undos(base, final, outcomes) -> None:
    assert [k for k, _ in outcomes.values()] == ["acknowledged"] * 2
    taken_back = in_force(base[1])[-2:]
    assert sorted(acknowledged(outcomes)) == sorted(f"Undo {r[2]}" for r in taken_back)
    assert in_force(final[1]) == in_force(base[1])[:-2]
    assert days(final[0], base[0]) == -1  # the End Day of 1 May was the second taken back


def check_end_day_and_undo(base, final, outcomes) -> None:
    assert [k for k, _ in outcomes.values()] == ["acknowledged"] * 2
    undo_label = outcomes["B"][1]
    if undo_label == "Undo End day: 2 May 1813":  # End Day first, then taken back
        assert final[0] == base[0] and in_force(final[1]) == in_force(base[1])
    else:  # the order taken back, then the day ended without it
        assert undo_label == f"Undo {SHOWN_UNDO}"
        assert days(final[0], base[0]) == 1
        assert "2 Corps|active" not in final[0]["orders"]
        assert in_force(final[1])[-1][2] == "End day: 2 May 1813"


def check_two_orders(base, final, outcomes) -> None:
    assert [k for k, _ in outcomes.values()] == ["acknowledged"] * 2
    orders = final[0]["orders"]
    assert orders["1 Corps|active"]["objective"] == "Elford"
    assert orders["II Corps|active"]["verb"] == "Hold"
    assert {r[2] for r in in_force(final[1])[-2:]} == set(acknowledged(outcomes))


def check_same_command(base, final, outcomes) -> None:
    assert [k for k, _ in outcomes.values()] == ["acknowledged"] * 2
    last = in_force(final[1])[-1][2]  # the order given last is the one in force
    assert final[0]["orders"]["1 Corps|active"]["objective"] == (
        "Elford" if last == "Order: 1 Corps – Move Elford" else "Dunmore")


def check_one_undo_shown(base, final, outcomes) -> None:
    kinds = sorted(k for k, _ in outcomes.values())
    assert kinds == ["acknowledged", "refused"]
    reason = next(m for k, m in outcomes.values() if k == "refused")
    assert reason.startswith(f"cannot undo {SHOWN_UNDO}: the campaign was changed elsewhere")
    assert in_force(final[1]) == in_force(base[1])[:-1]


def check_battle_day(base, final, outcomes) -> None:
    kinds = sorted(k for k, _ in outcomes.values())
    assert kinds == ["acknowledged", "refused"]
    reason = next(m for k, m in outcomes.values() if k == "refused")
    assert reason == ("3 May 1813 cannot end: the battle of Fenwick (3 May 1813) has no "
                      "result yet")
    assert days(final[0], base[0]) == 0 and final[0]["battles"]["1"]["result"] is None


def check_result_and_end_day(base, final, outcomes) -> None:
    assert outcomes["A"][0] == "acknowledged"
    assert final[0]["battles"]["1"]["result"] is not None
    if outcomes["B"][0] == "acknowledged":  # the result came first: the day could close
        assert days(final[0], base[0]) == 1
    else:
        assert outcomes["B"][1].endswith("has no result yet") and days(final[0], base[0]) == 0


def check_autoresolve_and_setup(base, final, outcomes) -> None:
    """The battle is either auto-resolved or on the table, never both: the one taken second
    is refused with the reason the first gives it."""
    (a_kind, a_text), (b_kind, b_text) = outcomes["A"], outcomes["B"]
    assert sorted((a_kind, b_kind)) == ["acknowledged", "refused"]
    fights = [r for r in in_force(final[1]) if r[1] == "OpenFight"]
    if a_kind == "acknowledged":  # auto-resolved first: the battle has its result
        assert a_text.startswith("Auto-resolve: Result: the battle of Fenwick")
        assert b_text.startswith("the battle of Fenwick (3 May 1813) has been fought already")
        assert b_text.endswith("it cannot be set up again")
        assert final[0]["battles"]["1"]["result"] is not None and fights == []
    else:  # on the table first: no result may be given behind the table's back
        assert b_text == "Open the battle of Fenwick (3 May 1813) on the table"
        assert a_text == ("battle 1 is being fought on the table; finish it there, or abandon "
                          "the fight, before you auto-resolve it")
        assert final[0]["battles"]["1"]["result"] is None and len(fights) == 1


RACES = [
    ("order || end day", plain, order("1 Corps", "Move", "Elford"), end_day,
     check_order_and_end_day),
    ("end day || end day", plain, end_day, end_day, check_two_end_days),
    ("undo || undo", plain, undo, undo, check_two_undos),
    ("end day || undo", plain, end_day, undo, check_end_day_and_undo),
    ("order || order", plain, order("1 Corps", "Move", "Elford"),
     order("II Corps", "Hold", "Gorton"), check_two_orders),
    ("order || order, one command", plain, order("1 Corps", "Move", "Elford"),
     order("1 Corps", "Move", "Dunmore"), check_same_command),
    ("undo shown || undo shown", plain, undo_shown, undo_shown, check_one_undo_shown),
    ("end day || end day, a battle found", battle_day, end_day, end_day, check_battle_day),
    ("result || end day", battle_found, french_win, end_day, check_result_and_end_day),
    ("auto-resolve || setup", battle_found, autoresolve, set_up, check_autoresolve_and_setup),
]


@pytest.mark.parametrize("round_", [1, 2])
@pytest.mark.parametrize(("name", "base", "a", "b", "check"), RACES, ids=[r[0] for r in RACES])
def test_two_processes_racing_lose_no_acknowledged_action(tmp_path, name, base, a, b, check,
                                                          round_):
    (tmp_path / "base").mkdir()
    pristine = base(tmp_path / "base")
    path = tmp_path / "race.c1813"
    shutil.copy(pristine, path)
    before = contents(pristine)

    outcomes = race(path, a, b)

    # Serial orders of the actions the race did not refuse as busy (none, with 5 s to wait).
    steps = [(slot, act) for slot, act in (("A", a), ("B", b)) if outcomes[slot][0] != "busy"]
    candidates = [serial(pristine, tmp_path / f"serial{i}.c1813", list(p))
                  for i, p in enumerate(permutations(steps))]
    final = contents(path)
    raced = ({s: o for s, o in outcomes.items() if o[0] != "busy"}, final)
    assert raced in candidates, f"{name}: {outcomes} matches no serial order"
    assert all(kind != "busy" for kind, _ in outcomes.values()), outcomes
    check(before, final, outcomes)


# -- a campaign held by another program -------------------------------------------------------


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


HOLDS = {
    "writing": ["BEGIN IMMEDIATE"],  # another window in an action
    "committing": ["BEGIN EXCLUSIVE"],  # ...in its commit: not even the scenario can be read
    "reading": ["BEGIN", "SELECT count(*) FROM event_log"],  # a reader the commit must wait for
}


@pytest.mark.parametrize("hold", HOLDS)
def test_an_action_on_a_campaign_held_elsewhere_is_refused_as_busy(tmp_path, monkeypatch, hold):
    path = plain(tmp_path)
    monkeypatch.setattr(document, "BUSY_SECONDS", 0.1)
    doc = open_campaign(path)
    before, state = digest(path), queries.state_json(doc)
    holder = sqlite3.connect(path, isolation_level=None)
    for statement in HOLDS[hold]:
        holder.execute(statement).fetchall()
    message = f"{path}: the campaign is busy in another window or program; try again"
    try:
        for action in (end_day, undo, order("1 Corps", "Move", "Elford"),
                       order("II Corps", "Hold", "Gorton")):
            with pytest.raises(CampaignBusy) as err:
                action(doc)
            assert str(err.value) == message
            assert not doc.con.in_transaction
        assert not path.with_name(path.name + "-journal").exists()
        if hold == "committing":  # reading waits out a commit, then says busy, like writing
            with pytest.raises(CampaignBusy, match="busy in another window"):
                queries.state_json(doc)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert digest(path) == before
    assert queries.state_json(doc) == state
    services.end_day(doc)  # free again: the same window goes on
    assert date.fromisoformat(queries.state_json(doc)["date"]) == \
        date.fromisoformat(state["date"]) + timedelta(days=1)
    doc.close()
