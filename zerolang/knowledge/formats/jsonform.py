"""JSON forms of a snapshot: the reference the token benchmark compares `.0c` against, and an export format.

`to_json` writes records as the store holds them, hashes included (one object per context), the
store's declarations (`"declarations"`, only when there are any: a file without the key declares
nothing) and its tombstones (`"tombstones"`, likewise); `from_json` reads that back and checks every
hash against the content it names. `to_flat_json` is the hash-free, labels-inline table the
benchmark feeds JSON and TOON (same information as `.0c`, no hashes).
"""

from __future__ import annotations

import json
from typing import Any

from zerolang.knowledge.backend import Declaration
from zerolang.knowledge.formats.model import Context, Snapshot
from zerolang.knowledge.formats.tombstones import from_json as tombstone_from_json
from zerolang.knowledge.hashing import verify_record
from zerolang.knowledge.temporal import SINGLE_VALUED
from zerolang.knowledge.types import (
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    RelationNode,
)
from zerolang.util.errors import ZeroError


def to_json(snapshot: Snapshot) -> dict[str, Any]:
    """`{"format": "0-memory", "concepts": [...], "contexts": [...], "relations": [...]}`, hashes as hex,
    and `"declarations": [{"at", "setting", "value", "declared"}, ...]` when the snapshot has any."""
    document: dict[str, Any] = {
        "format": "0-memory",
        "concepts": [c.to_json() for c in snapshot.concepts],
        "contexts": [
            {"hash": c.node.hash.hex(), **c.node.meta.to_json(), "created_at": c.created_at}
            for c in snapshot.contexts
        ],
        "relations": [r.to_json() for r in snapshot.relations],
    }
    if snapshot.declarations:
        document["declarations"] = [
            {"at": d.at, "setting": d.setting, "value": d.value, "declared": d.declared}
            for d in snapshot.declarations
        ]
    if snapshot.tombstones:
        document["tombstones"] = [t.to_json() for t in snapshot.tombstones]
    return document


def dumps(snapshot: Snapshot, *, pretty: bool = True) -> str:
    document = to_json(snapshot)
    if pretty:  # read by people too: a control character in a label is JSON-escaped, never raw
        from zerolang.util.escapes import json_text

        return json_text(document) + "\n"
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def from_json(document: Any, name: str = "<json>") -> Snapshot:
    """The snapshot `to_json` wrote; ZeroError naming the first field or hash that is wrong."""
    try:
        snapshot = _read(document)
        for record in snapshot.to_records():
            verify_record(record)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ZeroError(f"{name}: not a 0-memory JSON export: {error}") from None
    return snapshot


def loads(text: str, name: str = "<json>") -> Snapshot:
    from zerolang.util.files import parse_json

    return from_json(parse_json(text, name), name)


def _read(document: Any) -> Snapshot:
    if not isinstance(document, dict) or document.get("format") != "0-memory":
        raise ValueError('expected an object with "format": "0-memory"')
    concepts = tuple(ConceptNode.from_json(c) for c in document["concepts"])
    contexts = tuple(_context(c) for c in document["contexts"])
    relations = tuple(RelationNode.from_json(r) for r in document["relations"])
    declarations = tuple(_declaration(d) for d in document.get("declarations", []))
    tombstones = tuple(tombstone_from_json(t) for t in document.get("tombstones", []))
    return Snapshot(concepts, contexts, relations, declarations, tombstones)


def _declaration(data: dict[str, Any]) -> Declaration:
    row = Declaration(data["at"], data["setting"], data["value"], data["declared"])
    if not all(isinstance(text, str) and text for text in (row.at, row.setting, row.value)):
        raise ValueError(f"a declaration's at, setting and value are non-empty strings: {data!r}")
    if not isinstance(row.declared, bool):
        raise ValueError(f"a declaration's declared is true or false: {data!r}")
    if row.setting != SINGLE_VALUED:
        raise ValueError(f"unknown setting {row.setting!r} (this reader knows {SINGLE_VALUED!r})")
    return row


def _context(data: dict[str, Any]) -> Context:
    fields = {key: value for key, value in data.items() if key not in ("hash", "created_at")}
    node = ContextNode(ContextHash.from_hex(data["hash"]), ContextMeta.from_json(fields))
    return Context(node, data.get("created_at"))


def to_flat_json(snapshot: Snapshot) -> dict[str, list[dict[str, Any]]]:
    """The same information without hashes, labels inline: uniform rows (what TOON tabulates best)."""
    labels = {c.hash: c.label for c in snapshot.concepts}
    index = {c.node.hash: number for number, c in enumerate(snapshot.contexts)}
    return {
        "concepts": [
            {
                "label": c.label,
                "aliases": "|".join(c.aliases),
                "confidence": c.confidence,
                "created_at": c.created_at,
                "updated_at": c.updated_at,
            }
            for c in snapshot.concepts
        ],
        "contexts": [
            {
                "event_time": c.node.meta.event_time,
                "source": c.node.meta.source,
                "scope": c.node.meta.scope,
                "agent_id": c.node.meta.agent_id or "",
                "session_id": c.node.meta.session_id or "",
                "created_at": c.created_at or "",
            }
            for c in snapshot.contexts
        ],
        "relations": [
            {
                "subject": labels[r.subject_hash],
                "predicate": r.predicate,
                "object": labels[r.object_hash],
                "confidence": r.confidence,
                "context": index[r.context_hash],
                "created_at": r.created_at,
            }
            for r in snapshot.relations
        ],
    }
