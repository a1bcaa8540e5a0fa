"""`zero lint` for `.0c`: every problem of a document, not just the first the parser stops at.

    C001  a relation names a concept number the document does not define (dangling reference)
    C002  a concept or context defined twice (duplicate entity: numbers would be ambiguous)
    C003  a confidence that is not a number in [0, 1] (bad number)

Anything else that does not parse is a syntax finding (no code), as for `.0` files.
"""

from __future__ import annotations

from zerolang.ast import Span
from zerolang.errors import Severity
from zerolang.formats.compact import scan
from zerolang.lint.model import Finding
from zerolang.memory.hashing import concept_hash

RULES = {
    "C001": "dangling reference",
    "C002": "duplicate entity",
    "C003": "bad number",
}


def findings(source: str, path: str | None = None) -> list[Finding]:
    """All the problems of a `.0c` document, in line order."""
    reader, faults = scan(source)
    found = [
        _finding(
            "C003" if "confidence" in fault.message else None, fault.message, fault.line, fault.column, path
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
                    _finding("C002", f"this {kind} is already defined on line {first[key]}", line, 1, path)
                )
            first.setdefault(key, line)
    for subject, _, obj, _, _, _, (line, column) in reader.relations:
        for number in (subject, obj):
            if not 1 <= number <= len(keys):
                message = f"there is no concept {number} (the document defines {len(keys)})"
                found.append(_finding("C001", message, line, column, path))
    return sorted(found, key=lambda finding: finding.sort_key)


def _finding(code: str | None, message: str, line: int, column: int, path: str | None) -> Finding:
    return Finding(code, message, Span(line, column, line, column + 1), Severity.ERROR, path)
