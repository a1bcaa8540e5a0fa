"""Opening the memory store a command names, without typer: `--db`, the per-user default, `--now`.

The typer commands (`zerolang.cli.memory_cmd`, `query_cmd`) and the fast path
(`zerolang.cli.fast`) share these, so a store is found, opened and reported
on the same way whichever reads the command line.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from zerolang.knowledge.store import MemoryStore
    from zerolang.util.locations import Location
    from zerolang.util.times import Clock

# What reading a malformed row (a BLOB for a label, text for a number) raises in our code.
_ROW_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, UnicodeError, OverflowError)


@contextlib.contextmanager
def damaged_store_errors(db: str | Path | None, space: str) -> Iterator[None]:
    """A command that crashes on a malformed row says so: when one of `_ROW_ERRORS` escapes,
    `check` runs on the store, and if it finds problems the crash becomes one line naming the
    first of them (exit 1); a store that checks clean re-raises, as the bug it then is."""
    try:
        yield
    except _ROW_ERRORS as error:
        from zerolang.knowledge.check import find_problems
        from zerolang.util.errors import ZeroError

        try:
            with open_memory_store(db, create=False, space=space) as store:
                problems, path = find_problems(store.backend), store.path
        except Exception:  # the store cannot even be checked: the first error stands
            raise error from None
        if not problems:
            raise
        raise ZeroError(
            f"{path}: a damaged store ({type(error).__name__}: {error}): {problems[0]}"
            f"{f' and {len(problems) - 1} more' if len(problems) > 1 else ''};"
            " `zero memory check` lists what is wrong"
        ) from None


def default_store() -> Path:
    """The per-user default database: `<user data dir>/zerolang/memory.db`."""
    from zerolang.memory.settings import default_memory

    return default_memory()


def open_memory_store(option: str | Path | None, *, create: bool, space: str = DEFAULT_SPACE) -> MemoryStore:
    """The fact store `--db` names (else `$ZERO_MEMORY_DB`, else the per-user one) in `space`, opened
    through the memory's door (`zerolang.memory.opening.open_facts`)."""
    from zerolang.memory.opening import open_facts

    return open_facts(option, space=space, create=create)


def opened_or_undone(
    option: str | Path | None, *, space: str = DEFAULT_SPACE
) -> contextlib.AbstractContextManager[MemoryStore]:
    """The store at `option`, created if there is none, removed again when the block fails
    (`zerolang.memory.opening.facts_or_undone`)."""
    from zerolang.memory.opening import facts_or_undone

    return facts_or_undone(option, space=space)


def prepare_folder(location: Location, *, given: bool) -> None:
    """Before a database file is created at `location` (`zerolang.memory.settings.prepare_folder`)."""
    from zerolang.memory.settings import prepare_folder as prepare

    prepare(location, given=given)


def as_of(text: str | None) -> Clock:
    """The clock `--now` asks for (the system clock without it); a bad time is a `ZeroError`."""
    from datetime import UTC, datetime

    from zerolang.util.errors import ZeroError
    from zerolang.util.times import system_clock

    if text is None:
        return system_clock
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ZeroError(f"--now: not an ISO 8601 time: {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return lambda: moment
