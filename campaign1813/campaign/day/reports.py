"""What a side knows of the enemy, as data: one ``Report`` per sighting.

A report says which side knows it, which enemy command it is about, where and when it was seen,
what was seen (the command's name or only its kind, its strength as a band), how (contact, a
Recce order's wider range, a battle fought, the umpire's own word), the day it reaches the
side's CinC, and whether the umpire has released it. This module holds the values alone and
imports nothing of the day's state, so a side's view (``day.sideview``) can read reports
without reaching the master state.
"""

# no ``from __future__ import annotations``: msgspec reads these annotations when a campaign opens

from datetime import date
from enum import StrEnum

import msgspec

from campaign1813.campaign.calendar import format_date

# The men one brigade stands for (seed 000: a corps of 20,000 to 30,000 is four infantry
# brigades of eight figures, four cavalry and a gun); record 0025 gives the reading.
INFANTRY_BRIGADE_MEN = 5000
CAVALRY_BRIGADE_MEN = 1500
BATTERY_MEN = 500
# one casualty is one of an infantry brigade's eight figures
CASUALTY_MEN = INFANTRY_BRIGADE_MEN // 8
# a band rounds to the nearest so many men
BAND_MEN = 5000


class How(StrEnum):
    """How a side came to know of an enemy command."""

    CONTACT = "contact"
    RECCE = "recce"
    BATTLE = "battle"
    UMPIRE = "umpire"


class Band(StrEnum):
    """How much of an enemy command's strength was seen."""

    KIND = "kind"  # only what it is: "a corps"
    ABOUT = "about"  # "about 20,000"
    EXACT = "exact"  # every man, as on contact


class Report(msgspec.Struct, frozen=True):
    """One sighting of an enemy command by a side (record 0025)."""

    id: int
    side: str  # the side that knows: "French" or "Allied"
    subject: str  # the enemy command seen (the umpire's name for it)
    place: str  # where it was seen, as the diary writes a position
    town: str  # the town nearest that place, where the map draws it
    seen_day: date
    seen_hour: str  # "1500"
    known_day: date  # the day it reaches the side's CinC
    how: How
    by: str  # the side's own command that saw it ("" for the umpire's word)
    identity: bool  # whether the command's name was made out
    kind: str  # "corps" or "HQ"
    enemy: str  # the enemy's side, "French" or "Allied"
    band: Band
    men: int  # the strength seen (the band's figure, or exact)
    released: bool = False
    note: str = ""  # the umpire's own words, when he edited or wrote it

    @property
    def name(self) -> str:
        """What the side calls the command: its name, or only its side and kind."""
        if self.identity:
            return self.subject
        article = "an" if self.enemy[:1] in "AEIOU" else "a"
        return f"{article} {self.enemy} {self.kind}"

    @property
    def strength(self) -> str:
        """The strength as seen: ``a corps``, ``about 20,000`` or ``18,125 men``."""
        if self.kind == "HQ":
            return "an army's HQ"
        if self.band is Band.KIND:
            return f"a {self.kind}"
        if self.band is Band.ABOUT:
            return f"about {self.men:,}"
        return f"{self.men:,} men"

    def seen_by(self) -> str:
        """Who saw it: ``5 Corps' cavalry``, ``5 Corps``, ``the battle``, ``the umpire``."""
        if self.how is How.RECCE:
            return f"{self.by}' cavalry" if self.by.endswith("s") else f"{self.by}'s cavalry"
        if self.how is How.UMPIRE or not self.by:
            return "the umpire"
        return self.by

    def text(self) -> str:
        """``I Prussian Corps at Burg (18,125 men), seen 5 May 1813 1500 by 5 Corps' cavalry,
        known 6 May 1813``."""
        hour = f"{self.seen_hour[:2]}:{self.seen_hour[2:]}" if len(self.seen_hour) == 4 \
            else self.seen_hour
        line = (f"{self.name} at {self.place} ({self.strength}), seen "
                f"{format_date(self.seen_day)} {hour} by {self.seen_by()}, known "
                f"{format_date(self.known_day)}")
        return f"{line}; {self.note}" if self.note else line

    def known_by(self, day: date) -> bool:
        """Whether the side has it on ``day``: released, and at its CinC by then."""
        return self.released and self.known_day <= day


def band_of(men: int) -> int:
    """A strength rounded to the nearest band (never to nothing): 18,125 is about 20,000."""
    return max(BAND_MEN, round(men / BAND_MEN) * BAND_MEN)
