"""The tests' throwaway PostgreSQL servers: one left running by a run killed outright (SIGKILL)
is stopped and removed by the next start's sweep; a server whose run still lives is never
touched."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tools import pg_server

ROOT = Path(__file__).resolve().parents[2]
CHILD = ("import sys, time\n"
         "from tools import pg_server\n"
         "server = pg_server.start()\n"
         "print(server.folder, flush=True)\n"
         "time.sleep(300)\n")


def _running(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_a_server_left_by_a_killed_run_is_swept_and_a_live_ones_is_not(pg, tmp_path):
    """A child process starts a server and is killed with SIGKILL: its server still runs, its
    folder records the dead owner; ``sweep`` stops that server and removes its folder, and
    leaves this run's own server (its owner alive) and a folder that names no owner alone."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None
    folder = Path(child.stdout.readline().strip())
    postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    assert (folder / pg_server.OWNER).read_text().split()[0] == str(child.pid)
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    assert _running(postmaster)  # left behind: nobody stopped it
    unowned = Path(os.environ.get("TMPDIR", "/tmp")) / f"{pg_server.PREFIX}unowned{os.getpid()}"
    unowned.mkdir()
    try:
        swept = pg_server.sweep()
        assert folder in swept and not folder.exists()
        assert pg.folder not in swept and pg.folder.exists()
        assert unowned.exists()
        for _ in range(50):
            if not _running(postmaster):
                break
            time.sleep(0.1)
        assert not _running(postmaster)
    finally:
        unowned.rmdir()
    assert pg_server.sweep() == []  # nothing left of it


def test_a_reused_process_id_is_not_taken_for_the_owner(tmp_path):
    """An owner file naming a live process id but another start time is stale (the id was
    given to another process); one naming this very process is not."""
    me = pg_server.process_started(os.getpid())
    assert pg_server.process_alive(os.getpid(), me)
    if me:
        assert not pg_server.process_alive(os.getpid(), str(int(me) + 1))
    stale = tmp_path / f"{pg_server.PREFIX}stale"
    stale.mkdir()
    (stale / pg_server.OWNER).write_text(f"{os.getpid()} {int(me or 0) + 1}")
    live = tmp_path / f"{pg_server.PREFIX}live"
    live.mkdir()
    (live / pg_server.OWNER).write_text(f"{os.getpid()} {me}".strip())
    assert pg_server.sweep(tmp_path) == ([stale] if me else [])
    assert live.exists()
