"""Everything a rule may look at for one graph, computed once and shared by every rule."""

from __future__ import annotations

from bisect import bisect_right
from functools import cached_property

from zerolang.runtime.validator import validate
from zerolang.syntax.ast import Array, Graph, Node, Span, String
from zerolang.tools.lint.shapes import Shapes
from zerolang.util.errors import Diagnostic
from zerolang.util.suggest import Suggester


class Context:
    """One parsed graph, its source and the validator's diagnostics.

    `by_id` maps each node id to its first node, as the runtime would see it
    (a second node with the same id is the validator's Z006).
    """

    def __init__(self, graph: Graph, source: str, path: str | None = None) -> None:
        self.graph = graph
        self.source = source
        self.path = path
        self.diagnostics: list[Diagnostic] = validate(graph, path)
        self.nodes: list[Node] = graph.nodes
        self.by_id: dict[str, Node] = {}
        for node in self.nodes:
            node_id = node.id
            if node_id is not None:
                self.by_id.setdefault(node_id, node)

    def diagnostics_for(self, code: str) -> list[Diagnostic]:
        return [diagnostic for diagnostic in self.diagnostics if diagnostic.code == code]

    def node_at(self, span: Span | None) -> Node | None:
        """The node whose text contains `span`, for attaching a fix to a validator diagnostic."""
        if span is None:
            return None
        index = bisect_right(self._starts, span.start) - 1
        if index < 0:
            return None
        node = self.nodes[index]
        return node if span.start < node.span.end else None

    @cached_property
    def _starts(self) -> list[int]:
        return [node.span.start for node in self.nodes]

    @property
    def outputs(self) -> Array | None:
        value = self.graph.get("outputs")
        return value if isinstance(value, Array) else None

    @cached_property
    def shapes(self) -> Shapes:
        return Shapes(self.by_id)

    @cached_property
    def meant(self) -> Suggester:
        """The node id a misspelt one most likely meant (`util.suggest`, indexed once per graph)."""
        return Suggester(self.by_id)


def id_span(node: Node) -> Span:
    """Where to point at a node as a whole: its id, else its opening brace."""
    value = node.get("id")
    if isinstance(value, String):
        return value.span
    return head(node.span)


def head(span: Span) -> Span:
    """The first character of an element."""
    return Span(span.line, span.column, span.line, span.column + 1, span.start, span.start + 1)
