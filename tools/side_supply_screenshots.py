"""Pictures of a side's own supply on its own map (records 0025 and 0029):
``docs/screens/side-supply-*.png``.

On a throwaway 1813 campaign with fog on and the 2016 supply rule kept from 2 May: 5 Corps
makes a depot at Magdeburg with 17 Brigade and a column of 4 days leaves Hamburg for Harburg.
On 3 May the pictures are taken: ``side-supply-french.png`` (View ▸ As the French on Northern
Germany: the main depot at Hamburg, doubled under its roof, the new depot at Magdeburg, the
column's wagon at Harburg, each corps' days on its flag), ``side-supply-french-close.png``
(the same window closer, from Hamburg to Hanover and Magdeburg) and ``side-supply-allied.png`` (the
Allies' window the same day: their own depots and days, nothing of the French supply). Run on
a virtual X screen (Xvfb) so the pictures come from real windows.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QRectF

from campaign1813.campaign import services
from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.types import Theatre
from campaign1813.ui.operation import Operation
from campaign1813.ui.side_window import SideWindow
from campaign1813.ui.supply_orders import SupplyRequest
from tools.pictures import new_campaign_window, save, start

SIZE = (1400, 1000)


def _shown(window: SideWindow | None, theatre: Theatre) -> SideWindow:
    """A side's window at the pictures' size, fitted to a theatre, its map built."""
    assert window is not None
    window.resize(*SIZE)
    window.map_view.finish_building()
    window.map_view.fit(window.scene.theatre_rect(theatre))
    return window


def main(argv: list[str] | None = None) -> int:
    """Write the pictures into the folder given (default ``docs/screens``)."""
    app, out = start(argv)
    with tempfile.TemporaryDirectory() as tmp:
        window = new_campaign_window(Path(tmp), SIZE)
        doc = window.document
        assert doc is not None
        services.change_setting(doc, "fog", "on")
        window.end_day()
        Operation(window.campaign,
                  lambda d: services.change_setting(d, "supply", "2016")).perform()
        pad = window.orders_panel
        pad.supply_here(SupplyRequest("depot", corps="5 Corps", town="Magdeburg", brigade=17))
        pad.supply_here(SupplyRequest("move", origin="Hamburg", town="Harburg", days=4))
        window.end_day()
        french = _shown(window.view_as(Side.FRENCH), Theatre.NORTHERN_GERMANY)
        save(app, french, out / "side-supply-french.png")
        towns = [french.scene.town_point(t) for t in ("Hamburg", "Magdeburg", "Hanover")]
        xs, ys = [p.x() for p in towns], [p.y() for p in towns]
        pad_x, pad_y = 0.25 * (max(xs) - min(xs)), 0.25 * (max(ys) - min(ys))
        french.map_view.fit(QRectF(min(xs) - pad_x, min(ys) - pad_y,
                                   max(xs) - min(xs) + 2 * pad_x,
                                   max(ys) - min(ys) + 2 * pad_y))
        save(app, french, out / "side-supply-french-close.png")
        allied = _shown(window.view_as(Side.ALLIED), Theatre.NORTHERN_GERMANY)
        save(app, allied, out / "side-supply-allied.png")
        for side in (french, allied):
            print(side.side.value, [(m.town, m.days, m.main, m.column)
                                    for m in side.scene.supply.marks])
        window.view_as(None)
        window.close()
        doc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
