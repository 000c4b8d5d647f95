"""Start-up of the command line against a bare interpreter in the same virtual environment.

Targets: ``campaign1813 --help`` and ``campaign1813 odds artillery …`` at most 3 × ``python -c
pass``; ``campaign1813 status FILE`` at most 8 ×. Each command runs several times in turn; the
figures are the median wall time and the median CPU time (user + system of the child), each as a
ratio to the bare interpreter's, so a loaded machine slows both sides alike.

The package is byte-compiled first, as an installed copy is: where ``PYTHONDONTWRITEBYTECODE``
is set (as on some build machines), every run would otherwise compile the app's sources anew,
while the interpreter's own modules come compiled.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 9
TARGETS = {"--help": 3.0, "odds artillery": 3.0, "status": 8.0}


def _script() -> str:
    """The ``campaign1813`` console script installed beside this interpreter."""
    here = Path(sys.executable).parent / "campaign1813"
    return str(here) if here.exists() else "campaign1813"


def _run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Measure and print the figures."""
    cli = _script()
    package = Path(__file__).resolve().parents[1] / "campaign1813"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    with tempfile.TemporaryDirectory() as folder:
        campaign = os.path.join(folder, "bench.c1813")
        subprocess.run([cli, "new", campaign], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([cli, "status", campaign], check=True, stdout=subprocess.DEVNULL)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "--help": [cli, "--help"],
            "odds artillery": [cli, "odds", "artillery", "--calibre", "12", "--range", "short",
                               "--target", "infantry", "--gunners", "A"],
            "status": [cli, "status", campaign],
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(RUNS):  # interleaved, so a burst of load falls on every command
            for name, argv in commands.items():
                times[name].append(_run(argv))
    base_wall = statistics.median(w for w, _ in times["python -c pass"])
    base_cpu = statistics.median(c for _, c in times["python -c pass"])
    print(f"{'command':<22}{'wall ms':>9}{'× pass':>8}{'cpu ms':>9}{'× pass':>8}{'target':>8}")
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        target = f"≤ {TARGETS[name]:g}×" if name in TARGETS else ""
        print(f"{name:<22}{wall * 1000:>9.0f}{wall / base_wall:>8.1f}"
              f"{cpu * 1000:>9.0f}{cpu / max(base_cpu, 1e-3):>8.1f}{target:>8}")


if __name__ == "__main__":
    main()
