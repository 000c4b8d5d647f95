"""Qt's painter: every page carries the campaign, the date and its number; no unit is split."""

import io
import re

import pypdf
import pytest

from campaign1813.campaign.export.document import (
    Column,
    Document,
    Fields,
    Heading,
    Paragraph,
    Table,
    Unit,
)
from campaign1813.ui.paper import QtPaper
from campaign1813.ui.paper.layout import MARGINS_MM
from tests.export.pdf_reading import MM, glyphs, glyphs_outside, pdf_text, squeezed

# The widgets' application first: a PDF alone would start a bare QGuiApplication, and the
# window tests that follow in the same run need a QApplication.
pytestmark = pytest.mark.usefixtures("qapp")


def _unit(u: int, rows: int) -> Unit:
    table = Table((Column("No."), Column("Brigade")),
                  tuple((f"{u:02d}.{r}", f"Row {u:02d}-{r}") for r in range(rows)))
    return Unit((Heading(f"Unit {u:02d}", 2, note="French"),
                 Fields((("Commander", f"General {u:02d}, Average +2"),)), table))


def _long_document(units: int, rows: int) -> Document:
    body = tuple(_unit(u, rows) for u in range(units))
    return Document("Orders of Battle", "The Test Campaign", "3 May 1813", body)


def _pages(data: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", p.extract_text()) for p in pypdf.PdfReader(io.BytesIO(data)).pages]


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_units_are_never_split_across_pages_and_every_page_is_headed(size):
    pages = _pages(QtPaper().pdf(_long_document(30, 7), size))
    assert len(pages) >= 4
    for n, text in enumerate(pages, start=1):
        assert "The Test Campaign" in text and "3 May 1813" in text
        assert f"Page {n} of {len(pages)}" in text
    for u in range(30):
        holding = [n for n, text in enumerate(pages) if f"Row {u:02d}-" in text]
        assert len(holding) == 1, f"unit {u} on pages {holding}"
        page = pages[holding[0]]
        assert f"Unit {u:02d}" in page
        assert all(f"Row {u:02d}-{r}" in page for r in range(7))


def test_letter_is_shorter_than_a4_so_it_takes_at_least_as_many_pages():
    doc = _long_document(30, 7)
    assert len(_pages(QtPaper().pdf(doc, "letter"))) >= len(_pages(QtPaper().pdf(doc, "a4")))
    sizes = [pypdf.PdfReader(io.BytesIO(QtPaper().pdf(doc, s))).pages[0].mediabox for s in
             ("a4", "letter")]  # in points
    assert [round(float(sizes[1].width)), round(float(sizes[1].height))] == [612, 792]
    assert [round(float(sizes[0].width)), round(float(sizes[0].height))] == [595, 842]


def test_a_unit_taller_than_a_page_breaks_between_rows_with_every_row_printed_once():
    pages = _pages(QtPaper().pdf(_long_document(1, 120), "a4"))
    assert len(pages) >= 2
    text = " ".join(pages)
    for r in range(120):
        assert len(re.findall(rf"Row 00-{r}\b", text)) == 1
    assert all("BRIGADE" in p for p in pages)  # the table's header repeats on each page


UMPIRE = ("The umpire decides: the Allies win – the French army is broken: 5 Corps, 6 Corps and "
          "13 Polish Corps routed, and Kleist's cavalry rides down the last of them before "
          "Magdeburg at nightfall on the second day")
RESULT = ("Result: the Allies win – half or more of the French corps are broken, the battle town "
          "is held by II Prussian Corps, and Kleist's cavalry reaches the Elbe crossing")


def test_long_headings_notes_labels_and_cells_wrap_inside_the_margins():
    """Nothing runs off the page: a bold heading, its note, a field's label and value, a
    paragraph and a table cell all wrap, a column is never narrower than its longest word,
    every word is in the PDF's text, and no letter is set in the margins (the old layout ran
    "The umpire decides…" off the right edge, and cut "Kleist's cavalry r")."""
    long_word = "Kurmark-Landwehr-Kavallerie-Regiment-und-Reserve-Grenadiere"
    blocks = (Heading(UMPIRE, 3), Heading(RESULT, 1, note="the battle of Magdeburg, 5 May 1813, "
                                                           "fought at the table"),
              Paragraph(RESULT + " " + UMPIRE),
              Fields(((UMPIRE[:60], RESULT),)),
              Table((Column("No."), Column("Name"), Column("Note")),
                    (("8", "Reserve Regiments of the Neumark", UMPIRE),
                     ("9", long_word, RESULT))))
    data = QtPaper().pdf(Document(UMPIRE, "The Test Campaign", "5 May 1813",
                                  (Unit(blocks),)), "a4")
    assert glyphs_outside(data, MARGINS_MM.left(), MARGINS_MM.right()) == []
    text, flat = pdf_text(data), squeezed(pdf_text(data))
    for word in (UMPIRE + " " + RESULT).split():
        assert word in text
    assert long_word in text  # its column takes the word's width; the notes beside it wrap
    for line in (UMPIRE, RESULT, "the battle of Magdeburg, 5 May 1813, fought at the table",
                 "Reserve Regiments of the Neumark"):
        assert squeezed(line) in flat


def test_a_paragraph_longer_than_a_page_runs_on_over_the_next_pages():
    """A paragraph taller than a whole page is broken between its lines, as a long table is
    between its rows: every word is printed once, none below a page's foot."""
    words = [f"w{n:04d}" for n in range(2400)]
    doc = Document("Diary", "The Test Campaign", "5 May 1813",
                   (Unit((Heading("5 May 1813", 1), Paragraph(" ".join(words)))),))
    data = QtPaper().pdf(doc, "a4")
    assert glyphs_outside(data, MARGINS_MM.left(), MARGINS_MM.right()) == []
    found, sizes = glyphs(data)
    assert len(sizes) >= 3
    assert min(g.y for g in found) > MARGINS_MM.bottom() * MM - 1  # nothing under the foot
    # Read without white space: pypdf sometimes sets a space inside a word ("w068 2").
    assert re.findall(r"w\d{4}", squeezed(pdf_text(data))) == words  # each once, in order
