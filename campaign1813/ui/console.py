"""The ``campaign1813`` command: the headless command line with Qt's printing installed.

The command line itself lives in ``campaign1813.campaign.cli`` and never imports Qt; a PDF
export needs Qt's typesetter, so this entry installs a painter that imports PySide6 only when a
PDF is first asked for. Every other command (``status``, ``end-day``) starts as fast as before.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from campaign1813.campaign.cli import main as cli_main
from campaign1813.campaign.export.paper import Paper, install

if TYPE_CHECKING:
    from campaign1813.campaign.export.document import Document
    from campaign1813.campaign.export.setup_sheet import SetupSheet, SheetPaper


class LazyQtPaper:
    """Stands in for Qt's painter until the first drawing, then imports and asks it."""

    def __init__(self) -> None:
        self._paper: Paper | None = None

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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with the Qt painter installed for PDF exports."""
    install(LazyQtPaper())
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
