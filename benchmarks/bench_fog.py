"""What the fog of war costs: End Day with fog on beside fog off, and the time to build a
side's turn packet.

End Day: the shipped 1813 campaign played ten days (``bench_end_day.play``: every command
ordered, battles decided), fog off and fog on, three runs of each interleaved; the figure is
the median CPU time of a day's End Day (``time.process_time``), and on / off their ratio.
Target: fog on within 1.2× fog off (the reports are a handful of rows a day).

The packet: after those ten days, the French side's view read from the file, and its packet
made — the situation report and order form as JSON, and both as PDF (Qt's typesetter): the
median of five, CPU and wall. Target: under a second for the whole packet.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from bench_end_day import _default_scenario, play
from msgspec.structs import replace

from campaign1813.campaign import queries
from campaign1813.campaign.export import packet
from campaign1813.campaign.scenario.types import Scenario, Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.ui.console import LazyQtPaper

RUNS = 3


def fogged(scenario: Scenario, on: bool) -> Scenario:
    """The scenario with fog on or off (a new name, so each has its own file)."""
    return replace(scenario, name=f"{scenario.name}-fog-{'on' if on else 'off'}",
                   settings=replace(scenario.settings, fog=on))


def end_day_figures(scenario: Scenario) -> tuple[float, float]:
    """Median CPU seconds of a day's End Day with fog off and on, runs interleaved."""
    off: list[float] = []
    on: list[float] = []
    for _run in range(RUNS):
        for flag, into in ((False, off), (True, on)):
            with tempfile.TemporaryDirectory() as tmp:
                into.extend(play(fogged(scenario, flag), Path(tmp)))
    return statistics.median(off), statistics.median(on)


def packet_figures(scenario: Scenario) -> tuple[float, float, float, int]:
    """Median CPU and wall seconds of a French packet (view, JSON, PDFs), the JSON part's CPU,
    and the reports the French had."""
    paper = LazyQtPaper()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        play(fogged(scenario, True), folder)
        path = next(folder.glob("*.c1813"))
        doc = open_campaign(path)
        reports = sum(r.side == "French" for r in queries.enemy_reports(doc))
        paper.pdf(packet.situation_document(queries.side_view(doc, Side.FRENCH)), "a4")  # warm
        cpu, wall, json_cpu = [], [], []
        for _ in range(5):
            c0, w0 = time.process_time(), time.perf_counter()
            view = queries.side_view(doc, Side.FRENCH)
            form = packet.order_form(view)
            json.dumps(packet.packet_json(view))
            json.dumps(form)
            json_cpu.append(time.process_time() - c0)
            paper.pdf(packet.situation_document(view), "a4")
            paper.pdf(packet.order_form_document(form), "a4")
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        doc.close()
    return statistics.median(cpu), statistics.median(wall), statistics.median(json_cpu), reports


def main() -> None:
    """Measure and print."""
    scenario, what = _default_scenario()
    off, on = end_day_figures(scenario)
    print(f"End Day, {what}, median of {RUNS} × ten days (CPU):")
    print(f"  fog off {off * 1000:.1f} ms, fog on {on * 1000:.1f} ms: on/off {on / off:.2f}× "
          "(target at most 1.2×)")
    cpu, wall, json_cpu, reports = packet_figures(scenario)
    print(f"The French packet after ten days ({reports} reports made for them):")
    print(f"  view and JSON {json_cpu * 1000:.1f} ms CPU; with both PDFs {cpu * 1000:.1f} ms "
          f"CPU, {wall * 1000:.1f} ms wall (target under 1000 ms)")


if __name__ == "__main__":
    main()
