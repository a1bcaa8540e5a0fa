"""Forgotten terms: what a purge erases everywhere, kept only as hashes.

A forget removes concepts; their labels and aliases are the forgotten *terms*.
Every store keeps a term only as a hash (`term_key`: SHA-256 of its lowercased
words joined by one space) with its word count, so nothing readable stays
behind after a purge. A text *mentions* a term when some run of its words
hashes to it (`Forgotten.mentions`). Words are runs of letters and digits in
any script: apostrophes, hyphens, underscores and punctuation separate them,
so `Zelda's`, `"zelda"` and `ZELDA` all mention `Zelda`, and `long-term-memory`
mentions `long term memory`.

The memory keeps the terms a purge erased as `forgotten_keys` rows of kind
`term:N` (N words), which ingest, import and received bundles consult; the
experience database keeps them in `exp_forgotten`, which capture, recall and
conversations consult; the archive consults the memory its index lives in.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DOMAIN = b"0M-forgotten-term\n"
TERM_KIND = "term:"
# What a redaction puts where a mention was: no letter or digit, so it mentions no term itself.
REDACTED = "[…]"
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The lowercased words of `text` (runs of letters and digits)."""
    return [word.lower() for word in _WORD.findall(text)]


@functools.lru_cache(maxsize=1 << 16)
def _digest(joined: str) -> str:
    return hashlib.sha256(DOMAIN + joined.encode()).hexdigest()


def term_key(term: str) -> tuple[str, int] | None:
    """The hash and word count a term is blocked by; None for a term without words."""
    found = words(term)
    if not found:
        return None
    return _digest(" ".join(found)), len(found)


def term_keys(terms: Iterable[str]) -> list[tuple[str, int]]:
    return sorted({key for term in terms if (key := term_key(term)) is not None})


def as_blocked(keys: Iterable[tuple[str, int]]) -> list[tuple[bytes, str]]:
    """Term keys as the memory's blocked keys: `(digest, "term:N")`."""
    return [(bytes.fromhex(key), f"{TERM_KIND}{count}") for key, count in keys]


def is_term_kind(kind: str) -> bool:
    """Whether a blocked key's kind is a term's (`term:N`, N a positive whole number)."""
    count = kind[len(TERM_KIND) :]
    return kind.startswith(TERM_KIND) and count.isdigit() and count.isascii() and int(count) > 0


def from_blocked(rows: Iterable[tuple[bytes, str]]) -> list[tuple[str, int]]:
    """The term keys among the memory's blocked keys `(digest, kind)`."""
    found = []
    for key, kind in rows:
        if is_term_kind(kind):
            found.append((key.hex(), int(kind[len(TERM_KIND) :])))
    return sorted(set(found))


@dataclass(frozen=True, slots=True)
class Forgotten:
    """The blocked term hashes, grouped by word count."""

    keys: frozenset[str] = frozenset()
    lengths: frozenset[int] = frozenset()

    @staticmethod
    def of(rows: Iterable[tuple[str, int]]) -> Forgotten:
        pairs = list(rows)
        return Forgotten(frozenset(k for k, _ in pairs), frozenset(n for _, n in pairs))

    @staticmethod
    def terms(terms: Iterable[str]) -> Forgotten:
        return Forgotten.of(term_keys(terms))

    def __bool__(self) -> bool:
        return bool(self.keys)

    def __or__(self, other: Forgotten) -> Forgotten:
        return Forgotten(self.keys | other.keys, self.lengths | other.lengths)

    def mentions(self, *texts: str) -> bool:
        if not self.keys:
            return False
        for text in texts:
            found = words(text)
            for n in self.lengths:
                for start in range(len(found) - n + 1):
                    if _digest(" ".join(found[start : start + n])) in self.keys:
                        return True
        return False

    def redact(self, text: str) -> str:
        """`text` with every run of words that mentions a term replaced by `REDACTED` (adjacent or
        overlapping runs become one); unchanged when it mentions none."""
        if not self.keys:
            return text
        found = list(_WORD.finditer(text))
        lowered = [match.group().lower() for match in found]
        spans: list[tuple[int, int]] = []
        for n in sorted(self.lengths):
            for start in range(len(found) - n + 1):
                if _digest(" ".join(lowered[start : start + n])) in self.keys:
                    spans.append((found[start].start(), found[start + n - 1].end()))
        if not spans:
            return text
        parts, at = [], 0
        for low, high in _merged(spans):
            parts += [text[at:low], REDACTED]
            at = high
        return "".join([*parts, text[at:]])

    def mentions_any(self, value: object) -> bool:
        """Whether any string inside `value` (JSON-like: dicts, lists, keys included) mentions a term."""
        return bool(self.keys) and self.mentions(*strings(value))


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Character spans in order, those that overlap or touch joined."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


def strings(value: object) -> list[str]:
    """Every string in a JSON-like value, mapping keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [text for key, item in value.items() for text in (*strings(key), *strings(item))]
    if isinstance(value, list | tuple | set | frozenset):
        return [text for item in value for text in strings(item)]
    return []
