"""`zero memory`: ingest facts, compile one input to `.0`, get a concept back, stats, check.

The store is `--db PATH|URL`, else `$ZERO_MEMORY_DB`, else `memory.db` in the
per-user data directory (`platformdirs.user_data_dir("zerolang")`, e.g.
`~/.local/share/zerolang/memory.db` on Linux): a file path is the embedded
SQLite backend, a `postgresql://` URL a PostgreSQL server. `--space NAME`
(or `$ZERO_MEMORY_SPACE`, default `default`) picks the space inside it
(`zerolang.cli.options` declares both).
Heavy imports stay inside the commands, so `zero --help` does not pay for
SQLite, psycopg or the compiler.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec

import typer

from zerolang.cli.errors import reports_errors
from zerolang.cli.options import JSON, NOW, ONLY_SPACE
from zerolang.cli.stdin import NAME, STDIN
from zerolang.cli.stores import as_of, damaged_store_errors, open_memory_store, opened_or_undone
from zerolang.cli.terminal import echo, write_document
from zerolang.cli.typer_options import DbOption, DryRunOption, JsonOption, NowOption, SpaceOption, option
from zerolang.util.escapes import escaped, json_text
from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from rich.progress import TaskID

    from zerolang.knowledge.normalize import AliasTable
    from zerolang.knowledge.store import CheckReport, ConceptView, FactView, InsertResult, MemoryStore
    from zerolang.knowledge.store import Progress as StoreProgress
    from zerolang.memory import SourcedInput
    from zerolang.memory.opening import SpaceCopy
    from zerolang.memory.upkeep import Episode

P = ParamSpec("P")

memory_app = typer.Typer(
    name="memory",
    help="0-memory: compile facts into .0 graphs, store them, get them back by label or hash.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _reports_errors(command: Callable[P, None]) -> Callable[P, None]:
    """The app's error boundary (ZeroError -> one line, exit 1), around the storage errors'."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        reports_errors(_storage_errors(command))(*args, **kwargs)

    return wrapper


def _storage_errors(command: Callable[P, None]) -> Callable[P, None]:
    """The database engine's own errors (disk full, server gone) become one `ZeroError` line, and
    so does a crash on a row someone edited by hand (see `damaged_store_errors`)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        from zerolang.memory.opening import storage_errors

        db, space = kwargs.get("db"), kwargs.get("space")
        with (
            damaged_store_errors(
                db if isinstance(db, str | Path | None) else None,
                space if isinstance(space, str) else DEFAULT_SPACE,
            ),
            storage_errors(),
        ):
            command(*args, **kwargs)

    return wrapper


def _command(name: str) -> Callable[[Callable[P, None]], Callable[P, None]]:
    def register(function: Callable[P, None]) -> Callable[P, None]:
        memory_app.command(name)(_reports_errors(function))
        return function

    return register


AliasOption = Annotated[
    Path | None,
    typer.Option(
        "--aliases",
        metavar="FILE.json",
        help='Extra aliases, a JSON object {"alias": "canonical label"}, on top of the built-in ones.',
    ),
]


def _aliases(path: Path | None) -> AliasTable:
    from zerolang.knowledge.normalize import AliasTable

    return AliasTable.default() if path is None else AliasTable.from_file(path)


def _print_json(document: object) -> None:
    sys.stdout.write(json_text(document) + "\n")


# ---- ingest ---------------------------------------------------------------------------------


@_command("ingest")
def ingest(
    file: Annotated[
        str,
        typer.Argument(
            help="A JSON object, a JSON array of them, or JSON Lines; - reads stdin.",
            show_default=False,
            metavar="FILE|-",
        ),
    ],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    aliases: AliasOption = None,
    as_json: Annotated[
        bool,
        option(JSON.detailed("Its shape: {new_concepts, new_facts, new_episodes, duplicates}, the totals.")),
    ] = False,
    batch_size: Annotated[
        int, typer.Option("--batch-size", min=1, metavar="N", help="Records per committed transaction.")
    ] = 5000,  # `store.DEFAULT_BATCH_SIZE` (not imported here: `zero --help` stays light)
    now: Annotated[str | None, option(NOW.detailed("The records are stored as learned then."))] = None,
) -> None:
    """Compile inputs and store them. Re-ingesting is safe: stored episodes count as duplicates.

    Every record is validated before anything is written; each is stored
    atomically and the ingest commits as it goes, so an interrupted run keeps
    what it finished and a rerun completes the rest.
    """
    from zerolang.memory import load_inputs
    from zerolang.memory.upkeep import ingest_inputs
    from zerolang.util.times import format_time

    table = _aliases(aliases)
    stamp = None if now is None else format_time(as_of(now)())
    inputs = load_inputs(file)
    committed = 0

    def note(state: StoreProgress) -> None:
        nonlocal committed
        committed = state.committed

    try:
        with open_memory_store(db, create=True, space=space) as store:
            if sys.stderr.isatty() and inputs:
                totals = _ingest_with_progress(store, inputs, table, batch_size, stamp, note)
            else:
                totals = ingest_inputs(
                    store, inputs, aliases=table, batch_size=batch_size, progress=note, now=stamp
                )
            path = store.path
    except KeyboardInterrupt:
        echo(
            f"interrupted: {committed:,} of {len(inputs):,} records committed; the same command again"
            " stores the rest (what is stored counts as duplicates)",
            err=True,
        )
        raise typer.Exit(130) from None
    if as_json:
        _print_json(totals.to_json())
        return
    tuples = sum(len(item.input.tuples) for item in inputs)
    name = NAME if file == STDIN else file
    echo(
        f"Ingested {_plural(len(inputs), 'record')} ({_plural(tuples, 'tuple')}) from {name} into {path}:\n"
        f"  {_plural(totals.new_concepts, 'new concept')}, {_plural(totals.new_facts, 'new fact')},"
        f" {_plural(totals.new_episodes, 'new episode')}, {_plural(totals.duplicates, 'duplicate')}"
        + (f", {totals.restated} restated" if totals.restated else "")
        + (f", {totals.forgotten} forgotten (zero memory tombstones)" if totals.forgotten else "")
    )


def _ingest_with_progress(
    store: MemoryStore,
    inputs: list[SourcedInput],
    table: AliasTable,
    batch_size: int,
    now: str | None = None,
    note: Callable[[StoreProgress], None] | None = None,
) -> InsertResult:
    """The ingest with a transient rich progress bar on stderr (only ever on a terminal); `note`
    sees every progress report too."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from zerolang.memory.upkeep import ingest_inputs

    columns = (
        TextColumn("ingesting"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("records"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("ingest", total=len(inputs))

        def report(state: StoreProgress) -> None:
            bar.update(task, completed=state.done)
            if note is not None:
                note(state)

        return ingest_inputs(
            store,
            inputs,
            aliases=table,
            batch_size=batch_size,
            progress=report,
            now=now,
        )


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


# ---- compile --------------------------------------------------------------------------------


@_command("compile")
def compile_(
    file: Annotated[
        str,
        typer.Argument(
            help="One compiler input (a JSON object); - reads stdin.", show_default=False, metavar="FILE|-"
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="OUT.0", help="Write the graph here instead of stdout."),
    ] = None,
    aliases: AliasOption = None,
) -> None:
    """Print the .0 graph of one input: `zero run` on it recomputes the record's hashes."""
    from zerolang.knowledge.compiler import compile_input
    from zerolang.memory import load_inputs
    from zerolang.syntax.printer import print_graph
    from zerolang.util.errors import ZeroError

    inputs = load_inputs(file)
    if len(inputs) != 1:
        raise ZeroError(
            f"{file}: holds {len(inputs)} inputs; `compile` takes one (use `zero memory ingest` for many)"
        )
    graph, _ = compile_input(inputs[0].input, _aliases(aliases))
    text = print_graph(graph)
    if output is None:
        write_document(text)
        return
    from zerolang.util.files import write_text_atomic

    write_text_atomic(output, text)
    echo(f"Wrote {output}", err=True)


# ---- get ------------------------------------------------------------------------------------


@_command("get")
def get(
    query: Annotated[
        str,
        typer.Argument(
            help="A label (normalised, aliases resolved), a concept hash, or a unique hash prefix.",
            show_default=False,
            metavar="LABEL|HASH",
        ),
    ],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    aliases: AliasOption = None,
    as_json: Annotated[bool, option(JSON.detailed("Its shape: {concept, facts} (see the README)."))] = False,
) -> None:
    """Show a concept and every fact it is the subject or object of, with their episodes."""
    from zerolang.knowledge.normalize import normalize_label
    from zerolang.util.errors import ZeroError

    table = _aliases(aliases)
    with open_memory_store(db, create=False, space=space) as store:
        concept = store.find_concept(query, table)
        if concept is None:
            resolved = table.resolve(query)
            shown = f" (looked up as `{resolved}`)" if resolved != query and normalize_label(query) else ""
            raise ZeroError(f"no concept `{query}`{shown} in {store.path}")
        view = store.recall(concept)
    if as_json:
        _print_json(view.to_json())
    else:
        _print_view(view)


def _print_view(view: ConceptView) -> None:
    """The concept and its facts for a human: labels, aliases, sources and scopes shown `escaped`."""
    concept = view.concept
    lines = [
        f"concept     {escaped(concept.label)}",
        f"hash        {concept.hash}",
        f"aliases     {', '.join(map(escaped, concept.aliases)) if concept.aliases else '-'}",
        f"confidence  {concept.confidence:g}",
        f"created     {concept.created_at}",
        f"updated     {concept.updated_at}",
        "",
        f"{_plural(len(view.facts), 'fact')}:" if view.facts else "no facts",
    ]
    for fact in view.facts:
        predicate = escaped(fact.fact.predicate)
        lines.append(f"  {escaped(fact.subject)} --{predicate}--> {escaped(fact.object)}")
        lines.append(
            f"    fact {fact.fact.fact_hash.short()}  confidence {fact.fact.confidence:.4g}"
            f"  {_plural(fact.fact.observations, 'observation')}"
        )
        lines.extend(_times_lines(fact))
        for episode in fact.episodes:
            when, source, scope = escaped(episode.event_time), escaped(episode.source), escaped(episode.scope)
            lines.append(
                f"    episode {episode.episode_hash.short()}  {when}  {source}"
                f"  {scope}  confidence {episode.confidence:g}"
                + (f"  pruned {episode.pruned_at}" if episode.pruned_at is not None else "")
            )
    echo("\n".join(lines))


def _times_lines(fact: FactView) -> list[str]:
    """A retired or closed fact's marker line (nothing for a current, open-ended fact)."""
    times = fact.times
    if times is None or (times.retired_at is None and times.valid_to is None):
        return []
    valid = f"valid until {times.valid_to}" if times.valid_to is not None else ""
    if times.retired_at is None:
        return [f"    {valid}"]
    by = times.retired_by
    why = "retracted" if by == "retracted" or by is None else f"superseded by fact {by[:12]}"
    return [f"    retired {times.retired_at} ({why})" + (f"  {valid}" if valid else "")]


# ---- stats, check ---------------------------------------------------------------------------


@_command("stats")
def stats(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    as_json: Annotated[
        bool, option(JSON.detailed("Its shape: {concepts, facts, episodes, contexts}."))
    ] = False,
) -> None:
    """Count what the database holds."""
    with open_memory_store(db, create=False, space=space) as store:
        counts = store.counts()
        path = store.path
    if as_json:
        _print_json(counts.to_json())
        return
    echo(
        f"database  {path}\n"
        f"space     {space}\n"
        f"concepts  {counts.concepts:,}\n"
        f"facts     {counts.facts:,}\n"
        f"episodes  {counts.episodes:,}\n"
        f"contexts  {counts.contexts:,}"
    )


@_command("check")
def check(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    as_json: Annotated[bool, option(JSON.detailed("Its shape: {ok, checked, problems}."))] = False,
) -> None:
    """Recompute every hash and resolve every reference (like git fsck); exit 1 if anything is wrong."""
    with open_memory_store(db, create=False, space=space) as store:
        report = store.check()
        path = store.path
    if as_json:
        _print_json(report.to_json())
    else:
        _print_report(report, path)
    if not report.ok:
        raise typer.Exit(1)


def _print_report(report: CheckReport, path: str) -> None:
    counts = report.counts
    checked = (
        f"{_plural(counts.concepts, 'concept')}, {_plural(counts.facts, 'fact')},"
        f" {_plural(counts.episodes, 'episode')}, {_plural(counts.contexts, 'context')}"
    )
    if report.ok:
        echo(f"ok: {path}: {checked} verified")
        return
    for problem in report.problems:
        echo(str(problem))
    echo(f"error: {path}: {_plural(len(report.problems), 'problem')} in {checked}", err=True)


# ---- tiers: consolidate, sweep (zerolang.knowledge.tiers) --------------------------------------

HalfLifeOption = Annotated[
    float, typer.Option("--half-life-days", min=0.001, metavar="DAYS", help="Episode half-life in days.")
]


@_command("consolidate")
def consolidate(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    min_episodes: Annotated[
        int, typer.Option("--min-episodes", min=1, metavar="N", help="Episodes a fact needs to be promoted.")
    ] = 3,
    min_confidence: Annotated[
        float,
        typer.Option(
            "--min-confidence", min=0.0, max=1.0, help="Confidence an episode keeps after decay to count."
        ),
    ] = 0.1,
    half_life_days: HalfLifeOption = 7.0,
    now: NowOption = None,
    dry_run: DryRunOption = False,
    as_json: Annotated[bool, option(JSON.detailed("Its shape: {promoted, reinforced, pruned}."))] = False,
) -> None:
    """Promote facts seen in enough still-confident episodes to semantic memory, then prune decayed episodes.

    Pruning removes observations only: every fact and concept stays.
    """
    from zerolang.memory.upkeep import consolidate as run_consolidation

    with open_memory_store(db, create=False, space=space) as store:
        result = run_consolidation(
            store,
            min_episodes=min_episodes,
            min_confidence=min_confidence,
            half_life=half_life_days * 86400,
            clock=as_of(now),
            dry_run=dry_run,
        )
        texts = _fact_texts(store, [e.fact_hash.digest for e in result.pruned_episodes]) if dry_run else {}
        promoted = _fact_texts(store, [f.digest for f in result.promoted_facts]) if dry_run else {}
    if as_json:
        document: dict[str, object] = result.to_json()
        if dry_run:
            document["dry_run"] = True
            document["promoted_facts"] = [promoted[f.digest] for f in result.promoted_facts]
            document["episodes"] = [e.to_json() for e in result.pruned_episodes]
        _print_json(document)
        return
    if dry_run:
        lines = [f"would promote: {promoted[f.digest]}" for f in result.promoted_facts]
        lines += _pruned_lines(result.pruned_episodes, texts)
        lines.append(
            f"dry run: {_plural(result.promoted, 'fact')} would be promoted, {result.reinforced} reinforced,"
            f" {_plural(result.pruned, 'decayed episode')} pruned; nothing changed"
        )
        echo("\n".join(lines))
        return
    echo(
        f"{_plural(result.promoted, 'fact')} promoted to semantic memory, {result.reinforced} reinforced,"
        f" {_plural(result.pruned, 'decayed episode')} pruned (facts and concepts kept)"
    )


def _fact_texts(store: MemoryStore, facts: list[bytes]) -> dict[bytes, str]:
    from zerolang.knowledge.recall import fact_texts

    return fact_texts(store, facts)


def _pruned_lines(episodes: Sequence[Episode], texts: dict[bytes, str]) -> list[str]:
    return [
        f"would prune: episode {e.episode_hash.short()}  {e.event_time}  {texts.get(e.fact_hash.digest, '?')}"
        f"  (confidence {e.base_confidence:g})"
        for e in episodes
    ]


@_command("sweep")
def sweep(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    min_confidence: Annotated[
        float,
        typer.Option("--min-confidence", min=0.0, max=1.0, help="Prune episodes decayed below this."),
    ] = 0.01,
    half_life_days: HalfLifeOption = 7.0,
    now: NowOption = None,
    dry_run: DryRunOption = False,
    as_json: Annotated[bool, option(JSON.detailed("Its shape: {removed, episodes: [...]}."))] = False,
) -> None:
    """Prune episodes whose confidence decayed below the minimum; their facts and concepts stay.

    Decay counts from when an episode was learned or last used (a query returned it), never
    from its event time. Pruned episodes are logged (with the time and reason) and keep their
    provenance: `where source/scope`, `as of` and `history` answer as before, `check` still
    verifies every fact and `export --since` explains what it cannot express.
    Episodes of semantic facts are never pruned.
    """
    from zerolang.memory.upkeep import sweep as prune

    with open_memory_store(db, create=False, space=space) as store:
        removed = prune(
            store,
            half_life=half_life_days * 86400,
            min_confidence=min_confidence,
            clock=as_of(now),
            dry_run=dry_run,
        )
        texts = _fact_texts(store, [e.fact_hash.digest for e in removed]) if dry_run else {}
    if as_json:
        document: dict[str, object] = {"removed": len(removed), "episodes": [e.to_json() for e in removed]}
        if dry_run:
            document["dry_run"] = True
        _print_json(document)
        return
    if dry_run:
        lines = _pruned_lines(removed, texts)
        lines.append(f"dry run: {_plural(len(removed), 'decayed episode')} would be pruned; nothing changed")
        echo("\n".join(lines))
        return
    echo(f"{_plural(len(removed), 'decayed episode')} pruned (facts and concepts kept)")


# ---- export, import, checkpoint (.0c, levels, deltas: zerolang.knowledge.formats) ---------------------


@_command("export")
def export(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    form: Annotated[
        str, typer.Option("--format", metavar="0|0c|json", help="0c (compact), json, or 0 (verbose graphs).")
    ] = "0c",
    level: Annotated[
        str, typer.Option("--level", metavar="L0|L1|L2", help="L0 ids, L1 labels and facts, L2 everything.")
    ] = "L2",
    since: Annotated[
        str | None,
        typer.Option(
            "--since", metavar="CHECKPOINT", help="Only what was added since this checkpoint: a delta."
        ),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write here.")] = None,
) -> None:
    """Write the memory as .0c (at a detail level), JSON or .0 graphs; --since writes a delta."""
    from zerolang.memory.upkeep import EXPORT_FORMATS, LEVELS, export_text
    from zerolang.util.errors import ZeroError
    from zerolang.util.files import write_text_atomic

    if form not in EXPORT_FORMATS or level not in LEVELS:
        raise ZeroError(f"--format is 0, 0c or json and --level L0, L1 or L2 (got {form!r}, {level!r})")
    with open_memory_store(db, create=False, space=space) as store:
        text = export_text(store, form, level, since)
    if output is None:
        write_document(text)
    else:
        write_text_atomic(output, text)


@_command("checkpoint")
def checkpoint(db: DbOption = None, space: SpaceOption = DEFAULT_SPACE, as_json: JsonOption = False) -> None:
    """Print the store's checkpoint: a hash of every concept and episode, then the counts."""
    from zerolang.knowledge.formats.checkpoint import of_store

    with open_memory_store(db, create=False, space=space) as store:
        state = of_store(store)
    if as_json:
        _print_json({"checkpoint": state.hash, "concepts": state.concepts, "relations": state.relations})
    else:
        echo(str(state))


@_command("import")
def import_(
    file: Annotated[str, typer.Argument(help="A .0c (L2) export or delta, or a JSON export; - reads stdin.")],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
) -> None:
    """Load an export into the store, all or nothing; a delta applies only on its base checkpoint."""
    from zerolang.knowledge.formats.checkpoint import of_store
    from zerolang.memory.upkeep import import_text
    from zerolang.util.files import read_stdin_text, read_text

    text = read_stdin_text() if file == STDIN else read_text(file)
    name = NAME if file == STDIN else file
    with opened_or_undone(db, space=space) as store:  # a refused import leaves no new store behind
        kind, relations = import_text(store, text, name)
        state = of_store(store)
    echo(f"Imported {name} ({kind}, {_plural(relations, 'relation')}); checkpoint {state}")


# ---- migrate, grant (zerolang.storage.copy, the PostgreSQL backend) ----------------------


@_command("migrate")
def migrate(
    source: Annotated[
        str, typer.Argument(help="The store to copy from: a SQLite file or a URL.", metavar="FROM")
    ],
    target: Annotated[str, typer.Argument(help="The store to copy to (created if missing).", metavar="TO")],
    space: Annotated[str | None, option(ONLY_SPACE)] = None,
) -> None:
    """Copy a whole store, or one space, to another store or backend; the checkpoints come out equal.

    Rerunning an interrupted copy completes it without duplicates.
    """
    from zerolang.knowledge.formats.checkpoint import of_store
    from zerolang.memory.opening import copy_memory

    with (
        open_memory_store(source, create=False) as origin,
        open_memory_store(target, create=True) as destination,
        origin.snapshot(),  # the copy and the checkpoints it is compared with: one state of the source
    ):
        if sys.stderr.isatty():
            copies = _copy_with_progress(origin, destination, space)
        else:
            copies = copy_memory(origin, destination, space=space, seen=None)
        for copy in copies:
            before = of_store(origin.in_space(copy.space))
            after = of_store(destination.in_space(copy.space))
            status = "ok" if before.matches(after) else "MISMATCH"
            echo(
                f"{copy.space}: {_plural(copy.records, 'record')},"
                f" {_plural(copy.new_episodes, 'new episode')}, {copy.pruned} pruned;"
                + (f" {_plural(copy.summaries, 'index row')};" if copy.summaries else "")
                + f" checkpoint {after.hash[:12]} {status}"
            )
            if status != "ok":
                raise typer.Exit(1)
        if not copies:
            echo(f"{origin.path}: nothing to copy")


def _copy_with_progress(origin: MemoryStore, destination: MemoryStore, space: str | None) -> list[SpaceCopy]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from zerolang.memory.opening import CopyProgress, copy_memory

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def seen(state: CopyProgress) -> None:
            if state.space not in tasks:
                tasks[state.space] = bar.add_task(f"copying {state.space}", total=state.total)
            bar.update(tasks[state.space], completed=state.done)

        return copy_memory(origin, destination, space=space, seen=seen)


@_command("grant")
def grant(
    role: Annotated[str, typer.Argument(help="A PostgreSQL role.", metavar="ROLE")],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
) -> None:
    """Let a PostgreSQL role read and write one space (row-level security keeps it out of the others)."""
    from zerolang.util.errors import ZeroError

    with open_memory_store(db, create=True, space=space) as store:
        grant_space = getattr(store.backend, "grant_space", None)
        if grant_space is None:
            raise ZeroError(f"{store.path}: spaces are per role on PostgreSQL only (--db postgresql://...)")
        grant_space(role, space)
        path = store.path
    echo(f"{role} may read and write space {space} in {path}")
