"""One `.0` document understood: its graph (when it parses), its findings, and where every node id is.

Node ids are the document's symbols: defined by a node's `id`, used in `inputs`
(the part before the first `.`), in `outputs` and in a Route condition's
`input`. Occurrences are offsets of the id itself, inside the quotes, so a
rename replaces just the name and keeps `intent.kind` pointing at the new id.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from zerolang.lsp import adapter
from zerolang.lsp.outline import Outline
from zerolang.lsp.positions import LineIndex
from zerolang.syntax.ast import Array, Entry, Graph, Map, Node, String, Value
from zerolang.syntax.dependencies import reference_target


class Cancelled(Exception):
    """An analysis stopped at a checkpoint because a newer text of its document arrived.

    `remains` holds what it had made so far, for the worker to drop a piece at a time
    (`zerolang.util.release`) rather than with the stack.
    """

    def __init__(self, uri: str) -> None:
        super().__init__(uri)
        self.remains: list[object] = []


def _go_on() -> None:
    """The checkpoint of an analysis nothing can cancel."""


class Role(StrEnum):
    DEFINITION = "definition"
    INPUT = "input"
    OUTPUT = "output"
    CONDITION = "condition"


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A node id written somewhere: `start`/`end` are code-point offsets of the id's characters."""

    name: str
    start: int
    end: int
    role: Role
    node: Node | None = None


@dataclass(slots=True)
class Analysis:
    """What the server knows about one version of a `.0` document."""

    source: str
    path: str | None
    lines: LineIndex
    graph: Graph | None
    findings: list[adapter.Finding]
    occurrences: list[Occurrence] = field(default_factory=list)
    outline: Outline | None = None  # where its nodes start: completion reads from there
    config: adapter.ConfigProblem | None = None  # its [tool.zero] could not be used: checked with defaults
    _definitions: dict[str, Occurrence] | None = None  # made once (`index`), not per request
    _by_name: dict[str, list[Occurrence]] | None = None

    def index(self) -> Analysis:
        """Index the occurrences by name once (the worker does, so no request pays for it); itself."""
        if self._by_name is None:
            definitions: dict[str, Occurrence] = {}
            by_name: dict[str, list[Occurrence]] = {}
            for occurrence in self.occurrences:
                by_name.setdefault(occurrence.name, []).append(occurrence)
                if occurrence.role is Role.DEFINITION:
                    definitions.setdefault(occurrence.name, occurrence)
            self._definitions, self._by_name = definitions, by_name
        return self

    def definitions(self) -> dict[str, Occurrence]:
        """Each id's first definition (the one the runtime uses)."""
        self.index()
        assert self._definitions is not None
        return self._definitions

    def at(self, offset: int) -> Occurrence | None:
        """The id occurrence under `offset` (its end counts, for a cursor just after the name)."""
        index = bisect_left(self.occurrences, offset, key=lambda occurrence: occurrence.end)
        for occurrence in self.occurrences[index : index + 2]:
            if occurrence.start <= offset <= occurrence.end:
                return occurrence
        return None

    def named(self, name: str) -> list[Occurrence]:
        self.index()
        assert self._by_name is not None
        return list(self._by_name.get(name, ()))


def analyse(
    source: str, path: str | None, encoding: str = "utf-16", checkpoint: Callable[[], None] = _go_on
) -> Analysis:
    """Parse, check and index `source`; text that does not parse has one finding and no graph.

    `checkpoint` is called between the steps; it raises `Cancelled` to stop a stale analysis.
    """
    checkpoint()
    lines = LineIndex(source, encoding)
    problem = adapter.checked_settings(path)[1]
    try:
        graph = adapter.parse(source, path)
    except adapter.ZeroError as error:
        return Analysis(source, path, lines, None, [adapter.syntax_finding(error, path)], config=problem)
    made: list[object] = [graph]
    try:
        checkpoint()
        findings = adapter.lint_graph(graph, source, path)
        made.append(findings)
        checkpoint()
    except Cancelled as stop:
        stop.remains = made
        raise
    found = occurrences(graph, source)
    ids = (occurrence.name for occurrence in found if occurrence.role is Role.DEFINITION)
    outline = Outline.of(graph, source, ids)
    analysis = Analysis(source, path, lines, graph, findings, found, outline, config=problem)
    return analysis.index()


def occurrences(graph: Graph, source: str) -> list[Occurrence]:
    found: list[Occurrence] = []
    for node in graph.nodes:
        node_id = node.get("id")
        if isinstance(node_id, String):
            found.extend(_name(node_id, node_id.value, source, Role.DEFINITION, node))
        inputs = node.get("inputs")
        if isinstance(inputs, Array):
            for item in inputs.items:
                if isinstance(item, String):
                    found.extend(_name(item, reference_target(item.value), source, Role.INPUT, node))
        conditions = node.get("conditions")
        if node.type == "Route" and isinstance(conditions, Array):
            for condition in conditions.items:
                if isinstance(condition, Map):
                    name = condition.get("input")
                    if isinstance(name, String):
                        found.extend(_name(name, name.value, source, Role.CONDITION, node))
    outputs = graph.get("outputs")
    if isinstance(outputs, Array):
        for item in outputs.items:
            if isinstance(item, String):
                found.extend(_name(item, reference_target(item.value), source, Role.OUTPUT, None))
    found.sort(key=lambda occurrence: occurrence.start)
    return found


def _name(value: String, name: str, source: str, role: Role, node: Node | None) -> list[Occurrence]:
    """Where `name` is written inside the literal `value` (after its opening quote, if quoted)."""
    start = value.span.start + (1 if source[value.span.start : value.span.start + 1] == '"' else 0)
    if not name or source[start : start + len(name)] != name:
        return []  # written with escapes: no plain range to point at
    return [Occurrence(name, start, start + len(name), role, node)]


@dataclass(frozen=True, slots=True)
class Place:
    """What the cursor is on: a key or a value, the key's entry, and where that entry sits.

    `where` is `graph`, `node`, `params`, `condition` or `other`; `node` is the
    node the place belongs to, if any.
    """

    on_key: bool
    entry: Entry | None
    value: Value | None
    where: str
    node: Node | None


def place(graph: Graph, offset: int) -> Place | None:
    """The innermost key or value at `offset`, with its context."""
    return _in_map(graph, offset, "graph", None)


def _contains(value: Value | Entry, offset: int) -> bool:
    return value.span.start <= offset <= value.span.end


def _in_map(container: Map, offset: int, where: str, node: Node | None) -> Place | None:
    for entry in container.entries:
        if entry.key_span.start <= offset <= entry.key_span.end:
            return Place(True, entry, None, where, node)
        if not _contains(entry.value, offset):
            continue
        inner = _in_value(entry.value, offset, _child_where(where, entry.key), node)
        return inner or Place(False, entry, entry.value, where, node)
    return None


def _child_where(where: str, key: str) -> str:
    if where == "graph" and key == "nodes":
        return "nodes"
    if where == "node" and key == "params":
        return "params"
    if where == "node" and key == "conditions":
        return "conditions"
    return "other"


def _in_value(value: Value, offset: int, where: str, node: Node | None) -> Place | None:
    if isinstance(value, Map):
        return _in_map(value, offset, where, node)
    if isinstance(value, Array):
        for item in value.items:
            if not _contains(item, offset):
                continue
            if where == "nodes" and isinstance(item, Node):
                return _in_map(item, offset, "node", item)
            if where == "conditions" and isinstance(item, Map):
                return _in_map(item, offset, "condition", node)
            return _in_value(item, offset, "other", node) or Place(False, None, item, where, node)
    return None
