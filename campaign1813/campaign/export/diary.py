"""The campaign diary and its battle reports as a printable document, by theatre and dates.

:func:`diary_document` turns the diary's dated lines into a
:class:`~campaign1813.campaign.export.document.Document`: a section for each day, and each
battle's report in the rules' own move-by-move form (the battle, then each turn, each move with
its lines, then the result) as a section of its own. The same document is rendered to Markdown
and HTML (``render.py``) and to PDF by the installed paper.

A theatre's diary keeps the lines that name one of its commands or towns, and every line of a
battle report fought there; the days' closing lines, which name nothing, belong to the whole
campaign and go only into the whole diary.

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
from campaign1813.campaign.queries import DiaryEntry, campaign_status, diary
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.errors import CampaignError
from campaign1813.maps.types import Theatre

__all__ = ["DiaryFilter", "diary_document", "campaign_diary", "diary_bytes", "parse_day",
           "find_theatre", "REPORT_MARK"]

# The line that opens a battle report among an action's diary lines.
REPORT_MARK = "Battle report:"
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


_BATTLE = re.compile(r"the battle of .+? \(\d{1,2} \w+ \d{4}\)", re.IGNORECASE)


def _report_title(action: Sequence[str], report: Sequence[str]) -> tuple[str, list[str]]:
    """The battle a report is of, and the report's lines after its title: a report from the
    table opens with the battle's name; one auto-resolved opens at turn 1, so its battle is
    the one the action's own lines name."""
    first = report[0] if report else ""
    if _BATTLE.fullmatch(first.strip()):
        return first.strip(), list(report[1:])
    for line in action:
        found = _BATTLE.search(line)
        if found:
            return found.group(0), list(report)
    return "the battle", list(report)


def _report_blocks(title: str, lines: Sequence[str]) -> list[Block]:
    """A battle report in the rules' form: the battle and its sides, each turn a heading,
    each move a heading over its lines, the result."""
    blocks: list[Block] = [Heading(f"Battle report: {title[:1].upper()}{title[1:]}", 1)]
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if text.startswith("Turn "):
            blocks.append(Heading(text, 2))
        elif text.startswith(_MOVE_HEADS):
            blocks.append(Heading(text, 3))
        else:
            blocks.append(Paragraph(text))
    return blocks


def _by_turn(blocks: Sequence[Block]) -> list[Unit]:
    """A report's blocks as units kept together on paper a turn at a time; its heading stays
    with the first turn."""
    units: list[list[Block]] = [[]]
    for block in blocks:
        turn = isinstance(block, Heading) and block.level == 2
        if turn and any(isinstance(b, Heading) and b.level == 2 for b in units[-1]):
            units.append([])
        units[-1].append(block)
    return [Unit(tuple(u)) for u in units if u]


def diary_document(entries: Iterable[DiaryEntry], *, campaign: str,
                   places: Mapping[str, Theatre] | None = None,
                   chosen: DiaryFilter = DiaryFilter()) -> Document:
    """The diary (or the part ``chosen``) as a document: a section a day, a battle report a
    section; ``places`` gives the theatre of each command and town, for a theatre's diary."""
    finder = _Places(places or {})
    units: list[Unit] = []
    days: list[date] = []
    wanted = [e for e in entries if chosen.takes(e.day)]
    for day, of_day in groupby(wanted, key=lambda e: e.day):
        lines: list[Block] = []
        reports: list[list[Block]] = []
        for _seq, action in groupby(of_day, key=lambda e: e.seq):
            texts = [e.text for e in action]
            cut = texts.index(REPORT_MARK) if REPORT_MARK in texts else len(texts)
            for text in texts[:cut]:
                if chosen.theatre is None or chosen.theatre in finder.theatres(text):
                    lines.append(Paragraph(text))
            if cut == len(texts):
                continue
            title, report = _report_title(texts[:cut], texts[cut + 1:])
            named = finder.theatres(title).union(*(finder.theatres(t) for t in texts[:cut]))
            if chosen.theatre is None or chosen.theatre in named:
                reports.append(_report_blocks(title, report))
        if not lines and not reports:
            continue
        days.append(day)
        units.append(Unit((Heading(format_date(day), 1), *lines)))
        for report_blocks in reports:
            units.extend(_by_turn(report_blocks))
    if not units:
        units.append(Unit((Paragraph("Nothing in the diary for these days."),)))
    return Document(chosen.title, campaign,
                    chosen.range_text(days[0] if days else None, days[-1] if days else None),
                    tuple(units))


def campaign_diary(doc: CampaignStore, chosen: DiaryFilter = DiaryFilter()) -> Document:
    """The diary of an open campaign as a document, for the part chosen."""
    status = campaign_status(doc)
    places: dict[str, Theatre] = {t.name: t.theatre for t in doc.ground().scenario.map.towns}
    places.update({c.name: c.theatre for c in status.commands})
    return diary_document(diary(doc), campaign=status.name, places=places, chosen=chosen)


def diary_bytes(doc: CampaignStore, fmt: str, chosen: DiaryFilter = DiaryFilter(),
                paper_size: str = "a4", paper: Paper | None = None) -> bytes:
    """The diary of an open campaign (the part chosen) as the bytes of a PDF (on ``paper``,
    else the installed one; every line wrapped, nothing cut), HTML or Markdown file: the one
    exporter of the command line and the window."""
    return document_bytes(campaign_diary(doc, chosen), fmt, paper_size, paper)
