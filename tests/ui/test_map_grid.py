"""The names' placement grid: the town signs kept for a scale beneath what one placement takes
answer every question as one grid holding both would, and a spot's answer is asked again once
anything is taken or given back."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF

from campaign1813.ui.map.scene import (
    FLAG,
    SIGN,
    BoxGrid,
    BucketGrid,
    LayeredGrid,
    SpotTest,
    Taken,
    box_edges,
    box_within,
    only_signs,
    only_signs_or_dots,
)

box = st.builds(QRectF, st.integers(-200, 200), st.integers(-200, 200),
                st.integers(1, 150), st.integers(1, 40))
signs = st.lists(st.tuples(box, st.sampled_from([SIGN, "great town sign"])), max_size=25)
taken = st.lists(st.tuples(box, st.sampled_from([FLAG, "name", "dot"])), max_size=15)


def _owner(kind: str) -> object:
    return Taken(place=("Aue", None, 0.0)) if kind == "dot" else kind


@settings(max_examples=60, deadline=None)
@given(signs, taken, st.lists(box, min_size=1, max_size=10))
def test_the_layered_grid_answers_as_one_grid_holding_signs_and_taken(sign_boxes, taken_boxes,
                                                                     asked):
    flat, under = BucketGrid(64.0), BucketGrid(64.0)
    for r, owner in sign_boxes:
        flat.add(r, owner)
        under.add(r, owner)
    layered = LayeredGrid(under, {})
    for r, kind in taken_boxes:
        owner = _owner(kind)
        flat.add(r, owner)
        layered.add(r, owner)
    for r in asked * 2:  # the second time from the signs' kept answers
        assert layered.clashes(r) == flat.clashes(r)
        assert sorted(map(id, layered.hits(r))) == sorted(map(id, flat.hits(r)))
        for allowed in (only_signs, only_signs_or_dots):
            assert layered.only(r, allowed) == flat.only(r, allowed)


def test_a_spot_is_asked_again_once_the_grid_changes(qapp):
    grid = LayeredGrid(BucketGrid(64.0), {})
    grid.signs.add(QRectF(0, 0, 4, 4), SIGN)
    spot = QRectF(2, 2, 30, 10)
    free = SpotTest(SpotTest.FREE, grid, None)
    over_signs = SpotTest(SpotTest.OVER_SIGNS, grid, None)
    over_dots = SpotTest(SpotTest.OVER_DOTS, grid, None)
    assert not free(spot) and over_signs(spot) and over_dots(spot)
    dot = Taken(place=("Aue", None, 0.0))
    grid.add(QRectF(20, 5, 8, 8), dot)  # a command's dot comes under the spot
    assert not over_signs(spot) and over_dots(spot)
    grid.remove(QRectF(20, 5, 8, 8), dot)
    assert over_signs(spot)
    inside = SpotTest(SpotTest.OVER_SIGNS, grid, QRectF(0, 0, 20, 20))
    assert not inside(spot)  # across the frame's edge


# any rectangle Qt may be given: fractional, empty, or of a width or height below zero
side = st.one_of(st.just(0.0), st.floats(-120, 150, allow_nan=False).map(lambda v: round(v, 2)))
loose = st.builds(QRectF, st.floats(-200, 200).map(lambda v: round(v, 2)),
                  st.floats(-200, 200).map(lambda v: round(v, 2)), side, side)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(loose, st.sampled_from([FLAG, "name", "dot"])), max_size=25),
       st.lists(loose, min_size=1, max_size=10), loose)
def test_the_grids_answer_as_qt_rectangles_do(taken_boxes, asked, frame):
    """The grids of plain numbers (the flags' trial's, and under the names' placement's) find
    the rectangles that QRectF.intersects finds among all those taken, and a box lies within
    a frame where QRectF.contains says so."""
    qt, plain = BucketGrid(64.0), BoxGrid(64.0)
    owners = []
    for r, kind in taken_boxes:
        owners.append((r, _owner(kind)))
        qt.add(r, owners[-1][1])
        plain.add(r.getRect(), owners[-1][1])
    edges = box_edges(frame.getRect())
    for r in asked:
        met = sorted(id(owner) for o, owner in owners if r.intersects(o))
        assert sorted(map(id, plain.hits(r.getRect()))) == met
        assert sorted(map(id, qt.hits(r))) == met
        assert sorted(id(owner) for _, owner in qt.entries(r)) == met
        assert qt.clashes(r) == bool(met)
        assert qt.only(r, only_signs) == all(owner is SIGN for o, owner in owners
                                             if r.intersects(o))
        assert (edges is not None and box_within(edges, r.getRect())) == frame.contains(r)
