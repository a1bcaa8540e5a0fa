"""Z003: an op the runtime does not have, renamed when only one builtin can be meant."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from zerolang.runtime.catalog import LOOSE_ALIASES, OP_ALIASES, OPS
from zerolang.syntax.ast import Graph, Node
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import identifier, set_entry
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.UNKNOWN_OP, Severity.ERROR, Applicability.SAFE)
def unknown_op(context: Context) -> Iterator[Violation]:
    """An `op` that is not a builtin (`Eq`, `JsonParse`, `HttpGet`...; `zero ops` lists them).

    An unknown op stops the whole graph before it runs. Where the name is a
    known alias with the same meaning (`Eq` -> `Equals`, `Sha256` -> `Hash`), a
    different case (`equals`) or a misspelling close to exactly one builtin,
    the fix renames it. Aliases whose builtin takes other parameters
    (`StringFormat` -> `Concat`, `JsonGet` -> `GetField`) are only suggested.
    """
    for diagnostic in context.diagnostics_for(codes.UNKNOWN_OP.code):
        node = context.node_at(diagnostic.span)
        name = node.op if node is not None else None
        target = unambiguous_op(name) if name is not None else None
        fix = _rename(node, name, target) if node is not None and name and target else None
        yield Violation(diagnostic.message, diagnostic.span, fix)


def unambiguous_op(name: str) -> str | None:
    """The one builtin `name` can only mean, or None when it is unclear or loose."""
    if name in OP_ALIASES:
        return None if name in LOOSE_ALIASES else OP_ALIASES[name]
    by_case = [op for op in OPS if op.lower() == name.lower()]
    if by_case:
        return by_case[0]
    close = difflib.get_close_matches(name, OPS, n=2, cutoff=0.75)
    return close[0] if len(close) == 1 else None


def _rename(node: Node, name: str, target: str) -> Fix:
    def edit(graph: Graph) -> None:
        set_entry(node, "op", identifier(target))

    return Fix(f"rename `{name}` to `{target}`", edit, Applicability.SAFE, touches=(node,))
