"""The ``campaign1813`` command: the headless command line with Qt's printing installed.

The command line itself lives in ``campaign1813.campaign.cli`` and never imports Qt; a PDF
export needs Qt's typesetter, so this entry installs a painter that imports PySide6 only when a
PDF is first asked for. Every other command (``status``, ``end-day``) starts as fast as before.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from campaign1813.campaign.cli import main as cli_main
from campaign1813.campaign.export.paper import Paper, install

if TYPE_CHECKING:
    from datetime import date

    from campaign1813.campaign.export.document import Document
    from campaign1813.campaign.export.history import HistoryDay, HistoryPainter
    from campaign1813.campaign.export.setup_sheet import SetupSheet, SheetPaper
    from campaign1813.campaign.scenario.types import Side
    from campaign1813.campaign.store.protocol import CampaignStore
    from campaign1813.maps.types import Theatre


class LazyQtPaper:
    """Stands in for Qt's painter until the first drawing, then imports and asks it."""

    def __init__(self) -> None:
        self._paper: Paper | None = None
        self._history_painter: HistoryPainter | None = None

    def _qt(self) -> Paper:
        if self._paper is None:
            from campaign1813.ui.paper import QtPaper  # Qt with the first PDF, not before

            self._paper = QtPaper()
        return self._paper

    def pdf(self, document: Document, paper_size: str) -> bytes:
        """The document as PDF bytes, typeset by Qt."""
        return self._qt().pdf(document, paper_size)

    # -- a battle's setup sheet --
    def setup_sheet_pdf(self, sheet: SetupSheet, paper_size: str) -> bytes:
        """A battle's setup sheet as PDF bytes, drawn by Qt."""
        return cast("SheetPaper", self._qt()).setup_sheet_pdf(sheet, paper_size)

    def table_svg(self, sheet: SetupSheet) -> bytes:
        """A battle's table as SVG, drawn by Qt."""
        return cast("SheetPaper", self._qt()).table_svg(sheet)

    # -- the campaign's history (export history) --
    def history_map(self, doc: CampaignStore, day: date, theatre: Theatre | None,
                    side: Side | None, title: str) -> tuple[bytes, bytes]:
        """A day's map as PNG and SVG, drawn from the History's scene."""
        return self._history().history_map(doc, day, theatre, side, title)

    def history_pdf(self, title: str, pages: Sequence[tuple[HistoryDay, bytes]],
                    paper_size: str) -> bytes:
        """The history as PDF, a page a day."""
        return self._history().history_pdf(title, pages, paper_size)

    def _history(self) -> HistoryPainter:
        if self._history_painter is None:
            from campaign1813.ui.history_pictures import QtHistoryPainter  # with the first map

            self._history_painter = QtHistoryPainter()
        return self._history_painter


# A hidden diagnostic of the console program, for the bundle's check: which keyring backend it
# would keep a password in, and which backends it can find (keyring finds them through its
# package's entry points, which a bundle must carry).
KEYRING_DIAGNOSTIC = "--keyring-backend"


def keyring_report() -> dict[str, Any]:
    """The keyring backend in use, the backends keyring's entry points name (each loaded, or
    why not), and the backends it finds viable here, by their modules' and classes' names."""
    # only for this diagnostic: no command needs them, and the command line starts without
    from importlib.metadata import entry_points

    import keyring
    from keyring.backend import get_all_keyring

    def named(backend: object) -> str:
        return f"{type(backend).__module__}.{type(backend).__qualname__}"

    found: dict[str, str] = {}
    for point in sorted(entry_points(group="keyring.backends"), key=lambda p: p.name):
        try:
            point.load()
        except Exception as exc:  # noqa: BLE001 - a backend of another system: why, reported
            found[point.value] = f"not loaded: {type(exc).__name__}: {exc}"[:200]
        else:
            found[point.value] = "loaded"
    return {"in_use": named(keyring.get_keyring()), "entry_points": found,
            "viable": sorted(named(b) for b in get_all_keyring())}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with the Qt painter installed for PDF exports."""
    if list(sys.argv[1:] if argv is None else argv) == [KEYRING_DIAGNOSTIC]:
        print(json.dumps(keyring_report(), indent=1, sort_keys=True))
        return 0
    install(LazyQtPaper())
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
