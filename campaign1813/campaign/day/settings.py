"""The campaign settings an umpire may change during a campaign, each checked before it is
taken: messengers and their speed, contact and reinforcement distances, carrying casualties
forward, the forced march's extra miles and its cost, the steps of a day's march, and the
turns of a battle day (which the battle module reads).

A campaign keeps its changes as overrides of its scenario's settings (in the day's state), so a
change is one logged action, undone like any other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.scenario.types import Settings


class Setting(msgspec.Struct, frozen=True):
    """One setting the umpire may change: its name (as the command line and the file spell
    it), its words (as the settings dialog, the Undo menu and the diary say it), what it
    means, and how a value is read."""

    name: str
    words: str
    meaning: str
    read: Callable[[str], Any]
    choices: tuple[str, ...] = ()  # the only values it takes, where it takes a few words


def _miles(low: float, high: float, low_open: bool = False) -> Callable[[str], float]:
    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError("is not a number of miles") from None
        if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
            above = "above" if low_open else "from"
            raise ValueError(f"must be a number of miles {above} {low:g} to {high:g}")
        return value
    return read


def _switch(text: str) -> bool:
    word = text.strip().casefold()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise ValueError("must be on or off")


def _whole(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError("is not a whole number") from None
        if not low <= value <= high:
            raise ValueError(f"must be a whole number{unit} from {low} to {high}")
        return value
    return read


def _one_of(*words: str) -> Callable[[str], str]:
    def read(text: str) -> str:
        word = text.strip().casefold()
        if word not in words:
            raise ValueError(f"must be one of {', '.join(words)}")
        return word
    return read


def _text(text: str) -> str:
    value = " ".join(text.split())
    if not value or len(value) > 200 or not value.isprintable():
        raise ValueError("must be a line of text of up to 200 characters")
    return value


RELEASES = ("end of day", "umpire")
SUPPLY_RULES = ("off", "2016", "2020")
ATTRITION_CHOICES = ("umpire", "seeded")


def _release(text: str) -> str:
    word = " ".join(text.strip().casefold().replace("-", " ").replace("_", " ").split())
    if word not in RELEASES:
        raise ValueError(f"must be {' or '.join(RELEASES)}")
    return word


SETTINGS: tuple[Setting, ...] = (
    Setting("messenger_orders", "Messenger orders",
            "orders reach a distant corps by messenger from its HQ", _switch),
    Setting("messenger_miles", "Messenger miles",
            "miles a messenger rides in a day", _miles(0, 1000, True)),
    Setting("contact_miles", "Contact miles",
            "hostile commands this close by road are in contact",
            _miles(0, 100)),
    Setting("reinforce_miles", "Reinforce miles",
            "friends this close march to the sound of the guns",
            _miles(0, 100)),
    Setting("carry_casualties_forward", "Carry casualties forward",
            "battle casualties stay on the brigades", _switch),
    Setting("forced_march_extra_miles", "Forced march extra miles",
            "extra miles a day on a forced march", _miles(0, 100)),
    Setting("forced_march_cost", "Forced march cost",
            "what a forced march costs (the diary says it)", _text),
    Setting("steps_per_day", "Steps per day",
            "steps the day's march is simulated in", _whole(1, 240)),
    Setting("battle_turns", "Battle turns",
            "turns of a battle day before night falls",
            _whole(1, 48, " of turns")),
    Setting("fog", "Fog of war",
            "each side knows the enemy only by the reports released to it", _switch),
    Setting("recce_miles", "Recce miles",
            "how far a command on a Recce order sees the enemy", _miles(0, 100)),
    Setting("release", "Release of reports",
            "a day's reports reach the sides at the end of the day, or when the umpire "
            "releases them", _release, RELEASES),
    Setting("supply", "Supply",
            "the supply rule: off, or the author's 2016 rule or its 2020 revision",
            _one_of(*SUPPLY_RULES), SUPPLY_RULES),
    Setting("supply_attrition", "Supply attrition",
            "who picks the brigade a corps out of supply loses men from: the umpire, or by lot",
            _one_of(*ATTRITION_CHOICES), ATTRITION_CHOICES),
)
BY_NAME = {s.name: s for s in SETTINGS}


def setting_named(name: str) -> Setting:
    """A setting by its name (any case, hyphens for underscores), or a refusal listing them."""
    found = BY_NAME.get(name.strip().casefold().replace("-", "_"))
    if found is None:
        raise OrderRefused(f"'{name}' is not a setting the umpire can change; the settings are "
                           f"{', '.join(BY_NAME)}")
    return found


def parse_setting(name: str, text: str) -> tuple[str, Any]:
    """A setting's name and its value read from the umpire's text, or a refusal naming both."""
    setting = setting_named(name)
    try:
        return setting.name, setting.read(text)
    except ValueError as exc:
        raise OrderRefused(f"{setting.name} {exc}, not {text!r}") from None


def effective(base: Settings, overrides: Mapping[str, Any]) -> Settings:
    """The scenario's settings with the campaign's changes."""
    return replace(base, **{k: v for k, v in overrides.items() if k in BY_NAME}) \
        if overrides else base


def shown(value: Any) -> str:
    """A setting's value as the umpire writes it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
