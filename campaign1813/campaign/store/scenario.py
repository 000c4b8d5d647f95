"""The campaign's own copy of its scenario: the TOML files, and their validated form.

The files are copied in when the campaign is made, so it never depends on shipped data. Their
validated form is kept beside them as JSON, keyed by the hash of the files, so an open reads the
scenario without parsing and validating the TOML again; a form whose hash no longer matches is
rebuilt from the files. A campaign made from a scenario held only in memory keeps the form alone.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from hashlib import sha256

import msgspec

from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.types import Scenario

MEMORY = "in memory"  # the files_sha256 of a campaign whose scenario has no files


def files_hash(files: Mapping[str, str]) -> str:
    """The sha256 of a scenario's files, names and texts, in name order."""
    return sha256(json.dumps(sorted(files.items())).encode()).hexdigest()


def stored_files(con: sqlite3.Connection) -> dict[str, str]:
    """The scenario files stored in a campaign file, by name."""
    files = dict(con.execute("SELECT name, text FROM scenario_file ORDER BY name").fetchall())
    for name, text in files.items():
        if not isinstance(name, str) or not isinstance(text, str):
            raise ScenarioError(f"the campaign's scenario file {name!r:.80} is damaged: its "
                                "name and its text must be text")
    return files


def store_scenario(con: sqlite3.Connection, scenario: Scenario,
                   files: Mapping[str, str] | None) -> str:
    """Copy a scenario's files (when it has them) and its validated form into the file."""
    for name, text in sorted((files or {}).items()):
        con.execute("INSERT INTO scenario_file (name, text) VALUES (?, ?)", (name, text))
    key = files_hash(files) if files else MEMORY
    _write_form(con, key, scenario)
    return key


def _write_form(con: sqlite3.Connection, key: str, scenario: Scenario) -> None:
    form = msgspec.json.encode(scenario).decode()
    con.execute("DELETE FROM scenario_form")
    con.execute("INSERT INTO scenario_form (id, files_sha256, form_json) VALUES (1, ?, ?)",
                (key, form))


def stored_key(con: sqlite3.Connection) -> str | None:
    """The hash the stored form was made from, if the file has a form."""
    row = con.execute("SELECT files_sha256 FROM scenario_form").fetchone()
    return row[0] if row else None


def read_scenario(con: sqlite3.Connection, *, writable: bool) -> tuple[str, Scenario]:
    """The campaign's scenario and its key; from the stored form when it matches the files,
    otherwise parsed and validated from the files (and the form rewritten, if ``writable``)."""
    files = stored_files(con)
    row = con.execute("SELECT files_sha256, form_json FROM scenario_form").fetchone()
    key = files_hash(files) if files else MEMORY
    if row is not None and row[0] == key:
        try:
            if not isinstance(row[1], str):
                raise msgspec.DecodeError(f"the form is {type(row[1]).__name__}, not JSON text")
            return key, msgspec.json.decode(row[1], type=Scenario)
        except msgspec.DecodeError as exc:  # not JSON, or JSON that is not a scenario
            if not files:
                raise ScenarioError(f"the campaign's scenario is damaged: {exc}") from None
    if not files:
        raise ScenarioError("the campaign file holds no scenario")
    from campaign1813.campaign.scenario.loader import load_scenario

    scenario = load_scenario(files)
    if writable:
        _write_form(con, key, scenario)
    return key, scenario
