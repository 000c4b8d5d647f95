"""Pictures of supply on the umpire's desk (issue 29): ``docs/screens/supply-*.png``.

On a throwaway 1813 campaign with the 2016 supply rule: 5 Corps makes a depot at Magdeburg
with 17 Brigade and a column of 4 days leaves Hamburg for Harburg on 1 May; 5 Corps then
marches; on 4 May 4 Corps draws at Hamburg. Written into the folder given (default
``docs/screens``): ``supply-map.png`` (the window on Northern Germany: the depots' stores, the
column's wagon, each corps' days on its flag, the corps out of supply in red),
``supply-pad.png`` (the order pad's supply orders, a refusal in red) and ``supply-report.png``
(the day's report with its supply lines). Run on a virtual X screen (Xvfb).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtGui import QTextDocument

from campaign1813.campaign import services
from campaign1813.ui.operation import Operation
from campaign1813.ui.supply_orders import SupplyRequest
from tools.pictures import new_campaign_window, save, start

SIZE = (1600, 1000)




def main(argv: list[str] | None = None) -> int:
    """Write the pictures into the folder given (default ``docs/screens``)."""
    app, out = start(argv)
    with tempfile.TemporaryDirectory() as tmp:
        window = new_campaign_window(Path(tmp), SIZE)
        Operation(window.campaign,
                  lambda doc: services.change_setting(doc, "supply", "2016")).perform()
        pad = window.orders_panel
        pad.supply_here(SupplyRequest("depot", corps="5 Corps", town="Magdeburg", brigade=17))
        pad.supply_here(SupplyRequest("move", origin="Hamburg", town="Harburg", days=4))
        window.end_day()
        window.orders_panel.order_here("5 Corps", "Move", "Burg")
        for _ in range(2):
            window.end_day()
        pad.supply_here(SupplyRequest("resupply", corps="4 Corps", origin="Hamburg"))
        window.end_day()
        window.campaign_view.fit_theatre()
        save(app, window, out / "supply-map.png")
        window.orders_panel.order_here("6 Corps", "Move", "Brunswick")
        pad.supply_here(SupplyRequest("resupply", corps="6 Corps", origin="Magdeburg"))
        save(app, window.orders_dock, out / "supply-pad.png")
        window.end_day()  # 5 May: 5 Corps and others out of supply, 400 men each
        window.report_dock.show()
        window.report_dock.raise_()
        pane = window.report_pane
        pane.moveCursor(pane.textCursor().MoveOperation.End)
        pane.find("out of supply, 400 men", QTextDocument.FindFlag.FindBackward)
        pane.find("out of supply, 400 men", QTextDocument.FindFlag.FindBackward)
        pane.centerCursor()
        cursor = pane.textCursor()
        cursor.clearSelection()
        pane.setTextCursor(cursor)
        save(app, window.report_dock, out / "supply-report.png")
        window.close()
        if window.document is not None:
            window.document.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
