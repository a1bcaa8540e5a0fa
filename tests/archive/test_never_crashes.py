"""Whatever the input, the archive's parsers answer or raise a ZeroError: never another exception."""

from __future__ import annotations

import contextlib
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from zerolang.archive.canonical import loads_strict
from zerolang.archive.document import document_from_json, parse_hash
from zerolang.archive.policy import parse_policy
from zerolang.util.errors import ZeroError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)
members = st.sampled_from(
    ["hash_algo", "hash", "created_at", "source", "messages", "attachments", "tags", "consent_scope", "x"]
)
near_documents = st.dictionaries(members, json_values, max_size=8)


@settings(max_examples=150, deadline=None)
@given(json_values | near_documents)
def test_documents(value: object) -> None:
    try:
        document = document_from_json(value)
    except ZeroError:
        return
    assert len(document.hash) == 64


@settings(max_examples=150, deadline=None)
@given(st.text() | st.binary())
def test_json_text(text: str | bytes) -> None:
    with contextlib.suppress(ZeroError):
        loads_strict(text)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80) | st.from_regex(r"(sha256:)?[0-9a-fA-F]{60,68}", fullmatch=True))
def test_hashes(text: str) -> None:
    try:
        digest = parse_hash(text)
    except ZeroError:
        return
    assert re.fullmatch(r"[0-9a-f]{64}", digest)


policy_like = st.fixed_dictionaries(
    {"version": st.sampled_from([1, 2, "1"])},
    optional={
        "scopes": st.dictionaries(
            st.text(max_size=5),
            json_values | st.dictionaries(st.sampled_from(["uses", "channels", "revoked"]), json_values),
            max_size=3,
        ),
        "channels": st.dictionaries(
            st.text(max_size=5),
            json_values | st.dictionaries(st.sampled_from(["reads", "clearance"]), json_values),
            max_size=3,
        ),
    },
)


@settings(max_examples=150, deadline=None)
@given(json_values | policy_like)
def test_policies(value: object) -> None:
    with contextlib.suppress(ZeroError):
        parse_policy(value)
