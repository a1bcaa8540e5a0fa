"""The word index (schema step 17): concept labels by their words, on both engines alike.

A question's words find concepts by a partial name, a prefix and a word form, with or without
diacritics; only in the store's space; the index follows every write (an ingest, a forget); a purge leaves no byte of a
label in a SQLite file; and a store made before the index finds its concepts once opened."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.backends import restored
from zerolang.knowledge.asking import concepts_named
from zerolang.memory import Memory, MemoryStore
from zerolang.storage import open_store
from zerolang.util.folding import accented

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"


def remember(store: MemoryStore, *facts: tuple[str, str, str]) -> None:
    Memory(store).remember(list(facts), event_time="2024-01-01T00:00:00Z")


def labels(store: MemoryStore, *words: str, limit: int = 20) -> list[str]:
    return sorted(label for _, label, _ in store.backend.concepts_matching(list(words), limit))


def test_words_find_concepts_by_part_prefix_and_form(store: MemoryStore) -> None:
    remember(
        store,
        ("carol diaz", "works_at", "acme corp"),
        ("carol diaz", "has_observation", "runs marathons every spring"),
        ("caravan", "is_a", "vehicle"),
    )
    assert labels(store, "carol") == ["carol diaz"]
    assert labels(store, "car") == ["caravan", "carol diaz"]  # a prefix
    assert labels(store, "marathon") == ["runs marathons every spring"]  # a word form
    assert labels(store, "running", "acme") == ["acme corp", "runs marathons every spring"]
    assert labels(store, "nothing") == [] and labels(store) == []
    assert labels(store, "car", limit=1) in (["caravan"], ["carol diaz"])


def test_a_name_is_found_with_or_without_its_diacritics(store: MemoryStore) -> None:
    # PostgreSQL's index keeps every diacritic and SQLite's those that do not decompose (ø): a name
    # typed plain is looked up by its spellings with one letter accented, and both engines agree
    remember(
        store,
        ("maría josé fernández", "lives_in", "bilbao"),
        ("søren nielsen", "prefers", "neovim"),
        ("zoë okafor", "studies_at", "university of toronto"),
        ("mario", "knows", "marianne"),
    )
    assert "maría josé fernández" in labels(store, "maría")  # a word as typed, accents and all
    assert labels(store, "søren") == ["søren nielsen"]

    def best(text: str) -> str:
        return concepts_named(store, text)[0][0]

    for text in ("María", "Maria", "where does maria jose live", "Ms. Fernandez", "FERNÁNDEZ", "Jose"):
        assert best(text) == "maría josé fernández", text
    for text in ("Søren", "Soren", "where does soren work", "Nielsen"):
        assert best(text) == "søren nielsen", text
    assert best("Where does Zoe study?") == "zoë okafor"


def test_the_best_match_comes_first(store: MemoryStore) -> None:
    remember(store, ("carol diaz", "knows", "carol"), ("dana", "knows", "diaz carol diaz bakery"))
    found = store.backend.concepts_matching(["carol"], 10)
    assert all(isinstance(key, bytes) and len(key) == 32 for key, _, _ in found)
    assert [score for *_, score in found] == sorted((score for *_, score in found), reverse=True)


def test_a_space_finds_only_its_own_concepts(open_store: Callable[..., MemoryStore], space: str) -> None:
    mine, other = open_store(), open_store(space + "-other")
    remember(mine, ("alice", "likes", "tea"))
    remember(other, ("alicia", "likes", "coffee"))
    assert labels(mine, "ali", "coffee") == ["alice"]
    assert labels(other, "ali", "tea") == ["alicia"]


def test_a_forgotten_concept_is_no_longer_found(store: MemoryStore) -> None:
    remember(store, ("zorblax quint", "lives_in", "lyon"), ("agent", "likes", "tea"))
    assert labels(store, "zorblax") == ["zorblax quint"]
    Memory(store).forget("concept", "zorblax quint", purge=True)
    assert labels(store, "zorblax") == [] and labels(store, "tea") == ["tea"]
    remember(store, ("zorblax quint", "lives_in", "lyon"))  # blocked: still not found
    assert labels(store, "zorblax") == []


def test_a_purged_label_leaves_no_byte_in_a_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with open_store(path) as store:
        remember(store, ("qwyjibo vantablack", "lives_in", "lyon"), ("agent", "likes", "tea"))
        for n in range(50):  # enough rows that the index has segments to merge
            remember(store, (f"person {n}", "likes", f"thing {n}"))
        Memory(store).forget("concept", "qwyjibo vantablack", purge=True)
        assert labels(store, "qwyjibo") == []
    data = path.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("memory.db-*"))
    assert b"qwyjibo" not in data and b"vantablack" not in data


@pytest.mark.slow
def test_an_older_sqlite_store_gets_its_index_when_opened(tmp_path: Path) -> None:
    copy = tmp_path / "memory.db"
    shutil.copyfile(FIXTURES / "main-2026-11-28.db", copy)
    with open_store(copy, create=False) as store:
        everything = [label for concept in store.backend.scan_concepts() for label in [concept.label]]
        word = everything[0].split()[0]
        assert everything[0] in labels(store, word, limit=1000)


@pytest.mark.slow
def test_an_older_postgres_store_gets_its_index_when_opened() -> None:
    with restored(FIXTURES / "main-2026-11-28.pg.sql") as url, open_store(url, create=False) as store:
        everything = [concept.label for concept in store.backend.scan_concepts()]
        word = everything[0].split()[0]
        assert everything[0] in labels(store, word, limit=1000)


def test_spellings_of_one_indexed_form_find_the_same_concepts(store: MemoryStore) -> None:
    # a question's respellings are asked only where the index reads them differently: the engine's
    # `indexed_form` must never merge two spellings its index tells apart
    remember(
        store,
        ("maría josé", "lives_in", "bilbao"),
        ("søren nielsen", "prefers", "neovim"),
        ("łukasz", "knows", "zoë"),
    )
    backend = store.backend
    for plain in ("maria", "jose", "soren", "lukasz", "zoe"):
        by_form: dict[str, list[str]] = {}
        for spelled in [plain, *accented(plain)]:
            found = labels(store, spelled)
            assert by_form.setdefault(backend.indexed_form(spelled), found) == found, spelled
    assert backend.indexed_form("søren") != backend.indexed_form("soren")
