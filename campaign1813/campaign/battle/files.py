"""What the ruleset loader and the ruleset models share: where the rulesets are, their error,
the manifest of shipped files and the hash it lists. Light to import; imports no ruleset."""

from __future__ import annotations

import hashlib
from pathlib import Path

from campaign1813.data import data_root
from campaign1813.errors import CampaignError

# The manifest of shipped ruleset files that are known to fit their models.
MANIFEST = "validated.json"


class RulesetError(CampaignError):
    """A ruleset or one of its tables is missing or malformed; says which and why (shown to the
    umpire as any refusal is, never as an internal error)."""


def rulesets_root() -> Path:
    """The folder of the shipped rulesets."""
    return data_root() / "rulesets"


def data_folders() -> tuple[str, ...]:
    """The rulesets shipped (or house-ruled) as data: the folders with a ``ruleset.toml``."""
    root = rulesets_root()
    return tuple(sorted(p.name for p in root.iterdir() if (p / "ruleset.toml").is_file()))


def content_hash(raw: bytes) -> str:
    """The SHA-256 of a file's bytes, the same whichever line endings a checkout gave it.

    >>> content_hash(b"a = 1\\r\\n") == content_hash(b"a = 1\\n")
    True
    """
    return hashlib.sha256(raw.replace(b"\r\n", b"\n")).hexdigest()
