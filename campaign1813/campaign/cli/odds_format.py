"""How every ``odds`` kind reads its options and prints: fractions, percentages, modifiers, JSON.

Light to import (no rule module), so each kind's module can share it without loading another
kind's tables. Exact chances are printed as fractions (``5/36``) and in JSON as strings of them.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Protocol

from campaign1813.campaign.battle.dice import Die, describe
from campaign1813.campaign.battle.files import RulesetError
from campaign1813.campaign.errors import CampaignError

DEFAULT_RULESET = "1813"


class OddsInputError(CampaignError):
    """A value typed on the odds command line that the rules cannot read."""


class OddsParser(argparse.ArgumentParser):
    """A kind's parser: a bad option is one line naming it (exit status 1), as every error."""

    def error(self, message: str) -> Any:  # argparse's own signature says NoReturn
        where = self.prog.removeprefix("campaign1813 ")
        raise OddsInputError(f"{where}: {message}")


class Named(Protocol):
    """A modifier as every rule module gives it: its table key, label and amount."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def value(self) -> int: ...


def ruleset_and_json(p: argparse.ArgumentParser, rulesets: tuple[str, ...] | None = None,
                     default_ruleset: str = DEFAULT_RULESET) -> None:
    """The options every kind takes: ``--ruleset`` (one of ``rulesets``, when given) and
    ``--json``."""
    p.add_argument("--ruleset", default=default_ruleset, choices=rulesets,
                   help=f"ruleset (default: {default_ruleset})")
    p.add_argument("--json", action="store_true", help="print the odds as JSON")


def percent(p: Fraction) -> str:
    """A chance as a percentage, one decimal: `` 66.7%``."""
    return f"{float(p) * 100:5.1f}%"


def signed(n: int) -> str:
    """``+1``, ``+0``, ``−2`` (a true minus sign, as the rules print it)."""
    return f"{n:+d}".replace("-", "−")


def dice_text(die: Die, count: int = 1) -> str:
    """``1d6``, ``2d6``, ``1d10``, ``average die``: the dice as the text output names them."""
    return f"{count}{die.name}" if die.name.startswith("d") else describe(die, count)


def net_of(mods: Iterable[Named]) -> int:
    """The sum of the modifiers."""
    return sum(m.value for m in mods)


def modifiers_text(mods: Iterable[Named]) -> str:
    """``+1 A class, −1 Poor commander (net +0)``, or ``no modifiers (net +0)``."""
    mods = tuple(mods)
    parts = ", ".join(f"{signed(m.value)} {m.label}" for m in mods) or "no modifiers"
    return f"{parts} (net {signed(net_of(mods))})"


def modifiers_json(mods: Iterable[Named]) -> list[dict[str, Any]]:
    """The modifiers as JSON: key, label and value of each."""
    return [{"key": m.key, "label": m.label, "value": m.value} for m in mods]


def chances_json(odds: Mapping[Any, Fraction]) -> dict[str, str]:
    """Outcome → exact chance as a string (``"5/36"``, ``"0"``, ``"1"``)."""
    return {str(k): str(p) for k, p in odds.items()}


def chance_lines(rows: Iterable[tuple[str, str, Fraction]]) -> list[str]:
    """Aligned lines of outcome, how it comes about, exact chance and percentage."""
    rows = tuple(rows)
    if not rows:
        return []
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(str(r[2])) for r in rows)
    return [f"  {a:<{w0}}  {b:<{w1}}  {str(p):>{w2}}  {percent(p)}"
            for a, b, p in rows]


def print_json(data: Mapping[str, Any]) -> int:
    """Print one JSON object; the exit status of a kind that printed it."""
    print(json.dumps(data, ensure_ascii=False))
    return 0


def count(text: str) -> int:
    """An ``argparse`` type: a whole number, 0 or more (casualties and the like)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"cannot be negative ({n})")
    return n


def inches(text: str) -> Fraction:
    """An ``argparse`` type: a distance in inches, 0 or more (``12``, ``12.5``, ``25/2``)."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"'{text}' is not a distance in inches") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a distance cannot be negative ({text})")
    return value


def any_case(values: Iterable[str]) -> Callable[[str], str]:
    """An ``argparse`` type that accepts one of ``values`` typed in any case (``gifted``)."""
    def fold(text: str) -> str:
        return text.strip().casefold().replace("_", "-").replace(" ", "-")

    by_fold = {fold(v): v for v in values}

    def read(text: str) -> str:
        return by_fold.get(fold(text), text)

    return read


def guarded(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A kind's handler whose ruleset errors are one line, not a traceback."""
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except RulesetError as exc:  # a ruleset's data is bad or unknown
            raise CampaignError(str(exc)) from exc
    return run
