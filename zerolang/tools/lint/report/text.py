"""The text report, like ruff's: `file:line:col: CODE message`, the line with a caret, the fix; a summary.

Rendered as lines of (text, style) segments so the same report prints plain
in a pipe and coloured by rich on a terminal. File names, messages and fixes hold
user data (ids, values): each is shown `escaped`, never as a control sequence.
"""

from __future__ import annotations

from zerolang.tools.lint.model import Finding
from zerolang.tools.lint.report.shown import shown
from zerolang.tools.lint.runner import FileResult
from zerolang.util.errors import Severity, source_excerpt
from zerolang.util.escapes import escaped
from zerolang.util.limits import more_line
from zerolang.util.width import fitted

Segment = tuple[str, str]  # (text, rich style; "" for none)
Line = list[Segment]

FIX_COMMAND = "zero lint --fix"


def render(
    results: list[FileResult], *, fixing: bool = False, unsafe: bool = False, quiet: bool = False
) -> list[Line]:
    """Each finding with its excerpt, then the summary; `quiet`: the findings only (`--quiet`)."""
    lines: list[Line] = []
    for result in results:
        if result.fixed and not quiet:
            lines.append([("Fixed ", "bold green"), (_shown(result.path), "bold"), (":", "")])
            lines.extend(
                [("  ", ""), (f.code or "", "bold"), (" " + _shown(_description(f)), "")]
                for f in result.fixed
            )
            lines.append([])
    for result in results:
        findings, hidden = shown(result)
        for finding in findings:
            lines.extend(finding_lines(finding, result.source))
            lines.append([])
        if hidden:
            lines.append([(f"{_shown(result.path)}:", "bold"), (" " + more_line(hidden), "dim")])
            lines.append([])
    if not quiet:
        lines.extend(summary(results, fixing=fixing, unsafe=unsafe))
    return lines


def _shown(text: str) -> str:
    return escaped(text, exact=False)


def _description(finding: Finding) -> str:
    return finding.fix.description if finding.fix is not None else ""


def _colour(finding: Finding) -> str:
    return "bold yellow" if finding.severity is Severity.WARNING else "bold red"


def finding_lines(finding: Finding, source: str | None) -> list[Line]:
    """The headline, the source line with a caret, and the fix when there is one."""
    span = finding.span
    path = _shown(str(finding.path))
    where = f"{path}:{span.line}:{span.column}:" if span is not None and span.line else f"{path}:"
    code = f"{finding.code}" if finding.code else "SyntaxError:"
    head: Line = [(where, "bold"), (" ", ""), (code, _colour(finding))]
    fix = finding.fix
    if fix is not None and fix.safe:
        head.append((" [*]", "cyan"))
    head.append((" " + _shown(fitted(finding.message)), ""))
    lines = [head]
    if source is not None and span is not None and span.line:
        excerpt = source_excerpt(source, span)
        for number, text in enumerate(excerpt):
            gutter, bar, rest = text.partition("| ")
            lines.append([(gutter + bar, "blue"), (rest, _colour(finding) if number else "")])
        if fix is not None:
            pad = " " * (len(str(span.line)) + 1)
            label = "fix" if fix.safe else "unsafe fix (--unsafe-fixes)"
            lines.append([(f"{pad}= {label}: ", "cyan"), (_shown(fix.description), "")])
    elif fix is not None:
        lines.append([("  = fix: ", "cyan"), (_shown(fix.description), "")])
    return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def summary(results: list[FileResult], *, fixing: bool, unsafe: bool) -> list[Line]:
    """`Found 3 problems: 2 errors, 1 warning.`, with what was fixed and what `--fix` could do."""
    findings = [finding for result in results for finding in result.findings]
    fixed = sum(len(result.fixed) for result in results)
    if not findings and not fixed:
        return [[("All checks passed!", "bold green")]]
    errors = sum(finding.severity is Severity.ERROR for finding in findings)
    warnings = len(findings) - errors
    kinds = [_count(number, noun) for number, noun in ((errors, "error"), (warnings, "warning")) if number]
    if fixed:
        detail = f"{len(findings)} remaining" + (f": {', '.join(kinds)}" if kinds else "")
        found = f"Found {_count(len(findings) + fixed, 'problem')} ({fixed} fixed, {detail})."
    elif len(kinds) == 1:
        found = f"Found {kinds[0]}."
    else:
        found = f"Found {_count(len(findings), 'problem')}: {', '.join(kinds)}."
    lines: list[Line] = [[(found, "bold")]]
    safe = sum(1 for f in findings if f.fix is not None and f.fix.safe)
    risky = sum(1 for f in findings if f.fix is not None and not f.fix.safe)
    if safe and not fixing:
        lines.append([("[*]", "cyan"), (f" {safe} fixable with `{FIX_COMMAND}`.", "")])
    if risky and not (fixing and unsafe):
        more = "more " if safe and not fixing else ""
        lines.append([(f"{risky} {more}fixable with `{FIX_COMMAND} --unsafe-fixes`.", "dim")])
    return lines


def plain(lines: list[Line]) -> str:
    return "".join("".join(text for text, _ in line) + "\n" for line in lines)
