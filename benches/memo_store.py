"""A read-only view of an experience store that remembers every answer: for re-running recall.

`bench_locomo.py --loo` runs recall over the same questions with many settings; the store's
answers do not change between runs, so each is read once: per id (an experience, a turn's
layers, a turn's neighbours, an experience's mentions, a concept's mentioners, frequency and
label) or per call (postings, totals, counts). Only the read side of `ExperienceStore` is offered.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from typing import TypeVar

from zerolang.experience.model import Experience, Posting, TermTotals
from zerolang.experience.store import ExperienceStore

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _per_key(
    cache: dict[K, V], keys: Collection[K], fetch: Callable[[list[K]], dict[K, V]], empty: V
) -> dict[K, V]:
    """`keys`' values: the cached ones, the others fetched once (and `empty` for none)."""
    missing = [key for key in dict.fromkeys(keys) if key not in cache]
    if missing:
        got = fetch(missing)
        for key in missing:
            cache[key] = got.get(key, empty)
    return {key: cache[key] for key in keys}


class MemoStore:
    """Answers as `store` would, each read from it once."""

    def __init__(self, store: ExperienceStore) -> None:
        self.store = store
        self._calls: dict[tuple[object, ...], object] = {}
        self._experiences: dict[str, Experience | None] = {}
        self._layers: dict[str, list[Experience]] = {}
        self._neighbours: dict[str, list[tuple[str, str]]] = {}
        self._mentions: dict[str, list[tuple[str, str, float]]] = {}
        self._mentioning: dict[str, list[tuple[str, str]]] = {}
        self._frequency: dict[str, int] = {}
        self._labels: dict[str, str | None] = {}
        self._lengths: dict[str, int] = {}

    def _once(self, key: tuple[object, ...], call: Callable[[], V]) -> V:
        if key not in self._calls:
            self._calls[key] = call()
        return self._calls[key]  # type: ignore[return-value]

    def postings(self, terms: Collection[str]) -> list[Posting]:
        key = tuple(sorted(terms))
        return self._once(("postings", key), lambda: self.store.postings(key))

    def term_totals(self) -> TermTotals:
        return self._once(("totals",), self.store.term_totals)

    def turn_lengths(self, turn_ids: Collection[str]) -> dict[str, int]:
        got = _per_key(self._lengths, turn_ids, lambda keys: dict(self.store.turn_lengths(keys)), 0)
        return {turn: length for turn, length in got.items() if length}

    def counts(self) -> dict[str, int]:
        return self._once(("counts",), self.store.counts)

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        return self._once(("forgotten", tombstone), lambda: self.store.forgotten_terms(tombstone))

    def experiences(self, ids: Collection[str]) -> dict[str, Experience]:
        got = _per_key(self._experiences, ids, lambda keys: dict(self.store.experiences(keys)), None)
        return {ident: e for ident, e in got.items() if e is not None}

    def experiences_of_turns(self, turn_ids: Collection[str]) -> list[Experience]:
        def fetch(keys: list[str]) -> dict[str, list[Experience]]:
            out: dict[str, list[Experience]] = {}
            for experience in self.store.experiences_of_turns(keys):
                out.setdefault(experience.turn, []).append(experience)
            return out

        got = _per_key(self._layers, turn_ids, fetch, [])
        return sorted((e for layers in got.values() for e in layers), key=lambda e: (e.position, e.ordinal))

    def neighbour_turns(self, turn_ids: Collection[str]) -> list[tuple[str, str]]:
        def fetch(keys: list[str]) -> dict[str, list[tuple[str, str]]]:
            out: dict[str, list[tuple[str, str]]] = {}
            for pair in self.store.neighbour_turns(keys):
                out.setdefault(pair[0], []).append(pair)  # (a turn asked about, its neighbour)
            return out

        got = _per_key(self._neighbours, turn_ids, fetch, [])
        return [pair for pairs in got.values() for pair in pairs]

    def mentions_of(self, experience_ids: Collection[str]) -> list[tuple[str, str, float]]:
        def fetch(keys: list[str]) -> dict[str, list[tuple[str, str, float]]]:
            out: dict[str, list[tuple[str, str, float]]] = {}
            for row in self.store.mentions_of(keys):
                out.setdefault(row[0], []).append(row)
            return out

        got = _per_key(self._mentions, experience_ids, fetch, [])
        return [row for rows in got.values() for row in rows]

    def mentioning(self, concept_ids: Collection[str]) -> list[tuple[str, str]]:
        def fetch(keys: list[str]) -> dict[str, list[tuple[str, str]]]:
            out: dict[str, list[tuple[str, str]]] = {}
            for row in self.store.mentioning(keys):
                out.setdefault(row[1], []).append(row)
            return out

        got = _per_key(self._mentioning, concept_ids, fetch, [])
        return [row for rows in got.values() for row in rows]

    def concept_frequency(self, concept_ids: Collection[str]) -> dict[str, int]:
        got = _per_key(self._frequency, concept_ids, lambda keys: self.store.concept_frequency(keys), 0)
        return {ident: count for ident, count in got.items() if count}

    def concept_labels(self, concept_ids: Collection[str]) -> dict[str, str]:
        got = _per_key(self._labels, concept_ids, lambda keys: dict(self.store.concept_labels(keys)), None)
        return {ident: label for ident, label in got.items() if label is not None}
