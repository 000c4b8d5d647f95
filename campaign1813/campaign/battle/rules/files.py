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


# Rulesets with an engine of their own beside the 1813 one: id → the package that plays them.
# Their folders hold their own table files, read and checked by that package.
OWN_ENGINES: dict[str, str] = {
    "002": "campaign1813.campaign.battle.ruleset002",
    "004": "campaign1813.campaign.battle.ruleset004",
}


def ruleset_names() -> tuple[str, ...]:
    """The shipped rulesets of the 1813 engine (the rulesets with their own engine apart)."""
    root = rulesets_root()
    return tuple(sorted(p.name for p in root.iterdir() if (p / "ruleset.toml").is_file()
                        and p.name not in OWN_ENGINES))


def all_ruleset_names() -> tuple[str, ...]:
    """Every shipped ruleset, those with an engine of their own included."""
    return tuple(sorted({*ruleset_names(), *OWN_ENGINES}))


def content_hash(raw: bytes) -> str:
    """The SHA-256 of a file's bytes, the same whichever line endings a checkout gave it.

    >>> content_hash(b"a = 1\\r\\n") == content_hash(b"a = 1\\n")
    True
    """
    return hashlib.sha256(raw.replace(b"\r\n", b"\n")).hexdigest()
