"""Loading a whole scenario from its files: the shipped folder, or the copy a campaign keeps."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.files import one_line, parse_toml
from campaign1813.campaign.scenario.map_loader import TOWNS, load_map, town_names
from campaign1813.campaign.scenario.types import ArmyGroup, Objective, Scenario
from campaign1813.data import scenario_dir


def read_scenario_folder(path: str | Path | None = None) -> dict[str, str]:
    """Every ``.toml`` file of a scenario folder (default: the shipped 1813), by relative path.

    A file that cannot be read, is binary or is not UTF-8, and a folder that a symbolic link
    leads back into, are refused in one line that names the file and the reason."""
    root = scenario_dir() if path is None else Path(path)
    if isinstance(root, Path) and not root.is_dir():
        raise ScenarioError(f"{root}: no such scenario folder")
    files: dict[str, str] = {}

    def walk(folder: Path, prefix: str, inside: frozenset[tuple[int, int]]) -> None:
        try:
            here = folder.stat()
            entries = sorted(folder.iterdir(), key=lambda e: e.name)
        except OSError as exc:
            raise ScenarioError(one_line(f"{prefix or folder}: cannot be read "
                                         f"({exc.strerror or exc})")) from None
        key = (here.st_dev, here.st_ino)
        if key in inside:
            raise ScenarioError(one_line(f"{prefix.rstrip('/')}: leads back to a folder "
                                         "already read (a loop of symbolic links)"))
        for entry in entries:
            name = f"{prefix}{entry.name}"
            if entry.is_dir():
                walk(entry, f"{name}/", inside | {key})
            elif entry.name.endswith(".toml"):
                files[name] = _text_of(entry, name)

    walk(root, "", frozenset())
    return files


def _text_of(path: Path, name: str) -> str:
    """A scenario file's text, or a one-line ScenarioError saying why it is not text."""
    if path.exists() and not path.is_file():  # a pipe or a device: reading it may never end
        raise ScenarioError(one_line(f"{name}: is not a regular file"))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(one_line(f"{name}: cannot be read ({exc.strerror or exc})")) from None
    if b"\x00" in raw:
        raise ScenarioError(one_line(f"{name}: is a binary file, not TOML text"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ScenarioError(one_line(f"{name}: is not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                                     f"on line {line})")) from None


def load_scenario(files: Mapping[str, str] | None = None) -> Scenario:
    """The validated scenario from its files (default: the shipped 1813 scenario)."""
    from campaign1813.campaign.scenario.forces import (
        far_from_theatre,
        load_armies,
        load_objectives,
        load_settings,
    )

    files = read_scenario_folder() if files is None else files
    problems: list[str] = []
    settings = None
    try:
        settings = load_settings(files)
    except ScenarioError as exc:
        problems.append(str(exc))
    map_data = None
    names: dict[str, str] | None
    try:
        map_data = load_map(files)
        names = town_names(map_data)
    except ScenarioError as exc:
        problems.append(str(exc))
        names = _names_in_towns_file(files)
    if names is None:  # without the towns nothing else can be checked
        raise ScenarioError("\n".join(problems))
    armies: tuple[ArmyGroup, ...] = ()
    objectives: tuple[Objective, ...] = ()
    try:
        armies = load_armies(files, names)
    except ScenarioError as exc:
        problems.append(str(exc))
    try:
        objectives = load_objectives(files, names)
    except ScenarioError as exc:
        problems.append(str(exc))
    if map_data is not None:  # a corps far outside its theatre cannot be a campaign's opening
        problems.extend(far_from_theatre(armies, map_data))
    if problems:
        raise ScenarioError("\n".join(problems))
    # No problems means the settings and the map both loaded.
    assert settings is not None and map_data is not None
    return Scenario(name=settings.name, map=map_data, armies=armies, objectives=objectives,
                    settings=settings)


def _names_in_towns_file(files: Mapping[str, str]) -> dict[str, str] | None:
    """Town names and aliases from the towns file alone, so the orders of battle can still be
    checked when the roads are at fault; None if the towns file itself cannot be read."""
    try:
        towns = parse_toml(files, TOWNS).get("town", [])
    except ScenarioError:
        return None
    names: dict[str, str] = {}
    for town in towns if isinstance(towns, list) else ():
        if isinstance(town, dict) and isinstance(town.get("name"), str):
            aliases = town.get("aliases", [])
            for label in (town["name"], *(aliases if isinstance(aliases, list) else ())):
                if isinstance(label, str):
                    names.setdefault(label, town["name"])
    return names
