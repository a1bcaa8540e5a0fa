"""`zero lint` for `.0c`: every problem of a document, not just the first the parser stops at.

    C001  dangling-reference  a relation names a concept number the document does not define
    C002  duplicate-entity    a concept or context defined twice: its number would be ambiguous
    C003  bad-number          a confidence that is not a number in [0, 1]

(their codes, names and summaries live in `zerolang.util.codes`).

Anything else that does not parse is a syntax finding (no code), as for `.0` files.
`select`, `ignore` and `per-file-ignores` (`zerolang.tools.lint.selection`) choose
among these codes like among the Z rules; a syntax finding is always reported.

L1 and L0 documents (lossy exports, `0M:1.0 L1 ...`) are checked as what they are:
an L1 body is concept and relation lines without contexts or times (so the same
checks apply), an L0 body is lines of short ids (`a:3f 41c`).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from zerolang.knowledge.formats.compact import scan
from zerolang.knowledge.formats.seal import unseal
from zerolang.knowledge.hashing import concept_hash
from zerolang.syntax.ast import Span
from zerolang.tools.lint.model import Finding
from zerolang.util import codes
from zerolang.util.codes import COMPACT, codes_for
from zerolang.util.errors import Severity

# The `.0c` checks by code, with their summaries (zerolang.util.codes).
RULES = {code.code: code.summary for code in codes_for(COMPACT)}


_L0_LINE = re.compile(r"[0-9a-f]+:[0-9a-f]+(?: [0-9a-f]+)*")
# An L1 body read as L2: one context and one time before its first line (their values do not matter).
_L1_SHIM = ("X:2000-01-01 - -", "@-")


def level(source: str) -> str:
    """`L0` or `L1` when the header (the first line that is not blank or a comment) says so, else `L2`."""
    for line in source.split("\n"):
        if line.strip() and not line.startswith("#"):
            words = line.split()
            return words[1] if words[0].startswith("0M:") and words[1:2] in (["L0"], ["L1"]) else "L2"
    return "L2"


def findings(source: str, path: str | None = None, enabled: Collection[str] | None = None) -> list[Finding]:
    """The problems of a `.0c` document, in line order: all of them, or those whose code is `enabled`."""
    kind = level(source)
    found = (
        _l0_findings(source, path) if kind == "L0" else _l1_findings(source, path) if kind == "L1" else None
    )
    if found is None:
        found = _l2_findings(source, path)
    if enabled is not None:
        found = [finding for finding in found if finding.code is None or finding.code in enabled]
    return sorted(found, key=lambda finding: finding.sort_key)


def _header_index(lines: list[str]) -> int:
    return next(index for index, line in enumerate(lines) if line.strip() and not line.startswith("#"))


def _l0_findings(source: str, path: str | None) -> list[Finding]:
    lines = source.split("\n")
    header = _header_index(lines)
    return [
        _finding(None, "an L0 line is short ids grouped by their first digits (`a:3f 41c`)", number, 1, path)
        for number, line in enumerate(lines, 1)
        if number > header + 1
        and line.strip()
        and not line.startswith("#")
        and not _L0_LINE.fullmatch(line.removesuffix("\r"))
    ]


def _l1_findings(source: str, path: str | None) -> list[Finding]:
    """The L2 checks on the body, read with a context and a time before it; lines keep their numbers."""
    lines = source.split("\n")
    header = _header_index(lines)
    shim = [*lines[:header], "0M:1.0", *_L1_SHIM, *lines[header + 1 :]]

    def moved(line: int) -> int:
        return header + 1 if line <= header + 1 + len(_L1_SHIM) else line - len(_L1_SHIM)

    found = []
    for finding in _l2_findings("\n".join(shim), path):
        line, column = (finding.span.line, finding.span.column) if finding.span is not None else (1, 1)
        message = re.sub(r"(?<=line )\d+", lambda number: str(moved(int(number.group()))), finding.message)
        found.append(_finding(finding.code, message, moved(line), column, path))
    return found


def _l2_findings(source: str, path: str | None) -> list[Finding]:
    plain, broken = unseal(source)  # a sealed document's end line (zerolang.knowledge.formats.seal)
    reader, faults = scan(plain)
    found = [_finding(None, broken.message, broken.line, 1, path)] if broken is not None else []
    found += [
        _finding(
            codes.BAD_NUMBER.code if "confidence" in fault.message else None,
            fault.message,
            fault.line,
            fault.column,
            path,
        )
        for fault in faults
    ]
    first: dict[object, int] = {}
    keys = [concept_hash(label) for label, *_ in reader.concepts]
    for kind, items, lines in (
        ("concept", keys, reader.places["concept"]),
        ("context", [node.hash for node, _, _ in reader.contexts], reader.places["context"]),
    ):
        for key, line in zip(items, lines, strict=True):
            if key in first:
                found.append(
                    _finding(
                        codes.DUPLICATE_ENTITY.code,
                        f"this {kind} is already defined on line {first[key]}",
                        line,
                        1,
                        path,
                    )
                )
            first.setdefault(key, line)
    for subject, _, obj, _, _, _, (line, column) in reader.relations:
        for number in (subject, obj):
            if not 1 <= number <= len(keys):
                message = f"there is no concept {number} (the document defines {len(keys)})"
                found.append(_finding(codes.DANGLING_REFERENCE.code, message, line, column, path))
    return found


def _finding(code: str | None, message: str, line: int, column: int, path: str | None) -> Finding:
    return Finding(code, message, Span(line, column, line, column + 1), Severity.ERROR, path)
