"""The experience store as the explorer reads it: what the memory's purges blocked is hidden too.

A purge erases what mentions its terms in the experience database it reaches, and blocks the
terms' hashes there; a database it never reached (made later, or elsewhere at the time) still
holds the text. Writers carry the memory's purges in before they write (`carry_purges`); a reader
writes nothing, so the explorer adds the memory's purged terms to those the store blocks when it
reads (`Hiding.forgotten_terms`): recall, the budgeted context and the conversation pages leave
out what mentions them, as they leave out what the store itself blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zerolang.memory.erasure import purged_blocks

if TYPE_CHECKING:
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.store import MemoryStore


@dataclass(frozen=True, slots=True)
class Hiding:
    """An experience store read with the memory's purged terms blocked as well (nothing is written)."""

    store: ExperienceStore
    memory: MemoryStore

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        """The store's blocked terms and, for every tombstone, those the memory's purges blocked."""
        found = self.store.forgotten_terms(tombstone)
        known = set(found)
        for owner, keys in purged_blocks(self.memory).items():
            if tombstone is None or tombstone == owner:
                found += [key for key in keys if key not in known]
                known.update(keys)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)
