"""The store's fixtures: a throwaway PostgreSQL server for the run, a database per module, and
``stores``, which names one campaign file in each store in turn (the file itself, and the same
campaign pushed to the server), so the contract tests run the same on both.

Where no server can start the server's tests are skipped, saying why; where
``CAMPAIGN1813_SERVER_TESTS=required`` (``.ci/run`` sets it) that is a failure instead, so a
server test can never be skipped there unseen.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from campaign1813.campaign.store.server import push_campaign
from tests.store.stores import campaign_address
from tools import pg_server

KINDS = ("file", "server")


@pytest.fixture(scope="session")
def pg() -> Iterator[pg_server.Server]:
    """One throwaway PostgreSQL server for the whole run (skipped where none can start, and
    failed where the server tests are required)."""
    try:
        server = pg_server.start()
    except pg_server.NoServer as exc:
        if os.environ.get("CAMPAIGN1813_SERVER_TESTS") == "required":
            pytest.fail("the server tests are required here (CAMPAIGN1813_SERVER_TESTS), and "
                        f"no PostgreSQL server could start: {exc}")
        pytest.skip(f"no PostgreSQL server can start here: {exc}")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def pg_database(pg: pg_server.Server, request: pytest.FixtureRequest) -> str:
    """A database of its own for one test module: its address, with no campaign named."""
    name = "t_" + request.module.__name__.rsplit(".", 1)[-1].lower()[:50]
    with psycopg.connect(pg.url, autocommit=True) as con:
        con.execute(f"DROP DATABASE IF EXISTS {name}")
        con.execute(f"CREATE DATABASE {name}")
    return pg.url_of(name)


@pytest.fixture(params=KINDS)
def store_kind(request: pytest.FixtureRequest) -> str:
    """Which store a contract test runs on."""
    return str(request.param)


@pytest.fixture
def stores(store_kind: str, request: pytest.FixtureRequest) -> Callable[[Path], str]:
    """Given a campaign file, what names that campaign in this test's store (for ``open_store``
    and the command line): the file itself, or the address of a copy pushed to the server."""

    def as_store(path: Path) -> str:
        if store_kind == "file":
            return str(path)
        address = campaign_address(request.getfixturevalue("pg_database"))
        push_campaign(path, address)
        return address

    return as_store
