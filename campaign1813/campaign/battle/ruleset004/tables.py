"""Ruleset 004's tables, read from ``data/rulesets/004/`` and checked when first asked for.

Every file is validated against its model in :mod:`.schema` (pydantic is imported only here, when
ruleset 004 is first used), then read into frozen views with exact fractions, so the procedures
never see a raw number. A house-ruled copy of the ruleset (another folder whose ``ruleset.toml``
says ``engine = "004"``) is read the same way.

>>> t = tables()
>>> t.fire.musketry_hits_on["firing_order"], t.melee.dice["lancers"]["foot_firing_order"]
(4, Fraction(3, 2))
>>> t.morale.passes_on["poor"]
5
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from campaign1813.campaign.battle.rules.files import (
    RulesetError,
    all_ruleset_names,
    rulesets_root,
)

ID = "004"
ENGINE = "004"
FILES = ("fire.toml", "melee.toml", "morale.toml", "movement.toml", "national.toml")


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
    fire: FireTables
    melee: MeleeTables
    morale: MoraleTables
    movement: MovementTables
    national: dict[str, National]
    assumptions: tuple[str, ...]


def engine_rulesets() -> tuple[str, ...]:
    """The shipped rulesets this engine reads: 004 and any copy saying ``engine = "004"``."""
    return tuple(n for n in all_ruleset_names() if _info(n).get("engine") == ENGINE)


def _info(name: str) -> dict[str, Any]:
    return _read(rulesets_root() / name / "ruleset.toml", f"{name}/ruleset.toml")


def _read(path: Path, label: str) -> dict[str, Any]:
    if not path.is_file():
        raise RulesetError(f"{label}: missing")
    try:
        return tomllib.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{label}: {exc}") from exc


def _ratio(text: str) -> Fraction:
    return Fraction(text)


def _cm(value: float) -> Fraction:
    return Fraction(str(value))


@cache
def tables(ruleset: str = ID) -> Tables:
    """The tables of a ruleset read by this engine, checked; RulesetError naming what is wrong."""
    from campaign1813.campaign.battle.ruleset004 import schema  # pydantic: only when first used

    folder = rulesets_root() / ruleset
    if not (folder / "ruleset.toml").is_file():
        known = ", ".join(all_ruleset_names())
        raise RulesetError(f"no ruleset called '{ruleset}' (known: {known})")
    info = _info(ruleset)
    if info.get("engine") != ENGINE:
        raise RulesetError(f"ruleset '{ruleset}' is not read by the {ENGINE} rules "
                           f"(its ruleset.toml says engine = {info.get('engine', '1813')!r})")
    raw = {f: _read(folder / f, f"{ruleset}/{f}") for f in FILES}
    m = {f: schema.check_file(f, raw[f], f"{ruleset}/{f}") for f in FILES}
    fire, melee, morale, move, nat = (m[f] for f in FILES)
    assert isinstance(fire, schema.FireFile) and isinstance(melee, schema.MeleeFile)
    assert isinstance(morale, schema.MoraleFile) and isinstance(move, schema.MovementFile)
    assert isinstance(nat, schema.NationalFile)
    return Tables(
        ruleset,
        _fire(fire, ruleset),
        MeleeTables(melee.hits_on, _ratio(melee.extra_dice_per_step),
                    {row: {col: _ratio(v) for col, v in cols.items()}
                     for row, cols in melee.dice.model_dump().items()},
                    melee.saves.model_dump(), _cm(melee.charges.gun_clear_of_foot_cm)),
        MoraleTables(morale.passes_on.model_dump(), morale.modifiers.model_dump(),
                     _ratio(morale.army.lost_below)),
        _movement(move, ruleset),
        {k: National(k, c.label, c.foot_musketry, c.foot_wheel_free, c.horse_melee_hits_on,
                     None if c.horse_wheel_costs is None else _ratio(c.horse_wheel_costs))
         for k, c in nat.national.items()},
        tuple(str(a) for a in info.get("assumptions", ())),
    )


def _fire(f: Any, ruleset: str) -> FireTables:
    a = f.artillery
    share = _ratio(f.musketry.two_ranks_share)
    if not 0 < share <= 1:
        raise RulesetError(f"{ruleset}/fire.toml: musketry.two_ranks_share: should be more than "
                           f"0 and at most 1, not {f.musketry.two_ranks_share!r}")
    for name in ("canister", "roundshot"):
        shot = getattr(a, name)
        for entry in ("dice", "weakened_dice"):
            value = _ratio(getattr(shot, entry))
            if value < 0 or value.denominator not in (1, 2):
                raise RulesetError(f"{ruleset}/fire.toml: artillery.{name}.{entry}: should be "
                                   f"whole dice or a half, not {getattr(shot, entry)!r}")
    return FireTables(
        f.effectiveness.step_percent, f.effectiveness.steps, f.half.full_on,
        _cm(f.musketry.musket_range_cm), _cm(f.musketry.carbine_range_cm), share,
        f.musketry.moved_return_fire, f.musketry.hits_on.model_dump(),
        a.weakened_at_percent, _ratio(a.potential_share), a.over_heads,
        _shot(a.canister), _shot(a.roundshot), a.hits_on.model_dump(), f.saves.model_dump())


def _shot(s: Any) -> Shot:
    return Shot(_cm(s.range_cm), _ratio(s.dice), _ratio(s.weakened_dice))


def _movement(m: Any, ruleset: str) -> MovementTables:
    faces = {int(k): _ratio(v) for k, v in m.variation.faces.items()}
    if set(faces) != set(range(1, 7)):
        missing = ", ".join(str(n) for n in range(1, 7) if n not in faces)
        raise RulesetError(f"{ruleset}/movement.toml: variation.faces: every face 1-6 needs "
                           f"a share (missing: {missing})")
    return MovementTables(
        {k: _cm(v) for k, v in m.distance_cm.model_dump().items()},
        _ratio(m.variation.within_share), faces, m.wheel.free_degrees,
        _ratio(m.wheel.beyond_costs_turn), _ratio(m.wheel.second_about_turn_costs),
        _ratio(m.turns.foot_into_firing_order), _ratio(m.turns.limber_or_unlimber),
        _ratio(m.turns.light_move_and_fire))
