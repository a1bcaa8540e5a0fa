"""Exact scope (issue 40): forgetting a label takes the facts a forgotten term takes part in, and
redacts the records that only name it; nothing else goes. Both engines (`location`).

The property builds random stores of records whose contexts (scope, metadata) may name the labels,
forgets or purges one label, and compares the store with a reference model: the survivors are
exactly the facts whose subject, predicate and object do not mention the label, with their
confidence, observations and times; `check` passes; the preview said what the act did; a purge
leaves no byte of the label (the SQLite file and WAL, the PostgreSQL rows of the space); a plain
forget is undone by restore.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolang import storage
from zerolang.knowledge.check import find_problems
from zerolang.knowledge.forget import Selector, forget, restore
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.knowledge.terms import REDACTED, Forgotten
from zerolang.memory import MemoryStore

AT = "2026-03-01T00:00:00.000Z"
PURGEABLE = ["Zelda Quux", "Mobius", "Acmecorp", "Wintermute"]
OTHERS = ["chess", "tea", "Zelda Quux's cat", "bob", "ZELDA-QUUX", "mobius strip"]
PREDICATES = ["likes", "knows", "met with Wintermute"]

TUPLE = st.tuples(
    st.sampled_from(PURGEABLE + OTHERS),
    st.sampled_from(PREDICATES),
    st.sampled_from(PURGEABLE + OTHERS),
    st.sampled_from([0.5, 0.7, 0.9]),
)
RECORD = st.tuples(
    st.sampled_from(["2026-02-01T00:00:00Z", "2026-02-02T00:00:00Z"]),
    st.sampled_from(["chat", "mail from Mobius"]),
    st.sampled_from(["talk", "talk with Zelda Quux", "Acmecorp meeting", "zelda_quux's notes"]),
    st.sampled_from(["", "Wintermute said so", "seen by Zelda Quux and bob"]),
    st.lists(TUPLE, min_size=1, max_size=3),
)


def _text(records: list[tuple[str, str, str, str, list[tuple[str, str, str, float]]]]) -> str:
    return json.dumps(
        [
            {
                "tuples": [
                    {"subject": s, "predicate": p, "object": o, "confidence": c} for s, p, o, c in tuples
                ],
                "context": {
                    "event_time": when,
                    "source": source,
                    "scope": scope,
                    **({"metadata": {"note": note}} if note else {}),
                },
            }
            for when, source, scope, note, tuples in records
        ]
    )


def facts(store: MemoryStore) -> dict[tuple[str, str, str], tuple[float, int, str, str]]:
    """Every fact as (subject, predicate, object) -> (confidence, observations, created, updated)."""
    rows = store.backend.find_facts(_any())
    labels = store.backend.labels(
        sorted({f.subject_hash.digest for f in rows} | {f.object_hash.digest for f in rows})
    )
    return {
        (labels[f.subject_hash.digest], f.predicate, labels[f.object_hash.digest]): (
            f.confidence,
            f.observations,
            f.created_at,
            f.updated_at,
        )
        for f in rows
    }


def _any():  # type: ignore[no-untyped-def]
    from zerolang.knowledge.backend import FactFilter

    return FactFilter()


def _reference(
    before: dict[tuple[str, str, str], tuple[float, int, str, str]], label: str
) -> dict[tuple[str, str, str], tuple[float, int, str, str]]:
    """The model: a fact survives when none of its subject, predicate and object mentions the label."""
    forgotten = Forgotten.terms([label])
    return {key: value for key, value in before.items() if not forgotten.mentions(*key)}


def _rows_text(location: str, space: str) -> bytes:
    """What holds the space's content: the SQLite file and WAL, or the PostgreSQL rows of the space."""
    if not location.startswith("postgresql"):
        return b"".join(p.read_bytes() for p in Path(location).parent.glob(Path(location).name + "*"))
    import psycopg

    with psycopg.connect(location) as connection:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT table_name FROM information_schema.columns WHERE column_name = 'space'"
                " AND table_schema = current_schema()"
            )
        ]
        found = [
            str(row[0])
            for table in tables
            for row in connection.execute(f"SELECT t::text FROM {table} t WHERE space = %s", [space])
        ]
    return "\n".join(found).encode()


def _fresh(location: str) -> tuple[str, str]:
    if location.startswith("postgresql"):
        return location, f"t-{secrets.token_hex(6)}"
    return str(Path(tempfile.mkdtemp()) / "memory.db"), "default"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    records=st.lists(RECORD, min_size=1, max_size=5), label=st.sampled_from(PURGEABLE), purge=st.booleans()
)
def test_forgetting_a_label_leaves_exactly_the_models_survivors(location: str, records, label, purge) -> None:  # type: ignore[no-untyped-def]
    where, space = _fresh(location)
    store = storage.open_store(where, space=space)
    try:
        ingest(store, parse_inputs(_text(records)), now="2026-02-10T00:00:00.000Z")
        before = facts(store)
        if label.lower() not in {end for s, _, o in before for end in (s, o)}:
            return  # no concept by that label: nothing to forget by it
        preview = forget(store, Selector("concept", label), at=AT, purge=purge, dry_run=True)
        assert facts(store) == before  # a preview writes nothing
        report = forget(store, Selector("concept", label), at=AT, purge=purge)
        assert (report.removed, report.redacted, report.labels) == (
            preview.removed,
            preview.redacted,
            preview.labels,
        )
        assert facts(store) == _reference(before, label)
        assert find_problems(store.backend) == []
        forgotten = Forgotten.terms([label])
        for node, _ in store.backend.scan_contexts():
            assert not forgotten.mentions_any(node.meta.to_json())
        if purge:
            if not where.startswith("postgresql"):
                store.close()
                store = storage.open_store(where, space=space)  # closed: the WAL checkpointed
            text = _rows_text(where, space).lower()
            for word in label.lower().split():
                assert word.encode() not in text
        else:
            restore(store, report.tombstone, at="2026-03-02T00:00:00.000Z")
            assert facts(store) == before
            assert find_problems(store.backend) == []
    finally:
        store.close()


def test_a_record_that_names_the_label_keeps_its_other_facts(open_store) -> None:  # type: ignore[no-untyped-def]
    """The issue's case: `mo likes chess` was lost because its record's context named Zelda."""
    store = open_store()
    record = (
        "2026-02-08T02:30:00Z",
        "chat",
        "talk with Zelda Quux",
        "Zelda Quux said hi",
        [
            ("Zelda Quux", "knows", "Mo", 0.9),
            ("Mo", "likes", "chess", 0.8),
        ],
    )
    ingest(store, parse_inputs(_text([record])), now="2026-02-10T00:00:00.000Z")
    kept = facts(store)[("mo", "likes", "chess")]
    report = forget(store, Selector("concept", "Zelda Quux"), at=AT, purge=True)
    assert facts(store) == {("mo", "likes", "chess"): kept}  # its times, confidence, observations
    assert report.redacted == 1 and report.labels == ("zelda quux",)
    ((node, _),) = list(store.backend.scan_contexts())
    assert (node.meta.scope, dict(node.meta.metadata)) == (
        f"talk with {REDACTED}",
        {"note": f"{REDACTED} said hi"},
    )
    (episode,) = list(store.backend.scan_episodes())
    assert (episode.context_hash, episode.confidence, episode.created_at) == (
        node.hash.digest,
        0.8,
        "2026-02-10T00:00:00.000Z",
    )
    log = [(entry.kind, entry.detail) for entry in store.backend.log_entries()]
    assert ("redact", "1 contexts: mentions removed, 1 episodes re-derived") in log
    assert find_problems(store.backend) == []


def test_sqlite_file_keeps_no_byte_after_a_purge(tmp_path: Path) -> None:
    location = str(tmp_path / "memory.db")
    store = storage.open_store(location)
    record = ("2026-02-08T02:30:00Z", "chat", "talk with Zelda Quux", "", [("Mo", "likes", "chess", 0.8)])
    ingest(store, parse_inputs(_text([record, (*record[:2], "x", "", [("Zelda Quux", "knows", "Mo", 0.9)])])))
    forget(store, Selector("concept", "Zelda Quux"), at=AT, purge=True)
    store.close()
    data = b"".join(p.read_bytes() for p in tmp_path.glob("memory.db*")).lower()
    assert b"zelda" not in data and b"quux" not in data
    with sqlite3.connect(location) as connection:
        assert connection.execute("SELECT scope FROM contexts ORDER BY scope").fetchall() == [
            (f"talk with {REDACTED}",)
        ]  # x held only Zelda's fact


def test_a_redacted_context_that_meets_a_stored_one_merges_and_restore_splits_it(open_store) -> None:  # type: ignore[no-untyped-def]
    """`talk with Zelda Quux` redacts to `talk with […]`, which is stored already with the same fact:
    the stored episode absorbs the moved one, the fact is folded again; restore puts both back."""
    store = open_store()
    named = (
        "2026-02-08T02:30:00Z",
        "chat",
        "talk with Zelda Quux",
        "",
        [
            ("Zelda Quux", "knows", "Mo", 0.9),
            ("Mo", "likes", "chess", 0.8),
            ("Mo", "likes", "tea", 0.5),
        ],
    )
    plain = ("2026-02-08T02:30:00Z", "chat", f"talk with {REDACTED}", "", [("Mo", "likes", "chess", 0.6)])
    ingest(store, parse_inputs(_text([named, plain])), now="2026-02-10T00:00:00.000Z")
    before = facts(store)
    assert before[("mo", "likes", "chess")][1] == 2
    report = forget(store, Selector("concept", "Zelda Quux"), at=AT)
    after = facts(store)
    assert set(after) == {("mo", "likes", "chess"), ("mo", "likes", "tea")}
    assert after[("mo", "likes", "chess")][:2] == (0.6, 1)  # the stored episode absorbed the moved one
    assert after[("mo", "likes", "tea")] == before[("mo", "likes", "tea")]
    assert len(list(store.backend.scan_contexts())) == 1
    assert find_problems(store.backend) == []
    restore(store, report.tombstone, at="2026-03-02T00:00:00.000Z")
    assert facts(store) == before
    assert len(list(store.backend.scan_contexts())) == 2
    assert find_problems(store.backend) == []


def test_a_moved_episode_keeps_its_tiers(open_store) -> None:  # type: ignore[no-untyped-def]
    """Accesses, working memory, semantic sources and pruning follow an episode to its new hash."""
    store = open_store()
    record = (
        "2026-02-08T02:30:00Z",
        "chat",
        "talk with Zelda Quux",
        "",
        [
            ("Zelda Quux", "knows", "Mo", 0.9),
            ("Mo", "likes", "chess", 0.8),
            ("Mo", "likes", "tea", 0.5),
        ],
    )
    ingest(store, parse_inputs(_text([record])), now="2026-02-10T00:00:00.000Z")
    backend = store.backend
    rows = {e.fact_hash: e.hash for e in backend.scan_episodes()}
    liked = sorted(f.fact_hash.digest for f in backend.find_facts(_any()) if f.predicate == "likes")
    chess, tea = liked  # one is touched, in working memory and semantic; the other pruned
    with store.transaction():
        backend.touch([rows[chess]], "2026-02-11T00:00:00.000Z")
        backend.working_push("s1", rows[chess], "2026-02-11T00:00:00.000Z", 10)
        backend.semantic_merge(chess, 0.8, rows[chess], "2026-02-11T00:00:00.000Z")
        backend.prune_episodes([rows[tea]], "2026-02-12T00:00:00.000Z", "decay")
    forget(store, Selector("concept", "Zelda Quux"), at=AT, purge=True)
    (moved,) = [e for e in backend.scan_episodes() if e.fact_hash == chess]
    assert moved.hash != rows[chess] and moved.access_count == 1
    assert backend.working_peek("s1", 5) == [moved.hash]
    assert backend.semantic_merged(moved.hash) and not backend.semantic_merged(rows[chess])
    (pruned,) = backend.pruned()
    assert pruned.fact_hash == tea and pruned.hash != rows[tea] and pruned.reason == "decay"
    assert find_problems(backend) == []
