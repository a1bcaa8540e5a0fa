"""`zero capture FILE...`: store agent transcripts as experiences (three layers per turn)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from zerolang.cli.experience_store import open_store
from zerolang.cli.options import JSON
from zerolang.cli.terminal import echo
from zerolang.cli.typer_options import ExperienceDbOption, option
from zerolang.util.escapes import escaped

if TYPE_CHECKING:
    from zerolang.experience.capture import CaptureResult
    from zerolang.experience.store import ExperienceStore


def capture(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Transcripts (pi, Claude Code, OpenAI chat JSON/JSONL) or folders of them.",
            show_default=False,
        ),
    ],
    db: ExperienceDbOption = None,
    as_json: Annotated[
        bool, option(JSON.detailed("Its shape: {turns, experiences, concepts, edges}, what was added."))
    ] = False,
    user: Annotated[
        str | None, typer.Option("--user", metavar="NAME", help="Who the user is (default: user).")
    ] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", metavar="NAME", help="Who the agent is (default: assistant).")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", metavar="FORMAT", help="pi, claude-code or openai (default: read from the content)."
        ),
    ] = None,
) -> None:
    """Capture transcripts as experiences: what was said, thought and answered in each turn.

    Every file is read before anything is stored; capturing again adds only what is new.
    """
    from zerolang.experience.capture import capture_files, expand
    from zerolang.experience.transcripts import FORMATS
    from zerolang.util.errors import ZeroError

    if fmt is not None and fmt not in FORMATS:
        raise ZeroError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    names = {key: value for key, value in (("user", user), ("assistant", agent)) if value}
    with open_store(db, create=True) as store:
        files = expand(files)
        if sys.stderr.isatty() and len(files) > 1:
            result = _with_progress(store, files, names, fmt)
        else:
            result = capture_files(store, files, names=names, fmt=fmt)
    if as_json:
        sys.stdout.write(json.dumps(result.added.as_dict()) + "\n")
        return
    added = result.added
    for item in result.files:
        echo(
            f"{escaped(str(item.path))}: {item.format}, {_plural(item.sessions, 'session')},"
            f" {_plural(item.turns, 'turn')}"
        )
    forgotten = (
        f" {_plural(added.forgotten, 'experience')} forgotten (they mention a purged label)."
        if added.forgotten
        else ""
    )
    if not any((added.turns, added.experiences, added.concepts, added.edges)):
        echo(("Nothing new:" + forgotten) if forgotten else "Nothing new: every turn was already captured.")
        return
    echo(
        f"Added {_plural(added.turns, 'turn')}, {_plural(added.experiences, 'experience')}, "
        f"{_plural(added.concepts, 'concept')}, {_plural(added.edges, 'edge')}.{forgotten}"
    )


def _with_progress(
    store: ExperienceStore, files: list[Path], names: dict[str, str], fmt: str | None
) -> CaptureResult:
    """The capture with a transient rich progress bar on stderr (only ever on a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from zerolang.experience.capture import capture_files

    columns = (
        TextColumn("reading"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("capture", total=len(files))
        return capture_files(
            store, files, names=names, fmt=fmt, progress=lambda done, _: bar.update(task, completed=done)
        )


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
