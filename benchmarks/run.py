"""Run every benchmark in this folder and print its figures: ``make bench``.

Each ``bench_*.py`` module has a ``main()`` that measures and prints (``bench_fog.py``: End Day
with the fog of war on beside off, and the time to build a side's turn packet;
``bench_replay.py``: switching the History to another day, a 30-day history's export, the
snapshots' size a day). Speed targets are checked here, by a person reading the figures,
never by timed assertions in the tests.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def main() -> int:
    """Run the benchmarks one after another."""
    here = Path(__file__).parent
    modules = sorted(here.glob("bench_*.py"))
    if not modules:
        print("no benchmarks yet")
        return 0
    failed = []
    for path in modules:
        print(f"== {path.stem}", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            module.main()
        except Exception as exc:  # one benchmark that cannot run does not hide the others
            print(f"{path.stem} could not run: {type(exc).__name__}: {exc}")
            failed.append(path.stem)
    if failed:
        print(f"== not measured: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
