"""Document symbols: the graph and its nodes (`.0`); concepts and contexts (`.0c`)."""

from __future__ import annotations

from lsprotocol import types

from zerolang.lsp import adapter
from zerolang.lsp.analysis import Analysis
from zerolang.lsp.positions import LineIndex

_KINDS = {
    "External": types.SymbolKind.Variable,
    "Constant": types.SymbolKind.Constant,
    "Operation": types.SymbolKind.Function,
    "Lookup": types.SymbolKind.Struct,
    "Route": types.SymbolKind.Enum,
    "Permission": types.SymbolKind.Key,
}


def graph_symbols(analysis: Analysis) -> list[types.DocumentSymbol]:
    graph = analysis.graph
    if graph is None:
        return []
    lines = analysis.lines
    definitions = analysis.definitions()
    children = []
    for node in graph.nodes:
        node_id = node.id
        found = definitions.get(node_id) if node_id is not None else None
        if node_id is None or found is None or found.node is not node:
            continue
        kind = node.type or "?"
        detail = f"{kind} {node.op}" if kind == "Operation" and node.op else kind
        children.append(
            types.DocumentSymbol(
                name=node_id,
                detail=detail,
                kind=_KINDS.get(kind, types.SymbolKind.Object),
                range=lines.range(node.span.start, node.span.end),
                selection_range=lines.range(found.start, found.end),
            )
        )
    name = graph.name_value or "Graph"
    head = lines.range(graph.span.start, graph.span.start + len("Graph"))
    return [
        types.DocumentSymbol(
            name=name,
            detail=f"Graph, {len(graph.nodes)} nodes",
            kind=types.SymbolKind.Module,
            range=lines.range(graph.span.start, graph.span.end),
            selection_range=head,
            children=children,
        )
    ]


def compact_symbols(source: str, encoding: str = "utf-16") -> list[types.DocumentSymbol]:
    lines = LineIndex(source, encoding)
    outline = adapter.compact_outline(source)
    symbols = []
    for entry in [*outline.contexts, *outline.concepts]:
        text = lines.line_text(entry.line - 1)
        whole = lines.range(lines.line_column(entry.line, 1), lines.line_column(entry.line, len(text) + 1))
        symbols.append(
            types.DocumentSymbol(
                name=entry.label if entry.kind == "context" else f"{entry.number} {entry.label}",
                detail=entry.kind,
                kind=types.SymbolKind.Namespace if entry.kind == "context" else types.SymbolKind.Object,
                range=whole,
                selection_range=whole,
            )
        )
    symbols.sort(key=lambda symbol: symbol.range.start.line)
    return symbols
