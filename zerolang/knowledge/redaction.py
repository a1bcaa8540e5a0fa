"""A context without what mentions a forgotten term: the one rule a forget, a purge and a later
write apply (`zerolang.knowledge.scope` plans it over a stored space; `merge` over records coming
in after a purge). Each mention becomes `terms.REDACTED`; the event time stays (it is a time)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from zerolang.knowledge.hashing import context_hash, episode_hash
from zerolang.knowledge.terms import Forgotten
from zerolang.knowledge.types import ContextMeta, ContextNode, MemoryRecord


def redacted(meta: ContextMeta, forgotten: Forgotten) -> ContextMeta:
    """`meta` with every mention of a forgotten term replaced (its event time as it is)."""
    cut = forgotten.redact
    return ContextMeta(
        meta.event_time,
        cut(meta.source),
        cut(meta.scope),
        None if meta.agent_id is None else cut(meta.agent_id),
        None if meta.session_id is None else cut(meta.session_id),
        {cut(key): cut(value) for key, value in sorted(meta.metadata.items())},
    )


def redacted_records(records: Sequence[MemoryRecord], forgotten: Forgotten) -> list[MemoryRecord]:
    """Records coming in after a purge, each context that names a purged term redacted and its
    relations re-derived under it (what a relation itself says is judged apart: `merge`). A
    context whose event time mentions a term is left as it is (all of it is then kept out)."""
    if not forgotten:
        return list(records)
    found = []
    for record in records:
        meta = record.context.meta
        if not forgotten.mentions_any(meta.to_json()) or forgotten.mentions(meta.event_time):
            found.append(record)
            continue
        clean = redacted(meta, forgotten)
        new = context_hash(clean)
        relations = tuple(
            replace(r, context_hash=new, episode_hash=episode_hash(r.fact_hash, new))
            for r in record.relations
        )
        found.append(MemoryRecord(record.concepts, relations, ContextNode(new, clean)))
    return found
