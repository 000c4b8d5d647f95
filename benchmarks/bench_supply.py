"""End Day with the supply rule on beside off, on the 1813 campaign and on one ten times its
size: the day's supply must cost little, and grow with the campaign no faster than the day.

Each figure is the median CPU time (``time.process_time``) of End Day over a ten-day run with
every command ordered (``bench_end_day.play``), the same campaign played with supply off and
with the 2016 rule on, in one run. Target: the 10x campaign's growth with supply on at most
1.2x its growth with supply off (linear in the campaign, as the day is).

The map's repaint with supply on beside off (``QT_QPA_PLATFORM=offscreen``): in a window of
1920 × 1080, the whole map and Northern Germany fitted, the median CPU time of a full repaint
of the map view with supply off, then with the 2016 rule on after a day with a depot made and a
column on the road (every army's depots drawn, every corps' days on its flag), off and on in
turn three times (off by the setting, on again by undo). Target: at most 1.2x the repaint with
supply off.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
import time
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
    """Print End Day's median CPU with supply off and on, at 1x and 10x, and the growths;
    then the map's repaint with supply off and on."""
    end_day()
    map_repaint()


def end_day() -> None:
    """Print End Day's median CPU with supply off and on, at 1x and 10x, and the growths."""
    bench = _end_day_bench()
    small, _label = bench._default_scenario()
    large = bench.generated(50, 2, 15)
    medians: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size, scenario in (("1x", small), ("10x", large)):
            for rule in ("off", "2016"):
                ruled = replace(scenario, settings=replace(scenario.settings, supply=rule,
                                                            supply_attrition="seeded"))
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


def _cpu_ms(fn, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def map_repaint() -> None:
    """Print the map view's repaint with supply off and on, on the whole map and a theatre."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign1813.campaign import services
    from campaign1813.ui.main_window import MainWindow
    from campaign1813.ui.map.view import WHOLE_MAP
    from campaign1813.ui.operation import Operation
    from campaign1813.ui.supply_orders import SupplyRequest

    app = QApplication.instance() or QApplication([])
    keys = (WHOLE_MAP, "Northern Germany")
    figures: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat))
        window.setGeometry(0, 0, 1920, 1080)
        window.show()
        window.new_campaign(Path(folder) / "bench")
        view = window.campaign_view
        mv = view.map_view

        def measure(rule: str) -> None:
            for key in keys:
                view.theatres.setCurrentText(key)
                mv.finish_building()
                view.fit_theatre()
                mv.place_labels()
                mv.labels_later(0)  # the names placed and every change painted, as settled
                while mv.labels_pending():
                    app.processEvents()
                app.processEvents()
                figures.setdefault((key, rule), []).append(
                    _cpu_ms(lambda: mv.viewport().repaint()))

        def switch(rule: str) -> None:
            Operation(window.campaign,
                      lambda doc: services.change_setting(doc, "supply", rule)).perform()

        switch("2016")
        pad = window.orders_panel
        pad.supply_here(SupplyRequest("depot", corps="5 Corps", town="Magdeburg", brigade=17))
        pad.supply_here(SupplyRequest("move", origin="Hamburg", town="Harburg", days=4))
        window.end_day()
        marks = len(window.campaign.status.supply) if window.campaign.status else 0
        measure("warm")  # the first fit of each theatre builds its cached layers
        for _ in range(3):  # off and on in turn, so that the machine's load falls on both
            switch("off")
            measure("off")
            window.undo()  # the supplies, depots and column as they were
            measure("2016")
        window.close()
    for key in keys:
        off = statistics.median(figures[key, "off"])
        on = statistics.median(figures[key, "2016"])
        ratio = on / off
        print(f"map repaint with supply, {key}: {on:.1f} ms of CPU against {off:.1f} ms off "
              f"({ratio:.2f}x; target <= 1.2x: {'met' if ratio <= 1.2 else 'MISSED'}; "
              f"{marks} depots and columns in the campaign; first measured here)")


if __name__ == "__main__":
    main()
