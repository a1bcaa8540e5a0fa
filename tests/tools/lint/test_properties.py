"""Properties over generated graphs: linting never crashes, fixing always yields a file that parses,
fixing twice changes nothing, and on valid graphs safe fixes keep every output."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.strategies import commented_graphs, runnable_graphs
from zerolang.runtime.interpreter import run
from zerolang.syntax.ast import Graph
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph
from zerolang.tools.lint import fix_source, lint_source
from zerolang.util.errors import Severity

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(commented_graphs())
def test_any_document_lints_and_fixes_to_a_stable_file(graph: Graph) -> None:
    source = print_graph(graph)
    lint_source(source)
    fixed = fix_source(source, unsafe=True)
    parse(fixed.source)
    again = fix_source(fixed.source, unsafe=True)
    assert not again.changed
    assert [(f.code, f.message, f.span) for f in again.findings] == [
        (f.code, f.message, f.span) for f in fixed.findings
    ]


@SETTINGS
@given(runnable_graphs())
def test_valid_graphs_have_no_errors_and_safe_fixes_keep_outputs(graph: Graph) -> None:
    source = print_graph(graph)
    findings = lint_source(source)
    assert not [finding for finding in findings if finding.severity is Severity.ERROR]
    fixed = fix_source(source)
    assert run(parse(fixed.source)).outputs == run(parse(source)).outputs
