"""What the ruleset loader and the ruleset models share: where the rulesets are, their error,
the manifest of shipped files and the hash it lists. Light to import; imports neither."""

from __future__ import annotations

import hashlib
from pathlib import Path

from campaign1813.data import data_root

# The manifest of shipped ruleset files that are known to fit their models.
MANIFEST = "validated.json"



class RulesetError(ValueError):
    """A ruleset or one of its tables is missing or malformed; says which and why."""


def rulesets_root() -> Path:
    """The folder of the shipped rulesets."""
    return data_root() / "rulesets"


def all_ruleset_names() -> tuple[str, ...]:
    """Every shipped ruleset, whichever rules engine reads it."""
    root = rulesets_root()
    return tuple(sorted(p.name for p in root.iterdir() if (p / "ruleset.toml").is_file()))


def engine_of(name: str) -> str:
    """The rules engine that reads a ruleset: its ``engine`` entry, else the 1813 rules."""
    import tomllib  # cheap, and only a ruleset's own small file is read

    try:
        info = tomllib.loads((rulesets_root() / name / "ruleset.toml").read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "1813"  # the loader names what is wrong when the ruleset is opened
    engine = info.get("engine", "1813")
    return engine if isinstance(engine, str) else "1813"


def ruleset_names() -> tuple[str, ...]:
    """The shipped rulesets the 1813 rules read (1813 and its variants)."""
    return tuple(n for n in all_ruleset_names() if engine_of(n) == "1813")


def content_hash(raw: bytes) -> str:
    """The SHA-256 of a file's bytes, the same whichever line endings a checkout gave it.

    >>> content_hash(b"a = 1\\r\\n") == content_hash(b"a = 1\\n")
    True
    """
    return hashlib.sha256(raw.replace(b"\r\n", b"\n")).hexdigest()
