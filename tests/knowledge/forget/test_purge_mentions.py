"""A purge erases every mention of its label in the memory, and keeps it out: ingest, import, bundles.

Both backends (`open_store`). Mentions are words (`zerolang.knowledge.terms`): a possessive, a
hyphenated label, another case or script all mention; a longer word that merely contains the
label does not.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zerolang.knowledge.forget import Selector, forget, purge, restore
from zerolang.knowledge.formats.bundle import make, receive
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.knowledge.terms import Forgotten, term_key
from zerolang.memory import MemoryStore
from zerolang.runtime.signing import Ed25519Signer

from .conftest import inputs

AT = "2026-03-01T00:00:00.000Z"
SIGNER = Ed25519Signer.generate()
TUPLES = [
    ("zelda", "works_at", "acme", 0.9),
    ("bob", "met", "zelda's cat", 0.8),
    ("bob", "likes", "tea", 0.7),
    ("ann", "reads", "long-term-memory", 0.6),
]


def load(store: MemoryStore, tuples: list[tuple[str, str, str, float]], scope: str = "s1") -> int:
    return ingest(store, parse_inputs(inputs(("2026-02-01T00:00:00Z", "x", scope, tuples))), now=AT).forgotten


def labels(store: MemoryStore) -> set[str]:
    return {node.label for node in store.backend.scan_concepts()}


def test_what_mentions_a_purged_label_goes_and_stays_out(open_store) -> None:  # type: ignore[no-untyped-def]
    store = open_store()
    load(store, TUPLES)
    forget(store, Selector("concept", "Zelda"), at=AT, purge=True)
    assert labels(store) == {"bob", "tea", "ann", "long-term-memory"}
    assert load(store, [("zelda", "works_at", "acme", 0.9)]) == 1
    assert load(store, [("carol", "knows", "ZELDA's brother", 0.5), ("carol", "likes", "jam", 0.5)]) == 1
    assert load(store, [("dan", "plays", "zeldas", 0.5)]) == 0  # another word
    assert "carol" in labels(store) and "zelda's brother" not in labels(store)


def test_a_plain_forget_hides_what_a_purge_erases(open_store) -> None:  # type: ignore[no-untyped-def]
    store = open_store()
    load(store, TUPLES)
    report = forget(store, Selector("concept", "zelda"), at=AT)
    assert "zelda's cat" not in labels(store)  # a forget takes what a purge would, but only hides it
    restore(store, report.tombstone, at="2026-03-02T00:00:00.000Z")
    assert "zelda's cat" in labels(store)
    report = forget(store, Selector("concept", "zelda"), at="2026-03-03T00:00:00.000Z")
    purge(store, report.tombstone, at="2026-03-04T00:00:00.000Z")
    assert "zelda's cat" not in labels(store)
    assert load(store, [("bob", "met", "zelda's cat", 0.8)]) == 1


def test_a_received_purge_erases_the_receivers_mentions(open_store, space: str) -> None:  # type: ignore[no-untyped-def]
    sender, receiver = open_store(), open_store(space + "-r")
    load(sender, TUPLES)
    load(receiver, [("eve", "met", "zelda's cat", 0.5), ("eve", "likes", "tea", 0.5)], scope="r1")
    forget(sender, Selector("concept", "zelda"), at=AT, purge=True)
    receive(receiver, make(sender, SIGNER), [SIGNER.public_key_bytes])
    assert "zelda's cat" not in labels(receiver) and "eve" in labels(receiver)
    assert load(receiver, [("eve", "met", "zelda", 0.5)]) == 1


@given(st.text(min_size=1, max_size=12), st.text(max_size=12), st.text(max_size=12))
def test_a_term_is_mentioned_wherever_its_words_are(term: str, before: str, after: str) -> None:
    if term_key(term) is None:
        return
    forgotten = Forgotten.terms([term])
    assert forgotten.mentions(f"{before} {term.upper()} {after}") or term.upper().lower() != term.lower()
    assert forgotten.mentions(f"{before}\n{term}'s {after}")
