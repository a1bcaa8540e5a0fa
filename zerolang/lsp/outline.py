"""Where a document's nodes start, from its last analysis: completion reads one node, not the text before it.

Completion works on text that may not parse (`zerolang.lsp.context` reads it character by
character). Read from the document's start, a cursor deep in a 20,000-node file costs a
scan of everything above it on every keystroke. The last analysis already knows where each
node starts; where the text has not changed since (before the first edited character), the
brackets open at a node's `{` are always the graph's `{` and the `nodes` list's `[`, so the
reading can start there.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from zerolang.lsp.context import Cursor, Frame, cursor_at
from zerolang.syntax.ast import Array, Graph


@dataclass(frozen=True, slots=True)
class Outline:
    """The offsets of the graph's `{`, its `nodes` list's `[` and each node's `{`, and the node ids in
    source order (each once), for one analysed text."""

    graph_start: int
    nodes_start: int
    node_starts: list[int]
    ids: list[str]

    @classmethod
    def of(cls, graph: Graph, source: str, ids: Iterable[str]) -> Outline | None:
        """The outline of a parsed graph; None when its brackets are not where the reading expects them."""
        nodes = graph.get("nodes")
        graph_start = source.find("{", graph.span.start)
        if (
            not isinstance(nodes, Array)
            or graph_start < 0
            or source[nodes.span.start : nodes.span.start + 1] != "["
        ):
            return None
        starts = [item.span.start for item in nodes.items]
        return cls(graph_start, nodes.span.start, starts, list(dict.fromkeys(ids)))

    def cursor(self, text: str, offset: int, unchanged: int) -> Cursor | None:
        """The cursor at `offset` in `text`, read from the `{` of the node before it; None when there is
        no such node, or it starts where `text` differs from the analysed text (at `unchanged` or after)."""
        index = bisect_left(self.node_starts, offset) - 1
        if index < 0:
            return None
        start = self.node_starts[index]
        if start >= unchanged or text[start : start + 1] != "{" or self.nodes_start >= unchanged:
            return None
        frames = [Frame("{", None, self.graph_start), Frame("[", "nodes", self.nodes_start)]
        cursor = cursor_at(text, offset, start, frames)
        # Outside a node (between nodes, after the list) the graph's keys would be missing: read it all.
        return cursor if len(cursor.frames) >= 3 else None
