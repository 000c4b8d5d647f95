"""Names as the umpire types them: any case, with or without umlauts and accents, near misses.

A name is found by its exact spelling, then in any case, then *folded*: umlauts written
either plainly or with an ``e`` (ä → a or ae, ö → o or oe, ü → u or ue), ß as ss, and every
other accent dropped (by Unicode decomposition). A name still not found may have close
matches (``difflib``) to offer; numbers are never guessed (9 Corps is not a misspelt 1 Corps).

>>> index = NameIndex([("Köpenick", "Köpenick"), ("Munich", "Munich"), ("München", "Munich")])
>>> index.find("Koepenick"), index.find("Kopenick"), index.find("MUNCHEN")
('Köpenick', 'Köpenick', 'Munich')
>>> index.suggestions("Kopenik")
['Köpenick']
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_NUMBER = re.compile(r"\d+|\b[ivxlcdm]+\b")
CLOSE = 0.8  # difflib's ratio for a near miss: "Magdeberg" is 0.89 of "Magdeburg"


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def folded(text: str) -> tuple[str, ...]:
    """The forms a name is known by once folded: umlauts plain, and umlauts with an ``e``.

    The one folding of names: towns, commands, army groups and theatres are all matched by it
    (through :class:`NameIndex`), and the order pad's list of towns too.

    >>> folded("Lübeck")
    ('lubeck', 'luebeck')
    >>> folded("Meißen")
    ('meissen',)
    """
    if text.isascii():  # most names: nothing to compose, decompose or spell again
        return (" ".join(text.casefold().split()),)
    base = " ".join(unicodedata.normalize("NFC", text).casefold().split())
    forms = [_plain(base), _plain(base.translate(_UMLAUTS))]
    return tuple(dict.fromkeys(forms))


def fold(text: str) -> str:
    """A typed name folded for looking up: case, spacing and accents dropped (ä as a).

    >>> fold("  Blücher ") == fold("BLUCHER"), fold("Southern Germany  and Austria")
    (True, 'southern germany and austria')
    """
    return folded(text)[0]


def _numbers(text: str) -> tuple[str, ...]:
    return tuple(_NUMBER.findall(text))


def join_or(names: Sequence[str]) -> str:
    """``A``, ``A or B``, ``A, B or C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


class NameIndex:
    """Spellings of names (names, aliases), each leading to the name it stands for.

    >>> NameIndex([("Blücher's Army", "Blücher's Army")]).find("BLUECHER'S  army")
    "Blücher's Army"
    """

    def __init__(self, spellings: Iterable[tuple[str, str]]):
        self._exact: dict[str, str] = {}
        self._folded: dict[str, set[str]] = {}
        for spelling, name in spellings:
            self._exact.setdefault(spelling, name)
            self._exact.setdefault(spelling.casefold(), name)
            for form in folded(spelling):
                self._folded.setdefault(form, set()).add(name)

    def find(self, text: str) -> str | None:
        """The name a spelling stands for, or None if it stands for none (or for several)."""
        found = self._exact.get(text) or self._exact.get(text.strip().casefold())
        if found is not None:
            return found
        names = self._folded.get(fold(text), set())
        return next(iter(names)) if len(names) == 1 else None

    def suggestions(self, text: str, count: int = 3) -> list[str]:
        """The names whose spellings come close to ``text``, closest first (none if none)."""
        typed = fold(text)
        numbers = _numbers(typed)
        forms = [f for f in self._folded if _numbers(f) == numbers]
        out: list[str] = []
        for form in difflib.get_close_matches(typed, forms, n=2 * count, cutoff=CLOSE):
            for name in sorted(self._folded[form]):
                if name not in out:
                    out.append(name)
        return out[:count]

    def unknown(self, text: str, message: str) -> str:
        """The refusal for a name not found, with "did you mean …?" when one comes close."""
        near = self.suggestions(text)
        return f"{message}; did you mean {join_or(near)}?" if near else message
