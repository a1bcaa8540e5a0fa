"""What `zero memory export/import/checkpoint` do, without the CLI: store <-> text in every format."""

from __future__ import annotations

from enum import StrEnum

from zerolang.errors import ZeroError
from zerolang.formats import checkpoint as checkpoints
from zerolang.formats import delta as deltas
from zerolang.formats import jsonform
from zerolang.formats.compact import parse
from zerolang.formats.levels import Level, level_of, render
from zerolang.formats.model import Snapshot, read_store, write_store
from zerolang.memory.store import MemoryStore


class Format(StrEnum):
    ZERO = "0"
    COMPACT = "0c"
    JSON = "json"


def export(store: MemoryStore, form: Format, level: Level = Level.L2, since: str | None = None) -> str:
    """The store (or what it gained since checkpoint `since`) as text."""
    if level is not Level.L2 and (form is not Format.COMPACT or since is not None):
        raise ZeroError(f"--level {level} is a .0c view of the whole memory: use --format 0c without --since")
    if since is not None:
        if form is not Format.COMPACT:
            raise ZeroError("a delta (--since) is written as .0c: use --format 0c")
        return deltas.since(store, checkpoints.parse_checkpoint(since)).to_text()
    snapshot = read_store(store)
    if form is Format.JSON:
        return jsonform.dumps(snapshot)
    if form is Format.ZERO:
        return verbose(snapshot)
    return render(snapshot, level)


def verbose(snapshot: Snapshot) -> str:
    """The memory compiler's `.0` graph of each context's record, one after another (not importable)."""
    from zerolang.memory.compiler import build_graph
    from zerolang.printer import print_graph

    return "\n".join(print_graph(build_graph(record)) for record in snapshot.to_records())


def import_text(store: MemoryStore, text: str, name: str) -> tuple[str, int]:
    """Load an L2 `.0c` document, a `.0c` delta (on its base) or a JSON export; (what it was, relations)."""
    form = import_format(text, name)
    if form is Format.JSON:
        snapshot = jsonform.loads(text, name)
        write_store(store, snapshot)
        return "JSON export", len(snapshot.relations)
    if deltas.is_delta(text):
        delta = deltas.parse_delta(text, name)
        deltas.apply(store, delta)
        return f"delta on {delta.base[:12]}", len(delta.additions.relations)
    level = level_of(text)
    if level is not Level.L2:
        raise ZeroError(f"{name}: an {level} document leaves information out; import an L2 (.0c) export")
    snapshot = parse(text, name)
    write_store(store, snapshot)
    return ".0c document", len(snapshot.relations)


def import_format(text: str, name: str) -> Format:
    """What an import reads, from the file's name, else (stdin, another suffix) from its first line.

    Never from anything further in: a `.0c` label may begin with `Graph {` or `{`. A `.0` file
    (a graph) is refused: it holds neither aliases nor times.
    """
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name.rsplit("/", 1)[-1] else ""
    if suffix == "json":
        return Format.JSON
    if suffix == "0c":
        return Format.COMPACT
    if suffix == "0":
        raise ZeroError(f"{name}: a .0 graph does not hold aliases or times; import .0c or JSON")
    first = next((line for line in text.split("\n") if line.strip() and not line.startswith("#")), "")
    first = first.lstrip("\ufeff").lstrip()
    if first.startswith("0M:"):
        return Format.COMPACT
    if first.startswith("{"):
        return Format.JSON
    if first.startswith("Graph"):
        raise ZeroError(f"{name}: a .0 graph does not hold aliases or times; import .0c or JSON")
    raise ZeroError(
        f"{name}: not a memory export: a .0c document starts with `0M:1.0` or `0M:1.1`, "
        "a JSON export with `{`"
    )
