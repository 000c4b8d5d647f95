"""The window on a club's server campaign (record 0026): File ▸ Open Club Campaign… with its
password kept in the keyring only when asked, the window woken by the server's notifications
(no timer polling) when a second client orders, and a player's window whose order pad submits
to the server and follows the umpire's taking of it."""

from __future__ import annotations

import secrets

import keyring
import pytest
from keyring.backend import KeyringBackend
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from campaign1813.campaign import services
from campaign1813.campaign.cli import main
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.server import PlayerSeat, add_member, push_campaign
from campaign1813.ui.app import play_as_player
from campaign1813.ui.club import (
    KEYRING_SERVICE,
    OpenClubDialog,
    PlayerWindow,
    with_password,
    without_password,
)
from campaign1813.ui.main_window import MainWindow
from tests.day.test_scenarios import make
from tests.store.stores import campaign_address
from tests.store.test_club import as_login


class MemoryKeyring(KeyringBackend):
    """The system's keyring, in memory for the test."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.kept.get((service, username))

    def set_password(self, service, username, password):
        self.kept[(service, username)] = password

    def delete_password(self, service, username):
        self.kept.pop((service, username), None)


@pytest.fixture
def memory_keyring():
    before = keyring.get_keyring()
    kept = MemoryKeyring()
    keyring.set_keyring(kept)
    yield kept
    keyring.set_keyring(before)


@pytest.fixture
def club(tmp_path, pg_database):
    """The line of towns with fog on, on the server, with a French player let in."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"}, fog=True)
    u.doc.close()
    address = campaign_address(pg_database)
    push_campaign(tmp_path / "c.c1813", address)
    login = f"fr_{secrets.token_hex(3)}"
    add_member(address, login, "French", password="pw")
    return address, login


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    return w


def test_a_second_clients_order_appears_in_the_first_windows_table_within_a_second(
        window, club, qtbot):
    """The window is woken by the server's notification on its listener's socket, not by its
    file's timer: a co-umpire's order is in its table within a second, and the window never
    polls a server campaign."""
    address, _ = club
    assert window.open_club(address)
    assert window.document is not None and window.file is None
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
    qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) ==
                    "1 Corps – Move Brook", timeout=1000)
    assert "changed in another window or program" in window.statusBar().currentMessage()
    assert not window.check_for_changes()  # a server campaign is never polled
    services.issue_order(window.document, "1 Corps", "Hold", "Aston")  # its own: no reload
    assert window.campaign.status.command("1 Corps").order == "1 Corps – Move Brook"


def test_the_password_is_kept_in_the_keyring_only_when_asked(window, club, memory_keyring,
                                                              tmp_path):
    address, _ = club
    assert window.open_club(address, "s3cret-one")
    assert memory_keyring.kept == {}
    assert window.open_club(address, "s3cret-two", remember=True)
    assert memory_keyring.kept == {(KEYRING_SERVICE, without_password(address)): "s3cret-two"}
    window._settings.sync()
    kept = (tmp_path / "settings.ini").read_text(encoding="utf-8")
    assert "s3cret" not in kept and "club" in kept  # the address, never the password
    assert window.open_club(address)  # the keyring's password, asked for nothing


def test_the_dialog_asks_for_the_address_and_a_hidden_password(qtbot):
    dialog = OpenClubDialog(None, "postgresql://u@h/club?campaign=spring-1813")
    qtbot.addWidget(dialog)
    dialog.password.setText("pw")
    assert dialog.password.echoMode() == dialog.password.EchoMode.Password
    assert not dialog.remember.isChecked()
    assert dialog.values() == ("postgresql://u@h/club?campaign=spring-1813", "pw", False)
    assert with_password("postgresql://u@h/club?campaign=a", "p w") == \
        "postgresql://u@h/club?campaign=a&password=p%20w"
    assert without_password("postgresql://u:x@h/club?password=y&campaign=a") == \
        "postgresql://u@h/club?campaign=a"


def test_a_players_window_submits_his_orders_and_follows_the_umpire(club, qtbot, capsys):
    """The French player's window shows the French view (no I Corps), its order pad submits
    1 Corps' order, and when the umpire takes it the window shows the order and the form's
    outcome within a second."""
    address, login = club
    window = PlayerWindow(PlayerSeat(as_login(address, login)))
    qtbot.addWidget(window)
    assert window.side is Side.FRENCH
    assert [window.table.item(r, 0).text() for r in range(window.table.rowCount())] == [
        "Armée HQ", "1 Corps"]
    window.set_order("1 Corps", "Move", "Brook")
    number = window.submit()
    assert number is not None and window.sent.item(0).text().endswith("waiting for the umpire")
    assert main(["import-orders", address, "--submitted"]) == 0
    capsys.readouterr()
    qtbot.waitUntil(lambda: window.table.item(1, 4).text() == "1 Corps – Move Brook",
                    timeout=1000)
    qtbot.waitUntil(lambda: "taken: Order form of the French: 1 taken, 0 refused" in
                    window.sent.item(0).text(), timeout=1000)
    window.close()


def test_the_program_opens_a_players_window_as_player(club, qtbot):
    """``campaign1813-gui --as-player URL``: the player's window, his side's, and nothing of
    the umpire's main window."""
    address, login = club
    app = QApplication.instance()
    seen = []

    def look() -> None:
        seen.extend(w for w in app.topLevelWidgets() if w.isVisible())
        for w in seen:
            w.close()
        app.quit()

    QTimer.singleShot(200, look)
    assert play_as_player(app, ["campaign1813-gui", "--as-player",
                                as_login(address, login)]) == 0
    (window,) = [w for w in seen if isinstance(w, PlayerWindow)]
    assert window.side is Side.FRENCH and not any(isinstance(w, MainWindow) for w in seen)
    assert play_as_player(app, ["campaign1813-gui", "--as-player"]) == 2
