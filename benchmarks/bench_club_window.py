"""The window on a club's server campaign, refreshed after another umpire's order: as the
notification names it (``OpenCampaign.apply`` of the notice's changes, record 0031) beside
reading the campaign whole (``OpenCampaign.reload``, what every notification did before).

The shipped 1813 campaign is made as a file and pushed to a throwaway server
(``tools/pg_server``); the main window opens it through File ▸ Open Club Campaign's own path.
Each round an order is given (not timed; through the window's own store, so that its
notification is not heard as well) and the window's refresh is timed, the two ways in turn.
The figures are medians of wall time (the reads are the server's work, in another process), and
their ratio. The window is not shown, so neither way paints. Where no server can start, it says
why and measures nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from campaign1813.campaign import services
from campaign1813.campaign.store.notice import notice_of
from campaign1813.ui.main_window import MainWindow

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tools/, beside the package
from tools import pg_server  # noqa: E402

ROUNDS = 15
CORPS = ("1 Corps", "4 Corps", "5 Corps", "6 Corps")


def main() -> None:
    """Measure and print the two refreshes and their ratio."""
    app = QApplication.instance() or QApplication(sys.argv)
    try:
        server = pg_server.start()
    except pg_server.NoServer as exc:
        print(f"not measured: no PostgreSQL server can start here ({exc})")
        return
    told: list[float] = []
    whole: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            _path, address = server.new_campaign(Path(folder), "bench")
            settings = QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat)
            window = MainWindow(settings)
            if not window.open_club(address):
                print("not measured: the window could not open the campaign")
                return
            store = window.document
            assert store is not None
            for i in range(ROUNDS):
                town = ("Leipzig", "Dresden")[i % 2]
                changes = services.issue_order(store, CORPS[i % len(CORPS)], "Move", town)
                start = time.perf_counter()
                window.campaign.apply(notice_of(changes).changes())
                told.append(time.perf_counter() - start)
                services.issue_order(store, CORPS[(i + 1) % len(CORPS)], "Move", town)
                start = time.perf_counter()
                window.campaign.reload()
                whole.append(time.perf_counter() - start)
            window.close()
            app.processEvents()
    finally:
        server.stop()
    a, b = statistics.median(told), statistics.median(whole)
    print(f"another umpire's order, the window refreshed: as the notice names it "
          f"{a * 1000:.1f} ms, the campaign read whole {b * 1000:.1f} ms, ratio {a / b:.2f}")


if __name__ == "__main__":
    main()
