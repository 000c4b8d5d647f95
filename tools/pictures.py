"""What the picture tools share: letting the window paint what it was given, and saving a
widget as a PNG."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget

from campaign1813.ui.main_window import MainWindow
from campaign1813.ui.map.view import MapView


def start(argv: list[str] | None) -> tuple[QApplication, Path]:
    """A picture tool's application and the folder its pictures go to (the first argument,
    else ``docs/screens``), made if missing."""
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    return app, out


def settle(app: QApplication, rounds: int = 4, widget: QWidget | None = None) -> None:
    """Let the window paint what it was given (and the map finish its layers and names): the
    maps in ``widget`` still placing their names (in pieces, a turn of the loop each) are
    waited for, up to ten seconds."""
    for _ in range(rounds):
        for _ in range(10):
            app.processEvents()
        time.sleep(0.05)
    views = [] if widget is None else widget.findChildren(MapView)
    deadline = time.monotonic() + 10
    while any(v.labels_pending() for v in views) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(10):
        app.processEvents()


def save(app: QApplication, widget: QWidget, path: Path) -> None:
    """The widget as it shows once settled, written to ``path``."""
    settle(app, widget=widget)
    widget.grab().save(str(path))
    print(f"wrote {path}")


def new_campaign_window(folder: Path, size: tuple[int, int]) -> MainWindow:
    """The window on a new 1813 campaign in ``folder`` (its settings there too), shown at
    ``size`` on Northern Germany with its map built."""
    settings = QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("view/theatre", "Northern Germany")
    window = MainWindow(settings)
    window.resize(*size)
    window.show()
    window.new_campaign(folder / "1813.c1813")
    assert window.document is not None, "the new campaign did not open"
    window.campaign_view.map_view.finish_building()
    return window
