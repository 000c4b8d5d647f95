"""Starting the application: the window, the default campaign, and errors shown, not dumped."""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

from platformdirs import user_data_dir, user_log_dir
from PySide6.QtCore import QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign1813 import __version__
from campaign1813.campaign.store.document import SUFFIX
from campaign1813.data import data_root
from campaign1813.ui.main_window import APP_TITLE, MainWindow

ORGANISATION = "campaign1813"
APPLICATION = "campaign1813"

log = logging.getLogger("campaign1813")


def default_campaign_path() -> Path:
    """Where the built-in 1813 campaign lives in the user's data folder."""
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


def _install_excepthook(app: QApplication) -> None:
    log_dir = Path(user_log_dir(APPLICATION, appauthor=False))

    def hook(exc_type, exc, tb):
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
    window = MainWindow(QSettings())
    window.show()
    choose_startup_file(window, [a for a in argv[1:] if not a.startswith("-")])
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
