"""The campaign's history for the club's blog (record 0030): one folder, whole and offline.

``write_history`` writes, for every day of the campaign's history (``queries.campaign_days``):
the map of a theatre as it stood that day, as PNG and SVG (drawn by the installed painter from
the same scene as the window's History), the day's report and battles in words, an
``index.html`` with a day slider (plain HTML with a little inline script, no network: every day
is also written out in the page, so it reads without the script too), and ``history.pdf`` with
one page per day. For a side (``side``) every word and every picture is built from that side's
view of each day, never from the umpire's: what it knew then, and no more.

The campaign layer never imports Qt: the painter (:class:`HistoryPainter`) is given from above
(the window's, or the console's installed one).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from html import escape
from pathlib import Path
from typing import Protocol, runtime_checkable

import msgspec

from campaign1813.campaign import queries
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.maps.types import Theatre

__all__ = ["HistoryDay", "HistoryPainter", "history_days", "index_html", "write_history"]


class HistoryDay(msgspec.Struct, frozen=True):
    """One day of the history as the folder shows it: its date, title, pictures and words."""

    day: date
    title: str
    png: str
    svg: str
    report: tuple[str, ...]
    battles: tuple[str, ...]


@runtime_checkable
class HistoryPainter(Protocol):
    """What draws the history's pictures and its PDF (Qt's, installed from above)."""

    def history_map(self, doc: CampaignStore, day: date, theatre: Theatre | None,
                    side: Side | None, title: str) -> tuple[bytes, bytes]:
        """A day's map (PNG, SVG): the theatre's commands as they stood, its battles."""
        ...

    def history_pdf(self, title: str, pages: Sequence[tuple[HistoryDay, bytes]],
                    paper_size: str) -> bytes:
        """The history as PDF: one page per day, its picture (PNG bytes) and its words."""
        ...


def history_days(doc: CampaignStore, theatre: Theatre | None,
                 side: Side | None) -> list[HistoryDay]:
    """Every day of the history with its words: the umpire's diary of the day and its
    battles, or, for a side, the side's own report of the day and the battles it fought."""
    days = queries.campaign_days(doc)
    where = "the whole map" if theatre is None else theatre.value
    people = "French" if side is Side.FRENCH else "Allies"
    whose = "" if side is None else f", as the {people} knew it"
    diary = queries.reports_by_day(doc) if side is None else {}
    marks = queries.day_marks(doc) if side is None else {}  # the umpire's own, never a side's
    battles = queries.battles_by_day(doc)
    towns = {t.name: t.theatre for t in doc.scenario().map.towns}
    out = []
    for day in days:
        if side is None:
            report = diary.get(day, ())
            mark = marks.get(day)
            if mark is not None and mark.note:
                report = (f"The umpire's note: {mark.note}", *report)
            fought = battles.get(day, ())
        else:
            view = queries.side_view_on(doc, side, day)
            report = view.day_report
            fought = battles.get(day, ())  # both sides fought it: both know it and its end
        fought = tuple(b for b in fought if theatre is None or towns.get(b.place) is theatre)
        iso = day.isoformat()
        out.append(HistoryDay(
            day, f"{format_date(day)} — {where}{whose}", f"day-{iso}.png", f"day-{iso}.svg",
            tuple(report),
            tuple(f"{b.title}: {b.result or 'no result yet'}" for b in fought)))
    return out


def write_history(doc: CampaignStore, out: Path, theatre: Theatre | None, side: Side | None,
                  painter: HistoryPainter, *, paper_size: str = "a4",
                  force: bool = False) -> list[Path]:
    """Write the history folder (refused if ``out`` holds a history already, unless
    ``force``); the files written, ``index.html`` first."""
    if out.exists() and not out.is_dir():
        raise CampaignError(f"{out}: not a folder; the history is a folder of pictures and pages")
    if (out / "index.html").exists() and not force:
        raise CampaignError(f"{out}: holds a history already; choose another folder (or force)")
    out.mkdir(parents=True, exist_ok=True)
    days = history_days(doc, theatre, side)
    name = doc.summary().name
    written: list[Path] = []
    pages: list[tuple[HistoryDay, bytes]] = []
    for day in days:
        png, svg = painter.history_map(doc, day.day, theatre, side, day.title)
        for file, data in ((day.png, png), (day.svg, svg)):
            write_new(out / file, data, force=True)
            written.append(out / file)
        pages.append((day, png))
    title = f"{name} — {'the whole map' if theatre is None else theatre.value}"
    write_new(out / "history.pdf", painter.history_pdf(title, pages, paper_size), force=True)
    write_new(out / "index.html", index_html(title, days).encode(), force=True)
    return [out / "index.html", out / "history.pdf", *written]


_SCRIPT = """
const days = JSON.parse(document.getElementById("days").textContent);
const slider = document.getElementById("slider");
function show(i) {
  i = Math.max(0, Math.min(days.length - 1, i));
  slider.value = i;
  document.querySelectorAll("section.day").forEach(
    (s, n) => { s.style.display = n === i ? "block" : "none"; });
  document.getElementById("shown").textContent = days[i] + " (" + (i + 1) + " of "
    + days.length + ")";
}
slider.addEventListener("input", () => show(Number(slider.value)));
document.getElementById("back").addEventListener("click", () => show(Number(slider.value) - 1));
document.getElementById("forward").addEventListener(
  "click", () => show(Number(slider.value) + 1));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") show(Number(slider.value) - 1);
  if (e.key === "ArrowRight") show(Number(slider.value) + 1);
});
document.getElementById("controls").style.display = "block";
show(days.length - 1);
"""

_STYLE = """
body { font-family: Georgia, serif; max-width: 1100px; margin: 1em auto; color: #2b2118;
       background: #fbf8f0; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; border-bottom: 1px solid #c9b99a; }
#controls { display: none; margin: 1em 0; } #slider { width: 60%; }
img { max-width: 100%; border: 1px solid #3b3127; }
.battles li { font-weight: bold; } .day { margin-bottom: 2em; }
"""


def index_html(title: str, days: Sequence[HistoryDay]) -> str:
    """The history's page: a day slider over every day's picture and words (each day written
    out, so the page reads without its script too); no address outside the folder."""
    labels = json.dumps([format_date(d.day) for d in days]).replace("</", "<\\/")
    sections = []
    for d in days:
        report = "".join(f"<li>{escape(line)}</li>" for line in d.report) or \
            "<li>Nothing was done on this day.</li>"
        battles = "".join(f"<li>{escape(line)}</li>" for line in d.battles)
        sections.append(
            f'<section class="day" id="{d.day.isoformat()}">\n<h2>{escape(d.title)}</h2>\n'
            f'<p><a href="{d.svg}"><img src="{d.png}" alt="The map on {escape(d.title)}"></a></p>\n'
            + (f'<h3>Battles</h3>\n<ul class="battles">{battles}</ul>\n' if battles else "")
            + f"<h3>The day's report</h3>\n<ul>{report}</ul>\n</section>")
    last = max(len(days) - 1, 0)
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n"
        f'<div id="controls"><button id="back">&#9664; Back</button> '
        f'<input type="range" id="slider" min="0" max="{last}" value="{last}"> '
        f'<button id="forward">Forward &#9654;</button> <span id="shown"></span></div>\n'
        + "\n".join(sections)
        + f'\n<script type="application/json" id="days">{labels}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n")
