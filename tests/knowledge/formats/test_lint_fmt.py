"""`zero lint` and `zero fmt` on `.0c` files."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from zerolang.cli.app import app
from zerolang.knowledge.formats.compact import format_text, parse
from zerolang.tools.lint.compact import findings

runner = CliRunner()
BAD = "0M:1.0\nagent\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 uses9\n1 likes1 120\n2 x\n"


def test_lint_reports_every_problem_with_its_code() -> None:
    found = [(f.code, f.span.line if f.span else 0) for f in findings(BAD, "bad.0c")]
    assert found == [("C002", 3), ("C001", 6), ("C003", 7), (None, 8)]


def test_zero_lint_on_a_0c_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.0c"
    bad.write_text(BAD)
    result = runner.invoke(app, ["lint", str(bad)])
    assert result.exit_code == 1
    assert "bad.0c:6:3: C001 there is no concept 9" in result.output
    good = tmp_path / "good.0c"
    good.write_text("0M:1.0\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 likes1\n")
    assert runner.invoke(app, ["lint", str(good)]).exit_code == 0


def test_fmt_canonicalises_and_keeps_comments(tmp_path: Path) -> None:
    loose = "0M:1.0\nagent\nb\nX:2026-01-01 s c\n@2026-01-01\n1 uses2 .95\n1 likes1\n"
    assert format_text(loose) == "0M:1.0\nagent\nb\nX:2026-01-01 s c\n@2026-01-01\n1 uses2 95; likes1\n"
    assert parse(format_text(loose)) == parse(loose)
    commented = "# mine\n0M:1.0  \n\n\nagent\r\nX:2026-01-01 s c\n@2026-01-01\n1 likes1\n\n"
    assert format_text(commented) == "# mine\n0M:1.0\n\nagent\nX:2026-01-01 s c\n@2026-01-01\n1 likes1\n"
    file = tmp_path / "a.0c"
    file.write_text(loose)
    assert runner.invoke(app, ["fmt", "--check", str(file)]).exit_code == 1
    assert runner.invoke(app, ["fmt", str(file)]).exit_code == 0
    assert runner.invoke(app, ["fmt", "--check", str(file)]).exit_code == 0
