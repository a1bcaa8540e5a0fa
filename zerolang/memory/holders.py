"""Which stores of a memory mention a label: what a forget searches before it says `no concept`.

A label may live only in the memory's conversations, its experiences or its archive (a person
named in a chat, never in a fact). `Memory.forget` of a concept the fact store does not hold
searches every store the forget reaches, by the terms a forget of that label blocks
(`zerolang.knowledge.terms`), and forgets the label when one of them mentions it
(`zerolang.knowledge.forget`, `searched=`): a plain forget hides it from recall and the
conversations, a purge erases it from each. Only when none does is the label refused, the error
naming the stores searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from zerolang.knowledge.scope import mentions
from zerolang.knowledge.terms import Forgotten

if TYPE_CHECKING:
    from zerolang.archive.store import Archive
    from zerolang.experience.forgotten import ErasingStore, ForgettingStore
    from zerolang.knowledge.store import MemoryStore


def documents_mentioning(archive: Archive, forgotten: Forgotten) -> set[str]:
    """The hashes of the archived documents whose body mentions a forgotten term, in every tier."""
    found = set()
    for digest in archive.hashes():
        try:
            body = archive.get(digest).body()
        except Exception:  # an unreadable copy is `zero archive verify`'s to report
            continue
        if forgotten.mentions_any(body):
            found.add(digest)
    return found


def holders(
    store: MemoryStore,
    forgotten: Forgotten,
    experiences: ForgettingStore | None,
    entries: ErasingStore | None,
    *,
    purging: bool = False,
    archive: Archive | None = None,
    indexes: Sequence[Any] = (),
) -> dict[str, int]:
    """How many items of each store mention a forgotten term, every store searched a key (0: none),
    read only: the experiences and conversations a forget hides; `purging`, also the facts
    (concepts and contexts whose words mention it), the `archive`'s documents and the summaries
    in `indexes` a purge erases."""
    found: dict[str, int] = {}
    if purging:
        found_there = mentions(store, forgotten)  # what a purge takes, and the records it redacts
        found["facts"] = len(found_there.episodes) + len(found_there.concepts) + len(found_there.redactions)
    if experiences is not None:
        found["experiences"] = experiences.count_mentioning(forgotten)
    if entries is not None:
        found["conversations"] = entries.count_mentioning(forgotten)
    if purging and archive is not None:
        found["archived documents"] = len(documents_mentioning(archive, forgotten))
    if purging and indexes:
        summaries: set[str] = set()
        for index in indexes:
            read = getattr(index, "mentioning", None)
            if read is not None:
                summaries.update(read(forgotten))
        found["archive summaries"] = len(summaries)
    return found
