"""A crash at any write of an end-day or a result commit leaves a campaign that opens, holding
exactly the state before the action or exactly the state after it.

A forked child opens the campaign with a one-page cache (so SQLite spills changed pages into
the file before the commit, and a death leaves a hot journal, as a real crash would) and dies
with ``os._exit`` at its k-th SQL statement, counted from the action's ``BEGIN IMMEDIATE``
through its ``COMMIT`` (dying at the ``COMMIT`` is dying just before it); one more point,
k = n + 1, dies just after the action returned. Every k is tried, for End Day on a day that
finds a battle (every command, the battle, a town and the log rewritten) and for recording the
battle's result: 27 and 22 statements, so 28 + 23 kill points, each a fork of a few tens of
milliseconds. After each kill the file must open (a hot journal rolled back, never refused),
hold the state and undo label from before (killed at or before the ``COMMIT``) or after
(killed after it), pass an integrity check, and take the action again normally.

The kill points are statement boundaries: a death inside SQLite's own page writes of the
``COMMIT`` cannot be reached from a trace callback, but it leaves the same kind of hot journal
that the points from the first spill to the ``COMMIT`` leave here.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.store.document import CampaignDocument, open_campaign
from tests.day.test_scenarios import battle_setup, make

Action = Callable[[CampaignDocument], Any]
KILLED = 9
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")  # a rollback journal's header


def end_day(doc: CampaignDocument) -> Any:
    return services.end_day(doc)


def french_win(doc: CampaignDocument) -> Any:
    return services.record_result(doc, 1, "French")


class Counter:
    """A trace callback counting the statements of the write transaction, from its
    ``BEGIN IMMEDIATE``; with ``kill_at`` it ends the process at that statement, before SQLite
    runs it."""

    def __init__(self, kill_at: int | None = None):
        self.kill_at = kill_at
        self.statements: list[str] = []

    def __call__(self, sql: str) -> None:
        if not self.statements and not sql.startswith("BEGIN IMMEDIATE"):
            return  # the reads before the transaction (the scenario's key) are not counted
        self.statements.append(sql)
        if len(self.statements) == self.kill_at:
            os._exit(KILLED)


def run_traced(path: Path, action: Action, kill_at: int | None = None) -> list[str]:
    """Run the action on the file with a one-page cache and the counting callback."""
    doc = open_campaign(path)
    counter = Counter(kill_at)
    doc.con.execute("PRAGMA cache_size=1")
    doc.con.set_trace_callback(counter)
    try:
        action(doc)
    finally:
        doc.con.set_trace_callback(None)
    doc.close()
    return counter.statements


def _child(path: Path, action: Action, kill_at: int) -> None:
    try:
        run_traced(path, action, kill_at)
    except BaseException:
        os._exit(3)
    os._exit(KILLED)  # past the last statement: killed just after the action returned


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def state_of(path: Path) -> tuple[dict[str, Any], str | None]:
    doc = open_campaign(path)
    try:
        return queries.state_json(doc), queries.next_undo(doc)
    finally:
        doc.close()


def ready_for(tmp_path: Path, which: str) -> Path:
    """A campaign on 3 May about to end the day (a battle at Fenwick will be found), or with
    that battle found and waiting for its result."""
    u = battle_setup(tmp_path)
    if which == "result":
        u.end_day()
    u.doc.close()
    return tmp_path / "c.c1813"


@pytest.mark.parametrize("by", ["name", "link"])
@pytest.mark.parametrize(("which", "action"), [("end day", end_day), ("result", french_win)])
def test_a_crash_at_any_statement_leaves_the_state_before_or_after(tmp_path, which, action, by):
    """By name, and through a symbolic link in another folder (SQLite keeps the journal beside
    the file the link leads to, and the open must look for it there)."""
    (tmp_path / "setup").mkdir()
    pristine = ready_for(tmp_path / "setup", which)
    before, undo_before = state_of(pristine)

    measured = tmp_path / "measured.c1813"
    shutil.copy(pristine, measured)
    statements = run_traced(measured, action)
    after, undo_after = state_of(measured)
    n = len(statements)
    expected_after = (after, undo_after)
    assert statements[0].startswith("BEGIN IMMEDIATE") and statements[-1] == "COMMIT"
    assert after != before and undo_after != undo_before
    if which == "end day":
        assert after["battles"]["1"]["result"] is None and after["battles"].keys() == {"1"}
        assert n >= 20  # the commands, the battle, the town and the log, one statement each

    ctx = multiprocessing.get_context("fork")
    hot = changed = 0
    for k in range(1, n + 2):
        path = tmp_path / f"k{k}.c1813"
        shutil.copy(pristine, path)
        opened = path
        if by == "link":
            (tmp_path / "links").mkdir(exist_ok=True)
            opened = tmp_path / "links" / path.name
            opened.symlink_to(path)
        child = ctx.Process(target=_child, args=(opened, action, k))
        child.start()
        child.join(60)
        assert child.exitcode == KILLED, f"k={k}: the child ended with {child.exitcode}"
        journal = path.with_name(path.name + "-journal")
        touched = digest(path) != digest(pristine)
        if journal_head(journal) == JOURNAL_MAGIC:
            hot += 1
            changed += touched
        elif journal.exists():  # a journal whose header was never written: the file untouched
            assert journal_head(journal).strip(b"\0") == b"" and not touched, f"k={k}"
        doc = open_campaign(opened)  # never refused, whatever the moment of the crash
        try:
            state, label = queries.state_json(doc), queries.next_undo(doc)
            assert doc.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            # A hot journal was rolled back and is gone; one never hot SQLite ignores.
            if journal.exists():
                assert journal_head(journal).strip(b"\0") == b"", f"k={k}: hot journal left"
            expected = expected_after if k > n else (before, undo_before)
            assert (state, label) == expected, f"k={k} ({(statements + ['done'])[k - 1]})"
            if k <= n:  # and the day goes on: the action taken again gives the after-state
                action(doc)
                assert (queries.state_json(doc), queries.next_undo(doc)) == expected_after
        finally:
            doc.close()
    # The crashes really were mid-write: changed pages in the file, the journal to undo them.
    assert hot > 0 and changed > 0, (hot, changed)


def journal_head(journal: Path) -> bytes:
    try:
        with journal.open("rb") as fh:
            return fh.read(8)
    except FileNotFoundError:
        return b""


def test_after_a_crash_a_backup_copied_over_is_refused_and_restore_puts_it_back(tmp_path,
                                                                                capsys):
    """At every kill point of End Day: copying a backup over the crashed file by hand is refused
    on open while the crash's journal cannot belong to it (both files left as they are);
    (or, where the journal would roll nothing in, it opens as the backup);
    ``campaign1813 restore`` puts the backup in place, which then opens exactly as the backup
    was; and the crashed file, moved aside with its journal, still opens in the state before
    the action or after it."""
    from campaign1813.campaign.cli import main
    from campaign1813.campaign.errors import CampaignFileError

    (tmp_path / "setup").mkdir()
    pristine = ready_for(tmp_path / "setup", "end day")
    before, undo_before = state_of(pristine)
    backup = tmp_path / "backup.c1813"  # two days earlier: 1 Corps's order just given
    (tmp_path / "early").mkdir()
    u = make(tmp_path / "early", {"1 Corps": "Aston", "2 Corps": "Dale", "3 Corps": "Westhall"},
             {"I Corps": "Fenwick", "II Corps": "Gorton"})
    u.order("1 Corps", "Attack", "Fenwick")
    u.doc.close()
    shutil.copy(tmp_path / "early" / "c.c1813", backup)
    backup_state = state_of(backup)
    statements = run_traced(shutil.copy(pristine, tmp_path / "measured.c1813"), end_day)
    after = state_of(tmp_path / "measured.c1813")

    ctx = multiprocessing.get_context("fork")
    refused = 0
    for k in range(1, len(statements) + 1):
        path = tmp_path / f"k{k}.c1813"
        shutil.copy(pristine, path)
        child = ctx.Process(target=_child, args=(path, end_day, k))
        child.start()
        child.join(60)
        assert child.exitcode == KILLED
        journal = path.with_name(path.name + "-journal")
        if journal_head(journal) != JOURNAL_MAGIC:
            continue
        crashed, left = path.read_bytes(), journal.read_bytes()
        shutil.copy(backup, path)  # the natural thing to do, and wrong
        copied = path.read_bytes()
        try:  # refused, both files as they were; or, if nothing of the journal would be
            state = state_of(path)  # rolled in, exactly the backup
        except CampaignFileError as exc:
            assert "campaign1813 restore BACKUP FILE" in str(exc)
            assert path.read_bytes() == copied and journal.read_bytes() == left, f"k={k}"
            refused += 1
        else:
            assert state == backup_state, f"k={k}: the backup was mixed with the journal"
            assert path.read_bytes() == copied
        path.write_bytes(crashed)  # as it was after the crash, journal and all
        journal.write_bytes(left)
        assert main(["restore", str(backup), str(path)]) == 0
        assert f"the file it replaced is kept as {path}.before-restore" in capsys.readouterr().out
        assert state_of(path) == backup_state
        assert not journal.exists()
        aside = path.with_name(path.name + ".before-restore")
        assert state_of(aside) in ((before, undo_before), after)
    assert refused > 0
