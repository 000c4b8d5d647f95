"""Road miles from the towns' coordinates: great-circle miles times a winding factor.

The shipped ``roads.toml`` holds the numbers; this script is how they were made, and re-running it
after moving a town or changing a road's class rewrites them:

    python -m campaign1813.maps.tools.road_miles            # rewrite roads.toml in place
    python -m campaign1813.maps.tools.road_miles --check    # exit 1 if any number is stale

A road winds more than the crow flies: main post roads (chaussées) least, tracks most, and any
road through hill country more. The factors are the map's own judgement, not survey data.
"""

from __future__ import annotations

import math
import re
import sys
import tomllib
from dataclasses import dataclass
from typing import Any

from campaign1813.maps.geometry import great_circle_miles
from campaign1813.maps.tools.map_toml import MAP_DIR, read_towns

# How much longer than the straight line a road of each class runs in open country.
CLASS_FACTOR = {"main": 1.15, "minor": 1.25, "track": 1.35}
# Extra winding for a road whose middle lies in hill or mountain country.
HILL_EXTRA = 0.15


@dataclass(frozen=True)
class Hills:
    """A box of hill or mountain country that makes roads wind more."""

    name: str
    south: float
    west: float
    north: float
    east: float

    def holds(self, lat: float, lon: float) -> bool:
        """Whether the point lies in these hills."""
        return self.south <= lat <= self.north and self.west <= lon <= self.east


HILLS = (
    Hills("Harz", 51.60, 10.30, 51.90, 11.10),
    Hills("Thuringian Forest", 50.40, 10.30, 50.80, 11.40),
    Hills("Rhön and Vogelsberg", 50.35, 9.20, 50.75, 10.20),
    Hills("Ore Mountains", 50.50, 12.90, 50.85, 14.20),
    Hills("Bohemian Forest", 48.50, 12.60, 49.10, 14.60),
    Hills("Black Forest", 47.80, 7.90, 48.75, 8.55),
    Hills("Vosges", 48.00, 6.80, 48.75, 7.35),
    Hills("Hunsrück and Eifel", 49.65, 6.40, 50.55, 7.50),
    Hills("Ardennes", 49.70, 5.20, 50.50, 6.20),
    Hills("Alpine foothills", 47.55, 12.00, 47.95, 13.70),
    Hills("Pyrenees", 42.30, -2.10, 43.25, 3.00),
    Hills("Cantabrian mountains", 42.75, -6.20, 43.35, -3.30),
    Hills("Sierra de Guadarrama and Gredos", 40.30, -6.00, 41.05, -3.50),
    Hills("Iberian range", 40.30, -2.60, 41.50, -0.50),
    Hills("Sierra Morena", 38.00, -4.60, 38.60, -3.30),
    Hills("Catalan interior", 41.80, 1.35, 42.50, 2.65),
    Hills("Beira highlands", 40.30, -8.10, 41.00, -6.80),
    Hills("Betic mountains", 36.20, -5.60, 37.30, -3.40),
)

# Roads known to wind much more (or less) than their class and country suggest.
OVERRIDES: dict[frozenset[str], float] = {
    # Over the Wilhelmsburg islands and Davout's long bridge.
    frozenset({"Hamburg", "Harburg"}): 1.40,
    # The pass of Pancorbo's gorge.
    frozenset({"Pancorbo", "Miranda de Ebro"}): 1.35,
    # Somosierra.
    frozenset({"Aranda de Duero", "Madrid"}): 1.25,
    # Despeñaperros.
    frozenset({"Valdepeñas", "Bailén"}): 1.30,
    # Roncesvalles.
    frozenset({"Pamplona", "Saint-Jean-Pied-de-Port"}): 1.50,
}


def winding_factor(road_class: str, a: tuple[float, float], b: tuple[float, float],
                   pair: frozenset[str] = frozenset()) -> float:
    """The factor by which a road between points a and b exceeds the great-circle distance."""
    if pair in OVERRIDES:
        return OVERRIDES[pair]
    try:
        factor = CLASS_FACTOR[road_class]
    except KeyError:
        raise ValueError(f"road class {road_class!r} is not main, minor or track") from None
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    if any(h.holds(*mid) for h in HILLS):
        factor += HILL_EXTRA
    return factor


def road_miles(great_circle: float, factor: float) -> float:
    """Great-circle miles times the factor, rounded up to the next half mile."""
    if factor < 1.0:
        raise ValueError(
            f"winding factor {factor} is below 1: a road is never shorter than the line"
        )
    return math.ceil(great_circle * factor * 2 - 1e-9) / 2


def computed_miles(roads: list[dict[str, Any]],
                   towns: dict[str, tuple[float, float]]) -> list[float]:
    """The miles of each ``[[road]]`` table, from its towns' coordinates."""
    out = []
    for r in roads:
        try:
            a, b = towns[r["from"]], towns[r["to"]]
        except KeyError as e:
            raise ValueError(f"road {r['from']} - {r['to']}: unknown town {e.args[0]}") from None
        factor = winding_factor(r["class"], a, b, frozenset({r["from"], r["to"]}))
        out.append(road_miles(great_circle_miles(*a, *b), factor))
    return out


def rewrite(text: str, miles: list[float]) -> str:
    """The roads file text with each road's ``miles =`` line set to the given numbers."""
    parts = re.split(r"(?m)^(?=\[\[road\]\]\s*$)", text)
    head, blocks = parts[0], parts[1:]
    if len(blocks) != len(miles):
        raise ValueError(f"{len(blocks)} road tables but {len(miles)} numbers")
    out = [head]
    for block, m in zip(blocks, miles, strict=True):
        value = f"{m:.1f}"
        new, n = re.subn(r"(?m)^miles\s*=.*$", f"miles = {value}", block, count=1)
        if n == 0:
            new = block.replace("[[road]]\n", f"[[road]]\nmiles = {value}\n", 1)
        out.append(new)
    return "".join(out)


def main(argv: list[str]) -> int:
    """Rewrite (or with --check, verify) the miles in the shipped roads.toml."""
    folder = MAP_DIR
    towns = {t.name: (t.lat, t.lon) for t in read_towns(folder / "towns.toml")}
    path = folder / "roads.toml"
    text = path.read_text(encoding="utf-8")
    roads = tomllib.loads(text).get("road", [])
    miles = computed_miles(roads, towns)
    new = rewrite(text, miles)
    if "--check" in argv:
        stale = [f"{r['from']} - {r['to']}: {r.get('miles')} should be {m}"
                 for r, m in zip(roads, miles, strict=True) if r.get("miles") != m]
        for line in stale:
            print(line)
        return 1 if stale else 0
    path.write_text(new, encoding="utf-8")
    print(f"{len(roads)} roads, miles rewritten in {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
