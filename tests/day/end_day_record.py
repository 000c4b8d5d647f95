"""Ten days of the benchmark's 10x campaign, recorded: every End Day's march, contacts,
battles and retreats.

``record()`` plays the campaign of ``benchmarks/bench_end_day.py`` (a generated map of 1,500
towns and 100 army groups, 500 commands, every one ordered each day, battles decided by a
seeded coin, the beaten retreating by their first legal road) and keeps, after each End Day:
the diary's lines (who marched where, who was halted by whom, stand-offs, battles with their
sides, places and reinforcements, occupations), every command's position, status and route,
the battles, the contacts between hostile commands, and the retreat destinations of every
command that must retreat. ``tests/day/test_end_day_record.py`` compares it with the copy kept
in ``tests/fixtures/end-day-10x.json.gz``, so a change to End Day that changes any answer
shows.

``python -m tests.day.end_day_record`` writes that copy again (only when an answer is meant to
change).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import runpy
import tempfile
from pathlib import Path
from typing import Any

from campaign1813.campaign import queries
from campaign1813.campaign.day.aftermath import retreat_destinations
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.contact import find_contacts
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.store.protocol import CampaignStore

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "end-day-10x.json.gz"
DAYS = 10


def _seen(doc: CampaignStore, changes: Changes) -> dict[str, Any]:
    """What one End Day left: its lines, the commands, battles, contacts and retreats."""
    ground = doc.ground()
    state = queries.day_state(doc)
    live = {c.name: c.position for c in state.ordered() if c.on_map}
    sides = {c.name: c.side for c in state.ordered() if c.on_map}
    contacts = find_contacts(ground, sides, live, ground.settings.contact_miles)
    retreats = {c.name: {town: list(route) for town, route in
                         retreat_destinations(ground, state, c.name).items()}
                for c in state.ordered()
                if c.status is Status.RETREATING and c.status_date == state.date}
    values = queries.state_json(doc)
    return {
        "date": str(state.date),
        "lines": list(changes.report.lines) if changes.report else list(changes.lines),
        "state": values,
        "contacts": [[p.french, p.allied, p.miles] for p in contacts],
        "retreats": retreats,
    }


def _digest(value: Any) -> str:
    """The SHA-256 of a value's canonical JSON."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def play(days: int = DAYS) -> list[dict[str, Any]]:
    """Play ``days`` days of the 10x campaign; what each End Day did, in full."""
    bench = runpy.run_path(str(ROOT / "benchmarks" / "bench_end_day.py"))
    seen: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        bench["play"](bench["generated"](50, 2, 15), Path(tmp), days,
                      lambda doc, changes: seen.append(_seen(doc, changes)))
    full: list[dict[str, Any]] = json.loads(json.dumps(seen))  # as read back: lists
    return full


def record(days: int = DAYS) -> dict[str, Any]:
    """Each End Day's parts as digests (the diary, every command, order and battle, towns
    held, contacts, retreats), and the first End Days' diary, contacts and retreats in full
    (to say what differs when a digest does)."""
    full = play(days)
    digests = [{**{part: _digest(value) for part, value in day["state"].items()},
                "lines": _digest(day["lines"]), "contacts": _digest(day["contacts"]),
                "retreats": _digest(day["retreats"]), "date": day["date"]}
               for day in full]
    sample = [{part: day[part] for part in SAMPLED} for day in full[:SAMPLE_DAYS]]
    return {"digests": digests, "sample": sample}


SAMPLED = ("date", "lines", "contacts", "retreats")
SAMPLE_DAYS = 5


def read() -> dict[str, Any]:
    """The kept copy."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        kept: dict[str, Any] = json.load(f)
    return kept


def write() -> None:
    """Record again and keep the copy."""
    with gzip.GzipFile(FIXTURE, "wb", mtime=0) as raw:
        raw.write(json.dumps(record(), sort_keys=True, indent=0).encode())


if __name__ == "__main__":
    write()
