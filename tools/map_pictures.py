"""Write the pictures of the road map: the whole map and one per theatre, as PNG files.

    python -m tools.map_pictures OUTDIR

Starting positions (each army group's HQ and each corps) are marked when the shipped scenario's
orders of battle load; otherwise the map is drawn without them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from campaign1813.campaign.scenario.types import Scenario
from campaign1813.maps.types import MapData, Theatre
from campaign1813.ui.map.render import Marker, render_map

WHOLE_MAP = "whole-map.png"


def theatre_file(theatre: Theatre) -> str:
    """The picture's file name for a theatre, e.g. ``northern-germany.png``."""
    return theatre.value.lower().replace(" ", "-") + ".png"


def load_shipped() -> tuple[MapData, Scenario | None, str | None]:
    """The shipped map, the whole scenario if it loads, and why it did not if it does not."""
    try:
        from campaign1813.campaign.scenario.loader import load_scenario

        scenario = load_scenario()
        return scenario.map, scenario, None
    except (ImportError, ValueError) as exc:
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    try:
        from campaign1813.campaign.scenario.loader import read_scenario_folder
        from campaign1813.campaign.scenario.map_loader import load_map

        return load_map(read_scenario_folder()), None, reason
    except ImportError:
        from campaign1813.maps.tools.map_toml import read_map

        return read_map(), None, reason


def starting_markers(scenario: Scenario | None, hq_only: bool = False) -> list[Marker]:
    """Flags for every army group's HQ and (unless ``hq_only``) every corps' starting town."""
    if scenario is None:
        return []
    markers = []
    for army in scenario.armies:
        markers.append(Marker(army.hq, f"{_short(army.cinc.name)} HQ", army.side))
        if hq_only:
            continue
        for corps in army.corps:
            markers.append(Marker(corps.start, corps.name, army.side))
    return markers


def _short(name: str) -> str:
    """A commander's surname for a flag: 'Marshal Davout' -> 'Davout'."""
    return name.split()[-1] if name else name


def write_pictures(outdir: Path, map_data: MapData, scenario: Scenario | None = None,
                   width: int = 2400) -> list[Path]:
    """Draw the whole map and each theatre into ``outdir``; return the files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    known = {t.name for t in map_data.towns}
    hqs = [m for m in starting_markers(scenario, hq_only=True) if m.town in known]
    whole = render_map(map_data, width=width, markers=hqs)
    path = outdir / WHOLE_MAP
    if not whole.save(str(path)):
        raise OSError(f"{path}: could not write the picture")
    written.append(path)
    for theatre in Theatre:
        markers = [m for m in starting_markers(scenario)
                   if _theatre_of(map_data, m.town) == theatre]
        image = render_map(map_data, theatre=theatre, width=width, markers=markers)
        path = outdir / theatre_file(theatre)
        if not image.save(str(path)):
            raise OSError(f"{path}: could not write the picture")
        written.append(path)
    return written


def _theatre_of(map_data: MapData, town: str) -> Theatre | None:
    for t in map_data.towns:
        if t.name == town:
            return t.theatre
    return None


def main(argv: list[str] | None = None) -> int:
    """Command line: write the map pictures into the folder given."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tools.map_pictures OUTDIR", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication

    # a scene of graphics items needs the widgets' application, not only the GUI's
    _app = QApplication.instance() or QApplication(["map_pictures"])
    try:
        map_data, scenario, reason = load_shipped()
        if scenario is None:
            print(f"starting positions left off: the scenario did not load ({reason})",
                  file=sys.stderr)
        for path in write_pictures(Path(args[0]), map_data, scenario):
            print(path)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

