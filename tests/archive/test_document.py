"""Memory documents: the format, its validation, and the hash over canonical bytes."""

from __future__ import annotations

import hashlib
import json

import pytest

from zerolang.archive import DocumentError, HashFormatError, document_from_json, parse_hash
from zerolang.archive.canonical import canonical_bytes

from .conftest import note

BASE = {
    "created_at": "2026-11-20T09:30:00Z",
    "source": {"channel": "dm:alice"},
    "messages": [{"role": "user", "content": "hi"}],
    "consent_scope": "personal",
}


def test_hash_is_sha256_of_the_canonical_body_without_hash() -> None:
    document = document_from_json(BASE)
    body = {**BASE, "hash_algo": "sha256", "attachments": [], "tags": []}
    assert document.canonical() == canonical_bytes(body)
    assert document.hash == hashlib.sha256(canonical_bytes(body)).hexdigest()


def test_member_order_spacing_and_tag_order_do_not_change_the_hash() -> None:
    one = document_from_json({**BASE, "tags": ["b", "a", "b"]})
    reordered = json.loads(json.dumps({**dict(reversed(list(BASE.items()))), "tags": ["a", "b"]}, indent=3))
    assert document_from_json(reordered).hash == one.hash
    assert one.tags == ("a", "b")


def test_a_given_hash_must_match() -> None:
    good = document_from_json(BASE)
    assert document_from_json({**BASE, "hash": f"sha256:{good.hash.upper()}"}) == good
    with pytest.raises(DocumentError, match=r"the hash member says 0{64} but the canonical bytes hash to"):
        document_from_json({**BASE, "hash": "0" * 64})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"extra": 1}, "unknown member 'extra'"),
        ({"hash_algo": "md5"}, 'hash_algo must be "sha256"'),
        ({"created_at": "yesterday"}, "created_at must be an RFC 3339 UTC time"),
        ({"created_at": "2026-02-30T00:00:00Z"}, "not a real time"),
        ({"source": {"session": "x"}}, "source.channel must be a non-empty string"),
        ({"source": "dm"}, "source must be an object"),
        ({"messages": [{"role": "user"}]}, r"messages\[0\].content must be a string"),
        ({"messages": [{"role": "", "content": "x"}]}, r"messages\[0\].role must be a non-empty string"),
        ({"messages": "hi"}, "messages must be an array of objects"),
        ({"messages": []}, "at least one message or attachment"),
        ({"attachments": [{"name": "a.png"}]}, r"attachments\[0\].media_type"),
        ({"tags": ["ok", 3]}, r"tags\[1\] must be a non-empty string"),
        ({"consent_scope": ""}, "consent_scope must be a non-empty string"),
        ({"messages": [{"role": "user", "content": "x", "n": float("nan")}]}, "no JSON form"),
    ],
)
def test_malformed_documents_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        document_from_json({**BASE, **change})


def test_missing_created_at_takes_the_given_default() -> None:
    value = {key: item for key, item in BASE.items() if key != "created_at"}
    with pytest.raises(DocumentError, match="created_at is missing"):
        document_from_json(value)
    assert (
        document_from_json(value, created_at="2026-01-01T00:00:00.5Z").created_at == "2026-01-01T00:00:00.5Z"
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "../../etc/passwd",
        "abc",
        "a" * 63,
        "a" * 65,
        "g" * 64,
        "sha1:" + "a" * 64,
        "a" * 32 + "/" + "a" * 31,
        None,
        7,
    ],
)
def test_only_full_sha256_hashes_parse(text: object) -> None:
    with pytest.raises(HashFormatError, match="hash"):
        parse_hash(text)


def test_hash_forms_that_parse() -> None:
    digest = note("x").hash
    assert (
        parse_hash(digest.upper()) == parse_hash(f"sha256:{digest}") == parse_hash(f" {digest}\n") == digest
    )
