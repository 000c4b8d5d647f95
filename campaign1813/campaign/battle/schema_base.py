"""What every ruleset's table files share, as pydantic models: the strict base of a table
(:class:`Table`), ``ruleset.toml`` (:class:`RulesetFile`), the vocabulary and patterns of their
values, the check of a file against its model with an error naming the entry and the reason
(:func:`check_against`), and the JSON Schema written for TOML (:class:`TomlJsonSchema`).

Slow to import (pydantic): only a house-ruled file, not listed in the manifest, is checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from campaign1813.campaign.battle.files import RulesetError

# --- the vocabulary (kept equal to the engine's enums by tests/battle/test_ruleset_schema.py) --

ArmName = Literal["infantry", "cavalry", "artillery"]
StateName = Literal["formed", "disordered", "shaken", "rout"]
OrderName = Literal["Move", "Halt", "Hold", "Engage", "Attack", "Withdraw", "Rally"]
SpotterName = Literal["blind", "infantry", "cavalry", "artillery", "general"]
DieName = Literal["d6", "d10", "average die"]
ChargeTarget = Literal["disordered", "shaken", "flank_or_rear", "cavalry_column",
                       "infantry_column_of_march", "limbered_artillery"]
EscapeFact = Literal["able_to_escape", "more_than_half_move_away", "supports_within_4"]
CavalryAnswer = Literal["charge", "withdraw"]
AdvanceDuty = Literal["all", "one", "none"]
ChargeLicence = Literal["never", "within", "any", "must"]
FireLicence = Literal["never", "within", "any"]
InfantryCharge = Literal["never", "may", "must"]
RoutAction = Literal["removed", "rout", "test"]
PursuitAction = Literal["routers", "charge"]

# How an error names a word that is not in its vocabulary.
NOUNS: dict[frozenset[str], str] = {
    frozenset(get_args(ArmName)): "an arm",
    frozenset(get_args(StateName)): "a morale state",
    frozenset(get_args(OrderName)): "a corps order",
    frozenset(get_args(SpotterName)): "a spotter",
    frozenset(get_args(DieName)): "a die",
    frozenset(get_args(ChargeTarget)): "a charge target",
    frozenset(get_args(EscapeFact)): "an escape fact",
    frozenset(get_args(CavalryAnswer)): "a cavalry answer",
    frozenset(get_args(AdvanceDuty)): "an advance duty",
    frozenset(get_args(ChargeLicence)): "a charge licence",
    frozenset(get_args(FireLicence)): "a fire licence",
    frozenset(get_args(InfantryCharge)): "an infantry charge licence",
    frozenset(get_args(RoutAction)): "a reaction to rout",
    frozenset(get_args(PursuitAction)): "a pursuit action",
}

# at most nine dice: every roll's exact odds are worked out, and the rules roll two at most
DICE_PATTERN = r"^(average|average die|[1-9]?d(6|10))$"
FRACTION_PATTERN = r"^[0-9]+(/[0-9]*[1-9][0-9]*|\.[0-9]+)?$"
RULE_NUMBER_PATTERN = r"^[0-9]+$"

# How an error describes text that does not match its pattern.
PATTERNS: dict[str, str] = {
    DICE_PATTERN: "a die such as d6, 2d6, d10 or average (at most 9 dice)",
    FRACTION_PATTERN: 'a fraction such as "1/2"',
    RULE_NUMBER_PATTERN: "a rule number",
}

Dice = Annotated[str, StringConstraints(pattern=DICE_PATTERN)]
Inches = Annotated[float, Field(ge=0)]
Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Share = Annotated[str, StringConstraints(pattern=FRACTION_PATTERN)] | Annotated[
    float, Field(ge=0, le=1)]
RuleNumber = Annotated[str, StringConstraints(pattern=RULE_NUMBER_PATTERN)]
Facts = dict[str, str]
FactValue = bool | int | str
Clause = dict[str, FactValue | list[FactValue]]


class Table(BaseModel):
    """A TOML table whose entries are all known: strict types, no unknown keys."""

    model_config = ConfigDict(strict=True, extra="forbid", use_attribute_docstrings=True)

    # What an unknown key of this table is called in an error.
    entry: ClassVar[str] = "entry"

    @model_validator(mode="before")
    @classmethod
    def _known_entries(cls, data: Any) -> Any:
        """Refuse unknown keys first, naming them and the keys that are known."""
        if isinstance(data, Mapping):
            known = [f.alias or name for name, f in cls.model_fields.items()]
            unknown = sorted(str(k) for k in data if k not in known)
            if unknown:
                raise PydanticCustomError(
                    "unknown_entry", "unknown {entry} {names} (known: {known})",
                    {"entry": cls.entry, "names": ", ".join(unknown),
                     "known": ", ".join(known)})
        return data


# --- ruleset.toml ------------------------------------------------------------------------


class RulesetFile(Table):
    """``ruleset.toml``: the ruleset's name, the ruleset it extends, the readings it takes."""

    name: str
    title: str | None = None
    extends: str | None = None
    """The ruleset whose files are read for any table file this one does not have."""
    assumptions: list[str] = []
    """Readings of unclear rules, each one sentence."""

    @model_validator(mode="after")
    def _not_itself(self) -> RulesetFile:
        if self.extends is not None and self.extends == self.name:
            raise ValueError(f"ruleset '{self.name}' cannot extend itself")
        return self


# --- the schema files ----------------------------------------------------------------------


class TomlJsonSchema(GenerateJsonSchema):
    """JSON Schema for TOML: TOML has no null, so an optional entry is one that may be left out."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        """The schema of the value itself, without null."""
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        """A default of None means 'may be left out': no default is written."""
        result = super().default_schema(schema)
        if result.get("default", 0) is None:
            del result["default"]
        return result


# --- checking ------------------------------------------------------------------------------


def check_against(models: Mapping[str, type[Table]], whose: str, filename: str,
                  data: Mapping[str, Any], label: str) -> Table:
    """The file read into its model among ``models`` (the files ``whose`` rulesets have), or a
    RulesetError naming the file, entry and reason; every ruleset's files are checked so."""
    model = models.get(filename)
    if model is None:
        raise RulesetError(f"{label}: not a file {whose} "
                           f"(known: {', '.join(sorted(models))})")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RulesetError(f"{label}: {problem(exc, data)}") from None


def problem(exc: ValidationError, data: Mapping[str, Any]) -> str:
    """The first problem of a failed validation as ``entry: reason``, and how many more."""
    found: dict[str, list[dict[str, Any]]] = {}
    for error in exc.errors(include_url=False):
        found.setdefault(_entry(error["loc"], data, error["type"]), []).append(dict(error))
    path, errors = next(iter(found.items()))
    reason = _reason(errors)
    more = len(found) - 1
    text = f"{path}: {reason}" if path else reason
    if more:
        text += f"; and {more} more problem{'s' if more > 1 else ''}"
    return text


def _entry(loc: tuple[int | str, ...], data: Any, kind: str) -> str:
    """The entry a location names, skipping the names pydantic gives union members."""
    text = ""
    node = data
    for i, key in enumerate(loc):
        if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
            text += f"[{key}]"
        elif isinstance(node, Mapping) and key in node:
            node = node[key]
            text += f".{key}" if text else str(key)
        elif i == len(loc) - 1 and kind in ("missing", "extra_forbidden"):
            text += f".{key}" if text else str(key)
    return text


def _either(words: Sequence[str]) -> str:
    """``a, b or c``."""
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1]))) if words else ""


def _number(limit: object) -> object:
    """A limit as the table would write it: 0, not 0.0."""
    return int(limit) if isinstance(limit, float) and limit.is_integer() else limit


_KINDS = {
    "int_type": "a whole number", "bool_type": "true or false", "string_type": "text",
    "float_type": "a number", "list_type": "a list", "dict_type": "a table",
    "model_type": "a table", "model_attributes_type": "a table",
}


def _reason(errors: Sequence[Mapping[str, Any]]) -> str:
    """Why an entry is refused, from the errors pydantic gives for it."""
    if all(e["type"] in _KINDS for e in errors):
        kinds = list(dict.fromkeys(_KINDS[e["type"]] for e in errors))
        return f"should be {_either(kinds)}, not {errors[0]['input']!r}"
    error = next(e for e in errors if e["type"] not in _KINDS)
    kind, value, ctx = error["type"], error.get("input"), error.get("ctx", {})
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        return "is not a known entry"
    if kind == "literal_error":
        words = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        noun = NOUNS.get(frozenset(words), "one of the words allowed")
        return f"{value!r} is not {noun} ({_either(words)})"
    if kind == "greater_than_equal":
        return f"should be at least {_number(ctx['ge'])}, not {value!r}"
    if kind == "less_than_equal":
        return f"should be at most {_number(ctx['le'])}, not {value!r}"
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        return f"should be {PATTERNS.get(pattern, f'text matching {pattern}')}, not {value!r}"
    if kind == "too_short":
        return f"should have at least {ctx['min_length']} items, not {ctx['actual_length']}"
    if kind == "too_long":
        return f"should have at most {ctx['max_length']} items, not {ctx['actual_length']}"
    return str(error["msg"])
