"""A compiled `Program` reused across runs gives byte-identical results to a fresh `run` each time."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from tests.strategies import runnable_graphs
from zerolang.runtime.interpreter import Program, RunResult, run
from zerolang.runtime.values import canonical_json
from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse_file

ROOT = Path(__file__).resolve().parents[2]
RUN_INPUTS = st.lists(
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "name"]),
        st.one_of(
            st.text(max_size=8), st.integers(-5, 5), st.none(), st.lists(st.integers(0, 3), max_size=3)
        ),
    ),
    min_size=1,
    max_size=3,
)


def as_bytes(result: RunResult) -> bytes:
    return json.dumps(result.to_json(), sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")


@settings(max_examples=scaled(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runnable_graphs(), RUN_INPUTS)
def test_reused_program_matches_fresh_runs(graph: Graph, runs: list[dict[str, object]]) -> None:
    program = Program(graph)
    for inputs in runs:
        fresh = run(graph, inputs, clock=lambda: 1_700_000_000.0)
        reused = program.run(inputs, clock=lambda: 1_700_000_000.0)
        assert as_bytes(reused) == as_bytes(fresh)


def test_hash_is_still_the_spec_formula_over_every_node() -> None:
    """SHA-256 of id bytes then canonical JSON of the value, node by node in trace order."""
    graph = parse_file(ROOT / "examples" / "hello.0")
    program = Program(graph)
    for name in ("Ada", "Grace"):
        result = program.run({"name": name})
        values = {"name": name, "salutation": "Hello"}
        values["greeting"] = f"Hello, {name}"
        values["shout"] = values["greeting"].upper()
        values["fingerprint"] = result.outputs["fingerprint"]
        expected = hashlib.sha256(
            b"".join(node.encode() + canonical_json(values[node]) for node in result.trace)
        ).hexdigest()
        assert result.hash == expected


def test_program_checks_the_step_limit_per_run() -> None:
    program = Program(parse_file(ROOT / "examples" / "hello.0"))
    assert program.run({"name": "x"}, max_steps=5).outputs["greeting"] == "Hello, x"
    try:
        program.run({"name": "x"}, max_steps=2)
    except Exception as error:
        assert "step limit 2 reached" in str(error)
    else:
        raise AssertionError("the step limit was not enforced")
