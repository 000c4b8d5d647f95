"""Errors the umpire sees: each names the thing and the reason."""


class CampaignError(ValueError):
    """Base of every error that is reported to the umpire as a one-line message."""


class CampaignFileError(CampaignError):
    """A file cannot be opened or written as a campaign; the message names the file and why."""

    def __init__(self, path, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")
