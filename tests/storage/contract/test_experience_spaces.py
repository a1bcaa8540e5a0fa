"""Spaces are walls for conversations too: on both engines, an experience or conversation store seen
from one space never recalls, lists, counts, resumes or erases another space's turns and entries,
even when both captured the same transcript (same session ids, same turn ids) into one database."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from zerolang.convo.memory import ConversationMemory
from zerolang.convo.model import ChatMessage
from zerolang.convo.store import EntryStore
from zerolang.experience.capture import capture_files
from zerolang.experience.forgotten import apply_forget
from zerolang.experience.ranking import full_text
from zerolang.experience.recall import recall
from zerolang.experience.store import ExperienceStore
from zerolang.storage import open_conversations, open_experiences

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
ALICE_SECRET = "alice private: the vault code is 7788"
BOB_NOTE = "bob notes: the vault code for bob is 4411"
EMPTY = {"turns": 0, "experiences": 0, "concepts": 0, "edges": 0}


@pytest.fixture
def spaces(backend: str) -> tuple[str, str]:
    """Two spaces of this test alone (on PostgreSQL the session's database is shared)."""
    token = secrets.token_hex(4)
    return f"alice-{token}", f"bob-{token}"


@pytest.fixture
def opened(location: str) -> Iterator[Callable[..., ExperienceStore]]:
    with ExitStack() as stack:

        def make(space: str) -> ExperienceStore:
            return stack.enter_context(open_experiences(location, space=space))

        yield make


@pytest.fixture
def entries(location: str) -> Iterator[Callable[..., EntryStore]]:
    with ExitStack() as stack:

        def make(space: str) -> EntryStore:
            return stack.enter_context(open_conversations(location, space=space))

        yield make


def chat(store: EntryStore, agent: str, *lines: str) -> ConversationMemory:
    memory = ConversationMemory(store, agent, clock=lambda: 1_000.0)
    memory.store_turn([ChatMessage(role="user", content=line) for line in lines])
    return memory


def test_the_same_transcript_in_two_spaces_is_two_memories(
    opened: Callable[..., ExperienceStore], spaces: tuple[str, str]
) -> None:
    alice, bob = (opened(space) for space in spaces)
    files = sorted(TRANSCRIPTS.iterdir())
    first = capture_files(alice, files).added.as_dict()
    assert bob.counts() == EMPTY and bob.sessions("", 100) == []
    assert full_text(bob, ["compost"], 10).experiences == [] and full_text(bob, ["nitrogen"], 10).turns == []
    assert recall(bob, "tomatoes compost") == []
    # the same transcript (same session and turn ids) captured into bob is new there, in full
    assert capture_files(bob, files).added.as_dict() == first
    assert alice.counts() == bob.counts() == first
    assert alice.sessions("", 100) == bob.sessions("", 100)
    assert capture_files(alice, files).added.as_dict() == EMPTY  # each space resumes its own


def test_a_purge_in_one_space_leaves_the_other_whole(
    opened: Callable[..., ExperienceStore], entries: Callable[..., EntryStore], spaces: tuple[str, str]
) -> None:
    alice, bob = (opened(space) for space in spaces)
    alice_entries, bob_entries = (entries(space) for space in spaces)
    files = [TRANSCRIPTS / "pi_v1.jsonl"]
    capture_files(alice, files)
    capture_files(bob, files)
    chat(alice_entries, "coder", "we grow tomatoes in compost")
    chat(bob_entries, "coder", "we grow tomatoes in compost")
    before = bob.counts()
    assert apply_forget(alice, "t1:purged", ["compost"], purge=True, entries=alice_entries) > 0
    assert full_text(alice, ["compost"], 10).experiences == [] and alice.counts() != before
    assert alice.postings(["compost"]) == []  # the purged experiences' terms went with them
    assert alice.term_totals().experiences == alice.counts()["experiences"] < before["experiences"]
    assert bob.counts() == before and full_text(bob, ["compost"], 10).experiences
    assert bob.forgotten_terms() == [] and alice.forgotten_terms()
    assert bob.purged_terms() == [] and alice.purged_terms()
    assert bob_entries.search("", ["compost"], 10, now=1_000.0)
    assert alice_entries.search("", ["compost"], 10, now=1_000.0) == []
    # a forget's block in bob reaches no row of alice's, and lifting it leaves alice's blocks
    bob.block_terms("t2", [("tomatoes", 1)])
    assert bob.lift_terms("t2") == 1
    assert alice.lift_terms("t2") == 0 and alice.forgotten_terms()


def test_conversations_never_cross_spaces(
    entries: Callable[..., EntryStore], spaces: tuple[str, str]
) -> None:
    alice, bob = (entries(space) for space in spaces)
    chat(alice, "agent", ALICE_SECRET)
    chat(bob, "agent", BOB_NOTE)  # the same agent and keys in the other space
    assert alice.keys("", now=1_000.0) == bob.keys("", now=1_000.0) != []
    assert ConversationMemory(alice, "agent").restore()[0].content == ALICE_SECRET
    assert ConversationMemory(bob, "agent").restore()[0].content == BOB_NOTE
    assert [key for key, _ in bob.search("", ["7788"], 10, now=1_000.0)] == []
    assert alice.search("", ["7788"], 10, now=1_000.0)
    assert bob.delete("") > 0
    assert bob.keys("", now=1_000.0) == [] and alice.keys("", now=1_000.0) != []
    assert alice.cleanup("", now=10**12) == 0  # no expiry set: nothing of either goes


def test_a_cursor_is_kept_per_space(opened: Callable[..., ExperienceStore], spaces: tuple[str, str]) -> None:
    from zerolang.experience.model import CaptureBatch

    alice, bob = (opened(space) for space in spaces)
    alice.add(CaptureBatch(cursors=[("/t.jsonl", "alice-state")]))
    assert alice.cursor("/t.jsonl") == "alice-state" and bob.cursor("/t.jsonl") is None
    bob.add(CaptureBatch(cursors=[("/t.jsonl", "bob-state")]))
    assert alice.cursor("/t.jsonl") == "alice-state" and bob.cursor("/t.jsonl") == "bob-state"


def test_postgres_tenants_see_only_their_spaces_conversations(
    postgres_url: str, roles: tuple[str, str]
) -> None:
    """Row-level security and tenant grants on the experience tables, as on the memory's: a role
    granted one space reads and writes its turns and entries; another space's rows are not there
    for it, whichever space it asks for."""
    import psycopg

    from tests.storage.contract.helpers import as_role
    from zerolang import storage

    alice, bob = roles
    token = secrets.token_hex(4)
    spaces = {alice: f"a-{token}", bob: f"b-{token}"}
    for role, space in spaces.items():
        owner = storage.open_backend(postgres_url, space=space)
        try:
            owner.grant_space(role, space)  # type: ignore[attr-defined]
        finally:
            owner.close()
    open_experiences(postgres_url).close()  # the owner secures the tables (the memory came first)
    open_conversations(postgres_url).close()
    files = [TRANSCRIPTS / "pi_v1.jsonl"]
    with open_experiences(as_role(postgres_url, alice), space=spaces[alice]) as mine:
        added = capture_files(mine, files).added.as_dict()
        assert mine.counts() == added and added["turns"] > 0
    with open_conversations(as_role(postgres_url, alice), space=spaces[alice]) as mine:
        chat(mine, "agent", ALICE_SECRET)
    for asked in spaces.values():  # bob asks for his space and for alice's: neither shows hers
        with open_experiences(as_role(postgres_url, bob), space=asked) as theirs:
            assert theirs.counts() == EMPTY and full_text(theirs, ["compost"], 10).experiences == []
        with open_conversations(as_role(postgres_url, bob), space=asked) as theirs:
            assert theirs.keys("", now=1_000.0) == [] and theirs.delete("") == 0
    bobs = open_experiences(as_role(postgres_url, bob), space=spaces[alice])
    with bobs, pytest.raises(Exception, match="row-level security"):  # nor write into it
        capture_files(bobs, files)
    with psycopg.connect(postgres_url) as owner:  # alice's rows are all there
        assert owner.execute("SELECT count(*) FROM convo_entry WHERE space = %s", (spaces[alice],)).fetchone()
    with open_conversations(as_role(postgres_url, alice), space=spaces[alice]) as mine:
        assert ConversationMemory(mine, "agent").restore()[0].content == ALICE_SECRET
