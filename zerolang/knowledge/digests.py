"""The digest a concept's identity is made of, without the memory's types: what `hashing.concept_hash`
wraps in a `ConceptHash`, and what experiences name concepts by (`zerolang.experience.concepts`)."""

from __future__ import annotations

import hashlib


def concept_digest(label: str) -> bytes:
    """sha256 of the (already normalised) label's UTF-8 bytes."""
    return hashlib.sha256(label.encode("utf-8")).digest()
