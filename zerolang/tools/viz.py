"""A graph as a picture: Mermaid flowchart text and Graphviz DOT text, from the syntax tree.

Pure functions over a parsed graph that need not be valid: a picture helps
most when something is wrong, so unknown node types and ops are drawn in red
and a reference to a node that does not exist gets a dashed red placeholder.

What is drawn: one node per graph node, labelled with its id and its op (an
`Operation`) or its type; an edge from each input to its reader, labelled
with the field for a `node.field` reference; a dashed edge for what a
`Route`'s conditions or a `Permission` read without listing it in `inputs`
(`zerolang.syntax.dependencies.implicit_reads`); a double, thick border on the
nodes named in `outputs`. Node ids become `n0`, `n1`, ... in the text,
because a `.0` id may hold characters neither format allows in an id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zerolang.runtime.catalog import NODE_TYPES, OPS
from zerolang.syntax.ast import Graph
from zerolang.syntax.dependencies import implicit_reads, input_references, reference_target
from zerolang.util.escapes import escaped_lines, json_text

__all__ = ["Drawing", "DrawnEdge", "DrawnNode", "drawing", "to_dot", "to_mermaid"]

UNKNOWN = "unknown"  # a node type or op the runtime does not have
MISSING = "missing"  # a referenced id that no node has


@dataclass(slots=True)
class DrawnNode:
    key: str  # the id in the drawing: n0, n1, ...
    title: str  # the node's id, or a placeholder when it has none
    detail: str  # its op or type, as shown under the id
    kind: str  # a node type of the catalog, UNKNOWN or MISSING
    outputs: list[str] = field(default_factory=list)  # "" for the whole value, else a field

    @property
    def is_output(self) -> bool:
        return bool(self.outputs)

    def lines(self) -> list[str]:
        lines = [self.title, self.detail]
        if self.outputs:
            fields = [name for name in self.outputs if name]
            whole = "" in self.outputs
            shown = ["value"] * whole + [f".{name}" for name in fields]
            lines.append("output" if shown == ["value"] else "output: " + ", ".join(shown))
        return lines


@dataclass(frozen=True, slots=True)
class DrawnEdge:
    source: str
    target: str
    label: str | None = None
    implicit: bool = False


@dataclass(slots=True)
class Drawing:
    """What both formats draw, worked out once."""

    name: str | None
    nodes: list[DrawnNode]
    edges: list[DrawnEdge]


def _detail(node_type: str | None, op: str | None) -> tuple[str, str]:
    """The line under the id, and the kind that colours the node."""
    if node_type is None:
        return "(no type)", UNKNOWN
    if node_type not in NODE_TYPES:
        return f"{node_type} (unknown type)", UNKNOWN
    if node_type == "Operation":
        if op is None:
            return "Operation (no op)", UNKNOWN
        if op not in OPS:
            return f"{op} (unknown op)", UNKNOWN
        return op, node_type
    return node_type, node_type


def drawing(graph: Graph) -> Drawing:
    """Nodes, edges and output marks of `graph`, in source order."""
    nodes: list[DrawnNode] = []
    by_id: dict[str, DrawnNode] = {}
    for index, node in enumerate(graph.nodes):
        detail, kind = _detail(node.type, node.op)
        drawn = DrawnNode(f"n{index}", node.id if node.id is not None else "(no id)", detail, kind)
        nodes.append(drawn)
        if node.id is not None:
            by_id.setdefault(node.id, drawn)  # a duplicate id: references go to the first

    def resolve(node_id: str) -> DrawnNode:
        found = by_id.get(node_id)
        if found is None:
            found = DrawnNode(f"n{len(nodes)}", node_id, "(no such node)", MISSING)
            nodes.append(found)
            by_id[node_id] = found
        return found

    edges: list[DrawnEdge] = []
    known = set(by_id)
    for node, drawn in zip(graph.nodes, list(nodes), strict=True):
        listed: set[str] = set()
        for reference in input_references(node):
            target = reference_target(reference.value)
            listed.add(target)
            _, dot, path = reference.value.partition(".")
            edges.append(DrawnEdge(resolve(target).key, drawn.key, path if dot else None))
        for read in implicit_reads(node, known):
            if read.value not in listed:
                listed.add(read.value)
                label = "condition" if node.type == "Route" else "confidence"
                edges.append(DrawnEdge(by_id[read.value].key, drawn.key, label, implicit=True))
    for output in graph.outputs:
        target = reference_target(output)
        _, dot, path = output.partition(".")
        marks = resolve(target).outputs
        if (path if dot else "") not in marks:
            marks.append(path if dot else "")
    return Drawing(graph.name_value, nodes, edges)


# ---- Mermaid ---------------------------------------------------------------

_MERMAID_STYLES = {
    "External": "fill:#e8f5e9,stroke:#2e7d32,color:#1b5e20",
    "Constant": "fill:#f5f5f5,stroke:#757575,color:#212121",
    "Operation": "fill:#e3f2fd,stroke:#1565c0,color:#0d47a1",
    "Lookup": "fill:#f3e5f5,stroke:#6a1b9a,color:#4a148c",
    "Route": "fill:#fff8e1,stroke:#f9a825,color:#5d4037",
    "Permission": "fill:#fff3e0,stroke:#ef6c00,color:#5d4037",
    UNKNOWN: "fill:#ffebee,stroke:#c62828,color:#b71c1c,stroke-width:2px",
    MISSING: "fill:#ffffff,stroke:#c62828,color:#b71c1c,stroke-dasharray:5 5",
    "output": "stroke-width:4px",
}
_MERMAID_SHAPES = {
    "External": ('[/"', '"/]'),
    "Constant": ('("', '")'),
    "Lookup": ('[["', '"]]'),
    "Route": ('{{"', '"}}'),
    "Permission": ('{{"', '"}}'),
}
# Mermaid reads `#name;` as an entity, `<...>` as HTML and a leading backtick as Markdown.
_MERMAID_ESCAPES = {
    "#": "#35;",
    '"': "#quot;",
    "<": "#lt;",
    ">": "#gt;",
    "&": "#amp;",
    "`": "#96;",
    "\r": "",
}


def mermaid_text(text: str) -> str:
    """One line of a label, safe inside Mermaid's `"..."`; a newline becomes a line break.

    Ids and values are user data: a control character or bidi override is drawn as its escape
    (`\\x1b`), never written raw (`zerolang.util.escapes.escaped`).
    """
    text = escaped_lines(text.replace("\r", ""), exact=False)
    escaped = "".join(_MERMAID_ESCAPES.get(character, character) for character in text)
    return escaped.replace("\n", "<br/>")


def _mermaid_class(kind: str) -> str:
    return kind.lower()


def to_mermaid(graph: Graph) -> str:
    """A Mermaid flowchart: paste it into Markdown on GitHub or GitLab as a ```mermaid block."""
    drawn = drawing(graph)
    lines: list[str] = []
    if drawn.name is not None:
        lines += ["---", f"title: {json_text(drawn.name, indent=None)}", "---"]
    lines.append("flowchart TB")
    for node in drawn.nodes:
        opening, closing = _MERMAID_SHAPES.get(node.kind, ('["', '"]'))
        label = "<br/>".join(mermaid_text(line) for line in node.lines())
        lines.append(f"    {node.key}{opening}{label}{closing}")
    for edge in drawn.edges:
        arrow = "-.->" if edge.implicit else "-->"
        label = f'|"{mermaid_text(edge.label)}"|' if edge.label is not None else ""
        lines.append(f"    {edge.source} {arrow}{label} {edge.target}")
    classes: dict[str, list[str]] = {}
    for node in drawn.nodes:
        classes.setdefault(_mermaid_class(node.kind), []).append(node.key)
        if node.is_output:
            classes.setdefault("output", []).append(node.key)
    for kind, style in _MERMAID_STYLES.items():
        name = _mermaid_class(kind)
        if name in classes:
            lines.append(f"    classDef {name} {style}")
            lines.append(f"    class {','.join(classes[name])} {name}")
    return "\n".join(lines) + "\n"


# ---- Graphviz DOT ----------------------------------------------------------

_DOT_STYLES: dict[str, dict[str, str]] = {
    "External": {"shape": "parallelogram", "fillcolor": "#e8f5e9", "color": "#2e7d32"},
    "Constant": {"shape": "box", "style": "filled,rounded", "fillcolor": "#f5f5f5", "color": "#757575"},
    "Operation": {"shape": "box", "fillcolor": "#e3f2fd", "color": "#1565c0"},
    "Lookup": {"shape": "tab", "fillcolor": "#f3e5f5", "color": "#6a1b9a"},
    "Route": {"shape": "hexagon", "fillcolor": "#fff8e1", "color": "#f9a825"},
    "Permission": {"shape": "octagon", "fillcolor": "#fff3e0", "color": "#ef6c00"},
    UNKNOWN: {"shape": "box", "fillcolor": "#ffebee", "color": "#c62828", "fontcolor": "#b71c1c"},
    MISSING: {
        "shape": "box",
        "style": "filled,dashed",
        "fillcolor": "#ffffff",
        "color": "#c62828",
        "fontcolor": "#b71c1c",
    },
}


def dot_string(text: str) -> str:
    """A DOT double-quoted string; a newline in `text` becomes a centred line break.

    A control character or bidi override is drawn as its escape (`\\x1b`), as in `mermaid_text`.
    """
    escaped = (
        escaped_lines(text.replace("\r", ""), exact=False)
        .replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\r", "")
    )
    return '"' + escaped.replace("\n", "\\n") + '"'


def _dot_attributes(attributes: dict[str, str]) -> str:
    return ", ".join(f"{name}={dot_string(value)}" for name, value in attributes.items())


def to_dot(graph: Graph) -> str:
    """Graphviz DOT: `dot -Tsvg` draws it."""
    drawn = drawing(graph)
    lines = [f"digraph {dot_string(drawn.name or 'graph')} {{"]
    lines.append('    graph [rankdir="TB", fontname="Helvetica", nodesep="0.25", ranksep="0.5"];')
    if drawn.name is not None:
        lines.append(f'    graph [label={dot_string(drawn.name)}, labelloc="t", fontsize="18"];')
    lines.append('    node [fontname="Helvetica", fontsize="11", style="filled", margin="0.12,0.04"];')
    lines.append('    edge [fontname="Helvetica", fontsize="10", color="#555555", fontcolor="#333333"];')
    for node in drawn.nodes:
        attributes = {"label": "\n".join(node.lines()), **_DOT_STYLES[node.kind]}
        if node.is_output:
            attributes |= {"peripheries": "2", "penwidth": "2"}
        lines.append(f"    {node.key} [{_dot_attributes(attributes)}];")
    for edge in drawn.edges:
        attributes = {}
        if edge.label is not None:
            attributes["label"] = edge.label
        if edge.implicit:
            attributes["style"] = "dashed"
        suffix = f" [{_dot_attributes(attributes)}]" if attributes else ""
        lines.append(f"    {edge.source} -> {edge.target}{suffix};")
    lines.append("}")
    return "\n".join(lines) + "\n"
