"""What a lint rule is and what it reports: rules, violations, findings and fixes.

A rule is a small function from a `Context` (one parsed graph and what the
validator said about it) to `Violation`s; `@rule` registers it with its code and
name (from `zerolang.util.codes`), severity and the kind of fix it offers, and its docstring is the
explanation `zero lint --explain` prints. The linter turns violations into
`Finding`s, which carry the code, severity and file, so rules never repeat them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from zerolang.syntax.ast import Graph, Span
from zerolang.util.codes import Code
from zerolang.util.errors import Severity

if TYPE_CHECKING:
    from zerolang.tools.lint.context import Context


class Applicability(StrEnum):
    """Whether `--fix` applies a fix on its own (`safe`) or only with `--unsafe-fixes`."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Fix:
    """An edit of the syntax tree that resolves one finding.

    `touches` holds the tree objects the edit mutates: two fixes that share one
    are not applied in the same round, so they never step on each other. A
    `global_` fix rests on the whole graph (what reaches an output), which any
    other fix may change, so it waits for a round where no other fix applies.
    `alternatives` are other fixes of the same finding an editor offers beside
    this one (`--fix` applies this one): keep the first duplicate or the last.
    """

    description: str
    edit: Callable[[Graph], None]
    applicability: Applicability = Applicability.SAFE
    touches: tuple[object, ...] = ()
    global_: bool = False
    alternatives: tuple[Fix, ...] = ()

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.SAFE


@dataclass(frozen=True, slots=True)
class Violation:
    """What a rule yields: where, what, and how to fix it if it can be fixed."""

    message: str
    span: Span | None
    fix: Fix | None = None


@dataclass(slots=True)
class Finding:
    """One reported problem. `code` is None when the file does not parse at all."""

    code: str | None
    message: str
    span: Span | None
    severity: Severity
    path: str | None = None
    fix: Fix | None = None

    @property
    def sort_key(self) -> tuple[int, int, str]:
        span = self.span
        return (span.line if span else 0, span.column if span else 0, self.code or "")


Check = Callable[["Context"], Iterable[Violation]]


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: Severity
    fix: Applicability | None
    check: Check
    doc: str

    @property
    def summary(self) -> str:
        """The docstring's first line: what the rule finds."""
        return self.doc.split("\n", 1)[0]

    @property
    def explanation(self) -> str:
        """The docstring after its first line: why it matters."""
        return self.doc.partition("\n")[2].strip()


REGISTRY: dict[str, Rule] = {}


def rule(code: Code, severity: Severity, fix: Applicability | None = None) -> Callable[[Check], Check]:
    """Register a check under its code (`zerolang.util.codes`); its docstring is the rule's documentation."""

    def register(check: Check) -> Check:
        if not check.__doc__:
            raise TypeError(f"rule {code} needs a docstring saying why it matters")
        if code.code in REGISTRY:
            raise ValueError(f"rule code {code} registered twice")
        doc = inspect.cleandoc(check.__doc__)
        REGISTRY[code.code] = Rule(code.code, code.name, severity, fix, check, doc)
        return check

    return register
