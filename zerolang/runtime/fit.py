"""Do a run's inputs fit the graph? Names no External node reads, and values an op will skip.

Neither changes what a run computes (the runtime spec fixes that: an input no node reads is
ignored, a string reaching `Multiply` is skipped); these say so before it happens, so
`zero run` can refuse a misspelt `-i prce:=12` and warn that `-i price=12.5` is a string.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from zerolang.runtime.builtins import OPERATIONS
from zerolang.runtime.values import Confidence, Value, type_name
from zerolang.syntax.ast import Graph
from zerolang.syntax.dependencies import input_references
from zerolang.util.suggest import suggest

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


@dataclass(frozen=True, slots=True)
class Unread:
    """An input given that no External node reads, and the one it most likely meant."""

    name: str
    meant: str | None

    def message(self) -> str:
        text = f"no External node reads input `{self.name}`"
        return text + (f": did you mean `{self.meant}`?" if self.meant else "")


def unread_inputs(graph: Graph, given: Iterable[str]) -> list[Unread]:
    """The given input names no External node of `graph` reads, each with its did-you-mean."""
    read = input_names(graph)
    candidates = tuple(name for name in read if name not in set(given))
    return [Unread(name, suggest(name, candidates)) for name in given if name not in read]


@dataclass(frozen=True, slots=True)
class Misfit:
    """A run input whose value the op it reaches does not use (a string into `Multiply`)."""

    name: str
    node: str
    op: str
    value: Value
    wants: str  # "number" or "string"

    def message(self) -> str:
        if isinstance(self.value, str):
            shown = json.dumps(self.value, ensure_ascii=False)
            kind = "the string " + (shown if len(shown) <= 40 else shown[:37] + '..."')
        else:
            kind = _article(type_name(self.value))
        what = "string" if isinstance(self.value, str) else type_name(self.value)
        text = f"input `{self.name}` is {kind}, but `{self.op}` (node `{self.node}`) reads only {self.wants}s"
        text += f", so the {what} is not used"
        hint = self.hint()
        return text + (f": pass {hint}" if hint else "")

    def hint(self) -> str | None:
        """How to give the value the op wants, in `--input` form, when one is plain."""
        if self.wants == "number" and isinstance(self.value, str):
            if _number_text(self.value):
                return f"`-i {self.name}:={self.value.strip()}` for a number"
            return None
        if self.wants == "string" and type(self.value) in (int, float):
            return f"`-i {self.name}={json.dumps(self.value)}` for a string"
        return None


def _article(kind: str) -> str:
    return ("an " if kind[:1] in "AEIOU" else "a ") + kind


def _number_text(text: str) -> bool:
    try:
        number = json.loads(text)
    except ValueError:
        return False
    return type(number) in (int, float)


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
            found.append(Misfit(name, node.id or "", op.name, value, op.takes))
    return found


def _fits(value: Value, wants: str) -> bool:
    if wants == "number":
        return type(value) in (int, float, Confidence)
    return type(value) is str
