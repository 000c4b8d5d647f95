"""Pictures of the battle window for its guide: ``python -m campaign1813.ui.battle.screenshots``.

Runs offscreen on a throwaway campaign: I Prussian Corps attacks Magdeburg with the Prussian
Army HQ behind it (its reserve comes on at turn 4), and the window is shown at a laptop's
1366 × 768: the Setup page, the Play page mid-turn with a morale test's form and its odds, and
the Report after the first turn.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.main_window import MainWindow

SIZE = (1366, 768)


def _settle(app: QApplication) -> None:
    for _ in range(5):
        app.processEvents()


def main(argv: list[str] | None = None) -> int:
    """Write battle-setup.png, battle-play.png and battle-report.png into the folder given."""
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs")
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings)
        window.new_campaign(Path(tmp) / "1813.c1813")
        window.give_order(IssueOrder("I Prussian Corps", "Attack", "Magdeburg"))
        window.give_order(IssueOrder("Prussian Army HQ", "Move", "Burg"))
        for _ in range(6):
            window.end_day()
        bw = window.open_battle_window(1)
        bw.resize(*SIZE)
        bw.show()
        bw.setup_page.open_button.click()
        _settle(app)
        bw.grab().save(str(out / "battle-setup.png"))

        bw.tabs.setCurrentIndex(1)
        play = bw.play_page
        play.chip.setCurrentIndex(play.chip.findData("1"))
        play.draw()
        play.pips_typed.setText("4")
        play.roll_pips()
        play.open_new_test("fire", "5 Corps/artillery", "I Prussian Corps/2")
        play.form.set_input("band", "short")
        play.form.typed.setText("6,6")
        play.form.roll_typed()
        play.form.set_input("facts", ["supports-within-4"])
        _settle(app)
        bw.grab().save(str(out / "battle-play.png"))

        play.form.set_input("facts", [])
        play.form.typed.setText("2")
        play.form.roll_typed()
        play.form.set_input("near", ["I Prussian Corps/3"])
        play.form.roll()
        play.form.typed.setText("5")
        play.form.roll_typed()
        play.spend_what.setCurrentIndex(play.spend_what.findData("move"))
        play.spend_brigade.setCurrentIndex(play.spend_brigade.findData("5 Corps/17"))
        play.spend_note.setText("Move 17 Brigade out of the town")
        play.spend()
        play.open_new_test("combat", "5 Corps/17", "I Prussian Corps/1")
        play.form.typed.setText("2,3")
        play.form.roll_typed()
        for chip in ("3", "2", "4", "Poor"):
            play.chip.setCurrentIndex(play.chip.findData(chip))
            play.draw()
            if bw.view.state.activation is not None and chip != "Poor":
                play.pips_typed.setText("3")
                play.roll_pips()
                while play.form.request is not None and play.form.request.queued:
                    play.form.typed.setText("6")
                    if not play.form.roll_typed():
                        break
        bw.tabs.setCurrentIndex(2)
        _settle(app)
        bw.grab().save(str(out / "battle-report.png"))
        bw.close()
        window.document.close() if window.document else None
        window.close()
    print(f"wrote {out}/battle-setup.png, battle-play.png, battle-report.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
