"""The conventions of ruff, black and cargo for `zero check`, `fmt`, `lint` and `viz` (issue 41, point 5):
--exclude / --extend-exclude (and [tool.zero]), .gitignore, --stdin-filename, --quiet, --exit-zero,
--statistics, --output-file, --color; fmt --diff exits 1 on a change; check defaults to `.`; a bad config
exits 2; viz -o picks the format from the suffix or refuses it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.util import config

ROOT = Path(__file__).resolve().parents[2]
HELLO = (ROOT / "examples" / "hello.0").read_text(encoding="utf-8")
UNUSED = HELLO.replace("  ],", '    { id: "spare", type: Constant, value: 1 },\n  ],', 1)
UGLY = 'Graph{name:"u",nodes:[{id:"a",type:Constant,value:1}],outputs:["a"]}\n'
runner = CliRunner()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project: graphs in build/, gen/ (git-ignored), docs/old/, .hidden/ and a virtual environment."""
    for folder in ("build", "gen", "docs/old", ".hidden", "env", "src"):
        (tmp_path / folder).mkdir(parents=True)
    for name in ("build/a.0", "gen/b.0", "docs/old/c.0", ".hidden/d.0", "env/e.0", "src/f.0"):
        (tmp_path / name).write_text(HELLO, encoding="utf-8")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("gen/\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def checked(*arguments: str) -> list[str]:
    result = runner.invoke(app, ["check", *arguments])
    assert result.exit_code == 0, result.output
    return sorted(line.split(":")[0] for line in result.stdout.splitlines())


def test_check_defaults_to_the_current_folder_and_walks_as_ruff(project: Path) -> None:
    # build/ is searched (no fixed list skips it); gen/ is git-ignored; hidden folders and venvs are not.
    assert checked() == ["build/a.0", "docs/old/c.0", "src/f.0"]


def test_a_gitignore_in_a_subfolder_and_negation(project: Path) -> None:
    (project / "docs" / ".gitignore").write_text("old/\n", encoding="utf-8")
    assert checked() == ["build/a.0", "src/f.0"]
    (project / ".gitignore").write_text("*.0\n!src/f.0\n", encoding="utf-8")
    assert checked() == ["src/f.0"]


def test_exclude_and_extend_exclude_on_the_command_line(project: Path) -> None:
    assert checked("--extend-exclude", "build,docs/old") == ["src/f.0"]
    assert checked(".", "--extend-exclude", "build", "--extend-exclude", "f.0") == ["docs/old/c.0"]
    # --exclude replaces the defaults: hidden folders are searched then (virtual environments never are).
    assert checked("--exclude", "docs") == [".hidden/d.0", "build/a.0", "src/f.0"]
    # A file named on the command line is checked even when excluded.
    assert checked("gen/b.0", "--exclude", "gen") == ["gen/b.0"]


def test_exclude_and_extend_exclude_in_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.zero]\nextend-exclude = ["build/"]\n', encoding="utf-8")
    assert checked() == ["docs/old/c.0", "src/f.0"]
    (project / "pyproject.toml").write_text('[tool.zero]\nexclude = ["src"]\n', encoding="utf-8")
    config._load.cache_clear()  # read once per process: this one's test changes it
    assert checked() == [".hidden/d.0", "build/a.0", "docs/old/c.0"]
    # The command line's --exclude wins over the config's.
    assert checked("--exclude", "docs,.hidden") == ["build/a.0", "src/f.0"]


@pytest.mark.parametrize("command", ["check", "lint", "fmt"])
def test_every_walking_command_honours_exclusions(project: Path, command: str) -> None:
    (project / "src" / "f.0").write_text(UGLY.replace('"u"', '"f"'), encoding="utf-8")
    arguments = [command, "--extend-exclude", "build,docs", *(["--check"] if command == "fmt" else [])]
    result = runner.invoke(app, arguments)
    shown = result.stdout + result.stderr
    assert "build/a.0" not in shown and "docs/old" not in shown and "gen/b.0" not in shown
    if command == "fmt":
        assert (result.exit_code, "would reformat src/f.0" in shown) == (1, True)


def test_quiet_and_exit_zero(project: Path) -> None:
    (project / "src" / "bad.0").write_text("Graph {", encoding="utf-8")
    loud = runner.invoke(app, ["check", "src"])
    assert loud.exit_code == 1 and "src/f.0: ok" in loud.stdout and "1 of 2 files" in loud.stderr
    quiet = runner.invoke(app, ["check", "src", "-q"])
    assert quiet.exit_code == 1 and quiet.stdout == "" and "src/bad.0:1:" in quiet.stderr
    assert "files have problems" not in quiet.stderr and "files has problems" not in quiet.stderr
    assert runner.invoke(app, ["check", "src", "--exit-zero"]).exit_code == 0

    (project / "src" / "bad.0").write_text(UNUSED, encoding="utf-8")
    lint = runner.invoke(app, ["lint", "src", "--quiet"])
    assert lint.exit_code == 1 and "Z011" in lint.stdout and "Found" not in lint.stdout
    clean = runner.invoke(app, ["lint", "src/f.0", "--quiet"])
    assert (clean.exit_code, clean.stdout) == (0, "")
    assert runner.invoke(app, ["lint", "src", "--exit-zero"]).exit_code == 0

    fmt = runner.invoke(app, ["fmt", "--check", "-q", "src/f.0"])
    assert fmt.exit_code == 0 and fmt.output == ""
    (project / "src" / "f.0").write_text(UGLY, encoding="utf-8")
    fmt = runner.invoke(app, ["fmt", "--check", "-q", "src/f.0"])
    assert fmt.exit_code == 1 and fmt.output == ""


def test_lint_statistics(project: Path) -> None:
    (project / "src" / "f.0").write_text(UNUSED, encoding="utf-8")
    (project / "build" / "a.0").write_text(
        UNUSED.replace("type: Constant, value: 1", "type: Constnt, value: 1")
    )
    text = runner.invoke(app, ["lint", "src", "build", "--statistics"])
    assert text.exit_code == 1
    rows = [line.split("\t") for line in text.stdout.splitlines()]
    assert [row[1] for row in rows] == ["Z011", "Z002"] or [row[1] for row in rows] == ["Z002", "Z011"]
    assert {row[1]: int(row[0]) for row in rows} == {"Z011": 2, "Z002": 1}
    as_json = runner.invoke(app, ["lint", "src", "build", "--statistics", "--format", "json"])
    counted = {row["code"]: row for row in json.loads(as_json.stdout)}
    assert counted["Z011"]["count"] == 2 and counted["Z011"]["name"] == "unused-node"
    assert counted["Z011"]["fixable"] is False  # unsafe: --fix alone leaves it


def test_output_file_holds_the_report(project: Path) -> None:
    (project / "src" / "f.0").write_text(UNUSED, encoding="utf-8")
    result = runner.invoke(app, ["lint", "src", "--output-file", "report.txt", "--format", "json"])
    assert result.exit_code == 1 and result.stdout == ""
    (finding,) = json.loads((project / "report.txt").read_text(encoding="utf-8"))
    assert finding["code"] == "Z011"
    checked_to = runner.invoke(app, ["check", "build", "--output-file", "check.txt"])
    assert checked_to.exit_code == 0 and checked_to.stdout == ""
    assert (project / "check.txt").read_text(encoding="utf-8") == "build/a.0: ok (5 nodes)\n"


def test_stdin_filename(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.zero.lint.per-file-ignores]\n"src/*.0" = ["Z011"]\n', encoding="utf-8"
    )
    named = runner.invoke(app, ["check", "--stdin-filename", "src/new.0"], input=HELLO)
    assert (named.exit_code, named.stdout) == (0, "src/new.0: ok (5 nodes)\n")
    broken = runner.invoke(app, ["check", "-", "--stdin-filename", "src/new.0"], input="Graph {")
    assert broken.exit_code == 1 and "src/new.0:1:" in broken.stderr
    # Its settings follow the name: per-file-ignores of src/ apply to it, not to another name.
    assert runner.invoke(app, ["lint", "--stdin-filename", "src/new.0"], input=UNUSED).exit_code == 0
    other = runner.invoke(app, ["lint", "-", "--stdin-filename", "top.0"], input=UNUSED)
    assert other.exit_code == 1 and "top.0:" in other.stdout
    formatted = runner.invoke(app, ["fmt", "--stdin-filename", "src/u.0"], input=UGLY)
    assert formatted.exit_code == 0 and formatted.stdout.startswith("Graph {")


def test_fmt_diff_exits_1_when_it_would_change_something(project: Path) -> None:
    (project / "src" / "f.0").write_text(UGLY, encoding="utf-8")
    changed = runner.invoke(app, ["fmt", "--diff", "src"])
    assert changed.exit_code == 1 and "+++ src/f.0 (formatted)" in changed.stdout
    assert (project / "src" / "f.0").read_text(encoding="utf-8") == UGLY  # nothing written
    runner.invoke(app, ["fmt", "src"])
    assert runner.invoke(app, ["fmt", "--diff", "src"]).exit_code == 0
    assert runner.invoke(app, ["fmt", "--diff", "-"], input=UGLY).exit_code == 1


def test_color(project: Path) -> None:
    (project / "src" / "f.0").write_text(UGLY, encoding="utf-8")
    always = runner.invoke(app, ["fmt", "--diff", "src", "--color", "always"], env={"NO_COLOR": "1"})
    assert "\x1b[" in always.stdout
    never = runner.invoke(app, ["fmt", "--diff", "src", "--color", "never"], env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in never.stdout and "+++ src/f.0" in never.stdout
    bad = runner.invoke(app, ["check", "--color", "blue"])
    assert bad.exit_code == 2 and "'blue' is not one of" in bad.output


@pytest.mark.parametrize("command", ["check", "lint", "fmt"])
def test_a_bad_config_exits_2(project: Path, command: str) -> None:
    (project / "pyproject.toml").write_text("[tool.zero]\nline-width = 3\n", encoding="utf-8")
    result = runner.invoke(app, [command, "src"])
    assert result.exit_code == 2, result.output
    assert "pyproject.toml: [tool.zero] line-width must be" in result.stderr
    assert "Traceback" not in result.output


def test_a_bad_rule_code_in_the_config_exits_2(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.zero.lint]\nignore = ["Z999"]\n', encoding="utf-8")
    result = runner.invoke(app, ["lint", "src"])
    assert result.exit_code == 2 and "unknown rule code `Z999`" in result.stderr


@pytest.mark.parametrize(
    ("name", "first"),
    [("g.mmd", "---"), ("g.mermaid", "---"), ("g.dot", "digraph"), ("g.gv", "digraph")],
)
def test_viz_infers_the_format_from_the_suffix(project: Path, name: str, first: str) -> None:
    result = runner.invoke(app, ["viz", "src/f.0", "-o", name])
    assert result.exit_code == 0, result.output
    assert (project / name).read_text(encoding="utf-8").startswith(first)


@pytest.mark.parametrize("name", ["t.txt", "graph", "g.jpeg"])
def test_viz_refuses_a_suffix_it_cannot_tell(project: Path, name: str) -> None:
    result = runner.invoke(app, ["viz", "src/f.0", "-o", name])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "cannot tell the format from the suffix" in result.stderr
    assert not (project / name).exists()
    assert runner.invoke(app, ["viz", "src/f.0", "-o", name, "--format", "dot"]).exit_code == 0


def _completed(words: str, shell: str = "bash") -> list[str]:
    """What `zero`'s completion offers after `words` (the word being typed is the last one)."""
    import os
    import subprocess
    import sys

    environment = {**os.environ, "_ZERO_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        environment |= {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    else:
        environment["_TYPER_COMPLETE_ARGS"] = words
    result = subprocess.run(
        [sys.executable, "-m", "zerolang"], capture_output=True, text=True, env=environment, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n") if shell != "bash" else result.stdout.split()


def test_completion_of_rule_codes() -> None:
    assert _completed("zero lint --select Z01") == [f"Z01{digit}" for digit in range(10)]
    assert _completed("zero lint --ignore Z008,Z02") == ["Z008,Z020", "Z008,Z021"]
    assert _completed("zero lint --explain Z00")[:2] == ["Z001", "Z002"]
    assert "ALL" in _completed("zero lint --select A")
    zsh = "\n".join(_completed("zero lint --select Z011", shell="zsh"))
    assert "Z011" in zsh and "unused-node" in zsh  # zsh shows each code's name beside it


def test_completion_of_op_names() -> None:
    offered = _completed("zero ops Con")
    assert {"Concat", "Constant", "Contains"} <= set(offered)
    assert all(name.lower().startswith("con") for name in offered)
    assert _completed("zero ops Equ") == ["Equals"]


THEIRS = {
    "fn": 'fn main() {\n  print("hi")\n}\n',
    "pub": "// the other language\n\npub fn add(a: i32, b: i32) -> i32 {\n  a + b\n}\n",
    "let": 'let greeting = "hello";\n',
    "use": "use std::io;\nfn main() {}\n",
    "import": 'import { agent } from "zero";\n',
}


@pytest.mark.parametrize("keyword", list(THEIRS))
@pytest.mark.parametrize("command", ["check", "lint", "run"])
def test_a_file_of_the_other_dot_0_language_is_named(tmp_path: Path, keyword: str, command: str) -> None:
    text = THEIRS[keyword]
    (tmp_path / "theirs.0").write_text(text, encoding="utf-8")
    result = runner.invoke(app, [command, str(tmp_path / "theirs.0")])
    assert result.exit_code == 1
    shown = result.stdout + result.stderr
    line = next(
        number
        for number, written in enumerate(text.split("\n"), 1)
        if written.strip(" /").strip() and not written.startswith("//")
    )
    assert f"theirs.0:{line}:1:" in shown
    assert "looks like the other `.0` language (vercel-labs/zerolang" in shown
    assert "Traceback" not in shown


def test_a_broken_graph_is_not_taken_for_the_other_language(tmp_path: Path) -> None:
    (tmp_path / "ours.0").write_text('Graph {\n  type: "x",\n  let: 1\n', encoding="utf-8")
    result = runner.invoke(app, ["check", str(tmp_path / "ours.0")])
    assert result.exit_code == 1 and "vercel-labs" not in result.stderr


def test_a_bad_config_exits_2_on_the_fast_path_too(project: Path) -> None:
    import subprocess
    import sys

    (project / "pyproject.toml").write_text('[tool.zero]\nexclude = "build"\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "zerolang", "check", "src"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2, result.stderr
    assert "exclude must be a list of globs" in result.stderr and "Traceback" not in result.stderr


def test_a_folder_inside_a_hidden_one_is_searched_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graphs = tmp_path / ".config" / "graphs"
    (graphs / ".cache").mkdir(parents=True)
    (graphs / "a.0").write_text(HELLO, encoding="utf-8")
    (graphs / ".cache" / "b.0").write_text(HELLO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert checked(".config/graphs") == [".config/graphs/a.0"]  # its own hidden folders stay skipped
    monkeypatch.chdir(graphs)
    assert checked() == ["a.0"]
