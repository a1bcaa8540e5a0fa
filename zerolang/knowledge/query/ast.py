"""The typed query AST: every node keeps its span in the query string, for errors with a caret."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zerolang.util.errors import ZeroError
from zerolang.util.span import Span

QUERY_PATH = "<query>"
RECALL_FIELDS = ("confidence", "score", "depth", "recency", "frequency", "connectivity", "activation")
MATCH_FIELDS = ("confidence", "observations")
TIERS = ("working", "episodic", "semantic")


class QueryError(ZeroError):
    """A query that does not parse or does not make sense; points at its column."""

    def __init__(self, message: str, source: str, span: Span | None = None) -> None:
        super().__init__(message, path=QUERY_PATH, span=span, source=source)


@dataclass(frozen=True, slots=True)
class Var:
    name: str  # without the `?`
    span: Span

    def __str__(self) -> str:
        return f"?{self.name}"


@dataclass(frozen=True, slots=True)
class Label:
    text: str
    span: Span

    def __str__(self) -> str:
        return self.text


Term = Var | Label


@dataclass(frozen=True, slots=True)
class Pattern:
    subject: Term
    predicate: Term
    object: Term
    span: Span

    def terms(self) -> tuple[Term, Term, Term]:
        return (self.subject, self.predicate, self.object)

    def __str__(self) -> str:
        return f"({self.subject} {self.predicate} {self.object})"


@dataclass(frozen=True, slots=True)
class Compare:
    field: str
    op: str
    value: float
    span: Span

    def holds(self, actual: float) -> bool:
        return {
            ">": actual > self.value,
            ">=": actual >= self.value,
            "<": actual < self.value,
            "<=": actual <= self.value,
            "=": actual == self.value,
            "!=": actual != self.value,
        }[self.op]

    def __str__(self) -> str:
        return f"{self.field} {self.op} {self.value:g}"


@dataclass(frozen=True, slots=True)
class Window:
    """A time window on the episodes' event times: `since` (seconds back from now) or `between`."""

    since: float | None = None
    start: str | None = None
    end: str | None = None  # inclusive; a bare date covers the whole day
    text: str = ""


@dataclass(frozen=True, slots=True)
class Query:
    kind: Literal["recall", "match"]
    source: str
    seed: Label | None = None
    patterns: tuple[Pattern, ...] = ()
    compares: tuple[Compare, ...] = ()
    predicates: tuple[str, ...] | None = None
    sources: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    window: Window | None = None
    tiers: tuple[str, ...] = ()
    depth: int | None = None
    limit: int | None = None
    ranker: Literal["score", "activation"] | None = None
    order: tuple[str, bool | None] | None = None  # field (`?x`: a variable), descending (None: default)
    detail: str | None = None
    as_of: str | None = None  # world time: facts valid then (store format, UTC)
    known_at: str | None = None  # store time: facts the store held then
