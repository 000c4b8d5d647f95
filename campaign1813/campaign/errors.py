"""Errors the umpire sees: each names the thing and the reason."""

from os import PathLike

from campaign1813.errors import CampaignError

__all__ = ["CampaignError", "CampaignFileError"]


# The problems of a reason of several lines (a stored scenario's, one a line) shown on the one
# line of a file's refusal; the rest are counted.
SHOWN_PROBLEMS = 3


def joined(reason: str) -> str:
    """A reason of several lines as one: its first problems joined by '; ', the rest counted.

    >>> joined("is damaged: a.toml: x" + chr(10) + "a.toml: y")
    'is damaged: a.toml: x; a.toml: y'
    """
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines[0] if lines else reason
    more = len(lines) - SHOWN_PROBLEMS
    return "; ".join(lines[:SHOWN_PROBLEMS]) + (
        f"; and {more} more problem{'s' if more != 1 else ''}" if more > 0 else "")


class CampaignFileError(CampaignError):
    """A file cannot be opened or written as a campaign; the message names the file and why,
    on one line (a reason of several lines is joined: :func:`joined`)."""

    def __init__(self, path: str | PathLike[str], reason: str) -> None:
        self.path = path
        self.reason = joined(reason)
        super().__init__(f"{path}: {self.reason}")
