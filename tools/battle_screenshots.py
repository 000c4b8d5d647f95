"""Pictures of the battle window for its guide: ``python -m tools.battle_screenshots``.

Runs offscreen on a throwaway campaign: I Prussian Corps attacks Magdeburg with the Prussian
Army HQ behind it (its reserve comes on at turn 4), and the window is shown at a laptop's
1366 × 768: the Setup page, the Play page mid-turn with a morale test's form and its odds, and
the Report after the first turn; then the Play page of the same battle fought by ruleset 002
(a shot's form and its odds, in the first turn's shooting) and by ruleset 004 (a volley's form
and its odds, the first fire held).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.main_window import MainWindow

SIZE = (1366, 768)


def _settle(app: QApplication) -> None:
    for _ in range(5):
        app.processEvents()


def main(argv: list[str] | None = None) -> int:
    """Write battle-setup.png, battle-play.png, battle-report.png, battle-play-002.png and
    battle-play-004.png into the folder given."""
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
        # 5 Corps attacks too: Rule 13's combat is for corps on Attack orders
        bw.setup_page.order_combo("5 Corps").setCurrentText("Attack")
        _settle(app)
        bw.grab().save(str(out / "battle-setup.png"))

        bw.tabs.setCurrentIndex(1)
        play = bw.play_page
        # Rule 1: the two blinds, 12 inches apart, see each other before the first chip
        for who, target in (("5 Corps", "I Prussian Corps"), ("I Prussian Corps", "5 Corps")):
            play.open_new_test("spot", who, target)
            play.form.set_input("inches", "12")
            play.form.roll()
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
        play.spend_note.setText("")
        _spend_all(bw, play)          # Rule 3: every pip used, before the combats
        play.open_new_test("combat", "5 Corps/17", "I Prussian Corps/1")
        play.form.typed.setText("2,3")
        play.form.roll_typed()
        for chip in ("3", "2", "4", "Poor"):
            play.chip.setCurrentIndex(play.chip.findData(chip))
            play.draw()
            assert bw.view is not None  # the battle is on the table
            if bw.view.state.activation is not None and chip != "Poor":
                play.pips_typed.setText("3")
                play.roll_pips()
                while play.form.request is not None and play.form.request.queued:
                    play.form.typed.setText("6")
                    if not play.form.roll_typed():
                        break
                _spend_all(bw, play)
        bw.tabs.setCurrentIndex(2)
        _settle(app)
        bw.grab().save(str(out / "battle-report.png"))
        bw.close()
        window.document.close() if window.document else None
        window.close()
        for ruleset, fill in (("002", _play_002), ("004", _play_004)):
            _generic_shot(app, Path(tmp), ruleset, fill, out / f"battle-play-{ruleset}.png")
    print(f"wrote {out}/battle-setup.png, battle-play.png, battle-report.png, "
          "battle-play-002.png, battle-play-004.png")
    return 0


def _spend_all(bw: Any, play: Any) -> None:
    """Rule 3: the commander moving spends what pips he has left on moves of his brigades."""
    play.spend_what.setCurrentIndex(play.spend_what.findData("move"))
    play.spend_brigade.setCurrentIndex(max(0, play.spend_brigade.findData("")))
    act = bw.view.state.activation
    while act is not None and act.pips and act.remaining:
        play.spend()
        if bw.view.state.activation == act:     # refused: leave the rest to the report
            break
        act = bw.view.state.activation


def _generic_shot(app: QApplication, tmp: Path, ruleset: str, play: Any, path: Path) -> None:
    """The battle of Magdeburg set up by a ruleset without chips, played a little, pictured."""
    settings = QSettings(str(tmp / f"s{ruleset}.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.new_campaign(tmp / f"{ruleset}.c1813")
    window.give_order(IssueOrder("I Prussian Corps", "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    bw.resize(*SIZE)
    bw.show()
    bw.setup_page.choose_ruleset(ruleset)
    bw.setup_page.open_button.click()
    bw.tabs.setCurrentIndex(1)
    play(bw.generic_page)
    _settle(app)
    bw.grab().save(str(path))
    bw.close()
    window.document.close() if window.document else None
    window.close()


def _step(g: Any, action: str, typed: str = "", **inputs: Any) -> None:
    g.choose(action)
    for name, value in inputs.items():
        g.set_input(name, value)
    g.typed.setText(typed)
    g.act()


def _play_002(g: Any) -> None:
    """Sides by a typed 5 (the Allies are side A), the Allied guns shoot, 6: 4 hits; the
    French guns' shot at 3 Infantry Brigade is on the form with its odds."""
    _step(g, "sides", "5")
    _step(g, "next")
    _step(g, "next")
    _step(g, "shoot", "6", unit="I Prussian Corps/artillery", target="5 Corps/19")
    _step(g, "next")
    g.choose("shoot")
    g.set_input("unit", "5 Corps/artillery")
    g.set_input("target", "I Prussian Corps/3")
    g.set_input("inches", "18")


def _play_004(g: Any) -> None:
    """The Allies move first, both sides done; the Allied canister held; 3 Infantry
    Brigade's volley at 20 Infantry Brigade is on the form with its odds."""
    _step(g, "first-move", "2 5")
    _step(g, "done", side="Allied")
    _step(g, "done", side="French")
    _step(g, "fire", "6 6 4 4 4 4 5 5", unit="I Prussian Corps/artillery",
          target="5 Corps/19", shot="canister", distance_cm="10")
    g.choose("fire")
    g.set_input("unit", "I Prussian Corps/3")
    g.set_input("target", "5 Corps/20")
    g.set_input("distance_cm", "8")
    g.typed.setText("4 5 6 6")


if __name__ == "__main__":
    sys.exit(main())
