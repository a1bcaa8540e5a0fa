"""What `zero memory export/import/checkpoint` do, without the CLI: store <-> text in every format."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from zerolang.knowledge.formats import checkpoint as checkpoints
from zerolang.knowledge.formats import delta as deltas
from zerolang.knowledge.formats import jsonform
from zerolang.knowledge.formats.compact import parse
from zerolang.knowledge.formats.levels import Level, level_of, render
from zerolang.knowledge.formats.model import Snapshot, read_store, write_store
from zerolang.knowledge.store import MemoryStore
from zerolang.util.errors import ZeroError

if TYPE_CHECKING:
    from zerolang.syntax.ast import Node


class Format(StrEnum):
    ZERO = "0"
    COMPACT = "0c"
    JSON = "json"


def export(store: MemoryStore, form: Format, level: Level = Level.L2, since: str | None = None) -> str:
    """The store (or what it gained since checkpoint `since`) as text.

    A damaged store (a row edited or deleted by hand) is a ZeroError pointing at
    `zero memory check`, never a crash.
    """
    from zerolang.knowledge.types import InputError

    try:
        with store.snapshot():  # one state: a write committing meanwhile is not half exported
            return _export(store, form, level, since)
    except ZeroError as error:
        if not isinstance(error, InputError):  # a stored row that is not a valid node: damage too
            raise
        raise ZeroError(
            f"{store.path}: cannot export a damaged store ({error}); `zero memory check` lists what is wrong"
        ) from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, UnicodeError) as error:
        raise ZeroError(
            f"{store.path}: cannot export a damaged store ({type(error).__name__}: {error});"
            " `zero memory check` lists what is wrong"
        ) from None


def _export(store: MemoryStore, form: Format, level: Level, since: str | None) -> str:
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
    """One `.0` graph holding the memory compiler's graph of each context's record (not importable).

    Record `i`'s nodes keep their ids behind an `r{i}_` prefix (their references
    follow), so the records sit side by side in one valid graph whose outputs
    are each record's `memory_record`: `zero check` accepts it, `zero run` runs it.
    """
    from zerolang.knowledge.compiler import OUTPUT, build_graph
    from zerolang.syntax.ast import Array, Comment, Entry, Graph, String, Value, from_python
    from zerolang.syntax.printer import print_graph

    nodes: list[Node] = []
    outputs: list[str] = []
    records = snapshot.to_records()
    for number, record in enumerate(records, start=1):
        prefix = f"r{number}_"
        nodes.extend(_prefixed(build_graph(record).nodes, prefix))
        outputs.append(prefix + OUTPUT)
    noun = "record" if len(records) == 1 else "records"
    graph = Graph(
        [
            Entry(key="name", value=String("memory_export")),
            Entry(key="version", value=from_python(1)),
            Entry(key="description", value=String(f"{len(records)} 0-memory {noun}, one per context.")),
            Entry(key="metadata", value=from_python({"format": "0-memory", "schema": "schema/schema.0"})),
            Entry(key="nodes", value=Array(items=list[Value](nodes)), blank_before=True),
            Entry(key="outputs", value=from_python(outputs)),
        ],
        leading=[
            Comment(" `zero memory export --format 0`: the memory compiler's graph of every record, in one"),
            Comment(" graph; record N's nodes are named rN_... Run it with `zero run FILE --json`."),
        ],
    )
    return print_graph(graph)


def _prefixed(nodes: list[Node], prefix: str) -> list[Node]:
    """The nodes with `prefix` before every id and every reference to one (inputs, route conditions)."""
    from zerolang.syntax.ast import Array, Map, String

    for node in nodes:
        for entry in node.entries:
            value = entry.value
            if entry.key == "id" and isinstance(value, String):
                value.value = prefix + value.value
            elif entry.key == "inputs" and isinstance(value, Array):
                for item in value.items:
                    if isinstance(item, String):
                        item.value = prefix + item.value
            elif entry.key == "conditions" and isinstance(value, Array):
                for condition in value.items:
                    reference = condition.get("input") if isinstance(condition, Map) else None
                    if isinstance(reference, String):
                        reference.value = prefix + reference.value
    return nodes


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
