"""`archive_and_index`: the seed's one integration call (steps 4 to 6 of compaction).

Store a document in the archive, summarise it, and give it an index row. Idempotent: a
document the archive and index already hold keeps its existing row (with its accesses,
reinforcements and consent flags) rather than being reset. A document that mentions a term a
purge erased (the index's memory knows them, `forgotten_terms`), or that a purge erased, is
not stored: `ForgottenDocument`.
"""

from __future__ import annotations

from dataclasses import dataclass

from zerolang.archive.document import MemoryDocument, parse_time
from zerolang.archive.index import IndexRecord, IndexStore, axis
from zerolang.archive.store import Archive, ArchiveError
from zerolang.archive.summarize import Summarizer, extractive_summary
from zerolang.knowledge.terms import Forgotten
from zerolang.util.errors import ZeroError


class ForgottenDocument(ArchiveError):
    """The document mentions a term a purge erased (or was erased itself): nothing was stored."""

    def __init__(self, digest: str) -> None:
        super().__init__(
            f"document {digest} mentions a forgotten term (zero memory tombstones): not archived"
        )
        self.hash = digest


def forgotten_terms(index: object) -> Forgotten:
    """The terms purges erased in the memory an index lives in (none for an index without one)."""
    read = getattr(index, "forgotten_terms", None)
    found = read() if read is not None else None
    return found if isinstance(found, Forgotten) else Forgotten()


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
    forgotten: Forgotten | None = None,
) -> Archived:
    """Archive `document` and index it under a summary (given, or made by `summarizer`); not when
    it mentions a term purges erased (the index's memory's, and `forgotten`)."""
    axis(privacy, "privacy")
    axis(abstraction, "abstraction")
    blocked = forgotten_terms(index) | (forgotten or Forgotten())
    if blocked.mentions_any(document.body()) or (summary is not None and blocked.mentions(summary)):
        raise ForgottenDocument(document.hash)
    put = archive.put(document)
    if put.erased:
        raise ForgottenDocument(put.hash)
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
