"""`zero memory forget | restore | purge | tombstones`: recorded forgetting (`zerolang.knowledge.forget`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from zerolang.cli.forget_experiences import experience_stores
from zerolang.cli.memory_cmd import AliasOption, _aliases, _command, _print_json
from zerolang.cli.options import NOW
from zerolang.cli.stores import as_of, open_memory_store
from zerolang.cli.terminal import echo
from zerolang.cli.typer_options import (
    AlsoExperiencesOption,
    DbOption,
    DryRunOption,
    JsonOption,
    RootOption,
    SpaceOption,
    option,
)
from zerolang.util.escapes import escaped
from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from zerolang.memory.api import Memory

# The time forget, restore, purge and retract record their event at.
EventTimeOption = Annotated[str | None, option(NOW.detailed("The event is recorded then."))]


def _stamp(now: str | None) -> str:
    from zerolang.util.times import format_time

    return format_time(as_of(now)())


_NOTHING = (
    "dry run: nothing changed (the memory's facts only; conversations and the archive are not previewed)"
)
_PREVIEWED = "dry run: nothing changed"


@contextmanager
def _previewed(db: str | None, space: str) -> Iterator[Memory]:
    """The memory `--db` names, for a `--dry-run`: opened without creating, nothing else reached."""
    from zerolang.memory.api import Memory

    with Memory(open_memory_store(db, create=False, space=space)) as memory:
        yield memory


def _counts(removed: Any, redacted: int) -> str:
    """`removed`: what a forget takes (its `to_json`: facts, episodes, concepts, contexts)."""
    taken = removed.to_json()
    text = (
        f"{taken['facts']} facts, {taken['episodes']} episodes, {taken['concepts']} concepts,"
        f" {taken['contexts']} contexts removed"
    )
    return text + (f"; {redacted} contexts redacted" if redacted else "")


def _labels(heading: str, labels: tuple[str, ...]) -> None:
    if labels:
        echo(f"{heading}: " + ", ".join(escaped(label) for label in labels))


@contextmanager
def _memory(db: str | None, space: str, experiences: Path | None, root: Path | None) -> Iterator[Memory]:
    """The memory `--db` names in `--space`, through the Python API (so these commands, `zero mcp` and
    `zero explore --write` forget, restore, purge and retract alike), reaching the experience
    database `experiences` (opened first, so a missing one changes nothing) and the archive at
    `--root`. No experience database given: the memory's own conversations and experiences (in its
    database, or where `$ZERO_EXPERIENCE_DB` says), when there are any: a purge reaches every store
    of the memory by default."""
    from zerolang.memory.api import Memory
    from zerolang.memory.settings import resolve_stores

    stores = resolve_stores(db, space=space, experiences=experiences, archive=root)
    with experience_stores(experiences) as reached:
        store = open_memory_store(db, create=False, space=space)
        with Memory(store, stores=stores, lent=reached) as memory:  # closes what it opened on the way
            yield memory


@_command("forget")
def forget(
    label: Annotated[
        str | None,
        typer.Argument(
            help="A concept (label, hash or hash prefix) and every fact it takes part in.", metavar="LABEL"
        ),
    ] = None,
    fact: Annotated[
        str | None,
        typer.Option("--fact", metavar="S|P|O", help="One fact: subject|predicate|object or its hash."),
    ] = None,
    source: Annotated[
        str | None, typer.Option("--source", metavar="SOURCE", help="Everything from a source.")
    ] = None,
    scope: Annotated[
        str | None, typer.Option("--scope", metavar="SCOPE", help="Everything in a scope.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option("--from", metavar="TIME", help="Everything with an event time at or after TIME."),
    ] = None,
    until: Annotated[
        str | None, typer.Option("--to", metavar="TIME", help="Everything with an event time before TIME.")
    ] = None,
    whole_space: Annotated[bool, typer.Option("--whole-space", help="Everything in the space.")] = False,
    purge: Annotated[
        bool,
        typer.Option(
            "--purge", help="Erase the content for good (no restore); only the tombstone's hash stays."
        ),
    ] = False,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    aliases: AliasOption = None,
    now: EventTimeOption = None,
    experiences: AlsoExperiencesOption = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
) -> None:
    """Forget a concept, a fact, a source, a scope, a time range or a space: a recorded tombstone.

    A label takes the facts it takes part in; a record that only names it keeps its other facts,
    the mention redacted. --dry-run prints what would go and be redacted, and changes nothing.

    Re-ingesting the same content keeps it forgotten until `zero memory restore`. With
    --experiences, captured experiences and conversation turns that mention a forgotten concept
    are left out of `zero recall` and `zero convo` too (and erased with --purge). --purge erases
    every copy (zerolang.memory.erasure): whatever mentions the label in the memory, its
    conversations and experiences (--experiences, else the memory's own), the archive (--root)
    and its summaries; and nothing that mentions it is stored again. A label that only they
    mention (no concept in the facts) is forgotten by its label.
    """
    from zerolang.experience.forgotten import term_keys
    from zerolang.util.errors import ZeroError

    chosen = [
        (kind, value)
        for kind, value in (
            ("concept", label),
            ("fact", fact),
            ("source", source),
            ("scope", scope),
            ("time", None if since is None and until is None else f"{since or ''}..{until or ''}"),
            ("space", space if whole_space else None),
        )
        if value is not None
    ]
    if len(chosen) != 1:
        raise ZeroError(
            "forget exactly one thing: LABEL, --fact, --source, --scope, --from/--to or --whole-space"
            + (f" (got {len(chosen)})" if chosen else "")
        )
    (kind, target), at = chosen[0], _stamp(now)
    if dry_run:
        with _memory(db, space, experiences, root) as memory:  # every store it would reach, read only
            preview = memory.forget(
                kind, target, purge=purge, aliases=_aliases(aliases), now=at, dry_run=True
            )
        if as_json:
            _print_json(preview.to_json())
            return
        verb = "would purge" if purge else "would forget"
        echo(f"{verb} {preview.kind} {escaped(preview.target)}: {_counts(preview.removed, preview.redacted)}")
        _labels("concepts going", preview.labels)
        reached = [f"{count} {name}" for name, count in preview.elsewhere if count]
        if reached:
            echo(f"mentioned beside the facts ({'erased' if purge else 'hidden'}): {', '.join(reached)}")
        echo(_PREVIEWED)
        return
    with _memory(db, space, experiences, root) as memory:
        done = memory.forgetting(kind, target, purge=purge, aliases=_aliases(aliases), now=at)
    report, erased, everywhere = done.report, done.experiences_erased, done.erased
    if as_json:
        document = report.to_json()
        if experiences is not None:
            document["experiences"] = {"blocked_terms": len(term_keys(report.terms)), "erased": erased}
        if purge:
            document["erased"] = everywhere
        _print_json(document)
        return
    echo(
        f"forgot {report.kind} {escaped(report.target)}: {_counts(report.removed, report.redacted)}\n"
        f"tombstone {report.tombstone}" + (" (purged: content erased)" if report.purged else "")
    )
    if experiences is not None:
        count = len(term_keys(report.terms))
        blocked = f"{count} term" + ("" if count == 1 else "s")
        echo(f"experiences: {blocked} blocked" + (f", {erased} records erased" if purge else ""))
        everywhere = {
            name: n for name, n in everywhere.items() if name not in {"experiences", "conversations"}
        }
    if everywhere:
        from zerolang.memory.erasure import describe

        echo(describe(everywhere))


@_command("restore")
def restore(
    tombstone: Annotated[
        str, typer.Argument(help="A tombstone hash, hash prefix or its target.", metavar="TOMBSTONE")
    ],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    now: EventTimeOption = None,
    experiences: AlsoExperiencesOption = None,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
) -> None:
    """Lift a tombstone: what it forgot comes back (unless purged) and may be ingested again.
    --dry-run prints what would come back, and changes nothing."""
    if dry_run:
        with _previewed(db, space) as memory:
            preview = memory.restore(tombstone, dry_run=True)
        if as_json:
            _print_json(preview.to_json())
            return
        what = escaped(preview.target) if preview.target is not None else "(purged)"
        put = f", {preview.redacted} contexts put back" if preview.redacted else ""
        echo(f"would restore {preview.kind} {what}: {preview.back} episodes back{put}")
        _labels("concepts back", preview.labels)
        echo(_NOTHING)
        return
    with _memory(db, space, experiences, None) as memory:
        done = memory.restoring(tombstone, now=_stamp(now))
    row, restored = done.row, done.episodes
    if as_json:
        _print_json(
            {"tombstone": row.hash.hex(), "restored_episodes": restored, "purged": row.purged_at is not None}
        )
        return
    what = escaped(row.target) if row.target is not None else "(purged)"
    echo(f"restored {row.kind} {what}: {restored} episodes back\ntombstone {row.hash.hex()}")


@_command("purge")
def purge(
    tombstone: Annotated[
        str, typer.Argument(help="A tombstone hash, hash prefix or its target.", metavar="TOMBSTONE")
    ],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    now: EventTimeOption = None,
    experiences: AlsoExperiencesOption = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    dry_run: DryRunOption = False,
) -> None:
    """Erase a forgotten thing for good: the tombstone keeps only its hash and the hashes it blocks.

    Like `forget --purge`, it reaches every copy (zerolang.memory.erasure): the conversations
    and experiences (--experiences, else the memory's own), the archive (--root) and its summaries.
    --dry-run prints what would go and be redacted in the memory, and changes nothing.
    """
    from zerolang.memory.erasure import describe

    if dry_run:
        with _previewed(db, space) as memory:
            preview = memory.purge(tombstone, dry_run=True)
        if as_json:
            _print_json(preview.to_json())
            return
        counts = _counts(preview.removed, preview.redacted)
        echo(f"would purge tombstone {preview.tombstone} ({preview.kind}): {counts}")
        _labels("concepts going", preview.labels)
        echo(_NOTHING)
        return
    with _memory(db, space, experiences, root) as memory:
        row, everywhere = memory.purging(tombstone, now=_stamp(now))
    if as_json:
        _print_json({"tombstone": row.hash.hex(), "erased": everywhere})
        return
    echo(f"purged tombstone {row.hash.hex()}")
    if everywhere:
        echo(describe(everywhere))


@_command("tombstones")
def tombstones(db: DbOption = None, space: SpaceOption = DEFAULT_SPACE, as_json: JsonOption = False) -> None:
    """List the space's tombstones, oldest first: hash, kind, target, when, purged or restored."""
    with open_memory_store(db, create=False, space=space) as store:
        rows = store.backend.tombstones()
    if as_json:
        _print_json(
            [
                {
                    "tombstone": r.hash.hex(),
                    "kind": r.kind,
                    "target": r.target,
                    "created_at": r.created_at,
                    "purged_at": r.purged_at,
                    "restored_at": r.restored_at,
                }
                for r in rows
            ]
        )
        return
    if not rows:
        echo("no tombstones")
    for r in rows:
        state = "restored" if r.restored_at else "purged" if r.purged_at else "live"
        target = escaped(r.target) if r.target is not None else "-"
        echo(f"{r.hash.hex()[:12]}  {r.created_at}  {state:<8}  {r.kind:<7}  {target}")


# ---- correcting, and facts over time ----------------------------------------------------------


@_command("retract")
def retract(
    fact: Annotated[str, typer.Argument(help="subject|predicate|object, or a fact hash.", metavar="S|P|O")],
    valid_to: Annotated[
        str | None,
        typer.Option("--valid-to", metavar="TIME", help="When it stopped being true; default: now."),
    ] = None,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    aliases: AliasOption = None,
    now: EventTimeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Retract a fact: its validity is closed and it is retired, kept for history (not forgotten)."""
    from zerolang.memory.upkeep import store_time

    end = None if valid_to is None else store_time(valid_to, "--valid-to")
    at = _stamp(now)
    with _memory(db, space, None, None) as memory:
        done = memory.retracting(fact, valid_to=end, now=at, aliases=_aliases(aliases))
    text, key, span = done.text, done.fact_hash, done.times
    if as_json:
        _print_json(
            {
                "fact": text,
                "fact_hash": key,
                "valid_from": span.valid_from,
                "valid_to": span.valid_to,
                "retired_at": span.retired_at,
                "retired_by": span.retired_by,
            }
        )
        return
    echo(f"retracted {escaped(text)}: valid {span.valid_from} .. {span.valid_to}, retired {span.retired_at}")


@_command("single-valued")
def single_valued(
    predicates: Annotated[
        list[str] | None,
        typer.Argument(help="Predicates to declare; none: list what the space declares.", metavar="PRED..."),
    ] = None,
    remove: Annotated[bool, typer.Option("--remove", help="Undeclare the predicates instead.")] = False,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    now: EventTimeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Declare predicates single-valued in the store (a subject holds one object at a time: a new one
    supersedes the old from its start); no argument lists them. Applies from now on, kept in the log."""
    if not predicates:
        if remove:
            from zerolang.util.errors import ZeroError

            raise ZeroError("--remove needs the predicates to undeclare")
        with open_memory_store(db, create=False, space=space) as store:
            declared = sorted(store.single_valued)
        if as_json:
            _print_json(declared)
        else:
            echo("\n".join(map(escaped, declared)) if declared else "no single-valued predicates")
        return
    at = _stamp(now)
    with open_memory_store(db, create=True, space=space) as store:
        changed = store.declare_single_valued(predicates, at=at, remove=remove)
        declared = sorted(store.single_valued)
    if as_json:
        _print_json({"changed": changed, "single_valued": declared})
        return
    verb = "undeclared" if remove else "declared"
    echo(f"{verb} {', '.join(map(escaped, changed))}" if changed else "nothing changed")


@_command("history")
def history(
    label: Annotated[str, typer.Argument(help="A concept: label, hash or hash prefix.", metavar="LABEL")],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    aliases: AliasOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show a concept's facts over time: when each was true, when it was learned and retired, and why."""
    from zerolang.knowledge.history import concept_history

    with open_memory_store(db, create=False, space=space) as store:
        entries = concept_history(store, label, _aliases(aliases))
    if as_json:
        _print_json([entry.to_json() for entry in entries])
        return
    lines = []
    for entry in entries:
        lines.append(escaped(entry.text))
        for period in entry.periods:
            ended = f"  ended by {period.ended_by}" if period.ended_by not in (None, "stated") else ""
            lines.append(f"  valid {period.valid_from} .. {period.valid_to or 'open'}{ended}")
            believed = f"  known {period.recorded_at} .. {period.closed_at or 'now'}  by {period.recorded_by}"
            closed = f"; closed by {period.closed_by}" if period.closed_by else ""
            lines.append(f"  {believed}{closed}")
        for event in entry.events:
            detail = f"  {escaped(event.detail)}" if event.detail else ""
            lines.append(f"  {event.at}  {event.kind}{detail}")
    echo("\n".join(lines) if lines else "no facts")


@_command("log")
def log(
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, metavar="N", help="Only the last N entries.")
    ] = None,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    as_json: JsonOption = False,
) -> None:
    """Show the space's append-only event log: ingests, forgets, restores, purges, retractions, receives."""
    with open_memory_store(db, create=False, space=space) as store:
        entries = store.backend.log_entries(limit)
    if as_json:
        _print_json([entry.to_json() for entry in entries])
        return
    if not entries:
        echo("the log is empty")
    for e in entries:
        echo(f"{e.seq:>4}  {e.at}  {e.kind:<8} {e.subject.hex()[:12]}  {escaped(e.detail)}")
