"""Opening a campaign by what names it: a file's path, or a server campaign's address.

Every command that takes a campaign file takes a server campaign's address in its place
(``postgresql://user@host:port/club?campaign=spring-1813``). The server's store
(``store.server``: SQLAlchemy and psycopg) is imported only when an address is opened, so a
command on a file starts as fast as before.
"""

from __future__ import annotations

from pathlib import Path

from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.protocol import CampaignStore

SCHEMES = ("postgresql://", "postgres://")


def is_address(target: str | Path) -> bool:
    """Whether a campaign is named by a server campaign's address rather than a file.

    >>> is_address("postgresql://umpire@club/c1813?campaign=spring-1813")
    True
    >>> is_address("spring.c1813")
    False
    """
    return isinstance(target, str) and target.startswith(SCHEMES)


def open_store(target: str | Path) -> CampaignStore:
    """The campaign a path or an address names, opened and checked."""
    if is_address(target):
        from campaign1813.campaign.store.server import open_server_campaign

        return open_server_campaign(str(target))
    return open_campaign(target)
