"""Content addresses: SHA-256 over canonical bytes, like the memory's facts.

Canonical bytes are the record as JSON with sorted keys, no insignificant
whitespace and UTF-8 text (`canonical_bytes`). An experience's address covers
everything that makes it that experience (session, turn, layer, who, when,
what, its place in the turn) and nothing computed from it (affect, concepts),
so a better extractor never changes an address.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from json.encoder import encode_basestring  # what `json.dumps` writes a string as (no ASCII escapes)

from zerolang.experience.model import Layer


def canonical_bytes(record: Mapping[str, object]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def address(record: Mapping[str, object]) -> str:
    """The hex SHA-256 of a record's canonical bytes."""
    return hashlib.sha256(canonical_bytes(record)).hexdigest()


def session_id(fmt: str, native: str) -> str:
    """A session's address from its format and its own id (or, lacking one, its first message)."""
    return address({"kind": "session", "format": fmt, "id": native})


def turn_id(session: str, key: str) -> str:
    """The address of `{"kind": "turn", "session": ..., "key": ...}`, its canonical bytes written out
    directly (keys in sorted order, as `experience_id` does)."""
    text = "".join(
        ('{"key":', encode_basestring(key), ',"kind":"turn","session":', encode_basestring(session), "}")
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def experience_id(
    *, session: str, turn: str, layer: Layer, who: str, what: str, when: str | None, ordinal: int
) -> str:
    """The address of `{"kind": "experience", "session": ..., "ordinal": ...}`: its canonical bytes
    written out directly, keys in sorted order (what `canonical_bytes` makes of that record, without
    sorting a dict for each of a capture's experiences)."""
    text = "".join(
        (
            '{"kind":"experience","layer":',
            encode_basestring(str(layer)),
            ',"ordinal":',
            str(int(ordinal)),
            ',"session":',
            encode_basestring(session),
            ',"turn":',
            encode_basestring(turn),
            ',"what":',
            encode_basestring(what),
            ',"when":',
            "null" if when is None else encode_basestring(when),
            ',"who":',
            encode_basestring(who),
            "}",
        )
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
