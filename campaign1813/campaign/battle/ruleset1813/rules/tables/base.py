"""What the tables of Rules 1-8 share: reading a table file's entries with checks, and the
modifier entry several of them use.

A missing or wrong entry raises :class:`RulesetError` naming the file, the entry and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Any, Final, TypeVar

from campaign1813.campaign.battle.dice import DICE, Die
from campaign1813.campaign.battle.ruleset1813.rules.loader import (
    RulesetError,
    load_table,
    ruleset_info,
)
from campaign1813.campaign.battle.terms import Grade
from campaign1813.data import data_root


def table_source(ruleset: str, filename: str) -> str:
    """``ruleset/filename`` of the file a ruleset's table really comes from."""
    name: str | None = ruleset
    seen: set[str] = set()
    while name is not None and name not in seen:
        seen.add(name)
        if (data_root() / "rulesets" / name / filename).is_file():
            return f"{name}/{filename}"
        name = ruleset_info(name).get("extends")
    return f"{ruleset}/{filename}"


class _Missing(Enum):
    """The default of an entry that must be present."""

    MISSING = "missing"


_MISSING: Final = _Missing.MISSING
_Word = TypeVar("_Word", bound=StrEnum)


class Entries:
    """A table file (or a part of one) whose entries are read with checks."""

    def __init__(self, label: str, data: Mapping[str, Any], prefix: str = ""):
        self.label = label
        self.data = data
        self.prefix = prefix

    @classmethod
    def of(cls, ruleset: str, filename: str) -> Entries:
        """The entries of a ruleset's table file."""
        return cls(table_source(ruleset, filename), load_table(ruleset, filename))

    def _name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def fail(self, key: str, reason: str) -> RulesetError:
        """An error naming this file, the entry and the reason."""
        return RulesetError(f"{self.label}: entry '{self._name(key)}' {reason}")

    def has(self, key: str) -> bool:
        """Whether the entry is present."""
        return key in self.data

    def raw(self, key: str, default: object = _MISSING) -> Any:
        """The entry as it stands, or the default; missing without a default is an error."""
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise self.fail(key, "is missing")
        return default

    def section(self, key: str) -> Entries:
        """A table inside this one."""
        value = self.raw(key)
        if not isinstance(value, Mapping):
            raise self.fail(key, f"should be a table, not {value!r}")
        return Entries(self.label, value, f"{self._name(key)}.")

    def sections(self, key: str) -> list[Entries]:
        """An array of tables inside this one."""
        value = self.raw(key)
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise self.fail(key, "should be an array of tables")
        return [Entries(self.label, v, f"{self._name(key)}[{i}].") for i, v in enumerate(value)]

    def keys(self) -> list[str]:
        """The names of the entries."""
        return list(self.data)

    def integer(self, key: str, default: int | _Missing = _MISSING,
                minimum: int | None = None) -> int:
        """A whole number, at least ``minimum``."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"should be a whole number, not {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"should be at least {minimum}, not {value}")
        return value

    def inches(self, key: str, default: float | _Missing = _MISSING) -> Fraction:
        """A distance in inches: a number, zero or more."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"should be a distance in inches, not {value!r}")
        if value < 0:
            raise self.fail(key, f"should not be negative ({value})")
        return Fraction(value).limit_denominator(1000)

    def fraction(self, key: str) -> Fraction:
        """A fraction between 0 and 1, written as a number or as "1/2"."""
        value = self.raw(key)
        try:
            result = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            raise self.fail(key, f"should be a fraction such as \"1/2\", not {value!r}") from None
        if not 0 <= result <= 1:
            raise self.fail(key, f"should be between 0 and 1, not {value!r}")
        return result

    def boolean(self, key: str, default: bool | _Missing = _MISSING) -> bool:
        """True or false."""
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"should be true or false, not {value!r}")
        return value

    def text(self, key: str, choices: tuple[str, ...] | None = None,
             default: str | _Missing = _MISSING) -> str:
        """A word, one of ``choices`` if given."""
        if default is not _MISSING and key not in self.data:
            return default
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.fail(key, f"should be text, not {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(key, f"is {value!r}; expected one of {', '.join(choices)}")
        return value

    def words(self, key: str, choices: tuple[str, ...] | None = None,
              default: list[str] | _Missing = _MISSING) -> tuple[str, ...]:
        """A list of words, each one of ``choices`` if given."""
        value = self.raw(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, f"should be a list of words, not {value!r}")
        for word in value:
            if choices is not None and word not in choices:
                raise self.fail(key, f"has {word!r}; expected any of {', '.join(choices)}")
        return tuple(value)

    def dice(self, key: str) -> tuple[Die, int]:
        """A dice expression: ``d6``, ``2d6``, ``d10`` or ``average``."""
        value = self.text(key)
        spec = value.strip().lower()
        if spec in ("average", "average die"):
            return DICE["average die"], 1
        count_text, _, kind = spec.partition("d")
        die = DICE.get(f"d{kind}")
        if die is None or (count_text and not count_text.isdigit()) or count_text == "0":
            raise self.fail(key, f"is {value!r}; expected a die such as d6, 2d6, d10 or average")
        return die, int(count_text or 1)

    def graded(self, key: str, minimum: int | None = None) -> dict[Grade, int]:
        """A whole number for each commander grade."""
        part = self.section(key)
        return {g: part.integer(g.value, minimum=minimum) for g in Grade}

    def modifiers(self, key: str, known: tuple[str, ...]) -> dict[str, ModifierEntry]:
        """Named modifiers, each one the code knows how to apply."""
        part = self.section(key)
        result: dict[str, ModifierEntry] = {}
        for name in part.keys():
            if name not in known:
                raise part.fail(name, f"is not a modifier this rule knows "
                                      f"(known: {', '.join(known)})")
            entry = part.section(name)
            result[name] = ModifierEntry(name, entry.text("label"), entry.integer("value"))
        return result

    def enum_keys(self, key: str, enum: type[_Word]) -> dict[_Word, Entries]:
        """Sub-tables keyed by the members of an enum; unknown keys are refused."""
        part = self.section(key)
        values = {e.value: e for e in enum}
        result = {}
        for name in part.keys():
            if name not in values:
                raise part.fail(name, f"is not known (known: {', '.join(values)})")
            result[values[name]] = part.section(name)
        return result


@dataclass(frozen=True)
class ModifierEntry:
    """A modifier as the table gives it: key, label, value."""

    key: str
    label: str
    value: int
