"""Reaching a campaign's rows behind its store's back, in either store: what another program
(or a damaged disk) could do to a campaign file or to a server campaign's tables."""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import psycopg

from campaign1813.campaign.store.address import is_address
from campaign1813.campaign.store.server import ServerAddress
from campaign1813.campaign.store.version import TABLES


def campaign_address(database: str, name: str | None = None) -> str:
    """A new campaign's address in a database (a fresh name unless one is given)."""
    return f"{database}&campaign={name or f'c-{secrets.token_hex(4)}'}"


def _server(target: str) -> psycopg.Connection[Any]:
    address = ServerAddress(target)
    return psycopg.connect(address.conninfo, options=f"-c search_path={address.schema}")


def write_raw(target: str, sql: str, params: tuple = ()) -> None:
    """Change stored rows with the file's SQL (question marks), committed at once."""
    if is_address(target):
        with _server(target) as con:
            con.execute(sql.replace("?", "%s"), params)
        return
    con = sqlite3.connect(target)
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()


def read_raw(target: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Stored rows read with the file's SQL; dates as the file keeps them (ISO text)."""
    if is_address(target):
        with _server(target) as con:
            rows = con.execute(sql.replace("?", "%s"), params).fetchall()
        return [tuple(v.isoformat() if hasattr(v, "isoformat") else v for v in r) for r in rows]
    con = sqlite3.connect(target)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def digest(target: str) -> str:
    """A file's bytes; a server campaign's every table, row by row."""
    if not is_address(target):
        return hashlib.sha256(Path(target).read_bytes()).hexdigest()
    tables = [read_raw(target, f"SELECT * FROM {t} ORDER BY 1") for t in sorted(TABLES)]
    return hashlib.sha256(repr(tables).encode()).hexdigest()
