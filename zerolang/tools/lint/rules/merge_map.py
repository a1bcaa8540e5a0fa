"""Z008, Z009: the two ways `MergeMap` loses data without a word."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.syntax.ast import Node, String
from zerolang.syntax.dependencies import input_references, reference_target
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.model import Violation, rule
from zerolang.tools.lint.shapes import describe_origin
from zerolang.util import codes
from zerolang.util.errors import Severity


def merge_maps(context: Context) -> Iterator[tuple[Node, list[String]]]:
    """Each MergeMap node with its input references as written."""
    for node in context.nodes:
        if node.type == "Operation" and node.op == "MergeMap":
            yield node, input_references(node)


@rule(codes.MERGE_MAP_NON_MAP, Severity.WARNING)
def merge_map_non_map(context: Context) -> Iterator[Violation]:
    """A `MergeMap` input that can never be a map: it is dropped at run time.

    MergeMap merges the maps among its inputs and silently skips everything
    else, so a string constant, a `Hash` or a `Concat` result simply vanishes
    from the result, with no error. To keep such a value, put it under a key of
    its own with `SetField` (`inputs: [map, value], params: { field: "name" }`)
    and merge or chain that map instead.
    """
    shapes = context.shapes
    for _node, references in merge_maps(context):
        for reference in references:
            shape = shapes.reference(reference.value)
            if shape.never_map:
                origin = describe_origin(context.by_id.get(reference_target(reference.value)))
                yield Violation(
                    f"MergeMap input `{reference.value}` is {shape.describe()} ({origin}), never a map:"
                    " MergeMap drops it silently; wrap it with `SetField` to keep it under a key",
                    reference.span,
                )


@rule(codes.MERGE_MAP_COLLISION, Severity.WARNING)
def merge_map_key_collision(context: Context) -> Iterator[Violation]:
    """`MergeMap` inputs that certainly share a key: the later one silently wins.

    MergeMap merges left to right, key by key. When two inputs are known to
    have the same key (constant maps, `CreateMap` params, `SetField` fields,
    Route and Permission results), the earlier value is lost. Merging records
    that share a shape (every relation has `subject`, `predicate`...) keeps
    only the last one. Give each part its own key with `SetField` instead.
    """
    shapes = context.shapes
    for _node, references in merge_maps(context):
        owners: dict[str, str] = {}
        for reference in references:
            shape = shapes.reference(reference.value)
            if shape.never_map:
                continue
            clashing = sorted(
                key for key in shape.keys if owners.get(key, reference.value) != reference.value
            )
            if clashing:
                keys = ", ".join(f"`{key}`" for key in clashing)
                earlier = ", ".join(dict.fromkeys(f"`{owners[key]}`" for key in clashing))
                noun = "key" if len(clashing) == 1 else "keys"
                yield Violation(
                    f"MergeMap input `{reference.value}` overwrites {noun} {keys} of {earlier}:"
                    " the later value silently wins",
                    reference.span,
                )
            for key in shape.keys:
                owners[key] = reference.value
