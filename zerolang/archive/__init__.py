"""The archive: immutable, hash-addressed memory documents, their index, and the consent policy.

- `canonical`: RFC 8785 canonical JSON bytes (what is hashed);
- `document`: the memory document format and its SHA-256;
- `store`: the tiered archive on disk (hot, warm, cold) with verified reads;
- `index`: the summary index (`memory_index` of seed 004) and its stores;
- `policy`: consent scopes, channel boundaries and privacy clearance, and the decision function;
- `gate`: recall through the policy: summaries by default, a full document only by explicit get;
- `compaction`: a conversation range archived, indexed and replaced by a summary block.

Nothing here is imported by `zero --help`.
"""

from __future__ import annotations

from zerolang.archive.document import (
    HASH_ALGO,
    DocumentError,
    HashFormatError,
    MemoryDocument,
    document_from_json,
    make_document,
    parse_hash,
)
from zerolang.archive.store import Archive, ArchiveError, CorruptDocument, MissingDocument, Tier

__all__ = [
    "HASH_ALGO",
    "Archive",
    "ArchiveError",
    "CorruptDocument",
    "DocumentError",
    "HashFormatError",
    "MemoryDocument",
    "MissingDocument",
    "Tier",
    "document_from_json",
    "make_document",
    "parse_hash",
]
