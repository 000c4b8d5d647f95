"""The campaign day by day (record 0030): switching the History to another day, a 30-day
history's export, and what the snapshots cost in the file.

The campaign: the shipped 1813 campaign played 30 days in Northern Germany with the fog of war
on (``tests/history/scripted.play``: every corps without orders ordered, battles decided by a
seeded generator).

- Switching day: the History dock (its own map, table and report) shown at 1280×900 offscreen,
  its map's ground built;
  each figure is a switch to another day and the map's repaint that follows, the median over
  every day in turn, first visits (the day read from its snapshot) and visits again (read
  once, kept); beside it a plain repaint of the same map, and their ratio. Target: under 50 ms.
- The export: ``export history`` of Northern Germany for those 31 days (PNG, SVG, index.html,
  the PDF), wall time.
- The snapshots: their bytes in the file per day, and the file's size beside them.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication

from campaign1813.campaign import queries
from campaign1813.campaign.export.history import write_history
from campaign1813.campaign.store.document import create_campaign, open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.history_panel import HistoryPanel
from campaign1813.ui.history_pictures import QtHistoryPainter
from tests.history.scripted import play

DAYS = 30


def switching(panel: HistoryPanel, app: QApplication) -> tuple[float, float, float]:
    """Median seconds of a switch to another day with its repaint: first visits, visits
    again, and a plain repaint of the map."""
    port = panel.map_view.viewport()

    def timed(action: Callable[[], object]) -> float:
        t0 = time.perf_counter()
        action()
        port.repaint()
        app.processEvents()
        return time.perf_counter() - t0

    first = [timed(lambda d=d: panel.show_day(d)) for d in panel.days[:-1]]
    again = [timed(lambda d=d: panel.show_day(d)) for d in panel.days for _ in range(2)]
    plain = [timed(lambda: None) for _ in range(len(panel.days))]
    return statistics.median(first), statistics.median(again), statistics.median(plain)


def main() -> None:
    """Measure and print."""
    app = QApplication.instance() or QApplication(["bench_replay"])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "thirty.c1813"
        create_campaign(path).close()
        empty = path.stat().st_size
        with open_campaign(path) as doc:
            t0 = time.perf_counter()
            play(doc, Theatre.NORTHERN_GERMANY, DAYS)
            played = time.perf_counter() - t0
            kept = queries.snapshots(doc)
        size = path.stat().st_size
        per_day = sum(s.size for s in kept) / len(kept)
        print(f"{DAYS} days played in Northern Germany in {played:.1f} s; {len(kept)} snapshots")
        print(f"  snapshots: {per_day / 1024:.2f} KiB a day in the file "
              f"({sum(s.size for s in kept) / 1024:.0f} KiB in all); the file {size / 1024:.0f} "
              f"KiB, {empty / 1024:.0f} KiB when new")
        with open_campaign(path) as doc:
            panel = HistoryPanel(doc)
            panel.resize(1280, 900)
            panel.show()
            deadline = time.perf_counter() + 60
            while not panel.scene.built and time.perf_counter() < deadline:
                app.processEvents()  # the ground is built in pieces after the first paint
            first, again, plain = switching(panel, app)
            panel.close()
            print("Switching the History to another day, with the map's repaint (median):")
            print(f"  first visit {first * 1000:.1f} ms, again {again * 1000:.1f} ms; a plain "
                  f"repaint {plain * 1000:.1f} ms: {first / plain:.1f}× and {again / plain:.1f}× "
                  "a repaint (target under 50 ms)")
            out = Path(tmp) / "history"
            t0 = time.perf_counter()
            written = write_history(doc, out, Theatre.NORTHERN_GERMANY, None, QtHistoryPainter())
            export = time.perf_counter() - t0
        folder = sum(p.stat().st_size for p in written) / 1024 / 1024
        print(f"Export of the history, {len(panel.days)} days of Northern Germany: "
              f"{export:.1f} s wall, {folder:.0f} MiB ({len(written)} files)")
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
