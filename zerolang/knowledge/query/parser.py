"""Query text -> `Query`: lark LALR with the contextual lexer, then a typed builder.

The contextual lexer (not `fastlex`) is used because the language leans on
context: `2026-02-01` is a date only after `between`, `7d` a duration only
after `since`. lark's tables, contextual lexer included, are driven from the
user cache by `zerolang.syntax.lalr` without importing lark (importing it costs more
than a query); a query they reject is parsed again by lark itself, whose error
says what was expected. Every failure is a `QueryError` with a caret.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any, NamedTuple

from zerolang.knowledge.query.ast import (
    MATCH_FIELDS,
    RECALL_FIELDS,
    Compare,
    Label,
    Pattern,
    Query,
    QueryError,
    Term,
    Var,
    Window,
)
from zerolang.util.errors import ZeroError
from zerolang.util.span import Span
from zerolang.util.times import DURATION_UNITS

_FRIENDLY = {
    "STRING": 'a quoted label ("...")',
    "NAME": "a name",
    "VAR": "a variable (?x)",
    "INT": "a whole number",
    "NUMBER": "a number",
    "DURATION": "a duration (30m, 12h, 7d, 2w)",
    "DATE": "a date (2026-02-01)",
    "COMPARE": "a comparison (>, >=, <, <=, =, !=)",
    "TIER": "a tier (working, episodic, semantic, all)",
    "RANKER": "score or activation",
    "DIRECTION": "asc or desc",
    "LEVEL": "L0, L1 or L2",
    "$END": "the end of the query",
}
# A query's `where` becomes one SQL expression; SQLite refuses a tree past 1000 deep. No real
# question needs more than a few conditions, so the cap is far below SQLite's and stated.
MAX_CONDITIONS = 100
# A `match` joins its patterns one after another; past a few dozen no question is meant, and the
# parse of a pasted wall of patterns stays bounded (docs/limits.md).
MAX_PATTERNS = 256
_SECONDS = DURATION_UNITS
_lock = threading.RLock()  # the driver's first build takes the parser's too
_parser: Any = None
_driver: Any = None


class Tree(NamedTuple):
    """A node of the parse tree, as lark's `Tree` (the rule's name and its children) for `_Builder`."""

    data: str
    children: list[Any]


class _TreeMaker:
    """What `zerolang.syntax.treebuild` calls for each grammar rule: a `Tree` named after it."""

    def __getattr__(self, name: str) -> Callable[[list[Any]], Tree]:
        return lambda children: Tree(name, children)


def _get_driver() -> Any:
    """lark's tables for the query grammar, with its contextual lexer, read from the user cache."""
    global _driver
    with _lock:
        if _driver is None:
            from zerolang.syntax.lalr import Driver, cached_tables

            def build() -> dict[str, Any]:
                from zerolang.syntax.lalr import extract_contextual

                return extract_contextual(_get_parser())

            _driver = Driver(cached_tables("query", "contextual", build), _TreeMaker(), {})
        return _driver


def _get_parser() -> Any:
    global _parser
    with _lock:
        if _parser is None:
            from zerolang.syntax.grammar import build_parser

            _parser = build_parser("query", None, False)
        return _parser


def parse_query(text: str) -> Query:
    """Parse one query; raises `QueryError` (a `ZeroError`) on anything wrong with it."""
    from zerolang.syntax.tokens import Rejected

    if not isinstance(text, str):
        raise TypeError("a query is a string")
    try:
        tree = _get_driver().parse(text)
    except Rejected:
        tree = _parse_with_lark(text)
    return _Builder(text).query(tree.children[0])


def _parse_with_lark(text: str) -> Any:
    """lark's own parse of a query the tables rejected: its error, worded (or its tree, if it takes it)."""
    from lark.exceptions import LarkError

    try:
        return _get_parser().parse(text)
    except LarkError as error:
        raise _describe(error, text) from None


# ---- errors ---------------------------------------------------------------------------------


def _words(names: set[str]) -> str:
    parser = _get_parser()
    patterns = {terminal.name: terminal.pattern for terminal in parser.terminals}
    words = []
    for name in sorted(names, key=lambda n: (n not in _FRIENDLY, n == "$END", n)):
        pattern = patterns.get(name)
        if name in _FRIENDLY:
            words.append(_FRIENDLY[name])
        elif pattern is not None and pattern.type == "str":
            words.append(f"`{pattern.value}`")
        else:
            words.append(name.lower())
    unique = list(dict.fromkeys(words))
    if len(unique) <= 1:
        return unique[0] if unique else "something else"
    return ", ".join(unique[:-1]) + " or " + unique[-1]


def _span_at(text: str, position: int, width: int = 1) -> Span:
    position = max(0, min(position, len(text)))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return Span(line, column, line, column + max(width, 1), position, position + width)


def _accepted_before(text: str) -> set[str]:
    """The terminals the parser accepts where the lexer stopped (lexer states merge, so ask the parser)."""
    from lark.exceptions import LarkError

    interactive = _get_parser().parse_interactive(text)
    try:
        for _ in interactive.iter_parse():
            pass
    except LarkError:
        return set(interactive.accepts())
    return set()


def _describe(error: Any, text: str) -> QueryError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(error, UnexpectedToken):
        token = error.token
        expected = _words(set(error.accepts or error.expected))
        if token.type == "$END":
            return QueryError(
                f"expected {expected}, found the end of the query", text, _span_at(text, len(text))
            )
        start = token.start_pos if token.start_pos is not None else 0
        found = f"`{token.value}`"
        return QueryError(
            f"expected {expected}, found {found}", text, _span_at(text, start, len(token.value))
        )
    if isinstance(error, UnexpectedCharacters):
        expected = _words(_accepted_before(text) or set(error.allowed or ()))
        position = error.pos_in_stream or 0
        char = text[position] if position < len(text) else ""
        return QueryError(f"expected {expected}, found {char!r}", text, _span_at(text, position))
    if isinstance(error, UnexpectedEOF):
        expected = _words(set(error.expected))
        return QueryError(f"expected {expected}, found the end of the query", text, _span_at(text, len(text)))
    return QueryError(f"not a query ({error})", text)


# ---- the builder ----------------------------------------------------------------------------


def _whole(digits: str) -> int:
    """A whole number token; absurdly long ones become a value past every range check (not a crash)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else 10**18


def _shown(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:24]}... ({len(text)} characters)"


def _span(token: Any) -> Span:
    return Span(token.line, token.column, token.end_line, token.end_column, token.start_pos, token.end_pos)


class _Builder:
    """Walks the lark tree into a `Query`, checking what the grammar cannot (fields, repeats)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fields: dict[str, Any] = {}
        self.places: dict[str, Span] = {}

    def fail(self, message: str, token: Any) -> QueryError:
        return QueryError(message, self.text, _span(token))

    def once(self, key: str, value: Any, token: Any) -> None:
        """A clause that may be given once: a second one is refused, naming both places."""
        if key in self.fields:
            one, two = self.places[key], _span(token)
            where = f"at {one.line}:{one.column} and at {two.line}:{two.column}"
            raise self.fail(f"`{key}` is given twice: {where}", token)
        self.fields[key] = value
        self.places[key] = _span(token)

    def query(self, tree: Any) -> Query:
        kind = "recall" if tree.data == "recall_query" else "match"
        if kind == "recall":
            seed = self.label(tree.children[0])
            patterns: tuple[Pattern, ...] = ()
            clauses = tree.children[1:]
        else:
            seed = None
            found = [c for c in tree.children if c.data == "pattern"]
            patterns = tuple(self.pattern(c) for c in found[: MAX_PATTERNS + 1])
            if len(found) > MAX_PATTERNS:
                message = f"more than {MAX_PATTERNS} patterns; a `match` holds at most {MAX_PATTERNS}"
                raise QueryError(message, self.text, patterns[MAX_PATTERNS].span)
            clauses = [c for c in tree.children if c.data != "pattern"]
        self.compares: list[Compare] = []
        self.sources: list[str] = []
        self.scopes: list[str] = []
        self.conditions = 0
        for clause in clauses:
            getattr(self, f"clause_{clause.data}")(clause, kind)
        self.check_order(kind, patterns)
        self.check_join(patterns)
        return Query(
            kind,  # type: ignore[arg-type]
            self.text,
            seed,
            patterns,
            tuple(self.compares),
            self.fields.get("predicate in"),
            tuple(self.sources),
            tuple(self.scopes),
            self.fields.get("window"),
            self.fields.get("from", ()),
            self.fields.get("depth"),
            self.fields.get("limit"),
            self.fields.get("rank by"),
            self.fields.get("order by"),
            self.fields.get("as"),
            self.fields.get("as of"),
            self.fields.get("known at"),
        )

    def label(self, tree: Any) -> Label:
        token = tree.children[0]
        value = self.unquote(token) if token.type == "STRING" else token.value
        if not value.strip():
            raise self.fail("a label cannot be empty", token)
        return Label(value, _span(token))

    def unquote(self, token: Any) -> str:
        """A quoted label's text: JSON string escapes, and it must be encodable (no lone surrogates)."""
        try:
            value: str = json.loads(token.value, strict=False)
            value.encode("utf-8")
        except (ValueError, UnicodeEncodeError):
            raise self.fail(f"bad escape in the quoted label {token.value}", token) from None
        return value

    def term(self, tree: Any) -> Term:
        if tree.data == "var":
            token = tree.children[0]
            return Var(token.value[1:], _span(token))
        return self.label(tree)

    def pattern(self, tree: Any) -> Pattern:
        subject, predicate, obj = (self.term(c) for c in tree.children)
        first, last = subject.span, obj.span
        span = Span(
            first.line, first.column - 1, last.end_line, last.end_column + 1, first.start - 1, last.end + 1
        )
        return Pattern(subject, predicate, obj, span)

    def clause_depth(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        if kind != "recall":
            raise self.fail("`depth` applies to recall; a match follows its patterns", token)
        value = _whole(token.value)
        if not 1 <= value <= 10:
            raise self.fail("depth must be between 1 and 10", token)
        self.once("depth", value, token)

    def clause_limit(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        value = _whole(token.value)
        if not 1 <= value <= 100_000:
            raise self.fail("limit must be between 1 and 100000", token)
        self.once("limit", value, token)

    def clause_where(self, tree: Any, kind: str) -> None:
        for condition in tree.children:
            self.conditions += 1
            if self.conditions > MAX_CONDITIONS:
                first = condition
                while not hasattr(first, "line"):  # the condition's first token
                    first = first.children[0]
                raise self.fail(
                    f"more than {MAX_CONDITIONS} `where` conditions; a query holds at most {MAX_CONDITIONS}",
                    first,
                )
            getattr(self, f"cond_{condition.data}")(condition, kind)

    def cond_compare(self, tree: Any, kind: str) -> None:
        name, op, number = tree.children
        allowed = RECALL_FIELDS if kind == "recall" else MATCH_FIELDS
        if name.value not in allowed:
            raise self.fail(f"expected a field ({', '.join(allowed)}), found `{name.value}`", name)
        value = float(number.value)
        if not math.isfinite(value):  # 400 digits: past every float
            raise self.fail(f"the number {_shown(number.value)} is too large", number)
        self.compares.append(Compare(name.value, op.value, value, _span(name)))

    def cond_predicate_in(self, tree: Any, kind: str) -> None:
        from zerolang.knowledge.normalize import normalize_predicate

        labels = [self.label(c) for c in tree.children]
        self.once(
            "predicate in",
            tuple(dict.fromkeys(normalize_predicate(x.text) for x in labels)),
            tree.children[0].children[0],
        )

    def cond_source_is(self, tree: Any, kind: str) -> None:
        self.sources.append(self.label(tree.children[0]).text)

    def cond_scope_is(self, tree: Any, kind: str) -> None:
        self.scopes.append(self.label(tree.children[0]).text)

    def clause_since(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        seconds = float(_whole(token.value[:-1]) * _SECONDS[token.value[-1]])
        if seconds > 100 * 366 * 86400:
            shown = token.value if len(token.value) <= 12 else token.value[:10] + "..."
            raise self.fail(f"`since {shown}` reaches back more than a century", token)
        self.once("window", Window(since=seconds, text=f"since {token.value}"), token)

    def clause_between(self, tree: Any, kind: str) -> None:
        first, last = tree.children
        start, end = self.moment(first, False), self.moment(last, True)
        if start > end:
            raise self.fail("the window ends before it starts", last)
        self.once(
            "window", Window(start=start, end=end, text=f"between {first.value} and {last.value}"), first
        )

    def moment(self, token: Any, end_of_day: bool) -> str:
        """A DATE token as an ISO time; a bare date is its first (or, at the end, its last) instant."""
        value = token.value
        try:
            if "T" in value:
                moment = datetime.fromisoformat(value)
                return moment.isoformat()
            day = date.fromisoformat(value)
        except ValueError:
            raise self.fail(f"{value} is not a valid date", token) from None
        if end_of_day:
            return (
                datetime.combine(day, datetime.min.time()) + timedelta(days=1, microseconds=-1)
            ).isoformat()
        return datetime.combine(day, datetime.min.time()).isoformat()

    def clause_tiers(self, tree: Any, kind: str) -> None:
        names = [token.value for token in tree.children]
        tiers = () if "all" in names else tuple(dict.fromkeys(names))
        self.once("from", tiers, tree.children[0])

    def clause_rank(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        if kind != "recall":
            raise self.fail("`rank by` applies to recall; order a match with `order by`", token)
        self.once("rank by", token.value, token)

    def clause_order(self, tree: Any, kind: str) -> None:
        key = tree.children[0]
        descending = None if len(tree.children) < 2 else tree.children[1].value == "desc"
        self.once("order by", (key.value, descending), key)
        self.order_token = key

    def clause_detail(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        self.once("as", token.value, token)

    def clause_as_of(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        self.once("as of", self.instant(token), token)

    def clause_known_at(self, tree: Any, kind: str) -> None:
        token = tree.children[0]
        self.once("known at", self.instant(token), token)

    def instant(self, token: Any) -> str:
        """A DATE token in the store's time format (a bare date is its midnight, UTC)."""
        from zerolang.knowledge.temporal import utc

        try:
            return utc(self.moment(token, False))
        except ZeroError:
            raise self.fail(f"{token.value} is not a valid date", token) from None

    def check_join(self, patterns: tuple[Pattern, ...]) -> None:
        """Patterns must be joined by shared variables: two that share none are a cross join
        (every fact times every fact) that no `limit` makes cheap, so it is refused, with the place."""
        variables = [{t.name for t in p.terms() if isinstance(t, Var)} for p in patterns]
        parent: dict[str, str] = {}  # union-find over variable names: linear in the patterns

        def root(name: str) -> str:
            while parent[name] != name:
                parent[name] = parent[parent[name]]
                name = parent[name]
            return name

        for names in variables:  # a pattern of labels only matches at most one fact: a filter, not a join
            first = None
            for name in names:
                parent.setdefault(name, name)
                if first is None:
                    first = root(name)
                else:
                    parent[root(name)] = first
        roots = [root(next(iter(names))) if names else None for names in variables]
        main = next((found for found in roots if found is not None), None)
        apart = (p for p, found in zip(patterns, roots, strict=True) if found not in (None, main))
        lonely = next(apart, None)
        if lonely is None:
            return
        raise QueryError(
            f"pattern {lonely} shares no variable with the other patterns: that is a cross join of "
            "every fact with every fact; join them on a variable (e.g. `(?a ?p ?b), (?b ?q ?c)`) "
            "or ask two queries",
            self.text,
            lonely.span,
        )

    def check_order(self, kind: str, patterns: tuple[Pattern, ...]) -> None:
        order = self.fields.get("order by")
        if order is None:
            return
        key = order[0]
        if kind == "recall":
            allowed = {*RECALL_FIELDS, "label", "concept"}
            if key not in allowed:
                raise self.fail(
                    f"expected a field to order by ({', '.join(sorted(allowed))}), found `{key}`",
                    self.order_token,
                )
            return
        names = {f"?{t.name}" for p in patterns for t in p.terms() if isinstance(t, Var)}
        if key not in names | set(MATCH_FIELDS):
            raise self.fail(
                f"expected a variable of the patterns or confidence, found `{key}`", self.order_token
            )
