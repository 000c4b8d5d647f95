"""Hand-made battle setups for the tests: corps of the seed's shape with chosen grades."""

from __future__ import annotations

from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    BrigadeSetup,
    Chip,
    CommanderSetup,
    CorpsSetup,
    Edge,
    Square,
    Table,
)
from campaign1813.campaign.battle.terms import Arm, CavalryWeight, CorpsOrder, Grade, Rating, Role


def corps(key: str, side: str, rating: str = "B", *, grade: Grade = Grade.AVERAGE,
          first: int = 1, orders: CorpsOrder = CorpsOrder.ENGAGE, edge: Edge | None = None,
          cavalry: CavalryWeight = CavalryWeight.MEDIUM, lancers: bool = False,
          calibre: int = 9, nation: str = "", casualties: int = 0, turn: int = 1,
          ) -> tuple[CommanderSetup, CorpsSetup, tuple[BrigadeSetup, ...]]:
    """A corps of four infantry brigades, a cavalry brigade and a battery, all of one class."""
    r = Rating(rating)
    nation = nation or ("French" if side == FRENCH else "Prussian")
    brigades = tuple(
        BrigadeSetup(f"{key}/{n}", key, f"{n} Infantry Brigade", Arm.INFANTRY, r, r, r,
                     nation=nation, number=n, casualties=casualties)
        for n in range(first, first + 4))
    brigades += (
        BrigadeSetup(f"{key}/cav", key, f"{first} Cavalry Brigade", Arm.CAVALRY, r,
                     cavalry=cavalry, lancers=lancers, nation=nation, number=first),
        BrigadeSetup(f"{key}/art", key, f"{key} Artillery", Arm.ARTILLERY, r, calibre=calibre,
                     nation=nation),
    )
    commander = CommanderSetup(key, f"{key} commander", grade, Role.CORPS, side, nation)
    c = CorpsSetup(key, side, f"{side} Army", key, tuple(b.key for b in brigades), orders,
                   "Helmstedt", edge, edge is not None, turn, f"{side[0]}{first}")
    return commander, c, brigades


def setup(french: list[str] | None = None, allied: list[str] | None = None, *,
          cinc: bool = False, seed: int = 1813, turns: int = 12, ruleset: str = "1813",
          specials: tuple[str, ...] = ("Poor",)) -> BattleSetup:
    """A battle at Helmstedt of French corps (one per rating given) against Allied ones."""
    commanders: list[CommanderSetup] = []
    corps_list: list[CorpsSetup] = []
    brigades: list[BrigadeSetup] = []
    for side, ratings in ((FRENCH, french or ["B"]), (ALLIED, allied or ["B"])):
        if cinc:
            commanders.append(CommanderSetup(f"{side} CinC", f"{side} CinC", Grade.AVERAGE,
                                             Role.CINC, side))
        for i, rating in enumerate(ratings):
            key = f"{i + 1} {'French' if side == FRENCH else 'Prussian'} Corps"
            cm, c, bs = corps(key, side, rating, first=1 + 4 * i,
                              edge=None if side == FRENCH else Edge.EAST)
            commanders.append(cm)
            corps_list.append(c)
            brigades.extend(bs)
    chips = [Chip(str(n + 1), c.key, c.side) for n, c in enumerate(commanders)]
    chips += [Chip(s) for s in specials]
    table = Table("Helmstedt", squares=tuple(Square(r, c, ("built-up area",) if (r, c) == (1, 1)
                                                    else ()) for r in range(3)
                                             for c in range(3)))
    return BattleSetup(1, "the battle of Helmstedt (2 May 1813)", "Helmstedt", "1813-05-02",
                       tuple(commanders), tuple(corps_list), tuple(brigades), tuple(chips),
                       table, ruleset, seed, turns)
