"""The 0-memory query language (docs/query.md): `recall` from a concept, `match` triple patterns.

- `ast`: the typed query, every node with its span;
- `parser`: text -> `Query` (grammars/query.lark), errors with a caret;
- `executor`: runs a `Query` against a `MemoryStore`.
"""

from __future__ import annotations

from zerolang.knowledge.query.ast import Query, QueryError
from zerolang.knowledge.query.parser import parse_query

__all__ = ["Query", "QueryError", "parse_query"]
