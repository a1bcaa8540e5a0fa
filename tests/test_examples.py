"""The graphs under `examples/`: each parses, validates, runs, and computes what its comments say.

They are the documentation a new user reads first, so their outputs are pinned
twice: explicit asserts for the values that matter (hashes against hashlib and
the spec §7 vectors, the router's decisions and confidence), and a syrupy
snapshot of the whole `--json` document (outputs, trace, confidence, execution
hash). No example uses `Timestamp`, so nothing in a run depends on the clock.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from zerolang.runtime.interpreter import RunResult, run
from zerolang.runtime.validator import validate
from zerolang.runtime.values import Confidence, Hash, canonical_json, to_json
from zerolang.syntax.ast import Array, Graph, Node, String
from zerolang.syntax.parser import parse, parse_file
from zerolang.syntax.printer import print_graph

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.0"))

# runtime.md §7 test vectors.
AGENT_HASH = "d4f0bc5a29de06b510f9aa428f1eedba926012b591fef7a518e776a7c9bd1824"
LTM_HASH = "1a53ed01b4fb5295f6378f6407edb0f788e491be38df947f1eb1762a697cbf09"
FACT_HASH = "a91d0273e8013b3837ae8d233811ab3889d8de28eaedac02d817f332660a4dce"
CONTEXT_HASH = "4131f8414b2c0e2b6ec58a66ddabea29d22f84e0b95de3a6178edee31c174c77"
EPISODE_HASH = "7203be7d61789e2b6bb7580c43f24ed3737b416417f1b1023caccb43306b1e5f"


def sha256(text: str) -> Hash:
    return Hash(hashlib.sha256(text.encode("utf-8")).digest())


def load(name: str) -> Graph:
    return parse_file(EXAMPLES / name)


def run_example(name: str, inputs: dict[str, Any] | None = None) -> RunResult:
    path = EXAMPLES / name
    return run(parse_file(path), inputs, path=str(path))


def nodes_by_id(graph: Graph) -> dict[str, Node]:
    return {node.id: node for node in graph.nodes if node.id is not None}


def normalise_label(label: str) -> str:
    """Spec §7 label normalisation (without the alias table)."""
    text = label.strip().lower().replace("_", "-").replace(".", "-")
    return re.sub(r" +", " ", text)


def normalise_predicate(predicate: str) -> str:
    """Spec §7 predicate normalisation: runs of spaces, `-` and `.` become one `_`."""
    return re.sub(r"[ .\-]+", "_", predicate.strip().lower())


# ---- every example ---------------------------------------------------------------------


def test_the_documented_examples_exist() -> None:
    assert {path.name for path in EXAMPLE_FILES} >= {"hello.0", "router.0", "example_memory.0"}


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_example_parses_validates_and_runs(path: Path) -> None:
    graph = parse_file(path)
    assert validate(graph, str(path)) == []
    result = run(graph, {}, path=str(path))
    assert list(result.outputs) == graph.outputs  # every output has a value, in the written order
    assert sorted(result.trace) == sorted(nodes_by_id(graph))  # every node ran exactly once
    assert re.fullmatch(r"[0-9a-f]{64}", result.hash)
    assert 0.0 <= result.confidence <= 1.0


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_example_is_deterministic(path: Path) -> None:
    graph = parse_file(path)
    ops = {node.op for node in graph.nodes}
    assert "Timestamp" not in ops, "a Timestamp would make outputs and the execution hash change per run"
    assert run(graph, {}).to_json() == run(graph, {}).to_json()


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_example_survives_the_formatter(path: Path) -> None:
    graph = parse_file(path)
    reparsed = parse(print_graph(graph))
    assert reparsed == graph
    assert run(reparsed, {}).to_json() == run(graph, {}).to_json()


def _documented_commands(path: Path) -> list[list[str]]:
    """The `#   zero run ...` lines of a file's header comment, as argument lists."""
    commands = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#\s+zero (run .*)$", line)
        if match:
            commands.append(shlex.split(match.group(1)))
    return commands


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_the_commands_in_the_header_comment_work(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    commands = _documented_commands(path)
    assert commands, f"{path.name} should show how to run it"
    monkeypatch.chdir(ROOT)
    for arguments in commands:
        result = CliRunner().invoke(app, arguments)
        assert result.exit_code == 0, (arguments, result.output)


def test_zero_check_accepts_every_example_but_the_buggy_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """verifier.0 has the openclaw bugs on purpose: it runs, but `Equals` and `If` lack inputs (Z021)."""
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    monkeypatch.chdir(ROOT)
    clean = [path for path in EXAMPLE_FILES if path.name != "verifier.0"]
    result = CliRunner().invoke(app, ["check", *(str(path.relative_to(ROOT)) for path in clean)])
    assert result.exit_code == 0, result.output
    assert result.output.count(": ok (") == len(clean)
    result = CliRunner().invoke(app, ["check", "examples/verifier.0"])
    assert result.exit_code == 1
    assert re.findall(r"\[(Z\d+)\]", result.output) == ["Z021", "Z021"]


# ---- hello.0 ---------------------------------------------------------------------------


def test_hello_greets_ada(snapshot: Any) -> None:
    result = run_example("hello.0", {"name": "Ada"})
    assert result.outputs["greeting"] == "Hello, Ada"
    assert result.outputs["shout"] == "HELLO, ADA"
    fingerprint = result.outputs["fingerprint"]
    assert type(fingerprint) is Hash
    assert fingerprint == sha256("Hello, Ada")
    assert fingerprint.hex() == "7da4681c4837bb56185adc6967f0c6847c33148afb0ba4aefac709465da75f66"
    assert result.trace == ["name", "salutation", "greeting", "shout", "fingerprint"]
    assert result.confidence == 1.0
    assert result.to_json() == snapshot


def test_hello_execution_hash_is_the_spec_formula() -> None:
    """§3: SHA-256 over each traced node's id followed by the canonical JSON of its value."""
    result = run_example("hello.0", {"name": "Ada"})
    values = {
        "name": "Ada",
        "salutation": "Hello",
        "greeting": "Hello, Ada",
        "shout": "HELLO, ADA",
        "fingerprint": sha256("Hello, Ada"),
    }
    digest = hashlib.sha256()
    for node_id in result.trace:
        digest.update(node_id.encode())
        digest.update(canonical_json(values[node_id]))
    assert result.hash == digest.hexdigest()
    # canonical JSON of a Hash is its quoted lowercase hex
    assert canonical_json(values["fingerprint"]) == json.dumps(values["fingerprint"].hex()).encode()


def test_hello_without_a_name_skips_the_missing_input(snapshot: Any) -> None:
    result = run_example("hello.0")
    assert result.outputs["greeting"] == "Hello"  # Concat skips the null, and its separator
    assert result.outputs["shout"] == "HELLO"
    assert result.outputs["fingerprint"] == sha256("Hello")
    assert result.to_json() == snapshot


def test_hello_handles_non_ascii_names() -> None:
    result = run_example("hello.0", {"name": "Zoë"})
    assert result.outputs["greeting"] == "Hello, Zoë"
    assert result.outputs["shout"] == "HELLO, ZOË"
    assert result.outputs["fingerprint"] == sha256("Hello, Zoë")  # over the UTF-8 bytes


def test_hello_from_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["run", "examples/hello.0", "--input", "name=Ada", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document == run_example("hello.0", {"name": "Ada"}).to_json()
    assert document["outputs"] == {
        "greeting": "Hello, Ada",
        "shout": "HELLO, ADA",
        "fingerprint": "7da4681c4837bb56185adc6967f0c6847c33148afb0ba4aefac709465da75f66",
    }


# ---- router.0 --------------------------------------------------------------------------


class RouterCase(NamedTuple):
    message: str | None  # None: no `message` input
    sender: float | None  # None: no `sender_confidence` input (Permission uses 0.5)
    decision: str
    handler: str
    target: str  # route.target
    intent: str
    granted: bool
    confidence: float  # route confidence x (sender_confidence if granted else 0.1)


ROUTER_CASES = {
    "help-command": RouterCase(
        "/help", 0.9, "help_skill", "help_skill", "run_command", "statement", True, 0.9
    ),
    "greeting": RouterCase("hello there", 0.9, "greeter", "greeter", "greeter", "greeting", True, 0.95 * 0.9),
    "question-untrusted": RouterCase(
        "what is 0-memory?",
        0.3,
        "ask_for_confirmation",
        "answer_skill",
        "answer_skill",
        "question",
        False,
        0.9 * 0.1,
    ),
    "request-no-sender": RouterCase(
        "please remember my name",
        None,
        "ask_for_confirmation",
        "task_skill",
        "task_skill",
        "request",
        False,
        0.085,
    ),
    "statement-default-route": RouterCase(
        "the sky is blue", 0.8, "chat_skill", "chat_skill", "chat_skill", "statement", True, 0.6 * 0.8
    ),
    # exactly min_confidence: granted (>=)
    "command-with-args-at-threshold": RouterCase(
        "/remember Ada likes tea", 0.7, "memory_skill", "memory_skill", "run_command", "statement", True, 0.7
    ),
    "unknown-command": RouterCase(
        "/dance", 1.0, "unknown_command", "unknown_command", "run_command", "statement", True, 1.0
    ),
    # ClassifyIntent checks greetings first, then "?", then requests (case-sensitive, as in Rust)
    "greeting-beats-question": RouterCase(
        "hey, can you help?", 0.9, "greeter", "greeter", "greeter", "greeting", True, 0.95 * 0.9
    ),
    "no-message": RouterCase(
        None, None, "ask_for_confirmation", "chat_skill", "chat_skill", "statement", False, 0.6 * 0.1
    ),
}


def router_inputs(message: str | None, sender: float | None) -> dict[str, Any]:
    inputs: dict[str, Any] = {}
    if message is not None:
        inputs["message"] = message
    if sender is not None:
        inputs["sender_confidence"] = sender
    return inputs


@pytest.mark.parametrize("case", list(ROUTER_CASES), ids=list(ROUTER_CASES))
def test_router(case: str, snapshot: Any) -> None:
    expected = ROUTER_CASES[case]
    result = run_example("router.0", router_inputs(expected.message, expected.sender))
    assert result.outputs["decision"] == expected.decision
    assert result.outputs["handler"] == expected.handler
    assert result.outputs["route.target"] == expected.target
    assert result.outputs["intent"] == expected.intent
    assert result.outputs["permission.granted"] is expected.granted
    assert result.confidence == pytest.approx(expected.confidence)
    assert result.to_json() == snapshot


def test_router_command_arguments() -> None:
    result = run_example("router.0", {"message": "/remember Ada likes tea", "sender_confidence": 0.9})
    assert result.outputs["args"] == ["Ada", "likes", "tea"]
    assert run_example("router.0", {"message": "/help"}).outputs["args"] == []


def test_router_route_and_permission_values() -> None:
    """The whole Route and Permission maps, through a copy of the graph that outputs them."""
    source = (EXAMPLES / "router.0").read_text(encoding="utf-8")
    edited = source.replace('outputs: ["decision",', 'outputs: ["route", "permission", "decision",')
    assert edited != source
    graph = parse(edited)
    result = run(graph, {"message": "hello there", "sender_confidence": 0.9})
    route = result.outputs["route"]
    assert route == {"target": "greeter", "confidence": 0.95, "matched_input": "intent"}
    assert type(route["confidence"]) is Confidence
    permission = result.outputs["permission"]
    assert permission == {"granted": True, "confidence": 0.9, "action": "run_skill"}
    assert type(permission["confidence"]) is Confidence


def test_router_sender_confidence_as_text_counts_as_absent() -> None:
    """`--input sender_confidence=0.9` passes a string, not a number: Permission falls back to 0.5."""
    as_text = run_example("router.0", {"message": "/help", "sender_confidence": "0.9"})
    absent = run_example("router.0", {"message": "/help"})
    assert as_text.outputs["permission.granted"] is False
    assert as_text.confidence == pytest.approx(0.1)
    assert as_text.outputs == absent.outputs


def test_router_threshold_is_a_truthiness_switch() -> None:
    """`threshold: 1` on a Bool input: matches when true; the value is never compared with 1."""
    node = nodes_by_id(load("router.0"))["route"]
    first = node.get("conditions").items[0]  # type: ignore[union-attr]
    assert first.get("input").value == "is_command"  # type: ignore[union-attr]
    assert run_example("router.0", {"message": "/x"}).outputs["route.target"] == "run_command"
    assert run_example("router.0", {"message": "x"}).outputs["route.target"] == "chat_skill"


def test_router_does_not_rely_on_inputs_for_implicit_reads() -> None:
    """Ours orders Route/Permission after the nodes they read even when `inputs` does not list them.

    The file lists them anyway, for runtimes that order by `inputs` alone; here
    we drop those lists and move both nodes first, and get the same decisions.
    """
    graph = load("router.0")
    nodes = graph.get("nodes")
    assert isinstance(nodes, Array)
    implicit = [
        item for item in nodes.items if isinstance(item, Node) and item.type in ("Route", "Permission")
    ]
    for node in implicit:
        node.remove("inputs")
        nodes.items.remove(node)
    nodes.items[:0] = implicit
    assert validate(graph) == []
    for expected in ROUTER_CASES.values():
        result = run(graph, router_inputs(expected.message, expected.sender))
        assert result.outputs["decision"] == expected.decision
        assert result.outputs["route.target"] == expected.target
        assert result.outputs["permission.granted"] is expected.granted
        assert result.confidence == pytest.approx(expected.confidence)
        assert result.trace.index("route") > result.trace.index("intent")
        assert result.trace.index("permission") > result.trace.index("sender_confidence")


def test_router_shows_real_file_syntax() -> None:
    """The router doubles as a sample of hand-written syntax; keep those features in it."""
    text = (EXAMPLES / "router.0").read_text(encoding="utf-8")
    graph = load("router.0")
    assert graph.entry("name").key_quoted  # type: ignore[union-attr]
    assert not graph.entry("description").key_quoted  # type: ignore[union-attr]
    message = nodes_by_id(graph)["message"]
    assert message.entry("type").value == String("External") and not message.entry("type").value.bare  # type: ignore[union-attr]
    assert nodes_by_id(graph)["command"].entry("type").value.bare  # type: ignore[union-attr]
    assert "HaltingProof { max_steps: 50, fuel_budget: 1000 }" in text
    assert re.search(r",\s*\]", text) and re.search(r",\s*\}", text)  # trailing commas
    assert re.search(r"^\s*#", text, re.MULTILINE) and re.search(r"[,}\]]\s+#", text)  # own-line and inline
    assert "T00:00:00Z" in text  # `word:` inside a string
    assert any("." in output for output in graph.outputs)
    proofs = graph.get("proofs")
    assert [item.name for item in proofs.items] == ["HaltingProof", "MemoryBound"]  # type: ignore[union-attr]


# ---- example_memory.0 ------------------------------------------------------------------

CONCEPTS = ["agent", "long-term-memory", "0-memory", "semantic-tuple", "knowledge-graph", "episodic-memory"]
RELATIONS = {
    "agent_needs_ltm": ("agent", "needs", "long-term-memory"),
    "zero_memory_provides_ltm": ("0-memory", "provides", "long-term-memory"),
    "tuple_compiles_to_graph": ("semantic-tuple", "compiles_to", "knowledge-graph"),
    "ltm_includes_episodic": ("long-term-memory", "includes", "episodic-memory"),
}


@pytest.fixture(scope="module")
def memory_result() -> RunResult:
    return run_example("example_memory.0")


def test_memory_has_one_output_keeping_every_part(memory_result: RunResult, snapshot: Any) -> None:
    assert list(memory_result.outputs) == ["memory_record"]
    record = memory_result.outputs["memory_record"]
    assert list(record) == [
        "kind",
        "schema_version",
        "concepts",
        "relations",
        "context",
        "context_hash",
        "proof",
    ]
    assert record["kind"] == "memory_record"
    assert record["schema_version"] == "0.2.0"
    assert list(record["concepts"]) == CONCEPTS
    assert list(record["relations"]) == list(RELATIONS)
    assert memory_result.confidence == 1.0
    assert memory_result.to_json() == snapshot


def test_memory_concept_hashes_are_the_spec_vectors(memory_result: RunResult) -> None:
    concepts = memory_result.outputs["memory_record"]["concepts"]
    assert concepts["agent"].hex() == AGENT_HASH
    assert concepts["long-term-memory"].hex() == LTM_HASH
    for label, value in concepts.items():
        assert type(value) is Hash
        assert value == sha256(label)
    assert len(set(concepts.values())) == len(CONCEPTS)


def test_memory_concept_constants_hold_normalised_labels() -> None:
    nodes = nodes_by_id(load("example_memory.0"))
    label_ids = [key for key in nodes if key.startswith("concept_") and not key.endswith("_hash")]
    labels = [nodes[key].get("value").value for key in label_ids]  # type: ignore[union-attr]
    assert labels == CONCEPTS
    for label in labels:
        assert normalise_label(label) == label
    # the comments' spellings normalise to them
    assert normalise_label("  Agent ") == "agent"
    assert normalise_label("Long_Term.Memory") == "long-term-memory"
    assert normalise_label("knowledge.graph") == "knowledge-graph"


def test_memory_relations_carry_their_fact_hash(memory_result: RunResult) -> None:
    record = memory_result.outputs["memory_record"]
    for name, (subject, predicate, obj) in RELATIONS.items():
        relation = record["relations"][name]
        assert (relation["subject"], relation["predicate"], relation["object"]) == (subject, predicate, obj)
        assert normalise_predicate(predicate) == predicate
        assert subject in record["concepts"] and obj in record["concepts"]
        assert type(relation["fact_hash"]) is Hash
        assert relation["fact_hash"] == sha256(f"{subject}|{predicate}|{obj}")
        assert 0.0 <= relation["confidence"] <= 1.0
    assert record["relations"]["agent_needs_ltm"]["fact_hash"].hex() == FACT_HASH
    assert record["relations"]["agent_needs_ltm"]["confidence"] == 0.95


def test_memory_hash_refs_name_the_concept_hash_nodes(memory_result: RunResult) -> None:
    nodes = nodes_by_id(load("example_memory.0"))
    for relation in memory_result.outputs["memory_record"]["relations"].values():
        for side in ("subject", "object"):
            hash_node = nodes[relation[f"{side}_hash_ref"]]
            assert hash_node.op == "Hash"
            (label_node_id,) = hash_node.inputs
            assert nodes[label_node_id].get("value").value == relation[side]  # type: ignore[union-attr]


def test_memory_context_and_its_hash(memory_result: RunResult) -> None:
    record = memory_result.outputs["memory_record"]
    assert record["context"] == {
        "event_time": "2026-02-18T00:00:00Z",  # colons kept
        "source": "user_prompt",
        "scope": "0-memory_design",
        "session_id": "design-review-1",
    }
    assert type(record["context_hash"]) is Hash
    assert record["context_hash"].hex() == CONTEXT_HASH


def test_memory_record_gives_the_spec_episode_hash(memory_result: RunResult) -> None:
    """EpisodeHash = sha256(FactHash raw ++ ContextHash raw), computed outside the graph (no builtin can)."""
    record = memory_result.outputs["memory_record"]
    fact = record["relations"]["agent_needs_ltm"]["fact_hash"]
    episode = hashlib.sha256(bytes(fact) + bytes(record["context_hash"])).hexdigest()
    assert episode == EPISODE_HASH


def test_hashing_two_hash_values_in_a_graph_is_not_the_episode_hash() -> None:
    """Why the graph does not compute EpisodeHash: `Hash` takes a Hash input as its JSON, not raw bytes."""
    graph = parse(
        """Graph {
            name: "episode_attempt",
            nodes: [
                { id: "fact", type: Constant, value: "agent|needs|long-term-memory" },
                { id: "fact_hash", type: Operation, op: Hash, inputs: ["fact"] },
                { id: "context", type: Constant, value: "2026-02-18T00:00:00Z|user_prompt|0-memory_design" },
                { id: "context_hash", type: Operation, op: Hash, inputs: ["context"] },
                { id: "episode", type: Operation, op: Hash, inputs: ["fact_hash", "context_hash"] },
            ],
            outputs: ["episode"],
        }"""
    )
    episode = run(graph).outputs["episode"]
    assert episode.hex() != EPISODE_HASH
    assert episode == sha256(json.dumps(FACT_HASH) + json.dumps(CONTEXT_HASH))


def test_memory_proof_is_a_placeholder(memory_result: RunResult) -> None:
    assert memory_result.outputs["memory_record"]["proof"] == {
        "status": "unsigned",
        "trace_hash": None,
        "signer": None,
        "signature": None,
    }


def test_memory_uses_runtime_nodes_only_and_no_mergemap() -> None:
    graph = load("example_memory.0")
    assert {node.type for node in graph.nodes} == {"Constant", "Operation"}
    assert {node.op for node in graph.nodes if node.type == "Operation"} == {"Hash", "Concat", "SetField"}
    assert graph.outputs == ["memory_record"]


def test_flat_mergemap_would_lose_memory_parts() -> None:
    """The trap SetField avoids: a flat MergeMap keeps the last relation only and drops every Hash."""
    parts = [f"rel_{name}_record" for name in RELATIONS] + [
        "concept_agent_hash",
        "context",
        "context_hash",
        "proof",
    ]
    flat = f'{{ id: "flat", type: Operation, op: MergeMap, inputs: {json.dumps(parts)} }},'
    source = (EXAMPLES / "example_memory.0").read_text(encoding="utf-8")
    ending = re.compile(r'\n    \],\s*outputs: \["memory_record"\]')
    edited = ending.sub(lambda _: f'\n        {flat}\n    ],\n    outputs: ["flat"]', source)
    assert edited != source
    result = run(parse(edited))
    merged = result.outputs["flat"]
    # one relation survives (the last), the concept hash and the context hash are gone
    assert merged["subject"] == "long-term-memory" and merged["object"] == "episodic-memory"
    assert AGENT_HASH not in json.dumps(to_json(merged))
    assert CONTEXT_HASH not in json.dumps(to_json(merged))
    assert "event_time" in merged and "status" in merged  # the maps did merge, key by key
