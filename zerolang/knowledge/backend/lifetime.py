"""`Lifetime`: the store a backend is, where it is and which of its spaces it sees."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol, Self


class Lifetime(Protocol):
    """The store itself: its location, kind and spaces, its transactions, closing it."""

    __slots__ = ()

    kind: str  # `sqlite` or `postgres`

    @property
    def location(self) -> str:
        """Where the store is, for messages (a path, or a URL without its password)."""

    @property
    def space(self) -> str: ...

    def close(self) -> None: ...
    def serving(self) -> None:
        """Tuned for a long-running server whose calls each write a little (`zero mcp`): what a
        commit guarantees does not change, only where its upkeep happens (SQLite: checkpoints in a
        helper thread)."""

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction (a savepoint when one is open): all of it, or on error none of it."""

    def whole(self) -> AbstractContextManager[None]:
        """One write transaction (a savepoint when one is open) that an error undoes whole: the
        transactions opened inside it may take no savepoint of their own (SQLite's do not), so the
        caller promises that nothing inside catches an error of one and goes on writing."""

    def snapshot(self) -> AbstractContextManager[None]:
        """Every read inside sees one state of the store, as of its first read: a read transaction
        (SQLite) or a `REPEATABLE READ` one (PostgreSQL); no writer waits for it, and what commits
        meanwhile is not seen. Inside a transaction (or another snapshot) it is that one."""

    def in_space(self, space: str) -> Self:
        """The same store seen from another space (shares the connection)."""

    def spaces(self) -> list[str]:
        """Every space holding something, sorted."""
