"""Pictures of the main window for the README and the guide: ``make screenshot``.

On a throwaway campaign and settings, the window is shown at 1600 × 1000 on Northern Germany:
I Prussian Corps attacks Magdeburg, the French win, and the day after, 5 Corps rests in the town
while the Prussians retreat. Three pictures are written into the folder given (default
``docs``): ``main-window.png`` (the whole window that day), ``map-magdeburg.png`` (a zoom on
Magdeburg) and ``route-preview.png`` (a town's right-click menu with the route it would march).
``make screenshot`` runs it on a virtual X screen (Xvfb) where there is one, so the pictures
come from the real window; otherwise offscreen.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QPoint, QSettings, QTimer
from PySide6.QtWidgets import QApplication, QMenu

from campaign1813.campaign import queries
from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.main_window import MainWindow
from tools.pictures import save, settle

SIZE = (1600, 1000)
ORDERS = (("I Prussian Corps", "Attack", "Magdeburg"), ("II Prussian Corps", "Move", "Brandenburg"),
          ("13 Polish Corps", "Move", "Helmstedt"), ("6 Corps", "Move", "Brunswick"))




def main(argv: list[str] | None = None) -> int:
    """Write the three pictures into the folder given (default ``docs``)."""
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs")
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        settings.setValue("view/theatre", "Northern Germany")
        window = MainWindow(settings)
        window.resize(*SIZE)
        window.show()
        window.new_campaign(Path(tmp) / "1813.c1813")
        view, doc = window.campaign_view, window.document
        view.map_view.finish_building()
        assert doc is not None and view.map_scene is not None, "the new campaign did not open"
        for command, verb, town in ORDERS:
            window.give_order(IssueOrder(command, verb, town))
        for _ in range(8):
            window.end_day()
            due = queries.campaign_status(doc).battles_due
            if due:
                break
        window.record_result(due[0].id, "French")
        window.end_day()
        window.report_dock.raise_()
        view.select_command("5 Corps")
        save(app, window, out / "main-window.png")

        # a zoom on Magdeburg: the town, its roads and river, the two commands beside it
        mv, scene = view.map_view, view.map_scene
        assert scene is not None
        mv.resetTransform()
        mv.scale(12, 12)
        mv.centerOn(scene.town_point("Magdeburg"))
        mv.place_labels()
        save(app, window, out / "map-magdeburg.png")

        # the route preview: 6 Corps chosen, Magdeburg's menu open on the map
        view.fit_theatre()
        view.select_command("6 Corps")
        at = mv.mapFromScene(scene.town_point("Magdeburg"))
        menu: list[QMenu] = []

        def grab_menu() -> None:
            shown = QApplication.activePopupWidget()
            if isinstance(shown, QMenu):
                menu.append(shown)
                settle(app)
                picture = window.grab()
                # the menu is a window of its own: paint it over the window where it stands
                from PySide6.QtGui import QPainter

                painter = QPainter(picture)
                painter.drawPixmap(window.mapFromGlobal(shown.pos()), shown.grab())
                painter.end()
                picture.save(str(out / "route-preview.png"))
                print(f"wrote {out / 'route-preview.png'}")
                shown.close()

        QTimer.singleShot(300, grab_menu)
        view._on_town_menu("Magdeburg", mv.viewport().mapToGlobal(at + QPoint(8, 8)))
        if not menu:
            print("the town's menu did not open; no route-preview.png", file=sys.stderr)
            return 1
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
