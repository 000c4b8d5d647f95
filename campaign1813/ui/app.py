"""Starting the application: the window, the default campaign, and errors shown, not dumped.

The window is shown with its campaign as soon as that is read; what only an order or a march
needs — the road planner and its graph library — is loaded in the background once the window
is up and the map's ground is built, so the first paint does not wait for it, nor the map for
it, and the first order does not either.
"""

from __future__ import annotations

import gc
import importlib
import logging
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QFileOpenEvent, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign1813 import __version__
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.document import SUFFIX
from campaign1813.data import data_root
from campaign1813.ui.main_window import APP_TITLE, MainWindow

ORGANISATION = "campaign1813"
APPLICATION = "campaign1813"


def default_campaign_path() -> Path:
    """Where the built-in 1813 campaign lives in the user's data folder."""
    from platformdirs import user_data_dir  # a first start's: later ones open the last file

    return Path(user_data_dir(APPLICATION, appauthor=False)) / f"1813{SUFFIX}"


def choose_startup_file(window: MainWindow, argv: list[str]) -> None:
    """Open the file named on the command line, else the last one, else the default campaign."""
    if argv:
        window.open_file(argv[0])
        return
    last = window._settings.value("files/last")
    if last and Path(str(last)).exists() and window.open_file(str(last)):
        return
    default = default_campaign_path()
    if default.exists():
        window.open_file(default)
    else:
        default.parent.mkdir(parents=True, exist_ok=True)
        window.new_campaign(default)


# what orders and marches need and the first paint does not: loaded behind the shown window
# (the day's rules with the services that apply them, and the road planner)
DEFERRED_MODULES = ("campaign1813.campaign.services", "campaign1813.maps.road_map")


def keep_for_good() -> None:
    """Set what is loaded so far (modules, the scenario, the map's ground) apart from the
    collector of reference cycles: its full collections then walk only what came after,
    rather than every object of the program, which held the window up to 100 ms and more at
    unforeseen moments. What is set apart lives as long as the program anyway."""
    gc.freeze()


def load_in_background(modules: tuple[str, ...] = DEFERRED_MODULES) -> threading.Thread:
    """Import modules on a background thread (pure imports: no Qt, no campaign file), so the
    window stays responsive while they load; a module asked for meanwhile simply waits."""
    def load() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # an import that fails here fails again, and is reported, in use
                logging.getLogger("campaign1813").exception(
                    "could not load %s in the background", name)
        keep_for_good()

    thread = threading.Thread(target=load, name="campaign1813-preload", daemon=True)
    thread.start()
    return thread


class AfterFirstPaint(QObject):
    """Runs some work once, when the event loop is next idle after a widget's first paint."""

    def __init__(self, widget: QObject, work: Callable[[], object]):
        super().__init__(widget)
        self._work = work
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Wait for the first paint, then hand the work to the idle loop."""
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._work)
        return False


def when_settled(window: MainWindow, work: Callable[[], object]) -> None:
    """Run some work once, when the window has been painted and its map is complete (the map
    is made after its first paint and its ground built in pieces; with no map, once the window
    has been painted)."""
    if window.campaign_view.map_settled():
        AfterFirstPaint(window, work)
    else:
        window.campaign_view.map_view.ground_built.connect(
            work, Qt.ConnectionType.SingleShotConnection)


class FileOpener(QObject):
    """Opens the campaign file the system asks the application to open: how macOS hands over
    a double-clicked file (elsewhere it comes as an argument: :func:`choose_startup_file`)."""

    def __init__(self, app: QApplication, window: MainWindow):
        super().__init__(app)
        self._window = window
        app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Open the file of a file-open event; let every other event through."""
        if isinstance(event, QFileOpenEvent) and event.file():
            self._window.open_file(event.file())
            return True
        return False


# With this argument the window starts as usual, says on standard output how much CPU time its
# first paint took, and quits once its map is complete and what loads behind it has loaded: how
# an installed bundle is checked (packaging/check_bundle.py) and its start timed.
QUIT_AFTER_START = "--quit-after-start"


def quit_after_start(app: QApplication, window: MainWindow,
                     preload: list[threading.Thread]) -> None:
    """Report the window's first paint, then quit when it has settled and the modules loaded
    behind it are in (status 1 if one could not be loaded)."""
    def shown() -> None:
        if sys.stdout is not None:  # a windowed program on Windows may have none
            print(f"window shown after {time.process_time():.3f} s of CPU", flush=True)

    AfterFirstPaint(window, shown)

    def finish() -> None:
        for thread in preload:
            thread.join()
        missing = [name for name in DEFERRED_MODULES if name not in sys.modules]
        app.exit(1 if missing else 0)

    when_settled(window, finish)


def error_log_dir() -> Path:
    """The user's log folder, where unexpected errors are written."""
    from platformdirs import user_log_dir  # needed only when something has gone wrong

    return Path(user_log_dir(APPLICATION, appauthor=False))


def _install_excepthook(app: QApplication) -> None:
    def hook(exc_type: type[BaseException], exc: BaseException,
             tb: TracebackType | None) -> None:
        log_dir = error_log_dir()
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
            (log_dir / "errors.log").open("a", encoding="utf-8").write(text + "\n")
        except OSError:
            pass
        QMessageBox.critical(
            None, APP_TITLE,
            f"Something went wrong: {exc}\n\nThe campaign file is unchanged. "
            f"Details were written to {log_dir / 'errors.log'}.",
        )

    sys.excepthook = hook


AS_PLAYER = "--as-player"


def play_as_player(app: QApplication, argv: list[str]) -> int:
    """``campaign1813-gui --as-player URL``: a side's player's window on a club's server
    campaign (his side's view and an order pad), as his own login."""
    from campaign1813.campaign.store.server import PlayerSeat
    from campaign1813.ui.club import PlayerWindow, stored_password, with_password

    at = argv.index(AS_PLAYER)
    if at + 1 >= len(argv):
        print(f"{AS_PLAYER} takes a club campaign's address", file=sys.stderr)
        return 2
    address = argv[at + 1]
    try:
        seat = PlayerSeat(with_password(address, stored_password(address) or ""))
        window = PlayerWindow(seat)
    except CampaignError as exc:
        QMessageBox.critical(None, APP_TITLE, f"Cannot open the club's campaign: {exc}")
        return 1
    window.show()
    return app.exec()


def main(argv: list[str] | None = None) -> int:
    """Start the desktop application."""
    argv = list(sys.argv if argv is None else argv)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(argv)
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APP_TITLE)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(QIcon(str(data_root() / "icons" / "campaign1813.svg")))
    _install_excepthook(app)
    if AS_PLAYER in argv[1:]:
        return play_as_player(app, argv)
    window = MainWindow(QSettings(), defer_map=True)
    if sys.platform == "darwin":
        # only macOS hands a file over by event; an application-wide filter costs a Python
        # call for every event of every widget (and the start some 30 ms), so not elsewhere
        FileOpener(app, window)
    window.show()
    choose_startup_file(window, [a for a in argv[1:] if not a.startswith("-")])
    keep_for_good()
    preload: list[threading.Thread] = []

    def settled() -> None:
        keep_for_good()
        preload.append(load_in_background())

    when_settled(window, settled)
    if QUIT_AFTER_START in argv[1:]:
        quit_after_start(app, window, preload)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
