"""The language server's one door into the toolchain: parsing, checks, fixes, formatting and the catalog.

Everything the server knows about `.0` and `.0c` comes through these functions,
so when the parser, the linter or the catalog of builtins change shape, this is
the one file to re-point. Nothing here knows about the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zerolang.runtime.catalog import (
    COMMON_FIELDS,
    CONDITION_FIELDS,
    FIELD_DOCS,
    GRAPH_FIELDS,
    NODE_TYPES,
    OP_ALIASES,
    OP_PARAMS,
    OPS,
    TYPE_ALIASES,
)
from zerolang.syntax.ast import Graph, Value
from zerolang.tools.lint.model import Finding, Fix
from zerolang.util import config
from zerolang.util.config import Settings, find_pyproject, settings_for
from zerolang.util.errors import ConfigError, Severity, ZeroError
from zerolang.util.suggest import suggest

__all__ = [
    "COMMON_FIELDS",
    "CONDITION_FIELDS",
    "GRAPH_FIELDS",
    "NODE_TYPES",
    "OPS",
    "ConfigProblem",
    "Finding",
    "Fix",
    "Severity",
    "ZeroError",
    "checked_settings",
    "compact_findings",
    "compact_outline",
    "field_doc",
    "find_pyproject",
    "fix_all",
    "format_key",
    "format_text",
    "lint_graph",
    "node_type_doc",
    "op_doc",
    "op_params",
    "param_doc",
    "parse",
    "print_graph",
    "print_value",
    "settings",
    "syntax_finding",
    "unknown_name_hint",
]

# The docs of keys, node types and ops have one home: zerolang.runtime.catalog and the @builtin registry.
NODE_FIELDS = FIELD_DOCS


_SEEN: dict[Path, float] = {}


@dataclass(frozen=True, slots=True)
class ConfigProblem:
    """A `[tool.zero]` setting that cannot be used: the file, its message, and where it is written
    (0-based line and column). The document is checked with the default settings meanwhile."""

    pyproject: Path
    message: str
    line: int
    column: int
    length: int = 1


def checked_settings(path: str | None) -> tuple[Settings, ConfigProblem | None]:
    """The `[tool.zero]` settings for a file (the nearest pyproject.toml), defaults when it has none, and
    what is wrong with them: a broken table or an unknown rule code gives the defaults and the problem,
    so one bad setting never stops the editor's checks.

    The config module reads each pyproject.toml once per process; a server runs
    for hours, so an edited pyproject.toml (a new mtime) is read again.
    """
    if not path:
        return Settings(), None
    pyproject = find_pyproject(Path(path).resolve())
    if pyproject is None:
        return Settings(), None
    try:
        mtime = pyproject.stat().st_mtime
    except OSError:
        mtime = 0.0
    if _SEEN.setdefault(pyproject, mtime) != mtime:
        _SEEN[pyproject] = mtime
        config._load.cache_clear()
    from zerolang.tools.lint.selection import check_codes

    try:
        found = settings_for(Path(path))
        check_codes(found)
    except ConfigError as error:
        line, column = config.locate(pyproject, error)
        message = error.message.removeprefix(f"{pyproject}: ")
        length = len(error.value or (error.key[-1] if error.key else "")) or 1
        return Settings(), ConfigProblem(pyproject, message, line, column, length)
    return found, None


def settings(path: str | None) -> Settings:
    """The settings that apply to a file: the defaults when its `[tool.zero]` has a problem."""
    return checked_settings(path)[0]


def parse(source: str, path: str | None) -> Graph:
    """The graph with every element's span; raises `ZeroSyntaxError` (a `ZeroError`)."""
    from zerolang.syntax.parser import parse as parse_graph

    return parse_graph(source, path)


def lint_graph(graph: Graph, source: str, path: str | None) -> list[Finding]:
    """The validator's and the linter's findings (those the file's settings enable), with their fixes."""
    from zerolang.tools.lint import lint_graph as run_rules

    return run_rules(graph, source, path, settings(path))


def syntax_finding(error: ZeroError, path: str | None) -> Finding:
    from zerolang.tools.lint.linter import syntax_finding as make

    return make(error, path)


def fix_all(source: str, path: str | None) -> str:
    """The source with every safe fix applied (the text unchanged when there is none)."""
    from zerolang.tools.lint import fix_source

    return fix_source(source, path, settings(path)).source


def compact_findings(source: str, path: str | None) -> list[Finding]:
    """The `.0c` checks (dangling references, duplicates, bad numbers, syntax)."""
    from zerolang.tools.lint.compact import findings
    from zerolang.tools.lint.selection import enabled_codes

    return findings(source, path, enabled_codes(settings(path), Path(path) if path else None))


def format_text(source: str, path: str | None) -> str:
    """`zero fmt` of a `.0` or `.0c` document; raises `ZeroError` when it cannot be formatted."""
    if path is not None and path.endswith(".0c"):
        from zerolang.knowledge.formats.compact import format_text as format_compact
        from zerolang.tools.lint.compact import level

        if level(source) != "L2":
            return source  # an L0 or L1 export has no other form (as `zero fmt` keeps it)
        return format_compact(source, path)
    from zerolang.tools.formatter import format_source

    return format_source(source, path, width=settings(path).line_width)


def print_graph(graph: Graph, path: str | None) -> str:
    """The canonical text of a whole graph, at the file's line width."""
    from zerolang.syntax.printer import print_graph as print_canonical

    return print_canonical(graph, width=settings(path).line_width)


def format_key(key: str) -> str:
    """A key as the printer writes it: bare when it is an identifier, else quoted."""
    from zerolang.syntax.printer import format_key as canonical_key

    return canonical_key(key)


def print_value(value: Value, level: int, key: str | None, path: str | None) -> str:
    """One value in the canonical style, as the formatter would print it at indent `level`."""
    from zerolang.syntax.printer import INDENT, _Printer

    width = settings(path).line_width
    room = width - len(INDENT) * level - (len(key) + 2 if key else 0) - 1
    return _Printer(width).value(value, level, key, room)


@dataclass(frozen=True, slots=True)
class CompactEntry:
    """A numbered concept of a `.0c` document, or one of its contexts, and the line it is on (from 1)."""

    kind: str
    number: int
    label: str
    line: int


@dataclass(frozen=True, slots=True)
class CompactReference:
    """A concept number in a relation line: 1-based line and column of its first digit."""

    number: int
    line: int
    column: int
    length: int


@dataclass(frozen=True, slots=True)
class CompactOutline:
    concepts: list[CompactEntry]
    contexts: list[CompactEntry]
    references: list[CompactReference]


def compact_outline(source: str) -> CompactOutline:
    """The concepts, contexts and concept numbers of an L2 or L1 `.0c` document, as far as it reads."""
    import re

    from zerolang.knowledge.formats.compact import scan
    from zerolang.tools.lint.compact import level

    if level(source) == "L0":
        return CompactOutline([], [], [])
    reader, _ = scan(source)
    concepts = [
        CompactEntry("concept", number, label, line)
        for number, ((label, *_), line) in enumerate(
            zip(reader.concepts, reader.places["concept"], strict=False), 1
        )
    ]
    contexts = [
        CompactEntry("context", number, f"{node.meta.source} {node.meta.scope}", line)
        for number, ((node, _, _), line) in enumerate(
            zip(reader.contexts, reader.places["context"], strict=False), 1
        )
    ]
    references: list[CompactReference] = []
    lines = source.split("\n")
    subject = re.compile(r"(\d+) ")
    obj = re.compile(r"(\d+)(?=\s|;|$)")
    seen_lines: set[int] = set()
    for number, _, object_number, _, _, _, (line, column) in reader.relations:
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if line not in seen_lines:
            seen_lines.add(line)
            head = subject.match(text)
            if head is not None:
                references.append(CompactReference(number, line, 1, len(head.group(1))))
        found = obj.search(text, column - 1)
        if found is not None and int(found.group(1)) == object_number:
            references.append(CompactReference(object_number, line, found.start(1) + 1, len(found.group(1))))
    return CompactOutline(concepts, contexts, references)


def node_type_doc(name: str) -> str | None:
    node_type = NODE_TYPES.get(name)
    if node_type is None:
        return None
    fields = ", ".join(f"`{field}`" for field in node_type.required)
    optional = ", ".join(f"`{field}`" for field in node_type.optional)
    text = f"**{name}** (node type)\n\n{node_type.doc}\n\nFields: {fields}"
    return text + (f"; optional {optional}" if optional else "")


def op_params(op: str) -> tuple[str, ...]:
    return OP_PARAMS.get(op, ())


def op_doc(name: str) -> str | None:
    """The builtin's documentation (from its @builtin definition) and the params it reads, as markdown."""
    from zerolang.runtime.builtins import OPERATIONS

    op = OPERATIONS.get(name)
    if op is None:
        return None
    text = f"**{name}** (op)\n\n`{op.signature}`\n\n{op.doc}"
    if op.params:
        text += "\n\nParams: " + ", ".join(f"`{param.name}`" for param in op.params if param.name != "*")
    aliases = sorted(alias for alias, target in OP_ALIASES.items() if target == name)
    if aliases:
        text += "\n\nOften miswritten as " + ", ".join(f"`{alias}`" for alias in aliases)
    return text


def param_doc(op: str, param: str) -> str | None:
    from zerolang.tools import opdocs

    said = opdocs.param_doc(op, param)
    if said is not None:
        return said
    reads = op_params(op)
    listed = ", ".join(f"`{name}`" for name in reads) if reads else "no params"
    return f"`{param}`: `{op}` does not read this param (it reads {listed})"


def field_doc(key: str, where: str, node_type: str | None = None) -> str | None:
    """A key's meaning where it is written: `graph`, `node` or `condition`."""
    table = {"graph": GRAPH_FIELDS, "node": NODE_FIELDS, "condition": CONDITION_FIELDS}.get(where, {})
    text = table.get(key)
    if text is None:
        return None
    if where == "node" and node_type in NODE_TYPES:
        required = NODE_TYPES[node_type].required
        if key in required:
            text += f" Required for `{node_type}`."
    return f"`{key}` ({where} field)\n\n{text}"


def unknown_name_hint(name: str, kind: str) -> str | None:
    """What an unknown op or node type most likely meant."""
    if kind == "op":
        return suggest(name, OPS, OP_ALIASES)
    return suggest(name, list(NODE_TYPES), TYPE_ALIASES)
