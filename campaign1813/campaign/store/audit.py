"""Checking a campaign file's stored state before it is used: what a damaged or hand-edited
file would otherwise carry forward into the campaign.

Every row is validated into its entity (the codec refuses a row that is not one); then the
state is checked against the campaign's own scenario: every HQ and corps there and nothing
else, each with its side, army group and kind, every position on a road of the map and within
its length, every battle a command names on the list, every battle at a town of the map and
fought by commands of the scenario.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from campaign1813.campaign.day.ground import EPS, Ground, road_key
from campaign1813.campaign.day.state import DayState, Kind, hq_name
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.codec import read_campaign, read_state
from campaign1813.campaign.store.version import TABLES


def audit(con: sqlite3.Connection, ground_of: Callable[[], Ground]) -> DayState:
    """The stored state, refused with the reason if it is not one this campaign can have;
    ``ground_of`` gives the campaign's ground (reading its scenario), once the tables are
    known to be there."""
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = sorted(TABLES - tables)
    if missing:
        raise CampaignError(f"its table{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(missing)} {'are' if len(missing) > 1 else 'is'} missing")
    for table in ("campaign", "day_info"):
        if con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] != 1:
            raise CampaignError(f"its {table} table must hold one row")
    read_campaign(con)
    base = ground_of()
    scenario = base.scenario
    state = read_state(con)
    ground = base.adjusted(state.settings)
    expected = {hq_name(a.name) for a in scenario.armies}
    expected |= {c.name for a in scenario.armies for c in a.corps}
    lost = sorted(expected - set(state.commands))
    if lost:
        more = f" and {len(lost) - 3} more" if len(lost) > 3 else ""
        raise CampaignError(f"commands of the scenario are missing: {', '.join(lost[:3])}{more}")
    strangers = sorted(set(state.commands) - expected)
    if strangers:
        raise CampaignError(f"it holds commands the scenario does not have: "
                            f"{', '.join(strangers[:3])}")
    for army in scenario.armies:
        for name, kind in ((hq_name(army.name), Kind.HQ),
                           *((corps.name, Kind.CORPS) for corps in army.corps)):
            c = state.commands[name]
            if (c.side, c.army, c.kind) != (army.side, army.name, kind):
                raise CampaignError(f"{name} is stored as the {c.kind.value} of {c.army!r:.80} "
                                    f"({c.side.value}), not as the {kind.value} of "
                                    f"{army.name} ({army.side.value})")
    for c in state.ordered():
        _check_position(ground, c.name, c.position.a, c.position.b, c.position.miles)
        if c.battle is not None and c.battle not in state.battles:
            raise CampaignError(f"{c.name} is in battle {c.battle}, which is not on the list")
    for b in state.battles.values():
        if b.place not in ground.adj:
            raise CampaignError(f"battle {b.id} is at {b.place!r}, which is not on the map")
        unknown = sorted(set(b.everyone()) - set(state.commands))
        if unknown:
            raise CampaignError(f"battle {b.id} names {unknown[0]!r}, which is not a command of "
                                "the scenario")
    for town in state.control:
        if town not in ground.adj:
            raise CampaignError(f"town control names {town!r}, which is not on the map")
    for pending, orders in ((False, state.orders), (True, state.pending)):
        for name, order in orders.items():
            what = f"the {'messenger' if pending else 'standing'} order for {name}"
            if name not in state.commands or order.command != name:
                raise CampaignError(f"{what} is for no command of the scenario")
            for town in (order.objective, *order.via, *order.route):
                if town not in ground.adj:
                    raise CampaignError(f"{what} names {town!r}, which is not on the map")
    return state


def _check_position(ground: Ground, name: str, a: str, b: str | None, miles: float) -> None:
    for town in (a, b):
        if town is not None and town not in ground.adj:
            raise CampaignError(f"{name} stands at {town!r}, which is not on the map")
    if b is None:
        return
    if road_key(a, b) not in ground.length or a > b:
        raise CampaignError(f"{name} stands on a road from {a} to {b}, which the map does not "
                            "have")
    if not 0 <= miles <= ground.miles(a, b) + EPS:
        raise CampaignError(f"{name} stands {miles:g} miles along the {ground.miles(a, b):g}-mile "
                            f"road from {a} to {b}")
