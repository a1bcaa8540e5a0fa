"""Issue 40, point 3: exports carry tombstones, and an import keeps forgetting (both engines, both formats).

A purge in the source, an export, an import into another space: re-ingesting the source there
brings nothing forgotten back, a second forget names the tombstone, and the copy's own export
carries the same tombstone lines.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.storage.contract.helpers import make_input
from zerolang.knowledge.forget import Selector, forget
from zerolang.knowledge.formats.exchange import Format, export, import_text
from zerolang.knowledge.formats.tombstones import Tombstone, from_json, from_line, read_tombstones
from zerolang.knowledge.store import MemoryStore
from zerolang.memory import ingest
from zerolang.util.errors import ZeroError

SOURCE = [
    make_input(("bob", "works_at", "globex", 0.9), ("bob", "likes", "chess", 0.8)),
    make_input(("mo", "likes", "globex coffee", 0.7), event_time="2026-02-19T00:00:00Z"),
]
AT = "2026-03-01T00:00:00.000Z"


def facts(store: MemoryStore) -> set[str]:
    from zerolang.knowledge.query.executor import run_query
    from zerolang.knowledge.query.parser import parse_query

    rows = run_query(store, parse_query("match (?s ?p ?o)")).rows
    return {" ".join(str(row["bindings"][k]) for k in ("s", "p", "o")) for row in rows}


@pytest.mark.parametrize("form", [Format.COMPACT, Format.JSON])
def test_an_imported_copy_keeps_forgetting(
    open_store: Callable[..., MemoryStore], space: str, form: Format
) -> None:
    source = open_store()
    ingest(source, SOURCE)
    report = forget(source, Selector("concept", "globex"), at=AT, purge=True)
    text = export(source, form)
    tombstones = read_tombstones(source.backend)
    assert [t.hash.hex() for t in tombstones] == [report.tombstone]
    assert report.tombstone in text and "globex" not in text.lower()

    copy = open_store(f"{space}-copy")
    name = "copy.0c" if form is Format.COMPACT else "copy.json"
    import_text(copy, text, name)
    assert read_tombstones(copy.backend) == tombstones
    kept = facts(copy)
    ingest(copy, SOURCE)  # the source again: what was forgotten stays out
    assert facts(copy) == kept == facts(source)
    assert not any("globex" in fact for fact in kept)
    with pytest.raises(ZeroError, match=f"forgotten already, tombstone {report.tombstone}"):
        forget(copy, Selector("concept", "Globex"), at=AT, purge=True)
    assert export(copy, form).count(report.tombstone) == 1


def test_a_second_forget_names_the_tombstone(store: MemoryStore) -> None:
    ingest(store, SOURCE)
    first = forget(store, Selector("concept", "chess"), at=AT)
    with pytest.raises(ZeroError, match=f"tombstone {first.tombstone} \\(forgotten {AT}"):
        forget(store, Selector("concept", "Chess"), at=AT)
    with pytest.raises(ZeroError) as caught:
        forget(store, Selector("concept", "nobody"), at=AT)
    assert "forgotten already" not in str(caught.value)


HEX = st.binary(min_size=32, max_size=32)
KIND = st.sampled_from(["concept", "fact", "episode", "term:1", "term:3"])


@given(HEX, st.lists(st.tuples(HEX, KIND), min_size=1, max_size=6, unique=True))
def test_a_tombstone_reads_back_from_each_form(hash_: bytes, keys: list[tuple[bytes, str]]) -> None:
    tombstone = Tombstone(hash_, AT, tuple(sorted(keys)))
    assert from_json(tombstone.to_json()) == tombstone
    line = tombstone.line()
    value, at = line.removeprefix("!forgotten ").split(" @")
    assert from_line(value, at) == tombstone


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("!forgotten abc=concept:" + "0" * 64 + " @" + AT, "64 lowercase hex"),
        ("!forgotten " + "a" * 64 + " @" + AT, "HASH=KIND:KEY"),
        ("!forgotten " + "a" * 64 + "=concept:xyz @" + AT, "blocked key is 64"),
        ("!forgotten " + "a" * 64 + "=Concept:" + "0" * 64 + " @" + AT, "not a kind of blocked key"),
        ("!forgotten " + "a" * 64 + "=concept:" + "0" * 64 + " @hello", "not an ISO 8601 time"),
    ],
)
def test_a_bad_tombstone_line_is_a_located_error(line: str, message: str) -> None:
    from zerolang.knowledge.formats.compact import CompactError, parse

    with pytest.raises(CompactError) as caught:
        parse(f"0M:1.0\n{line}\nbob\nX:2026-01-01 s c\n@{AT}\n1 knows1\n", "t.0c")
    assert str(caught.value).startswith("t.0c:2:"), str(caught.value)
    assert message in str(caught.value)
