"""The window on a club's server campaign: File ▸ Open Club Campaign…, the window kept up to date
by the server's notifications, and a player's own window with his order pad.

File ▸ Open Club Campaign… asks for the campaign's address and its password; the password is
kept in the system's keyring (``keyring``) only when the umpire ticks the box, and nowhere
else, never in the window's settings. An open server campaign is watched through its
``ChangeListener``: a ``QSocketNotifier`` on the listener's own connection wakes the window
when another window, program or player commits, so nothing polls, and the notification says
what the commit changed (``store.notice``), so the window re-reads just that; notices heard
together are one refresh, and a lost connection is listened on again after growing waits.
``campaign1813-gui --as-player URL`` opens ``PlayerWindow``: the side's window
(``ui.side_window``) built from the view the server keeps for his side, and an order pad that
submits to the campaign's ``submitted_orders``.

The server's store (SQLAlchemy, psycopg) and the keyring are imported only when a club's
campaign is opened, so the window starts as fast as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import keyring
from keyring.errors import KeyringError
from PySide6.QtCore import QObject, QSocketNotifier, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export import packet
from campaign1813.campaign.store.notice import Notice, merged
from campaign1813.ui.side_window import SideWindow

if TYPE_CHECKING:
    from campaign1813.campaign.store.server import ChangeListener, PlayerSeat

KEYRING_SERVICE = "campaign1813 club campaign"


def without_password(address: str) -> str:
    """An address with any password taken out (of its user part and of its query)."""
    parts = urlsplit(address.strip())
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}@{host}"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if k != "password"]
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query, safe="/"), ""))


def with_password(address: str, password: str) -> str:
    """An address with a password given to libpq (in its query, where the address keeps its
    user and host as typed); the address as it is when the password is empty."""
    if not password:
        return address
    parts = urlsplit(without_password(address))
    query = parse_qsl(parts.query, keep_blank_values=True) + [("password", password)]
    return urlunsplit((parts.scheme, parts.netloc, parts.path,
                       urlencode(query, safe="/", quote_via=quote), ""))


def stored_password(address: str) -> str | None:
    """The password kept in the system's keyring for an address, if the user kept one."""
    try:
        return keyring.get_password(KEYRING_SERVICE, without_password(address))
    except KeyringError:
        return None


def keep_password(address: str, password: str) -> None:
    """Keep a password in the system's keyring (only ever when the user asks for it)."""
    try:
        keyring.set_password(KEYRING_SERVICE, without_password(address), password)
    except KeyringError as exc:
        raise CampaignError(f"the system's keyring did not keep the password: {exc}") from None


class OpenClubDialog(QDialog):
    """File ▸ Open Club Campaign…: the campaign's address, its password, and whether to keep
    the password in the system's keyring."""

    def __init__(self, parent: QWidget | None = None, address: str = "",
                 reason: str = "") -> None:
        """``reason``: why the address is asked again (it was refused), shown above it."""
        super().__init__(parent)
        self.setWindowTitle("Open Club Campaign")
        self.address = QLineEdit(address)
        self.address.setPlaceholderText("postgresql://umpire@club.example/club?campaign="
                                        "spring-1813")
        self.address.setMinimumWidth(520)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("left empty: the keyring's, or ~/.pgpass")
        self.remember = QCheckBox("Keep the password in the system's keyring")
        self.remember.setChecked(False)
        note = QLabel("The password is kept nowhere unless the box is ticked.")
        note.setWordWrap(True)
        form = QFormLayout()
        self.reason = QLabel(f"It could not be opened: {reason}" if reason else "")
        self.reason.setWordWrap(True)
        self.reason.setVisible(bool(reason))
        form.addRow(self.reason)
        form.addRow("Campaign address:", self.address)
        form.addRow("Password:", self.password)
        form.addRow("", self.remember)
        form.addRow("", note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def values(self) -> tuple[str, str, bool]:
        """The address, the password typed and whether to keep it."""
        return self.address.text().strip(), self.password.text(), self.remember.isChecked()


MERGE_MS = 50  # notifications heard within this long of the first are one refresh
RETRY_MS = (250, 500, 1000, 2000, 4000, 8000, 15000)  # waits before listening again


class ClubWatch(QObject):
    """Tells what another window, program or player commits to a server campaign: a socket
    notifier on the listener's own connection, no timer polling the campaign. The notices
    heard together (within ``MERGE_MS``) are told as one (``news``). A dropped connection is
    told (``lost``) and listened on again after a wait that grows (``RETRY_MS``, each a
    single shot); once it is (``back``), what was committed meanwhile was not heard, so the
    window reads its view once whole."""

    news = Signal(object)  # a Notice (store.notice): what the others' commits changed
    lost = Signal(str)  # the connection went (why); it is tried again
    back = Signal()  # listening again after a loss

    def __init__(self, listener: ChangeListener, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.listener = listener
        self.notifier: QSocketNotifier | None = None
        self.retries = 0  # tries to listen again since the connection was lost
        self._pending: list[Notice] = []
        self._merge = QTimer(self)
        self._merge.setSingleShot(True)
        self._merge.setInterval(MERGE_MS)
        self._merge.timeout.connect(self._tell)
        self._closed = False
        self._watch()

    def _watch(self) -> None:
        self.notifier = QSocketNotifier(self.listener.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._on_ready)

    def _unwatch(self) -> None:
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None

    def _on_ready(self, *_args: Any) -> None:
        try:
            heard = self.listener.news()
        except CampaignError as exc:
            self._unwatch()  # the connection is gone: its socket says nothing more
            self.retries = 0
            self.lost.emit(str(exc))
            self._retry_later()
            return
        if heard:
            self._pending += heard
            if not self._merge.isActive():
                self._merge.start()

    def _tell(self) -> None:
        heard, self._pending = self._pending, []
        if heard and not self._closed:
            self.news.emit(merged(heard))

    def _retry_later(self) -> None:
        wait = RETRY_MS[min(self.retries, len(RETRY_MS) - 1)]
        QTimer.singleShot(wait, self, self._try_again)

    def _try_again(self) -> None:
        if self._closed:
            return
        self.retries += 1
        try:
            self.listener.reconnect()
        except CampaignError:
            self._retry_later()
            return
        self._watch()
        self.back.emit()

    def close(self) -> None:
        """Stop watching."""
        self._closed = True
        self._merge.stop()
        self._unwatch()
        self.listener.close()


VERB_CHOICES = ("", *packet.VERBS)


# the room the pad keeps for the town a command is sent to: a long name of the map
TOWN_ROOM = "Frankfurt an der Oder"


class PlayerWindow(SideWindow):
    """A side's player at a club's server campaign: what his side knows, kept up to date by
    the server's notifications, and an order pad that submits his side's order form."""

    def __init__(self, seat: PlayerSeat, parent: QWidget | None = None) -> None:
        super().__init__(seat.view(), seat.public_map(), parent)
        self.seat = seat
        self.pad = QTableWidget(0, 4)
        self.pad.setHorizontalHeaderLabels(["Command", "Orders now", "Order", "Town"])
        # the whole pad in its dock: the command and the verb as wide as they need, the town
        # as wide as a long town's name, and the orders now the rest (cut short where long,
        # whole in its tooltip)
        header = self.pad.horizontalHeader()
        for column, mode in ((0, QHeaderView.ResizeMode.ResizeToContents),
                             (1, QHeaderView.ResizeMode.Stretch),
                             (2, QHeaderView.ResizeMode.ResizeToContents),
                             (3, QHeaderView.ResizeMode.Fixed)):
            header.setSectionResizeMode(column, mode)
        self.pad.setColumnWidth(3, self.pad.fontMetrics().horizontalAdvance(TOWN_ROOM) + 16)
        self.pad.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.pad.setWordWrap(False)  # a long order ends in an ellipsis, on its one line
        self.submit_button = QPushButton("Submit Orders to the Umpire")
        self.submit_button.clicked.connect(self.submit)
        self.sent = QListWidget()
        self.said = QLabel()
        self.said.setWordWrap(True)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(QLabel("Orders for the umpire (a verb and a town for each command "
                                "to be given new orders):"))
        layout.addWidget(self.pad)
        layout.addWidget(self.submit_button)
        layout.addWidget(self.said)
        layout.addWidget(QLabel("Sent, and what became of each:"))
        layout.addWidget(self.sent)
        dock = QDockWidget("Order Pad", self)
        dock.setObjectName("OrderPadDock")
        dock.setWidget(body)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.watch = ClubWatch(seat.listen(), self)
        self.watch.news.connect(self._on_news)
        self.watch.lost.connect(self._on_lost)
        self.watch.back.connect(self._on_back)
        self._fill_pad()
        self._fill_sent()

    def _fill_pad(self) -> None:
        rows = self.view.table[1:]
        self.pad.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate((row[0], row[4])):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(text)
                self.pad.setItem(r, c, item)
            verbs = QComboBox()
            verbs.addItems(list(VERB_CHOICES))
            self.pad.setCellWidget(r, 2, verbs)
            self.pad.setCellWidget(r, 3, QLineEdit())

    def _fill_sent(self) -> None:
        self.sent.clear()
        for sent in self.seat.submitted():
            filled = sum(1 for o in sent.form.get("orders", ()) if o.get("verb"))
            self.sent.addItem(f"Form {sent.id} ({sent.form.get('day', '?')}, {filled} "
                              f"orders): {sent.taken or 'waiting for the umpire'}")

    def set_order(self, command: str, verb: str, town: str) -> None:
        """Fill one command's line of the pad (as the player does by hand)."""
        for r in range(self.pad.rowCount()):
            item = self.pad.item(r, 0)
            if item is not None and item.text() == command:
                combo = self.pad.cellWidget(r, 2)
                line = self.pad.cellWidget(r, 3)
                assert isinstance(combo, QComboBox) and isinstance(line, QLineEdit)
                combo.setCurrentText(verb)
                line.setText(town)
                return
        raise CampaignError(f"{command} is not one of the {self.view.side.value}' commands")

    def form(self) -> dict[str, Any]:
        """The pad as the side's order form."""
        form = packet.order_form(self.view)
        for r, line in enumerate(form["orders"]):
            combo = self.pad.cellWidget(r, 2)
            town = self.pad.cellWidget(r, 3)
            if isinstance(combo, QComboBox) and isinstance(town, QLineEdit):
                line["verb"], line["objective"] = combo.currentText(), town.text().strip()
        return form

    def submit(self) -> int | None:
        """Send the pad's orders to the umpire; the form's number, or None if refused."""
        try:
            number = self.seat.submit(self.form())
        except CampaignError as exc:
            self.said.setText(f"Not sent: {exc}")
            return None
        self.said.setText(f"Sent as form {number}; the umpire takes it.")
        self._fill_sent()
        return number

    def _on_news(self, notice: Notice) -> None:
        """The umpire acted, or a form was sent or taken: read only what that changed (the
        side's view, the forms sent, or both)."""
        self.refresh(view=notice.whole or notice.state, forms=notice.whole or notice.forms)

    def _on_lost(self, reason: str) -> None:
        self.statusBar().showMessage(f"Connection lost, trying again… ({reason})")

    def _on_back(self) -> None:
        self.refresh()  # what the umpire did meanwhile was not heard: read it once
        self.statusBar().showMessage("Connected again", 5000)

    def refresh(self, *, view: bool = True, forms: bool = True) -> None:
        """Read the side's view, or the forms sent, again (the umpire acted)."""
        try:
            if view:
                seen = self.seat.view()
                if seen != self.view:
                    self.show_view(seen)
                    self._fill_pad()
            if forms:
                self._fill_sent()
        except CampaignError as exc:
            self.said.setText(str(exc))

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        """Leave the seat with the window."""
        self.watch.close()
        self.seat.close()
        super().closeEvent(event)
