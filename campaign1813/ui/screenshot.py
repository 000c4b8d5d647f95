"""Save a picture of the main window on a fresh 1813 campaign: ``make screenshot``.

Used for the README and the user guide; runs offscreen with a throwaway campaign and settings.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from campaign1813.ui.main_window import MainWindow


def main(argv: list[str] | None = None) -> int:
    """Write the screenshot to the path given (default ``docs/main-window.png``)."""
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/main-window.png")
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        settings.setValue("view/theatre", "Northern Germany")
        window = MainWindow(settings)
        window.resize(1280, 800)
        window.new_campaign(Path(tmp) / "1813.c1813")
        window.show()
        # one order on the pad and in the report, as on a working day
        window.orders_panel.select_command("5 Corps")
        window.orders_panel.objective.setEditText("Helmstedt")
        window.orders_panel.give_button.click()
        for _ in range(5):
            app.processEvents()
        window.grab().save(str(out))
        window.close()
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
