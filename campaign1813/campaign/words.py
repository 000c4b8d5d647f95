"""Small pieces of English the messages share: the indefinite article before a word, and a
name's possessive.

>>> with_article("Allied"), with_article("French"), with_article("infantry charge")
('an Allied', 'a French', 'an infantry charge')
>>> with_article("uniform"), with_article("hour"), with_article("Uhlan")
('a uniform', 'an hour', 'an Uhlan')
>>> possessive("5 Corps"), possessive("General Lauriston")
("5 Corps'", "General Lauriston's")
"""

from __future__ import annotations

__all__ = ["article", "possessive", "with_article"]

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


def possessive(name: str) -> str:
    """A name's possessive: ``General Lauriston's``, but ``5 Corps'`` (a corps is plural)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
