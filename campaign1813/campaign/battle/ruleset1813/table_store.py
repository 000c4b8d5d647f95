"""The estimate's tables kept on disk between runs, keyed by what they were built from.

An estimate reads a few thousand tables of the rules' results (:mod:`.auto_tables`), and the
first estimate in a fresh process spent about a third of its time building them. They depend
only on the ruleset's files and on the rules engine's code, so once built they are written to
the user's cache folder (``platformdirs.user_cache_dir``) in a file named by the SHA-256 of both,
and read back by the next process that estimates a battle under the same ruleset. A change to a
ruleset file or to the rules' code gives another name, so a table is never read from a file
built by other rules; a file that cannot be read or is not what it should be is ignored (the
tables are built again and the file written anew). The file is JSON: plain numbers and words.

>>> key("morale", "infantry", "B", 0, 0, 6, False)
'morale|infantry|B|0|0|6|False'
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from campaign1813 import __version__
from campaign1813.campaign.battle.files import rulesets_root
from campaign1813.campaign.battle.ruleset1813.rules.loader import ruleset_info

__all__ = ["TableStore", "store_for", "key", "fingerprint", "cache_folder", "FORMAT", "KEPT"]

# The layout of the file's entries (written by ``auto_estimate``; in the second, a combat's or a
# skirmish's different rows once each and each draw's row by its place); a change of layout
# changes every file's name.
FORMAT = 2
# How many files of one ruleset are kept, this program's among them (see ``TableStore.prune``).
KEPT = 3
# The code the tables are read from: the 1813 rules engine and the battle's shared terms.
_CODE = Path(__file__).resolve().parent
_SHARED = _CODE.parent


def key(*parts: object) -> str:
    """A table's situation as one word: its kind and what it was built from, joined by |."""
    return "|".join(str(p) for p in parts)


def _ruleset_files(ruleset: str) -> list[Path]:
    """The files of a ruleset and of every ruleset it extends."""
    files: list[Path] = []
    seen: set[str] = set()
    name: str | None = ruleset
    while name is not None and name not in seen:
        seen.add(name)
        files += sorted(p for p in (rulesets_root() / name).glob("*") if p.is_file())
        name = ruleset_info(name).get("extends")
    return files


@cache
def _code_hash() -> str:
    """The rules engine's source, hashed (the package's version where it ships without it)."""
    sources = sorted([*_CODE.rglob("*.py"), *_SHARED.glob("*.py"), *_SHARED.glob("core/*.py")])
    digest = hashlib.sha256(f"{__version__} {sys.version_info[:2]} {FORMAT}".encode())
    for path in sources:
        digest.update(path.relative_to(_SHARED).as_posix().encode())
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()


def fingerprint(ruleset: str) -> str:
    """The SHA-256 of the ruleset's files (and those it extends) and of the rules' code."""
    digest = hashlib.sha256(_code_hash().encode())
    for path in _ruleset_files(ruleset):
        digest.update(path.name.encode())
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()


def cache_folder() -> Path:
    """Where the tables are kept: the user's cache folder for the application."""
    return Path(user_cache_dir("campaign1813", appauthor=False)) / "auto-tables"


class TableStore:
    """The tables of one ruleset built so far: read from its file, written back when grown."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.fingerprint = fingerprint(ruleset)
        self.path = cache_folder() / f"{ruleset}-{self.fingerprint[:32]}.json"
        self.tables: dict[str, Any] = {}
        self.added = 0
        # Estimates in two threads share the store: a table is added, or the whole written,
        # by one of them at a time.
        self.lock = threading.Lock()
        self.read()

    def read(self) -> None:
        """Take the tables of the file, if it is there and whole; else start with none."""
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return
        if (isinstance(data, dict) and data.get("format") == FORMAT
                and data.get("fingerprint") == self.fingerprint
                and isinstance(data.get("tables"), dict)):
            self.tables = data["tables"]

    def get(self, situation: str) -> Any:
        """The table stored for this situation, as plain lists, or None."""
        return self.tables.get(situation)

    def put(self, situation: str, table: Any) -> None:
        """Keep a table just built, to be written with the others."""
        with self.lock:
            self.tables[situation] = table
            self.added += 1

    def write(self) -> None:
        """Write the tables to the file if any were added (whole, by a rename); a folder that
        cannot be written only means they are built again next time."""
        with self.lock:
            if not self.added:
                return
            text = json.dumps({"format": FORMAT, "fingerprint": self.fingerprint,
                               "tables": self.tables}, separators=(",", ":"))
            added = self.added
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=self.path.stem, suffix=".part",
                                        dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(temp, self.path)
            except OSError:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError:
            return
        with self.lock:
            self.added -= added         # those added while it was written wait for the next
        self.prune()

    def prune(self) -> None:
        """Remove this ruleset's files built by other rules or code but the ``KEPT`` newest
        (a program updated leaves its old tables behind; two programs of different code used
        in turn, as a bundle beside a source checkout, each keep theirs), and pieces of a
        write cut off more than an hour ago. What cannot be removed is left."""
        folder = self.path.parent
        try:
            # this ruleset's names only (``1813-<32 hex>``, not ``1813-revised-…``)
            others = [p for p in folder.glob(f"{self.ruleset}-*.json")
                      if p != self.path and _is_hex(p.stem[len(self.ruleset) + 1:], 32)]
            others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
            stale = others[KEPT - 1:]
            cut_off = time.time() - 3600
            stale += [p for p in folder.glob(f"{self.ruleset}-*.part")
                      if _is_hex(p.name[len(self.ruleset) + 1:][:32], 32)
                      and p.stat().st_mtime < cut_off]
        except OSError:
            return
        for path in stale:
            try:
                path.unlink(missing_ok=True)
            except OSError:
                pass


def _is_hex(text: str, length: int) -> bool:
    """Whether ``text`` is ``length`` hexadecimal digits (a fingerprint in a file's name)."""
    return len(text) == length and all(c in "0123456789abcdef" for c in text)


_STORES: dict[tuple[str, Path, str], TableStore] = {}


def store_for(ruleset: str) -> TableStore:
    """The process's store of this ruleset's tables as its files are now (read from disk the
    first time)."""
    where = (ruleset, cache_folder(), fingerprint(ruleset))
    store = _STORES.get(where)
    if store is None:
        store = _STORES[where] = TableStore(ruleset)
    return store
