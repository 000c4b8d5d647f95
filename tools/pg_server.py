"""A throwaway PostgreSQL server for the tests and benchmarks: ``python tools/pg_server.py``.

The server is made in a temporary folder (``initdb``), listens on a free port and on a socket in
that folder only, and is stopped and removed at the end. PostgreSQL refuses to run as root, so
a root user (CI) runs it as the ``postgres`` user; anyone else runs it as himself. The tests'
session fixture (``tests/store/conftest.py``) starts one for the whole run; run directly, this
module starts one, prints its address and waits for Ctrl-C (``start``/``stop`` for scripts).

Each folder records the process that started it (``owner``: its id and, where the system says,
when it started, so a reused process id is not mistaken for it). A run killed outright (SIGKILL)
cannot stop its server; the next ``start`` sweeps such leftovers: a folder of ours whose owner is
gone has its server stopped at once and is removed. A folder whose owner lives, or that records
no owner yet, is never touched.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from campaign1813.campaign.store.document import create_campaign
from campaign1813.campaign.store.server import push_campaign

SUPERUSER = "postgres"  # the database's superuser name, and the system user root runs it as
PREFIX = "c1813-pg-"  # every server's folder, in the system's temporary folder
OWNER = "owner"  # the file in a folder naming the process that started it


class NoServer(RuntimeError):
    """No PostgreSQL server can be started here (not installed, or it failed): the reason."""


def _bin_dir() -> Path:
    """The folder of initdb and pg_ctl: on the path, or Debian's newest version folder."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                      key=lambda p: int(Path(p).parent.parent.name)
                      if Path(p).parent.parent.name.isdigit() else 0)
    if not versions:
        raise NoServer("PostgreSQL is not installed (no pg_ctl on the path nor under "
                       "/usr/lib/postgresql)")
    return Path(versions[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running throwaway server: its folder (the socket is there too) and its port."""

    folder: Path
    port: int
    bin: Path
    as_user: str | None

    @property
    def url(self) -> str:
        """The SQLAlchemy address of its ``postgres`` database over the socket."""
        return (f"postgresql://{SUPERUSER}@/postgres?host={self.folder}&port={self.port}")

    def url_of(self, database: str) -> str:
        """The address of one database of the server, over the socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={self.port}"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run one of the server's programs (as the server's user)."""
        argv = [str(self.bin / args[0]), *args[1:]]
        if self.as_user:
            argv = ["runuser", "-u", self.as_user, "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=False)

    def new_campaign(self, folder: Path, name: str) -> tuple[Path, str]:
        """A new 1813 campaign made as a file in ``folder`` and pushed to the server under
        ``name``: the file and the campaign's address."""
        path = folder / f"{name}.c1813"
        create_campaign(path).close()
        address = f"{self.url}&campaign={name}"
        push_campaign(path, address)
        return path, address

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def process_started(pid: int) -> str:
    """When a process started, as the system counts it (Linux's /proc), or "" where unknown:
    with its id, it names the process even after the id is given to another."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rpartition(")")[2].split()[19]  # field 22, counted after the program's name


def process_alive(pid: int, started: str) -> bool:
    """Whether the process that recorded itself as (``pid``, ``started``) still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it runs
    return not started or process_started(pid) in ("", started)


def sweep(root: Path | None = None) -> list[Path]:
    """Stop and remove the servers left by runs killed outright: each folder of ours whose
    owner process is gone. The folders removed."""
    swept = []
    for folder in sorted(Path(root or tempfile.gettempdir()).glob(PREFIX + "*")):
        try:
            pid_text, _, started = (folder / OWNER).read_text().partition(" ")
            pid = int(pid_text)
        except (OSError, ValueError):
            continue  # not started by this module, or its owner not written yet
        if process_alive(pid, started.strip()):
            continue
        if os.geteuid() != 0 and folder.stat().st_uid != os.geteuid():
            continue  # another user's: not ours to stop
        as_user = SUPERUSER if os.geteuid() == 0 else None
        try:
            bin_dir = _bin_dir()
        except NoServer:
            bin_dir = None
        if bin_dir is not None and (folder / "data" / "postmaster.pid").exists():
            Server(folder, 0, bin_dir, as_user).run(
                "pg_ctl", "-D", str(folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)
        swept.append(folder)
    return swept


def start() -> Server:
    """Make and start a server in a new temporary folder, first sweeping the servers of runs
    killed outright; refused (``NoServer``) with the reason where none can run."""
    bin_dir = _bin_dir()
    sweep()
    as_user: str | None = None
    folder = Path(tempfile.mkdtemp(prefix=PREFIX))
    (folder / OWNER).write_text(f"{os.getpid()} {process_started(os.getpid())}".strip())
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam(SUPERUSER)
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            raise NoServer("running as root, and there is no postgres user to run the "
                           "server as") from None
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = SUPERUSER
    server = Server(folder, _free_port(), bin_dir, as_user)
    done = server.run("initdb", "-D", str(folder / "data"), "-U", SUPERUSER, "-A", "trust",
                      "-E", "UTF8", "--no-sync", "--no-instructions")
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"initdb failed: {done.stderr.strip()[-300:]}")
    options = (f"-p {server.port} -k {folder} -c listen_addresses='' -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
    done = server.run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "log"),
                      "-o", options, "-w", "-t", "30", "start")
    if done.returncode != 0:
        log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"the server did not start: {(done.stderr + log).strip()[-300:]}")
    return server


def main() -> int:
    """Start a server, print its address, and stop it at Ctrl-C."""
    try:
        server = start()
    except NoServer as exc:
        print(f"no server: {exc}", file=sys.stderr)
        return 1
    print(server.url, flush=True)
    try:
        sys.stdin.read()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
