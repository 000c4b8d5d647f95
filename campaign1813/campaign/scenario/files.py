"""Reading scenario files: TOML parsed with errors that name the file, and the problems found in
a file, each said as 'file: entry: reason' and listed in the order of the file."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar, get_args, get_origin

from pydantic import BaseModel, ValidationError

from campaign1813.campaign.scenario.errors import ScenarioError

Model = TypeVar("Model", bound=BaseModel)
# Where a value is in a file: the keys and list positions that lead to it, as pydantic says it.
Loc = tuple[str | int, ...]
# The entry a value belongs to, as the umpire knows it ("4 Corps (Second French Army)"), and
# what the value is called there ("firepower", or "the entry" for the entry itself); None where
# the loader reports the fault in its own words.
Label = Callable[[Loc], tuple[str, str] | None]

UNKNOWN_KEY, MISSING_KEY, BAD_VALUE = 0, 1, 2

# Control characters, line and paragraph separators and lone surrogates, each shown escaped as
# Python writes it, so a name or key that holds one keeps its problem on one printable line.
_ESCAPES = {code: repr(chr(code))[1:-1] for code in (
    *range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0xD800, 0xE000))}


def one_line(text: str) -> str:
    """The text with every character that would break its line, or its printing, escaped.

    >>> print(one_line("unknown key 'a" + chr(10) + "b'"))
    unknown key 'a\\nb'
    """
    return text.translate(_ESCAPES)


def parse_toml(files: Mapping[str, str], name: str) -> dict[str, Any]:
    """One scenario file parsed, or a ScenarioError naming the file and the fault."""
    if name not in files:
        raise ScenarioError(f"{name}: the file is missing")
    try:
        return tomllib.loads(files[name])
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{name}: not valid TOML ({exc})") from exc
    except RecursionError:
        raise ScenarioError(f"{name}: not valid TOML (its tables or lists are nested too "
                            "deeply)") from None


def either(values: Iterable[object]) -> str:
    """The choices as a message lists them: ``A, B or C``.

    >>> either(["A", "B", "C"])
    'A, B or C'
    """
    items = [str(v) for v in values]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def show(value: Any) -> str:
    """A value as the umpire wrote it: text quoted, numbers bare.

    >>> show("D"), show(7), show(float("nan"))
    ("'D'", '7', 'nan')
    """
    if isinstance(value, date):
        return value.isoformat()
    return f"'{value}'" if isinstance(value, str) else repr(value)


def position(step: str | int) -> int:
    """A step of a ``Loc`` that is a place in a list: pydantic numbers list items from 0."""
    assert isinstance(step, int), f"{step!r} is not a list position"
    return step


def value_at(data: Any, loc: Loc, default: Any = None) -> Any:
    """The value at ``loc`` in the parsed file, or ``default`` where the path leads nowhere."""
    for step in loc:
        if isinstance(data, Mapping) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return default
    return data


@dataclass(frozen=True)
class Style:
    """How one file's messages say the common faults, where the files have always differed."""

    missing: str = "missing '{key}'"
    list_expected_keys: bool = True
    # A list, as the label calls it -> the reason when it is not a list, and when it has too few
    # or too many items ({count} is how many it has).
    lists: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # A number, as the label calls it -> "a number of miles" or "a whole number"; else plain.
    nouns: Mapping[str, str] = field(default_factory=dict)
    # A choice, as the label calls it -> the unit after the choices ("… or 12 pounds").
    units: Mapping[str, str] = field(default_factory=dict)


class Problems:
    """The problems found in one file, each as 'file: entry: reason'.

    Misspelt keys come first, then missing keys, then bad values, each in the order of the file:
    a misspelling often explains the key that is missing.
    """

    def __init__(self, filename: str, data: Any = None, style: Style | None = None):
        self.filename = filename
        self.data = data
        self.style = style or Style()
        self._found: list[tuple[int, tuple[int, ...], str]] = []
        self.bad: set[Loc] = set()

    def add(self, entry: str, reason: str, loc: Loc = (), rank: int = BAD_VALUE) -> None:
        """One problem with the entry and the reason; ``loc`` places it in the file."""
        text = f"{self.filename}: {entry}: {reason}" if entry else f"{self.filename}: {reason}"
        self._found.append((rank, self._place(loc), one_line(text)))

    def check(self, model: type[Model], label: Label) -> Model | None:
        """The file's data validated by ``model``, or None with every fault added."""
        try:
            return model.model_validate(self.data)
        except ValidationError as exc:
            for error in exc.errors():
                self._add_error(model, error, label)
            return None

    def valid(self, loc: Loc) -> bool:
        """True if the model refused nothing at ``loc`` or within it."""
        return not any(bad[:len(loc)] == loc for bad in self.bad)

    def lines(self) -> list[str]:
        """The problems, misspelt keys first, then missing keys, then bad values, in file order."""
        seen: set[str] = set()
        lines = []
        for _, _, text in sorted(self._found, key=lambda p: p[:2]):
            if text not in seen:
                seen.add(text)
                lines.append(text)
        return lines

    def raise_if_any(self) -> None:
        """Refuse the file with every problem, one per line."""
        if self._found:
            raise ScenarioError("\n".join(self.lines()))

    def _place(self, loc: Loc) -> tuple[int, ...]:
        place = []
        data = self.data
        for step in loc:
            if isinstance(data, Mapping) and step in data:
                place.append(list(data).index(step))
                data = data[step]
            elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
                place.append(step)
                data = data[step]
            else:
                break
        return tuple(place)

    def _add_error(self, model: type[BaseModel], error: Mapping[str, Any], label: Label) -> None:
        loc: Loc = tuple(error["loc"])
        kind, value, ctx = error["type"], error.get("input"), error.get("ctx") or {}
        self.bad.add(loc)
        labelled = label(loc)
        if labelled is None:
            return
        entry, what = labelled
        if kind in ("extra_forbidden", "missing"):  # a fault of the table that holds the key
            entry = (label(loc[:-1]) or labelled)[0] if len(loc) > 1 else ""
        style = self.style
        if kind == "extra_forbidden":
            reason = f"unknown key '{loc[-1]}'"
            if style.list_expected_keys:
                reason += f" (expected {either(_keys_of(model, loc[:-1]))})"
            self.add(entry, reason, loc, UNKNOWN_KEY)
            return
        if kind == "missing":
            self.add(entry, style.missing.format(key=loc[-1]), loc, MISSING_KEY)
            return
        if kind in ("list_type", "tuple_type", "too_short", "too_long") and what in style.lists:
            not_a_list, wrong_count = style.lists[what]
            count = len(value) if isinstance(value, list) else 0
            reason = (not_a_list if kind == "list_type" else wrong_count).format(count=count)
        else:
            reason = _reason(kind, what, value, ctx, style.nouns.get(what, ""),
                             style.units.get(what, ""), error["msg"])
        self.add(entry, reason, loc)


def _reason(kind: str, what: str, value: Any, ctx: Mapping[str, Any], noun: str, unit: str,
            said: str) -> str:
    """What is wrong with one value, in the words the scenario files' messages use."""
    if kind in ("enum", "literal_error"):
        choices = re.findall(r"'([^']*)'", ctx["expected"]) or ctx["expected"].replace(
            " or ", ", ").split(", ")
        return f"{what} {show(value)} is not {either(choices)}{unit}"
    if kind == "string_type":
        return f"{what} {show(value)} is not text"
    if kind == "string_too_short":
        return f"{what} is empty"
    if kind == "bool_type":
        return f"{what} {show(value)} is not true or false"
    if kind in ("model_type", "dict_type"):
        return f"{what} is not a table"
    if kind == "date_type":
        return f"{what} {show(value)} is not a date like 1813-05-01"
    if kind in _BOUNDS or kind in ("float_type", "int_type", "finite_number"):
        return _number_reason(kind, what, value, ctx, noun)
    if kind in ("no_crossing", "no_river"):
        return said
    if kind == "out_of_range":  # a check of our own that says the range
        return f"{what} {show(value)} is not {said}"
    return f"{what} {show(value)}: {said}"


_BOUNDS = {
    "greater_than_equal": ("ge", "{} or more"),
    "greater_than": ("gt", "more than {}"),
    "less_than_equal": ("le", "{} or less"),
    "less_than": ("lt", "less than {}"),
}


def _number_reason(kind: str, what: str, value: Any, ctx: Mapping[str, Any], noun: str) -> str:
    said = f"{what} {show(value)} is not"
    if kind in ("float_type", "int_type"):
        return f"{said} {noun or 'a number'}"
    if kind == "finite_number":
        return f"{said} a finite {noun.removeprefix('a ') or 'number'}"
    bound, phrase = _BOUNDS[kind]
    limit = f"{ctx[bound]:g}"
    if noun == "a whole number":
        return f"{said} a whole number " + (f"from {limit} up" if bound in ("ge", "gt")
                                            else f"up to {limit}")
    return f"{said} {noun} ({phrase.format(limit)})" if noun else f"{said} {phrase.format(limit)}"


def _keys_of(model: type[BaseModel], loc: Loc) -> list[str]:
    """The keys the model allows in the table at ``loc``."""
    for step in loc:
        if isinstance(step, int):
            continue
        fields = {f.alias or name: f for name, f in model.model_fields.items()}
        model = _model_in(fields[step].annotation)
    return [f.alias or name for name, f in model.model_fields.items()]


def _model_in(annotation: Any) -> type[BaseModel]:
    """The model inside an annotation such as ``list[CorpsEntry]`` or ``FootRates | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for inner in get_args(annotation) if get_origin(annotation) else ():
        try:
            return _model_in(inner)
        except TypeError:
            continue
    raise TypeError(f"no model in {annotation!r}")
