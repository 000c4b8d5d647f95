"""Errors the umpire sees: each names the thing and the reason."""

from os import PathLike

from campaign1813.errors import CampaignError

__all__ = ["CampaignError", "CampaignFileError"]


class CampaignFileError(CampaignError):
    """A file cannot be opened or written as a campaign; the message names the file and why."""

    def __init__(self, path: str | PathLike[str], reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")
