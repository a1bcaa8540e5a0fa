"""`zero archive`: put, get, verify, move between tiers, count and clean the document archive.

The archive folder is `--root PATH`, else `$ZERO_ARCHIVE`, else `memory.archive.path` from the
nearest pyproject.toml, else `archive` in the per-user data directory. Heavy imports stay inside
the commands, so `zero --help` pays nothing for this module.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec

import typer

from zerolang.cli.errors import reports_errors
from zerolang.cli.options import ABSTRACTION, PRIVACY
from zerolang.cli.terminal import echo, write_document
from zerolang.cli.typer_options import (
    AbstractionOption,
    ClearanceOption,
    DryRunOption,
    IndexDbOption,
    JsonOption,
    MaybeAsOption,
    PolicyOption,
    PrivacyOption,
    RootOption,
    SpaceOption,
)
from zerolang.util.escapes import json_text
from zerolang.util.lines import split_lines
from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from zerolang.archive.document import MemoryDocument
    from zerolang.archive.gate import Gate
    from zerolang.archive.index import IndexStore
    from zerolang.archive.policy import Caller, Policy
    from zerolang.archive.store import Archive

P = ParamSpec("P")

archive_app = typer.Typer(
    name="archive",
    help="The document archive: immutable memory documents by SHA-256, in hot, warm and cold tiers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _command(name: str) -> Callable[[Callable[P, None]], Callable[P, None]]:
    def register(function: Callable[P, None]) -> Callable[P, None]:
        @functools.wraps(function)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
            reports_errors(function)(*args, **kwargs)

        archive_app.command(name)(wrapper)
        return function

    return register


def resolve_root(option: Path | None) -> Path:
    """`--root` (or `$ZERO_ARCHIVE`), else `memory.archive.path`, else the per-user `archive` folder."""
    from zerolang.memory.settings import resolve_stores

    return resolve_stores(archive=option).archive


def _open(option: Path | None, *, create: bool = False) -> Archive:
    from zerolang.archive.store import Archive

    return Archive(resolve_root(option), create=create)


@contextlib.contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A transient rich progress bar on stderr when it is a terminal; otherwise no callback."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _print_json(document: object) -> None:
    sys.stdout.write(json_text(document) + "\n")


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


# ---- put ------------------------------------------------------------------------------------


def load_documents(file: str) -> list[tuple[str, MemoryDocument]]:
    """(where, document) for a file of one document, a JSON array of them, or JSON Lines; - is stdin."""
    from zerolang.archive.canonical import loads_strict
    from zerolang.archive.document import document_from_json, utc_now
    from zerolang.cli.stdin import NAME, STDIN
    from zerolang.util.errors import ZeroError
    from zerolang.util.files import read_text

    name = NAME if file == STDIN else file
    text = sys.stdin.read() if file == STDIN else read_text(file, "document file")
    now = utc_now()
    try:
        parsed = loads_strict(text, name)
        items = list(enumerate(parsed)) if isinstance(parsed, list) else [(None, parsed)]
        places = [name if index is None else f"{name}[{index}]" for index, _ in items]
        values = [value for _, value in items]
    except ZeroError:
        lines = [(number, line) for number, line in enumerate(split_lines(text), 1) if line.strip()]
        if len(lines) < 2:
            raise
        places = [f"{name}:{number}" for number, _ in lines]
        values = [loads_strict(line, f"{name}:{number}") for number, line in lines]
    if not values:
        raise ZeroError(f"{name}: no documents")
    return [
        (place, document_from_json(value, what=place, created_at=now))
        for place, value in zip(places, values, strict=True)
    ]


@_command("put")
def put(
    files: Annotated[
        list[str],
        typer.Argument(
            help="JSON files: one document, an array of documents, or JSON Lines; - reads stdin.",
            show_default=False,
            metavar="FILE...",
        ),
    ],
    privacy: PrivacyOption = PRIVACY.default,
    abstraction: AbstractionOption = ABSTRACTION.default,
    summary: Annotated[
        str | None,
        typer.Option(
            "--summary", metavar="TEXT", help="Index summary (default: extracted from the messages)."
        ),
    ] = None,
    root: RootOption = None,
    db: IndexDbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
) -> None:
    """Archive and index memory documents.

    Prints each document's hash. Putting a document twice is a no-op. A document that mentions a
    label a purge erased (`zero memory forget --purge`) is not stored: `forgotten`.

    Every document is validated (and a given `hash` checked) before anything is written. A missing
    created_at becomes the current time. The index row (summary, privacy, abstraction) is written
    once; putting the document again keeps it.
    """
    from zerolang.archive.archiving import ForgottenDocument, archive_and_index

    documents = [item for file in files for item in load_documents(file)]
    archive = _open(root, create=True)
    store = open_index(db, space, create=True, root=root)
    lines = []
    try:
        with _progress("archiving") as progress:
            for number, (place, document) in enumerate(documents, 1):
                try:
                    result = archive_and_index(
                        archive, store, document, summary=summary, privacy=privacy, abstraction=abstraction
                    )
                    lines.append(f"{'stored' if result.stored else 'exists'}  {result.record.hash}  {place}")
                except ForgottenDocument as refused:  # it mentions a purged label: none of it is kept
                    lines.append(f"forgotten  {refused.hash}  {place}")
                if progress is not None:
                    progress(number, len(documents))
    finally:
        store.close()
    for line in lines:
        echo(line)


# ---- get ------------------------------------------------------------------------------------


@_command("get")
def get(
    hash_text: Annotated[
        str, typer.Argument(help="The full hash (64 hex digits, optionally sha256:...).", metavar="HASH")
    ],
    root: RootOption = None,
    raw: Annotated[
        bool, typer.Option("--raw", help="Write the stored canonical bytes exactly (no hash member).")
    ] = False,
    as_channel: MaybeAsOption = None,
    clearance: ClearanceOption = None,
    db: IndexDbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    policy: PolicyOption = None,
) -> None:
    """Print a document, verified against its hash.

    A copy whose bytes do not hash to HASH is never printed.

    With --as CHANNEL the request goes through the consent policy (--policy or
    memory.archive.policy) and the index; a refusal names the rule that refused.
    Without it, you read your own archive as its owner.
    """
    archive = _open(root)
    if as_channel is not None:
        document = open_gate(root, db, space, policy).get(caller(as_channel, clearance), hash_text)
    else:
        document = archive.get(hash_text)
    if raw:
        write_document(document.canonical())
        return
    _print_json(document.to_json())


# ---- verify ---------------------------------------------------------------------------------


@_command("verify")
def verify(
    hashes: Annotated[
        list[str] | None,
        typer.Argument(
            help="Only these hashes (default: every stored copy).", show_default=False, metavar="[HASH...]"
        ),
    ] = None,
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check every stored copy of every document.

    Reports every corrupt, missing, misplaced or stray file, and exits 1 if there is any.
    """
    archive = _open(root)
    with _progress("verifying") as progress:
        report = archive.verify(hashes or None, progress)
    if as_json:
        _print_json(
            {
                "documents": report.documents,
                "copies": report.copies,
                "problems": [
                    {"kind": p.kind, "hash": p.hash, "where": p.where, "detail": p.detail}
                    for p in report.problems
                ],
            }
        )
    else:
        for problem in report.problems:
            echo(problem.line())
        copies = f"{report.copies:,} stored {'copy' if report.copies == 1 else 'copies'}"
        checked = f"checked {_plural(report.documents, 'document')} ({copies})"
        if report.ok:
            echo(f"{checked}: all good")
        else:
            echo(f"{checked}: {_plural(len(report.problems), 'problem')}")
    if not report.ok:
        raise typer.Exit(1)


# ---- tier -----------------------------------------------------------------------------------


@_command("tier")
def tier(
    target: Annotated[str, typer.Argument(help="hot, warm or cold.", metavar="TIER", show_default=False)],
    hashes: Annotated[
        list[str] | None,
        typer.Argument(help="The documents to move.", show_default=False, metavar="[HASH...]"),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Move every document.")] = False,
    older_than: Annotated[
        int | None,
        typer.Option(
            "--older-than", min=0, metavar="DAYS", help="Move documents created more than DAYS days ago."
        ),
    ] = None,
    root: RootOption = None,
) -> None:
    """Move documents to another tier.

    Every copy is verified first; every hash stays readable throughout.
    """
    from zerolang.archive.document import parse_time
    from zerolang.archive.store import Tier
    from zerolang.util.errors import ZeroError

    try:
        goal = Tier(target)
    except ValueError:
        raise ZeroError(f"unknown tier {target!r} (hot, warm or cold)") from None
    chosen = sum([bool(hashes), every, older_than is not None])
    if chosen != 1:
        raise ZeroError("say which documents: HASH..., --all or --older-than DAYS (exactly one)")
    archive = _open(root)
    wanted: list[str] | None = list(hashes) if hashes else None
    if older_than is not None:
        from datetime import UTC, datetime, timedelta

        cutoff = datetime.now(UTC) - timedelta(days=older_than)
        wanted = [
            digest
            for digest in archive.hashes()
            if parse_time(archive.get(digest).created_at, digest) < cutoff
        ]
    with _progress(f"moving to {goal}") as progress:
        report = archive.move(wanted, goal, progress)
    for problem in report.failed:
        echo(problem.line(), err=True)
    echo(
        f"moved {_plural(len(report.moved), 'document')} to {goal}"
        f" ({report.already:,} already there, {len(report.failed):,} failed)"
    )
    if report.failed:
        raise typer.Exit(1)


# ---- stats ----------------------------------------------------------------------------------


@_command("stats")
def stats(root: RootOption = None, as_json: JsonOption = False) -> None:
    """Count documents and bytes per tier.

    Also bundles, and the leftovers gc would remove.
    """
    archive = _open(root)
    counts = archive.stats()
    if as_json:
        _print_json(
            {
                "root": str(archive.root),
                "documents": counts.documents,
                "canonical_bytes": counts.canonical_bytes,
                "tiers": {
                    tier.value: {"documents": c.documents, "bytes": c.bytes}
                    for tier, c in counts.tiers.items()
                },
                "bundles": counts.bundles,
                "bundle_bytes": counts.bundle_bytes,
                "temp_files": counts.temp_files,
                "duplicates": counts.duplicates,
            }
        )
        return
    lines = [
        f"archive    {archive.root}",
        f"documents  {counts.documents:,} ({counts.canonical_bytes:,} canonical bytes)",
    ]
    for tier_name, count in counts.tiers.items():
        lines.append(f"{tier_name.value:<10} {_plural(count.documents, 'document')}, {count.bytes:,} bytes")
    lines.append(f"bundles    {counts.bundles:,} ({counts.bundle_bytes:,} bytes)")
    lines.append(
        f"gc         {_plural(counts.temp_files, 'leftover temp file')},"
        f" {counts.duplicates:,} extra {'copy' if counts.duplicates == 1 else 'copies'}"
    )
    echo("\n".join(lines))


# ---- gc -------------------------------------------------------------------------------------


@_command("gc")
def gc(
    root: RootOption = None,
    dry_run: DryRunOption = False,
) -> None:
    """Remove leftovers, never a document.

    Removes temp files of interrupted writes, extra copies of a hash held by two tiers, cold
    bundles nothing points into, and empty shard folders. Every readable hash stays readable.
    """
    archive = _open(root)
    with _progress("collecting") as progress:
        report = archive.gc(dry_run=dry_run, progress=progress)
    verb = "would remove" if dry_run else "removed"
    for path in report.temp_files:
        echo(f"{verb} temp file    {path}")
    for extra in report.duplicates:
        digest, tier_name = extra.split()
        echo(f"{verb} extra copy   {digest} ({tier_name})")
    for path in report.bundles:
        echo(f"{verb} bundle       {path}")
    total = len(report.temp_files) + len(report.duplicates) + len(report.bundles)
    folders = f" and {_plural(len(report.folders), 'empty folder')}" if report.folders else ""
    echo(f"{verb} {_plural(total, 'item')}, {report.freed_bytes:,} bytes{folders}")


# ---- opening the index, the policy and the gate (shared with archive_recall_cmd) ----


def open_index(db: str | None, space: str, *, create: bool, root: Path | None = None) -> IndexStore:
    """The summary index in the memory store `db` (else memory.index.sql.dsn, else the default store),
    in `space`: where every surface keeps it (`zerolang.memory.settings.open_archive_index`)."""
    from zerolang.memory.settings import open_archive_index, resolve_stores

    return open_archive_index(resolve_stores(db, space=space, archive=root), create=create)


def load_policy_option(option: Path | None) -> Policy:
    from zerolang.archive.policy import load_policy
    from zerolang.archive.settings import memory_settings_for
    from zerolang.util.errors import ZeroError

    path = option or memory_settings_for().archive_policy
    if path is None:
        raise ZeroError("no consent policy: pass --policy FILE or set memory.archive.policy")
    return load_policy(path)


def open_gate(root: Path | None, db: str | None, space: str, policy: Path | None) -> Gate:
    from zerolang.archive.gate import Gate

    archive = _open(root)
    return Gate(archive, open_index(db, space, create=False, root=root), load_policy_option(policy))


def caller(channel: str, clearance: int | None) -> Caller:
    from zerolang.archive.policy import Caller

    return Caller(channel, clearance)
