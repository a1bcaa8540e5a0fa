"""Where `zero capture`, `zero recall`, `zero convo` and `zero hook` keep experiences: those of the
memory `--db` names (as on every command: `$ZERO_MEMORY_DB`, else the per-user `memory.db`), in
`--space` (`$ZERO_MEMORY_SPACE`), unless `--experiences` (`$ZERO_EXPERIENCE_DB`) names their
database apart; resolved once here (`zerolang.memory.settings.resolve_stores`) and opened through
the memory's door (`zerolang.memory.opening`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.convo.store import EntryStore
    from zerolang.experience.store import ExperienceStore
    from zerolang.memory.settings import Stores


def stores_of(
    db: str | Path | None = None, *, space: str | None = None, experiences: str | Path | None = None
) -> Stores:
    """The stores `--db`, `--space` and `--experiences` name, as every surface resolves them."""
    from zerolang.memory.settings import resolve_stores

    return resolve_stores(None if db is None else str(db), space=space, experiences=experiences)


def open_store(stores: Stores, *, create: bool) -> ExperienceStore:
    """The experience store of `stores`; opened to write (`create`), it first takes the memory's
    purges (`zerolang.memory.opening.open_experiences_of`)."""
    from zerolang.memory.opening import open_experiences_of

    return open_experiences_of(stores, create=create)


def open_entries(stores: Stores, *, create: bool) -> EntryStore:
    """The conversation entries of `stores` (`zerolang.memory.opening.open_conversations_of`)."""
    from zerolang.memory.opening import open_conversations_of

    return open_conversations_of(stores, create=create)


def read_hiding_purges(stores: Stores, store: ExperienceStore) -> ExperienceStore:
    """`store` with the purges of the memory `stores` name hidden, writing nothing, so `zero recall`
    shows nothing a purge erased even from a database the purge never reached."""
    from zerolang.memory.opening import reading_experiences

    return reading_experiences(stores, store)
