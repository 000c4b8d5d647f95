"""Nothing half-written: a process killed in the middle of End Day leaves the day before whole."""

import multiprocessing
import os

from campaign1813.campaign import queries
from campaign1813.campaign.day.actions import EndDay
from campaign1813.campaign.day.cycle import advance_day
from campaign1813.campaign.store.codec import read_state, write_state
from campaign1813.campaign.store.document import open_campaign

from .test_scenarios import battle_setup, make


def _die_mid_end_day(path, french, allied, ready):
    """Child: run End Day, flush its writes to the file, and die before the commit."""
    doc = open_campaign(path)
    # A one-page cache makes SQLite write changed pages into the file before the commit,
    # so the death below leaves a hot journal to roll back, as a real crash would.
    doc.con.execute("PRAGMA cache_size=1")
    ground = doc.ground()
    with doc.writing() as con:
        state = read_state(con)
        advance_day(ground, state)
        write_state(con, state)  # rows deleted and rewritten, not committed
        moved = con.execute("SELECT position_json FROM day_command WHERE name = '1 Corps'")
        ready.send(moved.fetchone()[0])
        ready.close()
        os._exit(9)


def test_killed_end_day_leaves_the_previous_day_whole(tmp_path):
    (tmp_path / "scratch").mkdir()
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Elford")
    before = u.dump()
    u.doc.close()
    ctx = multiprocessing.get_context("fork")
    ready, child_end = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_die_mid_end_day, args=(
        tmp_path / "c.c1813", {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, child_end))
    child.start()
    assert ready.poll(60), "the child never reached the middle of End Day"
    written = ready.recv()
    child.join(60)
    assert child.exitcode == 9
    assert written == '["Brook", "Carden", 5.0]'  # the child had written the march
    assert (tmp_path / "c.c1813-journal").exists()  # ...and left a hot journal behind
    doc = open_campaign(tmp_path / "c.c1813")
    assert queries.day_state(doc).date == before_date(before)
    u.doc = doc
    assert u.dump() == before
    u.end_day()  # and the day can still be ended normally
    assert u.state().commands["1 Corps"].position.a == "Brook"


def before_date(dump):
    from datetime import date

    return date.fromisoformat(dump["date"])


def test_end_day_is_one_command_in_the_log(tmp_path):
    u = battle_setup(tmp_path)
    kinds = [r[0] for r in u.doc.con.execute("SELECT kind FROM event_log ORDER BY seq")]
    assert kinds == ["IssueOrder", "IssueOrder", "EndDay", "EndDay"]
    assert EndDay().apply  # the command object the log records
