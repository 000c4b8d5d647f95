"""The campaign diary, by theatre and dates, and a battle's full report, as printable documents.

:func:`diary_document` turns the diary's dated lines into a
:class:`~campaign1813.campaign.export.document.Document`: a section for each day. A battle is
one entry of its day: its result, and one line that refers to its full report, which is a
document of its own (:func:`report_document`) in the rules' move-by-move form (the battle, then
each turn, each move with its lines, then the result). Both are rendered to Markdown and HTML
(``render.py``) and to PDF by the installed paper, for the command line and the window alike.

A theatre's diary keeps the lines that name one of its commands or towns; the days' closing
lines, which name nothing, belong to the whole campaign and go only into the whole diary.

>>> parse_day("1813-05-02"), parse_day("2 May 1813")
(datetime.date(1813, 5, 2), datetime.date(1813, 5, 2))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from itertools import groupby

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.export.document import Block, Document, Heading, Paragraph, Unit
from campaign1813.campaign.export.formats import document_bytes
from campaign1813.campaign.export.paper import Paper
from campaign1813.campaign.queries import (
    BattleReport,
    DiaryEntry,
    battle_report,
    campaign_status,
    diary,
)
from campaign1813.campaign.store.protocol import REPORT_MARK, CampaignStore
from campaign1813.errors import CampaignError
from campaign1813.maps.types import Theatre

__all__ = ["DiaryFilter", "diary_document", "campaign_diary", "diary_bytes", "parse_day",
           "find_theatre", "REPORT_MARK", "report_document", "campaign_report",
           "report_reference", "chosen_entries", "diary_places"]

_TURN = re.compile(r"Turn \d+ of \d+")
_PHASE = re.compile(r"Turn \d+ – ")  # a phase of a ruleset that plays by phases (002)
_MOVE_HEADS = ("Move ", "Night falls", "Result:", "At nightfall", "The umpire decides")


class DiaryError(CampaignError):
    """A diary asked for with dates or a theatre that cannot be read."""


def parse_day(text: str, what: str = "date") -> date:
    """A campaign date written ``1813-05-02`` or ``2 May 1813``."""
    words = text.strip()
    for fmt in ("%Y-%m-%d", "%d %B %Y", "%d %b %Y"):
        try:
            return datetime.strptime(words, fmt).date()
        except ValueError:
            continue
    raise DiaryError(f"{what} '{text}': not a date; write 1813-05-02 or 2 May 1813")


def find_theatre(name: str) -> Theatre:
    """A theatre by its name, in any case; refused naming the theatres there are."""
    for theatre in Theatre:
        if theatre.value.casefold() == name.strip().casefold():
            return theatre
    known = ", ".join(t.value for t in Theatre)
    raise DiaryError(f"theatre '{name}': not a theatre of the campaign ({known})")


@dataclass(frozen=True)
class DiaryFilter:
    """Which part of the diary: one theatre or all, from and to a date (both included)."""

    theatre: Theatre | None = None
    since: date | None = None
    until: date | None = None

    def __post_init__(self) -> None:
        if self.since and self.until and self.since > self.until:
            raise DiaryError(f"--from {format_date(self.since)} comes after --to "
                             f"{format_date(self.until)}")

    def takes(self, day: date) -> bool:
        """Whether a day is in the range."""
        return (self.since is None or day >= self.since) and (
            self.until is None or day <= self.until)

    @property
    def title(self) -> str:
        """``Campaign diary — Northern Germany``."""
        text = "Campaign diary"
        return f"{text} — {self.theatre.value}" if self.theatre else text

    def range_text(self, first: date | None, last: date | None) -> str:
        """``2 May 1813 – 4 May 1813``: the dates asked for, else those the diary holds."""
        a, b = self.since or first, self.until or last
        if a is None or b is None:
            return ""
        return format_date(a) if a == b else f"{format_date(a)} – {format_date(b)}"


class _Places:
    """Finds which theatres a line names, by its commands and towns."""

    def __init__(self, names: Mapping[str, Theatre]) -> None:
        self.names = {n.casefold(): t for n, t in names.items()}
        ordered = sorted(names, key=len, reverse=True)  # "II Prussian Corps" before "I …"
        self.pattern = (re.compile("(?<![\\w])(" + "|".join(re.escape(n) for n in ordered)
                                   + ")(?![\\w])", re.IGNORECASE) if ordered else None)

    def theatres(self, line: str) -> set[Theatre]:
        """The theatres of everything the line names."""
        if self.pattern is None:
            return set()
        return {self.names[m.group(1).casefold()] for m in self.pattern.finditer(line)}


def _report_blocks(lines: Sequence[str]) -> list[Block]:
    """A battle report in the rules' form: the battle's sides, each turn a heading, each move
    a heading over its lines, the result."""
    blocks: list[Block] = []
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if _TURN.fullmatch(text):
            blocks.append(Heading(text, 1))
        elif text.startswith(_MOVE_HEADS) or _PHASE.match(text):
            blocks.append(Heading(text, 2))
        else:
            blocks.append(Paragraph(text))
    return blocks


def _by_turn(blocks: Sequence[Block]) -> list[Unit]:
    """A report's blocks as units kept together on paper a turn at a time; what comes before
    the first turn (the sides) stays with it."""
    units: list[list[Block]] = [[]]
    for block in blocks:
        turn = isinstance(block, Heading) and block.level == 1
        if turn and any(isinstance(b, Heading) and b.level == 1 for b in units[-1]):
            units.append([])
        units[-1].append(block)
    return [Unit(tuple(u)) for u in units if u]


def report_reference(battle: int) -> str:
    """What a diary on paper says of where a battle's full report is.

    >>> report_reference(3)
    'its own paper: Report ▸ Export… in the battle window, or export report --battle 3'
    """
    return ("its own paper: Report ▸ Export… in the battle window, or export report "
            f"--battle {battle}")


def report_document(report: BattleReport, *, campaign: str) -> Document:
    """A battle's full report as a document: a unit a turn, each move under its heading."""
    lines = list(report.lines)
    if lines and lines[0].strip().casefold() == report.title.casefold():
        lines = lines[1:]  # a report from the table opens with the battle's name: the title
    units = _by_turn(_report_blocks(lines))
    if not units:
        units = [Unit((Paragraph("Nothing has happened in this battle yet."),))]
    return Document(f"Battle report: {report.heading}", campaign, format_date(report.day),
                    tuple(units))


def campaign_report(doc: CampaignStore, battle: int) -> Document:
    """The full report of battle ``battle`` of an open campaign as a document."""
    return report_document(battle_report(doc, battle), campaign=doc.summary().name)


def chosen_entries(entries: Iterable[DiaryEntry], *,
                   places: Mapping[str, Theatre] | None = None,
                   chosen: DiaryFilter = DiaryFilter()) -> list[DiaryEntry]:
    """The lines of the diary in the part ``chosen``: its days, and for a theatre the lines
    that name one of its commands or towns (``places`` gives the theatre of each). A battle's
    entry (its result, closed by the link to its report) is kept whole or not at all."""
    finder = _Places(places or {})
    wanted = [e for e in entries if chosen.takes(e.day)]
    if chosen.theatre is None:
        return wanted
    battles = {e.seq for e in wanted if e.report is not None}
    kept_battles = {e.seq for e in wanted if e.seq in battles
                    and chosen.theatre in finder.theatres(e.text)}
    return [e for e in wanted if (e.seq in kept_battles if e.seq in battles
                                  else chosen.theatre in finder.theatres(e.text))]


def diary_document(entries: Iterable[DiaryEntry], *, campaign: str,
                   places: Mapping[str, Theatre] | None = None,
                   chosen: DiaryFilter = DiaryFilter()) -> Document:
    """The diary (or the part ``chosen``) as a document: a section a day, a battle one entry
    that refers to its full report; ``places`` gives the theatre of each command and town,
    for a theatre's diary."""
    units: list[Unit] = []
    days: list[date] = []
    for day, of_day in groupby(chosen_entries(entries, places=places, chosen=chosen),
                               key=lambda e: e.day):
        lines: list[Block] = []
        for entry in of_day:
            text = entry.text
            if entry.report is not None:
                text = f"{text} ({report_reference(entry.report)})"
            lines.append(Paragraph(text))
        days.append(day)
        units.append(Unit((Heading(format_date(day), 1), *lines)))
    if not units:
        units.append(Unit((Paragraph("Nothing in the diary for these days."),)))
    return Document(chosen.title, campaign,
                    chosen.range_text(days[0] if days else None, days[-1] if days else None),
                    tuple(units))


def campaign_diary(doc: CampaignStore, chosen: DiaryFilter = DiaryFilter()) -> Document:
    """The diary of an open campaign as a document, for the part chosen."""
    return diary_document(diary(doc), campaign=doc.summary().name, places=diary_places(doc),
                          chosen=chosen)


def diary_places(doc: CampaignStore) -> dict[str, Theatre]:
    """The theatre of every town and command of an open campaign, by name."""
    places: dict[str, Theatre] = {t.name: t.theatre for t in doc.ground().scenario.map.towns}
    places.update({c.name: c.theatre for c in campaign_status(doc).commands})
    return places


def diary_bytes(doc: CampaignStore, fmt: str, chosen: DiaryFilter = DiaryFilter(),
                paper_size: str = "a4", paper: Paper | None = None) -> bytes:
    """The diary of an open campaign (the part chosen) as the bytes of a PDF (on ``paper``,
    else the installed one; every line wrapped, nothing cut), HTML or Markdown file: the one
    exporter of the command line and the window."""
    return document_bytes(campaign_diary(doc, chosen), fmt, paper_size, paper)
