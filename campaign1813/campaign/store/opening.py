"""Opening a campaign by what names it: a file's path, or a server campaign's address.

Every command that takes a campaign file takes a server campaign's address in its place
(``postgresql://user@host:port/club?campaign=spring-1813``). The server's store
(``store.server``: SQLAlchemy and psycopg) is imported only when an address is opened, so a
command on a file starts as fast as before.
"""

from __future__ import annotations

from pathlib import Path

from campaign1813.campaign.store.address import is_address
from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.protocol import CampaignStore

__all__ = ["is_address", "open_store"]


def open_store(target: str | Path) -> CampaignStore:
    """The campaign a path or an address names, opened and checked."""
    if is_address(target):
        from campaign1813.campaign.store.server import open_server_campaign

        return open_server_campaign(str(target))
    return open_campaign(target)
