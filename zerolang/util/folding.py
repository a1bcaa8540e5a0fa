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
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def _spelled() -> dict[str, str]:
    """Each lower-case ASCII letter with every letter of the Latin blocks that folds to it (both
    cases), itself first: `o` is `oOòóôõöøōŏő...`."""
    found: dict[str, list[str]] = {
        letter: [letter, letter.upper()] for letter in "abcdefghijklmnopqrstuvwxyz"
    }
    for point in range(0xC0, 0x250):
        character = chr(point)
        plain = fold(character)
        if character.isalpha() and len(plain) == 1 and plain in found and character not in found[plain]:
            found[plain].append(character)
    return {letter: "".join(characters) for letter, characters in found.items()}


SPELLINGS = _spelled()
"""The letters each plain letter stands for in a word typed without diacritics."""
