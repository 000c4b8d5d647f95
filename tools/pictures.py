"""What the picture tools share: letting the window paint what it was given, and saving a
widget as a PNG."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget


def settle(app: QApplication, rounds: int = 4) -> None:
    """Let the window paint what it was given (and the map finish its layers and names)."""
    for _ in range(rounds):
        for _ in range(10):
            app.processEvents()
        time.sleep(0.05)


def save(app: QApplication, widget: QWidget, path: Path) -> None:
    """The widget as it shows once settled, written to ``path``."""
    settle(app)
    widget.grab().save(str(path))
    print(f"wrote {path}")
