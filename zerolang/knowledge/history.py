"""A concept's facts over time (`zero memory history`): each fact's periods, as believed and as
believed before, each with the write that recorded it and the one that closed it."""

from __future__ import annotations

from dataclasses import dataclass

from zerolang.knowledge.backend import FactEvent, PeriodRow
from zerolang.knowledge.normalize import AliasTable
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.temporal import beliefs
from zerolang.util.errors import ZeroError


@dataclass(frozen=True, slots=True)
class HistoryPeriod:
    """One period of a fact: when it held (`valid_from`..`valid_to`, and what ended it), when the
    store believed so (`recorded_at`..`closed_at`), and the writes that opened and closed it, as
    the user reads them."""

    valid_from: str
    valid_to: str | None
    ended_by: str | None
    recorded_at: str
    recorded_by: str
    closed_at: str | None
    closed_by: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "ended_by": self.ended_by,
            "recorded_at": self.recorded_at,
            "recorded_by": self.recorded_by,
            "closed_at": self.closed_at,
            "closed_by": self.closed_by,
        }


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    text: str  # subject|predicate|object
    fact_hash: str
    confidence: float
    periods: tuple[HistoryPeriod, ...]  # believed now first (by validity), then the earlier beliefs
    events: tuple[FactEvent, ...]

    @property
    def current(self) -> tuple[HistoryPeriod, ...]:
        """The periods believed now."""
        return tuple(p for p in self.periods if p.closed_at is None)

    def to_json(self) -> dict[str, object]:
        return {
            "fact": self.text,
            "fact_hash": self.fact_hash,
            "confidence": self.confidence,
            "periods": [p.to_json() for p in self.periods],
            "events": [
                {
                    "at": e.at,
                    "kind": e.kind,
                    "valid_from": e.valid_from,
                    "valid_to": e.valid_to,
                    "detail": e.detail,
                }
                for e in self.events
            ],
        }


def concept_history(store: MemoryStore, label: str, aliases: AliasTable | None = None) -> list[HistoryEntry]:
    concept = store.find_concept(label, aliases)
    if concept is None:
        raise ZeroError(f"no concept `{label}` in {store.path}")
    backend = store.backend
    facts = backend.facts_touching([concept.hash.digest])
    labels = backend.labels([f.subject_hash.digest for f in facts] + [f.object_hash.digest for f in facts])
    texts = {
        f.fact_hash.hex(): f"{labels[f.subject_hash.digest]}|{f.predicate}|{labels[f.object_hash.digest]}"
        for f in facts
    }
    keys = [f.fact_hash.digest for f in facts]
    episodes = {
        row.episode.hex(): texts.get(row.fact.hex(), row.fact.hex()[:12]) for row in backend.claims(keys)
    }
    events: dict[bytes, list[FactEvent]] = {}
    for event in backend.fact_events(keys):
        events.setdefault(event.fact, []).append(event)

    def readable(cause: str | None) -> str | None:
        """A period's cause as the user reads it: the fact a superseding or recording write told."""
        if cause is None:
            return None
        word, _, rest = cause.partition(" ")
        if word == "episode" and rest in episodes:
            return f"ingest of {episodes[rest]} (episode {rest[:12]})"
        if word == "fact" and rest in texts:
            return f"ingest of {texts[rest]}"
        if cause in texts:
            return texts[cause]
        return cause

    def period(row: PeriodRow) -> HistoryPeriod:
        return HistoryPeriod(
            row.valid_from,
            row.valid_to,
            readable(row.ended_by),
            row.recorded_at,
            readable(row.recorded_by) or "",
            row.closed_at,
            readable(row.closed_by),
        )

    found = beliefs(backend, facts)
    entries = []
    for fact in facts:
        rows = sorted(
            found[fact.fact_hash.digest],
            key=lambda r: (r.closed_at is not None, r.valid_from, r.recorded_at, r.valid_to or "\uffff"),
        )
        entries.append(
            HistoryEntry(
                texts[fact.fact_hash.hex()],
                fact.fact_hash.hex(),
                fact.confidence,
                tuple(period(r) for r in rows),
                tuple(events.get(fact.fact_hash.digest, ())),
            )
        )
    entries.sort(key=lambda e: (_first(e), e.text))
    return entries


def _first(entry: HistoryEntry) -> str:
    return min((p.valid_from for p in entry.periods), default="")
