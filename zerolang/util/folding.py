"""Folding a text to the form words are matched in: lower case, without diacritics.

A question typed without accents names what was stored with them, and the other way round:
"Maria Jose" finds `maría josé fernández`, "Soren" finds `søren nielsen`. Accents come off by
Unicode decomposition (NFKD, then the combining marks dropped); the Latin letters that do not
decompose are spelled out as their plain forms (`ø` is `o`, `æ` is `ae`, `ß` is `ss`)."""

from __future__ import annotations

import unicodedata

_PLAIN = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h"}
)


def fold(text: str) -> str:
    """`text` in lower case without diacritics (an ASCII text is only lowered)."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    decomposed = unicodedata.normalize("NFKD", lowered.translate(_PLAIN))
    plain = "".join(character for character in decomposed if not unicodedata.combining(character))
    # a compatibility form may decompose to a capital or a letter spelled plain (`𝓐`, `Ｏ`)
    return plain.lower().translate(_PLAIN)


def _accented() -> dict[str, tuple[str, ...]]:
    """Each plain letter or pair with the lower-case letters of Latin-1 and Latin Extended-A that
    fold to it: `o` is `ò ó ô õ ö ø ō ŏ ő`, `ae` is `æ`."""
    found: dict[str, list[str]] = {}
    for point in range(0xDF, 0x180):
        character = chr(point)
        plain = fold(character)
        if character.islower() and plain != character and plain.isascii() and plain.isalpha():
            found.setdefault(plain, []).append(character)
    return {plain: tuple(characters) for plain, characters in found.items()}


_ACCENTED = _accented()


def accented(word: str) -> list[str]:
    """The spellings of a plain word with one of its letters (or letter pairs: `ae`, `ss`) written
    with a diacritic, in order: "soren" gives "sòren", ..., "søren", ...; none for a word that is
    not plain (already folded, letters a to z and digits)."""
    if not word.isascii() or fold(word) != word:
        return []
    out: list[str] = []
    for at in range(len(word)):
        for size in (1, 2):
            for letter in _ACCENTED.get(word[at : at + size], ()) if at + size <= len(word) else ():
                out.append(word[:at] + letter + word[at + size :])
    return out
