"""lark's LALR tables for a grammar, driven by a loop of our own, without importing lark.

lark builds the tables from the `.lark` grammar (`zerolang.syntax.grammar`), and they
stay lark's: `extract` copies out of a built lark parser what lexing and
parsing read (the lexer's one regex from `zerolang.syntax.fastlex`, or each parser
state's regexes of lark's contextual lexer; the parse table; each rule's shape
for `zerolang.syntax.treebuild`), as plain data that the signed
user cache (`zerolang.util.cache`) keeps. A later process loads that data and parses
with `Driver`, the same algorithm as lark's `ParserState.feed_token`, inlined
into one loop: lark is imported only to build the tables the first time, and
to word a syntax error (`Rejected` makes the caller ask lark's own parser).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from zerolang.syntax.tokens import FastToken, Kind, Rejected, lex, new_token

FORMAT = 2  # of the extracted tables; part of their cache key


class _Symbol(NamedTuple):
    name: str
    is_term: bool
    filter_out: bool


class _Options(NamedTuple):
    keep_all_tokens: bool
    expand1: bool


class _Origin(NamedTuple):
    name: str


class RuleShape(NamedTuple):
    """What `zerolang.syntax.treebuild.rule_callback` reads of a lark `Rule`, as plain data."""

    origin: _Origin
    expansion: list[_Symbol]
    alias: str | None
    options: _Options


def extract(parser: Any, start: str = "start") -> dict[str, Any]:
    """The plain-data tables of a built lark LALR parser that lexes with `zerolang.syntax.fastlex`."""
    lexer = parser.parser.lexer.lexer  # lark's wrapper around our GrammarRegexLexer
    return {
        **_parse_tables(parser, start),
        "lexer": "fast",
        "pattern": str(lexer._pattern.pattern),
        "flags": int(lexer._pattern.flags),
        "kinds": [
            [str(name), bool(ignored), bool(multiline), bool(callback)]
            for name, ignored, multiline, callback in lexer._kinds
        ],
    }


def extract_contextual(parser: Any, start: str = "start") -> dict[str, Any]:
    """The plain-data tables of a built lark LALR parser with lark's contextual lexer.

    Each parser state lexes with lark's own `BasicLexer` for the terminals it
    accepts: its scanner's regexes (tried in order, the first match wins, its
    group names the terminal), the keywords its `UnlessCallback`s retype, the
    ignored and newline-counting terminals. Lexer callbacks are not carried.
    """
    contextual = parser.parser.lexer
    lexers: list[dict[str, Any]] = []
    numbers: dict[int, int] = {}
    by_state: dict[int, int] = {}
    for state, basic in contextual.lexers.items():
        number = numbers.get(id(basic))
        if number is None:
            if basic.user_callbacks:
                raise ValueError("lexer callbacks are not carried by the extracted tables")
            scanner = basic.scanner  # builds the callbacks too
            number = numbers[id(basic)] = len(lexers)
            lexers.append(
                {
                    "patterns": [(str(mre.pattern), int(mre.flags)) for mre in scanner._mres],
                    "unless": {
                        str(name): [(str(mre.pattern), int(mre.flags)) for mre in callback.scanner._mres]
                        for name, callback in basic.callback.items()
                    },
                    "ignore": sorted(str(name) for name in basic.ignore_types),
                    "newline": sorted(str(name) for name in basic.newline_types),
                }
            )
        by_state[int(state)] = number
    return {**_parse_tables(parser, start), "lexer": "contextual", "lexers": lexers, "state_lexers": by_state}


def _parse_tables(parser: Any, start: str) -> dict[str, Any]:
    lalr = parser.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> the table-driven loop
    table = lalr.parse_table
    rules: list[Any] = []
    numbers: dict[int, int] = {}
    states: dict[int, dict[str, tuple[bool, int]]] = {}
    for state, row in table.states.items():
        plain: dict[str, tuple[bool, int]] = {}
        for token, (_action, argument) in row.items():
            if isinstance(argument, int):
                plain[str(token)] = (True, int(argument))  # shift (or goto): the next state
                continue
            number = numbers.get(id(argument))
            if number is None:
                number = numbers[id(argument)] = len(rules)
                rules.append(argument)
            plain[str(token)] = (False, number)
        states[int(state)] = plain
    return {
        "format": FORMAT,
        "states": states,
        "start": int(table.start_states[start]),
        "end": int(table.end_states[start]),
        "rules": [
            (
                str(rule.origin.name),
                None if rule.alias is None else str(rule.alias),
                bool(rule.options.keep_all_tokens),
                bool(rule.options.expand1),
                [
                    (symbol.name, bool(symbol.is_term), bool(getattr(symbol, "filter_out", False)))
                    for symbol in rule.expansion
                ],
            )
            for rule in rules
        ],
    }


def cached_tables(name: str, lexer: str, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Grammar `name`'s extracted tables (`lexer`: "fast" or "contextual") from the signed user
    cache (`zerolang.util.cache`); `build` makes them (importing lark) when they are missing or stale."""
    import marshal

    from zerolang.util import cache

    stem = f"{name}-driver" if lexer == "fast" else f"{name}-{lexer}-driver"
    file_name = f"{stem}-{_tables_key(name, lexer)}.tables"
    payload = cache.load(file_name)
    if payload is not None:
        try:
            tables: dict[str, Any] = marshal.loads(payload)
            if tables["format"] == FORMAT:
                return tables
        except Exception:  # a file of ours from an incompatible build: make it again
            pass
    tables = build()
    try:
        payload = marshal.dumps(tables)
    except ValueError:  # not plain data: do not cache what could not be read back
        return tables
    cache.store(file_name, payload, f"{stem}-*.tables")
    return tables


def _tables_key(name: str, lexer: str) -> str:
    """What the tables depend on: the grammar, our lexer and extractor, the versions, lark's files."""
    import hashlib
    import sys
    from importlib.machinery import PathFinder
    from pathlib import Path

    from zerolang import __version__
    from zerolang.syntax.grammar import grammar_path

    digest = hashlib.sha256(f"{__version__}\0{sys.version_info[:2]}\0{lexer}\0".encode())
    digest.update(grammar_path(name).read_bytes())
    here = Path(__file__).resolve().parent
    for module in ("tokens.py", "fastlex.py", "lalr.py", "grammar.py"):
        digest.update((here / module).read_bytes())
    spec = PathFinder.find_spec("lark")
    if spec is not None and spec.origin:
        info = Path(spec.origin).stat()  # another lark installed: tables built again by it
        digest.update(f"{spec.origin}\0{info.st_size}\0{info.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]


class _StateLexer:
    """One parser state's lexer of lark's contextual lexer, its regexes compiled when first used."""

    def __init__(self, plain: dict[str, Any]) -> None:
        self.plain = plain
        self.patterns: list[re.Pattern[str]] = []
        self.unless: dict[str, list[re.Pattern[str]]] = {}
        self.ignore: frozenset[str] = frozenset(plain["ignore"])
        self.newline: frozenset[str] = frozenset(plain["newline"])

    def compile(self) -> _StateLexer:
        if not self.patterns:  # `unless` first: another thread may use the lexer once `patterns` is set
            self.unless = {
                name: [re.compile(pattern, flags) for pattern, flags in scanners]
                for name, scanners in self.plain["unless"].items()
            }
            self.patterns = [re.compile(pattern, flags) for pattern, flags in self.plain["patterns"]]
        return self

    def match(self, text: str, position: int) -> tuple[str, str] | None:
        """lark's `Scanner.match` then its `UnlessCallback`: (value, terminal) or None."""
        for pattern in self.patterns:
            found = pattern.match(text, position)
            if found is not None:
                value, kind = found.group(0), str(found.lastgroup)
                for keywords in self.unless.get(kind, ()):
                    keyword = keywords.fullmatch(value)
                    if keyword is not None:
                        return value, str(keyword.lastgroup)
                return value, kind
        return None


class Driver:
    """Lexes and parses with extracted tables; the rules reduce through `builder`'s methods (treebuild)."""

    def __init__(
        self, tables: dict[str, Any], builder: Any, callbacks: dict[str, Callable[[Any], Any]]
    ) -> None:
        from zerolang.syntax.treebuild import rule_callback

        self._contextual = tables.get("lexer") == "contextual"
        if self._contextual:
            lexers = [_StateLexer(plain) for plain in tables["lexers"]]
            self._state_lexers = {state: lexers[number] for state, number in tables["state_lexers"].items()}
        else:
            self._pattern = re.compile(tables["pattern"], tables["flags"])
            self._kinds: list[Kind] = [
                (name, ignored, multiline, callback) for name, ignored, multiline, callback in tables["kinds"]
            ]
        self._callbacks = callbacks
        self._start: int = tables["start"]
        self._end: int = tables["end"]
        reductions = []
        for origin, alias, keep_all, expand1, expansion in tables["rules"]:
            shape = RuleShape(
                _Origin(origin),
                [_Symbol(name, is_term, filter_out) for name, is_term, filter_out in expansion],
                alias,
                _Options(keep_all, expand1),
            )
            reductions.append((len(expansion), rule_callback(shape, builder), origin))
        # Each action as one tuple: (shift?, next state) or (False, (size, callback, origin)).
        self._states: dict[int, dict[str, tuple[bool, Any]]] = {
            state: {
                token: (shift, argument if shift else reductions[argument])
                for token, (shift, argument) in row.items()
            }
            for state, row in tables["states"].items()
        }

    def parse(self, text: str) -> Any:
        """The builder's result for `text`; raises Rejected when it does not lex or parse."""
        if self._contextual:
            return self._parse_contextual(text)
        states = self._states
        state_stack = [self._start]
        value_stack: list[Any] = []
        push_state = state_stack.append
        push_value = value_stack.append
        row = states[self._start]
        token: Any = None
        for token in lex(self._pattern, self._kinds, self._callbacks, text):
            kind = token.type
            while True:
                action = row.get(kind)
                if action is None:
                    raise Rejected()
                shift, argument = action
                if shift:
                    push_state(argument)
                    push_value(token)
                    row = states[argument]
                    break
                size, callback, origin = argument
                if size:
                    values = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    values = []
                goto = states[state_stack[-1]][origin][1]
                push_state(goto)
                push_value(callback(values))
                row = states[goto]
        end = self._end
        while True:  # the end of the text: reduce until the start rule is complete
            action = row.get("$END")
            if action is None:
                raise Rejected()
            shift, argument = action
            if shift:
                raise Rejected()
            size, callback, origin = argument
            if size:
                values = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                values = []
            goto = states[state_stack[-1]][origin][1]
            push_state(goto)
            push_value(callback(values))
            if goto == end:
                return value_stack[-1]
            row = states[goto]

    def _parse_contextual(self, text: str) -> Any:
        """`parse` with lark's contextual lexer: each token lexed by the state the parser is in."""
        states = self._states
        state_stack = [self._start]
        value_stack: list[Any] = []
        end = len(text)
        line, line_start, position = 1, 0, 0
        while True:
            lexer = self._state_lexers[state_stack[-1]].compile()
            token: Any = None
            while position < end:  # lark's BasicLexer.next_token, its LineCounter inlined
                found = lexer.match(text, position)
                if found is None:
                    raise Rejected(position)
                value, kind = found
                start, start_line, column = position, line, position - line_start + 1
                position += len(value)
                if kind in lexer.newline and "\n" in value:
                    line += value.count("\n")
                    line_start = start + value.rindex("\n") + 1
                if kind in lexer.ignore:
                    continue
                token = new_token(
                    FastToken,
                    (kind, value, start, start_line, column, line, position - line_start + 1, position),
                )
                break
            kind = "$END" if token is None else token.type
            while True:
                action = states[state_stack[-1]].get(kind)
                if action is None:
                    raise Rejected()
                shift, argument = action
                if shift:
                    if token is None:
                        raise Rejected()
                    state_stack.append(argument)
                    value_stack.append(token)
                    break
                size, callback, origin = argument
                if size:
                    values = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    values = []
                goto = states[state_stack[-1]][origin][1]
                state_stack.append(goto)
                value_stack.append(callback(values))
                if token is None and goto == self._end:
                    return value_stack[-1]
