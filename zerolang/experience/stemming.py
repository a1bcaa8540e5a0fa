"""Word forms: the Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980).

Recall's full text indexes stems, so "painting", "paints" and "painted" meet "paint". The stems
are ours, computed here for every engine alike (SQLite's FTS5 `porter` and PostgreSQL's `english`
configuration fold word forms differently, so the engines' own stemmers would rank one question
differently). `stem` takes a lowercase ASCII word; any other word is returned as it is.
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiou")

# (suffix, replacement) of steps 2 and 3, applied when what precedes the suffix has a measure > 0;
# the longest suffix that matches is the one tried (a word ends with at most one of each list's).
_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("logi", "log"),
)
_STEP3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)
# Step 4: removed when what precedes has a measure > 1 (`ion` only after `s` or `t`).
_STEP4 = (
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
)


def _consonant(word: str, index: int) -> bool:
    letter = word[index]
    if letter in _VOWELS:
        return False
    if letter == "y":
        return index == 0 or not _consonant(word, index - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]: how many vowel-consonant sequences `stem` has."""
    count, index, size = 0, 0, len(stem)
    while index < size and _consonant(stem, index):
        index += 1
    while index < size:
        while index < size and not _consonant(stem, index):
            index += 1
        if index >= size:
            break
        while index < size and _consonant(stem, index):
            index += 1
        count += 1
    return count


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, index) for index in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant, the last not w, x or y (`hop`, not `snow`)."""
    size = len(word)
    return (
        size >= 3
        and _consonant(word, size - 3)
        and not _consonant(word, size - 2)
        and _consonant(word, size - 1)
        and word[-1] not in "wxy"
    )


def _step1(word: str) -> str:
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    else:
        for suffix in ("ed", "ing"):
            if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
                word = _after_1b(word[: -len(suffix)])
                break
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    return word


def _after_1b(word: str) -> str:
    if word.endswith(("at", "bl", "iz")):
        return word + "e"
    if _double_consonant(word) and word[-1] not in "lsz":
        return word[:-1]
    if _measure(word) == 1 and _cvc(word):
        return word + "e"
    return word


def _replace(word: str, rules: tuple[tuple[str, str], ...]) -> str:
    matching = [(suffix, new) for suffix, new in rules if word.endswith(suffix)]
    if not matching:
        return word
    suffix, new = max(matching, key=lambda rule: len(rule[0]))
    stem = word[: -len(suffix)]
    return stem + new if _measure(stem) > 0 else word


def _step4(word: str) -> str:
    matching = [suffix for suffix in _STEP4 if word.endswith(suffix)]
    if not matching:
        return word
    suffix = max(matching, key=len)
    stem = word[: -len(suffix)]
    if suffix == "ion" and not stem.endswith(("s", "t")):
        return word
    return stem if _measure(stem) > 1 else word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """The Porter stem of a lowercase ASCII word (`painting` -> `paint`); other words, and words of
    one or two letters, as they are."""
    if len(word) <= 2 or not (word.isascii() and word.isalpha() and word.islower()):
        return word
    word = _step1(word)
    word = _replace(word, _STEP2)
    word = _replace(word, _STEP3)
    word = _step4(word)
    return _step5(word)
