"""The shape of every table file of ruleset 004, as pydantic models that also write its JSON Schema.

Validation is strict: unknown entries, text where a number belongs, a number out of its range,
NaN and infinity are refused with the file, the entry and the reason. What the numbers mean
together (a die face the table does not cover) is checked when :mod:`.tables` builds its views.

    python -m campaign1813.campaign.battle.ruleset004.schema docs/schemas

writes ``docs/schemas/ruleset-004.json`` (one schema whose properties are the files) and, once
every shipped file has passed, the manifest ``data/rulesets/004/validated.json`` of their hashes.

>>> check_file("morale.toml", {"passes_on": {"elite": 3, "regular": 4, "poor": 9},
...     "modifiers": {"general": 1, "support": 1}, "army": {"lost_below": "1/2"}},
...     "004/morale.toml")
Traceback (most recent call last):
...
campaign1813.campaign.battle.files.RulesetError: 004/morale.toml: passes_on.poor: should \
be at most 6, not 9
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field, StringConstraints

from campaign1813.campaign.battle import schema_base as shared
from campaign1813.campaign.battle.files import RulesetError, content_hash, rulesets_root
from campaign1813.campaign.battle.schema_base import PATTERNS, TomlJsonSchema

ID = "004"
MANIFEST = "validated.json"
FRACTION = r"^-?[0-9]+(/[0-9]*[1-9][0-9]*)?$"
PATTERNS.setdefault(FRACTION, 'a fraction such as "1/2" or "-1/4"')

Face = Annotated[int, Field(ge=1, le=6)]
Steps = Annotated[int, Field(ge=1, le=12)]
Percent = Annotated[int, Field(ge=1, le=100)]
Centimetres = Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)]
Ratio = Annotated[str, StringConstraints(pattern=FRACTION)]
Modifier = Annotated[int, Field(ge=-6, le=6)]
Degrees = Annotated[int, Field(ge=0, le=360)]


class Table(shared.Table):
    """A TOML table whose entries are all known (as every ruleset file's), and no NaN nor inf."""

    model_config = ConfigDict(allow_inf_nan=False, frozen=True)


# --- fire.toml ------------------------------------------------------------------------------


class Effectiveness(Table):
    """A unit's effectiveness: the size of a step and the steps of a unit at full strength."""

    step_percent: Percent
    steps: Steps


class Half(Table):
    """How a half die (or a half left by halving) is settled: one die, full on this or more."""

    die: Annotated[str, StringConstraints(pattern=r"^d6$")]
    full_on: Face


class MusketryHits(Table):
    """The score each kind of firer needs on a die for a hit."""

    firing_order: Face
    light_foot: Face
    light_horse: Face
    not_in_firing_order: Face


class Musketry(Table):
    """Musketry: ranges, hits, the share of steps a unit in two ranks rolls for, and -1 moved."""

    musket_range_cm: Centimetres
    carbine_range_cm: Centimetres
    two_ranks_share: Ratio
    moved_return_fire: Modifier
    hits_on: MusketryHits


class Shot(Table):
    """One kind of artillery shot: its range and dice, full and at weakened effectiveness."""

    range_cm: Centimetres
    dice: Ratio
    weakened_dice: Ratio


class ArtilleryHits(Table):
    """The score each potential hit needs, by target."""

    foot: Face
    horse: Face
    guns: Face


class Artillery(Table):
    """Artillery: canister and roundshot, halving to potential hits, firing over heads."""

    weakened_at_percent: Percent
    potential_share: Ratio
    over_heads: Modifier
    canister: Shot
    roundshot: Shot
    hits_on: ArtilleryHits


class Saves(Table):
    """The saving throws: the score that cancels a hit."""

    cover: Face
    cuirassiers: Face


class FireFile(Table):
    """``fire.toml``: effectiveness steps, musketry, artillery and saving throws."""

    effectiveness: Effectiveness
    half: Half
    musketry: Musketry
    artillery: Artillery
    saves: Saves


# --- melee.toml -----------------------------------------------------------------------------


class MeleeColumns(Table):
    """Dice per step against each kind of enemy unit."""

    heavy_horse: Ratio
    lancers: Ratio
    light_horse: Ratio
    foot_firing_order: Ratio
    foot: Ratio
    light_foot: Ratio


class MeleeRows(Table):
    """The matrix: one row per kind of unit that throws dice in a melee."""

    heavy_horse: MeleeColumns
    lancers: MeleeColumns
    light_horse: MeleeColumns
    foot: MeleeColumns


class Charges(Table):
    """Distances that limit charges."""

    gun_clear_of_foot_cm: Centimetres


class MeleeFile(Table):
    """``melee.toml``: the dice matrix, extra dice, the score to hit and saving throws."""

    hits_on: Face
    extra_dice_per_step: Ratio
    dice: MeleeRows
    saves: Saves
    charges: Charges


# --- morale.toml ----------------------------------------------------------------------------


class PassesOn(Table):
    """The score a unit of each quality needs to pass a morale test."""

    elite: Face
    regular: Face
    poor: Face


class MoraleModifiers(Table):
    """What is added to a morale throw."""

    general: Modifier
    support: Modifier


class ArmyLoss(Table):
    """When an army has lost: its units left below this share of its starting number."""

    lost_below: Ratio


class MoraleFile(Table):
    """``morale.toml``: the morale test and the army's loss."""

    passes_on: PassesOn
    modifiers: MoraleModifiers
    army: ArmyLoss


# --- movement.toml --------------------------------------------------------------------------


class Distances(Table):
    """A full move in centimetres for each kind of unit."""

    foot_firing_order: Centimetres
    foot: Centimetres
    light_foot: Centimetres
    guns: Centimetres
    heavy_horse: Centimetres
    lancers: Centimetres
    light_horse: Centimetres
    general: Centimetres


class Variation(Table):
    """The variation die: when it is rolled and what each face does to the distance."""

    die: Annotated[str, StringConstraints(pattern=r"^d6$")]
    within_share: Ratio
    faces: dict[Annotated[str, StringConstraints(pattern=r"^[1-6]$")], Ratio]


class Wheel(Table):
    """Wheels and about-turns: what is free and what costs a share of the move."""

    free_degrees: Degrees
    beyond_costs_turn: Ratio
    second_about_turn_costs: Ratio


class Turns(Table):
    """Changes that take a turn or a share of one."""

    foot_into_firing_order: Ratio
    limber_or_unlimber: Ratio
    light_move_and_fire: Ratio


class MovementFile(Table):
    """``movement.toml``: distances, variation, wheels and formation changes."""

    distance_cm: Distances
    variation: Variation
    wheel: Wheel
    turns: Turns


# --- national.toml --------------------------------------------------------------------------


class Characteristics(Table):
    """One nation's characteristics for a battle."""

    label: str
    foot_musketry: Modifier = 0
    foot_wheel_free: bool = False
    horse_melee_hits_on: Face | None = None
    horse_wheel_costs: Ratio | None = None


class NationalFile(Table):
    """``national.toml``: named sets of national characteristics a battle may give a nation."""

    national: dict[str, Characteristics] = {}


MODELS: dict[str, type[shared.Table]] = {
    "ruleset.toml": shared.RulesetFile,
    "fire.toml": FireFile,
    "melee.toml": MeleeFile,
    "morale.toml": MoraleFile,
    "movement.toml": MovementFile,
    "national.toml": NationalFile,
}


def check_file(filename: str, data: Mapping[str, Any], label: str) -> shared.Table:
    """The file read into its model, or a RulesetError naming the file, entry and reason."""
    return shared.check_against(MODELS, f"ruleset {ID} has", filename, data, label)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of ruleset 004: an object with one property per table file."""
    defs: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    for filename, model in MODELS.items():
        schema = model.model_json_schema(schema_generator=TomlJsonSchema,
                                         ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        properties[filename] = schema
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"ruleset-{ID}.json", "title": f"Ruleset {ID} table files",
            "type": "object", "properties": properties, "additionalProperties": False,
            "$defs": defs}


def schema_text() -> str:
    """The JSON Schema as it is written to disk."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def manifest_text() -> str:
    """The manifest of the shipped files, each checked first, as it is written to disk."""
    folder = rulesets_root() / ID
    files: dict[str, str] = {}
    for f in MODELS:  # the files the tables read, each with its model
        raw = (folder / f).read_bytes()
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise RulesetError(f"{ID}/{f}: {exc}") from exc
        check_file(f, data, f"{ID}/{f}")
        files[f] = content_hash(raw)
    body = {"about": f"SHA-256 of each shipped file of ruleset {ID} that the models in "
                     f"campaign1813/campaign/battle/ruleset004/schema.py accept; only files not "
                     f"listed here are checked at load. Rewritten by `python -m "
                     f"campaign1813.campaign.battle.ruleset004.schema docs/schemas`; this file "
                     f"is {MANIFEST}.",
            "files": files}
    return json.dumps(body, indent=2) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m campaign1813.campaign.battle.ruleset004.schema FOLDER``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(f"usage: python -m {__name__} FOLDER", file=sys.stderr)
        return 2
    try:
        manifest = manifest_text()  # first, so a shipped file that fails writes nothing
    except RulesetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    path = Path(args[0]) / f"ruleset-{ID}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8")
    target = Path(str(rulesets_root() / ID / MANIFEST))
    target.write_text(manifest, encoding="utf-8")
    print(path)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
