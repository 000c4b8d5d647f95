"""File ▸ Print Orders of Battle… and File ▸ Export Orders of Battle… in the window."""

import json
import re
from pathlib import Path

import jsonschema
import pypdf
import pytest
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewWidget
from PySide6.QtWidgets import QMessageBox

from campaign1813.ui import print_oob
from campaign1813.ui.paper import page_layout
from campaign1813.ui.print_oob import Choice, document_for, export_to, preview_dialog

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "schemas" / "oob.schema.json")
                    .read_text(encoding="utf-8"))
DAVOUT = Choice("army", "Second French Army")
# Seed 000's Second French Army: its brigades in order as the sheet prints them.
BRIGADES = ["13 Infantry Brigade A B A", "14 Infantry Brigade B B A", "15 Infantry Brigade B C B",
            "16 Infantry Brigade C C B", "11 Cavalry Brigade A Light",
            "17 Infantry Brigade A B A", "18 Infantry Brigade B B A", "19 Infantry Brigade B C B",
            "20 Infantry Brigade C C B", "3 Cavalry Brigade B Medium",
            "21 Infantry Brigade A B A", "22 Infantry Brigade B B A", "23 Infantry Brigade B C B",
            "24 Infantry Brigade C C B", "5 Cavalry Brigade C Heavy",
            "1 Infantry Brigade A A A", "2 Infantry Brigade B B B", "3 Infantry Brigade B B B",
            "4 Infantry Brigade C C C", "13 Cavalry Brigade B Light"]


def _text(path) -> str:
    return " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in pypdf.PdfReader(path).pages)


def _in_order(text: str, lines: list[str]) -> None:
    at = -1
    for line in lines:
        found = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(line)}(?![\w-])", text)]
        assert len(found) == 1, f"{line!r} printed {len(found)} times"
        assert found[0] > at, f"{line!r} out of order"
        at = found[0]


def test_the_file_menu_has_print_and_export_after_back_up_and_restore(window):
    texts = [a.text() for a in window.menus.file_menu.actions() if not a.isSeparator()]
    at = texts.index("Restore From Bac&kup…")
    assert texts[at - 1] == "&Back Up…"
    assert texts[at + 1:at + 3] == ["&Print Orders of Battle…", "E&xport Orders of Battle…"]
    assert window.menus.print_oob_action.isEnabled() and window.menus.export_oob_action.isEnabled()


def test_the_dialog_offers_every_army_each_theatre_and_army(window, qtbot):
    dialog = print_oob.ChooseOrdersDialog(window, "Print Orders of Battle")
    qtbot.addWidget(dialog)
    items = [dialog.which.itemText(i) for i in range(dialog.which.count())]
    assert items[0] == "Every army group"
    assert "Theatre: Northern Germany" in items and "Army group: Second French Army" in items
    assert len(items) == 1 + 5 + 10  # no battle is due on the first day
    assert [dialog.paper.itemText(i) for i in range(dialog.paper.count())] == ["A4", "Letter"]
    assert dialog.paper_size == print_oob.default_paper()
    dialog.which.setCurrentText("Army group: Second French Army")
    assert dialog.choice == DAVOUT


def test_the_paper_follows_the_locale():
    from PySide6.QtCore import QLocale

    before = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert print_oob.default_paper() == "letter"
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        assert print_oob.default_paper() == "a4"
    finally:
        QLocale.setDefault(before)


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_print_paints_the_same_orders_of_battle_onto_the_printer(window, qtbot, tmp_path, size):
    dialog = preview_dialog(window, document_for(window, DAVOUT), size)
    qtbot.addWidget(dialog)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    out = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(out))
    printer.setPageLayout(page_layout(size))
    dialog.paintRequested.emit(printer)
    text = _text(out)
    _in_order(text, BRIGADES)
    assert "CinC Marshal Davout, Average +2" in text
    assert "Commander General Dąbrowski, Poor +1" in text
    box = pypdf.PdfReader(out).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == \
        {"a4": (595, 842), "letter": (612, 792)}[size]


def test_the_preview_shows_the_sheet_and_a_theatre_on_a_sheet_per_army(window, qtbot):
    dialog = preview_dialog(window, document_for(window, DAVOUT), "a4")
    qtbot.addWidget(dialog)
    dialog.resize(700, 820)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.windowTitle() == "Print Orders of Battle"
    assert dialog.findChild(QPrintPreviewWidget).pageCount() == 1
    north = preview_dialog(window, document_for(window, Choice("theatre", "Northern Germany")),
                           "letter")
    qtbot.addWidget(north)
    north.show()
    qtbot.waitExposed(north)
    assert north.findChild(QPrintPreviewWidget).pageCount() == 2  # French, then Prussian


@pytest.fixture
def folder(tmp_path):
    """A folder of its own for the exports (the window's campaign is in tmp_path)."""
    out = tmp_path / "exports"
    out.mkdir()
    return out


def test_export_writes_pdf_csv_and_json_by_the_files_suffix(window, folder):
    tmp_path = folder
    assert export_to(window, tmp_path / "davout.pdf", DAVOUT, "letter")
    _in_order(_text(tmp_path / "davout.pdf"), BRIGADES)
    assert export_to(window, tmp_path / "davout.json", DAVOUT)
    value = json.loads((tmp_path / "davout.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(value)
    assert [c["name"] for c in value["armies"][0]["corps"]] == [
        "4 Corps", "5 Corps", "6 Corps", "13 Polish Corps"]
    assert export_to(window, tmp_path / "north.csv", Choice("theatre", "Northern Germany"))
    assert (tmp_path / "north.csv").read_text(encoding="utf-8").count("Infantry Brigade") == 32
    assert sorted(p.name for p in tmp_path.iterdir()) == ["davout.json", "davout.pdf",
                                                           "north.csv"]


def test_export_over_a_file_asks_and_keeps_it_unless_the_umpire_says_yes(window, folder,
                                                                        monkeypatch):
    tmp_path = folder
    out = tmp_path / "oob.json"
    out.write_bytes(b"keep me")
    answers = []

    def ask(*_args, **_kw):
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", ask)
    answers.append(QMessageBox.StandardButton.No)
    assert not export_to(window, out, DAVOUT)
    assert out.read_bytes() == b"keep me"
    answers.append(QMessageBox.StandardButton.Yes)
    assert export_to(window, out, DAVOUT)
    assert json.loads(out.read_text(encoding="utf-8"))["scope"]["army"] == "Second French Army"
    out.write_bytes(b"keep me")
    assert not export_to(window, out, DAVOUT, replace=False)  # as when the dialog is declined
    assert out.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["oob.json"]


def test_export_to_an_unknown_kind_of_file_is_an_error_not_a_file(window, folder, qtbot):
    tmp_path = folder
    with qtbot.waitSignal(window.error_reported) as said:
        assert not export_to(window, tmp_path / "oob.docx", DAVOUT)
    assert said.args == ["Cannot export to oob.docx: name it .pdf, .html, .md, .csv or .json"]
    assert list(tmp_path.iterdir()) == []


def test_export_writes_html_and_markdown_by_the_command_lines_own_exporter(window, folder,
                                                                          capsys):
    """The window's save dialog and ``export oob`` share one exporter per format: the HTML
    and Markdown files the window writes are byte for byte those of the command line."""
    from campaign1813.campaign.cli import main as bare_main

    assert export_to(window, folder / "davout.html", DAVOUT)
    assert export_to(window, folder / "davout.md", DAVOUT)
    page = (folder / "davout.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count('<section class="unit') == 4
    text = (folder / "davout.md").read_text(encoding="utf-8")
    assert "| 13 | Infantry Brigade | A | B | A |  |" in text
    for fmt in ("html", "md"):
        out = folder / f"cli.{fmt}"
        assert bare_main(["export", "oob", str(window.document.path), "--army",
                          "Second French Army", f"--{fmt}", str(out)]) == 0
        assert out.read_bytes() == (folder / f"davout.{fmt}").read_bytes()
    capsys.readouterr()


def test_the_save_dialog_suggests_a_name_that_follows_the_file_type(window, qtbot):
    """Like the setup sheet's, the orders of battle's save dialog offers a file name: the
    army group, theatre or battle chosen, with the suffix of the file type picked."""
    assert print_oob.suggested_name(DAVOUT) == "orders-of-battle-second-french-army.pdf"
    assert print_oob.suggested_name(Choice("theatre", "Northern Germany"), "csv") == \
        "orders-of-battle-northern-germany.csv"
    assert print_oob.suggested_name(Choice("battle", battle=2), "md") == \
        "orders-of-battle-battle-2.md"
    assert print_oob.suggested_name(Choice("all"), "json") == "orders-of-battle.json"
    dialog = print_oob.save_dialog(window, DAVOUT)
    qtbot.addWidget(dialog)
    assert Path(dialog.selectedFiles()[0]).name == "orders-of-battle-second-french-army.pdf"
    assert Path(dialog.directory().absolutePath()) == window.document.path.parent.resolve()
    dialog.filterSelected.emit(print_oob.FILTERS["md"])
    assert Path(dialog.selectedFiles()[0]).name == "orders-of-battle-second-french-army.md"
    assert dialog.defaultSuffix() == "md"
