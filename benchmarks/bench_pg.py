"""An order and End Day on a PostgreSQL server campaign beside the same on the campaign file.

The shipped 1813 campaign is made as a file and pushed to a throwaway server (``tools/pg_server``,
on a socket in a temporary folder, with durable commits off as in the tests); then the same
actions run on both: an order given and undone (each one logged transaction), and End Day with
every French corps ordered, undone and redone, several times; then End Day again with the fog
of war on (the day's reports made), and on the server once more with a player let in (each
side's view then written in the same transaction as the action, for its players). The figures
are medians of wall time (the server's work is in another process, so CPU time alone would
flatter it), and their ratio, server to file. Where no server can start, it says why and
measures nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from campaign1813.campaign import services
from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.campaign.store.server import (
    add_member,
    open_server_campaign,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tools/, beside the package
from tools import pg_server  # noqa: E402

ORDERS = 20
DAYS = 5


def _median(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _measure(store: CampaignStore) -> tuple[float, float]:
    """The median of an order (with its undo) and of End Day (with its undo and redo)."""

    def order() -> None:
        services.issue_order(store, "5 Corps", "Move", "Leipzig")
        services.undo(store)

    services.issue_order(store, "1 Corps", "Move", "Leipzig")
    services.issue_order(store, "4 Corps", "Move", "Dresden")
    services.issue_order(store, "6 Corps", "Move", "Leipzig")

    def end_day() -> None:
        services.end_day(store)
        services.undo(store)

    return _median(order, ORDERS) / 2, _median(end_day, DAYS) / 2


def _fog_day(store: CampaignStore) -> float:
    """The median of End Day (with its undo) with the fog of war on."""

    def end_day() -> None:
        services.end_day(store)
        services.undo(store)

    return _median(end_day, DAYS) / 2


def main() -> None:
    """Measure and print the two stores' figures and their ratios."""
    try:
        server = pg_server.start()
    except pg_server.NoServer as exc:
        print(f"not measured: no PostgreSQL server can start here ({exc})")
        return
    try:
        with tempfile.TemporaryDirectory() as folder:
            path, address = server.new_campaign(Path(folder), "bench")
            with open_campaign(path) as doc:
                file_order, file_day = _measure(doc)
                services.change_setting(doc, "fog", "on")
                file_fog = _fog_day(doc)
            with open_server_campaign(address) as store:
                pg_order, pg_day = _measure(store)
                services.change_setting(store, "fog", "on")
                pg_fog = _fog_day(store)
            add_member(address, "bench_french", "French", password="bench")
            with open_server_campaign(address) as store:
                pg_seen = _fog_day(store)  # and each side's view written for its players
    finally:
        server.stop()
    print(f"an order (one logged action): file {file_order * 1000:.1f} ms, "
          f"server {pg_order * 1000:.1f} ms, ratio {pg_order / file_order:.2f}")
    print(f"End Day (1813 campaign):      file {file_day * 1000:.1f} ms, "
          f"server {pg_day * 1000:.1f} ms, ratio {pg_day / file_day:.2f}")
    print(f"End Day, fog of war on:       file {file_fog * 1000:.1f} ms, "
          f"server {pg_fog * 1000:.1f} ms, ratio {pg_fog / file_fog:.2f}")
    print(f"  the same with a player let in (the sides' views written): server "
          f"{pg_seen * 1000:.1f} ms, ratio {pg_seen / file_fog:.2f}")


if __name__ == "__main__":
    main()
