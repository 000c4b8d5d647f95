"""Building and upgrading the campaign file's layout with alembic.

A new campaign is laid out by running every revision on an empty file. An older campaign is
upgraded on a copy made with SQLite's backup API; only when every revision has run and the copy
is complete does it replace the original, so a failed upgrade leaves the file byte for byte as
it was.

Alembic, SQLAlchemy and SQLModel (the tables of ``schema``, which the migrations' environment
imports too) are imported by this module alone, and it is imported only when a file is made or
upgraded (``store.document``): opening a campaign of the newest version needs none of them.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from campaign1813.campaign.errors import CampaignError, CampaignFileError
from campaign1813.campaign.store.scenario import read_scenario
from campaign1813.campaign.store.schema import SQLModel
from campaign1813.campaign.store.version import APPLICATION_ID, REVISIONS, SCHEMA_VERSION

SCRIPTS = "campaign1813.campaign.store:migrations"


def _run(path: Path, start: str | None) -> None:
    """Run the revisions after ``start`` (all of them for None) on the file, in one go."""
    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(path),
                           poolclass=NullPool)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            if start is not None:
                command.stamp(config, start)
            command.upgrade(config, "head")
    finally:
        engine.dispose()


def create_layout(path: Path) -> None:
    """Lay out an empty file at the newest schema version."""
    _run(path, None)
    _mark(path)


def _mark(path: Path) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.commit()
    finally:
        con.close()


def _complete(path: Path) -> None:
    """What an upgrade does after the revisions: the validated scenario kept in the file."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        read_scenario(con, writable=True)
        con.execute("COMMIT")
    finally:
        con.close()


# The tables every file of a schema version has, checked before an upgrade is tried.
TABLES = {1: {"document", "campaign", "scenario_file", "day_command", "day_order", "day_battle",
              "town_control", "day_info", "event_log"}}
TABLES[2] = TABLES[1] | {"scenario_form"}
TABLES[3] = TABLES[2]
TABLES[4] = TABLES[3]


def _check_tables(path: Path, version: int) -> None:
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()
    if not TABLES.get(version, set()) <= tables:
        raise CampaignFileError(path, "has no campaign-day tables (it was made by an earlier "
                                      "version); start a new campaign from it")


def upgrade_file(path: Path, version: int,
                 check: Callable[[Path], None] | None = None) -> None:
    """Upgrade a campaign file of an older schema version to the newest, on a copy; the copy
    replaces the file only once ``check`` has found it a campaign that opens, so a file refused
    is left as it was."""
    if version not in REVISIONS:
        raise CampaignFileError(path, f"has schema version {version}, which no release wrote")
    _check_tables(path, version)
    # absolute: SQLite reads a bare name beginning "file:" as an address, not as the file
    work = path.absolute().with_name(path.name + ".upgrading")
    work.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        dst = sqlite3.connect(work)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        _run(work, None if version == 0 else REVISIONS[version])
        _mark(work)
        _complete(work)
        if check is not None:
            check(work)
        with work.open("rb") as fh:
            os.fsync(fh.fileno())
    except CampaignFileError:
        work.unlink(missing_ok=True)
        raise
    except CampaignError as exc:  # the upgraded copy is not a campaign that opens
        work.unlink(missing_ok=True)
        raise CampaignFileError(path, f"is damaged: {exc}") from None
    except Exception as exc:
        work.unlink(missing_ok=True)
        said = (str(exc).splitlines() or [""])[0]  # SQLAlchemy adds the SQL on further lines
        raise CampaignFileError(
            path, f"could not be upgraded from schema {version} to {SCHEMA_VERSION} "
                  f"({type(exc).__name__}: {said}); it is unchanged") from exc
    os.replace(work, path)


def compare_layout(path: Path) -> list[Any]:
    """The differences between a file's layout and the tables of ``schema`` (for the tests)."""
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(path))
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            return list(compare_metadata(context, SQLModel.metadata))
    finally:
        engine.dispose()
