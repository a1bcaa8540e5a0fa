"""Rules the validator already checks: the linter reports them as they are, under the same codes.

They are the reasons a graph cannot run at all, so they are errors. Most have
no automatic fix: each needs a decision only the author can make (which node
was meant, which duplicate to keep); Z002 fixes an `Input` node whose shape
is exactly an External's. Z001 and Z003, which have fixes, live in their own
modules.
"""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.ast import Graph, Node, String
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import identifier, set_entry
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


def reported(context: Context, code: codes.Code) -> Iterator[Violation]:
    """The validator's diagnostics for `code`, as violations."""
    for diagnostic in context.diagnostics_for(code.code):
        yield Violation(diagnostic.message, diagnostic.span)


@rule(codes.UNKNOWN_TYPE, Severity.ERROR, Applicability.SAFE)
def unknown_node_type(context: Context) -> Iterator[Violation]:
    """A node `type` the runtime does not have (`Input`, `Branch`, `RateLimit`...).

    The runtime knows six node types: External, Constant, Operation, Lookup,
    Route and Permission. Any other type stops the whole graph before a single
    node runs. The message names the closest real type (`Input` -> `External`,
    `Branch` -> `Route`). Where the shape allows, the fix is safe: an `Input`
    node with nothing but an `id`, a `uri` string and a `description` is a run
    input, so it becomes an `External` (with `uri: "input://ID"` when it had
    none). Other types differ in their fields, so the change is yours to make.
    """
    for diagnostic in context.diagnostics_for(codes.UNKNOWN_TYPE.code):
        node = context.node_at(diagnostic.span)
        fix = _input_as_external(node) if node is not None and node.type == "Input" else None
        yield Violation(diagnostic.message, diagnostic.span, fix)


# The fields an `Input` node may have for it to be exactly an External.
INPUT_FIELDS = frozenset({"id", "type", "uri", "description"})


def _input_as_external(node: Node) -> Fix | None:
    uri = node.get("uri")
    if node.id is None or not set(node.keys()) <= INPUT_FIELDS or not isinstance(uri, (String, type(None))):
        return None
    node_id = node.id
    description = "change `Input` to `External`"
    if uri is None:
        description += f' with `uri: "input://{node_id}"`'

    def edit(graph: Graph) -> None:
        set_entry(node, "type", identifier("External"))
        if node.get("uri") is None:
            set_entry(node, "uri", String(f"input://{node_id}"), after=("id", "type"))

    return Fix(description, edit, Applicability.SAFE, touches=(node,))


@rule(codes.UNKNOWN_INPUT, Severity.ERROR)
def unknown_input(context: Context) -> Iterator[Violation]:
    """An input that names no node.

    Only the part before the first `.` names a node: `input.metadata` needs a
    node called `input`. Old files often wrote literals or field paths there;
    the old runtime reported every such input as a cycle, ours names it.
    """
    return reported(context, codes.UNKNOWN_INPUT)


@rule(codes.CYCLE, Severity.ERROR)
def cycle(context: Context) -> Iterator[Violation]:
    """Nodes that read each other in a loop, named in data-flow order.

    Every node runs once, after all the nodes it reads; a loop has no first
    node, so the graph cannot run. A Route's conditions and a Permission's
    `sender_confidence` count as reads too.
    """
    return reported(context, codes.CYCLE)


@rule(codes.DUPLICATE_ID, Severity.ERROR)
def duplicate_id(context: Context) -> Iterator[Violation]:
    """Two nodes with the same `id`.

    Inputs and outputs name nodes by id, so a repeated id makes every reference
    to it ambiguous; the runtime refuses the graph.
    """
    return reported(context, codes.DUPLICATE_ID)


@rule(codes.UNKNOWN_OUTPUT, Severity.ERROR)
def unknown_output(context: Context) -> Iterator[Violation]:
    """A graph output that names no node.

    An output is a node id, or `node.field` for one field of a map value. An
    output naming nothing would silently be missing from every run's result.
    """
    return reported(context, codes.UNKNOWN_OUTPUT)


@rule(codes.MISSING_FIELD, Severity.ERROR)
def missing_field(context: Context) -> Iterator[Violation]:
    """A field the graph or a node's type requires is missing.

    The graph needs `name`, `nodes` and `outputs`; every node `id` and `type`;
    each type its own fields (a Constant its `value`, an Operation its `op`, a
    Route condition its `input` and `target`...). A misspelled field is
    usually the cause: Z015 names it.
    """
    return reported(context, codes.MISSING_FIELD)


@rule(codes.WRONG_KIND, Severity.ERROR)
def wrong_kind(context: Context) -> Iterator[Violation]:
    """A field holds the wrong kind of value (`inputs: "a"`, `params: []`...).

    The runtime cannot use such a field: a string where a list of node ids
    belongs, a number where a map belongs. Caught here, before any node runs.
    """
    return reported(context, codes.WRONG_KIND)
