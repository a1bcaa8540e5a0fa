"""Z015: a key nothing reads that looks like a misspelling of one that is missing."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import cache

from zerolang.runtime.catalog import COMMON_FIELDS, CONDITION_FIELDS, GRAPH_FIELDS, NODE_TYPES, OP_PARAMS
from zerolang.syntax.ast import Array, Entry, Graph, Map
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.edits import rename_key
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity

GRAPH_KEYS = tuple(GRAPH_FIELDS)
CONDITION_KEYS = tuple(CONDITION_FIELDS)
# Real-world variants too short or too different for a spelling match.
VARIANTS = {
    "url": "uri",
    "match": "match_value",
    # A Permission written like a Route condition (seen in real files); only where min_confidence is missing.
    "threshold": "min_confidence",
    "min_threshold": "min_confidence",
    "confidence_threshold": "min_confidence",
}


@rule(codes.MISSPELLED_KEY, Severity.WARNING, Applicability.UNSAFE)
def misspelled_key(context: Context) -> Iterator[Violation]:
    """A key nothing reads that is a likely misspelling of a missing one (`inptus`, `vaule`).

    Unknown keys are allowed (`description`, `tensor_type`...), and ignored,
    so a misspelled field is silently ignored too: `inptus` leaves the node
    without inputs, `params: { seperator: "," }` joins with "". Reported only
    when the key it resembles is absent, in the graph, in a node (for its type
    and op), in an op's `params` and in Route conditions. The fix renames the
    key; it is unsafe because the author may have meant another field.
    """
    yield from _check(context.graph, GRAPH_KEYS)
    for node in context.nodes:
        node_type = NODE_TYPES.get(node.type or "")
        if node_type is None:
            continue  # an unknown type (Z001, Z002): its fields are unknown too
        op_params = OP_PARAMS.get(node.op or "", ()) if node.type == "Operation" else ()
        yield from _check(node, (*COMMON_FIELDS, *node_type.fields, *op_params), skip=("input",))
        params = node.params
        if op_params and params is not None:
            yield from _check(params, op_params, where=f"`{node.op}` params")
        conditions = node.get("conditions")
        if node.type == "Route" and isinstance(conditions, Array):
            for condition in conditions.items:
                if isinstance(condition, Map):
                    yield from _check(condition, CONDITION_KEYS, where="a route condition")


def _check(
    target: Map, known: tuple[str, ...], *, where: str | None = None, skip: tuple[str, ...] = ()
) -> Iterator[Violation]:
    present = set(target.keys())
    missing = tuple(key for key in dict.fromkeys(known) if key not in present)
    for entry in target.entries:
        if entry.key in known or entry.key in skip:
            continue
        meant = _meant(entry.key, missing)
        if meant is None:
            continue
        scope = f" in {where}" if where else ""
        message = f"`{entry.key}` is read by nothing{scope}: did you mean `{meant}`?"
        yield Violation(message, entry.key_span, _rename(target, entry, meant))


def likely_misspelling(key: str, missing: tuple[str, ...]) -> str | None:
    """The missing key `key` is most likely a misspelling of, if any: what this rule reports."""
    return _meant(key, missing)


@cache
def _meant(key: str, missing: tuple[str, ...]) -> str | None:
    """The missing key `key` is most likely a misspelling of, if any (cached: the same extras recur)."""
    variant = VARIANTS.get(key.lower())
    if variant in missing:
        return variant
    lowered = {candidate.lower(): candidate for candidate in missing}
    close = difflib.get_close_matches(key.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def _rename(target: Map, entry: Entry, key: str) -> Fix:
    old = entry.key

    def edit(graph: Graph) -> None:
        rename_key(entry, key)

    return Fix(f"rename `{old}` to `{key}`", edit, Applicability.UNSAFE, touches=(target,))
