"""The history's fixtures: a 30-day scripted campaign in each of two theatres, played once per
run and copied per test."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import Theatre
from tests.history.scripted import play

DAYS = 30


@pytest.fixture(scope="session")
def thirty_days(campaign_template, tmp_path_factory) -> dict[Theatre, Path]:
    """The shipped campaign played 30 days (1 to 31 May 1813) in Northern Germany, and
    apart in Eastern Spain."""
    out = {}
    for theatre in (Theatre.NORTHERN_GERMANY, Theatre.EASTERN_SPAIN):
        path = tmp_path_factory.mktemp("history") / f"{theatre.name.lower()}.c1813"
        shutil.copyfile(campaign_template, path)
        with open_campaign(path) as doc:
            play(doc, theatre, DAYS)
        out[theatre] = path
    return out


@pytest.fixture
def played(thirty_days, tmp_path) -> Callable[[Theatre], Path]:
    """A copy of a theatre's 30-day campaign in the test's folder."""

    def copy(theatre: Theatre) -> Path:
        path = tmp_path / f"{theatre.name.lower()}.c1813"
        shutil.copyfile(thirty_days[theatre], path)
        return path

    return copy
