"""Do a run's inputs fit the graph? Names no External node reads, and values an op will skip.

Neither changes what a run computes (the runtime spec fixes that: an input no node reads is
ignored, a string reaching `Multiply` is skipped); these say so before it happens, so
`zero run` can refuse a misspelt `-i prce:=12` and warn that `-i price=12.5` is a string.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from zerolang.runtime.builtins import OPERATIONS
from zerolang.runtime.values import Confidence, Value
from zerolang.syntax.ast import Graph
from zerolang.syntax.dependencies import input_references
from zerolang.util.suggest import suggest

if TYPE_CHECKING:  # made only when there is one to report: a run that fits builds neither class
    from zerolang.runtime.fit_findings import Misfit, Unread

INPUT_SCHEME = "input://"


def input_names(graph: Graph) -> dict[str, str]:
    """The run inputs the graph reads: input name -> the id of the External node that reads it."""
    names: dict[str, str] = {}
    for node in graph.nodes:
        uri = node.get("uri")
        if node.type == "External" and uri is not None and isinstance(value := _text(uri), str):
            names.setdefault(value.removeprefix(INPUT_SCHEME), node.id or "")
    return names


def _text(value: object) -> str | None:
    text = getattr(value, "value", None)
    return text if isinstance(text, str) else None


def unread_inputs(graph: Graph, given: Iterable[str]) -> list[Unread]:
    """The given input names no External node of `graph` reads, each with its did-you-mean."""
    read = input_names(graph)
    unread = [name for name in given if name not in read]
    if not unread:
        return []
    from zerolang.runtime.fit_findings import Unread

    candidates = tuple(name for name in read if name not in set(given))
    return [Unread(name, suggest(name, candidates)) for name in unread]


def misfits(graph: Graph, values: Mapping[str, Value]) -> list[Misfit]:
    """Each run input that reaches an op (directly, as a whole value) which does not use its kind."""
    read_by = {node_id: name for name, node_id in input_names(graph).items() if name in values}
    found: list[Misfit] = []
    for node in graph.nodes:
        op = OPERATIONS.get(node.op or "") if node.type == "Operation" else None
        if op is None or not op.takes:
            continue
        for reference in input_references(node):
            name = read_by.get(reference.value)
            if name is None:
                continue
            value = values[name]
            if value is None or _fits(value, op.takes):
                continue
            from zerolang.runtime.fit_findings import Misfit

            found.append(Misfit(name, node.id or "", op.name, value, op.takes))
    return found


def _fits(value: Value, wants: str) -> bool:
    if wants == "number":
        return type(value) in (int, float, Confidence)
    return type(value) is str
