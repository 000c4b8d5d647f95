"""Pictures of the map in the real window at two screen sizes: ``python tools/desk_screens.py``.

Run under a virtual X screen of the size wanted, e.g.
``xvfb-run -a -s "-screen 0 1920x1080x24" python tools/desk_screens.py docs/screens``. On a
throwaway campaign and settings the window opens as at its first start (no saved geometry),
then maximised; each time the whole map and each theatre are shown fitted, and a picture of the
window is written for each: ``desk-WxH-first-whole.png``, ``desk-WxH-max-northern-germany.png``
and so on (W×H the screen's size), in 256 colours to keep them small.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from campaign1813.maps.types import Theatre
from campaign1813.ui.main_window import MainWindow
from campaign1813.ui.map.view import WHOLE_MAP


def _settle(app: QApplication, rounds: int = 3) -> None:
    """Let the window paint what it was given (and the map finish its layers and names)."""
    for _ in range(rounds):
        for _ in range(10):
            app.processEvents()
        time.sleep(0.05)


def few_colours(image: QImage) -> QImage:
    """The picture in its 256 commonest colours, each pixel the nearest of them, undithered:
    a third of the bytes, the map's flat colours kept as they are."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    counts = Counter(memoryview(bytes(image.constBits())).cast("I"))
    table = [0xFF000000 | rgb for rgb, _ in counts.most_common(256)]
    return image.convertToFormat(QImage.Format.Format_Indexed8, table,
                                 Qt.ImageConversionFlag.ThresholdDither)


def _slug(text: str) -> str:
    return "whole" if text == WHOLE_MAP else text.lower().replace(" ", "-")


def main(argv: list[str] | None = None) -> int:
    """Write the pictures into the folder given (default ``docs/screens``)."""
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    screen = app.primaryScreen().size()
    size = f"{screen.width()}x{screen.height()}"
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings)
        window.show()
        window.new_campaign(Path(tmp) / "1813.c1813")
        view = window.campaign_view
        for state in ("first", "max"):
            if state == "max":
                window.showMaximized()
                _settle(app)
                area = window.screen().availableGeometry()
                if window.frameGeometry().size() != area.size():
                    # a bare X server has no window manager to maximise it: as one would
                    window.setGeometry(area)
            for key in (WHOLE_MAP, *(t.value for t in Theatre)):
                view.theatres.setCurrentText(key)
                _settle(app)
                view.map_view.finish_building()
                view.fit_theatre()
                _settle(app)
                view.map_view.place_labels()
                _settle(app)
                path = out / f"desk-{size}-{state}-{_slug(key)}.png"
                few_colours(window.grab().toImage()).save(str(path))
                print(f"wrote {path} ({window.width()}x{window.height()})")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
