"""Where a store lives, as a user writes it: a SQLite file, `:memory:`, or a server URL.

This is the grammar of a location only. Which engine serves a scheme is the storage
registry's business (`zerolang.storage.registry`), and nothing else looks at a
location's prefix:

- `PATH` or `sqlite:///PATH`: a SQLite file (scheme `sqlite`);
- `:memory:` or `sqlite::memory:`: a SQLite database in memory, gone when closed;
- `SCHEME://...`: a server, e.g. `postgresql://user@host/dbname` (the URL kept whole).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from zerolang.util.errors import ZeroError

SQLITE = "sqlite"
IN_MEMORY = ":memory:"
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(//?)(.*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Location:
    """A parsed location: its `scheme` (`sqlite` for a file or `:memory:`) and its `target`
    (the file's path, `:memory:`, or the whole URL)."""

    scheme: str
    target: str

    @property
    def is_url(self) -> bool:
        return self.scheme != SQLITE

    @property
    def in_memory(self) -> bool:
        return self.scheme == SQLITE and self.target == IN_MEMORY

    @property
    def is_file(self) -> bool:
        return self.scheme == SQLITE and self.target != IN_MEMORY

    @property
    def holds_nothing_yet(self) -> bool:
        """Nothing stored here can be read by opening it: `:memory:` (a fresh one each time), or a
        SQLite file that does not exist. A server URL may hold a store (opening it tells)."""
        return self.in_memory or (self.is_file and not Path(self.target).is_file())

    @property
    def path(self) -> Path:
        """The SQLite file (only for `is_file`)."""
        if not self.is_file:
            raise ValueError(f"{self.display}: not a file")
        return Path(self.target)

    @property
    def display(self) -> str:
        """The location as messages show it: a URL without its password."""
        return display(self.target)

    def __str__(self) -> str:
        return self.target


def parse_location(value: str | Path | Location) -> Location:
    """A location from what a user wrote (or a `Path`, whose `//` a shell or typer may have folded)."""
    if isinstance(value, Location):
        return value
    text = str(value)
    if not text.strip():
        raise ZeroError("a store location cannot be empty (a file path, :memory: or a URL)")
    if text in (IN_MEMORY, "sqlite::memory:"):
        return Location(SQLITE, IN_MEMORY)
    url = _URL.fullmatch(text)
    if url is None and text.lower().startswith(f"{SQLITE}:"):
        raise _not_sqlite(text)
    if url is None or len(url.group(1)) == 1:  # `C:\\...` or `C:/...` is a Windows path
        return Location(SQLITE, text)
    scheme, slashes, rest = url.group(1).lower(), url.group(2), url.group(3)
    if scheme == SQLITE:
        if slashes == "//" and rest.startswith("/") and rest.strip("/"):
            return Location(SQLITE, rest[1:])  # as SQLAlchemy reads it: `sqlite:////abs`, `sqlite:///rel`
        raise _not_sqlite(text)
    if slashes == "/" and isinstance(value, Path):  # `Path("postgresql://h/db")` is "postgresql:/h/db"
        return Location(scheme, f"{url.group(1)}://{rest}")
    if slashes == "/":
        return Location(SQLITE, text)
    return Location(scheme, text)


def user_data(name: str) -> Path:
    """`name` in the per-user data directory, where a store goes that no option names
    (e.g. `~/.local/share/zerolang/memory.db`)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("zerolang", appauthor=False)) / name


def _not_sqlite(text: str) -> ZeroError:
    return ZeroError(f"not a SQLite location: {text!r} (a path, sqlite:///PATH or sqlite::memory:)")


def display(location: str | Path) -> str:
    """A location as messages show it: a URL without its password."""
    text = str(location)
    url = _URL.fullmatch(text)
    if url is None or url.group(2) != "//":
        return text
    scheme, _, rest = text.partition("://")
    credentials, at, host = rest.rpartition("@")
    if at and ":" in credentials:
        credentials = credentials.split(":", 1)[0] + ":***"
    return f"{scheme}://{credentials}{at}{host}"
