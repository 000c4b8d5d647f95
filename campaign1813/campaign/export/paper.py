"""The painter that puts documents on paper, installed from above.

The campaign layer never imports Qt, yet a PDF needs a typesetter. So this module only says
what a painter does (:class:`Paper`) and holds the one that was installed: the window and the
console entry (``campaign1813.ui.console``) install Qt's painter from ``campaign1813.ui.paper``
before running anything, and an export asks :func:`installed` for it. Run without one (the bare
``campaign1813.campaign.cli``), a PDF export is refused with a clear message while CSV, JSON,
HTML and Markdown work as ever.

>>> PAPER_SIZES
('a4', 'letter')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from campaign1813.errors import CampaignError

if TYPE_CHECKING:  # the console entry imports this module on every start: keep it light
    from campaign1813.campaign.export.document import Document

PAPER_SIZES = ("a4", "letter")


class NoPaperError(CampaignError):
    """A PDF was asked for where no painter is installed."""


@runtime_checkable
class Paper(Protocol):
    """What puts a :class:`Document` on paper; more kinds of drawing are added as methods."""

    def pdf(self, document: Document, paper_size: str) -> bytes:
        """The document as PDF bytes on ``a4`` or ``letter`` pages."""
        ...


_installed: Paper | None = None


def install(paper: Paper | None) -> None:
    """Make ``paper`` the painter every export uses (None removes it)."""
    global _installed
    _installed = paper


def installed() -> Paper:
    """The installed painter; a clear error when there is none."""
    if _installed is None:
        raise NoPaperError("PDF needs the printing support of the full application; run the "
                           "campaign1813 command (campaign1813.ui.console), not the bare "
                           "campaign1813.campaign.cli")
    return _installed


def check_paper_size(name: str) -> str:
    """``a4`` or ``letter`` (any case); anything else is a one-line error naming both."""
    size = name.lower()
    if size not in PAPER_SIZES:
        raise CampaignError(f"paper size {name!r}: not known; use a4 or letter")
    return size
