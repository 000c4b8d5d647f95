"""End Day on the benchmark's 10x campaign does what it was recorded doing: every march,
contact, battle (its commands and place) and retreat of each day equal to the kept copy
(``tests/day/end_day_record.py``). ``make test`` plays the first days; ``make fuzz`` all ten
(``END_DAY_RECORD_DAYS`` sets how many)."""

from __future__ import annotations

import os

from .end_day_record import DAYS, SAMPLE_DAYS, SAMPLED, read, record

PLAYED = min(DAYS, int(os.environ.get("END_DAY_RECORD_DAYS", 2)))


def test_the_10x_campaigns_days_end_as_recorded():
    now, then = record(PLAYED), read()
    for day, (seen, kept) in enumerate(zip(now["sample"], then["sample"], strict=False)):
        for part in SAMPLED:
            assert seen[part] == kept[part], f"End Day {day + 1}: {part}"
    assert len(now["sample"]) == min(SAMPLE_DAYS, len(now["digests"]))
    for day, (seen, kept) in enumerate(zip(now["digests"], then["digests"], strict=False)):
        for part in kept:
            assert seen[part] == kept[part], f"End Day {day + 1} ({kept['date']}): {part}"
    assert len(now["digests"]) >= PLAYED  # an End Day or two a day: a day with battles
    # stays open until their results are in
