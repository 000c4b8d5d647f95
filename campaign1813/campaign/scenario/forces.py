"""Reading the orders of battle, the objectives and the settings of a scenario.

Every loader takes the scenario's files as a mapping of relative path to text, so the same code
reads the shipped folder and the copy kept inside a campaign file. Each checks everything it
reads, collects every problem, and refuses the lot in one :class:`ScenarioError` with one line
per problem: the file, the entry and the reason, e.g.
``armies.toml: 4 Corps (Second French Army), brigade 15: firepower 'D' is not A, B or C``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from typing import Any

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.files import either, parse_toml
from campaign1813.campaign.scenario.types import (
    ArmyGroup,
    Artillery,
    CavalryBrigade,
    CavalryType,
    Commander,
    Corps,
    Grade,
    InfantryBrigade,
    MarchRates,
    Objective,
    Rating,
    Settings,
    Side,
)
from campaign1813.maps.types import Theatre

ARMIES_FILE = "armies.toml"
OBJECTIVES_FILE = "objectives.toml"
SETTINGS_FILE = "settings.toml"

# The rules give nationality effects (British pursuit, Spanish commanders in base contact), so
# only nations the campaign fields are accepted; a typo would silently lose those effects.
NATIONALITIES = (
    "French", "Polish", "Westphalian", "Italian",
    "Prussian", "Russian", "Austrian", "Spanish", "British", "Portuguese",
)
INFANTRY_PER_CORPS = 4
# Pounder weights fielded in 1813; the rules class them as 12, 8-9 and 4-6 (3 counts as 4-6).
CALIBRES = (3, 4, 6, 8, 9, 12)

_ARMY_KEYS = ("name", "side", "theatre", "hq", "cinc", "reserve", "corps")
_CORPS_KEYS = ("name", "nationality", "commander", "start", "infantry", "cavalry", "artillery")
_COMMANDER_KEYS = ("name", "grade")
_INFANTRY_KEYS = ("number", "class", "firepower", "skirmish", "name")
_CAVALRY_KEYS = ("number", "class", "type", "lancers", "name")
_ARTILLERY_KEYS = ("class", "calibre", "horse")
_OBJECTIVE_KEYS = ("theatre", "side", "description", "towns")


class _Problems:
    """Collects the problems found in one file, each as 'file: entry: reason'."""

    def __init__(self, filename: str):
        self.filename = filename
        self.lines: list[str] = []

    def add(self, entry: str, reason: str) -> None:
        self.lines.append(f"{self.filename}: {entry}: {reason}" if entry
                          else f"{self.filename}: {reason}")

    def raise_if_any(self) -> None:
        if self.lines:
            raise ScenarioError("\n".join(self.lines))


def _show(value: Any) -> str:
    """A value as the umpire wrote it: text quoted, numbers bare."""
    return f"'{value}'" if isinstance(value, str) else repr(value)


def _check_keys(problems: _Problems, entry: str, table: Mapping, allowed: Sequence[str],
                required: Sequence[str]) -> bool:
    """Report unknown and missing keys; True when every required key is present."""
    for key in table:
        if key not in allowed:
            problems.add(entry, f"unknown key '{key}' (expected {either(allowed)})")
    missing = [k for k in required if k not in table]
    for key in missing:
        problems.add(entry, f"missing '{key}'")
    return not missing


def _enum(problems: _Problems, entry: str, what: str, value: Any, kind: type[Enum]):
    try:
        return kind(value)
    except ValueError:
        problems.add(entry, f"{what} {_show(value)} is not {either(m.value for m in kind)}")
        return None


def _text(problems: _Problems, entry: str, what: str, value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    problems.add(entry, f"{what} is empty" if isinstance(value, str)
                 else f"{what} {_show(value)} is not text")
    return None


def _flag(problems: _Problems, entry: str, what: str, value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    problems.add(entry, f"{what} {_show(value)} is not true or false")
    return None


def _number(problems: _Problems, entry: str, what: str, value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    problems.add(entry, f"{what} {_show(value)} is not a whole number from 1 up")
    return None


def _town(problems: _Problems, entry: str, what: str, value: Any,
          towns: Mapping[str, str]) -> str | None:
    if isinstance(value, str) and value in towns:
        return towns[value]
    problems.add(entry, f"{what} {_show(value)} is not on the map")
    return None


def _table(problems: _Problems, entry: str, what: str, value: Any) -> Mapping | None:
    if isinstance(value, Mapping):
        return value
    problems.add(entry, f"{what} is not a table")
    return None


# --- settings ---------------------------------------------------------------------------------

_SETTINGS_SECTIONS = ("campaign", "distances", "march", "forced_march", "options")
_SETTINGS_KEYS = {
    "campaign": ("name", "start_date"),
    "distances": ("contact_miles", "reinforce_miles"),
    "forced_march": ("extra_miles", "cost"),
    "options": ("carry_casualties_forward", "messenger_orders", "messenger_miles",
                "steps_per_day"),
}
_RATE_KEYS = ("road", "off_road", "difficult")


def load_settings(files: Mapping[str, str]) -> Settings:
    """The campaign's settings from ``settings.toml``; a key left out keeps its default."""
    data = parse_toml(files, SETTINGS_FILE)
    problems = _Problems(SETTINGS_FILE)
    default = Settings()
    values: dict[str, Any] = {}
    _check_keys(problems, "", data, _SETTINGS_SECTIONS, ())
    sections = {}
    for section in _SETTINGS_SECTIONS:
        table = _table(problems, section, "the section", data.get(section, {}))
        sections[section] = table or {}
        if table is not None and section in _SETTINGS_KEYS:
            _check_keys(problems, section, table, _SETTINGS_KEYS[section], ())

    campaign = sections["campaign"]
    if "name" in campaign:
        values["name"] = _text(problems, "campaign", "name", campaign["name"])
    if "start_date" in campaign:
        values["start_date"] = _date(problems, campaign["start_date"])

    distances = sections["distances"]
    for key in ("contact_miles", "reinforce_miles"):
        if key in distances:
            values[key] = _miles(problems, "distances", key, distances[key], allow_zero=True)

    march = sections["march"]
    _check_keys(problems, "march", march, ("foot", "mounted"), ())
    for kind in ("foot", "mounted"):
        if kind in march:
            values[f"{kind}_rate"] = _rates(problems, f"march.{kind}", march[kind],
                                            getattr(default, f"{kind}_rate"))

    forced = sections["forced_march"]
    if "extra_miles" in forced:
        values["forced_march_extra_miles"] = _miles(problems, "forced_march", "extra_miles",
                                                    forced["extra_miles"], allow_zero=True)
    if "cost" in forced:
        values["forced_march_cost"] = _text(problems, "forced_march", "cost", forced["cost"])

    options = sections["options"]
    for key in ("carry_casualties_forward", "messenger_orders"):
        if key in options:
            values[key] = _flag(problems, "options", key, options[key])
    if "messenger_miles" in options:
        values["messenger_miles"] = _miles(problems, "options", "messenger_miles",
                                           options["messenger_miles"], allow_zero=False)
    if "steps_per_day" in options:
        values["steps_per_day"] = _number(problems, "options", "steps_per_day",
                                          options["steps_per_day"])
    problems.raise_if_any()
    return Settings(**values)


def _date(problems: _Problems, value: Any) -> date | None:
    if isinstance(value, date) and not hasattr(value, "hour"):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    problems.add("campaign", f"start_date {_show(value)} is not a date like 1813-05-01")
    return None


def _miles(problems: _Problems, entry: str, what: str, value: Any, *,
           allow_zero: bool) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and (
            value > 0 or (allow_zero and value == 0)):
        return float(value)
    least = "0 or more" if allow_zero else "more than 0"
    problems.add(entry, f"{what} {_show(value)} is not a number of miles ({least})")
    return None


def _rates(problems: _Problems, entry: str, value: Any, default: MarchRates) -> MarchRates | None:
    table = _table(problems, entry, "the section", value)
    if table is None:
        return None
    _check_keys(problems, entry, table, _RATE_KEYS, ())
    miles = {k: _miles(problems, entry, k, table[k], allow_zero=False)
             for k in _RATE_KEYS if k in table}
    if None in miles.values():
        return None
    return MarchRates(**{k: miles.get(k, getattr(default, k)) for k in _RATE_KEYS})


# --- armies -----------------------------------------------------------------------------------

def load_armies(files: Mapping[str, str], towns: Mapping[str, str]) -> tuple[ArmyGroup, ...]:
    """The army groups from ``armies.toml``; ``towns`` maps every town name and alias to its
    canonical name, and starting towns are stored canonical."""
    data = parse_toml(files, ARMIES_FILE)
    problems = _Problems(ARMIES_FILE)
    _check_keys(problems, "", data, ("army",), ("army",))
    entries = data.get("army", [])
    if not isinstance(entries, list):
        problems.add("", "'army' must be a list of [[army]] tables")
        entries = []
    armies: list[ArmyGroup] = []
    army_names: dict[str, int] = {}
    corps_homes: dict[str, str] = {}
    for index, entry in enumerate(entries, start=1):
        label = f"army {index}"
        if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            label = entry["name"]
            if army_names.setdefault(label, index) != index:
                problems.add(label, f"army name is already used by army {army_names[label]}")
        army = _army(problems, label, entry, towns, corps_homes)
        if army is not None:
            armies.append(army)
    problems.raise_if_any()
    return tuple(armies)


def _army(problems: _Problems, label: str, entry: Any, towns: Mapping[str, str],
          corps_homes: dict[str, str]) -> ArmyGroup | None:
    entry = _table(problems, label, "the entry", entry)
    if entry is None:
        return None
    complete = _check_keys(problems, label, entry, _ARMY_KEYS, _ARMY_KEYS)
    name = _text(problems, label, "name", entry.get("name")) if "name" in entry else None
    side = _enum(problems, label, "side", entry["side"], Side) if "side" in entry else None
    theatre = (_enum(problems, label, "theatre", entry["theatre"], Theatre)
               if "theatre" in entry else None)
    hq = _town(problems, label, "HQ town", entry["hq"], towns) if "hq" in entry else None
    cinc = _commander(problems, f"{label}, CinC", entry.get("cinc"))
    reserve = _commander(problems, f"{label}, reserve commander", entry.get("reserve"))
    corps_entries = entry.get("corps", [])
    if not isinstance(corps_entries, list) or not corps_entries:
        if "corps" in entry:
            problems.add(label, "corps must be a list of [[army.corps]] tables, at least one")
        corps_entries = []
    numbers = _Numbers()
    corps = []
    for index, corps_entry in enumerate(corps_entries, start=1):
        corps_name = (corps_entry.get("name") if isinstance(corps_entry, Mapping) else None)
        corps_label = (f"{corps_name} ({label})" if isinstance(corps_name, str)
                       else f"corps {index} ({label})")
        if isinstance(corps_name, str):
            if corps_name in corps_homes:
                problems.add(corps_label, f"corps name '{corps_name}' is already used in "
                                          f"{corps_homes[corps_name]}")
            else:
                corps_homes[corps_name] = label
        numbers.corps = corps_name if isinstance(corps_name, str) else f"corps {index}"
        corps.append(_corps(problems, corps_label, label, corps_entry, towns, numbers))
    parts = (name, side, theatre, hq, cinc, reserve)
    if not complete or None in parts or None in corps:
        return None
    return ArmyGroup(name=name, side=side, theatre=theatre, cinc=cinc, hq=hq, reserve=reserve,
                     corps=tuple(corps))


@dataclass
class _Numbers:
    """The brigade numbers an army has used so far, each with the corps that holds it."""

    infantry: dict[int, str] = field(default_factory=dict)
    cavalry: dict[int, str] = field(default_factory=dict)
    corps: str = ""


def _commander(problems: _Problems, label: str, value: Any) -> Commander | None:
    if value is None:
        return None  # reported as a missing key by the caller
    table = _table(problems, label, "the entry", value)
    if table is None:
        return None
    if not _check_keys(problems, label, table, _COMMANDER_KEYS, _COMMANDER_KEYS):
        return None
    name = _text(problems, label, "name", table["name"])
    grade = _enum(problems, label, "grade", table["grade"], Grade)
    return Commander(name, grade) if name and grade else None


def _corps(problems: _Problems, label: str, army: str, entry: Any, towns: Mapping[str, str],
           numbers: _Numbers) -> Corps | None:
    entry = _table(problems, label, "the entry", entry)
    if entry is None:
        return None
    complete = _check_keys(problems, label, entry, _CORPS_KEYS, _CORPS_KEYS)
    name = _text(problems, label, "name", entry["name"]) if "name" in entry else None
    nationality = entry.get("nationality")
    if "nationality" in entry and nationality not in NATIONALITIES:
        problems.add(label, f"nationality {_show(nationality)} is not {either(NATIONALITIES)}")
        nationality = None
    commander = _commander(problems, f"{label}, commander", entry.get("commander"))
    start = (_town(problems, label, "starting town", entry["start"], towns)
             if "start" in entry else None)
    infantry = _infantry(problems, label, entry["infantry"], numbers) if "infantry" in entry \
        else None
    cavalry = _cavalry(problems, label, entry["cavalry"], numbers) if "cavalry" in entry else None
    artillery = _artillery(problems, label, entry["artillery"]) if "artillery" in entry else None
    parts = (name, nationality, commander, start, infantry, cavalry, artillery)
    if not complete or None in parts:
        return None
    return Corps(name=name, army=army, nationality=nationality, commander=commander, start=start,
                 infantry=infantry, cavalry=cavalry, artillery=artillery)


def _brigade_number(problems: _Problems, label: str, arm: str, table: Mapping,
                    numbers: _Numbers) -> int | None:
    corps = numbers.corps
    number = _number(problems, label, "number", table["number"])
    if number is not None:
        used = numbers.infantry if arm == "infantry" else numbers.cavalry
        if number in used:
            problems.add(label, f"number {number} is already used in {used[number]}")
        else:
            used[number] = corps
    return number


def _infantry(problems: _Problems, label: str, value: Any,
              numbers: _Numbers) -> tuple[InfantryBrigade, ...] | None:
    if not isinstance(value, list):
        problems.add(label, "infantry must be a list of brigade tables")
        return None
    if len(value) != INFANTRY_PER_CORPS:
        problems.add(label, f"has {len(value)} infantry brigades; a corps has "
                            f"{INFANTRY_PER_CORPS}")
    brigades = []
    for index, item in enumerate(value, start=1):
        number = item.get("number") if isinstance(item, Mapping) else None
        name = (f"brigade {number}" if isinstance(number, int) and not isinstance(number, bool)
                else f"infantry brigade {index} in the list")
        entry = f"{label}, {name}"
        table = _table(problems, entry, "the brigade", item)
        if table is None or not _check_keys(problems, entry, table, _INFANTRY_KEYS,
                                            _INFANTRY_KEYS[:4]):
            brigades.append(None)
            continue
        brigades.append(_infantry_brigade(problems, entry, table, numbers))
    if None in brigades or len(value) != INFANTRY_PER_CORPS:
        return None
    return tuple(brigades)


def _infantry_brigade(problems: _Problems, entry: str, table: Mapping,
                      numbers: _Numbers) -> InfantryBrigade | None:
    number = _brigade_number(problems, entry, "infantry", table, numbers)
    ratings = [_enum(problems, entry, what, table[key], Rating)
               for what, key in (("class", "class"), ("firepower", "firepower"),
                                 ("skirmish", "skirmish"))]
    name = table.get("name", "")
    if "name" in table:
        name = _text(problems, entry, "name", name)
    if number is None or None in ratings or name is None:
        return None
    return InfantryBrigade(number, *ratings, name=name)


def _cavalry(problems: _Problems, label: str, value: Any,
             numbers: _Numbers) -> CavalryBrigade | None:
    number = value.get("number") if isinstance(value, Mapping) else None
    entry = (f"{label}, cavalry brigade {number}"
             if isinstance(number, int) and not isinstance(number, bool)
             else f"{label}, cavalry brigade")
    table = _table(problems, entry, "the brigade", value)
    if table is None or not _check_keys(problems, entry, table, _CAVALRY_KEYS,
                                        ("number", "class", "type")):
        return None
    number = _brigade_number(problems, entry, "cavalry", table, numbers)
    klass = _enum(problems, entry, "class", table["class"], Rating)
    kind = _enum(problems, entry, "type", table["type"], CavalryType)
    lancers = _flag(problems, entry, "lancers", table["lancers"]) if "lancers" in table else False
    name = _text(problems, entry, "name", table["name"]) if "name" in table else ""
    if None in (number, klass, kind, lancers, name):
        return None
    return CavalryBrigade(number, klass, kind, lancers=lancers, name=name)


def _artillery(problems: _Problems, label: str, value: Any) -> Artillery | None:
    entry = f"{label}, artillery"
    table = _table(problems, entry, "the battery", value)
    if table is None or not _check_keys(problems, entry, table, _ARTILLERY_KEYS,
                                        ("class", "calibre")):
        return None
    klass = _enum(problems, entry, "class", table["class"], Rating)
    calibre = table["calibre"]
    if calibre not in CALIBRES or isinstance(calibre, bool):
        problems.add(entry, f"calibre {_show(calibre)} is not "
                            f"{either(str(c) for c in CALIBRES)} pounds")
        calibre = None
    horse = _flag(problems, entry, "horse", table["horse"]) if "horse" in table else False
    if None in (klass, calibre, horse):
        return None
    return Artillery(klass, int(calibre), horse=horse)


# --- objectives -------------------------------------------------------------------------------

def load_objectives(files: Mapping[str, str],
                    towns: Mapping[str, str]) -> tuple[Objective, ...]:
    """The campaign objectives from ``objectives.toml``; a scenario without the file has none."""
    if OBJECTIVES_FILE not in files:
        return ()
    data = parse_toml(files, OBJECTIVES_FILE)
    problems = _Problems(OBJECTIVES_FILE)
    _check_keys(problems, "", data, ("objective",), ())
    entries = data.get("objective", [])
    if not isinstance(entries, list):
        problems.add("", "'objective' must be a list of [[objective]] tables")
        entries = []
    objectives = []
    for index, item in enumerate(entries, start=1):
        label = f"objective {index}"
        table = _table(problems, label, "the entry", item)
        if table is None or not _check_keys(problems, label, table, _OBJECTIVE_KEYS,
                                            _OBJECTIVE_KEYS[:3]):
            continue
        theatre = _enum(problems, label, "theatre", table["theatre"], Theatre)
        side = _enum(problems, label, "side", table["side"], Side)
        description = _text(problems, label, "description", table["description"])
        names = table.get("towns", [])
        if not isinstance(names, list):
            problems.add(label, "towns must be a list of town names")
            continue
        resolved = tuple(_town(problems, label, "town", n, towns) for n in names)
        if None in (theatre, side, description) or None in resolved:
            continue
        objectives.append(Objective(theatre, side, description, resolved))
    problems.raise_if_any()
    return tuple(objectives)


# --- finding an army group --------------------------------------------------------------------

def _folded(text: str) -> str:
    """Lower case without accents, so 'blucher' finds 'Blücher'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def army_named(armies: Sequence[ArmyGroup], name: str) -> ArmyGroup:
    """The army group of that name, in any case and with or without accents."""
    for army in armies:
        if _folded(army.name) == _folded(name):
            return army
    known = ", ".join(a.name for a in armies)
    raise CampaignError(f"no army group called '{name}' (known: {known})")
