"""Reading a ruleset's tables from the shipped TOML files.

A ruleset is a folder under ``data/rulesets/``. Its ``ruleset.toml`` names it, may say which
ruleset it ``extends``, and lists the readings of unclear rules it takes (``assumptions``). Every
other file is a table set (``fire.toml``, ``combat.toml`` …); a file a ruleset does not have is
taken from the ruleset it extends, so a variant holds only what it changes.

Every file read is checked against its model in :mod:`.schema`. Importing pydantic costs more
than the whole of ``campaign1813 odds``, so a file whose bytes are listed in the manifest
``validated.json`` (every shipped file, checked when the manifest was written) is not checked
again; only a file an umpire has changed is.

>>> load_table("1813", "fire.toml")["dice"]
'2d6'
>>> ruleset_info("1813-revised")["extends"]
'1813'
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from campaign1813.campaign.battle.files import (
    MANIFEST,
    RulesetError,
    content_hash,
    rulesets_root,
)
from campaign1813.campaign.battle.registry import own_engine, ruleset_names

__all__ = ["MANIFEST", "RulesetError", "assumptions", "content_hash", "load_table",
           "ruleset_info", "ruleset_names", "rulesets_root", "check_all"]

def _folder(name: str) -> Path:
    return rulesets_root() / name


@cache
def ruleset_info(name: str) -> dict[str, Any]:
    """The contents of a ruleset's ``ruleset.toml``."""
    path = _folder(name) / "ruleset.toml"
    if not path.is_file():
        known = ", ".join(ruleset_names())
        raise RulesetError(f"no ruleset called '{name}' (known: {known})")
    return _parse(path, f"{name}/ruleset.toml")


@cache
def load_table(ruleset: str, filename: str) -> dict[str, Any]:
    """A table file of a ruleset, or of the ruleset it extends."""
    seen: list[str] = []
    name: str | None = ruleset
    while name is not None:
        if name in seen:
            raise RulesetError(f"ruleset '{ruleset}' extends itself through {' → '.join(seen)}")
        seen.append(name)
        engine = own_engine(name)
        if engine is not None:
            raise RulesetError(f"ruleset '{name}' has rules of its own "
                               f"({engine.partition(':')[0].rpartition('.')[0]}); the 1813 "
                               f"rules cannot read its {filename}")
        info = ruleset_info(name)
        path = _folder(name) / filename
        if path.is_file():
            return _parse(path, f"{name}/{filename}")
        name = info.get("extends")
    raise RulesetError(f"ruleset '{ruleset}' has no table file {filename}")


def check_all(ruleset: str) -> None:
    """Read every table file of a ruleset and of those it extends, so that a damaged one is
    refused now, before a battle is set up or fought by it, rather than half-way through."""
    names: set[str] = set()
    seen: list[str] = []
    name: str | None = ruleset
    while name is not None and name not in seen:
        seen.append(name)
        names.update(p.name for p in _folder(name).glob("*.toml"))
        name = ruleset_info(name).get("extends")
    for filename in sorted(names - {"ruleset.toml"}):
        load_table(ruleset, filename)


def assumptions(ruleset: str) -> tuple[str, ...]:
    """The readings of unclear rules a ruleset takes, its own and those it extends."""
    info = ruleset_info(ruleset)
    inherited = assumptions(info["extends"]) if info.get("extends") else ()
    return inherited + tuple(info.get("assumptions", ()))


def _validated() -> frozenset[tuple[str, str]]:
    """(file name, content hash) of every file the manifest lists; none if there is none."""
    path = rulesets_root() / MANIFEST
    return _listed(path.read_text(encoding="utf-8")) if path.is_file() else frozenset()


@cache
def _listed(manifest: str) -> frozenset[tuple[str, str]]:
    files: dict[str, str] = json.loads(manifest)["files"]
    return frozenset((label.rpartition("/")[2], digest) for label, digest in files.items())


def _parse(path: Path, label: str) -> dict[str, Any]:
    raw = path.read_bytes()
    try:
        table = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{label}: {exc}") from exc
    except RecursionError:
        raise RulesetError(f"{label}: its tables or lists are nested too deeply") from None
    if (path.name, content_hash(raw)) not in _validated():
        # A file changed by hand: only now is pydantic worth its import.
        from campaign1813.campaign.battle.ruleset1813.rules.schema import check_table

        check_table(path.name, table, label)
    return table
