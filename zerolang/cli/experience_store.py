"""Where `zero capture` and `zero recall` keep experiences: `--db`, `$ZERO_EXPERIENCE_DB`, or the default.

The default is `experiences.db` in the per-user data directory (next to the
0-memory's `memory.db`, e.g. `~/.local/share/zerolang/experiences.db`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from zerolang.storage.postgres.experience import PostgresExperienceStore
    from zerolang.storage.sqlite.experience import SqliteExperienceStore

DB_ENV = "ZERO_EXPERIENCE_DB"

ExperienceDbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        envvar=DB_ENV,
        metavar="PATH",
        show_envvar=True,
        help="The experience database: a SQLite file or a postgresql:// URL. "
        "Default: experiences.db in the per-user data directory.",
    ),
]


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("zerolang", appauthor=False)) / "experiences.db"


def store_location(option: Path | None, *, create: bool) -> str | Path:
    """Where an experience or conversation store lives: a `postgresql://` URL as typed, or a SQLite
    file (default: `experiences.db` in the per-user data directory), its folder prepared when `create`."""
    if option is not None and str(option).startswith(("postgresql:", "postgres:")):
        return postgres_url(option)
    path = option if option is not None and str(option) else default_path()
    if create:
        from zerolang.cli.stores import prepare_folder

        prepare_folder(path, given=path is option)
    return path


def open_store(option: Path | None, *, create: bool) -> SqliteExperienceStore | PostgresExperienceStore:
    """A SQLite file, or PostgreSQL when `--db` is a `postgresql://` URL (extra `postgres`)."""
    where = store_location(option, create=create)
    if isinstance(where, str):
        from zerolang.storage.postgres.experience import PostgresExperienceStore

        return PostgresExperienceStore(where)
    from zerolang.storage.sqlite.experience import SqliteExperienceStore

    return SqliteExperienceStore(where, create=create)


def postgres_url(option: Path) -> str:
    """The URL as typed: a Path folds `//` to `/`, so put it back."""
    text = str(option)
    scheme, _, rest = text.partition(":")
    return f"{scheme}://{rest.lstrip('/')}"
