"""Print… and Export… for a window that shows a document: the campaign diary, a battle report.

:class:`PaperActions` gives a window the two actions. Print opens Qt's print preview, painting
the same document the PDF export writes (``ui/paper``, through ``print_oob.preview_dialog``)
onto the printer. Export writes PDF, HTML or Markdown, as the save dialog's file type (or the
name's suffix) says, with the command line's own writer of each format
(``export.formats.document_bytes``) and its ``write_new``: an existing file is replaced only
when the umpire has said so (the save dialog's own question counts).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtPrintSupport import QPrintPreviewDialog
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.diary import campaign_report
from campaign1813.campaign.export.document import Document
from campaign1813.campaign.export.formats import document_bytes
from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.store.document import CampaignDocument
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.paper import QtPaper
from campaign1813.ui.print_oob import default_paper, preview_dialog

FILTERS = {"pdf": "PDF document (*.pdf)", "html": "Web page (*.html)",
           "md": "Markdown (*.md)"}


def file_stem(title: str) -> str:
    """A file name (without its suffix) from a document's title, as a save dialog suggests it.

    >>> file_stem("Battle report: The battle of Magdeburg (6 May 1813)")
    'Battle report - The battle of Magdeburg (6 May 1813)'
    """
    text = title.replace(":", " -").replace("—", "-")
    return "".join(c for c in text if c not in '/\\?*"<>|').strip() or "document"


class PaperActions(QObject):
    """A window's Print… and Export… of the document it shows."""

    def __init__(self, parent: QWidget, what: str, document: Callable[[], Document],
                 folder: Callable[[], Path], say: Callable[[str], None], *,
                 keys: bool = True) -> None:
        super().__init__(parent)
        self._parent = parent
        self._what = what  # "the diary": how the messages name it
        self._document = document
        self._folder = folder
        self._say = say
        self.preview: QPrintPreviewDialog | None = None
        self.print_action = QAction("&Print…", parent)
        if keys:  # a window whose Ctrl+P is its own (the battle's pips) goes without
            self.print_action.setShortcut(QKeySequence.StandardKey.Print)
        self.print_action.setToolTip(f"Preview {what} on paper and print it")
        self.print_action.triggered.connect(lambda _c=False: self.print_preview())
        self.export_action = QAction("E&xport…", parent)
        if keys:
            self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.setToolTip(f"Write {what} to a PDF, HTML or Markdown file")
        self.export_action.triggered.connect(lambda _c=False: self.export())
        parent.addAction(self.print_action)
        parent.addAction(self.export_action)

    def print_preview(self) -> QPrintPreviewDialog | None:
        """Open Qt's print preview of the document (the window stays usable behind it)."""
        try:
            document = self._document()
        except CampaignError as exc:
            self._say(f"Cannot print {self._what}: {exc}")
            return None
        self.preview = preview_dialog(self._parent, document, default_paper())
        self.preview.open()
        return self.preview

    def ask_file(self, document: Document) -> tuple[str, bool] | None:
        """A file name from the save dialog, with its suffix; and whether the dialog asked
        about replacing that very file (it did when the name it returned had the suffix)."""
        start = str(self._folder() / f"{file_stem(document.title)}.pdf")
        dialog = QFileDialog(self._parent, f"Export {document.title}", start)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(list(FILTERS.values()))
        dialog.setDefaultSuffix("pdf")
        dialog.selectFile(start)
        by_filter = {text: fmt for fmt, text in FILTERS.items()}

        def on_filter(text: str) -> None:
            # another file type: the suggested name takes its suffix
            fmt = by_filter.get(text, "pdf")
            dialog.setDefaultSuffix(fmt)
            named = dialog.selectedFiles()
            if named and Path(named[0]).suffix.lower().lstrip(".") in FILTERS:
                dialog.selectFile(Path(named[0]).with_suffix(f".{fmt}").name)

        dialog.filterSelected.connect(on_filter)
        if not dialog.exec() or not dialog.selectedFiles():
            return None
        chosen = dialog.selectedFiles()[0]
        fmt = by_filter.get(dialog.selectedNameFilter(), "pdf")
        if Path(chosen).suffix.lower().lstrip(".") in FILTERS:
            return chosen, True
        return f"{chosen}.{fmt}", False

    def export(self) -> bool:
        """Ask for a file, then write the document to it in the format its suffix names."""
        try:
            document = self._document()
        except CampaignError as exc:
            self._say(f"Cannot export {self._what}: {exc}")
            return False
        chosen = self.ask_file(document)
        if chosen is None:
            return False
        return self.export_to(chosen[0], document, replace=True if chosen[1] else None)

    def export_to(self, path: str | Path, document: Document | None = None, *,
                  replace: bool | None = None) -> bool:
        """Write the document to ``path`` as its suffix says (.pdf, .html, .md); an existing
        file is replaced as ``replace`` says, or as the umpire answers when asked (None)."""
        path = Path(path)
        fmt = path.suffix.lower().lstrip(".")
        if fmt not in FILTERS:
            self._say(f"Cannot export {self._what} to {path.name}: name it .pdf, .html or .md")
            return False
        if path.exists() and replace is None:
            answer = QMessageBox.question(
                self._parent, "Export",
                f"{path.name} already exists in {path.parent}.\nDo you want to replace it?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            replace = answer == QMessageBox.StandardButton.Yes
        if path.exists() and not replace:
            return False
        try:
            document = document or self._document()
            write_new(path, document_bytes(document, fmt, default_paper(), QtPaper()),
                      force=bool(replace))
        except CampaignError as exc:
            self._say(f"Cannot export {self._what}: {exc}")
            return False
        self._say(f"{self._what[:1].upper()}{self._what[1:]} written to {path}")
        return True


def report_document(campaign: OpenCampaign, battle: int) -> Document:
    """Battle ``battle``'s full report as the paper that is printed and exported."""
    doc = campaign.document
    if doc is None:
        raise CampaignError("no campaign is open")
    return campaign_report(doc, battle)


def campaign_folder(campaign: OpenCampaign) -> Path:
    """Where a save dialog starts: the open campaign's folder, else the home folder."""
    doc = campaign.document
    return doc.path.parent if isinstance(doc, CampaignDocument) else Path.home()
