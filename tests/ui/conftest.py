"""A main window over a fresh 1813 campaign, with its own settings file."""

import pytest
from PySide6.QtCore import QSettings

from campaign1813.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path, fresh_campaign):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    assert w.open_file(fresh_campaign())
    yield w
    if w.document is not None:
        w.document.close()


def dump(window) -> dict:
    """The campaign-day state of the window's file."""
    from campaign1813.campaign.queries import state_json

    return state_json(window.document)


def table_row(window, name: str) -> list[str]:
    """The cells of a command's row in the commands' table."""
    table = window.campaign_view.table
    for i in range(table.topLevelItemCount()):
        group = table.topLevelItem(i)
        for j in range(group.childCount()):
            row = group.child(j)
            if row.text(0) == name:
                return [row.text(c) for c in range(table.columnCount())]
    raise AssertionError(f"{name} is not in the table")


def find_table_item(window, name: str):
    """A command's row item in the commands' table."""
    table = window.campaign_view.table
    for i in range(table.topLevelItemCount()):
        group = table.topLevelItem(i)
        for j in range(group.childCount()):
            if group.child(j).text(0) == name:
                return group.child(j)
    raise AssertionError(f"{name} is not in the table")


def in_sight(widget) -> bool:
    """Drawn whole on the window: neither clipped by a scroll area nor by the window's edge."""
    region = widget.visibleRegion()
    top_left = widget.mapTo(widget.window(), widget.rect().topLeft())
    inside = widget.window().rect().contains(widget.rect().translated(top_left))
    return widget.isVisible() and region.boundingRect() == widget.rect() and inside
