"""A campaign file of the shipped 1813 scenario, damaged row by row: a column given a value of
the wrong type, NULL, a negative or huge number, NaN-like text, JSON of the wrong shape or no
JSON at all; rows deleted, repeated or emptied out; tables loosened of their constraints or
dropped. Whatever the file holds, ``open_campaign`` opens it or refuses it with its path and
the reason, leaving it byte for byte as it was; an opened campaign's status and end of day work
or are refused with a one-line reason. Nothing else ever escapes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, note, settings
from hypothesis import strategies as st

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignError, CampaignFileError
from campaign1813.campaign.store.document import create_campaign, open_campaign

from .test_scenario_fuzz import _paths

TABLES = ("day_command", "day_order", "day_battle", "town_control", "day_info", "campaign",
          "scenario_form", "document")
RARE_TABLES = ("scenario_file", "event_log")
# A file of schema version 1, as the first release wrote it: opening it upgrades it.
GOLDEN = Path(__file__).parents[1] / "fixtures" / "golden-v1.c1813"

# CI runs a bounded number of examples; set FUZZ_EXAMPLES for a longer hunt.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 100)),
                suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> dict[str, Path]:
    """Two campaigns of the 1813 scenario: one marching, with orders and commands on the roads,
    and one a few days on, with a battle waiting for its result."""
    folder = tmp_path_factory.mktemp("bases")
    marching, battle = folder / "marching.c1813", folder / "battle.c1813"
    with create_campaign(marching) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.end_day(doc)
        services.end_day(doc)
    shutil.copyfile(marching, battle)
    with open_campaign(battle) as doc:
        for _ in range(10):
            services.end_day(doc)
            if queries.campaign_status(doc).battles:
                break
        assert queries.campaign_status(doc).battles_due
    return {"marching": marching, "battle": battle}


# -- the values a damaged file may hold -----------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
    | st.sampled_from(["Magdeburg", "Burg", "5 Corps", "French", "Allied", "1813-05-01", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=8,
)
not_json = st.sampled_from(["[", "{", '["Magdeburg"', "NaN]", "[1,]", "{'a': 1}", "nul",
                            "\x00", "[" * 2000, "[" * 5000 + "]" * 5000, '"\\ud800"'])
odd_text = st.sampled_from([
    "", " ", "NaN", "nan", "inf", "-inf", "-1", "0", "1e999", "-0", "true", "null", "[]", "{}",
    "[1]", '["Magdeburg"]', '["Burg", "Magdeburg", 6.5]', '["Magdeburg", "Burg", 6.5]',
    '["Burg", "Magdeburg", -3]', '["Burg", "Magdeburg", 1e999]', '["Burg", "Magdeburg", NaN]',
    '["Burg", "Magdeburg", 9999]', '["Burg", null, 1]', '["Atlantis"]', '[["a", 1]]',
    '[["a", -1e999]]', "1813-02-30", "1813-05-01", "1813-05-01T00:00", "9999-12-31",
    "0001-01-01", "French", "Allied", "Magdeburg", "5 Corps", "Move", "in battle", "HQ",
    "corps", "campaign1813", "1" + "0" * 40, "-" + "9" * 40,
])
sql_values = st.one_of(
    st.none(), st.sampled_from([-1, 0, 1, 2, 2**63 - 1, -(2**63), 10**18]),
    st.integers(-(2**63), 2**63 - 1), st.floats(), st.sampled_from([1e300, -1e300, 1e-300]),
    odd_text, st.text(max_size=20), json_values.map(json.dumps), not_json,
    st.binary(max_size=12),
    st.tuples(st.just("copy"), st.integers(0, 10**6)),  # the same column of another row
)

# One change to the file: which table, row and column are resolved against the file itself.
table_names = st.sampled_from(TABLES) | st.sampled_from(TABLES + RARE_TABLES)
index = st.integers(0, 10**6)
mutation = st.one_of(
    st.tuples(st.just("update"), table_names, index, index, sql_values),
    st.tuples(st.just("update"), table_names, index, index, sql_values),
    st.tuples(st.just("json"), table_names, index, index, index, json_values),
    st.tuples(st.just("json"), table_names, index, index, index, json_values),
    st.tuples(st.just("delete"), table_names, index),
    st.tuples(st.just("repeat"), table_names, index),
    st.tuples(st.just("empty"), table_names),
    st.tuples(st.just("loosen"), table_names),
    st.tuples(st.just("drop"), table_names),
)


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return data


def _apply(con: sqlite3.Connection, change: tuple) -> str:
    """Make one change; what was done, for the report of a failing example."""
    kind, table = change[0], change[1]
    exists = con.execute("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?",
                         (table,)).fetchone()[0]
    if not exists:
        return f"{kind} {table}: no such table"
    columns = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
    rowids = [r[0] for r in con.execute(f'SELECT rowid FROM "{table}" ORDER BY rowid')]
    try:
        if kind in ("update", "json"):
            if not rowids:
                return f"{kind} {table}: no rows"
            rowid = rowids[change[2] % len(rowids)]
            if kind == "json":
                json_columns = [c for c in columns if c.endswith("_json")] or columns
                column = json_columns[change[3] % len(json_columns)]
                text = con.execute(f'SELECT "{column}" FROM "{table}" WHERE rowid=?',
                                   (rowid,)).fetchone()[0]
                try:
                    data = json.loads(text)
                except (TypeError, ValueError, RecursionError):  # nested past Python's limit
                    return f"json {table}.{column} row {rowid}: not JSON"
                paths = _paths(data)
                path = paths[change[4] % len(paths)]
                value: Any = json.dumps(_set(data, path, change[5]))
                what = f"{list(path)} = {change[5]!r}"
            else:
                column = columns[change[3] % len(columns)]
                value = change[4]
                if isinstance(value, tuple):  # the value of another row
                    other = rowids[value[1] % len(rowids)]
                    value = con.execute(f'SELECT "{column}" FROM "{table}" WHERE rowid=?',
                                        (other,)).fetchone()[0]
                what = f"= {value!r:.200}"
            con.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = ?', (value, rowid))
            return f"{kind} {table}.{column} row {rowid} {what}"
        if kind == "delete":
            if not rowids:
                return f"delete {table}: no rows"
            rowid = rowids[change[2] % len(rowids)]
            con.execute(f'DELETE FROM "{table}" WHERE rowid = ?', (rowid,))
            return f"delete {table} row {rowid}"
        if kind == "repeat":
            if not rowids:
                return f"repeat {table}: no rows"
            rowid = rowids[change[2] % len(rowids)]
            con.execute(f'INSERT INTO "{table}" SELECT * FROM "{table}" WHERE rowid = ?',
                        (rowid,))
            return f"repeat {table} row {rowid}"
        if kind == "empty":
            con.execute(f'DELETE FROM "{table}"')
            return f"empty {table}"
        if kind == "loosen":  # the same columns and rows, without types, keys or NOT NULL
            con.execute(f'CREATE TABLE "loose" AS SELECT * FROM "{table}"')
            con.execute(f'DROP TABLE "{table}"')
            con.execute(f'ALTER TABLE "loose" RENAME TO "{table}"')
            return f"loosen {table}"
        con.execute(f'DROP TABLE "{table}"')
        return f"drop {table}"
    except sqlite3.IntegrityError as exc:  # the file's own constraints refused the change
        return f"{kind} {table}: refused by SQLite ({exc})"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _check_refusal(exc: CampaignError, path: Path) -> None:
    """Every refusal is one line; a file's refusal names the file (a damaged stored
    scenario's problems joined on that line)."""
    message = str(exc)
    assert message and len(message.splitlines()) == 1, repr(message)
    if isinstance(exc, CampaignFileError):
        assert message.startswith(f"{path}: "), message


def _damage_and_open(base: Path, changes: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.c1813"
        shutil.copyfile(base, path)
        con = sqlite3.connect(path, isolation_level=None)
        try:
            for change in changes:
                note(_apply(con, change))
        finally:
            con.close()
        before = _sha256(path)
        try:
            doc = open_campaign(path)
        except CampaignError as exc:
            note(f"refused: {exc}")
            event("open refused")
            _check_refusal(exc, path)
            assert _sha256(path) == before, "a refused file was changed"
            return
        with doc:
            for action in (queries.campaign_status, services.end_day):
                try:
                    action(doc)
                    event(f"{action.__name__} ran")
                except CampaignError as exc:
                    note(f"{action.__name__} refused: {exc}")
                    event(f"{action.__name__} refused")
                    _check_refusal(exc, path)


@FUZZ
@given(base=st.sampled_from(("marching", "battle")),
       changes=st.lists(mutation, min_size=1, max_size=3))
# found by the fuzzer: a stored scenario whose towns are gone while its roads stay
@example(base="marching", changes=[("json", "scenario_form", 0, 0, 3, [])])
# a stored scenario file with two problems: once refused on two lines
@example(base="marching", changes=[("update", "scenario_file", 5, 1,
                                    "[campaign]\nname = 5\nstart_date = 'x'\n")])
def test_a_damaged_file_opens_or_is_refused_untouched(bases, base, changes):
    _damage_and_open(bases[base], changes)


# An upgrade runs the migrations on a copy, a few tenths of a second: fewer examples.
@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 8))
@given(changes=st.lists(mutation, min_size=1, max_size=3))
def test_a_damaged_older_file_is_upgraded_or_refused_untouched(changes):
    _damage_and_open(GOLDEN, changes)
