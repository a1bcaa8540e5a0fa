"""`zero viz` and `zerolang.tools.viz`: Mermaid and DOT text of the examples, escaping, marks, and rendering.

The texts are pinned by syrupy snapshots (`pytest --snapshot-update` after a
deliberate change). Rendering needs Graphviz's `dot`: those tests skip where
it is missing, and the missing-`dot` error is tested by hiding it.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from tests.strategies import runnable_graphs
from zerolang.cli.app import app
from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse, parse_file
from zerolang.tools.viz import MISSING, UNKNOWN, dot_string, drawing, mermaid_text, to_dot, to_mermaid

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted([*(ROOT / "examples").rglob("*.0"), ROOT / "schema" / "schema.0"])
DRAWABLE = [path for path in EXAMPLES if path.name != "missing_comma.0"]  # a syntax error on purpose
HELLO = str(ROOT / "examples" / "hello.0")
runner = CliRunner()


def ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", DRAWABLE, ids=ids)
def test_mermaid_snapshot(path: Path, snapshot: Any) -> None:
    assert to_mermaid(parse_file(path)) == snapshot


@pytest.mark.parametrize("path", DRAWABLE, ids=ids)
def test_dot_snapshot(path: Path, snapshot: Any) -> None:
    assert to_dot(parse_file(path)) == snapshot


def graph(nodes: str, outputs: str = "[]", name: str = '"g"') -> Graph:
    return parse(f"Graph {{ name: {name}, nodes: [{nodes}], outputs: {outputs} }}")


def edges_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if "->" in line or "-.->" in line]


# ---- what is drawn ---------------------------------------------------------


def test_nodes_show_id_and_op_or_type() -> None:
    drawn = drawing(parse_file(HELLO))
    assert [(node.title, node.detail) for node in drawn.nodes] == [
        ("name", "External"),
        ("salutation", "Constant"),
        ("greeting", "Concat"),
        ("shout", "ToUpper"),
        ("fingerprint", "Hash"),
    ]


def test_field_references_label_their_edges() -> None:
    router = parse_file(ROOT / "examples" / "router.0")
    dot = to_dot(router)
    keys = {node.title: node.key for node in drawing(router).nodes}
    assert f'{keys["route"]} -> {keys["handler"]} [label="target"];' in dot
    assert f'{keys["permission"]} -> {keys["decision"]} [label="granted"];' in dot
    assert f'{keys["route"]} -->|"target"| {keys["handler"]}' in to_mermaid(router)
    assert f"{keys['message']} -> {keys['command']};" in dot  # a whole-value input: no label


def test_a_nested_field_reference_keeps_its_whole_path() -> None:
    g = graph(
        '{ id: "a", type: Constant, value: {} }, { id: "b", type: Operation, op: Identity, inputs: ["a.x.y"] }'
    )
    assert edges_of(to_dot(g)) == ['n0 -> n1 [label="x.y"];']


def test_unknown_types_and_ops_are_marked() -> None:
    legacy = parse_file(ROOT / "examples" / "broken" / "legacy.0")
    drawn = {node.title: node for node in drawing(legacy).nodes}
    assert drawn["all"].kind == UNKNOWN and drawn["all"].detail == "Aggregate (unknown type)"
    assert drawn["same"].kind == UNKNOWN and drawn["same"].detail == "Eq (unknown op)"
    assert drawn["meta"].kind == "Operation"
    mermaid = to_mermaid(legacy)
    assert f"class {drawn['same'].key},{drawn['all'].key} unknown" in mermaid
    assert "classDef unknown fill:#ffebee,stroke:#c62828" in mermaid
    dot = to_dot(legacy)
    line = next(line for line in dot.splitlines() if line.strip().startswith(f"{drawn['all'].key} ["))
    assert 'color="#c62828"' in line and "Aggregate (unknown type)" in line


def test_missing_type_and_missing_op_are_marked_too() -> None:
    g = graph('{ id: "a" }, { id: "b", type: Operation }')
    assert [(node.detail, node.kind) for node in drawing(g).nodes] == [
        ("(no type)", UNKNOWN),
        ("Operation (no op)", UNKNOWN),
    ]


def test_a_reference_to_no_node_gets_a_dashed_placeholder() -> None:
    legacy = parse_file(ROOT / "examples" / "broken" / "legacy.0")
    (placeholder,) = [node for node in drawing(legacy).nodes if node.kind == MISSING]
    assert (placeholder.title, placeholder.detail) == ("input", "(no such node)")
    assert 'style="filled,dashed"' in to_dot(legacy)
    assert f'{placeholder.key} -->|"metadata"|' in to_mermaid(legacy)


def test_outputs_are_marked_with_their_fields() -> None:
    router = parse_file(ROOT / "examples" / "router.0")
    drawn = {node.title: node for node in drawing(router).nodes}
    assert drawn["decision"].lines()[-1] == "output"
    assert drawn["route"].lines()[-1] == "output: .target"
    assert not drawn["message"].is_output
    dot = to_dot(router)
    marked = {line.split()[0] for line in dot.splitlines() if 'peripheries="2"' in line}
    assert marked == {node.key for node in drawn.values() if node.is_output}
    assert len(marked) == 6
    mermaid = to_mermaid(router)
    assert "classDef output stroke-width:4px" in mermaid
    (output_class,) = [line for line in mermaid.splitlines() if line.strip().endswith(" output")]
    assert set(output_class.split()[1].split(",")) == marked


def test_an_output_that_is_both_whole_and_a_field() -> None:
    g = graph('{ id: "m", type: Constant, value: { a: 1 } }', '["m", "m.a", "m.a"]')
    assert drawing(g).nodes[0].lines() == ["m", "Constant", "output: value, .a"]


def test_an_output_naming_no_node_is_a_marked_placeholder() -> None:
    g = graph('{ id: "a", type: Constant, value: 1 }', '["ghost.x"]')
    ghost = drawing(g).nodes[1]
    assert (ghost.title, ghost.kind, ghost.outputs) == ("ghost", MISSING, ["x"])


def test_implicit_reads_are_dashed_edges_unless_listed_as_inputs() -> None:
    g = graph(
        '{ id: "flag", type: Constant, value: true },'
        '{ id: "sender_confidence", type: External, uri: "input://c" },'
        '{ id: "route", type: Route, conditions: [{ input: "flag", threshold: 1, target: "t" }] },'
        '{ id: "perm", type: Permission, action: "a", min_confidence: 0.5 },'
        '{ id: "listed", type: Permission, inputs: ["sender_confidence"], action: "a", min_confidence: 0.5 }'
    )
    assert edges_of(to_dot(g)) == [
        'n0 -> n2 [label="condition", style="dashed"];',
        'n1 -> n3 [label="confidence", style="dashed"];',
        "n1 -> n4;",
    ]
    assert edges_of(to_mermaid(g)) == [
        'n0 -.->|"condition"| n2',
        'n1 -.->|"confidence"| n3',
        "n1 --> n4",
    ]


def test_duplicate_ids_are_drawn_and_references_go_to_the_first() -> None:
    g = graph(
        '{ id: "a", type: Constant, value: 1 }, { id: "a", type: Constant, value: 2 },'
        '{ id: "b", type: Operation, op: Identity, inputs: ["a"] }'
    )
    assert [node.key for node in drawing(g).nodes] == ["n0", "n1", "n2"]
    assert edges_of(to_dot(g)) == ["n0 -> n2;"]


def test_a_node_without_an_id_is_drawn() -> None:
    g = graph("{ type: Constant, value: 1 }, { id: 7, type: Constant, value: 2 }")
    assert [node.title for node in drawing(g).nodes] == ["(no id)", "(no id)"]


def test_an_empty_graph() -> None:
    assert to_mermaid(graph("")) == '---\ntitle: "g"\n---\nflowchart TB\n'
    assert to_dot(graph("")).endswith("}\n")


# ---- escaping --------------------------------------------------------------


def test_mermaid_escaping() -> None:
    assert mermaid_text('say "hi"') == "say #quot;hi#quot;"
    assert mermaid_text("two\nlines") == "two<br/>lines"
    assert mermaid_text("a#b;<i>&`c`") == "a#35;b;#lt;i#gt;#amp;#96;c#96;"
    assert mermaid_text("crlf\r\n") == "crlf<br/>"


def test_dot_escaping() -> None:
    assert dot_string('say "hi"') == '"say \\"hi\\""'
    assert dot_string("two\nlines") == '"two\\nlines"'
    assert dot_string("back\\slash \\n") == '"back\\\\slash \\\\n"'
    assert dot_string("<b>html</b>") == '"<b>html</b>"'  # quoted: never an HTML label


WEIRD = (
    'Graph { name: "we\\"ird\\n# <b>", nodes: ['
    '{ id: "q\\"uote\\nline\\\\back #1; <i> `t`", type: Constant, value: 1 },'
    '{ id: "user", type: Operation, op: GetField, inputs: ["q\\"uote\\nline\\\\back #1; <i> `t`.f\\"x"] }'
    "], outputs: [] }"
)


def test_labels_with_quotes_newlines_and_markup_are_escaped_in_both_formats() -> None:
    g = parse(WEIRD)
    mermaid = to_mermaid(g)
    assert 'title: "we\\"ird\\n# <b>"' in mermaid  # a YAML double-quoted string
    assert 'n0("q#quot;uote<br/>line\\back #35;1; #lt;i#gt; #96;t#96;<br/>Constant")' in mermaid
    assert 'n0 -->|"f#quot;x"| n1' in mermaid
    dot = to_dot(g)
    assert 'digraph "we\\"ird\\n# <b>" {' in dot
    assert 'n0 [label="q\\"uote\\nline\\\\back #1; <i> `t`\\nConstant"' in dot
    assert 'n0 -> n1 [label="f\\"x"];' in dot


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_reads_escaped_labels_back_exactly() -> None:
    result = subprocess.run(
        ["dot", "-Tjson"], input=to_dot(parse(WEIRD)), capture_output=True, text=True, timeout=60, check=True
    )
    import json

    document = json.loads(result.stdout)
    labels = {item["name"]: item["label"] for item in document["objects"]}
    assert labels["n0"] == 'q"uote\\nline\\\\back #1; <i> `t`\\nConstant'  # dot's own escaping, undone once
    assert document["label"] == 'we"ird\\n# <b>'


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runnable_graphs())
def test_every_input_is_one_edge_between_declared_nodes(g: Graph) -> None:
    drawn = drawing(g)
    keys = {node.key for node in drawn.nodes}
    assert len(drawn.nodes) == len(g.nodes)  # a valid graph needs no placeholder
    assert len(drawn.edges) == sum(len(node.inputs) for node in g.nodes)
    for edge in drawn.edges:
        assert {edge.source, edge.target} <= keys
    mermaid, dot = to_mermaid(g), to_dot(g)
    for key in keys:
        assert re.search(rf"^    {key}[\[(]", mermaid, re.M)
        assert re.search(rf"^    {key} \[", dot, re.M)


# ---- the command -----------------------------------------------------------


def test_help_lists_viz() -> None:
    result = runner.invoke(app, ["--help"])
    assert "viz" in result.output


def test_prints_mermaid_by_default() -> None:
    result = runner.invoke(app, ["viz", HELLO])
    assert result.exit_code == 0, result.output
    assert result.stdout == to_mermaid(parse_file(HELLO))


def test_prints_dot_with_format_dot() -> None:
    result = runner.invoke(app, ["viz", HELLO, "--format", "dot"])
    assert result.exit_code == 0, result.output
    assert result.stdout == to_dot(parse_file(HELLO))


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("out.dot", [], "dot"),
        ("out.gv", [], "dot"),
        ("out.mmd", [], "mermaid"),
        ("out.txt", ["-f", "mermaid"], "mermaid"),
        ("out.txt", ["-f", "dot"], "dot"),
        ("out.dot", ["--format", "mermaid"], "mermaid"),
        ("OUT.DOT", [], "dot"),
    ],
)
def test_writes_text_files(tmp_path: Path, name: str, options: list[str], expected: str) -> None:
    target = tmp_path / name
    result = runner.invoke(app, ["viz", HELLO, "-o", str(target), *options])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {target}\n"
    render = to_dot if expected == "dot" else to_mermaid
    assert target.read_text(encoding="utf-8") == render(parse_file(HELLO))
    assert os.listdir(tmp_path) == [name]
    assert stat.S_IMODE(target.stat().st_mode) & 0o644 == 0o644


def test_overwriting_keeps_the_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "graph.dot"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    assert runner.invoke(app, ["viz", HELLO, "-o", str(target)]).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_text(encoding="utf-8").startswith("digraph")


def test_a_folder_that_does_not_exist_is_one_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["viz", HELLO, "-o", str(tmp_path / "nope" / "graph.mmd")])
    assert result.exit_code == 1
    assert "graph.mmd: cannot write here (No such file or directory)" in result.output
    assert "Traceback" not in result.output


def test_a_syntax_error_is_reported_not_drawn() -> None:
    result = runner.invoke(app, ["viz", str(ROOT / "examples" / "broken" / "missing_comma.0")])
    assert result.exit_code == 1
    assert "expected `,` or `]` after a node" in result.output


def test_an_invalid_graph_is_still_drawn() -> None:
    result = runner.invoke(app, ["viz", str(ROOT / "examples" / "broken" / "legacy.0")])
    assert result.exit_code == 0
    assert "Aggregate (unknown type)" in result.stdout


def test_a_missing_file_is_one_clear_error() -> None:
    result = runner.invoke(app, ["viz", "/nonexistent/graph.0"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: /nonexistent/graph.0: no such file"


def test_an_unknown_format_is_a_usage_error() -> None:
    result = runner.invoke(app, ["viz", HELLO, "--format", "png"])
    assert result.exit_code == 2


def test_images_without_graphviz_say_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    target = tmp_path / "graph.svg"
    result = runner.invoke(app, ["viz", HELLO, "-o", str(target)])
    assert result.exit_code == 1
    message = " ".join(result.output.split())
    assert "needs Graphviz's `dot` program, which is not installed" in message
    assert "sudo apt install graphviz" in message and "brew install graphviz" in message
    assert "--format dot" in message
    assert "Traceback" not in result.output
    assert os.listdir(tmp_path) == []


def test_mermaid_cannot_be_an_image(tmp_path: Path) -> None:
    result = runner.invoke(app, ["viz", HELLO, "-f", "mermaid", "-o", str(tmp_path / "graph.png")])
    assert result.exit_code == 1
    assert "for Mermaid text write a .mmd file" in result.output
    assert os.listdir(tmp_path) == []


def fake_dot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    program = tmp_path / "bin" / "dot"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setattr(
        shutil, "which", lambda name, *args, **kwargs: str(program) if name == "dot" else None
    )


def test_a_failing_renderer_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Writes half a picture, then fails, as a crashing renderer would.
    fake_dot(
        tmp_path,
        monkeypatch,
        'for a; do out="$a"; done\necho half > "$out"\necho "syntax error" >&2\nexit 1\n',
    )
    out = tmp_path / "out"
    out.mkdir()
    target = out / "graph.svg"
    target.write_text("the old picture", encoding="utf-8")
    result = runner.invoke(app, ["viz", HELLO, "-o", str(target)])
    assert result.exit_code == 1
    assert "Graphviz's dot failed: syntax error" in result.output
    assert target.read_text(encoding="utf-8") == "the old picture"
    assert os.listdir(out) == ["graph.svg"]


def test_the_renderer_gets_dot_text_and_the_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Records its arguments and input instead of drawing.
    fake_dot(tmp_path, monkeypatch, 'for a; do out="$a"; done\n{ echo "$1"; cat; } > "$out"\n')
    target = tmp_path / "graph.pdf"
    result = runner.invoke(app, ["viz", HELLO, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8") == "-Tpdf\n" + to_dot(parse_file(HELLO))


needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


@needs_dot
@pytest.mark.slow
@pytest.mark.parametrize(("suffix", "magic"), [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_renders_images_with_graphviz(tmp_path: Path, suffix: str, magic: bytes) -> None:
    target = tmp_path / f"memory{suffix}"
    result = runner.invoke(app, ["viz", str(ROOT / "examples" / "example_memory.0"), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(magic)
    assert os.listdir(tmp_path) == [target.name]


@needs_dot
@pytest.mark.slow
def test_the_readme_picture_is_what_viz_draws_today(tmp_path: Path) -> None:
    """docs/images/example_memory.svg: regenerate with `zero viz examples/example_memory.0 -o ...`."""
    target = tmp_path / "example_memory.svg"
    assert (
        runner.invoke(app, ["viz", str(ROOT / "examples" / "example_memory.0"), "-o", str(target)]).exit_code
        == 0
    )
    committed = (ROOT / "docs" / "images" / "example_memory.svg").read_text(encoding="utf-8")

    def texts(svg: str) -> list[str]:  # the words drawn, which do not depend on the Graphviz version
        return re.findall(r"<text[^>]*>([^<]*)</text>", svg)

    assert texts(target.read_text(encoding="utf-8")) == texts(committed)
