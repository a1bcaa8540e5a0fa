"""Concepts listed by label (what `zero explore`'s space page pages through): the same order, the
same filter and the same counts on every engine, a page starting after the last row of the one
before, other spaces never seen."""

from __future__ import annotations

from collections.abc import Callable

from tests.storage.contract.helpers import make_input
from zerolang.memory import MemoryStore, ingest

OBJECTS = ["Zebra", "apple", "Äpfel", "100% juice", "snake_case", "back\\slash", "日本", "<b>bold</b>", "a-b"]


def fill(store: MemoryStore) -> None:
    ingest(store, [make_input(*((name, "is", "thing", 0.9) for name in OBJECTS))])


def listed(store: MemoryStore, containing: str, size: int) -> list[tuple[bytes, str]]:
    backend, rows, after = store.backend, [], None
    while True:
        page = backend.concepts_by_label(containing, after, size)
        if not page:
            return rows
        assert len(page) <= size
        rows += page
        after = (page[-1][1], page[-1][0])
        assert backend.count_by_label(containing, after) == len(rows)  # where the next page starts


def test_concepts_by_label_in_code_point_order_filtered_and_counted(
    store: MemoryStore, open_store: Callable[..., MemoryStore]
) -> None:
    fill(store)
    ingest(open_store("elsewhere-labels"), [make_input(("other", "is", "apple pie", 0.9))])
    backend = store.backend
    everything = backend.concepts_by_label("", None, 100)
    labels = [label for _, label in everything]
    hashes = backend.labels(backend.concept_hashes())
    assert sorted(labels) == labels and sorted(hashes.values()) == labels  # code points; this space only
    assert {key: label for key, label in everything} == hashes
    assert backend.count_by_label("") == len(everything)
    for size in (1, 2, 3, 100):
        assert listed(store, "", size) == everything
    for asked, wanted in (
        ("APPLE", ["apple"]),
        ("%", ["100% juice"]),
        ("_", []),  # `_` is a separator labels normalise to `-`, and in LIKE it matches any character
        ("-", ["a-b", "snake-case"]),
        ("ÄP", ["äpfel"]),
        ("\\", ["back\\slash"]),
        ("本", ["日本"]),
        ("<b>", ["<b>bold</b>"]),
        ("a", [label for label in labels if "a" in label]),
        ("", labels),
        ("nothing like it", []),
    ):
        found = listed(store, asked, 2)
        assert [label for _, label in found] == wanted, asked
        assert backend.count_by_label(asked) == len(wanted), asked
