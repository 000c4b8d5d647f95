"""The one base of every error the umpire is shown as a message, shared by all the layers."""


class CampaignError(ValueError):
    """Base of every error that is reported to the umpire as a one-line message."""
