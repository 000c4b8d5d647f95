"""The setup sheet on paper: the SVG of the table and the PDF sheet, read back.

The battle is the one of ``test_setup_sheet``: 5 Corps holding Magdeburg against I Prussian
Corps, which comes by forced marches along the Burg road with 5 casualties on each infantry
brigade (rout at 6, seed 000 Rule 17).
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pypdf
import pytest

from campaign1813.ui.console import main
from campaign1813.ui.paper import QtPaper
from campaign1813.ui.paper.layout import MARGINS_MM
from campaign1813.ui.paper.table_diagram import paint_table, table_svg

from .pdf_reading import glyphs, glyphs_outside
from .test_setup_sheet import LAURISTON, YORCK, helmstedt_sheet
from .test_setup_sheet import campaign_files_fixture as _campaign_files  # noqa: F401
from .test_setup_sheet import magdeburg_fixture as _magdeburg  # noqa: F401
from .test_table_words import helmstedt_by

SVG = "{http://www.w3.org/2000/svg}"

# pytest-qt's QApplication first, so the drawing code finds it rather than making its own.
pytestmark = pytest.mark.usefixtures("qapp")


def _texts(root: ET.Element) -> list[str]:
    return [(t.text or "").strip() for t in root.iter(f"{SVG}text")]


def test_the_svg_parses_and_holds_the_table_terrain_roads_and_entries(magdeburg):
    root = ET.fromstring(table_svg(magdeburg))
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "Table for The battle of Magdeburg (5 May 1813)"
    # The nine squares are the drawing's only rectangles; eight outer squares are named.
    assert len(list(root.iter(f"{SVG}rect"))) == 9
    texts = _texts(root)
    for name in ("NW", "N", "NE", "W", "E", "SW", "S", "SE"):
        assert name in texts
    # The town and its terrain, the river by name, every road with its bearing.
    assert "Magdeburg" in texts and "fortress, built-up" in texts and "Elbe" in texts
    for road in ("Wolmirstedt 0°", "Burg 42°", "Zerbst 119°", "Schönebeck 148°",
                 "Wanzleben 242°", "Helmstedt 286°", "Neuhaldensleben 322°"):
        assert road in texts
    # The Allied entry: side and turn, edge and road, the corps with its orders and column.
    assert "Allied, turn 1" in texts
    assert "north edge, Burg road" in texts
    assert "A1 I Prussian Corps — Attack" in texts
    assert "column: 1 Cav, 1, 2, 3, 4, Guns" in texts
    # The French are on the table from the start: their blind and its corps by the town.
    assert "F1" in texts and "5 Corps" in texts
    desc = root.find(f"{SVG}desc").text
    assert "road to Burg 42.4° (north edge)" in desc and "river Elbe" in desc


def test_the_svg_renders_with_the_table_drawn(magdeburg):
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(table_svg(magdeburg)))
    assert renderer.isValid()
    size = renderer.defaultSize()
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    # The table's ground colour fills the middle of the NW square; the Elbe's blue is on it.
    colours = {image.pixelColor(x, y).name() for x in range(0, size.width(), 7)
               for y in range(0, size.height(), 7)}
    assert "#e6edd2" in colours and "#5b93cf" in colours


def test_one_drawing_paints_any_device(magdeburg):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(400, 300, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    paint_table(painter, magdeburg, QRectF(0, 0, 400, 300))
    painter.end()
    assert image.pixelColor(200, 150).name() != "#ffffff"  # the town in the middle


def _pdf_text(data: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_the_pdf_holds_every_corps_and_brigade_with_its_tally(magdeburg, size):
    pages = _pdf_text(QtPaper().setup_sheet_pdf(magdeburg, size))
    text = " ".join(pages)
    assert "Setup: The battle of Magdeburg (5 May 1813)" in pages[0]
    for n, page in enumerate(pages, start=1):
        assert f"Page {n} of {len(pages)}" in page and "The 1813 Campaign" in page
    for corps, brigades in (("5 Corps", LAURISTON), ("I Prussian Corps", YORCK)):
        holding = [n for n, page in enumerate(pages) if f"{corps} " in page
                   and brigades[0][0] in page]
        assert holding, corps
        page = pages[holding[0]]
        for name, *_rest in brigades:  # no corps split across pages
            assert re.search(rf"(?<!\w){re.escape(name)} ", page), name
        assert "Figures: 32 infantry, 4 cavalry, 1 gun and 4 crew" in page
    assert text.count("routs at 6, 5 in") == 4  # Yorck's four brigades, 5 forced-march hits
    assert text.count("routs at 6") == 8 and text.count("routs at 4") == 2
    assert text.count("routs at 3") == 2
    assert "Commander: General Yorck, Gifted +3" in text
    assert "Enters: North edge by the Burg road, turn 1, in column of march" in text
    assert "Objective: Magdeburg" in text or "Objective:Magdeburg" in text.replace(" ", "")
    assert "Chips in the bag" in pages[0] and "General Lauriston" in pages[0]
    assert "Poor: the next Poor commander drawn forgoes his move" in pages[0]


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_a_two_army_battle_keeps_each_corps_on_one_page(size):
    """Ten corps and two reserves: every corps and brigade is on the sheet once, in chip
    order, each corps whole on one page; the reserves' allocation boxes follow."""
    sheet = helmstedt_sheet()
    pages = _pdf_text(QtPaper().setup_sheet_pdf(sheet, size))
    assert len(pages) >= 3
    text = " ".join(pages)
    for corps in sheet.corps:
        heads = [n for n, page in enumerate(pages) if f"Blind {corps.blind[-2:]} · chip" in page]
        assert len(heads) == 1, corps.key
        page = pages[heads[0]]
        for b in corps.brigades:
            assert re.search(rf"(?<!\w){re.escape(b.name)} ", page), (corps.key, b.name)
    brigades = [b.name for c in sheet.corps for b in c.brigades]
    at = [re.search(rf"(?<!\w){re.escape(name)} ", text).start() for name in brigades
          if brigades.count(name) == 1]
    assert at == sorted(at)
    assert "Reserve allocation — French" in text and "Reserve allocation — Allied" in text
    assert "13 Polish Corps Artillery (13 Polish Corps)" in text
    assert "routs at 6, 2 in" in text and "routs at 4, 1 in" in text
    assert "Enters: West edge by the Königslutter road, turn 4, in column of march" in text


def test_export_setup_pdf_and_svg_from_the_command_line(campaign_files, tmp_path, capsys):
    f = str(campaign_files["scheduled"])
    pdf, svg = tmp_path / "setup.pdf", tmp_path / "table.svg"
    assert main(["export", "setup", f, "--battle", "1", "--pdf", str(pdf),
                 "--paper", "letter"]) == 0
    assert main(["export", "setup", f, "--battle", "1", "--svg", str(svg)]) == 0
    assert "I Prussian Corps Artillery" in " ".join(_pdf_text(pdf.read_bytes()))
    reader = pypdf.PdfReader(str(pdf))
    assert round(float(reader.pages[0].mediabox.width)) == 612  # Letter: 8.5 in
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"
    before = svg.read_bytes()
    svg.write_bytes(b"<svg/>")
    assert main(["export", "setup", f, "--battle", "1", "--svg", str(svg)]) == 1
    assert "exists; use --force" in capsys.readouterr().err
    assert svg.read_bytes() == b"<svg/>"
    assert main(["export", "setup", f, "--battle", "1", "--svg", str(svg), "--force"]) == 0
    assert svg.read_bytes() == before


def test_battle_menu_setup_sheet_writes_pdf_and_svg(campaign_files, tmp_path, qtbot,
                                                    monkeypatch):
    import shutil

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QFileDialog

    from campaign1813.ui.main_window import MainWindow

    copy = tmp_path / "window.c1813"
    shutil.copy(campaign_files["scheduled"], copy)
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    assert window.open_file(copy)
    titles = [a.text() for a in window.menus.battle_menu.actions()]
    assert "Setup Sheet…" in titles
    assert [a.text() for a in window.menus.setup_sheet_menu.actions()] == ["1. Magdeburg…"]
    answers = iter([(str(tmp_path / "sheet.pdf"), "Setup sheet (*.pdf)"),
                    (str(tmp_path / "table"), "Table diagram (*.svg)"), ("", "")])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: next(answers))
    window.menus.setup_sheet_menu.actions()[0].trigger()
    assert "I Prussian Corps Artillery" in " ".join(_pdf_text((tmp_path / "sheet.pdf")
                                                              .read_bytes()))
    assert window.export_setup_sheet(1) == tmp_path / "table.svg"
    assert ET.parse(tmp_path / "table.svg").getroot().tag == f"{SVG}svg"
    assert window.export_setup_sheet(1) is None  # cancelled


@pytest.mark.parametrize("ruleset", ["1813", "002", "004"])
def test_no_line_of_the_sheet_runs_into_the_footer_or_the_margins(ruleset):
    """Nothing is cut: on every page of the demo's two-army sheet, by each ruleset (002's
    long sequence of play once ran under page 1's footer), every letter is inside the side
    margins and the lowest line above the footer clears it."""
    sheet = helmstedt_sheet() if ruleset == "1813" else helmstedt_by(ruleset)
    data = QtPaper().setup_sheet_pdf(sheet, "a4")
    assert glyphs_outside(data, MARGINS_MM.left(), MARGINS_MM.right()) == []
    found, sizes = glyphs(data)
    assert len(sizes) >= 3
    for page in range(len(sizes)):
        rows = sorted({round(g.y, 1) for g in found if g.page == page})
        footer, above = rows[0], rows[1]
        assert above - footer > 9, f"page {page + 1}: a line {above - footer:.1f} pt above " \
                                   "the footer"
