"""The day's report pane with the supply lines End Day writes: each corps short or
out of supply says why, and those lines stand out from the rest."""

from PySide6.QtGui import QFont

from campaign1813.campaign import services
from campaign1813.campaign.day.changes import Changes
from campaign1813.ui.day_windows import ALARM_COLOUR, SHORT_COLOUR, ReportPane, supply_mark
from campaign1813.ui.operation import Operation


def _blocks(pane):
    """Each line of the pane with its colour and whether it is bold."""
    out = []
    block = pane.document().begin()
    while block.isValid():
        fmt, it, longest = None, block.begin(), 0
        while not it.atEnd():  # the format of the line's words (not of its indent)
            fragment = it.fragment()
            if len(fragment.text().strip()) > longest:
                fmt, longest = fragment.charFormat(), len(fragment.text().strip())
            it += 1
        out.append((block.text().strip(), fmt.foreground().color().name() if fmt else None,
                    fmt.fontWeight() >= QFont.Weight.Bold if fmt else False))
        block = block.next()
    return out


def test_the_why_lines_of_supply_are_marked():
    """Supply: 'out of supply, 400 men lost' and a lost depot in red, 'not
    resupplied … moved today' and a last day eaten in amber; stocks and other lines plain."""
    assert supply_mark("13 Polish Corps: out of supply (not resupplied from Hamburg — it "
                       "moved today), 400 men lost (the umpire chooses the brigade).") \
        == ALARM_COLOUR
    assert supply_mark("The Second French Army lost its depot at Magdeburg with 3 days "
                       "of supplies.") == ALARM_COLOUR
    assert supply_mark("5 Corps: not resupplied from Magdeburg — moved today; 1 day left.") \
        == SHORT_COLOUR
    assert supply_mark("6 Corps: its last day of supplies eaten.") == SHORT_COLOUR
    assert supply_mark("  Second French Army, days of supplies at nightfall: 4 Corps 3.") is None
    assert supply_mark("4 Corps marched to Harburg.") is None


def test_the_pane_shows_them_bold_in_their_colour_and_the_next_line_plain(qtbot):
    """The marked line is bold in its colour; the line after it is plain again."""
    pane = ReportPane()
    qtbot.addWidget(pane)
    pane.show_changes(Changes("End Day", (
        "5 Corps: not resupplied from Magdeburg — moved today; 1 day left.",
        "6 Corps: out of supply, 400 men lost (the umpire chooses the brigade).",
        "Supply of the Second French Army: every corps ate a day.")))
    lines = _blocks(pane)
    assert lines[0] == ("— End Day —", "#000000", False)
    assert lines[1] == ("5 Corps: not resupplied from Magdeburg — moved today; 1 day left.",
                        SHORT_COLOUR, True)
    assert lines[2][1:] == (ALARM_COLOUR, True)
    assert lines[3] == ("Supply of the Second French Army: every corps ate a day.",
                        "#000000", False)


def test_end_day_with_supply_writes_its_lines_to_the_pane(window):
    """Supply 2020: four days eat every corps' 4; the fifth End Day's report says each corps
    is out of supply, 400 men lost, and each army's stocks at nightfall."""
    Operation(window.campaign,
              lambda doc: services.change_setting(doc, "supply", "2020")).perform()
    for _ in range(5):
        window.end_day()
    text = window.report_pane.toPlainText()
    assert "5 Corps: out of supply, 400 men lost (the umpire chooses the brigade)." in text
    assert "Second French Army, days of supplies at nightfall: 4 Corps 0, 5 Corps 0" in text
