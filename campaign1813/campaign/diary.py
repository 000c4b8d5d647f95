"""The campaign diary, read from the event log: a dated line for everything the umpire did."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, select

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.model_day import EventRow


@dataclass(frozen=True)
class DiaryEntry:
    """One line of the diary: the campaign date, the action it came from, the text."""

    day: date
    seq: int
    text: str

    def __str__(self) -> str:
        return f"{format_date(self.day)}: {self.text}"


def diary(session: Session) -> list[DiaryEntry]:
    """Every line of every action still in force, oldest first."""
    entries = []
    rows = session.exec(
        select(EventRow).where(EventRow.undone == False).order_by(EventRow.seq)  # noqa: E712
    )
    for row in rows:
        lines = json.loads(row.lines_json) or [row.label]
        entries.extend(DiaryEntry(row.date, row.seq, line) for line in lines)
    return entries


def diary_text(session: Session) -> str:
    """The diary as plain text, one dated line each."""
    return "\n".join(str(e) for e in diary(session))
