"""Reading a PDF back with pypdf: its text, and where each glyph was set on its page."""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass

import pypdf

MM = 72 / 25.4  # points per millimetre


@dataclass(frozen=True)
class Glyph:
    """Where a glyph was set: its page (from 0) and its origin in points from the lower left."""

    page: int
    x: float
    y: float


def pdf_text(data: bytes) -> str:
    """The text of every page, ligatures opened (ﬁ → fi) and whitespace made single spaces."""
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    text = unicodedata.normalize("NFKC", " ".join(p.extract_text() for p in pages))
    return re.sub(r"\s+", " ", text)


def squeezed(text: str) -> str:
    """Text without its whitespace, for finding a line that wrapped anywhere."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def glyphs(data: bytes) -> tuple[list[Glyph], list[tuple[float, float]]]:
    """Every glyph's origin, and each page's width and height in points."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    found: list[Glyph] = []
    sizes = []
    for n, page in enumerate(reader.pages):
        sizes.append((float(page.mediabox.width), float(page.mediabox.height)))

        def before(op, _args, cm, tm, n=n):
            if op in (b"Tj", b"TJ"):
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                found.append(Glyph(n, x, y))

        page.extract_text(visitor_operand_before=before)
    return found, sizes


def glyphs_outside(data: bytes, left_mm: float, right_mm: float) -> list[Glyph]:
    """The glyphs set in a page's left or right margin, or beyond the page."""
    found, sizes = glyphs(data)
    return [g for g in found
            if not left_mm * MM - 1 <= g.x <= sizes[g.page][0] - right_mm * MM
            or not 0 <= g.y <= sizes[g.page][1]]
