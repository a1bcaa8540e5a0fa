"""The command line's options as data, each declared once: the shared ones and those the fast path reads.

An `OptionSpec` holds what an option is: its flags, help, metavar, environment
variable, default and bounds. typer never appears here. `zerolang.cli.typer_options`
turns a spec into the `typer.Option` a command declares, and `zerolang.cli.fast` reads
the hottest command lines with the same specs without loading typer; an option
missing from the command line is `OptionSpec.fallback` on both paths.
`tests/cli/test_cli_options.py` checks that every command declares these options
as they are written here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Generic, TypeVar

from zerolang.util.limits import DEFAULT_MAX_RUN_BYTES, DEFAULT_MAX_STEPS, DEFAULT_MAX_VALUE_BYTES, parse_size
from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from pathlib import Path

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class OptionSpec(Generic[T]):
    """One option: what typer declares for it and what the fast path reads.

    A bool default makes it a flag; any other default, a value (`--db PATH` or
    `--db=PATH`). `minimum`, `maximum` and `parse` bound and convert the value.
    """

    flags: tuple[str, ...]
    help: str
    default: T
    metavar: str | None = None
    envvar: str | None = None
    multiple: bool = False
    minimum: int | float | None = None
    maximum: int | float | None = None
    parse: Callable[[str], int] | None = None

    @property
    def name(self) -> str:
        """The long flag: how messages and the fast path name the option."""
        return self.flags[0]

    @property
    def is_flag(self) -> bool:
        """Whether the option takes no value: given, it is True."""
        return isinstance(self.default, bool)

    def fallback(self, environ: Mapping[str, str]) -> T | str:
        """The value when the command line does not give one: the environment variable when it is set
        and not empty (as typer reads it), else the default."""
        from_environment = environ.get(self.envvar, "") if self.envvar is not None else ""
        return from_environment or self.default

    def detailed(self, detail: str) -> OptionSpec[T]:
        """The same option, its help followed by what one command adds (`--json`'s shape)."""
        return replace(self, help=f"{self.help} {detail}")


def positive_size(text: str) -> int:
    """A size option's bytes (`64M`, `2G`, ...: `parse_size`), more than 0; else a ValueError saying why."""
    size = parse_size(text)
    if size <= 0:
        raise ValueError("must be more than 0")
    return size


def size_text(size: int) -> str:
    """A size in bytes as a size option writes it, in its largest whole unit: `64M` for 64 MiB."""
    for unit, factor in (("T", 1024**4), ("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if size % factor == 0:
            return f"{size // factor}{unit}"
    return str(size)


# ---- the memory store, its space, the clock ---------------------------------------------------

_STORE = "a SQLite file, or postgresql://user@host/dbname"

DB: OptionSpec[str | None] = OptionSpec(
    ("--db",),
    f"The memory store: {_STORE}. Default: memory.db in the per-user data directory.",
    None,
    metavar="PATH|URL",
    envvar="ZERO_MEMORY_DB",
)
INDEX_DB = replace(
    DB,
    help=f"The memory store holding the summary index: {_STORE}."
    " Default: memory.index.sql.dsn, else the memory commands' default store.",
)
SPACE: OptionSpec[str] = OptionSpec(
    ("--space",),
    "The space inside the store: spaces never see each other's records.",
    DEFAULT_SPACE,
    metavar="NAME",
    envvar="ZERO_MEMORY_SPACE",
)
NOW: OptionSpec[str | None] = OptionSpec(
    ("--now",), "Act as of this ISO 8601 time (default: now).", None, metavar="TIME"
)
# `zero run` reaches a memory store only when one is named (`--db` or its variable): no default store.
RUN_DB = replace(DB, help="The memory store the Memory* ops use (none: they fail).")
RUN_SPACE: OptionSpec[str | None] = OptionSpec(
    SPACE.flags,
    f"The space inside --db. Default: {DEFAULT_SPACE}.",
    None,
    metavar=SPACE.metavar,
    envvar=SPACE.envvar,
)
# `zero capture|recall|convo|hook`: the space the settings name unless one is given (`resolve_stores`).
SETTLED_SPACE = replace(
    RUN_SPACE, help=f"{SPACE.help} Default: the one the settings name, else {DEFAULT_SPACE}."
)
# `zero memory migrate` copies every space unless told one.
ONLY_SPACE: OptionSpec[str | None] = OptionSpec(
    SPACE.flags, "Copy only this space (default: every space).", None, metavar=SPACE.metavar
)

# ---- output, and the changes a command may only show ----------------------------------------

JSON = OptionSpec(("--json",), "Print one JSON document.", False)
DRY_RUN = OptionSpec(("--dry-run",), "Print what would change and change nothing.", False)

# ---- the experience database (zero capture, recall, convo, hook) ---------------------------
# `--db` names the memory on every command; its experiences are found from it. This names them apart.

_EXPERIENCES = f"The experience database (zero capture, recall, convo, hook): {_STORE}."

EXPERIENCES: OptionSpec[Path | None] = OptionSpec(
    ("--experiences",),
    f"{_EXPERIENCES} Default: the memory --db names holds them"
    " (an older release's file beside it, while it holds turns).",
    None,
    metavar="PATH|URL",
    envvar="ZERO_EXPERIENCE_DB",
)
# `zero memory forget|restore|purge` reach it when it is given.
ALSO_EXPERIENCES = replace(
    EXPERIENCES,
    help=f"{_EXPERIENCES} Given, forget, restore and purge reach it too (default: only the memory).",
)

# Conversation entries expire after SECONDS: more than 0 (0 would store them expired), checked by
# the command (`convo.memory.check_ttl`: one line, whatever is wrong with it; no typer range).
TTL: OptionSpec[float | None] = OptionSpec(
    ("--ttl",), "Expire after SECONDS (more than 0; default: never).", None, metavar="SECONDS"
)

# ---- the archive, its consent policy and who asks -------------------------------------------

ROOT: OptionSpec[Path | None] = OptionSpec(
    ("--root",),
    "The archive folder. Default: memory.archive.path, else archive/ in the user data directory.",
    None,
    metavar="DIR",
    envvar="ZERO_ARCHIVE",
)
POLICY: OptionSpec[Path | None] = OptionSpec(
    ("--policy",),
    "The consent policy (TOML or JSON). Default: memory.archive.policy.",
    None,
    metavar="FILE",
)
AS: OptionSpec[str | None] = OptionSpec(
    ("--as",),
    "The channel the caller speaks from: the consent policy decides what it may see.",
    None,
    metavar="CHANNEL",
)
# An index row's axes and a clearance run over `zerolang.archive.index.AXIS_MIN..AXIS_MAX` (not imported:
# the fast path loads no archive; tests/cli/test_cli_options.py holds them equal).
AXIS_MIN, AXIS_MAX = -15, 15

CLEARANCE: OptionSpec[int | None] = OptionSpec(
    ("--clearance",),
    "Lower the channel's clearance to N.",
    None,
    metavar="N",
    minimum=AXIS_MIN,
    maximum=AXIS_MAX,
)


def _axis(flag: str, metavar: str, scale: str) -> OptionSpec[int]:
    """An index row's coordinate on one axis (`--privacy`, `--abstraction`), 0 unless given."""
    axis = flag.removeprefix("--")
    help_text = f"The index row's {axis}: {scale}."
    return OptionSpec((flag,), help_text, 0, metavar=metavar, minimum=AXIS_MIN, maximum=AXIS_MAX)


PRIVACY = _axis("--privacy", "Y", "public (-15) to private (15)")
ABSTRACTION = _axis("--abstraction", "Z", "abstract (-15) to physical (15)")

# ---- the files a command walks, and how it reports (zero check, fmt, lint: as ruff and black) ------

EXCLUDE: OptionSpec[list[str] | None] = OptionSpec(
    ("--exclude",),
    "Skip files and folders matching these globs when searching folders (comma-separated, repeatable);"
    " replaces the defaults and [tool.zero] exclude.",
    None,
    metavar="GLOBS",
    multiple=True,
)
EXTEND_EXCLUDE: OptionSpec[list[str] | None] = OptionSpec(
    ("--extend-exclude",),
    "Skip these globs too, beside the defaults or [tool.zero] exclude (comma-separated, repeatable).",
    None,
    metavar="GLOBS",
    multiple=True,
)
STDIN_FILENAME: OptionSpec[str | None] = OptionSpec(
    ("--stdin-filename",),
    "The name of the document read from stdin: its messages, settings and kind (.0 or .0c) follow it."
    " Given with no path, stdin is read.",
    None,
    metavar="PATH",
)
QUIET = OptionSpec(("--quiet", "-q"), "Print only problems: no summary, no `ok` lines.", False)
EXIT_ZERO = OptionSpec(
    ("--exit-zero",), "Exit 0 even when problems are found (not on a usage or config error).", False
)
STATISTICS = OptionSpec(
    ("--statistics",), "Print how many findings each rule has, instead of each finding.", False
)
OUTPUT_FILE: OptionSpec[Path | None] = OptionSpec(
    ("--output-file",),
    "Write the report to FILE (whole, once done) instead of stdout.",
    None,
    metavar="FILE",
)


class Color(StrEnum):
    """`--color`'s choices."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


COLOR: OptionSpec[Color] = OptionSpec(
    ("--color",),
    "Colour: auto (on a terminal, as NO_COLOR and FORCE_COLOR say), always or never.",
    Color.AUTO,
    metavar="WHEN",
)

# ---- zero run -----------------------------------------------------------------------------

INPUT: OptionSpec[list[str] | None] = OptionSpec(
    ("--input", "-i"),
    "A run input: NAME=TEXT gives a string, NAME:=JSON a typed value. Repeatable.",
    None,
    metavar="NAME=TEXT|NAME:=JSON",
    multiple=True,
)
TRACE = OptionSpec(("--trace",), "Also print the nodes in execution order.", False)
MAX_STEPS = OptionSpec(
    ("--max-steps",), "Stop with an error after this many nodes.", DEFAULT_MAX_STEPS, metavar="N", minimum=1
)
MAX_VALUE_SIZE = OptionSpec(
    ("--max-value-size",),
    "Stop with an error when one node's value takes more memory than this (e.g. 256M).",
    size_text(DEFAULT_MAX_VALUE_BYTES),
    metavar="SIZE",
    parse=positive_size,
)
MAX_MEMORY = OptionSpec(
    ("--max-memory",),
    "Stop with an error when all node values together take more than this (e.g. 2G).",
    size_text(DEFAULT_MAX_RUN_BYTES),
    metavar="SIZE",
    parse=positive_size,
)

# ---- zero query -----------------------------------------------------------------------------

EXPLAIN = OptionSpec(("--explain",), "Show the plan and every score factor.", False)
IDS = OptionSpec(("--ids",), "Show hash ids (left out by default: a model reads words).", False)
NO_TOUCH = OptionSpec(
    ("--no-touch",), "Do not record the access (the store is left exactly as it was).", False
)
