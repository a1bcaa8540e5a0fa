"""Properties over generated graphs: valid graphs parse, validate clean and run, deterministically."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from tests.strategies import runnable_graphs
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph

RUN_INPUTS = st.dictionaries(
    st.sampled_from(["a", "b", "c"]),
    st.one_of(st.text(max_size=10), st.integers(-5, 5), st.none(), st.lists(st.integers(0, 3), max_size=3)),
)


@settings(max_examples=scaled(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runnable_graphs(), RUN_INPUTS)
def test_generated_valid_graphs_parse_validate_and_run(graph: Graph, inputs: dict[str, object]) -> None:
    text = print_graph(graph)
    parsed = parse(text, "generated.0")
    assert parsed == graph
    assert validate(parsed, "generated.0") == []
    first = run(parsed, inputs, clock=lambda: 1_700_000_000.0)
    second = run(parse(text), inputs, clock=lambda: 1_700_000_000.0)
    assert first.trace == [node.id for node in parsed.nodes]
    assert first.hash == second.hash and len(first.hash) == 64
    assert set(first.outputs) == set(parsed.outputs)
    assert 0.0 <= first.confidence <= 1.0
