"""Write the pre-built ground the map draws from: ``python tools/build_ground.py``.

Makes ``campaign1813/data/geography/ground.json`` (the land outline and where each road meets a
river) from the land file and the 1813 scenario's map, as :mod:`campaign1813.maps.prebuilt`
describes. Run it after changing ``land.toml`` or the map's towns, roads or rivers;
``tests/maps/test_prebuilt.py`` fails until it is run.
"""

from __future__ import annotations

import sys

from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.maps.prebuilt import GROUND_FILE, ground_text


def main() -> int:
    """Write the file, and say whether it changed."""
    text = ground_text(load_scenario().map)
    old = GROUND_FILE.read_text(encoding="utf-8") if GROUND_FILE.exists() else None
    if old == text:
        print(f"{GROUND_FILE.name} is current")
        return 0
    GROUND_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {GROUND_FILE} ({len(text.encode('utf-8')):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
