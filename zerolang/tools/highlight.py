"""Pygments lexers for `.0` graphs (`zero`) and `.0c` memory (`zeroc`), registered as `pygments.lexers`.

`ZeroLexer` follows `zerolang/syntax/grammars/zero.lark` token for token, and adds what a reader wants
to see at a glance: a node's `type` and `op` are coloured when the runtime
knows them (`zerolang.runtime.catalog`) and marked when it does not, so `op: Eq` or
`type: Aggregate` stands out before anything runs. Only the `type` and `op`
keys directly inside a node of `nodes: [...]` count; a `type:` key in some
metadata map is just a key.

`Error` tokens appear exactly where the `.0` lexer itself would fail: a
character no token starts with, an invalid string escape, a string left open
at the end of its line. Structural mistakes (a missing comma) are the
parser's business; the text still highlights normally.

A `.0` document that does not start with `Name {` (after comments) is not a
graph: it is lexed as plain text with `#` comments, never with an `Error` token.

`ZeroCompactLexer` (`zeroc`, `0c`; `*.0c`) reads the compact memory format
of `docs/0c-format.md`, line by line as `zerolang/syntax/grammars/zeroc.lark` does: the
header (version, level or delta, its counts and base), comments, declaration
lines (`!`/`!-` mark, setting, value as a predicate, `@` time: only a line that is
exactly `!SETTING VALUE @TIME`, any other line starting with `!` is a concept),
concept lines (label, aliases, `|=` confidence, `|@`/`|^` times), context lines
(`X:` event time, source, scope, `a=`/`s=`/`m=`/`c=` fields), `@` time
lines and relation lines (subject id, predicate, object id, confidence),
JSON string escapes wherever a value is quoted, and the id groups of an L0
document. `Error` marks what the parser rejects on sight: a character a
relation, context or time line cannot hold, an escape JSON does not have.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, default, include  # type: ignore[import-untyped,unused-ignore]
from pygments.token import (  # type: ignore[import-untyped,unused-ignore]
    Comment,
    Error,
    Keyword,
    Literal,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from zerolang.runtime.catalog import NODE_TYPES, OPS

__all__ = ["KNOWN_OP", "KNOWN_TYPE", "UNKNOWN_NAME", "ZeroCompactLexer", "ZeroLexer"]

# The token types that carry meaning beyond plain JSON, named once for the tests and docs.
KNOWN_TYPE = Keyword.Type
KNOWN_OP = Name.Builtin
# Pygments has no "unknown name" token; Name.Exception is red or bold in the common
# styles and is used for nothing else here, so a misspelt type or op stands out.
UNKNOWN_NAME = Name.Exception

# The grammar's terminals (zerolang/syntax/grammars/zero.lark).
NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*"
_NAME_END = r"(?![A-Za-z0-9_]|-[A-Za-z0-9_])"  # a NAME cannot continue here
_KEY_AHEAD = r"(?=\s*:)"


def _alternation(names: tuple[str, ...] | list[str]) -> str:
    """Longest first, so no name is cut short by a shorter one it starts with."""
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


_TYPES = _alternation(list(NODE_TYPES))
_OPS = _alternation(OPS)


def _named_value(known: str, known_token: object) -> list[object]:
    """The value after a node's `type:` or `op:`, bare or quoted, then back to the node."""
    return [
        include("space"),
        (r":", Punctuation),
        (rf"(?:true|false|null){_NAME_END}", Keyword.Constant, "#pop"),
        (rf"(?:{known}){_NAME_END}", known_token, "#pop"),
        (rf'"(?:{known})"', known_token, "#pop"),
        (NAME, UNKNOWN_NAME, "#pop"),
        (rf'"{NAME}"', UNKNOWN_NAME, "#pop"),
        default("#pop"),
    ]


class ZeroLexer(RegexLexer):  # type: ignore[misc,unused-ignore]
    """Tokens of a `.0` graph: comments, keys, known and unknown node types and ops, values."""

    name = "Zero"
    aliases: ClassVar[list[str]] = ["zero", "0lang", "zerolang"]
    filenames: ClassVar[list[str]] = ["*.0"]
    mimetypes: ClassVar[list[str]] = ["text/x-zero", "application/x-zero"]

    tokens: ClassVar[dict[str, list[object]]] = {
        # Sniff: a graph starts with `Name {`; anything else is lexed as plain text.
        "root": [
            include("space"),
            (r"(Graph)(\s*)(\{)", bygroups(Name.Class, Whitespace, Punctuation), ("document", "graph")),
            (rf"{NAME}(?=\s*\{{)", Name.Class, "document"),
            default("text"),
        ],
        "document": [
            (r"(Graph)(\s*)(\{)", bygroups(Name.Class, Whitespace, Punctuation), "graph"),
            include("space"),
            (r"[}\]]", Punctuation),
            include("values"),
        ],
        "graph": [
            (rf'(?:nodes|"nodes"){_KEY_AHEAD}', Name.Attribute, "nodes-value"),
            include("container"),
        ],
        "nodes-value": [
            include("space"),
            (r":", Punctuation),
            (r"\[", Punctuation, ("#pop", "nodes")),
            default("#pop"),
        ],
        "nodes": [
            include("space"),
            (r"\{", Punctuation, "node"),
            include("container"),
        ],
        "node": [
            (rf'(?:type|"type"){_KEY_AHEAD}', Name.Attribute, "type-value"),
            (rf'(?:op|"op"){_KEY_AHEAD}', Name.Attribute, "op-value"),
            include("container"),
        ],
        "type-value": _named_value(_TYPES, KNOWN_TYPE),
        "op-value": _named_value(_OPS, KNOWN_OP),
        "container": [
            include("space"),
            (r"[}\]]", Punctuation, "#pop"),
            include("values"),
        ],
        "values": [
            (rf'"[^"\\\n]*"{_KEY_AHEAD}', Name.Attribute),
            (rf'"(?=(?:[^"\\\n]|\\.)*"{_KEY_AHEAD})', Name.Attribute, "key-string"),
            (rf"{NAME}{_KEY_AHEAD}", Name.Attribute),
            (r'"[^"\\\n]*"', String.Double),
            (r'"', String.Double, "string"),
            (rf"{NAME}(?=\s*\{{)", Name.Class),
            (rf"(?:true|false|null){_NAME_END}", Keyword.Constant),
            (NAME, Name),
            (r"-?\d+(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+)", Number.Float),
            (r"-?\d+", Number.Integer),
            (r"[{\[]", Punctuation, "container"),
            (r"[,:]", Punctuation),
        ],
        "space": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
        ],
        "string": [
            (r'[^"\\\n]+', String.Double),
            (r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})', String.Escape),
            (r"\\", Error),  # an escape JSON does not have: the parser rejects it
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # strings end on their line
        ],
        "key-string": [
            (r'[^"\\\n]+', Name.Attribute),
            (r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})', String.Escape),
            (r"\\", Error),
            (r'"', Name.Attribute, "#pop"),
        ],
        # Not a graph: plain text with `#` comments, never an error.
        "text": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r"[^\s#]+", Text),
        ],
    }

    @staticmethod
    def analyse_text(text: str) -> float:
        """Fairly sure of `Graph {` at the top (after comments), which no other language opens with."""
        return 0.4 if re.match(r"(?:\s*#[^\n]*\n)*\s*Graph\s*\{", text) else 0.0


# `.0c` (docs/0c-format.md, zerolang/syntax/grammars/zeroc.lark): the terminals, what each value is.
_EOL = r"(?=\r?\n)"
# The `.0c` pieces, shared with the VS Code grammar (editors/build_grammars.py imports them).
BARE_WORD = r'[^\s"]\S*'  # a context field or a time, unquoted
_BARE_ITEM = (
    r'[^|"\r\n][^|\r\n]*'  # a label or alias, unquoted (a label's first character is checked by the line)
)
PREDICATE_PATTERN = r'[^\s;"\d](?:[^\s;"]*[^\s;"\d])?'
SETTING_PATTERN = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"  # a declaration's setting (`single-valued`)
QUOTED = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'  # a JSON string as the grammar lexes it (escapes checked later)
# A declaration line after its `!`/`!-`: exactly `SETTING VALUE @TIME` (the grammar's DECLARATION).
DECLARATION_REST = rf"({SETTING_PATTERN})( )(?=(?:{BARE_WORD}|{QUOTED}) @(?:{BARE_WORD}|{QUOTED})(?:\r?\n|$))"
PERCENT = r"\d{1,3}(?![.\deE])"
FRACTION = r"(?:\d*\.\d+|\d+)(?:[eE][-+]?\d+)?"
_CONFIDENCE = rf"(?:{PERCENT}|{FRACTION})"
_RELATION_END = r";|[ \t]|\r?\n"
_ITEM_END = r"\||\r?\n"

CONCEPT_LABEL = Name.Class
ALIAS = Name.Variable
CONCEPT_ID = Name.Label  # a concept's number in a relation line
PREDICATE = Name.Function
TIME = Literal.Date
SOURCE = Name.Tag
SCOPE = Name.Namespace
FIELD_VALUE = Name.Entity  # an agent or session id
SHORT_HASH = Number.Hex  # L0 ids and a delta's base checkpoint
SETTING = Name.Builtin  # a declaration's setting


def _confidence(before: str, *tokens: object, end: str) -> list[object]:
    """A confidence after `before` (` ` in a relation, `|=` on a concept): a percent or a fraction."""
    return [
        (rf"{before}({PERCENT})(?={end})", bygroups(*tokens, Number.Integer)),
        (rf"{before}({FRACTION})(?={end})", bygroups(*tokens, Number.Float)),
    ]


def _value(token: object) -> list[object]:
    """One whitespace-free word or a JSON string (a context field, a time), then back."""
    return [
        (r"[ \t]+", Whitespace),
        (BARE_WORD, token, "#pop"),
        (r'"', String.Double, ("#pop", "string")),
        default("#pop"),
    ]


class ZeroCompactLexer(RegexLexer):  # type: ignore[misc,unused-ignore]
    """Tokens of a `.0c` compact memory document: header, comments, concepts, contexts, times, relations."""

    name = "Zero compact memory"
    aliases: ClassVar[list[str]] = ["zeroc", "0c", "zero-compact", "zerolangc", "zerolang-compact"]
    filenames: ClassVar[list[str]] = ["*.0c"]
    mimetypes: ClassVar[list[str]] = ["text/x-zero-compact"]

    tokens: ClassVar[dict[str, list[object]]] = {
        # At the start of a line: its first characters say what it is.
        "root": [
            (r"[ \t]*\r?\n", Whitespace),
            (r"#[^\r\n]*", Comment.Single),
            (
                r"(0M)(:)(\d+\.\d+)(?=[ \t]+L0(?:\s|$))",
                bygroups(Keyword.Namespace, Punctuation, Number.Float),
                ("l0", "header"),
            ),
            (r"(0M)(:)(\d+\.\d+)?", bygroups(Keyword.Namespace, Punctuation, Number.Float), "header"),
            (r"(X)(:)", bygroups(Keyword.Declaration, Punctuation), ("context", "scope", "source", "event")),
            (r"@", Keyword, "time"),
            (r"(\d+)( )", bygroups(CONCEPT_ID, Whitespace), "relations"),
            (rf"(!-?){DECLARATION_REST}", bygroups(Keyword, SETTING, Whitespace), "declaration"),
            default("concept"),
        ],
        # `!SETTING VALUE @TIME` (checked whole by the root's lookahead): the value, then a time line's.
        "declaration": [
            (BARE_WORD, PREDICATE),
            (r'"', String.Double, "string"),
            (r"( )(@)", bygroups(Whitespace, Keyword), ("#pop", "time")),
        ],
        # `0M:1.0 L0 concepts=N relations=M`, `0M:1.0 L1 concepts=N facts=F`, `0M:1.0 delta base=HASH`
        "header": [
            (r"[ \t]+", Whitespace),
            (r"(?:L[0-9]|delta)(?=\s|$)", Keyword),
            (r"([A-Za-z_]+)(=)([0-9a-f]{16,})(?=\s|$)", bygroups(Name.Attribute, Operator, SHORT_HASH)),
            (r"([A-Za-z_]+)(=)(\d+)(?=\s|$)", bygroups(Name.Attribute, Operator, Number.Integer)),
            (r"([A-Za-z_]+)(=)(\S*)", bygroups(Name.Attribute, Operator, Text)),
            (r"#[^\r\n]*", Comment.Single),
            (r"\S+", Text),
            (r"\r?\n", Whitespace, "#pop"),
        ],
        # An L0 body: short concept ids grouped by their leading digits (`a:3f 41c` = a3f, a41c).
        "l0": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r"^([0-9a-f]+)(:)", bygroups(SHORT_HASH, Punctuation)),
            (r"[0-9a-f]+(?=\s)", SHORT_HASH),
            (r"\S+", Text),
        ],
        # `label|alias...|=confidence|@created|^updated`: the label, then `concept-items`.
        "concept": [
            (r'"', String.Double, "string"),
            (_BARE_ITEM, CONCEPT_LABEL),
            (r"\r?\n", Whitespace, "#pop"),
            default(("#pop", "concept-items")),
        ],
        "concept-items": [
            *_confidence(r"(\|)(=)", Punctuation, Operator, end=_ITEM_END),
            (r"(\|)([@^])", bygroups(Punctuation, Operator), "concept-time"),
            (r"\|", Punctuation),
            (r'"', String.Double, "string"),
            (_BARE_ITEM, ALIAS),
            (r"\r?\n", Whitespace, "#pop"),
        ],
        "concept-time": [
            (_BARE_ITEM, TIME, "#pop"),
            (r'"', String.Double, ("#pop", "string")),
            default("#pop"),
        ],
        # `X:EVENT_TIME SOURCE SCOPE[ a=AGENT][ s=SESSION][ m={JSON}][ c=CREATED]`
        "event": _value(TIME),
        "source": _value(SOURCE),
        "scope": _value(SCOPE),
        "context": [
            (r"( )([as])(=)", bygroups(Whitespace, Name.Attribute, Operator), "field-value"),
            (r"( )(c)(=)(-)(?=\s|$)", bygroups(Whitespace, Name.Attribute, Operator, Keyword.Constant)),
            (r"( )(c)(=)", bygroups(Whitespace, Name.Attribute, Operator), "time-value"),
            (r"( )(m)(=)(\{)", bygroups(Whitespace, Name.Attribute, Operator, Punctuation), "metadata"),
            (r"\r?\n", Whitespace, "#pop"),
            (r"[ \t]+", Whitespace),
            (r"\S+", Error),
        ],
        "field-value": _value(FIELD_VALUE),
        "time-value": _value(TIME),
        # `m={"key":"value",...}`: a one-line JSON object of strings.
        "metadata": [
            (r'"(?=(?:[^"\\\n]|\\.)*"\s*:)', Name.Attribute, "key-string"),
            (r'"', String.Double, "string"),
            (r"[ \t]+", Whitespace),
            (r"[:,]", Punctuation),
            (r"\}", Punctuation, "#pop"),
            (_EOL, Error, "#pop"),
            (r'[^\s"{}:,]+', Error),
        ],
        # `@TIME`: the creation time of the relations below.
        "time": [
            (BARE_WORD, TIME),
            (r'"', String.Double, "string"),
            (r"\r?\n", Whitespace, "#pop"),
            (r"[^\r\n]", Error),
        ],
        # `S predicateO[ CONF][; predicateO[ CONF]]...`, after the subject and its space.
        "relations": [
            (rf"({PREDICATE_PATTERN})(\d+)", bygroups(PREDICATE, CONCEPT_ID)),
            (r'"', String.Double, ("object", "string")),
            *_confidence("( )", Whitespace, end=_RELATION_END),
            (r"(;)( )", bygroups(Punctuation, Whitespace)),
            (r"\r?\n", Whitespace, "#pop"),
            (r"[^\r\n]", Error),
        ],
        "object": [
            (r"\d+", CONCEPT_ID, "#pop"),
            default("#pop"),
        ],
        # A JSON string literal, opened by its state's caller; it ends with its line at the latest.
        "string": [
            (r'[^"\\\r\n]+', String.Double),
            (r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})', String.Escape),
            (r"\\", Error),  # an escape JSON does not have: the parser rejects it
            (r'"', String.Double, "#pop"),
            (r"\r(?!\n)", String.Double),
            default("#pop"),  # unterminated: the line's own state sees the newline
        ],
        "key-string": [
            (r'[^"\\\r\n]+', Name.Attribute),
            (r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})', String.Escape),
            (r"\\", Error),
            (r'"', Name.Attribute, "#pop"),
            default("#pop"),
        ],
    }

    @staticmethod
    def analyse_text(text: str) -> float:
        """Sure of a `0M:1.0` header on the first line that is not a comment."""
        return 0.5 if re.match(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*0M:\d+\.\d+", text) else 0.0
