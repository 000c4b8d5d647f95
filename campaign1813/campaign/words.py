"""Small pieces of English the messages share: the indefinite article before a word.

>>> with_article("Allied"), with_article("French"), with_article("infantry charge")
('an Allied', 'a French', 'an infantry charge')
>>> with_article("uniform"), with_article("hour"), with_article("Uhlan")
('a uniform', 'an hour', 'an Uhlan')
"""

from __future__ import annotations

__all__ = ["article", "with_article"]

# Words spelt with a vowel but said with a consonant, and the other way about: their starts.
_SAID_WITH_A_CONSONANT = ("uni", "use", "usu", "uti", "eu", "one", "once", "ewe")
_SAID_WITH_A_VOWEL = ("hour", "honest", "honour", "heir")


def article(word: str) -> str:
    """``an`` before a word said with a vowel sound, ``a`` before any other."""
    w = word.strip().casefold()
    if w.startswith(_SAID_WITH_A_VOWEL):
        return "an"
    if w.startswith(_SAID_WITH_A_CONSONANT):
        return "a"
    return "an" if w[:1] in ("a", "e", "i", "o", "u") else "a"


def with_article(word: str) -> str:
    """The word after its indefinite article: ``an Allied``, ``a French``."""
    return f"{article(word)} {word}"
