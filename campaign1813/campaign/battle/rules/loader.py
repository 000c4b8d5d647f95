"""Reading a ruleset's tables from the shipped TOML files.

A ruleset is a folder under ``data/rulesets/``. Its ``ruleset.toml`` names it, may say which
ruleset it ``extends``, and lists the readings of unclear rules it takes (``assumptions``). Every
other file is a table set (``fire.toml``, ``combat.toml`` …); a file a ruleset does not have is
taken from the ruleset it extends, so a variant holds only what it changes.
"""

from __future__ import annotations

import tomllib
from functools import cache

from campaign1813.data import data_root


class RulesetError(ValueError):
    """A ruleset or one of its tables is missing or malformed; says which and why."""


def _folder(name: str):
    return data_root() / "rulesets" / name


def ruleset_names() -> tuple[str, ...]:
    """The shipped rulesets."""
    root = data_root() / "rulesets"
    return tuple(sorted(p.name for p in root.iterdir() if (p / "ruleset.toml").is_file()))


@cache
def ruleset_info(name: str) -> dict:
    """The contents of a ruleset's ``ruleset.toml``."""
    path = _folder(name) / "ruleset.toml"
    if not path.is_file():
        known = ", ".join(ruleset_names())
        raise RulesetError(f"no ruleset called '{name}' (known: {known})")
    return _parse(path, f"{name}/ruleset.toml")


@cache
def load_table(ruleset: str, filename: str) -> dict:
    """A table file of a ruleset, or of the ruleset it extends."""
    seen: list[str] = []
    name: str | None = ruleset
    while name is not None:
        if name in seen:
            raise RulesetError(f"ruleset '{ruleset}' extends itself through {' → '.join(seen)}")
        seen.append(name)
        info = ruleset_info(name)
        path = _folder(name) / filename
        if path.is_file():
            return _parse(path, f"{name}/{filename}")
        name = info.get("extends")
    raise RulesetError(f"ruleset '{ruleset}' has no table file {filename}")


def assumptions(ruleset: str) -> tuple[str, ...]:
    """The readings of unclear rules a ruleset takes, its own and those it extends."""
    info = ruleset_info(ruleset)
    inherited = assumptions(info["extends"]) if info.get("extends") else ()
    return inherited + tuple(info.get("assumptions", ()))


def _parse(path, label: str) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{label}: {exc}") from exc
