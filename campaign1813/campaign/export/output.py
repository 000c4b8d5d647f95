"""Writing an export: never over a file unless told to, never half a file, nowhere but there.

The bytes go to a temporary file beside the target, are flushed to the disk, and the temporary
file is renamed over the target in one step (``os.replace``): a reader sees the old file or the
new one, never a torn one, and a failure leaves no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from campaign1813.errors import CampaignError


class ExportError(CampaignError):
    """An export that cannot be written where it was asked to go."""


SIDE_FILES = ("-journal", "-wal", "-shm")  # what SQLite keeps beside a database
_DATABASE = b"SQLite format 3\x00"


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
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write in {folder}: {exc.strerror}") from exc
    try:
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
