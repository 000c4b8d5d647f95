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
from collections.abc import Iterable, Mapping
from datetime import date, timedelta

from campaign1813.campaign.day.contact import Contact, PositionIndex
from campaign1813.campaign.day.ground import Ground, Position, describe
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
from campaign1813.campaign.day.state import Battle, CommandState, DayState, Kind, hq_name
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
