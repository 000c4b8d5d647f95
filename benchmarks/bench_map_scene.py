"""The map scene's own costs: building the ground, placing the names, applying an End Day.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_map_scene.py

Ground: the CPU time of each build step of the 1813 map's scene (the window runs them one per
turn of the event loop, so the longest step is the longest the window can freeze on it) and
of the first paint of the whole map once built. Names: one placement at the whole map's,
a theatre's and a close look's scale. End Day: in a window on Northern Germany, the domain's
``services.end_day`` against the window applying its changes (table rows, flags, arrows,
battles, control and the names placed again, only near the flags that moved); target: the
window's share at most 50 ms.

Scales: in a window of 1920 × 1080, the whole map and Northern Germany side by side, each fitted:
a full repaint of the map view, a zoom step (drawn from the cached layers, the names waiting for
the gesture's end), the names placed once it ends (whole, and the longest of the pieces the
window places them in), and how many flags are drawn (army groups gathered into one flag).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path


def _cpu_ms(fn, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def ground() -> None:
    """Print the build steps' times and a first paint of the whole map."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from campaign1813.campaign.scenario.loader import load_scenario
    from campaign1813.ui.map.scene import MapScene

    scenario = load_scenario()
    scene = MapScene(scenario.map, unit=0.85)
    steps = []
    total = time.process_time()
    while True:
        start = time.process_time()
        more = scene.build_step()
        steps.append(time.process_time() - start)
        if not more:
            break
    total = time.process_time() - total
    print(f"ground: {len(steps)} steps, {total * 1000:.0f} ms in all, longest step "
          f"{max(steps) * 1000:.1f} ms (CPU)")
    for scale, what in ((0.75, "whole map"), (3.5, "a theatre"), (12.0, "close look")):
        def place(scale=scale):
            # the placement itself, not its cache nor the last placement's names kept
            scene._placed = scene._prior = None  # noqa: SLF001
            scene.place_labels(scale)

        print(f"names placed at {scale} px/mile ({what}): {_cpu_ms(place):.1f} ms")
    image = QImage(1000, 1000, QImage.Format.Format_ARGB32)

    def paint() -> None:
        painter = QPainter(image)
        scene.render(painter, QRectF(0, 0, 1000, 1000), scene.ground_rect)
        painter.end()

    print(f"paint of the whole map into 1000×1000 px: {_cpu_ms(paint, 3):.0f} ms")


def end_day() -> None:
    """Print End Day in the domain against the window applying its changes."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign1813.campaign import services
    from campaign1813.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat))
        window.resize(1600, 1000)
        window.show()
        window.new_campaign(Path(folder) / "bench")
        window.campaign_view.theatres.setCurrentText("Northern Germany")
        window.campaign_view.map_view.finish_building()
        app.processEvents()
        doc = window.document
        for name, town in (("I Prussian Corps", "Magdeburg"), ("5 Corps", "Helmstedt"),
                           ("II Prussian Corps", "Brandenburg"), ("6 Corps", "Brunswick")):
            window.campaign.apply(services.issue_order(doc, name, "Move", town))
        domain, shown = [], []
        for _ in range(4):
            start = time.process_time()
            changes = services.end_day(doc)
            domain.append(time.process_time() - start)
            start = time.process_time()
            window.campaign.apply(changes)
            window.campaign_view.map_view.place_labels()
            app.processEvents()
            shown.append(time.process_time() - start)
        share = statistics.median(shown) * 1000
        print(f"End Day: domain {statistics.median(domain) * 1000:.0f} ms, the window's share "
              f"{share:.0f} ms (CPU, median of 4 days); target ≤ 50 ms: "
              f"{'met' if share <= 50 else 'MISSED'}")
        window.close()


def scales() -> None:
    """Print the whole map's repaint, zoom step and names beside a theatre's."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign1813.ui.main_window import MainWindow
    from campaign1813.ui.map.view import WHOLE_MAP

    app = QApplication.instance() or QApplication([])
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat))
        window.setGeometry(0, 0, 1920, 1080)
        window.show()
        window.new_campaign(Path(folder) / "bench")
        view = window.campaign_view
        mv = view.map_view
        for key in (WHOLE_MAP, "Northern Germany"):
            view.theatres.setCurrentText(key)
            mv.finish_building()
            view.fit_theatre()
            mv.place_labels()
            app.processEvents()
            scene = view.map_scene
            repaint = _cpu_ms(lambda: mv.viewport().repaint(), 7)

            def zoom(factor: float = 1.25) -> None:
                mv.zoom_by(factor)
                mv.viewport().repaint()

            steps = []
            for factor in (1.25, 0.8) * 3:
                start = time.process_time()
                zoom(factor)
                steps.append(time.process_time() - start)
            fitted = mv.scale_now()

            def place(scene=scene) -> None:  # noqa: ANN001
                scene._placed = scene._prior = None  # noqa: SLF001 (the placement, not its cache)
                mv.place_labels()

            names = _cpu_ms(place, 5)
            pieces = []
            scene._placed = scene._prior = None  # noqa: SLF001
            placing = scene.labels_placing(fitted, mv.frame())
            while True:
                start = time.process_time()
                stop = next(placing, StopIteration) is StopIteration
                pieces.append(time.process_time() - start)
                if stop:
                    break
            rows.append((key, mv.viewport().width(), mv.viewport().height(), fitted, repaint,
                         statistics.median(steps) * 1000, names, max(pieces) * 1000,
                         len(scene.shown_markers()), len(scene.markers)))
        window.close()
    print(f"{'at 1920×1080, fitted':<24}{'px/mile':>8}{'repaint':>9}{'zoom step':>11}"
          f"{'names':>7}{'longest piece':>15}{'flags':>12}  (CPU ms, median)")
    for key, w, h, scale, repaint, step, names, piece, shown, total in rows:
        print(f"{key + f' {w}×{h}':<24}{scale:>8.2f}{repaint:>9.1f}{step:>11.1f}{names:>7.1f}"
              f"{piece:>15.1f}{f'{shown} of {total}':>12}")


def main() -> None:
    """Measure and print."""
    from PySide6.QtWidgets import QApplication

    _app = QApplication.instance() or QApplication([])
    ground()
    end_day()
    scales()


if __name__ == "__main__":
    main()
