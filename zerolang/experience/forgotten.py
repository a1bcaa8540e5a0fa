"""What forgetting means for experiences and conversation turns.

A forget in the memory (`zerolang.knowledge.forget`) removes concepts; their
labels and aliases are the forgotten *terms* (`zerolang.knowledge.terms`). The
experience store keeps each term only as a hash with its word count, under the
tombstone that blocked it, so nothing readable stays behind after a purge. `Forgotten.mentions(text)` is the
predicate recall, the budget and conversation search consult at query time:
a text mentions a term when some run of its words hashes to it. `--purge`
also erases the experiences, turns and conversation entries that mention a
term (`erase`); `restore` lifts the block (`lift_terms`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from zerolang.experience.model import CaptureBatch
from zerolang.knowledge.terms import Forgotten, strings, term_key, term_keys

__all__ = ["Forgotten", "term_key", "term_keys"]

# The experience store keeps a purge's terms under `<tombstone>:purged`: what capture stores
# nothing of (`without_forgotten`). A forget's terms, under the tombstone alone, only hide.
PURGED = ":purged"


class ForgettingStore(Protocol):
    """What an experience or conversation store offers forgetting (SQL stays in the backends)."""

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        """Every blocked `(term hash, word count)`, or those one tombstone blocked."""
        ...

    def block_terms(self, tombstone: str, keys: Sequence[tuple[str, int]]) -> None: ...

    def lift_terms(self, tombstone: str) -> int:
        """Unblock what `tombstone` blocked; how many terms."""
        ...

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Delete for real (full-text entries included) what mentions a forgotten term; how many."""
        ...

    def count_mentioning(self, forgotten: Forgotten) -> int:
        """How many records mention a forgotten term, read only."""
        ...


def forgotten(store: object) -> Forgotten:
    """The store's forgotten terms; none for a store that cannot forget."""
    read = getattr(store, "forgotten_terms", None)
    return Forgotten.of(read()) if read is not None else Forgotten()


class ErasingStore(Protocol):
    """A conversation entry store as purge sees it."""

    def erase_mentioning(self, forgotten: Forgotten) -> int: ...

    def count_mentioning(self, forgotten: Forgotten) -> int: ...


def apply_forget(
    store: ForgettingStore,
    tombstone: str,
    terms: Iterable[str],
    *,
    purge: bool,
    entries: ErasingStore | None = None,
) -> int:
    """Block `terms` under `tombstone` in the experience store; with `purge`, erase for real what
    mentions any forgotten term there and in the conversation `entries` (the same database).
    How many experiences, concepts and entries were erased."""
    keys = term_keys(terms)
    if keys:
        store.block_terms(tombstone, keys)
    if not purge:
        return 0
    return erase(store, tombstone, entries)


def erase(store: ForgettingStore, tombstone: str, entries: ErasingStore | None = None) -> int:
    """Erase for real what mentions a term `tombstone` blocked, experiences and conversation entries."""
    return sum(erase_by_place(store, tombstone, entries).values())


def erase_by_place(
    store: ForgettingStore, tombstone: str, entries: ErasingStore | None = None
) -> dict[str, int]:
    """`erase`, saying how many records each store erased: `experiences`, `conversations` (the
    names of `zerolang.memory.erasure.PLACES`)."""
    blocked = Forgotten.of(store.forgotten_terms(tombstone))
    erased = {"experiences": store.erase_mentioning(blocked)}
    if entries is not None:
        erased["conversations"] = entries.erase_mentioning(blocked)
    return erased


def scrub(value: dict[str, Any], blocked: Forgotten) -> dict[str, Any] | None:
    """A conversation entry without what mentions a forgotten term: its `messages` that do are
    dropped; None when anything else in it does (the whole entry goes)."""
    if not blocked:
        return value
    rest = {key: item for key, item in value.items() if key != "messages"}
    if blocked.mentions(*strings(rest)):
        return None
    messages = value.get("messages")
    if not isinstance(messages, list):
        return value
    kept = [message for message in messages if not blocked.mentions(*strings(message))]
    if len(kept) == len(messages):
        return value
    return {**value, "messages": kept}


def entry_text(value: dict[str, Any]) -> str:
    """The searchable text of a conversation entry: its messages' contents, one a line."""
    messages = value.get("messages")
    if not isinstance(messages, list):
        return ""
    return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


def without_forgotten(batch: CaptureBatch, blocked: Forgotten) -> tuple[CaptureBatch, int]:
    """The batch without every turn that mentions a purged term (its experiences, edges and the
    concepts only they mention, or whose label mentions one), and how many experiences went."""
    if not blocked:
        return batch, 0
    turns = {item.turn for item in batch.experiences if blocked.mentions(item.who, item.what)}
    concepts = {concept.id for concept in batch.concepts if blocked.mentions(concept.label)}
    dropped = {item.id for item in batch.experiences if item.turn in turns} | turns | concepts
    if not dropped:
        return batch, 0
    edges = [edge for edge in batch.edges if edge.src not in dropped and edge.dst not in dropped]
    used = {edge.dst for edge in edges} | {edge.src for edge in edges}
    kept = CaptureBatch(
        turns=[turn for turn in batch.turns if turn.id not in turns],
        experiences=[item for item in batch.experiences if item.turn not in turns],
        concepts=[c for c in batch.concepts if c.id not in concepts and c.id in used],
        edges=edges,
        cursors=batch.cursors,
        terms=batch.terms,
    )
    kept.concept_ids = {concept.id for concept in kept.concepts}
    return kept, len(batch.experiences) - len(kept.experiences)
