"""The day's reports of the enemy, made at End Day when the fog setting is on (record 0025).

Each side learns of an enemy command in four ways: by contact (within ``contact_miles``: the
command's name and its strength exactly), by a Recce order's wider reach (within
``recce_miles`` of a command on Recce: only that an enemy corps is there, and about how strong),
by a battle fought (every enemy command in it, exactly), and by the umpire's own word. A report
reaches the side's CinC at once, or, with messengers on, a day for each ``messenger_miles``
between where it was seen and his HQ. With ``release`` at "end of day" it is released as it is
made; at "umpire", it waits for the umpire.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta

from msgspec.structs import replace

from campaign1813.campaign.day.contact import Contact, PositionIndex
from campaign1813.campaign.day.ground import Ground, OrderRefused, Position, describe
from campaign1813.campaign.day.reports import (
    BATTERY_MEN,
    CASUALTY_MEN,
    CAVALRY_BRIGADE_MEN,
    INFANTRY_BRIGADE_MEN,
    Band,
    How,
    Report,
    band_of,
)
from campaign1813.campaign.day.state import (
    Battle,
    CommandState,
    DayState,
    Kind,
    hq_name,
)
from campaign1813.campaign.scenario.types import Side


def strength(ground: Ground, command: CommandState) -> int:
    """A command's men: its brigades (record 0025's figures) less its carried casualties."""
    corps = ground.corps.get(command.name)
    if corps is None:
        return 0
    men = (INFANTRY_BRIGADE_MEN * len(corps.infantry) + CAVALRY_BRIGADE_MEN + BATTERY_MEN)
    lost = sum(n for _brigade, n in command.casualties) * CASUALTY_MEN
    return max(0, men - lost)


def hour(ground: Ground, steps: float) -> str:
    """The hour of so many steps into his twelve marching hours from 0800: ``1500``."""
    minutes = round(12 * steps / max(1, ground.settings.steps_per_day) * 60)
    return f"{8 + minutes // 60:02d}{minutes % 60:02d}"


def known_day(ground: Ground, state: DayState, seer: CommandState, seen: Position,
              day: date) -> date:
    """The day a sighting reaches the seer's CinC: at once, or a day for every
    ``messenger_miles`` (begun) between the place and his HQ when messengers are on."""
    settings = ground.settings
    if not settings.messenger_orders:
        return day
    hq = state.commands.get(hq_name(seer.army))
    if hq is None or hq.name == seer.name:
        return day
    miles = ground.distance(seen, hq.position)
    if not math.isfinite(miles):
        return day
    return day + timedelta(days=math.ceil(miles / settings.messenger_miles - 1e-9))


class _Maker:
    """Makes the day's reports, one per side and enemy command and way of knowing."""

    def __init__(self, ground: Ground, state: DayState) -> None:
        self.ground = ground
        self.state = state
        self.day = state.date
        self.made: dict[tuple[Side, str], Report] = {}
        self.next_id = max(state.reports, default=0) + 1

    def see(self, seer: CommandState, enemy: CommandState, how: How, steps: float) -> None:
        """One side's sighting of one enemy command; the fullest of a day's is kept."""
        key = (seer.side, enemy.name)
        exact = how in (How.CONTACT, How.BATTLE)
        old = self.made.get(key)
        if old is not None and (old.band is Band.EXACT or not exact):
            return
        men = strength(self.ground, enemy)
        report = Report(
            id=old.id if old else self.next_id,
            side=seer.side.value, subject=enemy.name,
            place=describe(enemy.position, self.ground),
            town=self.ground.nearest_town(enemy.position),
            seen_day=self.day, seen_hour=hour(self.ground, steps),
            known_day=known_day(self.ground, self.state, seer, enemy.position, self.day),
            how=how, by=seer.name, identity=exact,
            kind="HQ" if enemy.kind is Kind.HQ else "corps", enemy=enemy.side.value,
            band=Band.EXACT if exact else Band.ABOUT,
            men=men if exact else band_of(men),
            released=self.ground.settings.release == "end of day")
        if old is None:
            self.next_id += 1
        self.made[key] = report


def day_reports(ground: Ground, state: DayState, contacts: Iterable[Contact],
                battles: Iterable[Battle], recce: Iterable[str],
                stopped: Mapping[str, tuple[float, str]]) -> list[Report]:
    """The reports of the day's march: contacts, the battles found, and what each command on
    a Recce order sees within ``recce_miles``; hours from when contact stopped a command (the
    end of the march, 2000, otherwise)."""
    steps = ground.settings.steps_per_day
    maker = _Maker(ground, state)
    commands = state.commands

    def when(name: str) -> float:
        return stopped[name][0] if name in stopped else float(steps)

    for battle in battles:
        for side in (Side.FRENCH, Side.ALLIED):
            seers = [commands[n] for n in battle.side(side) if n in commands]
            if not seers:
                continue
            for foe in battle.everyone(side.enemy):
                if foe in commands:
                    maker.see(seers[0], commands[foe], How.BATTLE, when(seers[0].name))
    for pair in contacts:
        french, allied = commands[pair.french], commands[pair.allied]
        maker.see(french, allied, How.CONTACT, when(french.name))
        maker.see(allied, french, How.CONTACT, when(allied.name))
    live = [(c.name, c.position) for c in state.ordered() if c.on_map]
    index = PositionIndex(ground, live)
    for name in recce:
        seer = commands.get(name)
        if seer is None or not seer.on_map:
            continue
        for other in sorted(index.near(seer.position, ground.settings.recce_miles)):
            enemy = commands[other]
            if enemy.side is not seer.side:
                maker.see(seer, enemy, How.RECCE, float(steps))
    return sorted(maker.made.values(), key=lambda r: r.id)


# -- the umpire's acts on reports (each an action of ``day.actions``, logged and undoable) -----


def report_numbered(state: DayState, number: int) -> Report:
    """A report by its number, or a refusal naming it."""
    report = state.reports.get(number)
    if report is None:
        raise OrderRefused(f"there is no report number {number} in this campaign")
    return report


def release(state: DayState, numbers: Sequence[int]) -> list[str]:
    """Release the held reports named (every held one, if none is named) to their sides."""
    chosen = [report_numbered(state, n) for n in numbers] if numbers else \
        [r for r in state.reports.values() if not r.released]
    if not chosen:
        raise OrderRefused("no report is held back: there is nothing to release")
    out = [r for r in chosen if r.released]
    if out:
        raise OrderRefused(f"report {out[0].id} has been released already")
    lines = []
    for r in sorted(chosen, key=lambda r: r.id):
        state.reports[r.id] = replace(r, released=True)
        lines.append(f"Report {r.id} released to the {r.side}: {r.text()}.")
    return lines


def hold(state: DayState, number: int) -> list[str]:
    """Hold one released report back from its side."""
    report = report_numbered(state, number)
    if not report.released:
        raise OrderRefused(f"report {number} is held back already")
    state.reports[number] = replace(report, released=False)
    return [f"Report {number} held back from the {report.side}: {report.text()}."]


def edit(ground: Ground, state: DayState, number: int, *, town: str | None = None,
         band: str | None = None, men: int | None = None, identity: bool | None = None,
         note: str | None = None) -> list[str]:
    """Change what a report says (a false rumour is the umpire's to give)."""
    report = report_numbered(state, number)
    changes: dict[str, object] = {}
    if town is not None:
        place = ground.resolve(town)
        changes.update(place=place, town=place)
    if band is not None:
        changes["band"] = _band(band)
    if men is not None:
        changes["men"] = _men(men)
    if identity is not None:
        changes["identity"] = identity
    if note is not None:
        changes["note"] = _note(note)
    fresh = replace(report, **changes)
    if fresh == report:
        raise OrderRefused(f"report {number} already says that")
    state.reports[number] = fresh
    return [f"Report {number} edited: {fresh.text()}."]


def add(ground: Ground, state: DayState, side: str, subject: str, town: str, *,
        band: str = "kind", men: int = 0, identity: bool = True, note: str = "",
        released: bool = False) -> list[str]:
    """The umpire's own report to a side of an enemy command (by his word, seen today)."""
    knower = _side(side)
    enemy = state.commands.get(subject.strip())
    if enemy is not None and enemy.side is knower:
        raise OrderRefused(f"{enemy.name} is a {knower.value} command: a side always knows its "
                           "own commands")
    place = ground.resolve(town)
    number = max(state.reports, default=0) + 1
    report = Report(
        id=number, side=knower.value, subject=enemy.name if enemy else _note(subject),
        place=place, town=place, seen_day=state.date, seen_hour="0800",
        known_day=state.date, how=How.UMPIRE, by="", identity=identity,
        kind="HQ" if enemy is not None and enemy.kind is Kind.HQ else "corps",
        enemy=knower.enemy.value, band=_band(band), men=_men(men), released=released,
        note=_note(note) if note else "")
    state.reports[number] = report
    return [f"Report {number} written by the umpire for the {knower.value}: {report.text()}."]


def _side(text: str) -> Side:
    for side in Side:
        if text.strip().casefold() == side.value.casefold():
            return side
    raise OrderRefused(f"a report is for the French or the Allied, not {text!r}")


def _band(text: str) -> Band:
    try:
        return Band(text.strip().casefold())
    except ValueError:
        raise OrderRefused(f"a report's strength is kind, about or exact, not {text!r}") from None


def _men(men: int) -> int:
    if not 0 <= men <= 1_000_000:
        raise OrderRefused(f"a report's strength must be 0 to 1,000,000 men, not {men}")
    return men


def _note(text: str) -> str:
    value = " ".join(text.split())
    if not value or len(value) > 200 or not value.isprintable():
        raise OrderRefused("a report's words must be a line of text of up to 200 characters")
    return value
