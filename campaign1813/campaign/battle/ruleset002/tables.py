"""Ruleset 002's tables, read from ``data/rulesets/002/`` and checked at load.

Every file is checked against its model in :mod:`.schema` (a type, a range, an unknown entry),
unless its bytes are listed in the folder's ``validated.json`` (the shipped files, checked when
it was written: pydantic costs more to import than the whole ``odds`` command), then read into
frozen values here, which check what the numbers mean together (every shooting
step once, every charge modifier once, a share between 0 and 1). An error names the file, the
entry and the reason.

>>> t = tables()
>>> t.units[UnitKind.ELITE].eliminated_over, t.fire[UnitKind.SKIRMISHERS].add
(18, -2)
>>> t.eliminated(UnitKind.INFANTRY, 13), t.eliminated(UnitKind.ELITE, 13)
(True, False)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from campaign1813.campaign.battle.dice import D6, Die
from campaign1813.campaign.battle.files import RulesetError, content_hash, rulesets_root
from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.units import Ground, UnitKind

__all__ = ["FILES", "MANIFEST", "validated", "UnitRules", "GroundRules", "FireRules",
           "ChargeModifier", "Tables", "tables", "tables_at", "assumptions", "SHOOTING_STEPS"]

FILES = ("ruleset.toml", "units.toml", "shooting.toml", "charges.toml", "play.toml")
MANIFEST = "validated.json"
SHOOTING_STEPS = ("artillery", "skirmishers", "stationary infantry", "moved infantry")
CHARGE_KEYS = ("hill", "cavalry", "flank_or_rear", "skirmishers")
_DICE = {"d6": D6}


@dataclass(frozen=True)
class UnitRules:
    """One unit type: its name, the hits past which it is eliminated, its move, whether it
    shoots."""

    kind: UnitKind
    label: str
    eliminated_over: int
    move_inches: int
    shoots: bool


@dataclass(frozen=True)
class GroundRules:
    """A kind of ground: who may end a move there and what it gives."""

    ground: Ground
    enter: frozenset[UnitKind]
    cover: bool
    one_unit: bool
    all_round_fire: bool
    best_of_two: bool
    static: bool
    halves_charges: bool


@dataclass(frozen=True)
class FireRules:
    """What a type of unit adds to its shooting die, and its range in inches."""

    add: int
    range_inches: int


@dataclass(frozen=True)
class ChargeModifier:
    """A modifier of a charge's hits, in the order it applies."""

    key: str
    label: str
    effect: str


@dataclass(frozen=True)
class Tables:
    """Every number of ruleset 002."""

    name: str
    title: str
    units: Mapping[UnitKind, UnitRules]
    road_bonus: int
    general_bonus: int
    general_bonus_within: int
    halt_within: int
    interpenetrate: frozenset[UnitKind]
    commander_move: int
    commanders_most: int
    units_per_commander: int
    attach_to: frozenset[UnitKind]
    commander_rally_within: int
    commander_rallies: int
    general_move_away: int
    general_rally_within: int
    general_rallies: int
    ground: Mapping[Ground, GroundRules]
    steps: tuple[str, ...]
    shot_die: Die
    least_hits: int
    field_of_fire: int
    best_of: int
    fire: Mapping[UnitKind, FireRules]
    cover_divisor: int
    retire_inches: int
    retire_divisor: int
    charge_die: Die
    charge_add: int
    charge_inches: int
    charge_turn: int
    charge_retire: int
    artillery_support: int
    charges_per_target: int
    charge_modifiers: tuple[ChargeModifier, ...]
    sides_die: Die
    french_a_on: frozenset[int]
    rally_enemy_within: int
    victory_share: Fraction
    assumptions: tuple[str, ...]

    def eliminated(self, kind: UnitKind, hits: int) -> bool:
        """Whether a unit of this type is eliminated with these hits (hits past its limit)."""
        return hits > self.units[kind].eliminated_over


def validated(folder: Path) -> frozenset[tuple[str, str]]:
    """(file name, content hash) of every file the folder's manifest lists as checked."""
    path = folder / MANIFEST
    if not path.is_file():
        return frozenset()
    try:
        files: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["files"]
    except (ValueError, KeyError, TypeError):
        return frozenset()   # a broken manifest only means every file is checked
    return frozenset(files.items())


def _read(folder: Path, filename: str, label: str,
          checked: frozenset[tuple[str, str]] = frozenset()) -> dict[str, Any]:
    path = folder / filename
    if not path.is_file():
        raise RulesetError(f"{label}: the file is missing")
    raw = path.read_bytes()
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{label}: {exc}") from exc
    if (filename, content_hash(raw)) not in checked:
        from campaign1813.campaign.battle.ruleset002.schema import check_file

        check_file(filename, data, label)
    return data


def _share(text: str, label: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise RulesetError(f"{label}: '{text}' is not a fraction") from None
    if not 0 < value <= 1:
        raise RulesetError(f"{label}: should be more than 0 and at most 1, not {text}")
    return value


def tables_at(folder: Path, name: str = RULESET) -> Tables:
    """Ruleset 002's tables from a folder, every file checked; refused with file and entry."""
    checked = validated(folder)
    d = {f: _read(folder, f, f"{name}/{f}", checked) for f in FILES}
    units, shoot, charge, play = (d["units.toml"], d["shooting.toml"], d["charges.toml"],
                                  d["play.toml"])
    steps = tuple(shoot["steps"])
    if sorted(steps) != sorted(SHOOTING_STEPS):
        raise RulesetError(f"{name}/shooting.toml: steps: should name each of "
                           f"{', '.join(SHOOTING_STEPS)} once, not {', '.join(steps)}")
    keys = tuple(m["key"] for m in charge["modifiers"])
    if sorted(keys) != sorted(CHARGE_KEYS):
        raise RulesetError(f"{name}/charges.toml: modifiers: should have each of "
                           f"{', '.join(CHARGE_KEYS)} once, not {', '.join(keys) or 'none'}")
    u, mv, cm, gn = units["units"], units["movement"], units["commanders"], units["general"]
    return Tables(
        name=name, title=d["ruleset.toml"].get("title") or name,
        units={k: UnitRules(k, u[k.value]["label"], u[k.value]["eliminated_over"],
                            u[k.value]["move_inches"], u[k.value]["shoots"])
               for k in UnitKind},
        road_bonus=mv["road_bonus_inches"], general_bonus=mv["general_bonus_inches"],
        general_bonus_within=mv["general_bonus_within"], halt_within=mv["halt_within"],
        interpenetrate=frozenset(UnitKind(k) for k in mv["interpenetrate"]),
        commander_move=cm["move_inches"], commanders_most=cm["most_per_army"],
        units_per_commander=cm["units_per_commander"],
        attach_to=frozenset(UnitKind(k) for k in cm["attach_to"]),
        commander_rally_within=cm["rally_within"], commander_rallies=cm["rallies"],
        general_move_away=gn["move_away_inches"], general_rally_within=gn["rally_within"],
        general_rallies=gn["rallies"],
        ground={g: _ground(g, units["terrain"][g.value]) for g in Ground},
        steps=steps, shot_die=_DICE[shoot["die"]], least_hits=shoot["least_hits"],
        field_of_fire=shoot["field_of_fire_degrees"], best_of=shoot["best_of"],
        fire={UnitKind(k): FireRules(v["add"], v["range_inches"])
              for k, v in shoot["fire"].items()},
        cover_divisor=shoot["cover"]["divide_by"],
        retire_inches=shoot["cavalry_retire"]["inches"],
        retire_divisor=shoot["cavalry_retire"]["divide_by"],
        charge_die=_DICE[charge["die"]], charge_add=charge["add"],
        charge_inches=charge["charge_inches"], charge_turn=charge["turn_degrees"],
        charge_retire=charge["retire_inches"],
        artillery_support=charge["artillery_support_inches"],
        charges_per_target=charge["times_per_target"],
        charge_modifiers=tuple(ChargeModifier(m["key"], m["label"], m["effect"])
                               for m in charge["modifiers"]),
        sides_die=_DICE[play["sides"]["die"]],
        french_a_on=frozenset(play["sides"]["french_a_on"]),
        rally_enemy_within=play["rally"]["enemy_within"],
        victory_share=_share(play["victory"]["eliminated_share"],
                             f"{name}/play.toml: victory.eliminated_share"),
        assumptions=tuple(d["ruleset.toml"].get("assumptions", ())),
    )


def _ground(ground: Ground, g: Mapping[str, Any]) -> GroundRules:
    return GroundRules(ground, frozenset(UnitKind(k) for k in g["enter"]), g["cover"],
                       g.get("one_unit", False), g.get("all_round_fire", False),
                       g.get("best_of_two", False), g.get("static", False),
                       g.get("halves_charges", False))


@cache
def tables(ruleset: str = RULESET) -> Tables:
    """The shipped tables of ruleset 002 (or of a house-ruled copy in its own folder)."""
    folder = rulesets_root() / ruleset
    if not (folder / "units.toml").is_file():
        raise RulesetError(f"no ruleset of seed 002's kind called '{ruleset}'")
    return tables_at(Path(str(folder)), ruleset)


def assumptions(ruleset: str = RULESET) -> tuple[str, ...]:
    """The readings of unclear points that ruleset 002 takes."""
    return tables(ruleset).assumptions
