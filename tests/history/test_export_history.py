"""``export history`` (record 0030): the campaign day by day as a folder for the club's blog —
a map a day (PNG and SVG), the day's words, index.html with a day slider that works offline,
and a PDF with a page a day; as a side, only what that side knew."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QSettings

from campaign1813.campaign import queries
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.console import main
from campaign1813.ui.main_window import MainWindow
from tests.history.scripted import play

DAYS = tuple(date(1813, 5, d) for d in range(1, 6))


@pytest.fixture(scope="module")
def four_days(tmp_path_factory, campaign_template) -> Path:
    """The campaign played four days in Northern Germany (fog on): 1 to 5 May."""
    path = tmp_path_factory.mktemp("four") / "four.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        play(doc, Theatre.NORTHERN_GERMANY, 4)
    return path


class _Page(HTMLParser):
    """What a page names: pictures, links, scripts' sources, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.sources: list[str] = []
        self.sections: list[str] = []
        self.slider: dict[str, str | None] | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "img":
            self.images.append(str(found["src"]))
        if tag == "a":
            self.links.append(str(found["href"]))
        if tag == "script" and "src" in found:
            self.sources.append(str(found["src"]))
        if tag == "section":
            self.sections.append(str(found["id"]))
        if tag == "input" and found.get("type") == "range":
            self.slider = found

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_the_history_folder_names_only_what_it_holds_and_works_offline(four_days, tmp_path,
                                                                       capsys):
    """Every picture and link the page names is in the folder, a section and a slider stop
    for each of the five days, no address outside the folder; the SVGs are SVG, the PDF has a
    page a day and its pages render."""
    out = tmp_path / "history"
    assert main(["export", "history", str(four_days), str(out), "--theatre",
                 "Northern Germany"]) == 0
    assert capsys.readouterr().out == f"wrote {out}: 5 days, index.html and history.pdf\n"
    page = _parsed(out / "index.html")
    assert page.sections == [d.isoformat() for d in DAYS]
    assert page.images == [f"day-{d.isoformat()}.png" for d in DAYS]
    assert page.links == [f"day-{d.isoformat()}.svg" for d in DAYS]
    assert all((out / name).is_file() for name in page.images + page.links)
    assert page.sources == []
    assert page.slider is not None and (page.slider["min"], page.slider["max"]) == ("0", "4")
    html = (out / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"(https?:)?//", html)  # nothing fetched from anywhere
    text = "".join(page.text)
    assert "3 May 1813 — Northern Germany" in text and "The day's report" in text
    for name in page.links:
        assert ElementTree.parse(out / name).getroot().tag.endswith("svg")
    # the towns' names are words in the SVG (a reader finds them), not outlines of letters
    root = ElementTree.parse(out / page.links[0]).getroot()
    words = {"".join(t.itertext()).strip() for t in root.iter() if t.tag.endswith("text")}
    assert {"Magdeburg", "Berlin", "Leipzig", "Elbe"} <= words
    assert (out / page.links[0]).stat().st_size < 3_000_000
    assert (out / page.images[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    reader = PdfReader(out / "history.pdf")
    assert len(reader.pages) == 5
    assert "3 May 1813" in " ".join(reader.pages[2].extract_text().split())
    subprocess.run(["pdftoppm", "-r", "30", "-png", "-f", "3", "-l", "3",
                    str(out / "history.pdf"), str(tmp_path / "page")], check=True)
    assert (tmp_path / "page-3.png").stat().st_size > 1000
    assert main(["export", "history", str(four_days), str(out), "--theatre",
                 "Northern Germany"]) == 1  # a history there already: refused without --force


def test_a_sides_history_names_only_the_enemy_it_was_told_of(four_days, tmp_path):
    """As the French, the words of the history name no Allied command the French were never
    told of, and every page is marked as theirs."""
    out = tmp_path / "french"
    assert main(["export", "history", str(four_days), str(out), "--theatre",
                 "Northern Germany", "--side", "french"]) == 0
    with open_campaign(four_days) as doc:
        allied = {c.name for c in queries.day_state(doc).ordered() if c.side is Side.ALLIED}
        told = {r.subject for day in DAYS for r in queries.state_on(doc, day).reports.values()
                if r.side == Side.FRENCH.value and r.released}
    page = _parsed(out / "index.html")
    words = "".join(page.text)
    assert "as the French knew it" in words
    named = {name for name in allied if re.search(rf"\b{re.escape(name)}\b", words)}
    assert named <= told
    assert allied - told  # there were Allied commands the French never saw: none is named


def test_file_export_history_writes_the_theatre_the_map_shows(four_days, tmp_path, qtbot):
    """File ▸ Export History… writes the history of the theatre the window's map shows."""
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    assert window.open_file(four_days)
    assert window.menus.history_export_action.isEnabled()
    window.campaign_view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    written = window.export_history(tmp_path / "blog")
    window.document.close()
    assert written[:2] == [tmp_path / "blog" / "index.html", tmp_path / "blog" / "history.pdf"]
    assert len(written) == 2 + 2 * len(DAYS)
    assert "5 May 1813 — Northern Germany" in (tmp_path / "blog" / "index.html").read_text(
        encoding="utf-8")
