"""Reading scenario files: TOML parsed with errors that name the file, and listing choices."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping

from campaign1813.campaign.scenario.errors import ScenarioError


def parse_toml(files: Mapping[str, str], name: str) -> dict:
    """One scenario file parsed, or a ScenarioError naming the file and the fault."""
    if name not in files:
        raise ScenarioError(f"{name}: the file is missing")
    try:
        return tomllib.loads(files[name])
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{name}: not valid TOML ({exc})") from exc


def either(values: Iterable[object]) -> str:
    """The choices as a message lists them: ``A, B or C``.

    >>> either(["A", "B", "C"])
    'A, B or C'
    """
    items = [str(v) for v in values]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
