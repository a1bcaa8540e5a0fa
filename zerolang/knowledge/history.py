"""A concept's facts over time (`zero memory history`): spans and events, oldest validity first."""

from __future__ import annotations

from dataclasses import dataclass, replace

from zerolang.knowledge.backend import FactEvent
from zerolang.knowledge.normalize import AliasTable
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.temporal import Span, spans
from zerolang.util.errors import ZeroError


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    text: str  # subject|predicate|object
    fact_hash: str
    confidence: float
    span: Span
    events: tuple[FactEvent, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "fact": self.text,
            "fact_hash": self.fact_hash,
            "confidence": self.confidence,
            **self.span.to_json(),
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
    found = spans(backend, facts)
    events: dict[bytes, list[FactEvent]] = {}
    for event in backend.fact_events([f.fact_hash.digest for f in facts]):
        events.setdefault(event.fact, []).append(event)
    texts = {
        f.fact_hash.hex(): f"{labels[f.subject_hash.digest]}|{f.predicate}|{labels[f.object_hash.digest]}"
        for f in facts
    }

    def readable(event: FactEvent) -> FactEvent:
        word, _, rest = event.detail.partition(" ")
        if word == "by" and rest in texts:
            return replace(event, detail=f"by {texts[rest]}")
        return event

    entries = [
        HistoryEntry(
            f"{labels[f.subject_hash.digest]}|{f.predicate}|{labels[f.object_hash.digest]}",
            f.fact_hash.hex(),
            f.confidence,
            found[f.fact_hash.digest],
            tuple(readable(e) for e in events.get(f.fact_hash.digest, ())),
        )
        for f in facts
    ]
    entries.sort(key=lambda e: (e.span.valid_from, e.span.learned_at, e.text))
    return entries
