"""Auto-resolve speed: single-corps battles a second, and the CPU time of a 10,000-run estimate.

Target: ``estimate`` of 10,000 battles of one corps a side in under 5 s of CPU time
(``time.process_time``) on one core. The first estimate in a process also builds the tables of
the rules' results it samples from; it is shown apart from a second one, which finds them built.
"""

from __future__ import annotations

import time
from collections.abc import Callable

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
TARGET_CPU_SECONDS = 5.0


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


def main() -> None:
    """Print the figures."""
    setup = single_corps_battle()
    cold = _cpu(lambda: estimate(setup, RUNS))
    warm = _cpu(lambda: estimate(setup, RUNS, seed=1))
    reports = 1000
    with_report = _cpu(lambda: [resolve(setup, seed=n) for n in range(reports)])
    odds = estimate(setup, RUNS)
    print(f"estimate of {RUNS} single-corps battles, first in the process: {cold:6.2f} s CPU "
          f"(target < {TARGET_CPU_SECONDS:g} s)")
    print(f"estimate of {RUNS} single-corps battles, tables built:       {warm:6.2f} s CPU "
          f"= {RUNS / warm:8.0f} battles/s")
    print(f"resolve with its battle report ({reports} battles):            "
          f"{with_report:6.2f} s CPU = {reports / with_report:8.0f} battles/s")
    print(f"odds: French {odds.french.fraction:.3f}, Allied {odds.allied.fraction:.3f}, "
          f"drawn {odds.draw.fraction:.3f}")


if __name__ == "__main__":
    main()
