"""The window against a bare Qt window: cold start, memory, a full repaint of the map and a zoom.

Cold start: a fresh interpreter starts the application as ``campaign1813-gui`` does
(``campaign1813.ui.app.main``) on the default 1813 campaign, and notes the time once the window
has been painted with the campaign open (heading, commands, orders pad, day's report) and the
event loop has gone idle; against it, a bare ``QApplication`` + ``QMainWindow`` doing the same.
The map is drawn after that first paint, in pieces: the time until it is complete and the road
planner has loaded is printed too. Both run several times in turn; the figures are the medians
of wall and CPU time (user + system of the child) and their ratios, with the spread of the ratio
over the pairs of runs, and the ratio of the least CPU time each took. The target (at most
2.5×, with no patch of a dependency's private names) is judged on that last ratio: on a
shared machine a run is only ever slowed by what else runs, so the least time is the truest of
each, and their ratio the steadiest (the medians' ratio moves by half a unit from one run of
the benchmark to the next here). Twenty-one pairs, because the
application's run is twice as long as the bare one's and so twice as likely to be slowed: with
few runs its least time is the less likely of the two to be an unhindered one. Memory is the
child's own peak resident set (``VmHWM``, which starts afresh with the child's program, unlike
``ru_maxrss``, which keeps the forking parent's), the application's counted once the map's
ground is built and the road planner it loads behind the shown window has loaded (target at
most 2.5× the bare window's).

Map: in one window, on the whole map with its ground built, the CPU time of a repaint of the map
view's whole viewport (after the event queue is empty) and of one zoom step (``scale(1.25,
1.25)`` and its repaint); the view is found as the largest ``QGraphicsView`` in the campaign
view, whatever it is called.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 21
START_TARGET, MEMORY_TARGET = 2.5, 2.5

# Each child notes the wall clock and its own CPU time at the first 0 ms timer after the first
# paint of its main window (the events queued by the paint handled: the loop is idle), prints
# them and quits; the application's child first waits for what it loads in the background.
# The paint is watched by a filter on the main window alone, installed as it is shown: a filter
# on the whole application would bring every event of every widget into Python, a cost (Qt's
# types and enums made ready for Python) that neither program pays on its own.
_WATCH = """
import sys, threading, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

def idle():
    print("idle", time.time(), time.process_time(), flush=True)
    if APP:  # the peak counts what the application loads behind the window: wait for it
        QTimer.singleShot(0, settled)
    else:
        peak()

def settled():
    loading = any(t.name == "campaign1813-preload" for t in threading.enumerate())
    if loading or "campaign1813.maps.road_map" not in sys.modules:
        QTimer.singleShot(5, settled)
    else:
        print("settled", time.time(), flush=True)
        peak()

def peak():
    # the peak resident set of this process image: ru_maxrss would keep the forking parent's
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    print("peak", peak, flush=True)
    QApplication.quit()

class Watch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and (
                not APP or getattr(obj, "document", None) is not None):
            obj.removeEventFilter(self)
            QTimer.singleShot(0, idle)
        return False

_show = QMainWindow.show

def show(window):
    window.installEventFilter(watch)
    _show(window)

QMainWindow.show = show
app = QApplication(sys.argv)
watch = Watch()
QTimer.singleShot(120_000, lambda: app.exit(3))  # never painted: give up, and say so
"""
_BARE = _WATCH.replace("APP", "False") + """
window = QMainWindow()
window.resize(1100, 720)
window.show()
sys.exit(app.exec())
"""
_APP = _WATCH.replace("APP", "True") + """
from campaign1813.ui.app import main
sys.exit(main(sys.argv))
"""


def _run(code: str, env: dict[str, str]) -> tuple[float, float, int, float]:
    """Wall and CPU seconds to the idle window, peak resident kilobytes, and wall seconds to
    the settled window (the map complete and the road planner loaded; the idle window's for
    the bare one), of one child."""
    started = time.time()
    child = subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    out = child.stdout.read()
    _pid, status, _usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    line = next((x for x in out.splitlines() if x.startswith("idle ")), None)
    peak = next((x for x in out.splitlines() if x.startswith("peak ")), None)
    if child.returncode != 0 or line is None or peak is None:
        raise RuntimeError(f"the benchmark's child exited with {child.returncode}")
    _, when, cpu = line.split()
    settled = next((x for x in out.splitlines() if x.startswith("settled ")), line)
    return (float(when) - started, float(cpu), int(peak.split()[1]),
            float(settled.split()[1]) - started)


def _environment(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"),
               XDG_CONFIG_HOME=str(home / "config"))
    return env


def cold_start() -> None:
    """Print the start-up and memory figures of the window against a bare one."""
    package = Path(__file__).resolve().parents[1] / "campaign1813"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    with tempfile.TemporaryDirectory() as folder:
        env = _environment(Path(folder))
        _run(_APP, env)  # the first start creates the default campaign; the timed ones open it
        runs: dict[str, list[tuple[float, float, int, float]]] = {"bare": [], "app": []}
        for _ in range(RUNS):  # interleaved, so a burst of load falls on both
            runs["bare"].append(_run(_BARE, env))
            runs["app"].append(_run(_APP, env))
    med = {k: tuple(statistics.median(r[i] for r in v) for i in range(4)) for k, v in runs.items()}
    (bw, bc, bm, _), (aw, ac, am, settled) = med["bare"], med["app"]
    ratios = sorted(a[1] / b[1] for a, b in zip(runs["app"], runs["bare"], strict=True))
    least = min(r[1] for r in runs["app"]) / min(r[1] for r in runs["bare"])
    print(f"{'start to a shown, idle window':<34}{'wall ms':>9}{'cpu ms':>9}{'max RSS MB':>12}")
    print(f"{'bare QApplication + QMainWindow':<34}{bw * 1000:>9.0f}{bc * 1000:>9.0f}"
          f"{bm / 1024:>12.1f}")
    print(f"{'the 1813 campaign in the window':<34}{aw * 1000:>9.0f}{ac * 1000:>9.0f}"
          f"{am / 1024:>12.1f}")
    print(f"{'ratio':<34}{aw / bw:>8.1f}×{ac / max(bc, 1e-3):>8.1f}×{am / bm:>11.1f}×")
    print(f"CPU ratio of each pair of runs: {ratios[0]:.2f}× to {ratios[-1]:.2f}×; of the least "
          f"CPU time of each: {least:.2f}×")
    print(f"the map complete and the road planner loaded {settled * 1000:.0f} ms after start "
          "(wall, median)")
    print(f"targets: start ≤ {START_TARGET:g}× ({'met' if least <= START_TARGET else 'MISSED'}"
          f" on the least CPU times), memory ≤ {MEMORY_TARGET:g}× "
          f"({'met' if am / bm <= MEMORY_TARGET else 'MISSED'})")


def _cpu_ms(fn, runs: int = 15) -> float:
    """Median CPU milliseconds of a call, the event queue emptied before each."""
    from PySide6.QtWidgets import QApplication

    times = []
    for _ in range(runs):
        QApplication.processEvents()
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def map_view_of(window):
    """The map's view in the window: the largest graphics view of the campaign view."""
    from PySide6.QtWidgets import QGraphicsView

    views = window.campaign_view.findChildren(QGraphicsView)
    if not views:
        raise RuntimeError("the campaign view has no graphics view")
    return max(views, key=lambda v: v.width() * v.height())


def map_paint() -> None:
    """Print the CPU time of a full repaint of the map view and of a zoom step."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign1813.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings)
        window.resize(1600, 1000)
        window.show()
        window.new_campaign(Path(folder) / "bench")
        app.processEvents()
        view = map_view_of(window)
        # the map as the umpire zooms it: its ground built (in the window, in pieces after the
        # first paint, which these timings would otherwise catch half-way) and painted once
        finish = getattr(view, "finish_building", None)
        if finish is not None:
            finish()
        view.viewport().repaint()
        repaint = _cpu_ms(lambda: view.viewport().repaint())

        def zoom() -> None:
            view.scale(1.25, 1.25)
            view.viewport().repaint()

        zoom_in = _cpu_ms(zoom, runs=8)
        view.resetTransform()
        print(f"map view {view.viewport().width()}×{view.viewport().height()} px: full repaint "
              f"{repaint:.1f} ms, zoom step {zoom_in:.1f} ms (CPU, median)")
        window.close()


def main() -> None:
    """Measure and print the figures."""
    cold_start()
    map_paint()


if __name__ == "__main__":
    main()
