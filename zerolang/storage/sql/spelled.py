"""A label scan for words typed without their diacritics (`backend.Words.concepts_spelled`).

Each plain letter of a word stands for every letter that folds to it (`util.folding.SPELLINGS`,
both cases): "soren" is the character classes `[sS][oOòóôõöø…][rR…][eEèéêë…][nNñ…]`, which a
SQLite `GLOB` and a PostgreSQL regular expression read alike (neither folds case beyond ASCII,
so the classes hold both cases). The labels found are then checked word by word in Python, so
both engines answer the same: a label word that, folded, starts with the word."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zerolang.storage.sql.core import SqlCore
from zerolang.util.folding import SPELLINGS, fold

_WORD = re.compile(r"[^\W_]+")
_OVER = 4
"""Labels read per one kept, at most: a class pattern also matches inside a longer word."""


def classes(word: str) -> str:
    """`word`'s letters as character classes of their spellings; digits and other letters as they are."""
    return "".join(f"[{SPELLINGS[c]}]" if c in SPELLINGS else c for c in word)


def spelled(
    core: SqlCore, words: Sequence[str], limit: int, condition: str, pattern: Callable[[str], str]
) -> list[tuple[bytes, str]]:
    """The concepts of `core`'s space whose label has a word starting with one of `words` (folded),
    by `condition` (one `?` for `pattern` of a word's classes), ORed over the words; by hash."""
    plain = sorted({word for word in words if word and _WORD.fullmatch(word) and word == fold(word)})
    if not plain or limit < 1:
        return []
    where = " OR ".join([condition] * len(plain))
    rows = core.rows(
        f"SELECT hash, label FROM concepts WHERE space = ? AND ({where}) ORDER BY hash LIMIT ?",
        [core.space, *(pattern(classes(word)) for word in plain), limit * _OVER],
    )
    found = []
    for key, label in rows:
        tokens = _WORD.findall(fold(str(label)))
        if any(token.startswith(word) for token in tokens for word in plain):
            found.append((bytes(key), str(label)))
    return found[:limit]
