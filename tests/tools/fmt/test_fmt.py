"""`zero fmt`: the canonical style, its three guarantees, and the command's behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion
from typer.testing import CliRunner

from tests.budget import scaled
from tests.strategies import commented_graphs
from zerolang.cli.app import app
from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.tools.formatter import comments_of, format_source, to_compat
from zerolang.util.errors import ZeroSyntaxError

ROOT = Path(__file__).resolve().parents[3]
CASES = sorted((Path(__file__).parent / "cases").glob("*.0"))
EXAMPLES = sorted([*ROOT.glob("examples/*.0"), *ROOT.glob("schema/*.0")])
runner = CliRunner()


def split_case(path: Path) -> tuple[str, str]:
    """A case file is its input, a `# output` line, then the expected output (black's layout)."""
    source, _, expected = path.read_text(encoding="utf-8").partition("# output\n")
    return source, expected


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_case(case: Path) -> None:
    source, expected = split_case(case)
    assert format_source(source, str(case)) == expected
    assert format_source(expected) == expected


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
def test_examples_snapshot(example: Path, snapshot: SnapshotAssertion) -> None:
    formatted = format_source(example.read_text(encoding="utf-8"), str(example))
    assert formatted == snapshot
    assert parse(formatted) == parse(example.read_text(encoding="utf-8"))


def test_crlf_files_stay_crlf() -> None:
    source = 'Graph {\r\n  name: "x", # c\r\n  nodes: [],\r\n  outputs: [],\r\n}\r\n'
    assert (
        format_source(source)
        == 'Graph {\r\n    name: "x",  # c\r\n    nodes: [],\r\n    outputs: [],\r\n}\r\n'
    )


def test_width_is_configurable() -> None:
    source = 'Graph { nodes: [ { id: "a", type: Operation, op: Concat, inputs: ["x", "y"] } ] }'
    narrow = format_source(source, width=40)
    assert "            op: Concat,\n" in narrow
    assert '{ id: "a", type: Operation, op: Concat, inputs: ["x", "y"] }' in format_source(source, width=100)


def test_syntax_error_is_raised_not_formatted() -> None:
    with pytest.raises(ZeroSyntaxError):
        format_source("Graph { a: }", "bad.0")


LAYOUTS = st.one_of(
    st.integers(min_value=20, max_value=200).map(lambda w: ("width", w)), st.just(("compat", 100))
)


@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commented_graphs(), LAYOUTS)
def test_formatting_keeps_meaning_comments_and_is_idempotent(graph: Graph, layout: tuple[str, int]) -> None:
    style, width = layout
    messy = print_graph(graph, width=width, compat=style == "compat")
    once = format_source(messy)
    assert parse(once) == parse(messy)  # the meaning, spans aside
    assert comments_of(parse(once)) == comments_of(parse(messy))  # every comment, in order
    assert format_source(once) == once  # idempotent


def test_compat_style_and_warnings() -> None:
    source = 'Graph { name: "x", nodes: [ { id: t, type: Constant, value: "2026-02-18T00:00:00Z" }, { id: h, type: Constant, value: "a # b" } ], outputs: ["t"], proofs: [P { n: 1 }] }'
    result = to_compat(source, "x.0")
    assert '"type": "Constant"' in result.text and '"outputs": ["t"]' in result.text
    assert '"proofs": [{ "n": 1 }]' in result.text
    lines = result.text.splitlines()
    assert not any(
        lines[i].endswith(",") and lines[i + 1].strip() in ("]", "}") for i in range(len(lines) - 1)
    )
    messages = [(w.code, w.span.line if w.span else 0, w.message) for w in result.warnings]
    assert (
        "P001",
        1,
        "the old runtime's parser would corrupt this string: `18T00:` would be quoted as a key",
    ) in messages
    assert any(code == "P001" and "`#`" in message for code, _, message in messages)
    assert any(code == "P002" for code, _, _ in messages)


# The command


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


UGLY = '{"name": "x", "nodes": [], "outputs": []}'


def test_fmt_rewrites_in_place_recursively(tmp_path: Path) -> None:
    first = write(tmp_path, "a.0", f"Graph {UGLY}")
    second = write(tmp_path, "sub/b.0", f"Graph {UGLY}")
    hidden = write(tmp_path, ".hidden/c.0", f"Graph {UGLY}")
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 0, result.output
    expected = 'Graph {\n    name: "x",\n    nodes: [],\n    outputs: [],\n}\n'
    assert first.read_text() == expected and second.read_text() == expected
    assert hidden.read_text() == f"Graph {UGLY}"
    assert "2 files reformatted, 0 files already formatted" in result.output


def test_fmt_check_and_diff_change_nothing(tmp_path: Path) -> None:
    ugly = write(tmp_path, "a.0", f"Graph {UGLY}")
    neat = write(tmp_path, "b.0", 'Graph {\n    name: "x",\n}\n')
    check = runner.invoke(app, ["fmt", "--check", str(ugly), str(neat)])
    assert check.exit_code == 1
    assert f"would reformat {ugly}" in check.output and f"would reformat {neat}" not in check.output
    diff = runner.invoke(app, ["fmt", "--diff", str(ugly)])
    assert diff.exit_code == 1  # as --check: something would change
    assert f"--- {ugly} (original)" in diff.output and '+    name: "x",' in diff.output
    assert ugly.read_text() == f"Graph {UGLY}"
    assert runner.invoke(app, ["fmt", "--check", str(neat)]).exit_code == 0


def test_fmt_stdin_to_stdout() -> None:
    result = runner.invoke(app, ["fmt", "-"], input=f"Graph {UGLY}")
    assert result.exit_code == 0
    assert result.stdout == 'Graph {\n    name: "x",\n    nodes: [],\n    outputs: [],\n}\n'


def test_fmt_reports_bad_file_and_leaves_it(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.0", "Graph { name: }")
    good = write(tmp_path, "good.0", f"Graph {UGLY}")
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{bad}:1:15: expected a value after `name:`, found `}}`" in result.output
    assert bad.read_text() == "Graph { name: }"
    assert good.read_text().startswith("Graph {\n")


def test_fmt_line_width_from_pyproject(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "[tool.zero]\nline-width = 40\n")
    graph = write(
        tmp_path, "g.0", 'Graph { nodes: [ { id: "a", type: Operation, op: Concat, inputs: ["x", "y"] } ] }'
    )
    assert runner.invoke(app, ["fmt", str(graph)]).exit_code == 0
    assert "            op: Concat,\n" in graph.read_text()
    bad = write(tmp_path, "sub/pyproject.toml", "[tool.zero]\nline-width = 'wide'\n")
    other = write(tmp_path, "sub/g.0", "Graph { }")
    result = runner.invoke(app, ["fmt", str(other)])
    assert result.exit_code == 2 and f"{bad}: [tool.zero] line-width must be an integer" in result.output


def test_fmt_compat_prints_and_warns(tmp_path: Path) -> None:
    graph = write(tmp_path, "t.0", 'Graph { name: "at 10:30", nodes: [], outputs: [] }')
    result = runner.invoke(app, ["fmt", "--compat", str(graph)])
    assert result.exit_code == 0
    assert '"name": "at 10:30"' in result.stdout
    assert f"{graph}:1:15: warning: the old runtime's parser would corrupt this string" in result.output
    assert graph.read_text() == 'Graph { name: "at 10:30", nodes: [], outputs: [] }'


def test_no_files_found_is_a_warning(tmp_path: Path) -> None:
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 0 and "no .0 or .0c files" in result.output


def test_fmt_finds_0c_files_in_folders(tmp_path: Path) -> None:
    loose = "0M:1.0\nagent\nb\nX:2026-01-01 s c\n@2026-01-01\n1 uses2 .95\n1 likes1\n"
    canonical = "0M:1.0\nagent\nb\nX:2026-01-01 s c\n@2026-01-01\n1 uses2 95; likes1\n"
    memory = write(tmp_path, "memory/deep/a.0c", loose)
    graph = write(tmp_path, "g.0", 'Graph{name:"g",nodes:[],outputs:[]}')
    hidden = write(tmp_path, ".cache/b.0c", loose)
    other = write(tmp_path, "notes.0cx", loose)
    check = runner.invoke(app, ["fmt", "--check", str(tmp_path)])
    assert check.exit_code == 1
    assert f"would reformat {memory}" in check.output and f"would reformat {graph}" in check.output
    assert "2 files would be reformatted" in check.output
    assert runner.invoke(app, ["fmt", str(tmp_path)]).exit_code == 0
    assert memory.read_text(encoding="utf-8") == canonical
    assert hidden.read_text(encoding="utf-8") == other.read_text(encoding="utf-8") == loose
    assert runner.invoke(app, ["fmt", "--check", str(tmp_path)]).exit_code == 0


def test_fmt_reports_a_bad_0c_file_in_a_folder(tmp_path: Path) -> None:
    bad = write(tmp_path, "m/bad.0c", "0M:1.0\nagent\n1 uses9\n")
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 1
    assert str(bad) in result.output and "1 file could not be formatted" in result.output


def test_fmt_keeps_l0_and_l1_exports_and_checks_them(tmp_path: Path) -> None:
    samples = ROOT / "tests" / "tools" / "highlight" / "samples"
    for sample in samples.glob("*.0c"):
        write(tmp_path, sample.name, sample.read_text(encoding="utf-8"))
    assert runner.invoke(app, ["fmt", "--check", str(tmp_path)]).exit_code == 0
    bad = write(tmp_path, "bad_l1.0c", "0M:1.0 L1 concepts=1 facts=1\nagent\n1 likes2\n")
    result = runner.invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{bad}:3:3: there is no concept 2" in result.output
    assert bad.read_text(encoding="utf-8") == "0M:1.0 L1 concepts=1 facts=1\nagent\n1 likes2\n"
