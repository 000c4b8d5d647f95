"""Campaign ▸ Diary and a battle's report in the window: filters by theatre and dates, a battle
as one entry with a link to its full report, Print… (Qt's print preview, printed here to a PDF
file through its QPrinter) and Export… (PDF, HTML, Markdown), Esc closes; the Day's Report is
not flooded by a battle's steps."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from campaign1813.campaign import queries, services
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.document_paper import PaperActions
from campaign1813.ui.operation import Operation
from tests.export.test_battle_in_diary import RESULT, fight, schedule
from tests.ui.test_day_actions import give


@pytest.fixture(scope="module")
def fought_file(tmp_path_factory, campaign_template):
    """The campaign with battle 1 (Magdeburg, 6 May 1813) fought at the table and finished;
    1 Corps is ordered to Erfurt (Central Germany) on 1 May, so the diary has two theatres."""
    path = tmp_path_factory.mktemp("diary") / "fought.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Erfurt")
        schedule(doc)
        fight(doc)
        services.battle_action(doc, 1, "finish")
    return path


@pytest.fixture
def fought(window, fought_file, tmp_path):
    path = tmp_path / "fought.c1813"
    shutil.copy(fought_file, path)
    assert window.open_file(path)
    return window


def _pdf_words(path) -> str:
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(path).pages)
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))  # "ﬁ" is "fi"


def _menu_action(window, menu: str, text: str):
    """An action of the window's menu bar, found as the umpire finds it: menu, then item."""
    bar = next(a.menu() for a in window.menuBar().actions() if a.text() == menu)
    return next(a for a in bar.actions() if a.text() == text)


def _paper_item(paper: PaperActions, what: str):
    """Print… or Export… (``what``) in the menu of the window the paper belongs to: the
    diary's Diary menu, a report's Report menu, the battle window's Report menu."""
    window = paper.parent()
    menus = [a.text() for a in window.menuBar().actions()]
    item = {"print": "&Print…", "export": "E&xport…"}[what]
    if "&Battle" in menus:
        item = item.replace("…", " Report…")
    return _menu_action(window, "&Diary" if "&Diary" in menus else "&Report", item)


def _print_to_pdf(paper: PaperActions, path) -> str:
    """Print… (from the window's menu) opens the preview; its printer prints to a PDF file,
    which is read back."""
    _paper_item(paper, "print").trigger()
    dialog = paper.preview
    assert dialog is not None and dialog.isVisible()
    printer: QPrinter = dialog.printer_kept
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    dialog.paintRequested.emit(printer)
    dialog.close()
    return _pdf_words(path)


def _export(paper: PaperActions, monkeypatch, path) -> None:
    """Export… with the save dialog answered: the file named, its question asked."""
    monkeypatch.setattr(paper, "ask_file", lambda _document: (str(path), True))
    _paper_item(paper, "export").trigger()
    assert path.exists()


def _diary(window):
    window.menus.diary_action.trigger()
    return window.diary_window


def test_esc_closes_the_diary_and_its_menu_has_print_and_export(window, qtbot):
    give(window, "5 Corps", "Move", "Helmstedt")
    diary = _diary(window)
    qtbot.waitExposed(diary)
    texts = [a.text() for a in diary.menuBar().actions()[0].menu().actions()
             if not a.isSeparator()]
    assert texts == ["&Print…", "E&xport…", "&Close"]
    assert "Order: 5 Corps – Move Helmstedt" in diary.text.toPlainText()
    diary.activateWindow()
    QTest.keyClick(diary.text, Qt.Key.Key_Escape)
    assert not diary.isVisible()


def test_the_filters_choose_a_theatre_and_days(fought):
    diary = _diary(fought)
    assert [diary.since.itemText(i) for i in range(diary.since.count())] == (
        ["the first day"] + [f"{d} May 1813" for d in range(1, 7)])
    diary.theatre.setCurrentIndex(diary.theatre.findData(Theatre.CENTRAL_GERMANY))
    text = diary.text.toPlainText()
    assert "Order: 1 Corps – Move Erfurt" in text and "Prussian" not in text
    diary.theatre.setCurrentIndex(diary.theatre.findData(Theatre.NORTHERN_GERMANY))
    diary.since.setCurrentIndex(diary.since.findText("6 May 1813"))
    text = diary.text.toPlainText()
    assert text.splitlines()[0] == "6 May 1813" and "1 Corps marched" not in text
    assert text.splitlines()[-len(RESULT):] == list(RESULT)
    # What is printed and exported is what is shown: the same theatre and days.
    document = diary.document()
    assert (document.title, document.date) == ("Campaign diary — Northern Germany",
                                               "6 May 1813")
    diary.until.setCurrentIndex(diary.until.findText("5 May 1813"))  # before "from": one day
    assert diary.chosen.until is None


def test_the_battle_is_one_entry_whose_link_opens_its_full_report(fought, qtbot, tmp_path,
                                                                 monkeypatch):
    diary = _diary(fought)
    text = diary.text.toPlainText()
    assert text.count("Full report: the battle of Magdeburg (6 May 1813), battle 1") == 1
    assert "Turn 1" not in text and "Sides: rolled" not in text
    assert 'href="report:1"' in diary.text.toHtml()
    diary.text.anchorClicked.emit(QUrl("report:1"))
    report = fought.report_windows[1]
    qtbot.waitExposed(report)
    assert report.windowTitle() == "Battle report: The battle of Magdeburg (6 May 1813)"
    shown = report.report.toPlainText()
    assert "Sides: rolled 5 – side A: Allied" in shown
    # Report ▸ Print… and Export… put the whole report on paper.
    words = _print_to_pdf(report.paper, tmp_path / "printed.pdf")
    assert "Battle report: The battle of Magdeburg (6 May 1813)" in words
    assert "Sides: rolled 5 – side A: Allied" in words
    assert "The battle is finished: the Allied win" in words
    _export(report.paper, monkeypatch, tmp_path / "report.md")
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Battle report: The battle of Magdeburg (6 May 1813)\n")
    assert "## Turn 2 of 12" in md
    QTest.keyClick(report.report, Qt.Key.Key_Escape)
    assert not report.isVisible()


def test_the_diary_printed_and_exported_from_the_window(fought, tmp_path, monkeypatch):
    diary = _diary(fought)
    words = _print_to_pdf(diary.paper, tmp_path / "printed.pdf")
    for line in ("Campaign diary", "Order: 1 Corps – Move Erfurt",
                 "the battle of Magdeburg (6 May 1813): the Allied win; they take Magdeburg.",
                 "export report --battle 1"):
        assert line in words
    assert "Sides: rolled" not in words
    diary.theatre.setCurrentIndex(diary.theatre.findData(Theatre.CENTRAL_GERMANY))
    for suffix in ("pdf", "html", "md"):
        _export(diary.paper, monkeypatch, tmp_path / f"diary.{suffix}")
    assert "Campaign diary — Central Germany" in _pdf_words(tmp_path / "diary.pdf")
    page = (tmp_path / "diary.html").read_text(encoding="utf-8")
    assert "<h1>Campaign diary — Central Germany</h1>" in page and "Prussian" not in page
    md = (tmp_path / "diary.md").read_text(encoding="utf-8")
    assert md.startswith("# Campaign diary — Central Germany\n")
    assert "Order: 1 Corps – Move Erfurt" in md
    # A name the window cannot write is refused in the status line, and no file is made.
    assert not diary.paper.export_to(tmp_path / "diary.txt")
    assert "name it .pdf, .html or .md" in diary.statusBar().currentMessage()
    assert not (tmp_path / "diary.txt").exists()


def test_the_battle_window_prints_and_exports_its_report(fought, qtbot, tmp_path,
                                                        monkeypatch):
    battle = fought.open_battle_window(1)
    texts = [a.text() for a in battle.menuBar().actions()]
    assert "&Report" in texts
    menu = battle.menuBar().actions()[texts.index("&Report")].menu()
    assert [a.text() for a in menu.actions()] == ["&Print Report…", "E&xport Report…"]
    words = _print_to_pdf(battle.paper, tmp_path / "battle.pdf")
    assert "I Prussian Corps Artillery shoots at 19 Infantry Brigade (5 Corps)" in words
    _export(battle.paper, monkeypatch, tmp_path / "battle.html")
    assert "<h2>Turn 1 of 12</h2>" in (tmp_path / "battle.html").read_text(encoding="utf-8")
    battle.close()


def test_the_days_report_keeps_a_battles_result_not_its_steps(window, qtbot):
    doc = window.document
    schedule_changes = Operation(window.campaign, lambda d: services.issue_order(
        d, "I Prussian Corps", "Attack", "Magdeburg")).perform()
    assert schedule_changes.label.startswith("Order: I Prussian Corps")
    for _ in range(6):
        Operation(window.campaign, lambda d: services.end_day(d)).perform()
    before = window.report_pane.toPlainText().splitlines()

    def step(_doc, battle, action, **inputs):
        return Operation(window.campaign, lambda d: services.battle_action(
            d, battle, action, **inputs)).perform()

    def setup(_doc, battle, **inputs):
        return Operation(window.campaign, lambda d: services.open_battle(
            d, battle, **inputs)).perform()

    fight(doc, step, setup)
    added = window.report_pane.toPlainText().splitlines()[len(before):]
    assert added == ["Open the battle of Magdeburg (6 May 1813) on the table"]
    step(doc, 1, "finish")
    added = window.report_pane.toPlainText().splitlines()[len(before) + 1:]
    assert added == ["— Result: the battle of Magdeburg (6 May 1813): Allied —",
                     *(f"  {line}" for line in RESULT[:-1]),
                     "  The battle's full report is kept with it: Campaign ▸ Diary links "
                     "to it."]
    assert queries.battle_report(doc, 1).lines[-1].startswith("The battle is finished")


def test_a_report_window_follows_undo_and_closes_with_its_campaign(fought, qtbot,
                                                                  fresh_campaign, tmp_path):
    report = fought.show_report(1)
    qtbot.waitExposed(report)
    assert report.report.lines[-1].startswith("The battle is finished")
    fought.undo_action.trigger()  # the finish: the battle is back on the table, decided
    assert report.report.lines[-1].startswith("Result: the Allied win")
    diary = _diary(fought)
    assert "Full report" not in diary.text.toPlainText()
    assert fought.open_file(fresh_campaign(tmp_path / "other.c1813"))
    assert not report.isVisible()


def test_export_suggests_a_name_whose_suffix_follows_the_file_type(fought, qtbot, tmp_path):
    report = fought.show_report(1)
    seen = []

    def answer():
        dialog = next(w for w in QApplication.topLevelWidgets()
                      if isinstance(w, QFileDialog) and w.isVisible())
        seen.append(Path(dialog.selectedFiles()[0]).name)
        dialog.selectNameFilter("Markdown (*.md)")
        dialog.filterSelected.emit("Markdown (*.md)")
        seen.append(Path(dialog.selectedFiles()[0]).name)
        dialog.accept()

    QTimer.singleShot(200, answer)
    assert report.paper.export()
    assert seen == ["Battle report - The battle of Magdeburg (6 May 1813).pdf",
                    "Battle report - The battle of Magdeburg (6 May 1813).md"]
    written = fought.document.path.parent / seen[1]
    assert written.read_text(encoding="utf-8").startswith("# Battle report: The battle of")
