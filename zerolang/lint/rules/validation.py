"""Rules the validator already checks: the linter reports them as they are, under the same codes.

They are the reasons a graph cannot run at all, so they are errors. None has
an automatic fix: each needs a decision only the author can make (which node
was meant, which duplicate to keep). Z001 and Z003, which do have fixes, live
in their own modules.
"""

from __future__ import annotations

from collections.abc import Iterator

from zerolang import codes
from zerolang.errors import Severity
from zerolang.lint.context import Context
from zerolang.lint.model import Violation, rule


def reported(context: Context, code: codes.Code) -> Iterator[Violation]:
    """The validator's diagnostics for `code`, as violations."""
    for diagnostic in context.diagnostics_for(code.code):
        yield Violation(diagnostic.message, diagnostic.span)


@rule(codes.UNKNOWN_TYPE, Severity.ERROR)
def unknown_node_type(context: Context) -> Iterator[Violation]:
    """A node `type` the runtime does not have (`Input`, `Branch`, `RateLimit`...).

    The runtime knows six node types: External, Constant, Operation, Lookup,
    Route and Permission. Any other type stops the whole graph before a single
    node runs. The message names the closest real type (`Input` -> `External`,
    `Branch` -> `Route`); the fields differ, so the change is yours to make.
    """
    return reported(context, codes.UNKNOWN_TYPE)


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
