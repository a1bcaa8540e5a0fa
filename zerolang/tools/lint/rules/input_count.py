"""Z021: an Operation node with more or fewer inputs than its op reads."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.runtime.arity import input_counts
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.model import Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.WRONG_INPUT_COUNT, Severity.ERROR)
def wrong_input_count(context: Context) -> Iterator[Violation]:
    """An op given more or fewer inputs than it reads (`Equals` with three, `If` with one, `Not` with none).

    Every builtin reads a fixed number of inputs, declared with it (`zero ops NAME`
    shows them): `Equals` compares its first two, `If` picks its second or third
    by its first, `ToUpper` reads one text, `Timestamp` none. The runtime does not
    refuse a node with another count (a missing input is null, an extra one is
    never read), so such a graph runs and quietly computes something else: `If`
    with one input is always null, `Equals` with three ignores the third. The
    message says how many inputs the op takes and which. `zero check` reports it
    as an error too; `zero run` warns and runs the graph as written. No fix: only
    the author knows which input is missing or extra.
    """
    for diagnostic in input_counts(context.graph, context.path):
        yield Violation(diagnostic.message, diagnostic.span)
