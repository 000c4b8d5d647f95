"""The shape of every file of ruleset 002, as pydantic models that also write its JSON Schema.

Each file under ``data/rulesets/002/`` has a model; validation is strict and refuses unknown
entries, numbers out of range, and floats (every number of the seed is a whole number of hits,
inches or degrees, so NaN and infinity are refused with the file and entry named). What the
numbers mean together (a step named twice, a die that does not exist) is checked by
:mod:`.tables` when it reads them.

    python -m campaign1813.campaign.battle.ruleset002.schema docs/schemas

writes ``docs/schemas/ruleset-002.json`` (one schema, a property per file) and rewrites the
manifest ``data/rulesets/002/validated.json`` of the shipped files that fit it.

>>> check_file("play.toml", {"sides": {"die": "d6", "french_a_on": [1, 2, 3]},
...                         "rally": {"enemy_within": float("nan")},
...                         "victory": {"eliminated_share": "1/2"}}, "002/play.toml")
Traceback (most recent call last):
...
campaign1813.campaign.battle.files.RulesetError: 002/play.toml: rally.enemy_within: \
should be a whole number, not nan
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from campaign1813.campaign.battle.files import RulesetError, content_hash, rulesets_root
from campaign1813.campaign.battle.schema_base import (
    FRACTION_PATTERN,
    RulesetFile,
    Table,
    TomlJsonSchema,
    check_against,
)

__all__ = ["MODELS", "SCHEMA_NAME", "check_file", "json_schema", "schema_text", "manifest_text",
           "main"]

SCHEMA_NAME = "ruleset-002.json"

UnitTypeName = Literal["infantry", "elite", "skirmishers", "cavalry", "artillery"]
StepName = Literal["artillery", "skirmishers", "stationary infantry", "moved infantry"]
DieName = Literal["d6"]
Rounding = Literal["up"]
Effect = Literal["halve", "double"]

Inches = Annotated[int, Field(ge=0, le=120)]
Hits = Annotated[int, Field(ge=1, le=100)]
Degrees = Annotated[int, Field(ge=0, le=360)]
Divisor = Annotated[int, Field(ge=1, le=10)]
Face = Annotated[int, Field(ge=1, le=6)]
Few = Annotated[int, Field(ge=0, le=20)]
ShareText = Annotated[str, StringConstraints(pattern=FRACTION_PATTERN)]


# --- units.toml ---------------------------------------------------------------------------


class UnitType(Table):
    """One type of unit: its name, the hits it bears, how far it moves, whether it shoots."""

    label: str
    eliminated_over: Hits
    """The unit is eliminated when its hits exceed this."""
    move_inches: Inches
    shoots: bool


class UnitTypes(Table):
    """The seed's five types of unit."""

    infantry: UnitType
    elite: UnitType
    skirmishers: UnitType
    cavalry: UnitType
    artillery: UnitType


class Movement(Table):
    """The additions to the allowance, and the distance at which movement ceases."""

    road_bonus_inches: Inches
    general_bonus_inches: Inches
    general_bonus_within: Inches
    halt_within: Inches
    interpenetrate: list[UnitTypeName]


class Commanders(Table):
    """Corps or division commanders: how many, to which units attached, how they rally."""

    move_inches: Inches
    most_per_army: Few
    units_per_commander: Annotated[int, Field(ge=1, le=100)]
    attach_to: list[UnitTypeName] = Field(min_length=1)
    rally_within: Inches
    rallies: Few


class General(Table):
    """The army's General: not a unit; rallies and speeds the units near him."""

    per_army: Annotated[int, Field(ge=1, le=1)]
    move_away_inches: Inches
    bonus_within: Inches
    rally_within: Inches
    rallies: Few


class Ground(Table):
    """A kind of ground: who may end a move there, and what it gives."""

    enter: list[UnitTypeName]
    cover: bool
    one_unit: bool = False
    all_round_fire: bool = False
    best_of_two: bool = False
    static: bool = False
    halves_charges: bool = False


class Terrain(Table):
    """The grounds of the seed's terrain list that a unit can stand on."""

    open: Ground
    woods: Ground
    town: Ground
    entrenchment: Ground
    hill: Ground
    marsh: Ground


class UnitsFile(Table):
    """``units.toml``: unit types, movement, commanders, the General and the terrain."""

    units: UnitTypes
    movement: Movement
    commanders: Commanders
    general: General
    terrain: Terrain


# --- shooting.toml ------------------------------------------------------------------------


class Fire(Table):
    """What one type of unit adds to its die, and its range."""

    add: Annotated[int, Field(ge=-6, le=6)]
    range_inches: Inches


class FireTypes(Table):
    """Fire by the type of unit shooting (cavalry do not shoot)."""

    infantry: Fire
    elite: Fire
    skirmishers: Fire
    artillery: Fire


class Halving(Table):
    """A division of the hits, and its rounding."""

    divide_by: Divisor
    round: Rounding


class Retire(Halving):
    """Cavalry retiring from a shot: how far, and what it does to the hits."""

    inches: Inches


class ShootingFile(Table):
    """``shooting.toml``: the shooting steps, dice, ranges, cover and the cavalry's retirement."""

    steps: list[StepName] = Field(min_length=1)
    die: DieName
    least_hits: Annotated[int, Field(ge=0, le=6)]
    field_of_fire_degrees: Degrees
    best_of: Annotated[int, Field(ge=2, le=4)]
    fire: FireTypes
    cover: Halving
    cavalry_retire: Retire


# --- charges.toml -------------------------------------------------------------------------


class ChargeModifier(Table):
    """One modifier of a charge's hits: its key, label and whether it halves or doubles."""

    key: Literal["hill", "cavalry", "flank_or_rear", "skirmishers"]
    label: str
    effect: Effect


class ChargesFile(Table):
    """``charges.toml``: the charge's dice, distances and modifiers in their order."""

    die: DieName
    add: Annotated[int, Field(ge=0, le=12)]
    charge_inches: Inches
    turn_degrees: Degrees
    retire_inches: Inches
    artillery_support_inches: Inches
    times_per_target: Annotated[int, Field(ge=1, le=10)]
    modifiers: list[ChargeModifier]


# --- play.toml ----------------------------------------------------------------------------


class Sides(Table):
    """How side A is found each turn."""

    die: DieName
    french_a_on: list[Face] = Field(min_length=1, max_length=5)


class Rally(Table):
    """The distance that decides who may rally a unit."""

    enemy_within: Inches


class Victory(Table):
    """The share of the enemy's starting units a side must eliminate to win."""

    eliminated_share: ShareText


class PlayFile(Table):
    """``play.toml``: side A and B, the rally and the victory condition."""

    sides: Sides
    rally: Rally
    victory: Victory


MODELS: dict[str, type[Table]] = {
    "ruleset.toml": RulesetFile,
    "units.toml": UnitsFile,
    "shooting.toml": ShootingFile,
    "charges.toml": ChargesFile,
    "play.toml": PlayFile,
}


def check_file(filename: str, data: Mapping[str, Any], label: str) -> None:
    """Refuse a file of ruleset 002 that does not fit its model, naming file, entry and why."""
    check_against(MODELS, "of ruleset 002", filename, data, label)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of ruleset 002: an object with one property per file."""
    defs: dict[str, Any] = {}
    files: dict[str, Any] = {}
    for filename, model in MODELS.items():
        schema = model.model_json_schema(by_alias=True, schema_generator=TomlJsonSchema,
                                         ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[model.__name__] = schema
        files[filename] = {"$ref": f"#/$defs/{model.__name__}"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_NAME,
            "title": "Ruleset 002 (seed 002)",
            "description": "The files of data/rulesets/002/, one property per file.",
            "type": "object", "properties": files, "required": list(files),
            "additionalProperties": False, "$defs": dict(sorted(defs.items()))}


def schema_text() -> str:
    """The JSON Schema as it is written to disk."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def manifest_text(ruleset: str = "002") -> str:
    """The manifest of the shipped files, each checked against its model first."""
    folder = Path(str(rulesets_root() / ruleset))
    files = {}
    for filename in MODELS:
        raw = (folder / filename).read_bytes()
        label = f"{ruleset}/{filename}"
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise RulesetError(f"{label}: {exc}") from exc
        check_file(filename, data, label)
        files[filename] = content_hash(raw)
    body = {"about": "SHA-256 of each shipped file of ruleset 002 that the models in "
                     "campaign1813/campaign/battle/ruleset002/schema.py accept; only files not "
                     "listed here are checked at load. Rewritten by `python -m "
                     "campaign1813.campaign.battle.ruleset002.schema docs/schemas`.",
            "files": files}
    return json.dumps(body, indent=2) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m campaign1813.campaign.battle.ruleset002.schema FOLDER``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m campaign1813.campaign.battle.ruleset002.schema FOLDER",
              file=sys.stderr)
        return 2
    try:
        manifest = manifest_text()   # first, so a shipped file that fails writes nothing
    except RulesetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    path = Path(args[0]) / SCHEMA_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8")
    target = Path(str(rulesets_root() / "002" / "validated.json"))
    target.write_text(manifest, encoding="utf-8")
    print(path)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
