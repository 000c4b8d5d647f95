"""A scripted campaign of many days in one theatre: every corps of the theatre without orders
is ordered each day to march on or hold a town of the enemy's (chosen by a seeded generator),
battles are decided by the same generator, the beaten and the cut-off do as the rules ask;
the fog of war is on.
For the history's tests: the campaign day by day, its snapshots and its replay."""

from __future__ import annotations

import random

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.day.state import Kind, Status
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.maps.types import Theatre


def play(doc: CampaignStore, theatre: Theatre, days: int, seed: int = 1813) -> None:
    """Play ``days`` days of the campaign in one theatre (every End Day that closes a day),
    with the fog of war on: each side learns of the enemy by the reports End Day makes."""
    rng = random.Random(seed)
    if not queries.day_state(doc).settings.get("fog"):
        services.change_setting(doc, "fog", "on")
    scenario = doc.scenario()
    armies = [a for a in scenario.armies if a.theatre is theatre]
    towns = {side: sorted({a.hq for a in armies if a.side is not side}
                          | {c.start for a in armies if a.side is not side for c in a.corps})
             for side in Side}
    start = doc.summary().current_date
    while (doc.summary().current_date - start).days < days:
        state = queries.day_state(doc)
        beaten = {c.name: c.retreats[0] for c in queries.campaign_status(doc).commands
                  if c.retreats}
        for name, town in beaten.items():  # the beaten march away by the first road they may
            services.issue_order(doc, name, "Move", town)
        for army in armies:
            for corps in army.corps:
                c = state.commands[corps.name]
                if c.status is Status.SURRENDERED or c.kind is not Kind.CORPS \
                        or corps.name in beaten or corps.name in state.orders \
                        or corps.name in state.pending:
                    continue  # a corps marching on keeps its order
                try:
                    services.issue_order(doc, corps.name, rng.choice(["Move", "Move", "Hold"]),
                                         rng.choice(towns[army.side]))
                except CampaignError:
                    pass  # resting, retreating, in battle or no road: the rules refused it
        _close_day(doc, rng)


def _close_day(doc: CampaignStore, rng: random.Random) -> None:
    """End Day, deciding each battle it finds and each cut-off command's choice, until the day
    closes."""
    day = doc.summary().current_date
    for _ in range(50):
        refused = ""
        try:
            services.end_day(doc)
        except OrderRefused as exc:
            refused = str(exc)
        if doc.summary().current_date != day:
            return
        state = queries.day_state(doc)
        for b in sorted(state.battles.values(), key=lambda b: b.id):
            if b.result is None and b.date <= day:
                services.record_result(doc, b.id, rng.choice([Side.FRENCH, Side.ALLIED, None]))
        for name in [c.name for c in state.ordered() if c.name in refused]:
            for option in ("break out", "surrender"):
                try:
                    services.choose_retreat(doc, name, option)
                    break
                except CampaignError:
                    continue
    raise AssertionError(f"the day {day} did not close")
