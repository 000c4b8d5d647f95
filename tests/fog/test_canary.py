"""Nothing leaks, by test (record 0025): for every day of a scripted ten-day campaign, every
French output shows no Allied secret (a corps' name, its exact strength, its commander) the
French have not been told, and shows each one once a released report tells it."""

import io
import json
import re
from datetime import date

import msgspec
import pypdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli.packet import packet_files
from campaign1813.campaign.day.actions import EndDay, IssueOrder, RecordResult, ReleaseReports
from campaign1813.campaign.day.fog import side_inputs, side_view
from campaign1813.campaign.day.ground import Ground, OrderRefused
from campaign1813.campaign.day.sideview import ForeignInput, build
from campaign1813.campaign.day.state import initial_state
from campaign1813.campaign.export import packet
from campaign1813.campaign.export.paper import install
from campaign1813.campaign.scenario.types import Side
from campaign1813.ui.console import LazyQtPaper
from campaign1813.ui.side_window import SideWindow

from ..day.builders import new_campaign
from .canary import CANARY_CORPS, TOWNS, canaries, canary_scenario, french_outputs, leaks, told

# the script: each day's orders (command, verb, town); the French close on the Allies, whose
# Zephyr corps scouts forward and whose Obscura corps stays far off all along
SCRIPT = {
    1: [("1 Corps", "Move", "T6"), ("2 Corps", "Recce", "T8"),
        ("Zephyr Canary Corps", "Move", "T9")],
    2: [("1 Corps", "Move", "T8"), ("Quokka Canary Corps", "Halt", "T9")],
    3: [("1 Corps", "Attack", "T9"), ("Vexillum Canary Corps", "Hold", "T10")],
    5: [("2 Corps", "Move", "T9")],
    6: [("Canary Host", "Move", "T12")],
    8: [("1 Corps", "Recce", "East")],
}


def _render_french(doc, out, window):
    """Every French output: the view's renderings, the French window's map scene (every
    item's text and tooltip) and tables, and every file of the French packet (its PDFs read
    back with pypdf)."""
    view = queries.side_view(doc, Side.FRENCH)
    window.show_view(view)
    scene = "\n".join(f"{m.spec.label}\n{m.spec.tooltip}\n{' '.join(m.spec.badges)}"
                      for m in window.scene.markers.values())
    scene += "\n" + "\n".join(map(repr, window.scene.supply.marks))
    lists = "\n".join(w.item(i).text() for w in (window.enemy, window.day_report, window.diary,
                                                 window.objectives, window.oob)
                      for i in range(w.count()))
    table = "\n".join(window.table.item(r, c).text() for r in range(window.table.rowCount())
                      for c in range(window.table.columnCount()))
    files = packet_files(str(doc.path), Side.FRENCH, out, force=True)
    extra = {}
    for path in files:
        if path.suffix == ".pdf":
            pages = pypdf.PdfReader(path).pages
            extra[path.name] = " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in pages)
        else:
            extra[path.name] = path.read_text(encoding="utf-8")
    return french_outputs(view, {**extra, "window's map scene": scene,
                                 "window's lists": lists, "window's table": table,
                                 "window's banner": window.banner.text()})


@pytest.fixture
def qt_paper():
    """The packet's PDFs, as the campaign1813 command makes them."""
    install(LazyQtPaper())
    yield
    install(None)


@pytest.mark.parametrize("supply", ["off", "2016"])
def test_ten_scripted_days_show_the_french_only_what_they_were_told(tmp_path, qt_paper, qtbot,
                                                                   supply):
    """Ten days, with the umpire holding every report of Zephyr Canary Corps until 7 May: on
    each day no untold secret in any French output, and every told one in them. With supply
    kept (2016; hungry corps' brigades chosen by lot), the French window's map draws each day
    the French depots only, and no output names the Allied army, whose depot and stocks are
    never told."""
    doc = new_campaign(tmp_path / "c.c1813", canary_scenario(
        release="umpire", supply=supply, supply_attrition="seeded"))
    window = SideWindow(queries.side_view(doc, Side.FRENCH), doc.scenario().map)
    qtbot.addWidget(window)
    ever_told: set[str] = set()
    for day in range(1, 11):
        for command, verb, town in SCRIPT.get(day, []):
            try:
                services.issue_order(doc, command, verb, town)
            except OrderRefused:
                pass  # a corps in battle or resting: the script goes on
        changes = services.end_day(doc)
        while changes.report is not None and not changes.report.closed:
            for battle in changes.report.battles:
                services.record_result(doc, battle, "draw")
            changes = services.end_day(doc)
        state = queries.day_state(doc)
        held = [r.id for r in state.reports.values() if not r.released and
                (r.subject != "Zephyr Canary Corps" or state.date >= date(1813, 5, 7))]
        if held:
            services.release_reports(doc, held)
        state = queries.day_state(doc)
        outputs = _render_french(doc, tmp_path / "packets", window)
        assert leaks(state, outputs) == [], state.date
        if supply != "off":
            marks = window.scene.supply.marks
            assert marks and {(m.side, m.army) for m in marks} == {(Side.FRENCH, "Armée")}
            assert not [where for where, text in outputs.items() if "Canary Host" in text]
        for secret in told(state):
            if secret in {c.secret for c in canaries(state)}:
                assert any(secret in text for text in outputs.values()), (state.date, secret)
        ever_told |= told(state)
    # the script did tell the French something, and left a corps unseen to the end
    assert {"Vexillum Canary Corps", "Quokka Canary Corps", "Zephyr Canary Corps"} <= ever_told
    assert "Obscura Canary Corps" not in ever_told


def test_the_umpire_sees_every_canary_and_the_allies_their_own():
    """The check is not blind: the Allied view of the same campaign shows every canary."""
    scen = canary_scenario()
    ground = Ground(scen)
    state = initial_state(scen, date(1813, 5, 1))
    allied = french_outputs(side_view(ground, state, Side.ALLIED, "c"))
    text = "\n".join(allied.values())
    assert all(c.pattern.search(text) for c in canaries(state) if "Graf" not in c.secret
               and "Fürst" not in c.secret and "Baron" not in c.secret)
    french = french_outputs(side_view(ground, state, Side.FRENCH, "c"))
    assert leaks(state, french) == []
    # and with fog off, the French are shown the names and strengths (today's way)
    open_ground = Ground(canary_scenario(fog=False))
    shown = french_outputs(side_view(open_ground, state, Side.FRENCH, "c"))
    assert "Obscura Canary Corps" in shown["json"] and "27,000 men" in shown["table"] + \
        shown["orders of battle"]


VERBS = ("Move", "Halt", "Hold", "Attack", "Recce", "Rest")
COMMANDS = ("1 Corps", "2 Corps", "Armée HQ", *CANARY_CORPS, "Canary Host HQ")
orders = st.lists(st.tuples(st.sampled_from(COMMANDS), st.sampled_from(VERBS),
                            st.sampled_from(TOWNS)), max_size=4)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(days=st.lists(st.tuples(orders, st.booleans(), st.sampled_from(("French", "Allied",
                                                                        "draw"))),
                     min_size=1, max_size=6),
       release=st.sampled_from(("end of day", "umpire")),
       messengers=st.booleans())
def test_random_orders_and_days_never_leak(days, release, messengers):
    """Random orders, results and releases over random days: no French output ever shows a
    secret the French were not told, and every told one shows."""
    scen = canary_scenario(release=release, messenger_orders=messengers)
    ground = Ground(scen)
    state = initial_state(scen, date(1813, 5, 1))
    for day_orders, release_now, result in days:
        for command, verb, town in day_orders:
            try:
                IssueOrder(command, verb, town).apply(ground, state)
            except OrderRefused:
                pass
        try:
            report = EndDay().apply(ground, state)[2]
            while report is not None and not report.closed:
                for battle in report.battles:
                    RecordResult(battle, None if result == "draw" else Side(result)).apply(
                        ground, state)
                report = EndDay().apply(ground, state)[2]
        except OrderRefused:
            continue  # a beaten corps with no lawful retreat: the umpire's choice, not ours
        if release_now and any(not r.released for r in state.reports.values()):
            ReleaseReports().apply(ground, state)
        outputs = french_outputs(side_view(ground, state, Side.FRENCH, "c"))
        assert leaks(state, outputs) == []
        secrets = {c.secret for c in canaries(state)}
        for secret in told(state) & secrets:
            assert any(secret in text for text in outputs.values())


def test_with_supply_kept_no_enemy_depot_or_stock_reaches_the_french(qtbot):
    """Supply 2016 kept (issue 29; record 0025): the French are shown their own main depot and
    each corps' days, and nothing of the Allies' supply — neither their depot at East, a
    column of theirs on the road, nor any Allied stock — since no report tells of it yet."""
    from campaign1813.campaign.day.supply import load_rules, start_supply
    from campaign1813.campaign.day.supply_state import Column, Depot

    scen = canary_scenario(supply="2016")
    ground = Ground(scen)
    state = initial_state(scen, date(1813, 5, 1))
    state.supply = start_supply(load_rules("2016"), scen, state.date)
    # distinctive Allied stocks, figures no French holding has: a depot, a column, a corps
    state.supply.depots["East"] = Depot("East", "Canary Host", 977, main=True)
    state.supply.depots["T11"] = Depot("T11", "Canary Host", 613)
    state.supply.columns["Canary Host|T9"] = Column("T9", "Canary Host", 311)
    state.supply.corps["Quokka Canary Corps"] = 457
    french = french_outputs(side_view(ground, state, Side.FRENCH, "c"))
    assert leaks(state, french) == []
    for where, text in french.items():
        for secret in ("977", "613", "311", "457", "Canary Host", "depot at East",
                       "at T11", "at T9"):
            assert secret not in text, (where, secret)
    # the French see their own: the main depot at their HQ's town (6 days) and 4 days a corps
    report = french["day's report"]
    assert "Supplies: Main depot at West (Armée): 6 days." in report
    assert "Supplies: 1 Corps 4 days." in report and "Supplies: 2 Corps 4 days." in report
    # and the Allies, theirs: the check is not blind
    allied = french_outputs(side_view(ground, state, Side.ALLIED, "c"))
    assert "Supplies: Main depot at East (Canary Host): 977 days." in allied["day's report"]
    assert "Supplies: Column waiting at T9 (Canary Host): 311 days." in allied["day's report"]
    # the French window's map: their own main depot, nothing of the Allies' supply
    window = SideWindow(side_view(ground, state, Side.FRENCH, "c"), scen.map)
    qtbot.addWidget(window)
    assert [(m.town, m.side, m.days, m.main, m.column, m.army)
            for m in window.scene.supply.marks] == [("West", Side.FRENCH, 6, True, False,
                                                     "Armée")]
    scene = "\n".join(f"{m.spec.label}\n{m.spec.tooltip}\n{' '.join(m.spec.badges)}"
                       for m in window.scene.markers.values())
    scene += "\n" + "\n".join(map(repr, window.scene.supply.marks))
    assert "4 days" in window.scene.markers["1 Corps"].spec.badges
    # and the French packet: its situation report as JSON and as PDF, read back
    view = side_view(ground, state, Side.FRENCH, "c")
    pdf = pypdf.PdfReader(io.BytesIO(LazyQtPaper().pdf(packet.situation_document(view), "a4")))
    packet_text = {"window's map scene": scene,
                   "packet json": json.dumps(packet.packet_json(view), ensure_ascii=False),
                   "packet pdf": " ".join(re.sub(r"\s+", " ", p.extract_text())
                                          for p in pdf.pages)}
    assert leaks(state, packet_text) == []
    for where, text in packet_text.items():
        for secret in ("977", "613", "311", "457", "Canary Host", "depot at East", "at T11",
                       "at T9", "Column waiting", "'East'", "'T11'", "'T9'"):
            assert secret not in text, (where, secret)
    assert "Main depot at West (Armée): 6 days" in packet_text["packet pdf"]
    # the Allies' window draws theirs: the map's check is not blind either
    allied_window = SideWindow(side_view(ground, state, Side.ALLIED, "c"), scen.map)
    qtbot.addWidget(allied_window)
    assert {(m.town, m.days, m.main, m.column) for m in allied_window.scene.supply.marks} == {
        ("East", 977, True, False), ("T11", 613, False, False), ("T9", 311, False, True)}
    assert "457 days" in allied_window.scene.markers["Quokka Canary Corps"].spec.badges
    # and the one gate's inputs refuse the other side's supplies outright
    french_in = side_inputs(ground, state, Side.FRENCH, "c")
    allied_in = side_inputs(ground, state, Side.ALLIED, "c")
    with pytest.raises(ForeignInput, match="the supplies of the Canary Host at East"):
        build(msgspec.structs.replace(french_in, supply=allied_in.supply))
