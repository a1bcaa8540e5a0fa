"""Who is told when a store starts waiting for another connection: the CLI asks (it prints one line on
stderr), the Python API does not. Here, below every layer, so a command asks without loading a store
(`zerolang.storage.locks` tells the listeners when a wait begins)."""

from __future__ import annotations

from collections.abc import Callable

_LISTENERS: list[Callable[[str], None]] = []


def tell_waits(listener: Callable[[str], None]) -> None:
    """Have `listener` told, in one line, each time a store starts waiting for another connection.
    Told once, however often asked."""
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def tell(message: str) -> None:
    """Tell every listener `message` (a wait that began)."""
    for listener in _LISTENERS:
        listener(message)
