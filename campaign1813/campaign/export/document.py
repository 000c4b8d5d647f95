"""A printable document as plain values, free of any toolkit: what leaves the laptop for the table.

A :class:`Document` has a title, the campaign's name and date (every page's header repeats
them) and a sequence of :class:`Unit` s. A unit is a run of blocks kept together on paper: a
corps with its commander and its brigades is one unit, so a page break falls only between
units (a unit taller than a whole page is the one case that must break inside). The blocks are
few and general — headings, paragraphs, label/value fields and tables with column headers — so
that the orders of battle, the battle setup and the diary are all written in them and rendered
the same way to HTML, Markdown (``render.py``) and PDF (the installed paper, ``paper.py``).

>>> doc = Document("Orders of Battle", "Spring 1813", "1 May 1813", (
...     Unit((Heading("4 Corps"), Paragraph("French"))),))
>>> [type(b).__name__ for b in doc.blocks()]
['Heading', 'Paragraph']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum


class Align(StrEnum):
    """How a table column's cells sit in their column."""

    LEFT = "left"
    CENTRE = "centre"
    RIGHT = "right"


@dataclass(frozen=True)
class Heading:
    """A heading: level 1 the document's parts (an army group), 2 its sections (a corps)."""

    text: str
    level: int = 1
    note: str = ""  # set beside the heading in a lighter face, e.g. the nationality


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of running text; ``small`` for notes and keys."""

    text: str
    small: bool = False


@dataclass(frozen=True)
class Fields:
    """Label and value pairs set as an aligned two-column list (``CinC  Marshal Davout``)."""

    pairs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Column:
    """A table column: its header and alignment."""

    title: str
    align: Align = Align.LEFT


@dataclass(frozen=True)
class Table:
    """A table with column headers; tables with the same ``columns`` share their column widths
    on paper, so that one corps' table lines up with the next."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a row of {len(row)} cells in a table of "
                                 f"{len(self.columns)} columns")


Block = Heading | Paragraph | Fields | Table


@dataclass(frozen=True)
class Unit:
    """Blocks that are kept together on one page; ``new_page`` starts it on a fresh page."""

    blocks: tuple[Block, ...]
    new_page: bool = False


@dataclass(frozen=True)
class Document:
    """A titled document of the campaign: its units in order, the header's name and date."""

    title: str
    campaign: str
    date: str
    units: tuple[Unit, ...] = field(default_factory=tuple)

    def blocks(self) -> Iterator[Block]:
        """Every block, in reading order."""
        for unit in self.units:
            yield from unit.blocks

    @property
    def header(self) -> str:
        """What every page's header says: ``Spring 1813 — 1 May 1813``."""
        return f"{self.campaign} — {self.date}" if self.date else self.campaign
