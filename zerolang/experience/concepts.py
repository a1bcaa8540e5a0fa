"""Concepts: what an experience is about, as normalised concept labels.

`ConceptExtractor` is the interface; `DefaultConcepts` is deterministic and
offline. It finds, in order of appearance and without repeats:

1. known concepts: labels and aliases from an `AliasTable` (the memory's
   default aliases plus any the user gives), matched as whole words, recorded
   under their canonical label (`LTM` -> `long-term-memory`);
2. names: runs of capitalised words (`Ada`, `New York`); a single
   capitalised word opening a sentence counts only if it is not a common word;
3. noun phrases: runs of two or three content words (no stopword, no common
   verb or adjective between them: `support group`, `adoption agency`), and
   the single content words of four letters or more (`pottery`).

Labels go through the memory's `normalize_label`, and a concept's id is the
memory's ConceptHash of its label, so an experience and a fact about the same
concept name the same node.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from operator import itemgetter
from typing import Protocol

from zerolang.experience.words import COMMON, SPACED, STOPWORDS, raw_words
from zerolang.knowledge.digests import concept_digest
from zerolang.knowledge.normalize import AliasTable, normalize_label

_CLAUSE = re.compile(r"[.,;:!?()\[\]{}\"\n]+")
_BREAKS = b'.,;:!?()[]{}"\n'
_CLAUSE_BYTES = bytes(0x2E if byte in _BREAKS else SPACED[byte] for byte in range(256))
# A run of capitalised words, its first at a word boundary: `\b[A-Z]...` with the boundary checked
# after the capital, (`(?<!\w[A-Z])`: no word character before it), so the search can skip to the
# next capital instead of trying a match at every character.
_NAME = re.compile(r"[A-Z](?<!\w[A-Z])[a-zA-Z'’-]*(?:\s+[A-Z][a-zA-Z'’-]*)*")
MAX_PHRASE = 3
MIN_SINGLE = 4
_LABELS_AT_MOST = 100_000


def _needle(alias: str) -> str:
    """The longest run of `alias` between hyphens (which match any separator): every match holds it."""
    return max(alias.split("-"), key=len)


class ConceptExtractor(Protocol):
    def extract(self, text: str) -> list[str]:
        """The normalised labels of the concepts `text` mentions, first mention first, no repeats."""
        ...


@lru_cache(maxsize=1 << 16)
def concept_id(label: str) -> str:
    """The hex ConceptHash of a normalised label (`hashing.concept_hash`'s digest)."""
    return concept_digest(label).hex()


class DefaultConcepts:
    """Known labels and aliases, capitalised names and noun phrases (see the module docstring)."""

    def __init__(self, aliases: AliasTable | None = None) -> None:
        self.aliases = aliases if aliases is not None else AliasTable.default()
        known: dict[str, str] = {}
        for alias, canonical in self.aliases.items():
            known[normalize_label(alias)] = canonical
            known[normalize_label(canonical)] = canonical
        # longest first, so `long term memory` wins over `memory`
        self._known = sorted(known.items(), key=lambda item: (-len(item[0]), item[0]))
        self._patterns = [
            (
                _needle(alias),
                re.compile(r"(?<![\w-])" + re.escape(alias).replace(r"\-", r"[\s_.-]") + r"(?![\w-])"),
                canonical,
            )
            for alias, canonical in self._known
        ]
        needles = {needle for needle, _, _ in self._patterns}
        # the needles that hold no other: a text holds a needle only if it holds one of these
        self._roots = tuple(sorted(n for n in needles if not any(m != n and m in n for m in needles)))
        self._labels: dict[str, str] = {}  # each raw label met: its normalised form (bounded)
        self._clauses = _Clauses()

    def extract(self, text: str) -> list[str]:
        found: list[tuple[int, str]] = []
        lowered = text.lower()
        for root in self._roots:  # most texts hold no alias: a few substring tests tell
            if root in lowered:
                for needle, pattern, canonical in self._patterns:
                    if needle not in lowered:  # a plain substring test first: the regex where it may match
                        continue
                    match = pattern.search(lowered)
                    if match:
                        found.append((match.start(), canonical))
                break
        found.extend(_names(text))
        found.extend(_phrases(text, self._clauses))
        found.sort(key=itemgetter(0))
        out: list[str] = []
        seen: set[str] = set()
        labels = self._labels
        for _, raw in found:
            label = labels.get(raw)
            if label is None:
                label = normalize_label(raw)
                if len(labels) >= _LABELS_AT_MOST:
                    labels.clear()
                labels[raw] = label
            if label and label not in seen:
                seen.add(label)
                out.append(label)
        return out


def _names(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for match in _NAME.finditer(text):
        parts = [p.rstrip("'’s") if p.endswith(("'s", "’s")) else p for p in match.group(0).split()]
        sentence_start = _opens_sentence(text, match.start())
        while parts and (parts[0].lower() in STOPWORDS or (sentence_start and parts[0].lower() in COMMON)):
            parts = parts[1:]  # "The", "I", a sentence-opening "Yesterday"
            sentence_start = False
        if not parts:
            continue
        if len(parts) == 1 and parts[0].lower() in COMMON:
            continue
        if len(parts) == 1 and len(parts[0]) < 2:
            continue
        out.append((match.start(), " ".join(parts)))
    return out


def _opens_sentence(text: str, start: int) -> bool:
    """Whether `start` opens a sentence: nothing before it, or `.`, `!`, `?` or a line break and then
    only whitespace. Read backwards from `start`, not by a search of all that precedes it (which made
    a long text with many capitalised words quadratic)."""
    end = start
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return start == 0 or (end > 0 and text[end - 1] in ".!?") or "\n" in text[end:start]


@lru_cache(maxsize=1 << 16)
def _content(word: str) -> str | None:
    """A word's lowercase form if it is a content word (no stopword, no common word, letters only,
    three letters or more), else None: worked out once per distinct word."""
    lower = word.lower()
    if lower in STOPWORDS or lower in COMMON or not lower.isalpha() or len(lower) <= 2:
        return None
    return lower


def _clauses(text: str) -> Iterator[tuple[int, str]]:
    """Each clause of `text` (what `_CLAUSE` splits it into), as text whose `raw_words` are the
    clause's, and its offset: the lengths of the clauses before it, each plus one."""
    if not text.isascii():
        offset = 0
        for clause in _CLAUSE.split(text):
            yield offset, clause
            offset += len(clause) + 1
        return
    # ASCII: every clause break made a `.` (which no word holds) and every other character no word
    # holds a space, split at each `.`: a run of breaks leaves empty parts, dropped but the first and last
    parts = text.encode("ascii").translate(_CLAUSE_BYTES).decode("ascii").split(".")
    last = len(parts) - 1
    offset = 0
    for index, part in enumerate(parts):
        if part or index == 0 or index == last:
            yield offset, part  # only word characters and spaces: `raw_words` gives `ascii_words(part)`
            offset += len(part) + 1


class _Clauses:
    """Each clause met: its phrases (`_clause_phrases`, a function of the clause's text alone), kept
    while the clauses kept hold at most `_CLAUSE_CHARS_AT_MOST` characters."""

    __slots__ = ("chars", "phrases")

    def __init__(self) -> None:
        self.phrases: dict[str, tuple[str, ...]] = {}
        self.chars = 0

    def of(self, clause: str) -> tuple[str, ...]:
        found = self.phrases.get(clause)
        if found is None:
            found = _clause_phrases(clause)
            if len(clause) > _CLAUSE_CHARS_AT_MOST:  # a bound on memory, whatever the text
                return found
            if self.chars + len(clause) > _CLAUSE_CHARS_AT_MOST:
                self.phrases.clear()
                self.chars = 0
            self.phrases[clause] = found
            self.chars += len(clause)
        return found


_CLAUSE_CHARS_AT_MOST = 1 << 22


def _phrases(text: str, clauses: _Clauses) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    known = clauses.phrases
    for offset, clause in _clauses(text):
        found = known.get(clause)  # most clauses recur: their phrases looked up without a call
        if found is None:
            found = clauses.of(clause)
        for phrase in found:  # a loop, not a comprehension: that is a function call in Python 3.11
            out.append((offset, phrase))
    return out


def _clause_phrases(clause: str) -> tuple[str, ...]:
    """A clause's noun phrases and long single words, in order: each run of content words's last
    `MAX_PHRASE` words (two or more), then its words of `MIN_SINGLE` letters or more."""
    out: list[str] = []
    run: list[str] = []
    for lower in map(_content, raw_words(clause)):  # one with an apostrophe is no content word
        if lower is not None:
            run.append(lower)
        elif run:
            _close(out, run)
            run = []
    if run:
        _close(out, run)
    return tuple(out)


def _close(out: list[str], run: list[str]) -> None:
    """A run of content words ends: its last `MAX_PHRASE` words as a phrase, and its long single words."""
    if len(run) >= 2:
        out.append(" ".join(run[-MAX_PHRASE:]))
    for single in run:
        if len(single) >= MIN_SINGLE:
            out.append(single)
