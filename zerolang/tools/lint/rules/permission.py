"""Z018: a Permission with nothing to check."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.dependencies import SENDER_CONFIDENCE
from zerolang.tools.lint.context import Context, id_span
from zerolang.tools.lint.model import Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.PERMISSION_WITHOUT_SENDER, Severity.WARNING)
def permission_without_sender(context: Context) -> Iterator[Violation]:
    """A Permission in a graph with no `sender_confidence` node: it always sees 0.5.

    A Permission does not read its inputs: it reads the node whose id is
    exactly `sender_confidence`, and uses 0.5 when there is none. Without that
    node the decision is fixed when the graph is written (granted when
    `min_confidence` <= 0.5, denied otherwise), whatever the run. Add an
    `External` node with that id (`uri: "input://sender_confidence"`).
    """
    if SENDER_CONFIDENCE in context.by_id:
        return
    for node in context.nodes:
        if node.type == "Permission":
            yield Violation(
                f"permission `{node.id}` always sees confidence 0.5:"
                f" the graph has no node named `{SENDER_CONFIDENCE}`",
                id_span(node),
            )
