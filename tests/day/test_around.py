"""``Ground.around``: the towns End Day looks at first when it asks who may be near whom."""

from __future__ import annotations

import random

from campaign1813.campaign.day.ground import Ground, Position

from .builders import road, scenario
from .road_searches import shipped


def test_the_towns_around_a_town_and_a_place_on_a_road_reach_a_mile_past_the_distance():
    """A–B 6, B–C 5, C–D 12 miles. Around A, 10 miles: A, B (6) and C (11, within the extra
    mile), not D (23). Around a place on B–C, 10 miles: the towns within 11 of B or of C —
    A (6 from B), B and C, not D (12 from C)."""
    ground = Ground(scenario(["A", "B", "C", "D"],
                             [road("A", "B", 6.0), road("B", "C", 5.0), road("C", "D", 12.0)],
                             []))
    assert ground.around(Position("A"), 10.0) == {"A", "B", "C"}
    assert ground.around(Position("B", "C", 2.0), 10.0) == {"A", "B", "C"}
    assert ground.around(Position("D"), 10.0) == {"D"}
    assert ground.around(Position("D"), 12.0) == {"C", "D"}


def test_every_place_within_the_distance_touches_a_town_around():
    """On the shipped map, 150 places at towns and on roads: whenever two are within 10 road
    miles of each other, the second touches a town around the first."""
    ground = shipped()
    rng = random.Random(1813)
    roads = sorted(ground.length.items())
    places = [Position(a, b, round(rng.uniform(0.01, miles - 0.01), 6))
              for (a, b), miles in rng.sample(roads, 100)]
    places += [Position(t) for t in rng.sample(sorted(ground.adj), 50)]
    near = 0
    for p in places:
        around = ground.around(p, 10.0)
        for q in places:
            if ground.distance(p, q, 10.0) <= 10.0:
                near += 1
                assert not around.isdisjoint(q.ends()), (p, q)
    assert near > len(places)  # not only each place with itself
