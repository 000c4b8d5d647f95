"""What tells a server campaign's address from a campaign file's path."""

from __future__ import annotations

from pathlib import Path

SCHEMES = ("postgresql://", "postgres://")


def is_address(target: str | Path) -> bool:
    """Whether a campaign is named by a server campaign's address rather than a file.

    >>> is_address("postgresql://umpire@club/c1813?campaign=spring-1813")
    True
    >>> is_address("spring.c1813")
    False
    """
    return isinstance(target, str) and target.startswith(SCHEMES)
