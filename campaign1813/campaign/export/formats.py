"""One exporter per format, shared by the command line and the window's save dialogs.

A printable :class:`~campaign1813.campaign.export.document.Document` (the orders of battle, the
diary) is written by :func:`document_bytes` as PDF (on the installed paper, in ``a4`` or
``letter``), HTML or Markdown; the orders of battle add CSV and JSON (``oob_document``'s
``oob_bytes``). :data:`FORMATS` names each format with the words a save dialog shows, and
:func:`format_of` reads a format from a file's suffix.

>>> format_of("davout.MD"), format_of("davout.markdown"), format_of("oob.htm")
('md', 'md', 'html')
>>> check_paper_option("csv", None), check_paper_option("pdf", None)
('a4', 'a4')
"""

from __future__ import annotations

from pathlib import PurePath

from campaign1813.campaign.export.document import Document
from campaign1813.campaign.export.paper import Paper, check_paper_size, installed
from campaign1813.campaign.export.render import document_html, document_markdown
from campaign1813.errors import CampaignError

# Each format and how a save dialog names it, in the order a dialog offers them.
FORMATS = {"pdf": "PDF document (*.pdf)", "html": "Web page (*.html *.htm)",
           "md": "Markdown text (*.md *.markdown)", "csv": "CSV spreadsheet (*.csv)",
           "json": "JSON for other tools (*.json)"}
DOCUMENT_FORMATS = ("pdf", "html", "md")
_SUFFIXES = {"pdf": "pdf", "html": "html", "htm": "html", "md": "md", "markdown": "md",
             "csv": "csv", "json": "json"}


class FormatError(CampaignError):
    """An export asked for in a format it is not written in, or with an option it has not."""


def format_of(path: str | PurePath) -> str | None:
    """The format a file's suffix names (``.htm`` is HTML, ``.markdown`` Markdown), or None."""
    return _SUFFIXES.get(PurePath(path).suffix.lower().lstrip("."))


def check_paper_option(fmt: str, paper: str | None) -> str:
    """The paper size for an export in ``fmt``: ``a4`` unless one is named; naming one for a
    format that has no pages is refused, naming the format."""
    if paper is not None and fmt != "pdf":
        raise FormatError(f"--paper {paper}: only a PDF has pages to size; "
                          f"{fmt.upper()} has none (leave --paper out)")
    return check_paper_size(paper or "a4")


def document_bytes(document: Document, fmt: str, paper_size: str = "a4",
                   paper: Paper | None = None) -> bytes:
    """A document as the bytes of a PDF (on ``paper``, else the installed one), HTML or
    Markdown file."""
    if fmt == "pdf":
        return (paper or installed()).pdf(document, check_paper_size(paper_size))
    if fmt == "html":
        return document_html(document).encode("utf-8")
    if fmt == "md":
        return document_markdown(document).encode("utf-8")
    raise FormatError(f"{fmt}: a document is written as PDF, HTML or Markdown")
