"""Shooting (seed 002, "Shooting"): one D6 per unit, less two for skirmishers and artillery, the
higher of two D6 with an attached commander or from an entrenchment, halved in cover.

A shot is described by a :class:`Shot`; :func:`shot_odds` gives the exact chance of each number
of hits, :func:`hits_for` the hits of given faces, and :func:`shoot` rolls (one D6 at a time, so
the umpire types the two faces of a best-of-two roll) and gives the hits.

>>> shot_odds(Shot(UnitKind.SKIRMISHERS, UnitKind.INFANTRY))[0]
Fraction(1, 3)
>>> shot_odds(Shot(UnitKind.INFANTRY, UnitKind.INFANTRY, commander=True))[6]
Fraction(11, 36)
>>> hits_for(Shot(UnitKind.ARTILLERY, UnitKind.INFANTRY, cover=True), (5,))
2
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from campaign1813.campaign.battle.core.steps import ActionRefused, roll_for
from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.tables import Tables, tables
from campaign1813.campaign.battle.ruleset002.units import UnitKind

__all__ = ["Shot", "ShotResult", "check_shot", "dice_count", "hits_for", "shot_odds", "shoot",
           "halve_up", "shot_text"]


def halve_up(n: int, divisor: int = 2) -> int:
    """``n`` divided, rounding any fraction up (seed 002: "rounding up fractions").

    >>> halve_up(5), halve_up(4), halve_up(0)
    (3, 2, 0)
    """
    return -(-n // divisor)


@dataclass(frozen=True)
class Shot:
    """One unit shooting at another, with what the table knows about both."""

    shooter: UnitKind
    target: UnitKind
    commander: bool = False
    """A commander is attached to the shooting unit."""
    entrenched: bool = False
    """The shooting unit is in an entrenchment."""
    cover: bool = False
    """The target is in cover (woods, a town, an entrenchment)."""
    cavalry_retires: bool = False
    """The target is cavalry that retires 6 inches to halve the hits."""
    inches: Fraction | None = None
    """The range measured, when the umpire gives it; checked against the shooter's range."""
    moved: bool = False
    """The shooting unit moved or turned this turn (artillery then may not shoot)."""
    in_arc: bool = True
    """The target is in the shooter's field of fire (45 degrees, all round in a town)."""


@dataclass(frozen=True)
class ShotResult:
    """A shot made: the faces rolled, the die kept and the hits it inflicts."""

    shot: Shot
    faces: tuple[int, ...]
    kept: int
    hits: int
    rolls: tuple[Roll, ...]


def check_shot(shot: Shot, ruleset: str = RULESET) -> None:
    """Refuse a shot the rules do not allow, naming the reason."""
    t = tables(ruleset)
    if not t.units[shot.shooter].shoots or shot.shooter not in t.fire:
        raise ActionRefused(f"{shot.shooter.label} do not shoot (seed 002: 'cavalry do not "
                            "shoot')")
    if shot.shooter is UnitKind.ARTILLERY and shot.moved:
        raise ActionRefused("artillery that has moved or turned this turn may not shoot")
    if shot.entrenched and shot.moved:
        raise ActionRefused("a unit in an entrenchment stays there, static, for the rest of "
                            "the game: it cannot have moved")
    if shot.commander and shot.shooter not in t.attach_to:
        raise ActionRefused(f"a commander is attached only to "
                            f"{' or '.join(sorted(k.label for k in t.attach_to))}, not to "
                            f"{shot.shooter.label}")
    if shot.cavalry_retires and shot.target is not UnitKind.CAVALRY:
        raise ActionRefused(f"only cavalry retire to halve the hits, not {shot.target.label}")
    if shot.cover and shot.target is UnitKind.CAVALRY:
        raise ActionRefused("cavalry cannot be in cover: woods, towns and entrenchments are "
                            "closed to it")
    reach = t.fire[shot.shooter].range_inches
    if shot.inches is not None and shot.inches > reach:
        raise ActionRefused(f"{shot.shooter.label} reach {reach} inches; the target is "
                            f"{shot.inches} inches away")
    if not shot.in_arc:
        raise ActionRefused(f"the target is outside the {t.field_of_fire}-degree field of fire "
                            "(all round only in a town)")


def dice_count(shot: Shot, ruleset: str = RULESET) -> int:
    """How many D6 the shot rolls: the best of two with a commander or from an entrenchment."""
    return tables(ruleset).best_of if shot.commander or shot.entrenched else 1


def _hits(t: Tables, shot: Shot, kept: int) -> int:
    hits = max(t.least_hits, kept + t.fire[shot.shooter].add)
    if shot.cover:
        hits = halve_up(hits, t.cover_divisor)
    if shot.cavalry_retires:
        hits = halve_up(hits, t.retire_divisor)
    return hits


def hits_for(shot: Shot, faces: tuple[int, ...], ruleset: str = RULESET) -> int:
    """The hits a shot inflicts with these faces (the highest face is kept)."""
    check_shot(shot, ruleset)
    t = tables(ruleset)
    if len(faces) != dice_count(shot, ruleset):
        raise ActionRefused(f"the shot rolls {dice_count(shot, ruleset)} D6, "
                            f"not {len(faces)}")
    return _hits(t, shot, max(faces))


def shot_odds(shot: Shot, ruleset: str = RULESET) -> dict[int, Fraction]:
    """The exact chance of each number of hits, fewest first."""
    check_shot(shot, ruleset)
    t = tables(ruleset)
    n = dice_count(shot, ruleset)
    faces = t.shot_die.faces
    chance = Fraction(1, len(faces) ** n)
    odds: dict[int, Fraction] = {}
    for roll in product(faces, repeat=n):
        hits = _hits(t, shot, max(roll))
        odds[hits] = odds.get(hits, Fraction(0)) + chance
    return dict(sorted(odds.items()))


def shoot(shot: Shot, dice: DiceSource, who: str = "", ruleset: str = RULESET) -> ShotResult:
    """Roll the shot and give its hits; each die is rolled (or typed) on its own."""
    check_shot(shot, ruleset)
    t = tables(ruleset)
    n = dice_count(shot, ruleset)
    what = f"shooting by {who or shot.shooter.label}"
    rolls = tuple(roll_for(dice, t.shot_die, 1, what if n == 1 else f"{what}, die {i + 1}")
                  for i in range(n))
    faces = tuple(r.total for r in rolls)
    return ShotResult(shot, faces, max(faces), _hits(t, shot, max(faces)), rolls)


def shot_text(shot: Shot, ruleset: str = RULESET) -> str:
    """How the shot is rolled, as the odds and the report give it: ``best of 2D6 −2, halved
    (cover)``."""
    t = tables(ruleset)
    add = t.fire[shot.shooter].add
    dice = "best of 2D6" if dice_count(shot, ruleset) > 1 else "1D6"
    text = dice + (f"{add:+d}".replace("-", "−") if add else "")
    if add < 0:
        text += f" (never below {t.least_hits})"
    if shot.cover:
        text += ", halved for cover (rounded up)"
    if shot.cavalry_retires:
        text += f", halved as the cavalry retire {t.retire_inches} inches (rounded up)"
    return text
