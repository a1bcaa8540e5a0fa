"""Z016, Z017: Route conditions that can never do what they say."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.ast import Array, Float, Int, Map, Node, Null, String
from zerolang.syntax.dependencies import reference_target
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.model import Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


def conditions(node: Node) -> list[Map]:
    value = node.get("conditions") if node.type == "Route" else None
    return [item for item in value.items if isinstance(item, Map)] if isinstance(value, Array) else []


@rule(codes.CONDITION_READS_NO_NODE, Severity.WARNING)
def condition_reads_no_node(context: Context) -> Iterator[Violation]:
    """A Route condition whose `input` names no node: it always reads null.

    A condition reads the whole value of the node its `input` names. A name
    that matches no node (a typo, or a `node.field` reference, which conditions
    do not support) reads null: a `match_value` condition never matches, a
    `threshold` condition never matches, and the route falls through to its
    default without a word. Unlike `inputs`, the runtime does not reject it.
    A condition that always matches (no `match_value`, `threshold` 0 or
    absent) never looks at its input, so the canonical default route
    `{ input: "default", threshold: 0.0, ... }` is not reported.
    """
    for node in context.nodes:
        for condition in conditions(node):
            name = condition.get("input")
            if not isinstance(name, String) or name.value in context.by_id or _always_matches(condition):
                continue
            reads = f"route `{node.id}` condition reads `{name.value}`"
            message = f"{reads}, which names no node, so it always reads null"
            target = reference_target(name.value)
            if target != name.value and target in context.by_id:
                message += f" (a condition reads a whole node: `{target}`, not a field of it)"
            elif hint := context.meant(name.value):
                message += f": did you mean `{hint}`?"
            yield Violation(message, name.span)


@rule(codes.UNREACHABLE_CONDITION, Severity.WARNING)
def unreachable_condition(context: Context) -> Iterator[Violation]:
    """A Route condition after one that always matches: it can never be chosen.

    Conditions are tried in order and the first match wins. A condition with
    no `match_value` and no `threshold` above 0 always matches (a default
    route), so every condition after it is dead. Keep the default route last.
    """
    for node in context.nodes:
        catch_all: Map | None = None
        for condition in conditions(node):
            if catch_all is not None:
                line = catch_all.span.line
                yield Violation(
                    f"this condition can never match: the one on line {line} always matches first",
                    condition.span,
                )
            elif _always_matches(condition):
                catch_all = condition


def _always_matches(condition: Map) -> bool:
    match_value = condition.get("match_value")
    threshold = condition.get("threshold")
    if match_value is not None and not isinstance(match_value, Null):
        return False
    if threshold is None or isinstance(threshold, Null):
        return True
    return isinstance(threshold, (Int, Float)) and threshold.value <= 0
