"""The window on a club's server campaign (record 0026): File ▸ Open Club Campaign… with its
password kept in the keyring only when asked, the window woken by the server's notifications
(no timer polling) when a second client orders, and a player's window whose order pad submits
to the server and follows the umpire's taking of it."""

from __future__ import annotations

import secrets
import time
from datetime import date

import keyring
import psycopg
import pytest
from keyring.backend import KeyringBackend
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.export import packet
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store import server
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.server import (
    CampaignServerError,
    ChangeListener,
    PlayerSeat,
    ServerAddress,
    add_member,
    push_campaign,
)
from campaign1813.ui import club as club_ui
from campaign1813.ui.app import play_as_player
from campaign1813.ui.club import (
    KEYRING_SERVICE,
    OpenClubDialog,
    PlayerWindow,
    with_password,
    without_password,
)
from campaign1813.ui.main_window import MainWindow
from tests.day.test_scenarios import battle_setup, make
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


@pytest.fixture
def reads(window, monkeypatch):
    """What the window reads of its campaign: whole (``campaign_status``, as opening does, and
    ``opened``, which a reload emits) or as an action's changes name (``changed``)."""
    seen = {"whole": [], "opened": [], "changed": []}
    whole = queries.campaign_status
    monkeypatch.setattr(queries, "campaign_status",
                        lambda doc: (seen["whole"].append(doc), whole(doc))[1])
    window.campaign.opened.connect(lambda: seen["opened"].append(1))
    window.campaign.changed.connect(seen["changed"].append)
    return seen


def test_a_second_clients_order_appears_in_the_first_windows_table_within_a_second(
        window, club, qtbot, reads):
    """The window is woken by the server's notification on its listener's socket, not by its
    file's timer: a co-umpire's order is in its table within a second, read as the window's
    own order is (the one command the notice names), not by reading the campaign whole; and
    the window never polls a server campaign."""
    address, _ = club
    assert window.open_club(address)
    assert window.document is not None and window.file is None
    reads["whole"].clear(), reads["opened"].clear()
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
    qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) ==
                    "1 Corps – Move Brook", timeout=1000)
    assert reads["whole"] == [] and reads["opened"] == []
    (update,) = reads["changed"]
    assert update.changes.commands == {"1 Corps"} and not update.heading
    assert [c.name for c in update.commands] == ["1 Corps"]
    assert window.statusBar().currentMessage() == (
        "The campaign was changed in another window or program: Order: 1 Corps – Move Brook")
    assert window.report_pane.toPlainText().splitlines()[-1] == (
        "Order: 1 Corps – Move Brook (in another window or program)")
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
    window.resize(1724, 1000)
    window.show()
    qtbot.waitExposed(window)
    pad = window.pad  # whole in its dock, the town's column as wide as a long town's name
    assert pad.horizontalHeader().length() <= pad.viewport().width()
    assert pad.columnWidth(3) > pad.fontMetrics().horizontalAdvance("Frankfurt an der Oder")
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
    # one quit alone: a second (the last window closed) would be left pending and end every
    # event loop the next tests start at once, their timers never firing
    app.setQuitOnLastWindowClosed(False)
    try:
        assert play_as_player(app, ["campaign1813-gui", "--as-player",
                                    as_login(address, login)]) == 0
    finally:
        app.setQuitOnLastWindowClosed(True)
    (window,) = [w for w in seen if isinstance(w, PlayerWindow)]
    assert window.side is Side.FRENCH and not any(isinstance(w, MainWindow) for w in seen)
    assert play_as_player(app, ["campaign1813-gui", "--as-player"]) == 2


def test_several_commits_heard_together_are_one_refresh(window, club, qtbot, reads):
    """Three orders of a co-umpire committed while the window was busy are heard together:
    one refresh naming both commands, no whole read."""
    address, _ = club
    assert window.open_club(address)
    reads["whole"].clear(), reads["opened"].clear()
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
        services.issue_order(other, "I Corps", "Move", "Dunmore")
        services.issue_order(other, "1 Corps", "Move", "Carden")
    qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) ==
                    "1 Corps – Move Carden", timeout=1000)
    qtbot.wait(150)  # past the time in which notices are merged: no second refresh comes
    (update,) = reads["changed"]
    assert update.changes.commands == {"1 Corps", "I Corps"}
    assert update.changes.label == (
        "3 changes: Order: 1 Corps – Move Brook; Order: I Corps – Move Dunmore; Order: "
        "1 Corps – Move Carden (in another window or program)")
    assert window.campaign_view.table.row("I Corps").text(3) == "I Corps – Move Dunmore"
    assert reads["whole"] == [] and reads["opened"] == []


def test_another_clients_undo_and_redo_are_told_precisely(window, club, qtbot, reads):
    """Undo in another window takes the order off this window's table, and Edit ▸ Undo here
    then names what is now the latest; redo there puts it back; neither reads the campaign
    whole."""
    address, _ = club
    assert window.open_club(address)
    before = window.campaign_view.table.row("1 Corps").text(3)
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
        qtbot.waitUntil(lambda: window.undo_action.text() == "&Undo Order: 1 Corps – Move Brook",
                        timeout=1000)
        for seen in reads.values():
            seen.clear()
        services.undo(other)
        qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) == before,
                        timeout=1000)
        assert window.undo_action.text() == "&Undo"
        assert window.redo_action.text() == "&Redo Order: 1 Corps – Move Brook"
        services.redo(other)
        qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) ==
                        "1 Corps – Move Brook", timeout=1000)
    assert [u.changes.commands for u in reads["changed"]] == [{"1 Corps"}, {"1 Corps"}]
    assert reads["whole"] == [] and reads["opened"] == []


def test_another_umpires_end_day_shows_that_days_report(window, club, qtbot, reads):
    """End Day in another window: the heading moves to 2 May and the day's report pane shows
    1 May's report, read as the one log entry of that End Day (the notice carries only its
    day), not the campaign whole."""
    address, _ = club
    assert window.open_club(address)
    reads["whole"].clear(), reads["opened"].clear()
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
        ended = services.end_day(other)
    qtbot.waitUntil(lambda: window.campaign.status.date == date(1813, 5, 2), timeout=1000)
    assert ended.report is not None and ended.lines
    shown = window.report_pane.toPlainText()
    # the order and End Day are heard together: one refresh, its report the day's
    assert "End day: 1 May 1813 (in another window or program) —" in shown
    for line in ended.lines:
        if line != ended.label:
            assert f"  {line}" in shown.splitlines()
    assert "2 May 1813" in window.windowTitle()
    assert reads["whole"] == [] and reads["opened"] == []


def test_an_end_day_whose_report_cannot_be_read_is_said_in_a_line(window, club, qtbot,
                                                                  monkeypatch):
    """Where the day's report is not in the log as the notice says (undone meanwhile, or
    another End Day after it), the pane says another umpire ended the day."""
    address, _ = club
    assert window.open_club(address)
    monkeypatch.setattr(queries, "day_report", lambda doc, day: None)
    with open_store(address) as other:
        services.end_day(other)
    qtbot.waitUntil(lambda: window.campaign.status.date == date(1813, 5, 2), timeout=1000)
    assert window.report_pane.toPlainText().splitlines()[-1] == (
        "  Another umpire ended 1 May 1813; its report is in the diary (Campaign ▸ Diary)")


def test_another_umpires_end_day_that_leaves_a_battle_says_the_day_stays_open(
        window, pg_database, tmp_path, qtbot):
    """§3.3 item 5: 1 Corps attacks Fenwick on 3 May, so another umpire's End Day finds a
    battle and leaves the day open. The window's report pane and status bar then say so with
    the very note of its own End Day (``MainWindow.day_open_note``), and nothing of the kind
    once the battle has its result and the day closes."""
    battle_setup(tmp_path).doc.close()
    address = campaign_address(pg_database)
    push_campaign(tmp_path / "c.c1813", address)
    assert window.open_club(address)
    assert window.day_open_note(date(1813, 5, 3)) is None  # no battle yet
    with open_store(address) as other:
        ended = services.end_day(other)
    assert ended.report is not None and not ended.report.closed
    qtbot.waitUntil(lambda: len(window.campaign.battles_due) == 1, timeout=1000)
    note = "3 May 1813 stays open until its battle has a result (Battle menu); then End Day again."
    assert window.report_pane.toPlainText().splitlines()[-1] == f"  {note}"
    assert window.statusBar().currentMessage() == note
    with open_store(address) as other:
        services.record_result(other, 1, "French")
        closed = services.end_day(other)
    assert closed.report is not None and closed.report.closed
    qtbot.waitUntil(lambda: window.campaign.status.date == date(1813, 5, 4), timeout=1000)
    assert "stays open" not in window.report_pane.toPlainText().split("End day: 3 May 1813")[-1]


def test_a_players_form_is_told_and_nothing_of_the_campaign_read(window, club, qtbot,
                                                                 reads):
    """A player's submission changes only the forms waiting: the umpire's window says so in
    its status bar and reads nothing of the campaign."""
    address, login = club
    assert window.open_club(address)
    reads["whole"].clear(), reads["opened"].clear()
    with PlayerSeat(as_login(address, login)) as seat:
        number = seat.submit(packet.order_form(seat.view()))
    qtbot.waitUntil(lambda: f"Order form {number} of the French" in
                    window.statusBar().currentMessage(), timeout=1000)
    assert window.statusBar().currentMessage() == (
        f"In another window or program: Order form {number} of the French (the forms "
        "waiting: 'campaign1813 import-orders URL --submitted')")
    assert reads == {"whole": [], "opened": [], "changed": []}


def _drop_connections(pg, address: str, login: str | None = None) -> int:
    """End the server's side of every connection to the campaign's database (of one login,
    if named), as a restart or a network gone would; how many were ended."""
    database = ServerAddress(address).conninfo.split("?")[0].rsplit("/", 1)[-1]
    with psycopg.connect(pg.url, autocommit=True) as admin:
        ended = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                              "datname = %s AND pid <> pg_backend_pid() AND "
                              "(%s::text IS NULL OR usename = %s)",
                              (database, login, login)).fetchall()
    assert ended and all(ok for (ok,) in ended)
    return len(ended)


def test_the_window_listens_again_after_its_connections_are_dropped(window, club, pg, qtbot,
                                                                    reads):
    """Every connection to the campaign is ended by the server (the window's store, its
    listener, a player's seat): the window says the connection was lost and is tried again,
    then that it is connected again, reads the campaign once whole (what was committed
    meanwhile was not heard); the seat submits on a new connection and the window hears it."""
    address, login = club
    assert window.open_club(address)
    seat = PlayerSeat(as_login(address, login))
    try:
        form = packet.order_form(seat.view())
        reads["whole"].clear(), reads["opened"].clear()
        assert _drop_connections(pg, address) >= 3
        qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith(
            "Connection lost, trying again…"), timeout=1000)
        qtbot.waitUntil(lambda: window.statusBar().currentMessage() ==
                        "Connected again; the campaign is shown as it is now", timeout=3000)
        assert len(reads["opened"]) == 1 and len(reads["whole"]) == 1
        number = seat.submit(form)
        qtbot.waitUntil(lambda: f"Order form {number} of the French" in
                        window.statusBar().currentMessage(), timeout=1000)
        assert [f.id for f in seat.submitted()] == [number]
    finally:
        seat.close()
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
    qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) ==
                    "1 Corps – Move Brook", timeout=1000)


def test_a_players_seat_connects_again_once_and_submits(club, pg):
    """The server ends the seat's connection between two uses: the next submission makes it
    again and is kept; so does the next read."""
    address, login = club
    with PlayerSeat(as_login(address, login)) as seat:
        form = packet.order_form(seat.view())
        _drop_connections(pg, address, login)
        number = seat.submit(form)
        _drop_connections(pg, address, login)
        assert [(f.id, f.side, f.form["number"]) for f in seat.submitted()] == [
            (number, "French", form["number"])]


def test_a_submission_cut_off_before_its_commit_is_told_not_sent(club, pg, monkeypatch):
    """The connection goes after the form is written and before its commit: the seat asks the
    server on a new connection, finds it was not kept and says nothing was sent; nothing of it
    remains, and the next submission is kept."""
    address, login = club
    with PlayerSeat(as_login(address, login)) as seat:
        form = packet.order_form(seat.view())
        notify = server.notify

        def cut_off(con, text):
            notify(con, text)
            _drop_connections(pg, address, login)

        monkeypatch.setattr(server, "notify", cut_off)
        with pytest.raises(CampaignServerError, match="the connection was lost before the "
                                                      "order form was kept; nothing was sent"):
            seat.submit(form)
        monkeypatch.setattr(server, "notify", notify)
        assert seat.submitted() == []
        number = seat.submit(form)
        assert [f.id for f in seat.submitted()] == [number]


def test_a_players_window_follows_what_each_notice_names(club, qtbot, monkeypatch):
    """The player's window reads his side's view when the umpire acts and the forms sent when
    a form is sent or marked, each only when the notice names it."""
    address, login = club
    window = PlayerWindow(PlayerSeat(as_login(address, login)))
    qtbot.addWidget(window)
    asked = []
    view, sent = window.seat.view, window.seat.submitted
    monkeypatch.setattr(window.seat, "view", lambda: (asked.append("view"), view())[1])
    monkeypatch.setattr(window.seat, "submitted", lambda: (asked.append("forms"), sent())[1])
    with PlayerSeat(as_login(address, login)) as other_seat:  # his second window's seat
        other_seat.submit(packet.order_form(other_seat.view()))
    qtbot.waitUntil(lambda: window.sent.count() == 1, timeout=1000)
    assert asked == ["forms"]
    asked.clear()
    with open_store(address) as umpire:
        services.issue_order(umpire, "1 Corps", "Move", "Brook")
    qtbot.waitUntil(lambda: window.table.item(1, 4).text() == "1 Corps – Move Brook",
                    timeout=1000)
    assert asked == ["view"]
    window.close()


def test_open_recent_lists_club_campaigns_beside_files_and_opens_one(window, club, tmp_path,
                                                                     memory_keyring):
    """File ▸ Open Recent: the club's campaign (its address, never its password) marked as a
    club campaign beside the file; choosing it opens it with the keyring's password."""
    address, _ = club
    assert window.open_club(address, "s3cret", remember=True)
    assert window.open_file(tmp_path / "c.c1813")
    texts = [a.text() for a in window.menus.recent_menu.actions() if a.data()]
    name = ServerAddress(address).campaign
    assert texts == [f"&1 c.c1813  —  {(tmp_path / 'c.c1813').resolve()}",
                     f"&2 {name} (club campaign)  —  {without_password(address)}"]
    asked = []
    memory_keyring.get_password = lambda service, user: (asked.append(user), "s3cret")[1]
    club_entry = window.menus.recent_menu.actions()[1]
    club_entry.trigger()
    assert window.file is None and window.club_address == str(ServerAddress(address))
    assert asked == [without_password(address)]
    window._settings.sync()
    assert "s3cret" not in (tmp_path / "settings.ini").read_text(encoding="utf-8")
    entries = [a.data() for a in window.menus.recent_menu.actions() if a.data()]
    assert entries == [without_password(address), str((tmp_path / "c.c1813").resolve())]


def test_a_recent_club_campaign_refused_opens_the_dialog_with_its_address(window, club,
                                                                         pg_database):
    """A recent club campaign that will not open (here: gone from the server) shows the Open
    Club dialog with its address filled in and the reason; the address corrected there, it
    opens."""
    address, _ = club
    gone = campaign_address(pg_database)
    window.menus.remember_recent(gone)
    seen = []

    def answer(dialog):
        seen.append((dialog.address.text(), dialog.reason.text()))
        dialog.address.setText(address)
        return OpenClubDialog.DialogCode.Accepted

    window.ask_club = answer
    window.menus.recent_menu.actions()[0].trigger()
    ((shown, reason),) = seen
    assert shown == gone
    assert reason.startswith("It could not be opened: ") and "has no campaign" in reason
    assert window.club_address == str(ServerAddress(address))



def test_listening_again_waits_longer_after_each_failed_try(window, club, pg, qtbot,
                                                            monkeypatch):
    """While the server cannot be reached the listener is tried again after waits that grow
    (each a single shot of a timer, nothing polls the campaign); the third try connects, and
    the window says so."""
    address, _ = club
    assert window.open_club(address)
    monkeypatch.setattr(club_ui, "RETRY_MS", (20, 40, 80))
    tries = []
    reconnect = ChangeListener.reconnect

    def unreachable_twice(listener):
        tries.append(time.monotonic())
        if len(tries) < 3:
            raise CampaignServerError(listener.address, "the server cannot be reached")
        reconnect(listener)

    monkeypatch.setattr(ChangeListener, "reconnect", unreachable_twice)
    lost = time.monotonic()
    _drop_connections(pg, address)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Connected again"),
                    timeout=3000)
    assert len(tries) == 3 and window._club_watch.retries == 3
    waits = [b - a for a, b in zip([lost, *tries], tries, strict=False)]
    assert waits[1] >= 0.035 and waits[2] >= 0.075  # 40 ms, then 80 ms
    with open_store(address) as other:
        services.issue_order(other, "1 Corps", "Move", "Brook")
    qtbot.waitUntil(lambda: window.campaign_view.table.row("1 Corps").text(3) ==
                    "1 Corps – Move Brook", timeout=1000)


def test_another_umpires_bookmark_moves_edit_undo_without_a_read_of_the_day(window, club, qtbot,
                                                                           reads):
    """An action that changes nothing of the day's state (a bookmark on a day) is still an
    action of the log: Edit ▸ Undo here names it, and nothing is read whole."""
    address, _ = club
    assert window.open_club(address)
    reads["whole"].clear(), reads["opened"].clear()
    with open_store(address) as other:
        services.mark_day(other, date(1813, 5, 1), True)
    qtbot.waitUntil(lambda: window.undo_action.text() == "&Undo Bookmark: 1 May 1813",
                    timeout=1000)
    (update,) = reads["changed"]
    assert not update.changes.anything and update.commands == ()
    assert reads["whole"] == [] and reads["opened"] == []
