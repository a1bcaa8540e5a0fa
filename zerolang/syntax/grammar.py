"""Finding the `.lark` grammars and building their parsers once.

The grammars live beside this module, in `zerolang/syntax/grammars/`, and ship
inside the wheel there. A built LALR
parser is cached in the user's private cache folder (`zerolang.util.cache`: signed,
plain data, never a pickle) and loaded from there by later processes without
reading or analysing the grammar again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

GRAMMARS = Path(__file__).resolve().parent / "grammars"

# Options of lark's that hold our objects (classes, callbacks): given again on every load, never cached.
_LIVE_OPTIONS = ("transformer", "lexer_callbacks", "lexer", "postlex", "tree_class", "edit_terminals")


def grammar_path(name: str) -> Path:
    """The file of grammar `name` (`zero`, `zeroc`, `query`), installed or in a checkout."""
    candidate = GRAMMARS / f"{name}.lark"
    if candidate.is_file():
        return candidate
    raise FileNotFoundError(f"grammar {name}.lark is not installed with zerolang")


def cache_dir() -> Path | None:
    """Where built parsers are cached (`zerolang.util.cache.cache_dir`)."""
    from zerolang.util.cache import cache_dir as private_cache_dir

    return private_cache_dir()


def import_lark() -> Any:
    """`import lark`, without the third-party `regex` module lark imports only to offer `regex=True`.

    We never ask for it, and it is a fifth of lark's import time. `regex`
    stays importable for everyone else: it is hidden only while lark loads.
    """
    if "lark" not in sys.modules and "regex" not in sys.modules:
        sys.modules["regex"] = None  # type: ignore[assignment]  # makes `import regex` raise ImportError
        try:
            import lark
        finally:
            del sys.modules["regex"]
    import lark

    return lark


def _cache_key(name: str, grammar: str, lexer: Any, options: dict[str, Any]) -> str:
    """What the built tables depend on: grammar, options, our lexer's code, and the versions."""
    import hashlib

    from zerolang import __version__

    lark = sys.modules["lark"]
    digest = hashlib.sha256(f"{name}\0{__version__}\0{lark.__version__}\0{sys.version_info[:2]}".encode())
    digest.update(grammar.encode())
    digest.update(repr(sorted((k, repr(v)) for k, v in options.items() if k not in _LIVE_OPTIONS)).encode())
    if isinstance(lexer, type):
        module = sys.modules[lexer.__module__]
        digest.update(f"{lexer.__module__}.{lexer.__qualname__}".encode())
        digest.update(Path(module.__file__ or "").read_bytes())
    else:
        digest.update(str(lexer).encode())
    return digest.hexdigest()[:20]


def build_parser(
    name: str, transformer: Any = None, fast: bool = True, *, lexer: Any = None, **options: Any
) -> Any:
    """An LALR parser for grammar `name`, loaded from the user cache when it was built before.

    `fast` lexes with `GrammarRegexLexer` (one regex built from the grammar's
    terminals); otherwise lark's contextual lexer runs, whose errors know what
    each parser state expected. `lexer` gives another lexer class instead.
    """
    import_lark()
    from lark import Lark

    if lexer is None:
        if fast:
            from zerolang.syntax.fastlex import GrammarRegexLexer

            lexer = GrammarRegexLexer
        else:
            lexer = "contextual"
    options = {"parser": "lalr", "maybe_placeholders": False, **options}
    live = {key: options.pop(key) for key in _LIVE_OPTIONS if key in options}
    live["transformer"] = transformer
    path = grammar_path(name)
    grammar = path.read_text(encoding="utf-8")
    kind = "fast" if fast else "contextual"
    if isinstance(lexer, type) and lexer.__name__ != "GrammarRegexLexer":
        kind = lexer.__name__
    file_name = f"{name}-{kind}-{_cache_key(name, grammar, lexer, options)}.parser"

    cached = _load_cached(file_name, lexer, live)
    if cached is not None:
        return cached
    parser = Lark(grammar, lexer=lexer, source_path=str(path), **options, **live)
    _save_cached(parser, file_name, f"{name}-{kind}-*.parser")
    return parser


def _load_cached(file_name: str, lexer: Any, live: dict[str, Any]) -> Any:
    import marshal

    from lark import Lark

    from zerolang.util.cache import load

    payload = load(file_name)
    if payload is None:
        return None
    try:
        document = marshal.loads(payload)
        data, memo = document["data"], document["memo"]
        data["parser"]["lexer_conf"]["lexer_type"] = lexer
        data["options"]["lexer"] = lexer
        from_dict: Any = Lark._load_from_dict
        return from_dict(data, memo, **{k: v for k, v in live.items() if k != "lexer"})
    except Exception:  # a file of ours from an incompatible build: rebuild it
        return None


def _save_cached(parser: Any, file_name: str, stale: str) -> None:
    import marshal

    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from zerolang.util.cache import store

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LIVE_OPTIONS}
    data["parser"]["lexer_conf"]["lexer_type"] = None
    try:
        payload = marshal.dumps({"data": data, "memo": memo})
    except ValueError:  # something that is not plain data: do not cache what we could not read back
        return
    store(file_name, payload, stale)
