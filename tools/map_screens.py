"""Pictures of the main window's map at a screen's size, for the guide: the whole map, each
theatre, a city close up, and the whole map and Northern Germany after a day of marches.

    xvfb-run -a -s "-screen 0 1920x1080x24" python tools/map_screens.py 1920 1080 docs/screens

On a throwaway campaign and settings, the window fills the screen given; each picture is the
whole window, written as ``<width>x<height>-<what>.png`` in the window's 256 commonest
colours.
"""

from __future__ import annotations

import sys
import tempfile
import time
from array import array
from collections import Counter
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from campaign1813.campaign.services import IssueOrder
from campaign1813.maps.types import Theatre
from campaign1813.ui.main_window import MainWindow
from campaign1813.ui.map.view import WHOLE_MAP

MARCHES = (("I Prussian Corps", "Move", "Brandenburg"), ("II Prussian Corps", "Move", "Potsdam"),
           ("5 Corps", "Move", "Helmstedt"), ("6 Corps", "Move", "Brunswick"))


def _settle(app: QApplication) -> None:
    """Let the window paint what it was given."""
    for _ in range(3):
        for _ in range(10):
            app.processEvents()
        time.sleep(0.05)


def _save(app: QApplication, window: MainWindow, path: Path) -> None:
    _settle(app)
    # a pan or a resize places the names again, a piece at a time: the picture waits for them
    deadline = time.monotonic() + 5
    while window.campaign_view.map_view.labels_pending() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    _settle(app)
    image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    # the window's 256 commonest colours (its flat land, sea, panels and inks), each pixel the
    # nearest of them: a quarter of the file, to the eye the same picture
    pixels = array("I", bytes(image.constBits()))
    table = [colour for colour, _ in Counter(pixels).most_common(256)]
    image.convertToFormat(QImage.Format.Format_Indexed8, table,
                          Qt.ImageConversionFlag.ThresholdDither).save(str(path), quality=9)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


def _slug(text: str) -> str:
    return text.lower().replace(" ", "-")


def main(argv: list[str] | None = None) -> int:
    """Write the pictures for the screen size given into the folder given."""
    argv = sys.argv[1:] if argv is None else argv
    width, height = int(argv[0]), int(argv[1])
    out = Path(argv[2] if len(argv) > 2 else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    prefix = f"{width}x{height}"
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings)
        window.setGeometry(0, 0, width, height)
        window.show()
        window.new_campaign(Path(tmp) / "1813.c1813")
        view = window.campaign_view
        mv = view.map_view
        for key in (WHOLE_MAP, *(t.value for t in Theatre)):
            view.theatres.setCurrentText(key)
            mv.finish_building()
            view.fit_theatre()
            mv.place_labels()
            name = "whole-map" if key == WHOLE_MAP else _slug(key)
            _save(app, window, out / f"{prefix}-{name}.png")
        # a city close up: Berlin and its neighbours, Spandau and Potsdam
        view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
        scene = view.map_scene
        assert scene is not None
        mv.zoom_by(9 / mv.scale_now())  # as the wheel zooms: the view is no longer fitted
        mv.centerOn(scene.town_point("Berlin"))
        mv.place_labels()
        _save(app, window, out / f"{prefix}-berlin.png")
        # a day of marches, on Northern Germany and on the whole map
        for order in MARCHES:
            window.give_order(IssueOrder(*order))
        window.end_day()
        view.fit_theatre()
        mv.place_labels()
        _save(app, window, out / f"{prefix}-northern-germany-day-2.png")
        view.theatres.setCurrentText(WHOLE_MAP)
        view.fit_theatre()
        mv.place_labels()
        _save(app, window, out / f"{prefix}-whole-map-day-2.png")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
