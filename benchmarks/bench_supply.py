"""End Day with the supply rule on beside off, on the 1813 campaign and on one ten times its
size: the day's supply must cost little, and grow with the campaign no faster than the day.

Each figure is the median CPU time (``time.process_time``) of End Day over a ten-day run with
every command ordered (``bench_end_day.play``), the same campaign played with supply off and
with the 2016 rule on, in one run. Target: the 10x campaign's growth with supply on at most
1.2x its growth with supply off (linear in the campaign, as the day is).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
from pathlib import Path

from msgspec.structs import replace

HERE = Path(__file__).parent


def _end_day_bench():  # the End Day benchmark's campaigns and player, shared
    spec = importlib.util.spec_from_file_location("bench_end_day", HERE / "bench_end_day.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_end_day", module)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    """Print End Day's median CPU with supply off and on, at 1x and 10x, and the growths."""
    bench = _end_day_bench()
    small, _label = bench._default_scenario()
    large = bench.generated(50, 2, 15)
    medians: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size, scenario in (("1x", small), ("10x", large)):
            for rule in ("off", "2016"):
                ruled = replace(scenario, settings=replace(scenario.settings, supply=rule))
                folder = Path(tmp) / f"{size}-{rule}"
                folder.mkdir()
                medians[size, rule] = statistics.median(bench.play(ruled, folder))
    for size in ("1x", "10x"):
        off, on = medians[size, "off"], medians[size, "2016"]
        print(f"end-day with supply, {size} campaign: {on * 1000:.1f} ms of CPU against "
              f"{off * 1000:.1f} ms with supply off ({on / off:.2f}x)")
    grow_off = medians["10x", "off"] / medians["1x", "off"]
    grow_on = medians["10x", "2016"] / medians["1x", "2016"]
    ratio = grow_on / grow_off
    print(f"end-day growth 1x → 10x: {grow_on:.1f}x with supply on, {grow_off:.1f}x off "
          f"({ratio:.2f}x; target <= 1.2x: {'met' if ratio <= 1.2 else 'MISSED'}; first "
          "measured here)")


if __name__ == "__main__":
    main()
