"""The storage layer's errors: one `StorageError` family, whatever engine is underneath.

A driver's own exceptions (`sqlite3.Error`, `psycopg.Error`) never leave the layer as
themselves. Each engine registers its driver when its module loads (`register_driver`),
and every public method of a store class is wrapped at the layer's edge (`translating`):
a driver error that escapes becomes a `ConstraintError` (a row broke a key or a check)
or an `EngineError` (anything else: disk full, server gone), with the driver's first
line as the message and the driver's exception as its cause. A caller catches one type.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NoReturn, TypeVar

from zerolang.util.errors import ZeroError


class StorageError(ZeroError):
    """A store could not do what was asked: not there, not a store, too new, busy, or failed."""


class UnknownEngine(StorageError):
    """No engine serves a location's scheme."""


class StoreBusy(StorageError):
    """Another process held the store's write lock longer than a writer waits (`storage.locks`)."""


class EngineError(StorageError):
    """The database engine failed (disk full, server gone, ...)."""


class ConstraintError(EngineError):
    """A write broke one of the schema's constraints (a key, a check, a reference)."""


class PrivilegeError(EngineError):
    """The database refused the connection's role: no grant, or row-level security (SQLSTATE 42501)."""


INSUFFICIENT_PRIVILEGE = "42501"


@dataclass(frozen=True, slots=True)
class Driver:
    """A database driver's exceptions: its base class and its class for a broken constraint."""

    base: type[Exception]
    constraint: type[Exception]


DRIVERS: list[Driver] = []
"""Every loaded engine's driver (`register_driver`)."""


def register_driver(base: type[Exception], constraint: type[Exception]) -> None:
    """Make `base`'s exceptions (and `constraint`'s as `ConstraintError`) storage errors."""
    driver = Driver(base, constraint)
    if driver not in DRIVERS:
        DRIVERS.append(driver)


def reason(error: BaseException, *, last: bool = False) -> str:
    """A driver error's message on one line: its first line (or, for a failed connection, whose
    cause comes last, its last one), or the error's class when it says nothing."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    return (lines[-1] if last else lines[0]) if lines else type(error).__name__


def translate(error: BaseException) -> StorageError | None:
    """`error` as a `StorageError` if a driver raised it, else None."""
    for driver in DRIVERS:
        if isinstance(error, driver.base):
            if getattr(error, "sqlstate", None) == INSUFFICIENT_PRIVILEGE:
                return PrivilegeError(
                    f"the memory store refused this: the database role has no permission for it"
                    f" ({reason(error)}); the store's owner can grant it a space with"
                    " `zero memory grant ROLE --space SPACE`"
                )
            kind = ConstraintError if isinstance(error, driver.constraint) else EngineError
            return kind(f"the memory store failed: {reason(error)}")
    return None


def _raise_translated(error: Exception) -> NoReturn:
    """Raise `error` as a `StorageError` if a driver raised it, else as it is."""
    translated = translate(error)
    if translated is None:
        raise error
    raise translated from error


@contextmanager
def storage_errors() -> Iterator[None]:
    """A driver error raised inside the block, as a `StorageError` (for code that holds a driver
    connection of its own; a store's methods translate already)."""
    try:
        yield
    except Exception as error:
        _raise_translated(error)


class _Translated(AbstractContextManager[Any]):
    """A context manager whose enter and exit (a commit, a rollback) raise storage errors."""

    __slots__ = ("_inner",)

    def __init__(self, inner: AbstractContextManager[Any]) -> None:
        self._inner = inner

    def __enter__(self) -> Any:
        try:
            return self._inner.__enter__()
        except Exception as error:
            _raise_translated(error)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> bool | None:
        try:
            return self._inner.__exit__(kind, error, trace)
        except Exception as failure:
            _raise_translated(failure)


def _wrapped(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` raising storage errors (plain try/except: a call that does not fail pays nothing
    but the wrapper's frame)."""
    if inspect.isgeneratorfunction(function):

        @functools.wraps(function)
        def generator(*args: Any, **kwargs: Any) -> Any:
            try:
                return (yield from function(*args, **kwargs))
            except Exception as error:
                _raise_translated(error)

        return generator
    manages = inspect.isgeneratorfunction(getattr(function, "__wrapped__", None))  # a @contextmanager

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            result = function(*args, **kwargs)
        except Exception as error:
            _raise_translated(error)
        return _Translated(result) if manages else result

    return call


Class = TypeVar("Class", bound=type)


def translating(cls: Class) -> Class:
    """`cls` with every public method it defines raising storage errors instead of its driver's:
    generators as they iterate, context managers as they enter and exit. Each class of a store
    (an engine, each shared SQL part) is decorated, so an inherited method is translated where it
    is defined, and replacing one on its class (a test's spy) is seen by every subclass."""
    for name, attribute in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(attribute):
            setattr(cls, name, _wrapped(attribute))
    return cls
