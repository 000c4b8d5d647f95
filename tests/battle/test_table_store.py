"""The estimate's tables kept on disk: read back only by the same rules, and always the rules'.

Every test runs with its own cache folder (``tests/conftest.py`` points XDG_CACHE_HOME at a
temporary one).
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from campaign1813.campaign.battle.ruleset1813 import auto_estimate, table_store
from campaign1813.campaign.battle.ruleset1813.autoresolve import estimate
from campaign1813.campaign.battle.ruleset1813.table_store import (
    FORMAT,
    KEPT,
    TableStore,
    cache_folder,
    fingerprint,
    store_for,
)
from tests.battle.setups import setup

_BUILDERS = ("morale_table", "fire_table_for", "combat_table", "skirmish_table",
             "charge_test_table", "reaction_table")


def _tables_of(path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["fingerprint"]) == (FORMAT, fingerprint("1813"))
    return data["tables"]


def test_the_tables_on_disk_are_those_the_rules_build_now(tmp_path, monkeypatch):
    """An estimate writes the tables it built under the rules' fingerprint; a fresh store
    built by the rules again from nothing (another folder) holds exactly the same tables."""
    s = setup(["A", "B"], ["B", "C"], cinc=True)
    first = estimate(s, 300, seed=5)
    written = store_for("1813").path
    assert written.parent == cache_folder()
    tables = _tables_of(written)
    kinds = {situation.partition("|")[0] for situation in tables}
    assert kinds == {"morale", "fire", "combat", "skirmish", "charge", "reaction"}

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    assert not store_for("1813").tables            # nothing on disk there yet
    monkeypatch.setattr(table_store, "_STORES", {})
    again = estimate(s, 300, seed=5)
    assert again == first
    rebuilt = _tables_of(store_for("1813").path)
    assert rebuilt == tables


def test_a_later_process_reads_the_tables_instead_of_building_them(monkeypatch):
    """With the file written, an estimate in a fresh store calls none of the rules' table
    builders and counts the same winners."""
    s = setup(["B"], ["C"])
    first = estimate(s, 400, seed=2)
    monkeypatch.setattr(table_store, "_STORES", {})        # as in a new process

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a table was built though it was on disk")

    for name in _BUILDERS:
        monkeypatch.setattr(auto_estimate, name, refused)
    assert estimate(s, 400, seed=2) == first


def test_a_changed_ruleset_file_changes_the_name_of_the_file(tmp_path, monkeypatch):
    """The fingerprint covers the ruleset's files: edit one and the old tables are not read."""
    root = tmp_path / "rulesets"
    shutil.copytree(table_store.rulesets_root(), root)
    monkeypatch.setattr(table_store, "rulesets_root", lambda: root)
    before = fingerprint("1813-revised")
    morale = root / "1813" / "morale.toml"     # the ruleset 1813-revised extends
    morale.write_text(morale.read_text(encoding="utf-8") + "\n# a house rule\n",
                      encoding="utf-8")
    after = fingerprint("1813-revised")
    assert after != before
    assert TableStore("1813-revised").path.name != f"1813-revised-{before[:32]}.json"


def test_a_file_of_other_rules_or_damaged_is_ignored_and_written_anew():
    """A file under the right name but with another fingerprint, or not JSON at all, gives no
    tables; the next estimate writes it whole again."""
    path = TableStore("1813").path
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"format": FORMAT, "fingerprint": "0" * 64,
                                "tables": {"morale|x": [[], [9], [True]]}}), encoding="utf-8")
    assert TableStore("1813").tables == {}
    path.write_bytes(b"\x00{not json")
    assert TableStore("1813").tables == {}
    estimate(setup(["B"], ["B"]), 50)
    assert _tables_of(path)


def test_a_folder_that_cannot_be_written_only_means_building_again():
    """Where the cache folder cannot be made, the estimate is made all the same."""
    folder = cache_folder()
    folder.parent.mkdir(parents=True)
    folder.write_text("a file where the folder should be", encoding="utf-8")
    odds = estimate(setup(["B"], ["B"]), 50)
    assert odds.runs == 50
    assert store_for("1813").added > 0              # kept to be written another time


@pytest.mark.parametrize("ruleset", ["1813", "1813-revised"])
def test_each_ruleset_has_its_own_file(ruleset):
    """Tables of one ruleset are never read for another."""
    assert TableStore(ruleset).path.name.startswith(f"{ruleset}-{fingerprint(ruleset)[:32]}")
    assert fingerprint("1813") != fingerprint("1813-revised")


def test_a_write_keeps_the_newest_files_of_other_code_and_removes_the_rest():
    """Files of the same ruleset built by other rules or code (a program updated, or a bundle
    used beside a source checkout) are kept but the newest KEPT (this one among them); other
    rulesets' files and other names are left, and a piece of a write cut off an hour ago goes."""
    folder = cache_folder()
    folder.mkdir(parents=True)
    old = [folder / f"1813-{i:032x}.json" for i in range(5)]
    for age, path in enumerate(old):
        path.write_text("{}", encoding="utf-8")
        os.utime(path, (1_000_000 + age, 1_000_000 + age))   # the last the newest
    other = folder / f"1813-revised-{'0' * 32}.json"
    other.write_text("{}", encoding="utf-8")
    stranger = folder / "notes.txt"
    stranger.write_text("mine", encoding="utf-8")
    piece = folder / f"1813-{'e' * 32}q1w2.part"
    piece.write_text("{", encoding="utf-8")
    os.utime(piece, (1_000_000, 1_000_000))
    fresh = folder / f"1813-{'f' * 32}r3t4.part"
    fresh.write_text("{", encoding="utf-8")
    store = TableStore("1813")
    store.put("morale|x", [[], [9], [True]])
    store.write()
    kept = {p.name for p in folder.iterdir()}
    assert kept == {store.path.name, old[4].name, old[3].name, other.name, stranger.name,
                    fresh.name}
    assert KEPT == 3
