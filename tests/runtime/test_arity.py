"""Z021 from each builtin's declared inputs: reported exactly when a node's count is outside what
its op reads, and never a reason for the runtime to refuse the graph (the spec runs it)."""

from __future__ import annotations

import contextlib

from hypothesis import given
from hypothesis import strategies as st

from zerolang.runtime.arity import input_counts
from zerolang.runtime.builtins import OPERATIONS, arity_of
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse
from zerolang.util.errors import RunError

PURE = sorted(name for name in OPERATIONS if not name.startswith("Memory") and name != "Divide")


def graph(op: str, count: int, written: bool) -> str:
    inputs = ", ".join('"a"' for _ in range(count))
    field = f", inputs: [{inputs}]" if written or count else ""
    return (
        'Graph { name: "g", nodes: [ { id: "a", type: Constant, value: 2 },'
        f' {{ id: "x", type: Operation, op: {op}{field} }} ], outputs: ["x"] }}'
    )


@given(st.sampled_from(PURE), st.integers(min_value=0, max_value=5), st.booleans())
def test_reported_exactly_outside_the_declared_count(op: str, count: int, written: bool) -> None:
    parsed = parse(graph(op, count, written))
    fewest, most = OPERATIONS[op].arity
    fits = fewest <= count and (most is None or count <= most)
    found = input_counts(parsed, "g.0")
    assert [d.code for d in found] == ([] if fits else ["Z021"])
    assert validate(parsed, "g.0") == []
    # Runs whatever the count, as the runtime's rules say: never a ValidationError. An op's own failure
    # at run time (Verify given a bad key) is not a refusal of the graph.
    with contextlib.suppress(RunError):
        run(parsed, {})


def test_the_reads_grammar() -> None:
    assert arity_of("") == (0, 0)
    assert arity_of("value") == (1, 1)
    assert arity_of("a, b") == (2, 2)
    assert arity_of("map, value?") == (1, 2)
    assert arity_of("values...") == (0, None)
    assert arity_of("seed, after...") == (1, None)
    assert OPERATIONS["Verify"].arity_text == "2 or 3 inputs"
    assert OPERATIONS["Timestamp"].arity_text == "no inputs"
    assert OPERATIONS["MemoryQuery"].arity_text == "at least 1 input"
