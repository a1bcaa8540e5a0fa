"""Signed bundles: a memory (or what it gained since a checkpoint) passed between agents.

A bundle is one JSON document:

    {"format": "0M-bundle/1", "space": ..., "base": CHECKPOINT|null, "checkpoint": CHECKPOINT,
     "content": ".0c text (an L2 export, or a delta on `base`)",
     "tombstones": [{"hash", "created_at", "keys": [[hex, kind], ...]}, ...],
     "key_id": ..., "public_key": HEX, "signature": HEX}

The signature is Ed25519 over `"0M-bundle\\n"` followed by the canonical JSON of
every other field (sorted keys, no spaces, UTF-8). Tombstones travel as hashes
only (never labels), so a purged forget can be passed on. Receiving checks, in
order: the shape, a signature present, the signer trusted, the signature
valid, the base (a delta applies only on the checkpoint it was made from);
then applies tombstones and content in one transaction. A full bundle merges
as a set union, so replicas exchanging full bundles in any order, with
duplicates, converge; a tombstone wins over a re-add.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from zerolang.knowledge.formats import checkpoint as checkpoints
from zerolang.knowledge.formats import delta as deltas
from zerolang.knowledge.formats.compact import parse
from zerolang.knowledge.formats.levels import Level, render
from zerolang.knowledge.formats.model import read_store, write_store
from zerolang.knowledge.formats.tombstones import apply_tombstones, from_json, read_tombstones
from zerolang.knowledge.store import MemoryStore
from zerolang.util.errors import ZeroError

FORMAT = "0M-bundle/1"
_DOMAIN = b"0M-bundle\n"
_FIELDS = ("base", "checkpoint", "content", "format", "key_id", "public_key", "space", "tombstones")


class BundleError(ZeroError):
    """A bundle refused; the store is left as it was."""


@dataclass(frozen=True, slots=True)
class Received:
    base: str | None
    checkpoint: str
    relations: int
    tombstones: int
    key_id: str

    def to_json(self) -> dict[str, object]:
        return {
            "base": self.base,
            "checkpoint": self.checkpoint,
            "relations": self.relations,
            "tombstones": self.tombstones,
            "key_id": self.key_id,
        }


def key_id(public_key: bytes) -> str:
    """A signer's short name: the first 16 hex digits of SHA-256 of the raw public key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def canonical(document: dict[str, object]) -> bytes:
    """The signed bytes: the domain line, then every field but the signature as canonical JSON."""
    body = {name: document[name] for name in _FIELDS if name in document}
    return _DOMAIN + json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def make(store: MemoryStore, signer: object, since: str | None = None) -> str:
    """The store's bundle (a delta when `since` is a checkpoint), signed by `signer` (Ed25519Signer)."""
    from zerolang.runtime.signing import Ed25519Signer

    assert isinstance(signer, Ed25519Signer)
    if not signer.can_sign:
        raise ZeroError(f"{signer.source}: a public key cannot sign; pass the private key (zero keygen)")
    with store.snapshot():  # the content, tombstones and checkpoint of one state
        if since is None:
            content, base = render(read_store(store), Level.L2), None
        else:
            base = checkpoints.parse_checkpoint(since)
            content = deltas.since(store, base).to_text()
        tombstones = _tombstones(store)
        checkpoint = checkpoints.of_store(store).hash
    public = signer.public_key_bytes
    document: dict[str, object] = {
        "format": FORMAT,
        "space": store.space,
        "base": base,
        "checkpoint": checkpoint,
        "content": content,
        "tombstones": tombstones,
        "key_id": key_id(public),
        "public_key": public.hex(),
    }
    document["signature"] = signer.sign(canonical(document)).hex()
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _tombstones(store: MemoryStore) -> list[dict[str, object]]:
    return [tombstone.to_json() for tombstone in read_tombstones(store.backend)]


@dataclass(frozen=True, slots=True)
class Checked:
    """A bundle whose shape, signer and signature were checked: all but its base, which needs the store."""

    document: dict[str, object]
    public_key: bytes
    signature: bytes


def receive(store: MemoryStore, text: str, trusted: Sequence[bytes], name: str = "<bundle>") -> Received:
    """Check the bundle and apply it in one transaction; BundleError (nothing changed) if refused."""
    return apply(store, check(text, trusted, name), name)


def check(text: str, trusted: Sequence[bytes], name: str = "<bundle>") -> Checked:
    """What receiving checks before it looks at a store: BundleError if refused (no store touched)."""
    document = _shape(text, name)
    signature, public = document.get("signature"), document.get("public_key")
    if not signature:
        raise BundleError(f"{name}: refused: the bundle is unsigned")
    assert isinstance(signature, str) and isinstance(public, str)
    try:
        public_key, signature_bytes = bytes.fromhex(public), bytes.fromhex(signature)
    except ValueError:
        raise BundleError(f"{name}: refused: the signature or key is not hex") from None
    if public_key not in trusted:
        raise BundleError(f"{name}: refused: signer {key_id(public_key)} is not trusted (--trust KEY.pem)")
    from zerolang.runtime.signing import ed25519_verify

    if not ed25519_verify(public_key, canonical(document), signature_bytes):
        raise BundleError(f"{name}: refused: the signature does not match (the bundle was altered)")
    return Checked(document, public_key, signature_bytes)


def apply(store: MemoryStore, bundle: Checked, name: str = "<bundle>") -> Received:
    """Apply a checked bundle in one transaction, if its base is the store's checkpoint; BundleError
    (nothing changed) if not."""
    document, public_key, signature_bytes = bundle.document, bundle.public_key, bundle.signature
    base = document["base"]
    content = document["content"]
    assert isinstance(content, str)
    if base is not None:
        assert isinstance(base, str)
        current = checkpoints.of_store(store).hash
        if current != base:
            raise BundleError(
                f"{name}: refused: a delta on checkpoint {base[:12]}, but the store is at {current[:12]}"
            )
    tombstones = document["tombstones"]
    assert isinstance(tombstones, list)
    with store.transaction():
        additions = deltas.parse_delta(content, name).additions if base is not None else parse(content, name)
        try:
            received = [from_json(tombstone) for tombstone in tombstones]
        except ValueError as error:
            raise BundleError(f"{name}: refused: {error}") from None
        applied, erased = apply_tombstones(store, received)
        write_store(store, additions)
        from zerolang.util.times import format_time, system_clock

        detail = f"from {key_id(public_key)}: {len(additions.relations)} relations, {applied} tombstones"
        store.backend.append_log(
            format_time(system_clock()), "receive", hashlib.sha256(signature_bytes).digest(), detail
        )
    if erased:
        store.backend.erase_freed()
    return Received(
        base if isinstance(base, str) else None,
        checkpoints.of_store(store).hash,
        len(additions.relations),
        applied,
        key_id(public_key),
    )


def _shape(text: str, name: str) -> dict[str, object]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BundleError(
            f"{name}:{error.lineno}:{error.colno}: refused: not a bundle ({error.msg})"
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BundleError(f'{name}: refused: not a bundle (no "format": "{FORMAT}")')
    for field, kinds in (
        ("content", (str,)),
        ("checkpoint", (str,)),
        ("base", (str, type(None))),
        ("tombstones", (list,)),
        ("public_key", (str, type(None))),
        ("signature", (str, type(None))),
        ("key_id", (str, type(None))),
    ):
        if field in ("public_key", "signature", "key_id") and field not in document:
            continue
        if not isinstance(document.get(field), kinds):
            raise BundleError(f"{name}: refused: not a bundle (field {field!r} is missing or malformed)")
    for tombstone in document["tombstones"]:
        if not _tombstone_ok(tombstone):
            raise BundleError(f"{name}: refused: a malformed tombstone")
    if document.get("signature") and not isinstance(document.get("public_key"), str):
        raise BundleError(f"{name}: refused: a signature without its public key")
    return document


def _tombstone_ok(value: object) -> bool:
    """A tombstone as the exchanged forms hold it (`zerolang.knowledge.formats.tombstones.from_json`)."""
    try:
        from_json(value)
    except ValueError:
        return False
    return True
