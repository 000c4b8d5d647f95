"""Run every benchmark in this folder and print its figures: ``make bench``.

Each ``bench_*.py`` module has a ``main()`` that measures and prints. Speed targets are checked
here, by a person reading the figures, never by timed assertions in the tests.
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
    for path in modules:
        print(f"== {path.stem}")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
