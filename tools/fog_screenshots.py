"""Pictures of the window as each side (record 0025): ``docs/screens/fog-*.png``.

On a throwaway 1813 campaign with fog on, I Prussian Corps marches on Magdeburg and meets 5
Corps at Burg on 5 May (a battle, drawn); then it falls back while II Prussian Corps comes on.
Written into the folder given (default ``docs/screens``): ``fog-french-contact.png`` (the
French window with the fresh contact), ``fog-french-old.png`` (two days on: the old report
faded with its date, and a fresh one), ``fog-allied.png`` (the Allies' window the same day),
``fog-umpire.png`` (the umpire's own map) and ``fog-reports.png`` (the umpire's reports dialog,
a report held back). Run on a virtual X screen (Xvfb) so the pictures come from real windows.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from campaign1813.campaign import queries, services
from campaign1813.campaign.scenario.types import Side
from campaign1813.ui.main_window import MainWindow
from tools.pictures import new_campaign_window, save, start

SIZE = (1400, 1000)




def _days(window: MainWindow, count: int) -> None:
    """End so many days, every battle drawn."""
    for _ in range(count):
        window.end_day()
        for battle in window.campaign.battles_due:
            window.record_result(battle.id, "draw")
            window.end_day()


def main(argv: list[str] | None = None) -> int:
    """Write the pictures into the folder given (default ``docs/screens``)."""
    app, out = start(argv)
    with tempfile.TemporaryDirectory() as tmp:
        window = new_campaign_window(Path(tmp), SIZE)
        doc = window.document
        assert doc is not None
        services.change_setting(doc, "fog", "on")
        services.issue_order(doc, "I Prussian Corps", "Move", "Magdeburg")
        services.issue_order(doc, "5 Corps", "Recce", "Burg")
        _days(window, 2)
        services.issue_order(doc, "II Prussian Corps", "Move", "Magdeburg")
        _days(window, 3)
        french = window.view_as(Side.FRENCH)
        assert french is not None
        french.resize(*SIZE)
        french.map_view.finish_building()
        save(app, french, out / "fog-french-contact.png")
        services.issue_order(doc, "I Prussian Corps", "Move", "Brandenburg")
        services.issue_order(doc, "5 Corps", "Hold", "Burg")
        _days(window, 2)
        window.view_as(Side.FRENCH)
        save(app, french, out / "fog-french-old.png")
        allied = window.view_as(Side.ALLIED)
        assert allied is not None
        allied.resize(*SIZE)
        allied.map_view.finish_building()
        save(app, allied, out / "fog-allied.png")
        window.view_as(None)
        save(app, window, out / "fog-umpire.png")
        held = [r.id for r in queries.enemy_reports(doc) if r.released and r.side == "French"]
        if held:
            services.hold_report(doc, held[-1])
        dialog = window.show_reports()
        assert dialog is not None
        dialog.resize(1300, 520)
        save(app, dialog, out / "fog-reports.png")
        for r in queries.enemy_reports(doc)[-6:]:
            print(r.id, r.side, r.text(), r.released)
        window.close()
        doc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
