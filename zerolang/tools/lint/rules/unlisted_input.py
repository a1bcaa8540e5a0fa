"""Z013: a node reads something that is not in its `inputs`."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.ast import Array, Entry, Graph, Node, String
from zerolang.syntax.dependencies import implicit_reads, input_references, reference_target
from zerolang.syntax.printer import quote
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import append_input, rename_key
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.UNLISTED_INPUT, Severity.WARNING, Applicability.UNSAFE)
def unlisted_input(context: Context) -> Iterator[Violation]:
    """A node reads something that is not listed in its `inputs`.

    Two forms. `input: "command"` (old files write it on `Lookup`): every
    runtime reads a node's inputs from `inputs` only, so that `Lookup` looks up
    no key at all (it answers its `default`, or the table's `""` entry); the
    fix rewrites it to `inputs: ["command"]`, an unsafe fix: the node then
    reads them, so what it computes changes (to what was meant). And a
    `Route` reading the nodes its conditions name, or a `Permission` reading
    `sender_confidence`, without listing them: the old runtime orders nodes by
    `inputs` alone, so they may not have run yet (a wrong route, the 0.5
    fallback). Ours orders them anyway; the fix lists them, which keeps the
    file correct on both.
    """
    for node in context.nodes:
        entry = node.entry("input")
        if entry is not None:
            yield _singular_input(node, entry)
        listed = {reference_target(reference.value) for reference in input_references(node)}
        for read in implicit_reads(node, context.by_id):
            if read.value not in listed:
                listed.add(read.value)
                yield _unlisted(node, read)


def _singular_input(node: Node, entry: Entry) -> Violation:
    article = "an" if (node.type or "")[:1] in "AEIOU" else "a"
    kind = f"{article} `{node.type}`" if node.type else "this node"
    if node.entry("inputs") is not None:
        message = f"`input` is never read: {kind} reads its inputs from `inputs`"
        return Violation(message, entry.key_span)
    message = f"{kind} reads its inputs from `inputs`, not `input`: this one reads nothing"
    if node.type == "Lookup":
        message += ' and always answers the same (its `default`, or its table\'s `""` entry)'
    value = entry.value
    items = [value] if isinstance(value, String) else value.items if isinstance(value, Array) else None
    if items is None or not all(isinstance(item, String) for item in items):
        return Violation(message, entry.key_span)
    listed = ", ".join(quote(item.value) for item in items if isinstance(item, String))

    def edit(graph: Graph) -> None:
        rename_key(entry, "inputs")
        entry.value = value if isinstance(value, Array) else Array(items=[value])

    description = f"rewrite to `inputs: [{listed}]`: the node then reads them, and computes from them"
    fix = Fix(description, edit, Applicability.UNSAFE, touches=(node,))
    return Violation(message, entry.key_span, fix)


def _unlisted(node: Node, read: String) -> Violation:
    """`read` carries where the read is written: a condition's `input`, or a Permission's `type`."""
    kind = "permission" if node.type == "Permission" else "route"
    message = (
        f"{kind} `{node.id}` reads node `{read.value}` but does not list it in `inputs`:"
        " the old runtime may run it later"
    )
    name = read.value

    def edit(graph: Graph) -> None:
        append_input(node, name)

    fix = Fix(f"add {quote(name)} to `inputs`", edit, Applicability.SAFE, touches=(node,))
    return Violation(message, read.span, fix)
