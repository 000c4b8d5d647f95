"""Small hand-made scenarios for the campaign-day tests: towns on a line, a few corps."""

from __future__ import annotations

from pathlib import Path

from campaign1813.campaign import queries, services
from campaign1813.campaign.scenario.types import (
    ArmyGroup,
    Artillery,
    CavalryBrigade,
    CavalryType,
    Commander,
    Corps,
    Grade,
    InfantryBrigade,
    Rating,
    Scenario,
    Settings,
    Side,
)
from campaign1813.campaign.store.document import CampaignDocument, campaign_from_scenario
from campaign1813.maps.types import MapData, Road, RoadClass, Theatre, Town, TownKind


def town(name: str, lon: float = 0.0) -> Town:
    """A plain town of Northern Germany."""
    return Town(name, 52.0, lon, Theatre.NORTHERN_GERMANY, TownKind.TOWN, False)


def road(a: str, b: str, miles: float, cls: RoadClass = RoadClass.MAIN) -> Road:
    """A road of the given length."""
    return Road(a, b, miles, cls)


def corps(name: str, army: str, start: str, nationality: str = "French") -> Corps:
    """A corps of four average brigades, a cavalry brigade and a battery."""
    return Corps(
        name=name,
        army=army,
        nationality=nationality,
        commander=Commander(f"General of {name}", Grade.AVERAGE),
        start=start,
        infantry=tuple(InfantryBrigade(i, Rating.B, Rating.B, Rating.B) for i in range(1, 5)),
        cavalry=CavalryBrigade(5, Rating.B, CavalryType.LIGHT),
        artillery=Artillery(Rating.B, 8),
    )


def army(name: str, side: Side, hq: str, corps_at: dict[str, str]) -> ArmyGroup:
    """An army group with its HQ and corps at the given towns."""
    nat = "French" if side is Side.FRENCH else "Prussian"
    return ArmyGroup(
        name=name,
        side=side,
        theatre=Theatre.NORTHERN_GERMANY,
        cinc=Commander(f"CinC {name}", Grade.AVERAGE),
        hq=hq,
        reserve=Commander(f"Reserve {name}", Grade.POOR),
        corps=tuple(corps(c, name, t, nat) for c, t in corps_at.items()),
    )


def scenario(
    towns: list[str],
    roads: list[Road],
    armies: list[ArmyGroup],
    **settings,
) -> Scenario:
    """A scenario from names, roads and army groups; settings override the defaults."""
    return Scenario(
        name="test",
        map=MapData(tuple(town(t, i) for i, t in enumerate(towns)), tuple(roads), ()),
        armies=tuple(armies),
        settings=Settings(**settings),
    )


def line(names: list[str], miles: float = 10.0) -> list[Road]:
    """Main roads joining the towns in order, each ``miles`` long."""
    return [road(a, b, miles) for a, b in zip(names, names[1:], strict=False)]


def new_campaign(path: Path, scen: Scenario) -> CampaignDocument:
    """A campaign file holding the scenario's starting positions."""
    return campaign_from_scenario(path, scen, name="test")


class Umpire:
    """Drives the campaign-day services on a file, one transaction per action."""

    def __init__(self, doc: CampaignDocument, scen: Scenario | None = None):
        self.doc = doc
        self.scen = scen

    def order(self, command, verb, town, **kw):
        return services.issue_order(self.doc, command, verb, town, **kw)

    def end_day(self):
        return services.end_day(self.doc)

    def result(self, battle, winner):
        return services.record_result(self.doc, battle, winner)

    def choose(self, command, option, town=None):
        return services.choose_retreat(self.doc, command, option, town)

    def undo(self):
        return services.undo(self.doc)

    def redo(self):
        return services.redo(self.doc)

    def state(self):
        return queries.day_state(self.doc)

    def dump(self):
        return queries.state_json(self.doc)

    def ground(self):
        return self.doc.ground()
