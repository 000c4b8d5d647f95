"""Dates as the campaign speaks them."""

from datetime import date


def format_date(day: date) -> str:
    """A campaign date the way a diary writes it: ``1 May 1813``.

    >>> format_date(date(1813, 5, 1))
    '1 May 1813'
    """
    return f"{day.day} {day:%B %Y}"
