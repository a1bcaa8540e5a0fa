"""Pygments lexer for `.0` graphs, registered as `zero` through the `pygments.lexers` entry point.

It follows `grammars/zero.lark` token for token, and adds what a reader wants
to see at a glance: a node's `type` and `op` are coloured when the runtime
knows them (`zerolang.catalog`) and marked when it does not, so `op: Eq` or
`type: Aggregate` stands out before anything runs. Only the `type` and `op`
keys directly inside a node of `nodes: [...]` count; a `type:` key in some
metadata map is just a key.

`Error` tokens appear exactly where the `.0` lexer itself would fail: a
character no token starts with, an invalid string escape, a string left open
at the end of its line. Structural mistakes (a missing comma) are the
parser's business; the text still highlights normally.

A document that does not start with `Name {` (after comments) is not a graph:
the `.0c` compact memory format (one `TAG:fields` record per line, `#`
comments; not designed in this repository yet), or plain text. It is lexed
line by line and leniently, never with an `Error` token.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, default, include  # type: ignore[import-untyped,unused-ignore]
from pygments.token import (  # type: ignore[import-untyped,unused-ignore]
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from zerolang.catalog import NODE_TYPES, OPS

__all__ = ["KNOWN_OP", "KNOWN_TYPE", "UNKNOWN_NAME", "ZeroLexer"]

# The token types that carry meaning beyond plain JSON, named once for the tests and docs.
KNOWN_TYPE = Keyword.Type
KNOWN_OP = Name.Builtin
# Pygments has no "unknown name" token; Name.Exception is red or bold in the common
# styles and is used for nothing else here, so a misspelt type or op stands out.
UNKNOWN_NAME = Name.Exception

# The grammar's terminals (grammars/zero.lark).
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
    aliases: ClassVar[list[str]] = ["zero", "0lang"]
    filenames: ClassVar[list[str]] = ["*.0", "*.0c"]
    mimetypes: ClassVar[list[str]] = ["text/x-zero", "application/x-zero"]

    tokens: ClassVar[dict[str, list[object]]] = {
        # Sniff: a graph starts with `Name {`; anything else is lexed as compact text.
        "root": [
            include("space"),
            (r"(Graph)(\s*)(\{)", bygroups(Name.Class, Whitespace, Punctuation), ("document", "graph")),
            (rf"{NAME}(?=\s*\{{)", Name.Class, "document"),
            default("compact"),
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
        # The `.0c` compact format or plain text: records `TAG:field>field,key=value`, `#` comments.
        "compact": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r"^[A-Za-z0-9_]+(?=:)", Keyword),
            (r"-?\d+(?:\.\d+)?(?=[\s,>]|\Z)", Number),
            (r"[:>,=]", Punctuation),
            (r"[^\s:>,=]+", Text),
        ],
    }

    @staticmethod
    def analyse_text(text: str) -> float:
        """Fairly sure of `Graph {` at the top (after comments), which no other language opens with."""
        return 0.4 if re.match(r"(?:\s*#[^\n]*\n)*\s*Graph\s*\{", text) else 0.0
