"""A campaign's event log, damaged row by row: a field given a value of the wrong type, NULL, a
huge number or odd text; the saved JSON (what an action changed, before and after, its lines
and payload) changed at any depth, cut, or not JSON at all; rows deleted or repeated. Whatever
the log holds, the file opens or is refused untouched, and undo, redo and the diary work or are
refused with one line; nothing the file's schema forbids is accepted: after an undo or a redo
that worked, the file still opens, and the day it holds is one a campaign can hold."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.diary import campaign_diary
from campaign1813.campaign.export.render import document_markdown
from campaign1813.campaign.store.document import open_campaign

from .test_stored_state_fuzz import _apply, _check_refusal, _sha256, json_values, sql_values

# CI runs a bounded number of examples; set FUZZ_EXAMPLES for a longer hunt.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 40)), deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
                phases=[p for p in Phase if p is not Phase.explain])


@pytest.fixture(scope="module")
def logged(campaign_template, tmp_path_factory) -> Path:
    """A campaign with a log to damage: orders, two days marched, an order cancelled and
    that cancel undone (so there is something to redo)."""
    path = tmp_path_factory.mktemp("logged") / "logged.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        services.end_day(doc)
        services.end_day(doc)
        services.cancel_order(doc, "1 Corps")
        services.undo(doc)
    return path


index = st.integers(0, 10**6)
damage = st.one_of(
    st.tuples(st.just("update"), st.just("event_log"), index, index, sql_values),
    st.tuples(st.just("json"), st.just("event_log"), index, index, index, json_values),
    st.tuples(st.just("json"), st.just("event_log"), index, index, index, json_values),
    st.tuples(st.just("delete"), st.just("event_log"), index),
    st.tuples(st.just("repeat"), st.just("event_log"), index),
)


def _diary(doc) -> None:
    queries.diary_text(doc)
    document_markdown(campaign_diary(doc))


def _reopens(path: Path) -> None:
    """What an undo or a redo kept is a campaign: the file opens and its day can be read."""
    try:
        doc = open_campaign(path)
    except CampaignError as exc:
        raise AssertionError(f"the file no longer opens: {exc}") from None
    with doc:
        queries.campaign_status(doc)


@FUZZ
@given(changes=st.lists(damage, min_size=1, max_size=3),
       steps=st.lists(st.sampled_from(("undo", "redo", "diary")), min_size=1, max_size=4))
def test_a_damaged_log_is_refused_in_one_line_or_works(logged, changes, steps):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.c1813"
        shutil.copyfile(logged, path)
        con = sqlite3.connect(path, isolation_level=None)
        try:
            for change in changes:
                note(_apply(con, change))
        finally:
            con.close()
        before = _sha256(path)
        taken = ["open", *steps]
        for i, step in enumerate(taken):
            try:
                doc = open_campaign(path)
            except CampaignError as exc:
                assert i == 0, f"the file no longer opens after {taken[1:i]}: {exc}"
                event("open refused")
                note(f"refused: {exc}")
                _check_refusal(exc, path)
                assert _sha256(path) == before, "a refused file was changed"
                return
            with doc:
                try:
                    if step == "diary":
                        _diary(doc)
                    elif step != "open":
                        getattr(services, step)(doc)
                    event(f"{step} worked")
                except CampaignError as exc:
                    event(f"{step} refused")
                    note(f"{step} refused: {exc}")
                    _check_refusal(exc, path)
        _reopens(path)  # what the last step kept is a campaign too (each before: the next open)
