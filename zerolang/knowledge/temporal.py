"""Bi-temporal facts: when a fact held in the world, when the store learned and retired it.

A fact is valid from its first episode's event time (or the context's
`valid_from` metadata) until it is closed, and known from when it was stored
until retired. Defaults are not stored; `fact_times` rows hold the rest.

- **Single-valued predicates** (`[tool.zero.memory] single-valued`, e.g.
  `lives_in`): a new object for the same subject and predicate *supersedes*
  the old fact instead of joining it. Graphiti's rule on the two validity
  intervals: if the old one started first, it is closed where the new one
  starts and retired (kept for history); if the new one describes an earlier
  time, the *new* one is closed where the old one starts.
- **Retract** closes a fact's validity (at a given time, default now) and
  retires it: it stays for history, out of current answers.
- A fresh episode of a closed fact, starting at or after its close,
  **reasserts** it (reopened), superseding its rivals again.

Every change is logged as a fact event (`zero memory history`). Views:
`current` (known now, valid now), `as of T` (valid at world time T, as known
now), `known at T` (what the store held at store time T).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from zerolang.knowledge.backend import FactEvent, FactFilter, FactTimes, Lifetime, Log, Records, Temporal
from zerolang.knowledge.types import ContextMeta, Fact, MemoryRecord, RelationNode
from zerolang.util.errors import ZeroError


def utc(text: str, what: str = "time") -> str:
    """An ISO 8601 time (a bare date is its midnight; no zone is UTC) in the store's format."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ZeroError(f"{what}: not an ISO 8601 time: {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class TemporalFacts(Records, Temporal, Protocol):
    """The facts with their episodes and their times: what the temporal views and rules read and write."""


class _Retracting(TemporalFacts, Lifetime, Log, Protocol):
    """A retraction's needs beyond the facts' times: its transaction and its line in the space log."""


@dataclass(frozen=True, slots=True)
class Span:
    """A fact's full times: validity `[valid_from, valid_to)` and knowledge `[learned_at, retired_at)`."""

    fact: bytes
    valid_from: str
    valid_to: str | None
    learned_at: str
    retired_at: str | None
    retired_by: str | None

    def valid_at(self, moment: str) -> bool:
        return self.valid_from <= moment and (self.valid_to is None or moment < self.valid_to)

    def known_at(self, moment: str) -> bool:
        return self.learned_at <= moment and (self.retired_at is None or moment < self.retired_at)

    def shown(self, now: str, as_of: str | None, known_at: str | None) -> bool:
        """Whether a view shows the fact.

        - current (neither): valid now and not retired;
        - `as of T`: valid at world time T, by what is known now (history included);
        - `known at S`: held by the store at store time S (learned, not yet retired), with the
          validity it had then (a close recorded by a later retirement is not yet known);
        - both: held at S and valid at T by what was known at S.
        """
        if as_of is None and known_at is None:
            return self.valid_at(now) and (self.retired_at is None or now < self.retired_at)
        if known_at is None:
            assert as_of is not None
            return self.valid_at(as_of)
        if not self.known_at(known_at):
            return False
        moment = as_of or known_at
        closed_later = self.retired_at is not None and self.retired_at > known_at
        return self.valid_from <= moment and (self.valid_to is None or closed_later or moment < self.valid_to)

    def to_json(self) -> dict[str, object]:
        return {
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "learned_at": self.learned_at,
            "retired_at": self.retired_at,
            "retired_by": self.retired_by,
        }


def spans(backend: TemporalFacts, facts: Sequence[Fact]) -> dict[bytes, Span]:
    """Every fact's span: stored times where there are some, defaults from its episodes otherwise."""
    keys = [f.fact_hash.digest for f in facts]
    stored = backend.fact_times(keys) if backend.has_fact_times() else {}
    first: dict[bytes, str] = {}
    for row in backend.episodes_of(keys):
        moment = _event_time(row.event_time)
        if row.fact_hash not in first or moment < first[row.fact_hash]:
            first[row.fact_hash] = moment
    found = {}
    for fact in facts:
        key = fact.fact_hash.digest
        times = stored.get(key)
        start = (times.valid_from if times else None) or first.get(key) or fact.created_at
        found[key] = Span(
            key,
            start,
            times.valid_to if times else None,
            fact.created_at,
            times.retired_at if times else None,
            times.retired_by if times else None,
        )
    return found


def _event_time(text: str) -> str:
    try:
        return utc(text)
    except ZeroError:
        return text


def visible(
    backend: TemporalFacts,
    keys: Collection[bytes],
    *,
    now: str,
    as_of: str | None = None,
    known_at: str | None = None,
) -> set[bytes]:
    """The facts among `keys` a view shows (see `Span.shown`). Without stored times and without
    `as_of`/`known_at`, every fact is current: no reads."""
    if not keys:
        return set()
    if as_of is None and known_at is None and not backend.has_fact_times():
        return set(keys)
    facts = list(backend.facts(sorted(set(keys))).values())
    return {key for key, span in spans(backend, facts).items() if span.shown(now, as_of, known_at)}


# ---- writing: supersede, reassert, retract ------------------------------------------------------


def after_insert(
    backend: TemporalFacts, fresh: Sequence[tuple[RelationNode, ContextMeta]], single_valued: Collection[str]
) -> int:
    """Apply the temporal rules to freshly stored episodes; how many facts changed times."""
    if backend.has_fact_times():
        relevant = list(fresh)
    else:
        relevant = [(r, meta) for r, meta in fresh if r.predicate in single_valued or explicit(meta)]
    if not relevant:
        return 0
    keys = sorted({r.fact_hash.digest for r, _ in relevant})
    facts = backend.facts(keys)
    before = spans(backend, list(facts.values()))
    rows: dict[bytes, FactTimes] = {}
    events: list[FactEvent] = []
    for relation, meta in relevant:
        key = relation.fact_hash.digest
        span = before.get(key)
        if span is None:
            continue
        start, end = _validity(meta)
        given = "valid_from" in meta.metadata or end is not None
        if span.retired_by == "retracted" or (span.valid_to is not None and start >= span.valid_to):
            if span.valid_to is not None and start >= span.valid_to:  # a closed fact stated again
                rows[key] = FactTimes(key, start, end, None, None)
                events.append(
                    FactEvent(key, "reasserted", relation.created_at, start, end, relation.confidence, "")
                )
                before[key] = Span(key, start, end, span.learned_at, None, None)
        elif facts[key].observations == 1 and key not in rows:
            if given:
                rows[key] = FactTimes(key, start, end, None, None)
                before[key] = Span(key, start, end, span.learned_at, None, None)
            events.append(FactEvent(key, "learned", relation.created_at, start, end, relation.confidence, ""))
    if rows:
        backend.set_fact_times(list(rows.values()))
    backend.add_fact_events(events)
    groups = sorted(
        {(r.subject_hash.digest, r.predicate) for r, _ in relevant if r.predicate in single_valued}
    )
    return sum(_supersede(backend, subject, predicate) for subject, predicate in groups)


def explicit(meta: ContextMeta) -> bool:
    """Whether the context gives validity explicitly (`valid_from`/`valid_to` in its metadata)."""
    return "valid_from" in meta.metadata or "valid_to" in meta.metadata


def _validity(meta: ContextMeta) -> tuple[str, str | None]:
    start = (
        utc(meta.metadata["valid_from"]) if "valid_from" in meta.metadata else _event_time(meta.event_time)
    )
    end = utc(meta.metadata["valid_to"]) if "valid_to" in meta.metadata else None
    return start, end


def _supersede(backend: TemporalFacts, subject: bytes, predicate: str) -> int:
    """Graphiti's rule over one subject's single-valued predicate, as a function of the facts alone
    (so the order and batching of ingests do not matter): sorted by validity start, each fact is
    valid until the next one starts (or its own earlier end); a fact is *retired* (superseded)
    when a later-starting rival was learned at or after it, else only closed (learned as history).
    Retracted facts keep their times and take no part."""
    facts = backend.find_facts(FactFilter(subject=subject, predicate=predicate))
    found = spans(backend, facts)
    stored = backend.fact_times([f.fact_hash.digest for f in facts])
    group = sorted(
        (span for span in found.values() if span.retired_by != "retracted"),
        key=lambda span: (span.valid_from, span.fact),
    )
    rows: list[FactTimes] = []
    events: list[FactEvent] = []
    for index, span in enumerate(group):
        later = [rival for rival in group[index + 1 :] if rival.valid_from > span.valid_from]
        own_end = (
            stored[span.fact].valid_to if span.fact in stored and not stored[span.fact].retired_by else None
        )
        end = own_end
        by: Span | None = None
        if later and (end is None or later[0].valid_from < end):
            end, by = later[0].valid_from, later[0]
        retirers = sorted(
            (r for r in later if r.learned_at >= span.learned_at), key=lambda r: (r.learned_at, r.fact)
        )
        retired = retirers[0] if retirers else None
        new = FactTimes(
            span.fact,
            span.valid_from,
            end,
            retired.learned_at if retired else None,
            retired.fact.hex() if retired else None,
        )
        old = FactTimes(span.fact, span.valid_from, span.valid_to, span.retired_at, span.retired_by)
        if new == old:
            continue
        rows.append(new)
        if new.valid_to != old.valid_to and by is not None:
            kind = "superseded" if retired is not None else "closed"
            at = retired.learned_at if retired is not None else span.learned_at
            events.append(FactEvent(span.fact, kind, at, span.valid_from, end, None, f"by {by.fact.hex()}"))
    backend.set_fact_times(rows)
    backend.add_fact_events(events)
    return len(rows)


def retract(backend: _Retracting, fact: Fact, *, at: str, valid_to: str | None = None) -> Span:
    """Close the fact's validity (at `valid_to`, default `at`) and retire it; ZeroError if it is retired."""
    key = fact.fact_hash.digest
    with backend.transaction():
        span = spans(backend, [fact])[key]
        if span.retired_at is not None:
            raise ZeroError(
                f"fact {key.hex()[:12]} was already retired at {span.retired_at} ({span.retired_by})"
            )
        end = valid_to or at
        if end < span.valid_from:
            raise ZeroError(f"cannot close the fact at {end}: it is valid from {span.valid_from}")
        backend.set_fact_times([FactTimes(key, span.valid_from, end, at, "retracted")])
        backend.add_fact_events([FactEvent(key, "retracted", at, span.valid_from, end, None, "")])
        backend.append_log(at, "retract", key, f"valid to {end}")
    return Span(key, span.valid_from, end, span.learned_at, at, "retracted")


def fresh_with_context(
    records: Iterable[MemoryRecord], keys: Collection[bytes]
) -> list[tuple[RelationNode, ContextMeta]]:
    """The records' relations whose episodes are in `keys`, each with its context."""
    return [
        (relation, record.context.meta)
        for record in records
        for relation in record.relations
        if relation.episode_hash.digest in keys
    ]
