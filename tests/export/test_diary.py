"""The diary as Markdown, HTML and PDF, by theatre and dates, and a battle's full report.

The campaign is the one of ``test_setup_sheet``: from 1 May I Prussian Corps force-marches on
Magdeburg (Northern Germany) and meets 5 Corps there on 5 May; from 3 May 1 Corps marches from
Fulda on Erfurt (Central Germany). In the ``fought`` copy the battle is auto-resolved on 5 May:
the diary has its result and a reference to its full report, which is a paper of its own in
seed 000's move-by-move form ("Move 1 – Prussian – I Prussian Corps (chip 2)", its orders and
pips, then what was done).
"""

from __future__ import annotations

import html
import io
import re
import shutil
import unicodedata
from datetime import date

import pypdf
import pytest

from campaign1813.campaign import services
from campaign1813.campaign.cli import main as bare_main
from campaign1813.campaign.export.diary import (
    DiaryError,
    DiaryFilter,
    campaign_diary,
    campaign_report,
    diary_document,
    find_theatre,
    parse_day,
    report_document,
)
from campaign1813.campaign.export.document import Heading, Paragraph
from campaign1813.campaign.export.formats import document_bytes
from campaign1813.campaign.export.render import document_html, document_markdown
from campaign1813.campaign.queries import BattleReport, DiaryEntry
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.paper import QtPaper
from campaign1813.ui.paper.layout import MARGINS_MM

from .pdf_reading import glyphs_outside, pdf_text, squeezed
from .test_setup_sheet import campaign_files_fixture as _campaign_files  # noqa: F401

NORTH, CENTRE = Theatre.NORTHERN_GERMANY, Theatre.CENTRAL_GERMANY


def _diary(path, chosen: DiaryFilter | None = None):
    with open_campaign(path) as doc:
        return campaign_diary(doc, chosen or DiaryFilter())


def _days_md(text: str) -> list[str]:
    return re.findall(r"^## (\d{1,2} \w+ 1813)$", text, re.MULTILINE)


def test_a_theatre_and_dates_hold_exactly_their_days_in_markdown(campaign_files):
    central = document_markdown(_diary(campaign_files["scheduled"],
                                       DiaryFilter(CENTRE, since=date(1813, 5, 4))))
    assert _days_md(central) == ["4 May 1813", "5 May 1813"]
    assert central.startswith("# Campaign diary — Central Germany\n")
    assert "*The 1813 Campaign — 4 May 1813 – 5 May 1813*" in central
    assert "1 Corps marched 15 miles" in central
    assert "Prussian" not in central and "ends." not in central
    north = document_markdown(_diary(campaign_files["scheduled"],
                                     DiaryFilter(NORTH, until=date(1813, 5, 2))))
    assert _days_md(north) == ["1 May 1813", "2 May 1813"]
    assert north.count("I Prussian Corps force-marched") == 2
    assert "1 Corps" not in north.replace("I Prussian Corps", "")
    # The whole diary: every day from 1 to 5 May, with the days' closing lines.
    whole = document_markdown(_diary(campaign_files["scheduled"]))
    assert _days_md(whole) == [f"{d} May 1813" for d in range(1, 6)]
    assert "4 May 1813 ends." in whole
    # Central Germany's first day is 3 May, when 1 Corps had its orders.
    first = document_markdown(_diary(campaign_files["scheduled"], DiaryFilter(CENTRE)))
    assert _days_md(first) == ["3 May 1813", "4 May 1813", "5 May 1813"]
    assert "Order: 1 Corps – Move Erfurt" in first


def _report(path, battle=1):
    with open_campaign(path) as doc:
        return campaign_report(doc, battle)


LINK = ("Full report: the battle of Magdeburg (5 May 1813), battle 1 (its own paper: "
        "Report ▸ Export… in the battle window, or export report --battle 1)")


def test_the_battle_is_one_entry_of_its_theatre_that_refers_to_its_report(campaign_files):
    md = document_markdown(_diary(campaign_files["fought"], DiaryFilter(NORTH)))
    fifth = md.split("## 5 May 1813", 1)[1]
    assert fifth.count("the battle of Magdeburg (5 May 1813)") == 3  # scheduled, result, link
    assert fifth.rstrip().endswith(LINK)
    assert "Move 1 –" not in md and "Turn 1" not in md and "Battle report" not in md
    assert _days_md(md) == [f"{d} May 1813" for d in range(1, 6)]
    central = document_markdown(_diary(campaign_files["fought"], DiaryFilter(CENTRE)))
    assert "Full report" not in central and "Move 1 –" not in central
    # The report itself, move by move, is its own paper.
    report = document_markdown(_report(campaign_files["fought"]))
    assert report.startswith("# Battle report: The battle of Magdeburg (5 May 1813)\n")
    assert "## Turn 1 of 12" in report
    assert "### Move 1 – Prussian – I Prussian Corps (chip 2)" in report
    body = report.split("### Move 1 – Prussian – I Prussian Corps (chip 2)", 1)[1]
    assert body.lstrip().startswith("Orders: Attack")


def test_html_holds_the_same_days_and_the_report_its_turns(campaign_files):
    page = document_html(_diary(campaign_files["fought"],
                                DiaryFilter(NORTH, date(1813, 5, 4), date(1813, 5, 5))))
    heads = [html.unescape(h) for h in re.findall(r"<h2>([^<]*)</h2>", page)]
    assert heads == ["4 May 1813", "5 May 1813"]
    assert html.escape(LINK, quote=True) in page
    report = document_html(_report(campaign_files["fought"]))
    assert "<h1>Battle report: The battle of Magdeburg (5 May 1813)</h1>" in report
    assert "<h2>Turn 1 of 12</h2>" in report
    assert "<h3>Move 1 – Prussian – I Prussian Corps (chip 2)</h3>" in report


def test_a_report_fought_at_the_table_keeps_its_own_title():
    report = BattleReport(4, "the battle of Helmstedt (2 May 1813)", date(1813, 5, 2), (
        "The battle of Helmstedt (2 May 1813)", "Rules: 1813; 12 turns to the battle day",
        "Turn 1 of 12", "Move 1 – French – 4 Corps (chip 2)", "Orders: Engage",
        "Artillery fire on square (3) miss", "Turn 2 of 12", "Move 1 – Poor Card"))
    doc = report_document(report, campaign="Spring")
    assert (doc.title, doc.header) == ("Battle report: The battle of Helmstedt (2 May 1813)",
                                       "Spring — 2 May 1813")
    assert list(doc.blocks()) == [Paragraph("Rules: 1813; 12 turns to the battle day"),
                                  Heading("Turn 1 of 12", 1),
                                  Heading("Move 1 – French – 4 Corps (chip 2)", 2),
                                  Paragraph("Orders: Engage"),
                                  Paragraph("Artillery fire on square (3) miss"),
                                  Heading("Turn 2 of 12", 1), Heading("Move 1 – Poor Card", 2)]
    # On paper the report is kept together a turn at a time, the sides with turn 1.
    assert [len(u.blocks) for u in doc.units] == [5, 2]
    # In the diary the battle is its lines and the link; the link names the battle's number.
    entries = [DiaryEntry(date(1813, 5, 2), 4, "the battle of Helmstedt (2 May 1813): the "
                          "Allies win."),
               DiaryEntry(date(1813, 5, 2), 4, "Full report: the battle of Helmstedt (2 May "
                          "1813), battle 4", 4)]
    diary = diary_document(entries, campaign="Spring", places={"Helmstedt": NORTH},
                           chosen=DiaryFilter(NORTH))
    assert list(diary.blocks())[-1] == Paragraph(
        "Full report: the battle of Helmstedt (2 May 1813), battle 4 (its own paper: Report ▸ "
        "Export… in the battle window, or export report --battle 4)")
    # "II Prussian Corps" is not "I Prussian Corps": names are matched whole.
    other = diary_document([DiaryEntry(date(1813, 5, 2), 1, "II Prussian Corps rests")],
                           campaign="Spring",
                           places={"I Prussian Corps": NORTH, "II Prussian Corps": CENTRE},
                           chosen=DiaryFilter(NORTH))
    assert [b for b in other.blocks()] == [Paragraph("Nothing in the diary for these days.")]


def test_dates_and_theatres_are_read_or_refused_in_one_line():
    assert parse_day("2 May 1813") == parse_day("1813-05-02") == date(1813, 5, 2)
    assert find_theatre("central germany") is CENTRE
    with pytest.raises(DiaryError, match="--from 'May the 2nd': not a date"):
        parse_day("May the 2nd", "--from")
    with pytest.raises(DiaryError, match="theatre 'Spain': not a theatre"):
        find_theatre("Spain")
    with pytest.raises(DiaryError, match="comes after"):
        DiaryFilter(since=date(1813, 5, 5), until=date(1813, 5, 1))


@pytest.mark.usefixtures("qapp")
def test_the_diary_as_pdf_holds_the_days(campaign_files):
    from campaign1813.ui.paper import QtPaper

    document = _diary(campaign_files["fought"], DiaryFilter(CENTRE))
    data = QtPaper().pdf(document, "a4")
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pages))
    for day in ("3 May 1813", "4 May 1813", "5 May 1813"):
        assert day in text
    assert "1 May 1813" not in text and "Battle report" not in text


@pytest.mark.usefixtures("qapp")
def test_export_diary_on_the_command_line(campaign_files, tmp_path, capsys):
    from campaign1813.ui.console import main

    f = str(campaign_files["fought"])
    md, page, pdf = tmp_path / "d.md", tmp_path / "d.html", tmp_path / "d.pdf"
    assert bare_main(["export", "diary", f, "--md", str(md), "--theatre", "Central Germany",
                      "--from", "4 May 1813", "--to", "1813-05-04"]) == 0
    assert _days_md(md.read_text(encoding="utf-8")) == ["4 May 1813"]
    assert bare_main(["export", "diary", f, "--html", str(page)]) == 0
    assert html.escape(LINK, quote=True) in page.read_text(encoding="utf-8")
    assert main(["export", "diary", f, "--pdf", str(pdf), "--paper", "letter"]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    # An existing file is never replaced without --force, and is left as it was.
    md.write_text("kept", encoding="utf-8")
    assert bare_main(["export", "diary", f, "--md", str(md)]) == 1
    assert "exists; use --force" in capsys.readouterr().err
    assert md.read_text(encoding="utf-8") == "kept"
    assert bare_main(["export", "diary", f, "--md", str(md), "--force"]) == 0
    assert _days_md(md.read_text(encoding="utf-8")) == [f"{d} May 1813" for d in range(1, 6)]
    assert bare_main(["export", "diary", f, "--md", str(tmp_path / "x.md"),
                      "--from", "soon"]) == 1
    assert "--from 'soon': not a date" in capsys.readouterr().err
    assert not (tmp_path / "x.md").exists()


@pytest.mark.usefixtures("qapp")
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("paper_of", ["diary", "report"])
def test_every_word_of_the_diary_is_in_its_pdf_inside_the_margins(campaign_files, paper,
                                                                    paper_of):
    """The diary PDF and its battle's report lose nothing: every line of the whole diary, and
    of the report (headings, moves, results), is in the PDF's text, in order, and no letter is
    set in a page's margin."""
    if paper_of == "diary":
        document = _diary(campaign_files["fought"])
    else:
        with open_campaign(campaign_files["fought"]) as doc:
            document = campaign_report(doc, 1)
    data = QtPaper().pdf(document, paper)
    assert glyphs_outside(data, MARGINS_MM.left(), MARGINS_MM.right()) == []
    text, flat = pdf_text(data), squeezed(pdf_text(data))
    lines = [b.text for b in document.blocks() if isinstance(b, Heading | Paragraph)]
    assert len(lines) > 20
    at = 0
    for line in lines:
        found = flat.find(squeezed(line), at)
        assert found >= 0, f"not in the PDF after what precedes it: {line!r}"
        at = found + len(squeezed(line))
        for word in line.split():
            assert unicodedata.normalize("NFKC", word) in text


REASON = ("Yorck's columns carried the Sudenburg suburb and the bridgehead at dusk while "
          "Kleist's cavalry rode round the Elbe crossing and cut the Burg road behind "
          "Lauriston's rearguard")


@pytest.mark.usefixtures("qapp")
def test_the_umpires_decision_and_the_result_wrap_whole_in_the_pdf(campaign_files, tmp_path):
    """A battle decided at the table by the umpire: its report's bold "The umpire decides…" and
    "Result: …" lines, each longer than a line, wrap inside the margins, and every word of
    the umpire's reason is in the PDF's text (it once ran off the page at "…Kleist's
    cavalry r")."""
    path = tmp_path / "decided.c1813"
    shutil.copy(campaign_files["scheduled"], path)
    with open_campaign(path) as doc:
        services.open_battle(doc, 1)
        services.battle_action(doc, 1, "override", side="Allied", reason=REASON)
        services.finish_battle(doc, 1)
    with open_campaign(path) as doc:
        document = campaign_report(doc, 1)
    heads = [b.text for b in document.blocks() if isinstance(b, Heading)]
    decides = f"The umpire decides: Allied win ({REASON})"
    assert decides in heads
    assert any(h.startswith("Result: the Allied win") and REASON in h for h in heads)
    # the exporter the command line and a window call
    data = document_bytes(document, "pdf", "a4", QtPaper())
    assert data.startswith(b"%PDF")
    assert glyphs_outside(data, MARGINS_MM.left(), MARGINS_MM.right()) == []
    flat = squeezed(pdf_text(data))
    assert squeezed(decides) in flat
    assert flat.count(squeezed(REASON)) == 2  # in the decision and in the result
def test_export_report_on_the_command_line(campaign_files, tmp_path, capsys):
    from campaign1813.ui.console import main

    md, pdf = tmp_path / "r.md", tmp_path / "r.pdf"
    assert bare_main(["export", "report", str(campaign_files["fought"]), "--battle", "1",
                      "--md", str(md)]) == 0
    assert "### Move 1 – Prussian – I Prussian Corps (chip 2)" in md.read_text(encoding="utf-8")
    assert main(["export", "report", str(campaign_files["fought"]), "--battle", "1",
                 "--pdf", str(pdf)]) == 0
    text = re.sub(r"\s+", " ", " ".join(
        p.extract_text() for p in pypdf.PdfReader(pdf).pages))
    assert "Move 1 – Prussian – I Prussian Corps (chip 2)" in text
    # A battle not yet fought has no report: refused in one line, no file written.
    capsys.readouterr()
    assert bare_main(["export", "report", str(campaign_files["scheduled"]), "--battle", "1",
                      "--md", str(tmp_path / "none.md")]) == 1
    assert ("battle 1 (the battle of Magdeburg (5 May 1813)) has no report: it has been "
            "neither fought on the table nor auto-resolved") in capsys.readouterr().err
    assert not (tmp_path / "none.md").exists()
    assert bare_main(["export", "report", str(campaign_files["scheduled"]), "--battle", "9",
                      "--md", str(tmp_path / "none.md")]) == 1
    assert "battle 9: there is no such battle in the campaign" in capsys.readouterr().err
