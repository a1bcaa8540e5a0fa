"""`archive_and_index`: the seed's one integration call (steps 4 to 6 of compaction).

Store a document in the archive, summarise it, and give it an index row. Idempotent: a
document the archive and index already hold keeps its existing row (with its accesses,
reinforcements and consent flags) rather than being reset.
"""

from __future__ import annotations

from dataclasses import dataclass

from zerolang.archive.document import MemoryDocument, parse_time
from zerolang.archive.index import IndexRecord, IndexStore, axis
from zerolang.archive.store import Archive
from zerolang.archive.summarize import Summarizer, extractive_summary
from zerolang.util.errors import ZeroError


@dataclass(frozen=True, slots=True)
class Archived:
    record: IndexRecord
    stored: bool  # the archive did not hold the document before
    indexed: bool  # the index had no row for it before


def archive_and_index(
    archive: Archive,
    index: IndexStore,
    document: MemoryDocument,
    *,
    summary: str | None = None,
    summarizer: Summarizer = extractive_summary,
    privacy: int = 0,
    abstraction: int = 0,
    cluster_id: str | None = None,
) -> Archived:
    """Archive `document` and index it under a summary (given, or made by `summarizer`)."""
    axis(privacy, "privacy")
    axis(abstraction, "abstraction")
    put = archive.put(document)
    existing = index.get(put.hash)
    if existing is not None:
        return Archived(existing, put.stored, indexed=False)
    text = (summary if summary is not None else summarizer(document.messages)).strip()
    if not text:
        raise ZeroError(f"document {put.hash}: the summary is empty")
    record = IndexRecord(
        hash=put.hash,
        summary=text,
        day=parse_time(document.created_at, "created_at").date(),
        source_channel=document.channel,
        source_session=document.session,
        created_at=document.created_at,
        consent_scope=document.consent_scope,
        y_privacy=privacy,
        z_abstraction=abstraction,
        cluster_id=cluster_id,
    )
    index.put(record)
    return Archived(record, put.stored, indexed=True)
