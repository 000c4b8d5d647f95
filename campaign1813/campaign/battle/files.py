"""What the ruleset loader and the ruleset models share: where the rulesets are, their error,
the manifest of shipped files and the hash it lists. Light to import; imports no ruleset."""

from __future__ import annotations

import hashlib
from pathlib import Path

from campaign1813.data import data_root
from campaign1813.errors import CampaignError

# The manifest of shipped ruleset files that are known to fit their models.
MANIFEST = "validated.json"


# Characters that break a line (str.splitlines breaks at the separators \x1c-\x1e too) or
# act on a terminal, each shown escaped as Python writes it.
_BREAKS = {code: repr(chr(code))[1:-1] for code in (
    *range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}


class RulesetError(CampaignError):
    """A ruleset or one of its tables is missing or malformed; says which and why (shown to the
    umpire as any refusal is, never as an internal error), on one line: a key or value of the
    file that holds a line break or a control character is shown escaped."""

    def __init__(self, message: str) -> None:
        super().__init__(str(message).translate(_BREAKS))


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
