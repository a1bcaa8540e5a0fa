"""Memory documents: the archive's immutable, full-fidelity records, and their hashes.

A document is a JSON object with exactly these members (seed 004):

    hash_algo      "sha256" (the only algorithm so far)
    hash           64 lower-case hex digits: SHA-256 of the canonical bytes below
    created_at     RFC 3339 time in UTC ending in "Z", e.g. "2026-11-24T01:57:15Z"
    source         object; "channel" (non-empty string) is required, "session" optional,
                   any other members are kept as given
    messages       array of objects, each with "role" (non-empty string) and "content" (string),
                   other members kept as given
    attachments    array of objects, each with "name" and "media_type" (strings), other members kept
    tags           array of strings; stored sorted and without repeats
    consent_scope  the name of the consent scope the document was archived under (see policy.py)

**Canonical bytes** are the RFC 8785 canonical JSON (`canonical.py`) of the document
*without* its `hash` member. `hash` is SHA-256 over exactly those bytes, computed before any
compression, and the archive stores exactly those bytes: a stored copy verifies by hashing
what is on disk. Unknown members, duplicate keys, NaN and integers a double cannot hold are refused.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from zerolang.archive.canonical import CanonicalError, canonical_bytes, loads_strict
from zerolang.util.errors import ZeroError

HASH_ALGO = "sha256"
HASH_PREFIX = "sha256:"
MEMBERS = ("hash_algo", "hash", "created_at", "source", "messages", "attachments", "tags", "consent_scope")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z")


class DocumentError(ZeroError):
    """A memory document that is malformed: a missing or wrong member, or a hash that does not match."""


class HashFormatError(ZeroError):
    """Text that is not a full SHA-256 document hash (a prefix, a path, a different algorithm...)."""


def parse_hash(text: object) -> str:
    """The 64-hex-digit hash in `text` ("<hex>" or "sha256:<hex>", any case), or HashFormatError.

    Nothing else passes: not a prefix, not a path, not another algorithm. The result is safe to
    use as a file name because it is exactly 64 characters of [0-9a-f].
    """
    if not isinstance(text, str):
        raise HashFormatError(f"a document hash must be a string, not {type(text).__name__}")
    candidate = text.strip()
    if candidate.lower().startswith(HASH_PREFIX):
        candidate = candidate[len(HASH_PREFIX) :]
    candidate = candidate.lower()
    if not _HEX64.fullmatch(candidate):
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise HashFormatError(
            f"not a document hash: {shown!r} (expected 64 hex digits of SHA-256, optionally after 'sha256:')"
        )
    return candidate


def utc_now() -> str:
    """The current time as the archive writes it: RFC 3339, UTC, whole milliseconds."""
    moment = datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_time(text: object, what: str) -> datetime:
    """An RFC 3339 UTC time (`...Z`) as an aware datetime, or DocumentError naming `what`."""
    if not isinstance(text, str) or not _TIME.fullmatch(text):
        raise DocumentError(f'{what} must be an RFC 3339 UTC time like "2026-11-24T01:57:15Z", not {text!r}')
    whole, _, fraction = text[:-1].partition(".")
    try:
        moment = datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        raise DocumentError(f"{what} is not a real time: {text!r}") from None
    return moment.replace(microsecond=int((fraction + "000000")[:6])) if fraction else moment


@dataclass(frozen=True, slots=True, eq=True)
class MemoryDocument:
    """One immutable memory document. Build it with `make_document` or `document_from_json`."""

    created_at: str
    source: dict[str, Any]
    messages: tuple[dict[str, Any], ...]
    attachments: tuple[dict[str, Any], ...] = ()
    tags: tuple[str, ...] = ()
    consent_scope: str = "default"
    hash_algo: str = HASH_ALGO
    _canonical: bytes = field(default=b"", repr=False, compare=False)

    @property
    def channel(self) -> str:
        return str(self.source["channel"])

    @property
    def session(self) -> str | None:
        session = self.source.get("session")
        return session if isinstance(session, str) else None

    def body(self) -> dict[str, Any]:
        """The document as JSON without `hash`: what the canonical bytes encode."""
        return {
            "hash_algo": self.hash_algo,
            "created_at": self.created_at,
            "source": self.source,
            "messages": list(self.messages),
            "attachments": list(self.attachments),
            "tags": list(self.tags),
            "consent_scope": self.consent_scope,
        }

    def canonical(self) -> bytes:
        """The canonical bytes: what is hashed and what the archive stores."""
        return self._canonical or canonical_bytes(self.body())

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.canonical()).hexdigest()

    def to_json(self) -> dict[str, Any]:
        """The whole document, `hash` included, as a JSON object."""
        return {"hash": self.hash, **self.body()}


def make_document(
    messages: list[dict[str, Any]] | tuple[dict[str, Any], ...],
    *,
    channel: str,
    consent_scope: str,
    session: str | None = None,
    created_at: str | None = None,
    tags: tuple[str, ...] | list[str] = (),
    attachments: tuple[dict[str, Any], ...] | list[dict[str, Any]] = (),
    source_extra: dict[str, Any] | None = None,
) -> MemoryDocument:
    """A validated document from its parts (`created_at` defaults to now)."""
    source: dict[str, Any] = {**(source_extra or {}), "channel": channel}
    if session is not None:
        source["session"] = session
    return document_from_json(
        {
            "created_at": created_at or utc_now(),
            "source": source,
            "messages": list(messages),
            "attachments": list(attachments),
            "tags": list(tags),
            "consent_scope": consent_scope,
        }
    )


def document_from_json(
    value: object, *, what: str = "document", created_at: str | None = None
) -> MemoryDocument:
    """Validate a JSON object as a memory document; a present `hash` must match the canonical bytes.

    `created_at` fills a missing `created_at` (the CLI passes the current time).
    """
    if not isinstance(value, dict):
        raise DocumentError(f"{what}: a memory document is a JSON object, not {_kind(value)}")
    unknown = sorted(set(value) - set(MEMBERS))
    if unknown:
        raise DocumentError(f"{what}: unknown member {unknown[0]!r} (members: {', '.join(MEMBERS)})")
    algo = value.get("hash_algo", HASH_ALGO)
    if algo != HASH_ALGO:
        raise DocumentError(f'{what}: hash_algo must be "{HASH_ALGO}", not {algo!r}')
    stamp = value.get("created_at", created_at)
    if stamp is None:
        raise DocumentError(f"{what}: created_at is missing")
    parse_time(stamp, f"{what}: created_at")
    source = value.get("source")
    if not isinstance(source, dict):
        raise DocumentError(f'{what}: source must be an object with a "channel", not {_kind(source)}')
    _text(source.get("channel"), f"{what}: source.channel", empty=False)
    if "session" in source:
        _text(source["session"], f"{what}: source.session", empty=False)
    messages = _objects(value.get("messages", []), f"{what}: messages", {"role": False, "content": True})
    attachments = _objects(
        value.get("attachments", []), f"{what}: attachments", {"name": False, "media_type": False}
    )
    if not messages and not attachments:
        raise DocumentError(f"{what}: a document needs at least one message or attachment")
    tags = value.get("tags", [])
    if not isinstance(tags, list):
        raise DocumentError(f"{what}: tags must be an array of strings, not {_kind(tags)}")
    for index, tag in enumerate(tags):
        _text(tag, f"{what}: tags[{index}]", empty=False)
    scope = _text(value.get("consent_scope"), f"{what}: consent_scope", empty=False)
    document = MemoryDocument(
        created_at=stamp,
        source=source,
        messages=tuple(messages),
        attachments=tuple(attachments),
        tags=tuple(sorted(set(tags))),
        consent_scope=scope,
    )
    try:
        canonical = canonical_bytes(document.body())
    except CanonicalError as error:
        raise DocumentError(f"{what}: {error.message}") from None
    document = MemoryDocument(
        created_at=document.created_at,
        source=document.source,
        messages=document.messages,
        attachments=document.attachments,
        tags=document.tags,
        consent_scope=document.consent_scope,
        _canonical=canonical,
    )
    if "hash" in value:
        claimed = value["hash"]
        try:
            claimed = parse_hash(claimed)
        except HashFormatError as error:
            raise DocumentError(f"{what}: hash: {error.message}") from None
        if claimed != document.hash:
            raise DocumentError(
                f"{what}: the hash member says {claimed} but the canonical bytes hash to {document.hash}"
            )
    return document


def document_from_canonical(data: bytes, expected_hash: str) -> MemoryDocument:
    """The document stored as `data`, which must hash to `expected_hash` and be canonical."""
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise DocumentError(f"document {expected_hash}: corrupt: its bytes hash to {actual}")
    try:
        document = document_from_json(loads_strict(data, f"document {expected_hash}"))
    except ZeroError as error:
        raise DocumentError(f"document {expected_hash}: corrupt: {error.message}") from None
    if document.canonical() != data:
        raise DocumentError(f"document {expected_hash}: corrupt: the stored bytes are not canonical")
    return document


def _text(value: object, what: str, *, empty: bool) -> str:
    if not isinstance(value, str) or (not empty and not value):
        wanted = "a string" if empty else "a non-empty string"
        raise DocumentError(f"{what} must be {wanted}, not {_kind(value)}")
    return value


def _objects(value: object, what: str, required: dict[str, bool]) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise DocumentError(f"{what} must be an array of objects, not {_kind(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise DocumentError(f"{what}[{index}] must be an object, not {_kind(item)}")
        for key, may_be_empty in required.items():
            _text(item.get(key), f"{what}[{index}].{key}", empty=may_be_empty)
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "an empty string" if not value else "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
