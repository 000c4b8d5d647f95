"""Auto-resolve speed: single-corps battles a second, and the CPU time of a 10,000-run estimate.

Target: ``estimate`` of 10,000 battles of one corps a side in under 1 s of CPU time
(``time.process_time``) on one core, cold: the first estimate in a fresh interpreter. It is
measured in child processes sharing a fresh cache folder: the first child finds no tables on
disk and builds them (the first estimate ever made under the ruleset), the next three read the
file the first one wrote (every later process: ``table_store``); the least of those three is
the cold figure. A second estimate in the same process, which finds the tables in memory, is
shown beside it. The figures before are those of the estimate's engine at 1e894a8 (its own
engine and its tables on disk, before its tables were read by draw and kept in the file's
second layout), measured by this benchmark on this machine, interleaved with these.

``python benchmarks/bench_autoresolve.py`` (part of ``make bench``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from campaign1813.campaign.battle.ruleset1813.autoresolve import estimate, resolve
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    BrigadeSetup,
    Chip,
    CommanderSetup,
    CorpsSetup,
    Edge,
    Table,
)
from campaign1813.campaign.battle.terms import Arm, CavalryWeight, CorpsOrder, Grade, Rating, Role

RUNS = 10_000
TARGET_CPU_SECONDS = 1.0
# Where the figures stood before the estimate's engine read its tables by draw: 1e894a8 measured
# by this benchmark, interleaved with these on the shared 2-core machine under a load of 2-2.5
# (the best of its three runs): cold (tables on disk), the first ever (nothing on disk), tables
# in memory, and battles a second with the report.
BEFORE = (0.75, 1.05, 0.75, 2330)
CHILDREN = 3


def _corps(key: str, side: str, nation: str, grade: Grade, classes: str, edge: Edge | None,
           first: int) -> tuple[CommanderSetup, CorpsSetup, list[BrigadeSetup]]:
    """A corps of the seed's shape: four infantry brigades graded by ``classes``, a brigade of
    medium cavalry and a 9-pounder battery."""
    brigades = [BrigadeSetup(f"{key}/{first + i}", key, f"{first + i} Infantry Brigade",
                             Arm.INFANTRY, Rating(c), Rating(c), Rating(c), nation=nation)
                for i, c in enumerate(classes)]
    brigades.append(BrigadeSetup(f"{key}/cav", key, f"{first} Cavalry Brigade", Arm.CAVALRY,
                                 Rating.B, cavalry=CavalryWeight.MEDIUM, nation=nation))
    brigades.append(BrigadeSetup(f"{key}/art", key, f"{key} Artillery", Arm.ARTILLERY, Rating.B,
                                 calibre=9, nation=nation))
    commander = CommanderSetup(key, f"{key} commander", grade, Role.CORPS, side, nation)
    corps = CorpsSetup(key, side, f"{side} army", key, tuple(b.key for b in brigades),
                       CorpsOrder.ENGAGE, "Helmstedt", edge, edge is not None)
    return commander, corps, brigades


def single_corps_battle() -> BattleSetup:
    """5 French Corps holding Helmstedt against II Prussian Corps marching in from the east."""
    f = _corps("5 French Corps", FRENCH, "French", Grade.AVERAGE, "ABBC", None, 17)
    a = _corps("II Prussian Corps", ALLIED, "Prussian", Grade.AVERAGE, "ABBC", Edge.EAST, 5)
    chips = (Chip("3", f[0].key, FRENCH), Chip("9", a[0].key, ALLIED), Chip("Poor"))
    return BattleSetup(1, "the battle of Helmstedt", "Helmstedt", "1813-05-02", (f[0], a[0]),
                       (f[1], a[1]), tuple(f[2] + a[2]), chips, Table("Helmstedt"))


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def _child() -> None:
    """In a fresh interpreter: the CPU seconds of a cold estimate, then of a second one."""
    setup = single_corps_battle()
    cold = _cpu(lambda: estimate(setup, RUNS))
    warm = _cpu(lambda: estimate(setup, RUNS, seed=1))
    print(f"{cold} {warm}")


def _in_children() -> tuple[float, float, float]:
    """In fresh interpreters sharing a new cache folder: the cold figure of the first (no
    tables on disk), the least cold figure of the ``CHILDREN`` after it (the tables on disk),
    and the least warm figure of all."""
    root = Path(__file__).resolve().parent.parent
    runs = []
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(CHILDREN + 1):
            out = subprocess.run([sys.executable, __file__, "--child"], check=True,
                                 capture_output=True, text=True, cwd=root,
                                 env={"PYTHONPATH": str(root), "PATH": "",
                                      "XDG_CACHE_HOME": cache}).stdout
            cold, warm = (float(x) for x in out.split())
            runs.append((cold, warm))
    return runs[0][0], min(r[0] for r in runs[1:]), min(r[1] for r in runs)


def main() -> None:
    """Print the figures, each beside its target and where it stood before."""
    first, cold, warm = _in_children()
    setup = single_corps_battle()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache        # not the user's own cache folder
        odds = estimate(setup, RUNS)    # builds the tables before the report is timed
    reports = 1000
    with_report = _cpu(lambda: [resolve(setup, seed=n) for n in range(reports)])
    was_cold, was_first, was_warm, was_report = BEFORE
    print(f"estimate of {RUNS} single-corps battles, cold:          {cold:6.2f} s CPU "
          f"(target < {TARGET_CPU_SECONDS:g} s: "
          f"{'met' if cold < TARGET_CPU_SECONDS else 'MISSED'}; before {was_cold:.2f} s)")
    print(f"  the same, the first ever (no tables on disk): {first:6.2f} s CPU "
          f"(before {was_first:.2f} s)")
    print(f"estimate of {RUNS} single-corps battles, tables in memory: {warm:6.2f} s CPU "
          f"= {RUNS / warm:6.0f} battles/s (before {was_warm:.2f} s)")
    print(f"resolve with its battle report ({reports} battles):       "
          f"{with_report:6.2f} s CPU = {reports / with_report:6.0f} battles/s "
          f"(before {was_report} battles/s)")
    print(f"odds: French {odds.french.fraction:.3f}, Allied {odds.allied.fraction:.3f}, "
          f"drawn {odds.draw.fraction:.3f}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        _child()
    else:
        main()
