"""Creating, checking and opening campaign files (SQLite, suffix ``.c1813``).

A file is checked read-only before it is opened for writing, so a file that is not a campaign,
is truncated or damaged, or comes from a newer version is refused with a one-line reason and is
never touched. An open campaign is one sqlite3 connection; every umpire action reads and writes
inside one write transaction (``BEGIN IMMEDIATE``), so a second window or process waits for it,
or is told the campaign is busy, and never interleaves.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tomllib
import unicodedata
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from campaign1813 import __version__
from campaign1813.campaign.day.ground import Ground
from campaign1813.campaign.day.supply import opening_state
from campaign1813.campaign.errors import CampaignError, CampaignFileError
from campaign1813.campaign.export.output import (
    SIDE_FILES,
    ExportError,
    clean_stale_parts,
    refuse_side_file,
)
from campaign1813.campaign.scenario.types import EARLIEST_START, LATEST_START, START_RANGE
from campaign1813.campaign.store.audit import audit
from campaign1813.campaign.store.codec import read_campaign, write_state
from campaign1813.campaign.store.protocol import (
    CampaignBusy,
    CampaignReader,
    CampaignStore,
    CampaignSummary,
    UnitOfWork,
)
from campaign1813.campaign.store.scenario import read_scenario, store_scenario, stored_key
from campaign1813.campaign.store.version import APPLICATION, SCHEMA_VERSION
from campaign1813.campaign.store.work import FileReader, FileWork
from campaign1813.data import scenario_dir

if TYPE_CHECKING:
    from campaign1813.campaign.scenario.types import Scenario

# Two kinds of work import what only they need, where they start: making or upgrading a file
# (``store.migrate``: alembic, SQLAlchemy) and validating a scenario's files (pydantic). Opening
# a campaign, which every command does, reads the stored scenario with msgspec and needs neither.

__all__ = ["SUFFIX", "CampaignBusy", "CampaignDocument", "CampaignSummary", "backup_campaign",
           "campaign_from_scenario", "check_campaign_file", "connect", "create_campaign",
           "open_campaign", "save_campaign_as"]

SUFFIX = ".c1813"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")  # the header of a rollback journal
BUSY_SECONDS = 5.0


def _address(path: Path, mode: str) -> str:
    """The SQLite URI of a file, escaped so that any legal file name means itself."""
    return f"file:{quote(str(path.resolve()), safe='/')}?mode={mode}"


def connect(path: Path, mode: str = "rw") -> sqlite3.Connection:
    """A connection to a campaign file: transactions explicit, foreign keys on, commits durable,
    and a wait of a few seconds when another process holds the file."""
    con = sqlite3.connect(_address(path, mode), uri=True, isolation_level=None,
                          timeout=BUSY_SECONDS)
    con.execute("PRAGMA foreign_keys=ON")
    con.execute("PRAGMA synchronous=FULL")
    return con


def check_campaign_file(path: str | Path) -> int:
    """Refuse, with the file and the reason, anything that is not a campaign we can open;
    returns the file's schema version.

    Opens the file read-only, but for a hot journal left by a writer that died mid-commit,
    which SQLite rolls back first (as any read-write open would), restoring the last commit.
    """
    path = Path(path)
    if not path.exists():
        raise CampaignFileError(path, "no such file")
    if path.is_dir():
        raise CampaignFileError(path, "is a folder, not a campaign file")
    if not path.is_file():
        raise CampaignFileError(path, "is not a regular file, not a campaign file")
    real = real_path(path)
    if _hot_journal(real):
        if not os.access(real, os.W_OK) or not os.access(real.parent, os.W_OK):
            raise CampaignFileError(path, "was left mid-commit by a program that stopped, and "
                                          "is read-only, so its last commit cannot be restored")
        if not _journal_belongs(real):
            raise CampaignFileError(
                path, f"has a journal beside it ({real.name}-journal) that was left by a program "
                      "that stopped while writing another version of this file (a backup copied "
                      "over it?), so it was not rolled in; to restore a backup use "
                      "'campaign1813 restore BACKUP FILE', or move the journal away")
        try:
            con = sqlite3.connect(_address(path, "rw"), uri=True, timeout=BUSY_SECONDS)
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            con.close()
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _busy(path) from None
            raise CampaignFileError(path, f"cannot be recovered ({exc})") from exc
        except sqlite3.Error as exc:
            raise CampaignFileError(path, f"cannot be recovered ({exc})") from exc
    size = path.stat().st_size
    if size == 0:
        raise CampaignFileError(path, "is empty, not a campaign file")
    with path.open("rb") as fh:
        header = fh.read(100)
    if not header.startswith(_SQLITE_MAGIC[: min(len(header), 16)]) or len(header) < 16:
        raise CampaignFileError(path, "is not a campaign file (it is not an SQLite database)")
    if len(header) < 100:
        raise CampaignFileError(path, f"is truncated ({size} bytes, shorter than its header)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    page_count = int.from_bytes(header[28:32], "big")
    expected = page_size * page_count
    if page_count and size < expected:
        raise CampaignFileError(path, f"is truncated ({size} of {expected} bytes)")
    try:
        con = sqlite3.connect(_address(path, "ro"), uri=True)
    except sqlite3.Error as exc:
        raise CampaignFileError(path, f"cannot be read ({exc})") from exc
    try:
        try:
            query = "SELECT name FROM sqlite_master WHERE type='table'"
            tables = {r[0] for r in con.execute(query)}
            if "document" not in tables:
                raise CampaignFileError(
                    path, "is an SQLite database but not a campaign (it has no document table)"
                )
            row = con.execute("SELECT application, schema_version FROM document").fetchone()
            ok = con.execute("PRAGMA quick_check").fetchone()
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _busy(path) from None
            raise CampaignFileError(path, f"is damaged ({exc})") from exc
        except sqlite3.DatabaseError as exc:
            raise CampaignFileError(path, f"is damaged ({exc})") from exc
    finally:
        con.close()
    if row is None or row[0] != APPLICATION:
        raise CampaignFileError(path, "is an SQLite database but not a campaign")
    if ok is None or ok[0] != "ok":
        raise CampaignFileError(path, f"is damaged ({ok[0] if ok else 'integrity check failed'})")
    version = row[1]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CampaignFileError(path, f"is damaged (its schema version is {version!r})")
    if version > SCHEMA_VERSION:
        raise CampaignFileError(
            path,
            f"was written by a newer version of campaign1813 (schema {version}; "
            f"this version reads up to {SCHEMA_VERSION})",
        )
    return version


def _identity(path: Path) -> tuple[int, int] | None:
    """The file a name leads to now (device and inode, links followed), or None if none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def real_path(path: Path) -> Path:
    """The file a name means once symbolic links are followed: SQLite keeps a file's journal
    beside the file itself, not beside a link to it. A name with no link in it is kept as
    given."""
    real = Path(os.path.realpath(path))
    return path if real == Path(os.path.abspath(path)) else real


def _hot_journal(path: Path) -> bool:
    """Whether a rollback journal beside the file holds a commit left unfinished. A file of
    that name holding anything else is not SQLite's: it is refused, and left alone."""
    journal = path.with_name(path.name + "-journal")
    try:
        with journal.open("rb") as fh:
            head = fh.read(8)
    except OSError:
        return False
    if head == _JOURNAL_MAGIC:
        return True
    if head.strip(b"\x00"):
        raise CampaignFileError(path, f"has a file {journal.name} beside it that is not SQLite's "
                                      "journal; move that file away, then open the campaign")
    return False


# The campaigns this program has open, so that nothing it writes lands on one of them.
_OPEN: weakref.WeakSet[CampaignDocument] = weakref.WeakSet()


def _same_file(a: Path, b: Path) -> bool:
    """Whether two names mean one file (by link, by another spelling, or by hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(os.path.abspath(a)) == Path(os.path.abspath(b))


def refuse_campaign_target(out: Path, what: str) -> None:
    """Refuse to write ``what`` (a copy of a campaign) over a campaign open in this program, or
    where SQLite keeps the journal of a file."""
    try:
        refuse_side_file(out, what)
    except ExportError as exc:
        raise CampaignFileError(out, str(exc).removeprefix(f"{out}: ")) from None
    for doc in list(_OPEN):
        if _same_file(out, doc.path):
            raise CampaignFileError(out, f"is a campaign open now; {what} never replaces it")


def _journal_belongs(path: Path) -> bool:
    """Whether a hot journal beside a file was made for that file as it is now. Every write
    of this program journals the first page first (``writing``), and that copy carries the file
    change counter (header offset 24) the file had when the journal was begun; the file holds
    that count, or one more once its own first page was written before the stop. Any other
    count (a backup copied over the file, a journal copied from another campaign) means the
    journal belongs to another file. A journal that SQLite would roll nothing in from, or whose
    first record is not the first page (written by another program), cannot tell, and is
    trusted as SQLite trusts it."""
    try:
        with path.open("rb") as fh:
            counter = int.from_bytes(fh.read(28)[24:28], "big")
        with path.with_name(path.name + "-journal").open("rb") as fh:
            header = fh.read(28)
            records = int.from_bytes(header[8:12], "big")
            sector = int.from_bytes(header[20:24], "big")
            page = int.from_bytes(header[24:28], "big")
            if records == 0 or not 512 <= sector <= 65536 or not 512 <= page <= 65536:
                return True
            fh.seek(sector)
            first = fh.read(4 + page)
    except OSError:
        return True
    if len(first) < 4 + page or int.from_bytes(first[:4], "big") != 1:
        return True
    saved = int.from_bytes(first[4 + 24:4 + 28], "big")
    return counter in (saved, (saved + 1) % 2**32)


def _is_busy(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _busy(path: Path) -> CampaignBusy:
    return CampaignBusy(f"{path}: the campaign is busy in another window or program; "
                        "try again")


class CampaignDocument(CampaignStore):
    """An open campaign file: one connection, transactions over it, and its scenario; the
    SQLite implementation of the ``CampaignStore`` protocol.

    A file the user may not write (or in a folder he may not write) is opened read-only: it can
    be viewed, and every change is refused with that reason.
    """

    def __init__(self, path: Path, con: sqlite3.Connection, readonly: bool = False):
        self.path = path
        self.con = con
        self.readonly = readonly
        self._scenario: tuple[str, Scenario] | None = None
        self._ground: tuple[str, Ground] | None = None
        self._identity = _identity(path)
        _OPEN.add(self)

    def replaced(self) -> bool:
        """Whether the name no longer leads to the file this campaign was opened from: another
        program moved a file over it, or removed it. SQLite goes on reading the file it has
        open, which no one else can see now, and refuses to write it."""
        now = _identity(self.path)
        return now is None or now != self._identity

    def _still_here(self) -> None:
        if self.replaced():
            raise CampaignFileError(
                self.path, "was replaced or removed on disk by another program since it was "
                           "opened; open it again to see the campaign as it is now")

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed on success, rolled back on any error. A commit
        that cannot wait out another program's reading is refused as busy."""
        if self.readonly:
            raise CampaignFileError(self.path, "is read-only; it can be viewed but not changed")
        self._still_here()
        self._begin("BEGIN IMMEDIATE")
        try:
            # The first page goes into the journal before anything else (the header's
            # user_version counts the campaign's writes), so a journal left by a crash always
            # starts with the change counter of the file it was made for: _journal_belongs.
            writes = int(self.con.execute("PRAGMA user_version").fetchone()[0])
            self.con.execute(f"PRAGMA user_version = {(writes + 1) % 2**31}")
            yield self.con
            if self.con.in_transaction:
                self.con.execute("COMMIT")
        except BaseException as exc:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                raise _busy(self.path) from None
            if isinstance(exc, sqlite3.OperationalError) and self.replaced():
                self._still_here()  # replaced while the action ran: say so, not SQLite's words
            raise

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: everything read in it is one consistent state. A read that
        cannot wait out another program's commit is refused as busy."""
        self._begin("BEGIN")
        try:
            yield self.con
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _busy(self.path) from None
            raise
        finally:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")

    @contextmanager
    def read(self) -> Iterator[CampaignReader]:
        """One read transaction, as the store's protocol reads it."""
        with self.reading() as con:
            yield FileReader(con)

    @contextmanager
    def unit_of_work(self) -> Iterator[UnitOfWork]:
        """One write transaction for one action, as the store's protocol writes it."""
        with self.writing() as con:
            work = FileWork(con, lambda c: audit(c, self.ground), self.ground)
            yield work
            work.close()
            if not work.wrote:  # nothing changed: the file stays as it was, byte for byte
                con.execute("ROLLBACK")

    def _begin(self, statement: str) -> None:
        try:
            self.con.execute(statement)
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _busy(self.path) from None
            raise CampaignFileError(self.path, f"cannot be used ({exc})") from exc

    # -- what the whole campaign shares ---------------------------------------------------------
    def scenario(self) -> Scenario:
        """The campaign's scenario, read once per content of its stored files."""
        with self._maybe_reading() as con:
            key = stored_key(con)
            if self._scenario is None or self._scenario[0] != key:
                self._scenario = read_scenario(con, writable=False)
        return self._scenario[1]

    def ground(self) -> Ground:
        """The road ground of the campaign's scenario, built once per scenario."""
        scenario = self.scenario()
        assert self._scenario is not None
        if self._ground is None or self._ground[0] != self._scenario[0]:
            self._ground = (self._scenario[0], Ground(scenario))
        return self._ground[1]

    @contextmanager
    def _maybe_reading(self) -> Iterator[sqlite3.Connection]:
        if self.con.in_transaction:
            yield self.con
        else:
            with self.reading() as con:
                yield con

    def summary(self) -> CampaignSummary:
        """The campaign's name and dates."""
        with self._maybe_reading() as con:
            return CampaignSummary(*read_campaign(con))

    def settings(self) -> dict[str, Any]:
        """The campaign's settings as stored in the file."""
        with self._maybe_reading() as con:
            text = con.execute("SELECT settings_json FROM campaign").fetchone()[0]
        try:
            return dict(json.loads(text))
        except (TypeError, ValueError, RecursionError):
            raise CampaignFileError(self.path, "is damaged: its settings are not a table of "
                                               "names and values") from None

    def data_version(self) -> int:
        """SQLite's count of commits by other connections: it changes when another window or
        process writes the file."""
        return int(self.con.execute("PRAGMA data_version").fetchone()[0])

    def close(self) -> None:
        """Release the file."""
        _OPEN.discard(self)
        self.con.close()

    def __enter__(self) -> CampaignDocument:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_campaign(path: str | Path) -> CampaignDocument:
    """Open an existing campaign file after checking it read-only; a file of an older schema
    version is upgraded first (on a copy that replaces it only when complete). The stored
    state and scenario are checked before the campaign is handed over."""
    path = Path(path)
    version = check_campaign_file(path)
    real = real_path(path)  # an upgrade's copy is made beside the file, and replaces the file
    readonly = not os.access(real, os.W_OK) or not os.access(real.parent, os.W_OK)
    if version < SCHEMA_VERSION:
        if readonly:
            raise CampaignFileError(path, f"was written by an earlier version (schema {version})"
                                          " and is read-only, so it cannot be upgraded")
        from campaign1813.campaign.store.migrate import upgrade_file

        with _upgrading(real, path):
            if _version_now(real) < SCHEMA_VERSION:  # another program may have upgraded it
                upgrade_file(real, version, check=_check_upgraded)
    try:
        con = connect(path, "ro" if readonly else "rw")
    except sqlite3.Error as exc:
        raise CampaignFileError(path, f"cannot be opened ({exc})") from exc
    doc = CampaignDocument(path, con, readonly)
    try:
        _verify(doc)
    except BaseException:
        doc.close()
        raise
    if not readonly:  # what exports stopped half-way left beside the campaign (or its link)
        for folder in dict.fromkeys((path.absolute().parent, real.parent)):
            clean_stale_parts(folder)
    return doc


def _version_now(real: Path) -> int:
    """The schema version the file at this name has now, read through SQLite (a plain open
    and close of the file would drop the lock ``_upgrading`` holds: POSIX locks are the
    process's, and any close of the file releases them; SQLite keeps its own files open)."""
    con = sqlite3.connect(_address(real, "ro"), uri=True, timeout=BUSY_SECONDS)
    try:
        row = con.execute("SELECT schema_version FROM document").fetchone()
    finally:
        con.close()
    return int(row[0]) if row is not None and isinstance(row[0], int) else 0


@contextmanager
def _upgrading(real: Path, shown: Path) -> Iterator[None]:
    """Hold the file's write lock while it is upgraded, so a second program opening it waits
    for the first (or is told it is busy) instead of upgrading through the same copy."""
    try:
        guard = sqlite3.connect(_address(real, "rw"), uri=True, isolation_level=None,
                                timeout=BUSY_SECONDS)
        guard.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise CampaignBusy(f"{shown}: is being upgraded or written by another program; "
                               "try again in a moment") from None
        raise CampaignFileError(shown, f"cannot be upgraded ({exc})") from exc
    try:
        yield
    finally:
        guard.close()  # its transaction wrote nothing: closing it releases the lock


def _check_upgraded(work: Path) -> None:
    """The checks of an open, on the upgraded copy of a file before it replaces the file."""
    doc = CampaignDocument(work, connect(work, "ro"), readonly=True)
    try:
        _audit(doc)
    finally:
        doc.close()


def _audit(doc: CampaignDocument) -> None:
    """The stored state checked against the campaign's own scenario and ground, which are
    read once here and kept by the document for what it does next."""
    with doc.reading() as con:
        audit(con, doc.ground)


def _verify(doc: CampaignDocument) -> None:
    """Refuse a file whose stored scenario or day's state is not a campaign this version can
    play on: a missing table, a row that does not validate, a command missing or unknown, a
    position off the map."""
    try:
        _audit(doc)
    except CampaignFileError:
        raise
    except CampaignError as exc:
        raise CampaignFileError(doc.path, f"is damaged: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise CampaignFileError(doc.path, f"is damaged ({exc})") from None


def create_campaign(
    path: str | Path,
    *,
    name: str | None = None,
    start_date: date | None = None,
    scenario: str = "1813",
    overwrite: bool = False,
) -> CampaignDocument:
    """Create a new campaign file from a shipped scenario and open it.

    The file is built beside its destination and moved into place only when complete, so a
    failure leaves no half-written campaign behind.
    """
    from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder

    path = Path(path)
    if start_date is not None and not EARLIEST_START <= start_date <= LATEST_START:
        raise CampaignError(f"the start date {start_date.isoformat()} is not {START_RANGE}")
    _check_destination(path, overwrite)
    files = read_scenario_folder(scenario_dir(scenario))
    loaded = load_scenario(files)  # a scenario that does not validate never becomes a campaign
    _build(path, loaded, name=check_name(name) if name is not None else loaded.settings.name,
           start=start_date or loaded.settings.start_date, scenario=scenario, files=files)
    return open_campaign(path)


def campaign_from_scenario(path: str | Path, scenario: Scenario,
                           name: str | None = None) -> CampaignDocument:
    """A campaign file for a scenario held only in memory (a generated or hand-made map);
    the file keeps the scenario's validated form, so it opens like any other."""
    path = Path(path)
    _check_destination(path, overwrite=False)
    _build(path, scenario, name=name or scenario.name, start=scenario.settings.start_date,
           scenario=scenario.name, files=None)
    return open_campaign(path)


def check_name(name: str) -> str:
    """A campaign's name as the umpire gives it: text of one line, no control characters nor
    the invisible marks that turn text around (refused with the reason), at most 200
    characters."""
    shown = name.encode("utf-8", "backslashreplace").decode("utf-8")
    if not name.strip():
        raise CampaignError("a campaign's name cannot be empty")
    if len(name) > 200:
        raise CampaignError(f"the campaign's name is {len(name)} characters long; at most 200")
    if shown != name:
        raise CampaignError(f"the campaign's name {shown!r} holds bytes that are not text "
                            "(not UTF-8)")
    odd = [c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if odd:
        raise CampaignError(f"the campaign's name {shown.encode('unicode_escape').decode()!r} "
                            f"holds a control or direction mark (U+{ord(odd[0]):04X}); give "
                            "it in plain words")
    return name


def _check_destination(path: Path, overwrite: bool) -> None:
    if path.exists() and not overwrite:
        raise CampaignFileError(path, "already exists; choose another name")
    if not path.parent.exists():
        raise CampaignFileError(path, f"its folder {path.parent} does not exist")


def _build(path: Path, loaded: Scenario, *, name: str, start: date, scenario: str,
           files: dict[str, str] | None) -> None:
    """Lay out a ``.part`` file, write the new campaign into it, and move it into place."""
    from campaign1813.campaign.store.migrate import create_layout

    # absolute: SQLite reads a bare name beginning "file:" as an address, not as the file
    tmp = path.absolute().with_name(path.name + ".part")
    tmp.unlink(missing_ok=True)
    try:
        create_layout(tmp)
        con = connect(tmp)
        try:
            con.execute("BEGIN IMMEDIATE")
            con.execute("INSERT INTO document (id, application, schema_version, written_by) "
                        "VALUES (1, ?, ?, ?)", (APPLICATION, SCHEMA_VERSION, __version__))
            settings = tomllib.loads(files["settings.toml"]) if files else {}
            con.execute(
                'INSERT INTO campaign (id, name, scenario, start_date, "current_date", '
                "settings_json) VALUES (1, ?, ?, ?, ?, ?)",
                (name, scenario, start.isoformat(), start.isoformat(),
                 json.dumps(settings, default=str)))
            con.execute("INSERT INTO day_info (id, marched, next_battle) VALUES (1, 0, 1)")
            store_scenario(con, loaded, files)
            write_state(con, opening_state(loaded, start))
            con.execute("COMMIT")
        finally:
            con.close()
    except Exception:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(path)


def backup_campaign(doc: CampaignDocument, out: str | Path, *, overwrite: bool = False) -> Path:
    """A whole, consistent copy of an open campaign (SQLite's backup API, which waits for any
    commit under way), written beside its destination and moved into place when complete."""
    out = Path(out)
    if _same_file(out, doc.path):
        raise CampaignFileError(out, "is the campaign itself; choose another name for the copy")
    refuse_campaign_target(out, "a copy")
    _check_destination(out, overwrite)
    try:
        _write_copy(doc.con, out)
    except OSError as exc:
        raise CampaignFileError(out, f"cannot be written ({exc.strerror or exc})") from None
    except sqlite3.Error as exc:
        raise CampaignFileError(out, f"cannot be written ({exc})") from None
    return out


def _write_copy(source: sqlite3.Connection, out: Path) -> None:
    """A whole copy of a database through SQLite's backup API, made beside ``out`` and moved
    into place when complete; nothing is left beside it if it fails."""
    tmp = out.absolute().with_name(out.name + ".part")  # absolute: see _build
    try:
        tmp.unlink(missing_ok=True)
        dst = sqlite3.connect(tmp)
        try:
            source.backup(dst)
        finally:
            dst.close()
        tmp.replace(out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _move_with_journal(src: Path, dst: Path) -> None:
    """Rename a campaign file and what SQLite keeps beside it, as a pair."""
    src.replace(dst)
    for suffix in SIDE_FILES:
        side = src.with_name(src.name + suffix)
        if side.exists():
            side.replace(dst.with_name(dst.name + suffix))


def restore_campaign(backup: str | Path, target: str | Path) -> Path | None:
    """Put a backup in the place of a campaign, safely after a crash: the backup is checked
    first; the file it replaces is moved aside with its journal (renamed as a pair, so the
    crashed file can still be recovered under its new name) and the backup is copied in whole
    beside the target and moved into place. Returns where the replaced file went (None when
    there was none to replace)."""
    backup, target = Path(backup), Path(target)
    check_campaign_file(backup)
    if target.exists() and _same_file(backup, target):
        raise CampaignFileError(backup, "is the campaign itself; name the backup to restore")
    for doc in list(_OPEN):
        if target.exists() and _same_file(target, doc.path):
            raise CampaignFileError(target, "is open in this program; close it, then restore")
    real = real_path(target)
    if not real.parent.is_dir():
        raise CampaignFileError(target, f"its folder {real.parent} does not exist")
    aside = real
    if real.exists():
        aside = _free_name(real.with_name(real.name + ".before-restore"))
        _move_with_journal(real, aside)
    try:
        src = sqlite3.connect(_address(backup, "ro"), uri=True)
        try:
            _write_copy(src, real)
        finally:
            src.close()
    except (OSError, sqlite3.Error) as exc:
        if aside != real and not real.exists():
            _move_with_journal(aside, real)  # put the replaced file back rather than nothing
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise CampaignFileError(target, f"cannot be restored ({reason})") from None
    return aside if aside != real else None


def _free_name(path: Path) -> Path:
    """``path``, or the first of ``path.2``, ``path.3`` … that no file has taken."""
    candidate, n = path, 1
    while candidate.exists() or any(candidate.with_name(candidate.name + s).exists()
                                    for s in SIDE_FILES):
        n += 1
        candidate = path.with_name(f"{path.name}.{n}")
    return candidate


def save_campaign_as(doc: CampaignDocument, new_path: str | Path, *,
                     overwrite: bool = False) -> CampaignDocument:
    """Copy an open campaign, whole and consistent, to a new file and open the copy."""
    new_path = Path(new_path)
    if _same_file(new_path, doc.path):
        return doc
    backup_campaign(doc, new_path, overwrite=overwrite)
    return open_campaign(new_path)
