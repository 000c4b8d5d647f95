"""Ruleset 004's tables, read from ``data/rulesets/004/`` and checked at load.

Every file is checked against its model in :mod:`.schema` (a type, a range, an unknown entry,
NaN), unless its bytes are listed in the folder's ``validated.json`` (the shipped files, checked
when it was written: pydantic costs more to import than the whole ``odds`` command). The tables
are then read into frozen views with exact fractions, which check what the numbers mean together
(a dice count that is whole or a half, a variation die with all six faces). An error names the
file, the entry and the reason. A house-ruled file (its bytes changed) is checked when read.

>>> t = tables()
>>> t.fire.musketry_hits_on["firing_order"], t.melee.dice["lancers"]["foot_firing_order"]
(4, Fraction(3, 2))
>>> t.morale.passes_on["poor"]
5
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

from campaign1813.campaign.battle.files import (
    RulesetError,
    content_hash,
    data_folders,
    rulesets_root,
)
from campaign1813.campaign.battle.registry import own_engine

ID = "004"
PACKAGE = "campaign1813.campaign.battle.ruleset004"
FILES = ("ruleset.toml", "fire.toml", "melee.toml", "morale.toml", "movement.toml",
         "national.toml")
MANIFEST = "validated.json"


@dataclass(frozen=True)
class Shot:
    """Canister or roundshot: range, dice at full and at weakened effectiveness."""

    range_cm: Fraction
    dice: Fraction
    weakened_dice: Fraction


@dataclass(frozen=True)
class FireTables:
    """``fire.toml``: steps, the half die, musketry, artillery and saving throws."""

    step_percent: int
    steps: int
    half_full_on: int
    musket_range_cm: Fraction
    carbine_range_cm: Fraction
    two_ranks_share: Fraction
    moved_return_fire: int
    musketry_hits_on: dict[str, int]
    weakened_at_percent: int
    potential_share: Fraction
    over_heads: int
    canister: Shot
    roundshot: Shot
    artillery_hits_on: dict[str, int]
    saves: dict[str, int]


@dataclass(frozen=True)
class MeleeTables:
    """``melee.toml``: dice per step by own and enemy kind, extra dice, the hit and saves."""

    hits_on: int
    extra_dice_per_step: Fraction
    dice: dict[str, dict[str, Fraction]]
    saves: dict[str, int]
    gun_clear_of_foot_cm: Fraction


@dataclass(frozen=True)
class MoraleTables:
    """``morale.toml``: the score to pass by quality, the modifiers, the army's loss."""

    passes_on: dict[str, int]
    modifiers: dict[str, int]
    lost_below: Fraction


@dataclass(frozen=True)
class MovementTables:
    """``movement.toml``: full moves, the variation die, wheels and changes."""

    distance_cm: dict[str, Fraction]
    within_share: Fraction
    variation: dict[int, Fraction]
    free_wheel_degrees: int
    wheel_beyond_costs: Fraction
    second_about_turn_costs: Fraction
    foot_into_firing_order: Fraction
    limber_or_unlimber: Fraction
    light_move_and_fire: Fraction


@dataclass(frozen=True)
class National:
    """A nation's characteristics for a battle (the seed's Mollwitz example)."""

    key: str
    label: str
    foot_musketry: int = 0
    foot_wheel_free: bool = False
    horse_melee_hits_on: int | None = None
    horse_wheel_costs: Fraction | None = None


@dataclass(frozen=True)
class Tables:
    """Every table of one copy of ruleset 004."""

    ruleset: str
    title: str
    fire: FireTables
    melee: MeleeTables
    morale: MoraleTables
    movement: MovementTables
    national: dict[str, National]
    assumptions: tuple[str, ...]


def _load(path: Path, label: str) -> tuple[bytes, dict[str, Any]]:
    if not path.is_file():
        raise RulesetError(f"{label}: missing")
    raw = path.read_bytes()
    try:
        return raw, tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{label}: {exc}") from exc


def validated(folder: Path) -> frozenset[tuple[str, str]]:
    """(file, content hash) of every file the folder's manifest lists; none without one."""
    path = folder / MANIFEST
    if not path.is_file():
        return frozenset()
    files: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["files"]
    return frozenset(files.items())


def _ratio(text: str) -> Fraction:
    return Fraction(text)


def _cm(value: float) -> Fraction:
    return Fraction(str(value))


@cache
def tables(ruleset: str = ID) -> Tables:
    """The tables of ruleset 004, checked; RulesetError naming what is wrong."""
    if ruleset not in data_folders():
        raise RulesetError(f"no ruleset called '{ruleset}' "
                           f"(known: {', '.join(data_folders())})")
    if not (own_engine(ruleset) or "").startswith(PACKAGE + "."):
        raise RulesetError(f"ruleset '{ruleset}' is not read by the {ID} rules")
    return tables_at(rulesets_root() / ruleset, ruleset)


def tables_at(folder: Path, name: str = ID) -> Tables:
    """The tables in a folder of ruleset 004's files (a house-ruled copy), checked."""
    read = {f: _load(folder / f, f"{name}/{f}") for f in FILES}
    listed = validated(folder)
    unchecked = [f for f, (raw, _d) in read.items() if (f, content_hash(raw)) not in listed]
    if unchecked:
        # A file changed by hand: only now is pydantic worth its import.
        from campaign1813.campaign.battle.ruleset004.schema import check_file

        for f in unchecked:
            check_file(f, read[f][1], f"{name}/{f}")
    d = {f: data for f, (_raw, data) in read.items()}
    info = d["ruleset.toml"]
    return Tables(
        name, str(info.get("title", name)),
        _fire(d["fire.toml"], name),
        _melee(d["melee.toml"]),
        MoraleTables(dict(d["morale.toml"]["passes_on"]), dict(d["morale.toml"]["modifiers"]),
                     _ratio(d["morale.toml"]["army"]["lost_below"])),
        _movement(d["movement.toml"], name),
        {k: National(k, c["label"], c.get("foot_musketry", 0), c.get("foot_wheel_free", False),
                     c.get("horse_melee_hits_on"),
                     None if c.get("horse_wheel_costs") is None
                     else _ratio(c["horse_wheel_costs"]))
         for k, c in d["national.toml"].get("national", {}).items()},
        tuple(str(a) for a in info.get("assumptions", ())),
    )


def _melee(m: Mapping[str, Any]) -> MeleeTables:
    return MeleeTables(m["hits_on"], _ratio(m["extra_dice_per_step"]),
                       {row: {col: _ratio(v) for col, v in cols.items()}
                        for row, cols in m["dice"].items()},
                       dict(m["saves"]), _cm(m["charges"]["gun_clear_of_foot_cm"]))


def _fire(f: Mapping[str, Any], ruleset: str) -> FireTables:
    a, mu = f["artillery"], f["musketry"]
    share = _ratio(mu["two_ranks_share"])
    if not 0 < share <= 1:
        raise RulesetError(f"{ruleset}/fire.toml: musketry.two_ranks_share: should be more than "
                           f"0 and at most 1, not {mu['two_ranks_share']!r}")
    for name in ("canister", "roundshot"):
        for entry in ("dice", "weakened_dice"):
            value = _ratio(a[name][entry])
            if value < 0 or value.denominator not in (1, 2):
                raise RulesetError(f"{ruleset}/fire.toml: artillery.{name}.{entry}: should be "
                                   f"whole dice or a half, not {a[name][entry]!r}")
    return FireTables(
        f["effectiveness"]["step_percent"], f["effectiveness"]["steps"], f["half"]["full_on"],
        _cm(mu["musket_range_cm"]), _cm(mu["carbine_range_cm"]), share,
        mu["moved_return_fire"], dict(mu["hits_on"]),
        a["weakened_at_percent"], _ratio(a["potential_share"]), a["over_heads"],
        _shot(a["canister"]), _shot(a["roundshot"]), dict(a["hits_on"]), dict(f["saves"]))


def _shot(s: Mapping[str, Any]) -> Shot:
    return Shot(_cm(s["range_cm"]), _ratio(s["dice"]), _ratio(s["weakened_dice"]))


def _movement(m: Mapping[str, Any], ruleset: str) -> MovementTables:
    faces = {int(k): _ratio(v) for k, v in m["variation"]["faces"].items()}
    if set(faces) != set(range(1, 7)):
        missing = ", ".join(str(n) for n in range(1, 7) if n not in faces)
        raise RulesetError(f"{ruleset}/movement.toml: variation.faces: every face 1-6 needs "
                           f"a share (missing: {missing})")
    w, t = m["wheel"], m["turns"]
    return MovementTables(
        {k: _cm(v) for k, v in m["distance_cm"].items()},
        _ratio(m["variation"]["within_share"]), faces, w["free_degrees"],
        _ratio(w["beyond_costs_turn"]), _ratio(w["second_about_turn_costs"]),
        _ratio(t["foot_into_firing_order"]), _ratio(t["limber_or_unlimber"]),
        _ratio(t["light_move_and_fire"]))


def assumptions() -> tuple[str, ...]:
    """The readings of unclear points ruleset 004 takes."""
    return tables().assumptions
