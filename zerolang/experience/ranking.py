"""Recall's full text ranked in one place: Okapi BM25 over the store's postings, alike on every engine.

The store keeps, for each experience, the terms of its `what` and its `who`
(`words.index_terms`: our tokenizer and stemmer, not an engine's) and hands back the
postings of a query's terms with the totals (`ExperienceStore.postings`, `term_totals`,
`turn_lengths`). Everything from there is arithmetic on those integers, here: the same
store gives the same ranking on SQLite and PostgreSQL, ties broken by id.

- **Experiences**: a term in `who` counts `WHO` as much as one in `what` (its frequency and
  the experience's length alike), as SQLite's FTS5 weighed the columns before.
- **Turns**: a turn is its layers' `what` together (a question in one layer and its answer in
  the next match as one text).

BM25 as SQLite's FTS5 computed it, which LoCoMo measured best (docs/benchmarks.md): `K1` 1.2,
`B` 0.75, the idf `ln((N - n + 0.5) / (n + 0.5))` but at least `FLOOR` (a term in half the
documents or more counts next to nothing), and a document's length its number of words, stopwords
included (`words.lower_words`), while only its terms match; each distinct query term counts once.
A score is comparable only within one list.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from zerolang.experience.model import Posting, TermTotals
from zerolang.experience.store import ExperienceStore
from zerolang.experience.words import index_terms

K1 = 1.2
B = 0.75
WHO = 0.25
"""A term said in who spoke counts this share of one in what was said."""
FLOOR = 1e-6
"""The least idf: that of a term held by half the documents or more."""


@dataclass(frozen=True, slots=True)
class FullText:
    """A query's full-text ranking: experiences and turns, `(id, score)` best first."""

    experiences: list[tuple[str, float]]
    turns: list[tuple[str, float]]


def query_terms(words: Sequence[str]) -> list[str]:
    """The distinct index terms of a query's words, sorted (the order a score sums them in)."""
    return sorted(set(index_terms(" ".join(words))))


def full_text(store: ExperienceStore, words: Sequence[str], limit: int) -> FullText:
    """The first `limit` experiences and turns matching any of `words`, best first, ties by id."""
    keys = query_terms(words)
    if not keys or limit <= 0:
        return FullText([], [])
    postings = store.postings(keys)
    if not postings:
        return FullText([], [])
    totals = store.term_totals()
    experiences = _experiences(postings, totals)
    turn_terms = _turn_terms(postings)
    lengths = store.turn_lengths(turn_terms)
    turns = _bm25(turn_terms, lengths, totals.turns, totals.what / max(totals.turns, 1))
    return FullText(best(experiences, limit), best(turns, limit))


def best(scores: Mapping[str, float], limit: int) -> list[tuple[str, float]]:
    """The `limit` best of `scores`, best first, ties by id: one order whatever the engine."""
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]


def _experiences(postings: Iterable[Posting], totals: TermTotals) -> dict[str, float]:
    terms: dict[str, dict[str, float]] = defaultdict(dict)
    lengths: dict[str, float] = {}
    for p in postings:
        terms[p.experience][p.term] = p.what + WHO * p.who
        lengths[p.experience] = p.what_length + WHO * p.who_length
    average = (totals.what + WHO * totals.who) / max(totals.experiences, 1)
    return _bm25(terms, lengths, totals.experiences, average)


def _turn_terms(postings: Iterable[Posting]) -> dict[str, dict[str, float]]:
    """Each turn's frequency of each term in its layers' `what` together."""
    terms: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for p in postings:
        if p.what:
            terms[p.turn][p.term] += p.what
    return terms


def _bm25(
    frequencies: Mapping[str, Mapping[str, float]],
    lengths: Mapping[str, float],
    documents: int,
    average: float,
) -> dict[str, float]:
    """BM25 of each document of `frequencies` (document -> term -> frequency), its length from
    `lengths`; `documents` in all, of `average` length. Terms are summed in sorted order."""
    held: dict[str, int] = defaultdict(int)
    for found in frequencies.values():
        for term in found:
            held[term] += 1
    count = max(documents, max(held.values(), default=0))
    idf = {term: _idf(count, n) for term, n in held.items()}
    out: dict[str, float] = {}
    for document, found in frequencies.items():
        norm = K1 * (1 - B + B * lengths.get(document, 0.0) / average) if average > 0 else K1
        out[document] = sum(idf[term] * tf * (K1 + 1) / (tf + norm) for term, tf in sorted(found.items()))
    return out


def _idf(documents: int, held: int) -> float:
    """How rare a term held by `held` of `documents` is: `ln((N - n + 0.5) / (n + 0.5))`, at least
    `FLOOR` (a term most documents hold tells next to nothing)."""
    return max(math.log((documents - held + 0.5) / (held + 0.5)), FLOOR)
