"""Writing an export: never over a file unless told to, never half a file, nowhere but there.

The bytes go to a temporary file beside the target, are flushed to the disk, and the temporary
file is renamed over the target in one step (``os.replace``): a reader sees the old file or the
new one, never a torn one, and a failure leaves no temporary file behind. An export stopped
half-way (killed, or the machine lost power) leaves its temporary file: the next export to the
same target, and the next open of a campaign in that folder, remove those that are provably
stale (:func:`clean_stale_parts`).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
import time
from pathlib import Path

from campaign1813.errors import CampaignError

if sys.platform != "win32":
    import fcntl


class ExportError(CampaignError):
    """An export that cannot be written where it was asked to go."""


SIDE_FILES = ("-journal", "-wal", "-shm")  # what SQLite keeps beside a database
_DATABASE = b"SQLite format 3\x00"
# An export's temporary file, as write_new names it: ".NAME.XXXXXXXX.part" beside the target
# (mkstemp's eight random letters, digits or underscores).
_PART = re.compile(r"\.(?P<target>.+)\.[a-z0-9_]{8}\.part")
# A temporary file untouched for this long, that no writer holds locked, was left by an export
# that stopped: a writer locks it from the moment it is made, and writes it within a second.
STALE_SECONDS = 60.0


def _lock(fd: int, *, wait: bool) -> bool:
    """Lock an open file for writing (POSIX ``flock``); False if another holds it. Where the
    system has no such lock (Windows), a file open for writing cannot be removed anyway."""
    if sys.platform == "win32":
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def _stale(path: Path, now: float) -> bool:
    """True if ``path`` is a temporary file of ours that no export is writing: a regular file
    (not a link), owned by this user, untouched for ``STALE_SECONDS`` and not locked."""
    try:
        info = path.lstat()
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < STALE_SECONDS:
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        return _lock(fd, wait=False)
    finally:
        os.close(fd)


def clean_stale_parts(folder: Path, target: str | None = None) -> list[Path]:
    """Remove the temporary files that exports stopped half-way left in ``folder`` (only those
    of the file named ``target``, when it is given); never any other file. The paths removed.

    A file is removed only if it is named as an export names its temporary file, and is
    stale: a regular file of this user, untouched for a minute and not locked by a writer."""
    removed: list[Path] = []
    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _PART.fullmatch(name)
        if match is None or (target is not None and match["target"] != target):
            continue
        path = Path(folder) / name
        if _stale(path, now):
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def refuse_side_file(path: Path, what: str) -> None:
    """Refuse to write ``what`` where SQLite keeps the journal of a file beside it: a file
    there is rolled into the database at its next open."""
    for suffix in SIDE_FILES:
        if path.name.endswith(suffix):
            beside = path.with_name(path.name[: -len(suffix)])
            if beside.is_file():
                raise ExportError(f"{path}: is where SQLite keeps the journal of {beside.name}; "
                                  f"{what} never goes there")


def write_new(path: Path, data: bytes, *, force: bool) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename; an existing file is
    replaced only with ``force``, and never a campaign (any SQLite database) nor a journal."""
    path = Path(path)
    refuse_side_file(path, "an export")
    if path.is_file():
        with contextlib.suppress(OSError), path.open("rb") as fh:
            if fh.read(len(_DATABASE)) == _DATABASE:
                raise ExportError(f"{path}: is a campaign file (an SQLite database); an export "
                                  "never replaces one")
    folder = path.parent
    if not folder.is_dir():
        reason = "is not a folder" if folder.exists() else "does not exist"
        raise ExportError(f"{path}: the folder {folder} {reason}")
    if path.is_dir():
        raise ExportError(f"{path}: is a folder, not a file")
    if path.exists() and not force:
        raise ExportError(f"{path}: exists; use --force to replace it")
    clean_stale_parts(folder, path.name)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write in {folder}: {exc.strerror}") from exc
    try:
        _lock(fd, wait=True)  # held until the file is renamed: it is not stale while written
        with os.fdopen(fd, "wb") as out:
            # mkstemp makes the file private; an export is an ordinary file like any other.
            if hasattr(os, "fchmod"):
                os.fchmod(out.fileno(), 0o666 & ~_umask())
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise ExportError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(folder)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    # The rename itself is durable only once the folder is flushed; not every system allows it.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
