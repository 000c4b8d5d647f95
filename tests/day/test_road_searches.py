"""The road searches give the answers recorded on the shipped map: every route, reach,
distance and retreat of ``road_searches.record()`` equal to the kept copy."""

from __future__ import annotations

from .road_searches import read, record


def test_every_search_of_the_shipped_map_answers_as_recorded():
    now, then = record(), read()
    for part in ("routes", "reach", "retreats"):
        for question in then[part]:
            assert now[part][question] == then[part][question], f"{part}: {question}"
    assert now == then
