"""Pictures of a club's server campaign (record 0026): ``docs/screens/club-*.png``.

A throwaway PostgreSQL server (``tools.pg_server``) holds the 1813 campaign with fog on; I
Prussian Corps marches on Magdeburg and meets 5 Corps at Burg, and a French player is let in.
Written into the folder given (default ``docs/screens``): ``club-open.png`` (File ▸ Open Club
Campaign…, the address typed, the password hidden, the keyring box not ticked) and
``club-player.png`` (the French player's window: his side's view and the order pad, one order
filled and one form sent and taken by the umpire), ``club-recent.png`` (File ▸ Open Recent: the
club's campaign, marked as one, beside a file; no password) and ``club-asked-again.png`` (a
recent club campaign the server refused: the dialog with its address and the reason). Run on a
virtual X screen (Xvfb).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main as cli
from campaign1813.campaign.store.server import (
    PlayerSeat,
    add_member,
    open_server_campaign,
)
from campaign1813.ui.club import OpenClubDialog, PlayerWindow
from tools import pg_server
from tools.pictures import new_campaign_window, save, settle, start

SIZE = (1500, 1000)




def main(argv: list[str] | None = None) -> int:
    """Write the pictures into the folder given (default ``docs/screens``)."""
    app, out = start(argv)
    server = pg_server.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            _path, address = server.new_campaign(Path(tmp), "spring-1813")
            add_member(address, "marmont", "French", password="pw")
            with open_server_campaign(address) as doc:
                services.change_setting(doc, "fog", "on")
                services.issue_order(doc, "I Prussian Corps", "Move", "Magdeburg")
                services.issue_order(doc, "5 Corps", "Recce", "Burg")
                for day in range(5):
                    if day == 2:
                        services.issue_order(doc, "II Prussian Corps", "Move", "Magdeburg")
                    services.end_day(doc)
                    for battle in [b.id for b in queries.campaign_status(doc).battles_due]:
                        services.record_result(doc, battle, "draw")
                        services.end_day(doc)
            dialog = OpenClubDialog(None, "postgresql://umpire@club.example:5432/club?"
                                          "campaign=spring-1813")
            dialog.password.setText("a password")
            dialog.show()
            save(app, dialog, out / "club-open.png")
            dialog.close()
            player = address.replace("postgresql://postgres@", "postgresql://marmont@", 1)
            seat = PlayerSeat(player)
            window = PlayerWindow(seat)
            window.resize(*SIZE)
            window.show()
            window.map_view.finish_building()
            window.set_order("6 Corps", "Move", "Leipzig")
            window.submit()
            cli(["import-orders", address, "--submitted"])
            for _ in range(20):  # the notification wakes the window
                settle(app)
                if "taken" in window.sent.item(0).text():
                    break
            window.set_order("5 Corps", "Hold", "Burg")
            window.tabs.setCurrentIndex(1)
            save(app, window, out / "club-player.png")
            window.close()
            (Path(tmp) / "umpire").mkdir()
            umpire = new_campaign_window(Path(tmp) / "umpire", (900, 600))
            # the club's address as the umpire would have it, not the throwaway server's socket
            shown = "postgresql://umpire@club.example:5432/club?campaign=spring-1813"
            umpire.menus.remember_recent(shown)
            umpire.menus.remember_recent(Path(tmp) / "umpire" / "1813.c1813")
            menu = umpire.menus.recent_menu
            menu.popup(umpire.mapToGlobal(umpire.rect().center()))
            save(app, menu, out / "club-recent.png")
            menu.close()
            gone = shown.replace("spring-1813", "spring-1814")

            def picture(asked: OpenClubDialog) -> int:
                save(app, asked, out / "club-asked-again.png")
                return OpenClubDialog.DialogCode.Rejected.value

            umpire.ask_club = picture
            # the words the server's store refuses a campaign it does not hold with
            asked = umpire.open_club_dialog(gone, f"{gone}: the server has no campaign "
                                                  "'spring-1814' (copy one there with "
                                                  "'campaign1813 push FILE URL')")
            assert not asked
            umpire.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
