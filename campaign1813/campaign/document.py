"""Creating, checking and opening campaign files (SQLite, suffix ``.c1813``).

A file is checked read-only before it is opened for writing, so a file that is not a campaign,
is truncated or damaged, or comes from a newer version is refused with a one-line reason and is
never touched.
"""

from __future__ import annotations

import json
import sqlite3
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine, select

from campaign1813 import __version__
from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.model import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    CampaignInfo,
    DocumentInfo,
)
from campaign1813.campaign.scenario.loader import (
    load_scenario,
    read_scenario_folder,
    store_scenario_files,
)
from campaign1813.campaign.scenario.types import Scenario
from campaign1813.campaign.state import start_campaign
from campaign1813.data import scenario_dir

SUFFIX = ".c1813"
_SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class CampaignSummary:
    """What the window title and ``status`` show: name and dates."""

    name: str
    start_date: date
    current_date: date


def _sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def _make_engine(path: Path) -> Engine:
    engine = create_engine(_sqlite_url(path))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):  # foreign keys on, and durable commits
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    return engine


def check_campaign_file(path: str | Path) -> None:
    """Refuse, with the file and the reason, anything that is not a campaign we can open.

    Opens the file read-only; nothing on disk changes whatever the outcome.
    """
    path = Path(path)
    if not path.exists():
        raise CampaignFileError(path, "no such file")
    if not path.is_file():
        raise CampaignFileError(path, "is a folder, not a campaign file")
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
    journal = path.with_name(path.name + "-journal")
    if journal.exists() and journal.stat().st_size > 0:
        # A hot journal means a writer died mid-transaction; SQLite rolls it back on the first
        # read-write open, restoring the last committed state (a read-only open cannot).
        try:
            con = sqlite3.connect(path)
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            con.close()
        except sqlite3.Error as exc:
            raise CampaignFileError(path, f"cannot be recovered ({exc})") from exc
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
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
        except sqlite3.DatabaseError as exc:
            raise CampaignFileError(path, f"is damaged ({exc})") from exc
    finally:
        con.close()
    if row is None or row[0] != APPLICATION_ID:
        raise CampaignFileError(path, "is an SQLite database but not a campaign")
    if ok is None or ok[0] != "ok":
        raise CampaignFileError(path, f"is damaged ({ok[0] if ok else 'integrity check failed'})")
    if row[1] > SCHEMA_VERSION:
        raise CampaignFileError(
            path,
            f"was written by a newer version of campaign1813 (schema {row[1]}; "
            f"this version reads up to {SCHEMA_VERSION})",
        )


class CampaignDocument:
    """An open campaign file: an engine and sessions over it."""

    def __init__(self, path: Path, engine: Engine):
        self.path = path
        self.engine = engine

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose work is committed on success and rolled back on any error."""
        with Session(self.engine) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def summary(self) -> CampaignSummary:
        """The campaign's name and dates."""
        with Session(self.engine) as session:
            info = session.exec(select(CampaignInfo)).one()
            return CampaignSummary(info.name, info.start_date, info.current_date)

    def settings(self) -> dict:
        """The campaign's settings as stored in the file."""
        with Session(self.engine) as session:
            return json.loads(session.exec(select(CampaignInfo)).one().settings_json)

    def close(self) -> None:
        """Release the file."""
        self.engine.dispose()

    def __enter__(self) -> CampaignDocument:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_campaign(path: str | Path) -> CampaignDocument:
    """Open an existing campaign file after checking it read-only."""
    path = Path(path)
    check_campaign_file(path)
    return CampaignDocument(path, _make_engine(path))


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
    path = Path(path)
    if path.exists() and not overwrite:
        raise CampaignFileError(path, "already exists; choose another name")
    if not path.parent.exists():
        raise CampaignFileError(path, f"its folder {path.parent} does not exist")
    files = read_scenario_folder(scenario_dir(scenario))
    loaded = load_scenario(files)  # a scenario that does not validate never becomes a campaign
    start = start_date or loaded.settings.start_date
    tmp = path.with_name(path.name + ".part")
    tmp.unlink(missing_ok=True)
    engine = _make_engine(tmp)
    try:
        _write_new_campaign(engine, loaded, name=name or loaded.settings.name, start=start,
                            scenario=scenario, files=files)
    except Exception:
        engine.dispose()
        tmp.unlink(missing_ok=True)
        raise
    engine.dispose()
    tmp.replace(path)
    return open_campaign(path)


def campaign_from_scenario(path: str | Path, scenario: Scenario,
                           name: str | None = None) -> CampaignDocument:
    """A campaign file for a scenario held only in memory (a generated or hand-made map).

    No scenario files are stored, so the services must be given the scenario itself.
    """
    path = Path(path)
    engine = _make_engine(path)
    _write_new_campaign(engine, scenario, name=name or scenario.name,
                        start=scenario.settings.start_date)
    return CampaignDocument(path, engine)


def _write_new_campaign(engine: Engine, loaded: Scenario, *, name: str, start: date,
                        scenario: str = "1813", files: dict[str, str] | None = None) -> None:
    """Create the tables and write a new campaign: its document row, its scenario files (when
    it has them), its name and dates, and every HQ and corps at its starting town."""
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        session.add(DocumentInfo(written_by=__version__))
        settings = {}
        if files is not None:
            store_scenario_files(session, files)
            settings = tomllib.loads(files["settings.toml"])
        session.add(CampaignInfo(name=name, scenario=scenario, start_date=start,
                                 current_date=start,
                                 settings_json=json.dumps(settings, default=str)))
        session.flush()
        start_campaign(session, loaded)
        session.commit()


def save_campaign_as(doc: CampaignDocument, new_path: str | Path) -> CampaignDocument:
    """Copy an open campaign, whole and consistent, to a new file and open the copy."""
    new_path = Path(new_path)
    if new_path.resolve() == doc.path.resolve():
        return doc
    if not new_path.parent.exists():
        raise CampaignFileError(new_path, f"its folder {new_path.parent} does not exist")
    tmp = new_path.with_name(new_path.name + ".part")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(doc.path)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    tmp.replace(new_path)
    return open_campaign(new_path)
