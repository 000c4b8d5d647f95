"""Reading the orders of battle, the objectives and the settings of a scenario.

Every loader takes the scenario's files as a mapping of relative path to text, so the same code
reads the shipped folder and the copy kept inside a campaign file. Each checks the file against
its model in :mod:`~campaign1813.campaign.scenario.schema`, then what the model cannot see (towns
on the map, names and brigade numbers used once), collects every problem, and refuses the lot
in one :class:`ScenarioError` with one line per problem: the file, the entry and the reason, e.g.
``armies.toml: 4 Corps (Second French Army), brigade 15: firepower 'D' is not A, B or C``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.files import (
    Label,
    Loc,
    Problems,
    Style,
    one_line,
    parse_toml,
    position,
    show,
    value_at,
)
from campaign1813.campaign.scenario.schema import (
    CALIBRES,
    INFANTRY_PER_CORPS,
    NATIONALITIES,
    ArmiesFile,
    ArmyEntry,
    CommanderEntry,
    CorpsEntry,
    ObjectivesFile,
    SettingsFile,
)
from campaign1813.campaign.scenario.types import (
    ArmyGroup,
    Artillery,
    CavalryBrigade,
    Commander,
    Corps,
    InfantryBrigade,
    MarchRates,
    Objective,
    Settings,
)
from campaign1813.maps.geometry import town_miles
from campaign1813.maps.names import NameIndex
from campaign1813.maps.types import MapData

__all__ = ["ARMIES_FILE", "CALIBRES", "INFANTRY_PER_CORPS", "NATIONALITIES", "OBJECTIVES_FILE",
           "SETTINGS_FILE", "THEATRE_MILES", "army_named", "far_from_theatre", "load_armies",
           "load_objectives", "load_settings"]

ARMIES_FILE = "armies.toml"
OBJECTIVES_FILE = "objectives.toml"
SETTINGS_FILE = "settings.toml"
# How far from its army's theatre an HQ or a corps may start: a town of another theatre within
# these miles of one of its own (across the border, a week's march on foot) may be a campaign's
# opening; farther (a corps of an army in Germany starting in Madrid) is a slip of the pen.
THEATRE_MILES = 100.0


def _checked_value(problems: Problems, loc: Loc) -> Any:
    """The value at ``loc`` if it is there and the file's model accepted it, else None."""
    value = value_at(problems.data, loc)
    return value if value is not None and problems.valid(loc) else None


def _canonical(towns: Mapping[str, str], value: Any) -> str | None:
    """The town's canonical name; names are read without surrounding spaces, as the model does."""
    return towns.get(value.strip()) if isinstance(value, str) else None


def _on_map(towns: Mapping[str, str], value: str) -> str:
    """The canonical name of a town the checks have already found on the map."""
    name = _canonical(towns, value)
    assert name is not None, f"{value!r} is not on the map"
    return name


# --- settings ---------------------------------------------------------------------------------

_SETTINGS_STYLE = Style(nouns={
    **dict.fromkeys(("contact_miles", "reinforce_miles", "road", "off_road", "difficult",
                     "extra_miles", "messenger_miles"), "a number of miles"),
    "steps_per_day": "a whole number"})


def _settings_label(loc: Loc) -> tuple[str, str]:
    tables = 2 if loc[:1] == ("march",) and len(loc) > 1 and loc[1] in ("foot", "mounted") else 1
    if len(loc) <= tables:
        return (".".join(map(str, loc)), "the section") if loc else ("", "the file")
    return ".".join(map(str, loc[:tables])), str(loc[-1])


def load_settings(files: Mapping[str, str]) -> Settings:
    """The campaign's settings from ``settings.toml``; a key left out keeps its default."""
    problems = Problems(SETTINGS_FILE, parse_toml(files, SETTINGS_FILE), _SETTINGS_STYLE)
    model = problems.check(SettingsFile, _settings_label)
    problems.raise_if_any()
    assert model is not None  # a file the model refused has problems, and was refused above
    march, forced, options = model.march, model.forced_march, model.options
    return Settings(
        name=model.campaign.name, start_date=model.campaign.start_date,
        contact_miles=model.distances.contact_miles,
        reinforce_miles=model.distances.reinforce_miles,
        foot_rate=MarchRates(march.foot.road, march.foot.off_road, march.foot.difficult),
        mounted_rate=MarchRates(march.mounted.road, march.mounted.off_road,
                                march.mounted.difficult),
        forced_march_extra_miles=forced.extra_miles, forced_march_cost=forced.cost,
        carry_casualties_forward=options.carry_casualties_forward,
        messenger_orders=options.messenger_orders, messenger_miles=options.messenger_miles,
        steps_per_day=options.steps_per_day, fog=options.fog, recce_miles=options.recce_miles,
        release=options.release, supply=options.supply,
        supply_attrition=options.supply_attrition)


# --- armies -----------------------------------------------------------------------------------

_ARMIES_STYLE = Style(
    lists={"army": ("'army' must be a list of [[army]] tables",) * 2,
           "corps": ("corps must be a list of [[army.corps]] tables, at least one",) * 2,
           "infantry": ("infantry must be a list of brigade tables",
                        f"has {{count}} infantry brigades; a corps has {INFANTRY_PER_CORPS}")},
    nouns={"number": "a whole number"},
    units={"calibre": " pounds"})
_COMMANDERS = {"cinc": "CinC", "reserve": "reserve commander"}


def _army_label(data: Any, index: int) -> str:
    name = value_at(data, ("army", index, "name"))
    return name if isinstance(name, str) else f"army {index + 1}"


def _corps_label(data: Any, army: int, index: int) -> str:
    name = value_at(data, ("army", army, "corps", index, "name"))
    return f"{name if isinstance(name, str) else f'corps {index + 1}'} ({_army_label(data, army)})"


def _number_label(value: Any) -> str | None:
    return None if isinstance(value, bool) or not isinstance(value, int) else str(value)


def _armies_labeller(data: Any) -> Label:
    """Entries named as the umpire knows them: the army, the corps and army, the brigade."""

    def label(loc: Loc) -> tuple[str, str]:
        if len(loc) < 2 or loc[0] != "army":
            return "", str(loc[-1]) if loc else "the file"
        army, rest = _army_label(data, position(loc[1])), loc[2:]
        if not rest:
            return army, "the entry"
        if rest[0] in _COMMANDERS:
            return f"{army}, {_COMMANDERS[rest[0]]}", str(rest[1]) if len(rest) > 1 else "the entry"
        if rest[0] != "corps" or len(rest) == 1:
            return army, str(rest[0])
        corps, rest = _corps_label(data, position(loc[1]), position(loc[3])), rest[2:]
        where = loc[:4]
        if not rest:
            return corps, "the entry"
        if rest[0] == "commander":
            return f"{corps}, commander", str(rest[1]) if len(rest) > 1 else "the entry"
        if rest[0] == "infantry" and len(rest) > 1:
            number = _number_label(value_at(data, (*where, "infantry", rest[1], "number")))
            brigade = (f"brigade {number}" if number
                       else f"infantry brigade {position(rest[1]) + 1} in the list")
            return f"{corps}, {brigade}", str(rest[2]) if len(rest) > 2 else "the brigade"
        if rest[0] == "cavalry":
            number = _number_label(value_at(data, (*where, "cavalry", "number")))
            brigade = f"{corps}, cavalry brigade" + (f" {number}" if number else "")
            return brigade, str(rest[1]) if len(rest) > 1 else "the brigade"
        if rest[0] == "artillery":
            return f"{corps}, artillery", str(rest[1]) if len(rest) > 1 else "the battery"
        return corps, str(rest[0])

    return label


def load_armies(files: Mapping[str, str], towns: Mapping[str, str]) -> tuple[ArmyGroup, ...]:
    """The army groups from ``armies.toml``; ``towns`` maps every town name and alias to its
    canonical name, and starting towns are stored canonical."""
    data = parse_toml(files, ARMIES_FILE)
    problems = Problems(ARMIES_FILE, data, _ARMIES_STYLE)
    model = problems.check(ArmiesFile, _armies_labeller(data))
    _check_across_armies(problems, towns)
    problems.raise_if_any()
    assert model is not None  # a file the model refused has problems, and was refused above
    return tuple(_army(entry, towns) for entry in model.army)


def _check_across_armies(problems: Problems, towns: Mapping[str, str]) -> None:
    """What the file's model cannot see: towns on the map, names and numbers used once."""
    data = problems.data
    entries = value_at(data, ("army",))
    army_names: dict[str, int] = {}
    corps_homes: dict[str, str] = {}
    for i in range(len(entries) if isinstance(entries, list) else 0):
        label = _army_label(data, i)
        name = value_at(data, ("army", i, "name"))
        if isinstance(name, str) and army_names.setdefault(name, i + 1) != i + 1:
            problems.add(label, f"army name is already used by army {army_names[name]}",
                         ("army", i, "name"))
        _check_town(problems, towns, label, "HQ town", ("army", i, "hq"))
        used: dict[str, dict[int, str]] = {"infantry": {}, "cavalry": {}}
        corps_entries = value_at(data, ("army", i, "corps"))
        for j in range(len(corps_entries) if isinstance(corps_entries, list) else 0):
            where = ("army", i, "corps", j)
            corps_label = _corps_label(data, i, j)
            corps_name = value_at(data, (*where, "name"))
            if isinstance(corps_name, str):
                if corps_name in corps_homes:
                    problems.add(corps_label, f"corps name '{corps_name}' is already used in "
                                              f"{corps_homes[corps_name]}", (*where, "name"))
                else:
                    corps_homes[corps_name] = label
            _check_town(problems, towns, corps_label, "starting town", (*where, "start"))
            holder = corps_name if isinstance(corps_name, str) else f"corps {j + 1}"
            _check_numbers(problems, where, corps_label, holder, used)


def _check_town(problems: Problems, towns: Mapping[str, str], label: str, what: str,
                loc: Loc) -> None:
    value = _checked_value(problems, loc)
    if value is not None and _canonical(towns, value) is None:
        problems.add(label, f"{what} {show(value)} is not on the map", loc)


def _check_numbers(problems: Problems, where: Loc, corps: str, holder: str,
                   used: dict[str, dict[int, str]]) -> None:
    """Brigade numbers are the army's: each used once by its infantry, once by its cavalry."""
    infantry = value_at(problems.data, (*where, "infantry"))
    brigades = [(*where, "infantry", k) for k in range(
        len(infantry) if isinstance(infantry, list) else 0)]
    for arm, loc in [("infantry", b) for b in brigades] + [("cavalry", (*where, "cavalry"))]:
        number = _checked_value(problems, (*loc, "number"))
        if number is None:
            continue
        label = f"{corps}, brigade {number}" if arm == "infantry" else (
            f"{corps}, cavalry brigade {number}")
        if number in used[arm]:
            problems.add(label, f"number {number} is already used in {used[arm][number]}",
                         (*loc, "number"))
        else:
            used[arm][number] = holder


def _commander(entry: CommanderEntry) -> Commander:
    return Commander(entry.name, entry.grade)


def _army(entry: ArmyEntry, towns: Mapping[str, str]) -> ArmyGroup:
    return ArmyGroup(name=entry.name, side=entry.side, theatre=entry.theatre,
                     cinc=_commander(entry.cinc), hq=_on_map(towns, entry.hq),
                     reserve=_commander(entry.reserve),
                     corps=tuple(_corps(c, entry.name, towns) for c in entry.corps))


def _corps(entry: CorpsEntry, army: str, towns: Mapping[str, str]) -> Corps:
    cavalry, artillery = entry.cavalry, entry.artillery
    return Corps(
        name=entry.name, army=army, nationality=entry.nationality,
        commander=_commander(entry.commander), start=_on_map(towns, entry.start),
        infantry=tuple(InfantryBrigade(b.number, b.class_, b.firepower, b.skirmish, name=b.name)
                       for b in entry.infantry),
        cavalry=CavalryBrigade(cavalry.number, cavalry.class_, cavalry.type,
                               lancers=cavalry.lancers, name=cavalry.name),
        artillery=Artillery(artillery.class_, artillery.calibre, horse=artillery.horse))


def far_from_theatre(armies: Sequence[ArmyGroup], map_data: MapData) -> list[str]:
    """Each HQ and corps that starts outside its army's theatre and more than
    ``THEATRE_MILES`` from every town of it, one line each."""
    towns = {t.name: t for t in map_data.towns}
    problems = []
    for army in armies:
        own = [t for t in map_data.towns if t.theatre is army.theatre]
        starts = [(army.name, "HQ town", army.hq)]
        starts += [(f"{c.name} ({army.name})", "starting town", c.start) for c in army.corps]
        for label, what, name in starts:
            town = towns[name]
            if town.theatre is army.theatre:
                continue
            said = f"{ARMIES_FILE}: {label}: {what} {show(name)} is in {town.theatre}"
            if not own:
                problems.append(one_line(f"{said}, and the map has no town of the army's "
                                         f"theatre, {army.theatre}"))
                continue
            miles = min(town_miles(town, t) for t in own)
            if miles > THEATRE_MILES:
                problems.append(one_line(
                    f"{said}, {miles:.0f} miles from the nearest town of the army's theatre, "
                    f"{army.theatre} (at most {THEATRE_MILES:g})"))
    return problems


# --- objectives -------------------------------------------------------------------------------

_OBJECTIVES_STYLE = Style(lists={
    "objective": ("'objective' must be a list of [[objective]] tables",) * 2,
    "towns": ("towns must be a list of town names",) * 2})


def _objectives_label(loc: Loc) -> tuple[str, str]:
    if len(loc) < 2 or loc[0] != "objective":
        return "", str(loc[-1]) if loc else "the file"
    label, rest = f"objective {position(loc[1]) + 1}", loc[2:]
    if not rest:
        return label, "the entry"
    return label, "town" if rest[0] == "towns" and len(rest) > 1 else str(rest[0])


def load_objectives(files: Mapping[str, str],
                    towns: Mapping[str, str]) -> tuple[Objective, ...]:
    """The campaign objectives from ``objectives.toml``; a scenario without the file has none."""
    if OBJECTIVES_FILE not in files:
        return ()
    data = parse_toml(files, OBJECTIVES_FILE)
    problems = Problems(OBJECTIVES_FILE, data, _OBJECTIVES_STYLE)
    model = problems.check(ObjectivesFile, _objectives_label)
    entries = value_at(data, ("objective",))
    for i in range(len(entries) if isinstance(entries, list) else 0):
        names = value_at(data, ("objective", i, "towns"))
        for k in range(len(names) if isinstance(names, list) else 0):
            _check_town(problems, towns, f"objective {i + 1}", "town",
                        ("objective", i, "towns", k))
    problems.raise_if_any()
    assert model is not None  # a file the model refused has problems, and was refused above
    return tuple(Objective(o.theatre, o.side, o.description,
                           tuple(_on_map(towns, t) for t in o.towns))
                 for o in model.objective)


# --- finding an army group --------------------------------------------------------------------

def army_named(armies: Sequence[ArmyGroup], name: str) -> ArmyGroup:
    """The army group of that name, found as a town is (any case, umlauts and accents
    optional: :class:`~campaign1813.maps.names.NameIndex`)."""
    found = NameIndex((a.name, a.name) for a in armies).find(name)
    for army in armies:
        if army.name == found:
            return army
    known = ", ".join(a.name for a in armies)
    raise CampaignError(f"no army group called '{name}' (known: {known})")
