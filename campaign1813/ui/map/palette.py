"""The colours the window shows before its map is drawn: what lies beyond the map, the sea,
and each side's and nation's flag. They are kept apart from the map's style (``map.style``:
its other colours, pens, signs and lettering), so the window's first paint does not wait for
it; the map's scene and items take them from here too."""

from __future__ import annotations

from PySide6.QtGui import QColor

from campaign1813.campaign.scenario.types import Side

SEA = QColor("#c5d8e0")
# Beyond the map's outline (past its neat line), where it draws neither land nor sea.
OFF_MAP = QColor("#d6d2c8")
SIDE_COLOUR = {Side.FRENCH: QColor("#1f4fbf"), Side.ALLIED: QColor("#c0282d")}
# A corps' flag in its nation's colour; a nation not named flies its side's.
NATION_COLOUR = {
    "French": QColor("#1f4fbf"), "Italian": QColor("#2e7d4f"), "Polish": QColor("#8e2b5e"),
    "Westphalian": QColor("#4a5d8c"), "Prussian": QColor("#2b2b33"),
    "Russian": QColor("#2f6b3a"), "Austrian": QColor("#b8a23a"), "British": QColor("#c0282d"),
    "Spanish": QColor("#c46a12"), "Portuguese": QColor("#7a4b1e"),
    "Swedish": QColor("#2f74b5"),
}
