"""The validator and the interpreter's compile step are one rulebook: `run` refuses exactly what
`validate` reports, and says it with the validator's own diagnostics."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse
from zerolang.util.errors import ValidationError

# Each field with values that are right for some node types and wrong for others.
FIELDS: dict[str, list[str]] = {
    "id": ['"a"', '"b"', '"c"', "1"],
    "type": ["Constant", "External", "Operation", "Lookup", "Route", "Permission", "Blorp", "Aggregate", "5"],
    "value": ["1", '"text"', "null"],
    "uri": ['"input://x"', "5"],
    "op": ["Identity", "Add", "Concat", "Nope", "Eq", "5"],
    "table": ['{ k: "v" }', "[]"],
    "default": ['"d"', "null"],
    "conditions": [
        '[ { input: "a", target: "t" } ]',
        '[ { input: "b", target: "t", threshold: 0.5, confidence: 0.9 } ]',
        '[ { input: "a", target: "t", threshold: null, match_value: null } ]',
        '[ { input: "a", target: "t", match_value: 3 } ]',
        '[ { input: "a", target: "t", threshold: "x" } ]',
        '[ { target: "t" } ]',
        "[ 1 ]",
        '"x"',
    ],
    "action": ['"act"', "5"],
    "min_confidence": ["0.5", '"high"', "null"],
    "inputs": ['["a"]', '["b.f"]', '["zz"]', "[1]", '"a"', "null", "[]", '["c", "a"]'],
    "params": ['{ separator: "-" }', "[]", "null", "{}"],
}

nodes = st.fixed_dictionaries(
    {},
    optional={name: st.sampled_from(values) for name, values in FIELDS.items()},
).map(lambda fields: "{ " + ", ".join(f"{key}: {value}" for key, value in fields.items()) + " }")


@settings(max_examples=scaled(300))
@given(st.lists(nodes, max_size=4))
def test_run_refuses_exactly_what_the_validator_reports(node_texts: list[str]) -> None:
    source = f'Graph {{ name: "t", nodes: [{", ".join(node_texts)}], outputs: [] }}'
    graph = parse(source, "g.0")
    problems = validate(graph, "g.0")
    try:
        run(graph, {"x": "in"}, path="g.0", source=source)
    except ValidationError as error:
        assert problems, "run refused a graph the validator accepts"
        assert error.diagnostics == problems
    else:
        assert problems == [], "run accepted a graph the validator refuses"
