"""An action of a ruleset's battle as the umpire gives it: its inputs and their kinds
(:class:`Input`, :class:`ActionSpec`), read from his words by :func:`read_inputs`; the tables a
window or the command line shows (:class:`Table`, :class:`Tally`) and the exact odds of an
action's outcomes (:data:`Odds`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.setup import BrigadeSetup

__all__ = ["Input", "ActionSpec", "Table", "Tally", "Odds", "Typed", "read_inputs",
           "casualty_key", "action_named", "hits_text", "MissingInputs"]

# The faces the umpire types for an action's roll: each a die's face, or a pair rolled together.
Typed = Sequence[int | tuple[int, ...]]
# The outcomes of an action and the exact chance of each, in the order to show them.
Odds = tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class Input:
    """One input of an action: its name, its kind, what it means and whether it must be given.

    Kinds: ``text``, ``unit`` (a unit's key), ``side`` (French or Allied), ``whole`` (a whole
    number), ``number`` (a number as text, e.g. ``15/4``), ``flag`` (yes or no), ``list``
    (words joined by commas), ``map`` (unit → unit), ``group`` (named inputs of their own, in
    ``fields``) and ``free`` (any names, each a text or, alone, yes).
    """

    name: str
    kind: str
    help: str
    required: bool = False
    fields: tuple[Input, ...] = ()


@dataclass(frozen=True)
class ActionSpec:
    """One action of a ruleset's battle: its name, what it does, its inputs, whether it rolls."""

    name: str
    help: str
    inputs: tuple[Input, ...] = ()
    rolls: bool = False


@dataclass(frozen=True)
class Table:
    """Rows to show, with their column headings; ``keys`` names the unit of each row (units)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tally:
    """A brigade's tally on the setup sheet, in its ruleset's measure: ``boxes`` marks, the last
    of which puts it out of the battle (the 1813 rout point, 002's elimination, 004's 0 %),
    ``marked`` of them already (what it brings in); ``unit`` what it is in the ruleset (empty
    for the 1813 rules, which fight the brigade as it is) and ``note`` the tally in words."""

    boxes: int
    marked: int
    unit: str
    note: str


def casualty_key(b: BrigadeSetup) -> str:
    """A brigade's key in the campaign's casualties: its number, ``<n> cavalry`` or
    ``artillery``."""
    if b.arm.value == "artillery" or b.number is None:
        return "artillery"
    return f"{b.number} cavalry" if b.arm.value == "cavalry" else str(b.number)


def hits_text(n: int) -> str:
    """``1 hit``, ``2 hits``."""
    return f"{n} hit{'' if n == 1 else 's'}"


def action_named(actions: Sequence[ActionSpec], ruleset: str, name: str) -> ActionSpec:
    """An action of a ruleset by name, or a refusal listing the ruleset's actions."""
    for a in actions:
        if a.name == name:
            return a
    raise ActionRefused(f"'{name}' is not a battle action of ruleset {ruleset} "
                        f"(actions: {', '.join(a.name for a in actions)})")


_YES = ("yes", "y", "true", "on", "1")
_NO = ("no", "n", "false", "off", "0")


def _value(spec: Input, text: str, where: str) -> Any:
    if spec.kind == "flag":
        word = text.strip().lower()
        if word in _YES:
            return True
        if word in _NO:
            return False
        raise ActionRefused(f"{where} should be yes or no, not {text!r}")
    if spec.kind == "whole":
        try:
            return int(text)
        except ValueError:
            raise ActionRefused(f"{where} should be a whole number, not {text!r}") from None
    if spec.kind == "list":
        return [w.strip() for w in text.split(",") if w.strip()]
    return text


class MissingInputs(ActionRefused):
    """An action given without inputs it must have: each named by what it means
    ("melee needs the charging unit and the unit charged"); ``syntax`` is how the command
    line gives them (``attacker=… defender=…``)."""

    def __init__(self, action: ActionSpec, missing: Sequence[Input]) -> None:
        self.action = action
        self.missing = tuple(missing)
        words = [i.help for i in self.missing]
        needs = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
        super().__init__(f"{action.name} needs {needs}")

    @property
    def syntax(self) -> str:
        """The missing inputs as the command line writes them: ``unit=… target=…``."""
        return " ".join(f"{i.name}=…" for i in self.missing)


def read_inputs(action: ActionSpec, pairs: Sequence[tuple[str, str | None]]) -> dict[str, Any]:
    """An action's inputs from the umpire's words, each read by its kind: ``name=value``
    pairs, a dotted name for an entry of a group or a table (``options.face=flank``,
    ``supported.A1=A2``), and a bare name for yes (``road``).

    >>> move = ActionSpec("move", "a unit moves", (Input("unit", "unit", "the unit", True),
    ...                   Input("inches", "number", "how far"), Input("road", "flag", "by road")))
    >>> read_inputs(move, [("unit", "5 Corps/1"), ("inches", "6"), ("road", None)])
    {'unit': '5 Corps/1', 'inches': '6', 'road': True}
    """
    out: dict[str, Any] = {}
    for name, text in pairs:
        _put(action.name, action.inputs, out, name.split("."), text)
    missing = [i for i in action.inputs if i.required and i.name not in out]
    if missing:
        raise MissingInputs(action, missing)
    return out


def _put(where: str, specs: tuple[Input, ...], into: dict[str, Any], path: list[str],
         text: str | None) -> None:
    head, rest = path[0], path[1:]
    spec = next((i for i in specs if i.name == head), None)
    if spec is None:
        known = ", ".join(i.name for i in specs) or "none"
        raise ActionRefused(f"{where} has no input '{head}' (inputs: {known})")
    here = f"{where} {head}"
    if spec.kind == "group":
        if not rest:
            raise ActionRefused(f"{here} is a group: give its entries as {head}.NAME=VALUE")
        _put(here, spec.fields, into.setdefault(head, {}), rest, text)
    elif spec.kind in ("map", "free"):
        if len(rest) != 1:
            raise ActionRefused(f"{here} is a table: give its entries as {head}.NAME=VALUE")
        if text is None and spec.kind == "map":
            raise ActionRefused(f"{here}.{rest[0]} needs a value")
        into.setdefault(head, {})[rest[0]] = True if text is None else text
    elif rest:
        raise ActionRefused(f"{here} has no entries of its own")
    elif text is None:
        if spec.kind != "flag":
            raise ActionRefused(f"{here} needs a value ({head}=…)")
        into[head] = True
    else:
        into[head] = _value(spec, text, here)
