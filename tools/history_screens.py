"""Take the History's pictures in ``docs/screens/``: the History dock on a past day (as the
umpire, and as the French), the exported history's index.html as Qt's text browser shows it, a
day's picture and a page of its PDF (rendered by pdftoppm). Run under a display:
``xvfb-run -a -s "-screen 0 1920x1080x24" python tools/history_screens.py``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QUrl
from PySide6.QtWidgets import QApplication, QTextBrowser

from campaign1813.campaign.export.history import write_history
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import create_campaign, open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.history_pictures import QtHistoryPainter
from campaign1813.ui.main_window import MainWindow
from tests.history.scripted import play

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screens"


def _settle(app: QApplication, rounds: int = 200) -> None:
    for _ in range(rounds):
        app.processEvents()


def main() -> int:
    """Play a campaign ten days, and take the pictures."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spring.c1813"
        create_campaign(path, name="Spring 1813").close()
        with open_campaign(path) as doc:
            play(doc, Theatre.NORTHERN_GERMANY, 10)
        window = MainWindow(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window.resize(1900, 1050)
        window.open_file(path)
        window.campaign_view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
        window.show()
        panel = window.show_history()
        assert panel is not None and window.history_dock is not None
        window.resizeDocks([window.history_dock], [1150], Qt.Orientation.Horizontal)
        panel.show_day(date(1813, 5, 4))
        panel.mark(True, "5 Corps halted at Genthin by the Prussians")
        _settle(app)
        panel.map_view.fit(panel.scene.theatre_rect(Theatre.NORTHERN_GERMANY))
        _settle(app)
        window.grab().save(str(OUT / "history-dock.png"))
        panel.view_as(Side.FRENCH)
        panel.show_day(date(1813, 5, 8))
        _settle(app)
        panel.grab().save(str(OUT / "history-as-french.png"))
        with open_campaign(path) as doc:
            out = Path(tmp) / "history"
            write_history(doc, out, Theatre.NORTHERN_GERMANY, None, QtHistoryPainter(800))
        browser = QTextBrowser()
        browser.resize(1100, 1000)
        browser.setSource(QUrl.fromLocalFile(str(out / "index.html")))
        browser.show()
        _settle(app)
        browser.grab().save(str(OUT / "history-export-index.png"))
        shutil.copyfile(out / "day-1813-05-04.png", OUT / "history-export-day.png")
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", "-f", "4", "-l", "4",
                        str(out / "history.pdf"), str(OUT / "history-pdf-page-4")], check=True)
        window.close()
    print(f"wrote the History's pictures in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
