"""What `zero capture` does, without typer: the typer command and the fast path (`cli.fast`) run it."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from zerolang.cli.experience_store import open_store
from zerolang.util.escapes import escaped

if TYPE_CHECKING:
    from rich.console import Console

    from zerolang.experience.capture import CaptureResult
    from zerolang.experience.store import ExperienceStore
    from zerolang.memory.settings import Stores


def execute(
    files: Sequence[str | Path],
    stores: Stores,
    *,
    as_json: bool,
    user: str | None = None,
    agent: str | None = None,
    fmt: str | None = None,
) -> None:
    """Capture `files` into the experience store of `stores`; print what was added."""
    from zerolang.experience.capture import capture_files, expand
    from zerolang.experience.transcripts import FORMATS
    from zerolang.util.errors import ZeroError

    if fmt is not None and fmt not in FORMATS:
        raise ZeroError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    names = {key: value for key, value in (("user", user), ("assistant", agent)) if value}
    with open_store(stores, create=True) as store:
        paths = expand(files)
        if sys.stderr.isatty() and (len(paths) > 1 or _size(paths) >= BAR_FROM_BYTES):
            result = _with_progress(store, paths, names, fmt)
        else:
            result = capture_files(store, paths, names=names, fmt=fmt)
    if as_json:
        sys.stdout.write(json.dumps(result.added.as_dict()) + "\n")
        return
    added = result.added
    lines = [
        f"{escaped(str(item.path))}: {item.format or 'nothing to read yet'}"
        + (f", {_plural(item.sessions, 'session')}, {_plural(item.turns, 'turn')}" if item.format else "")
        + (
            f" (line {item.unfinished:,} is cut short, still being written: left for the next capture)"
            if item.unfinished is not None
            else ""
        )
        for item in result.files
    ]
    forgotten = (
        f" {_plural(added.forgotten, 'experience')} forgotten (they mention a purged label)."
        if added.forgotten
        else ""
    )
    if not any((added.turns, added.experiences, added.concepts, added.edges)):
        if forgotten:
            lines.append("Nothing new:" + forgotten)
        elif any(item.turns for item in result.files):
            lines.append("Nothing new: every turn was already captured.")
        else:
            lines.append("Nothing new: no complete turn yet.")
    else:
        lines.append(
            f"Added {_plural(added.turns, 'turn')}, {_plural(added.experiences, 'experience')}, "
            f"{_plural(added.concepts, 'concept')}, {_plural(added.edges, 'edge')}.{forgotten}"
        )
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


BAR_FROM_BYTES = 1 << 20  # one file this large shows the bar too (reading and storing take seconds)


def _size(paths: list[Path]) -> int:
    try:
        return sum(path.stat().st_size for path in paths)
    except OSError:
        return 0  # the capture says what is wrong with the file


def _with_progress(
    store: ExperienceStore,
    files: list[Path],
    names: dict[str, str],
    fmt: str | None,
    console: Console | None = None,
) -> CaptureResult:
    """The capture with a transient rich progress bar on stderr (only ever on a terminal): the files
    read, then the turns stored."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from zerolang.experience.capture import capture_files

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[unit]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console or Console(stderr=True), transient=True) as bar:
        task = bar.add_task("reading", total=len(files), unit="files")

        def storing(done: int, total: int) -> None:
            bar.update(task, description="storing", total=total, completed=done, unit="turns")

        return capture_files(
            store,
            files,
            names=names,
            fmt=fmt,
            progress=lambda done, _: bar.update(task, completed=done),
            storing=storing,
        )


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
