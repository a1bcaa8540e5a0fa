"""Finding the `.lark` grammars and building their parsers once.

The grammars ship inside the wheel as `zerolang/grammars/`; in a source
checkout they are read from the top-level `grammars/` folder. Built LALR
tables are cached in the user's cache directory (never inside the installed
package), keyed by lark on the grammar text and options.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent


def grammar_path(name: str) -> Path:
    """The file of grammar `name` (`zero`, `zeroc`, `query`), installed or in a checkout."""
    for folder in (PACKAGE_DIR / "grammars", PACKAGE_DIR.parent / "grammars"):
        candidate = folder / f"{name}.lark"
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"grammar {name}.lark is not installed with zerolang")


def cache_dir() -> Path | None:
    """Where built parsers are cached; `ZERO_CACHE_DIR` overrides, `ZERO_NO_CACHE=1` disables."""
    if os.environ.get("ZERO_NO_CACHE"):
        return None
    override = os.environ.get("ZERO_CACHE_DIR")
    if override:
        folder = Path(override)
    else:
        from platformdirs import user_cache_dir

        folder = Path(user_cache_dir("zerolang", appauthor=False))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _code_digest() -> str:
    """lark keys its cache on grammar and options; the lexer it pickles is our code, so key on that too."""
    import hashlib

    from zerolang import __version__

    digest = hashlib.sha256(__version__.encode())
    digest.update((PACKAGE_DIR / "fastlex.py").read_bytes())
    return digest.hexdigest()[:12]


def build_parser(name: str, transformer: Any = None, fast: bool = True, **options: Any) -> Any:
    """An LALR parser for grammar `name`, its tables cached on disk.

    `fast` lexes with `GrammarRegexLexer` (one regex built from the grammar's
    terminals); otherwise lark's contextual lexer runs, whose errors know what
    each parser state expected.
    """
    from lark import Lark

    path = grammar_path(name)
    folder = cache_dir()
    lexer: Any = "contextual"
    if fast:
        from zerolang.fastlex import GrammarRegexLexer

        lexer = GrammarRegexLexer
    kind = "fast" if fast else "contextual"
    cache_file: str | bool = False
    if folder is not None:
        current = folder / f"{name}-{kind}-{_code_digest()}.lark-cache"
        if not current.exists():
            for stale in folder.glob(f"{name}-{kind}-*.lark-cache"):
                stale.unlink(missing_ok=True)
        cache_file = str(current)
    return Lark.open(
        str(path),
        parser="lalr",
        lexer=lexer,
        transformer=transformer,
        cache=cache_file,
        maybe_placeholders=False,
        **options,
    )
