"""Issue 15, point 4: every resource bounded. Value size and run memory, nesting depth in every
reader, the query's cross joins and condition count; each a clear error naming the node or place."""

from __future__ import annotations

import json
from itertools import accumulate
from pathlib import Path

import pytest

from tests.hardening.support import ROOT, zero
from zerolang.knowledge.query import QueryError, parse_query
from zerolang.runtime.interpreter import run
from zerolang.storage import open_store
from zerolang.syntax.parser import parse
from zerolang.util.errors import RunError, ZeroError, ZeroSyntaxError
from zerolang.util.files import parse_json
from zerolang.util.limits import MAX_DEPTH, Limits, Meter, parse_size, too_deep_at

HELLO = str(ROOT / "examples" / "hello.0")


def doubling(op: str, first: str, count: int) -> str:
    nodes = [f'{{ id: "n0", type: Constant, value: {first} }}']
    nodes += [
        f'{{ id: "n{i}", type: Operation, op: {op}, inputs: ["n{i - 1}", "n{i - 1}"] }}'
        for i in range(1, count + 1)
    ]
    return (
        'Graph {\n    name: "d",\n    nodes: [\n        '
        + ",\n        ".join(nodes)
        + f'\n    ],\n    outputs: ["n{count}"],\n}}\n'
    )


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# ---- value size and run memory -------------------------------------------------------------


def test_array_push_doublings_stop_at_the_value_limit(tmp_path: Path) -> None:
    source = tmp_path / "push.0"
    source.write_text(doubling("ArrayPush", "[1]", 22), encoding="utf-8")
    line = zero("run", str(source)).clear_error()
    assert "node `n20` (ArrayPush): value of about" in line
    assert "exceeds the value size limit of 64.0 MiB (raise it with --max-value-size)" in line
    assert f"{source}:24:" in line


def test_concat_doublings_stop_at_the_value_limit(tmp_path: Path) -> None:
    source = tmp_path / "cat.0"
    source.write_text(doubling("Concat", '"ab"', 41), encoding="utf-8")
    line = zero("run", str(source)).clear_error()
    assert "node `n25` (Concat): value of about" in line


def test_the_run_memory_limit_counts_every_value(tmp_path: Path) -> None:
    source = tmp_path / "push.0"
    source.write_text(doubling("ArrayPush", "[1]", 22), encoding="utf-8")
    line = zero("run", str(source), "--max-value-size", "10G", "--max-memory", "100M").clear_error()
    assert (
        "the run's values reach about" in line
        and "memory limit of 100.0 MiB (raise it with --max-memory)" in line
    )


def test_limits_can_be_raised(tmp_path: Path) -> None:
    graph = parse(doubling("Concat", '"ab"', 12))
    with pytest.raises(RunError, match="node `n11`"):
        run(graph, limits=Limits(max_value_bytes=4096))
    assert len(run(graph, limits=Limits(max_value_bytes=1 << 20)).outputs["n12"]) == 2 * 4096  # type: ignore[arg-type]


def test_nesting_made_at_run_time_is_bounded(tmp_path: Path) -> None:
    nodes = ['{ id: "n0", type: Constant, value: [] }']
    nodes += [
        f'{{ id: "n{i}", type: Operation, op: ArrayPush, inputs: ["n0", "n{i - 1}"] }}' for i in range(1, 150)
    ]
    graph = parse('Graph { name: "n", nodes: [' + ", ".join(nodes) + '], outputs: ["n149"] }')
    with pytest.raises(RunError, match=r"node `n100` \(ArrayPush\): nesting deeper than 100 levels"):
        run(graph)


def test_the_meter_shares_work_between_values() -> None:
    meter = Meter(Limits())
    leaf = ["x" * 10] * 1000
    first = meter.measure(leaf)
    parent = [leaf, leaf]
    size, depth = meter.measure(parent)
    assert depth == 2 and size > 2 * first[0]


@pytest.mark.parametrize(
    ("text", "size"), [("1024", 1024), ("64M", 64 << 20), ("2g", 2 << 30), ("1GiB", 1 << 30)]
)
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


def test_a_bad_size_is_a_usage_error() -> None:
    outcome = zero("run", HELLO, "--max-memory", "lots")
    assert outcome.code == 2 and "not a size" in outcome.stderr


# ---- nesting depth ---------------------------------------------------------------------------


def test_too_deep_at_ignores_brackets_in_strings_and_comments() -> None:
    assert too_deep_at('["' + "[" * 500 + '"] # ' + "{" * 500) is None
    assert too_deep_at(nested(MAX_DEPTH)) is None
    assert too_deep_at(nested(MAX_DEPTH + 1)) == MAX_DEPTH


def test_too_deep_at_reads_windows_of_lines_as_one_pass_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows cut after newlines (a few characters here) find the depth one pass finds, strings and
    comments across lines included."""
    import random

    from zerolang.util import limits

    def one_pass(text: str) -> int:
        brackets = limits._NOT_BRACKETS.sub("", text)
        return max(accumulate(map(limits._STEP.__getitem__, brackets)), default=0)

    monkeypatch.setattr(limits, "_WINDOW", 5)
    pick = random.Random(26)
    alphabet = '[]{}"\\#\n\na "'
    for _ in range(3000):
        text = "".join(pick.choice(alphabet) for _ in range(pick.randint(0, 60)))
        assert max(limits._deepest(text), 0) == max(one_pass(text), 0), repr(text)
    assert too_deep_at('[\n"' + "[\n" * 200 + '"]\n' + "{\n" * 50) is None  # a string across many windows
    assert too_deep_at("[\n" * (MAX_DEPTH + 1)) == 2 * MAX_DEPTH


@pytest.mark.parametrize("depth", [240, 492, 5000])
@pytest.mark.parametrize("command", ["check", "run", "fmt", "viz", "lint"])
def test_deep_source_is_one_located_error(depth: int, command: str, tmp_path: Path) -> None:
    source = tmp_path / "deep.0"
    source.write_text(
        f'Graph {{\n    name: "d",\n    nodes: [{{ id: "a", type: Constant, value: {nested(depth)} }}],\n    outputs: ["a"],\n}}\n',
        encoding="utf-8",
    )
    outcome = zero(command, str(source))
    assert outcome.code == 1 and "internal error" not in outcome.stderr, outcome.stderr
    assert f"{source}:3:" in outcome.stderr + outcome.stdout
    assert "nesting deeper than 100 levels" in outcome.stderr + outcome.stdout


def test_deep_source_within_the_limit_runs_and_formats(tmp_path: Path) -> None:
    source = tmp_path / "deep.0"
    source.write_text(
        f'Graph {{ name: "d", nodes: [{{ id: "a", type: Constant, value: {nested(MAX_DEPTH - 3)} }}], outputs: ["a"] }}\n',
        encoding="utf-8",
    )
    for command in ("check", "run", "fmt", "viz", "lint"):
        outcome = zero(command, str(source))
        assert outcome.code == 0, (command, outcome.stderr)


def test_parse_refuses_depth_with_the_place() -> None:
    with pytest.raises(ZeroSyntaxError) as caught:
        parse("Graph {\n  a: " + nested(300) + " }", "g.0")
    assert caught.value.headline().startswith("g.0:2:")


def test_deep_json_inputs_are_refused(tmp_path: Path) -> None:
    inputs = tmp_path / "in.json"
    inputs.write_text('{"name":\n ' + nested(1000) + "}", encoding="utf-8")
    line = zero("run", HELLO, "--inputs", str(inputs)).clear_error()
    assert f"{inputs}:2:" in line and "nesting deeper than 100 levels" in line
    line = zero("run", HELLO, "-i", "name:=" + nested(1000)).clear_error()
    assert "nesting deeper than 100 levels" in line and len(line) < 300


def test_parse_json_within_the_limit() -> None:
    assert parse_json(nested(MAX_DEPTH), "x") == json.loads(nested(MAX_DEPTH))
    with pytest.raises(ZeroError, match="nesting deeper"):
        parse_json(nested(MAX_DEPTH + 1), "x")


MEMORY_INPUT = {
    "utterance": "x",
    "tuples": [{"subject": "a", "predicate": "b", "object": "c"}],
    "context": {"event_time": "2026-01-01T00:00:00Z", "source": "s", "scope": "t"},
}


@pytest.mark.parametrize("command", [["memory", "ingest"], ["memory", "compile"], ["memory", "import"]])
def test_deep_memory_json_is_refused(command: list[str], tmp_path: Path) -> None:
    document = tmp_path / "deep.json"
    text = json.dumps(MEMORY_INPUT)[:-1] + ', "extra": ' + nested(3000) + "}"
    document.write_text(text, encoding="utf-8")
    extra = [] if command[1] == "compile" else ["--db", str(tmp_path / "m.db")]
    line = zero(*command, str(document), *extra).clear_error()
    assert "nesting deeper than 100 levels" in line
    assert f"{document}:1:" in line


def test_deep_compact_metadata_is_refused(tmp_path: Path) -> None:
    document = tmp_path / "m.0c"
    document.write_text(
        '0M:1.0\nltm|LTM\nagent|Agent\nX:2026-02-18T00:00:00Z s t m={"k":' + nested(2000) + "}\n"
        "@2026-11-24T02:02:42.225Z\n2 needs1 95\n",
        encoding="utf-8",
    )
    for command in (["check"], ["memory", "import"]):
        extra = ["--db", str(tmp_path / "m.db")] if command[0] == "memory" else []
        outcome = zero(*command, str(document), *extra)
        assert outcome.code == 1 and "internal error" not in outcome.stderr, outcome.stderr
        assert "nesting deeper than 100 levels" in outcome.stderr


# ---- queries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "match (?a ?p ?b), (?c ?q ?d)",
        "match (?a p ?b), (x y z), (?c p ?d)",
        "match (?a ?p ?b), (?b ?q ?c), (?x ?y ?z)",
    ],
)
def test_a_cross_join_is_refused_with_the_place(text: str) -> None:
    with pytest.raises(QueryError, match="shares no variable with the other patterns") as caught:
        parse_query(text)
    assert caught.value.span is not None and caught.value.span.column > 10


@pytest.mark.parametrize(
    "text",
    ["match (?a ?p ?b), (?b ?q ?d)", "match (?a ?p ?b), (?c ?q ?d), (?b r ?c)", "match (?a p ?b), (x y z)"],
)
def test_joined_patterns_parse(text: str) -> None:
    parse_query(text)


def test_too_many_where_conditions_is_a_query_error(tmp_path: Path) -> None:
    text = "match (?a ?p ?b) where " + " and ".join(["confidence > 0.1"] * 1000)
    with pytest.raises(QueryError, match="more than 100 `where` conditions"):
        parse_query(text)
    outcome = zero("query", text, "--db", str(tmp_path / "m.db"))
    assert outcome.code == 1 and "internal error" not in outcome.stderr
    parse_query("match (?a ?p ?b) where " + " and ".join(["confidence > 0.1"] * 100))


def test_the_cross_join_reproducer_fails_fast(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert zero("memory", "ingest", str(ROOT / "examples" / "memory_input.json"), "--db", db).code == 0
    line = zero("query", "match (?a ?p ?b), (?c ?q ?d)", "--db", db).clear_error()
    assert "cross join" in line


def test_a_join_past_the_work_cap_is_a_query_error_naming_the_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The join streams, so its memory is bounded by `limit`; its time is bounded by a cap on
    the rows one pattern extends, an error at that pattern (here 15 stands for 2,000,000)."""
    from zerolang.knowledge.query import join
    from zerolang.knowledge.query.executor import run_query
    from zerolang.memory import ingest, load_inputs

    monkeypatch.setattr(join, "MAX_JOINED", 15)
    with open_store() as store:
        ingest(store, load_inputs(ROOT / "examples" / "memory_input.json"), now="2026-03-01T12:00:00.000Z")
        assert run_query(store, "match (?a ?p ?b), (?b ?q ?c)", touch=False).rows  # under the cap
        with pytest.raises(QueryError, match=r"join over 15 rows at \(\?c \?q \?b\)") as caught:
            run_query(store, "match (?a ?p ?b), (?c ?q ?b) order by ?a", touch=False)
    assert caught.value.span is not None and caught.value.span.column == 19
