"""Text that is not ours: vercel-labs/zerolang (another agent language) also names its files `.0`.

Its programs read like Rust or TypeScript: `fn main() {`, `pub fn`, `let x = ...`, `use ...`,
`//` comments. A 0-lang graph is one `Graph { ... }` (after `#` comments). When text that does
not parse starts like theirs, the parser says so in one line, at the keyword, rather than
reporting the first token it could not read.
"""

from __future__ import annotations

import re

from zerolang.util.span import Span

# A line that starts a declaration in their language (and never in ours: our keys are followed by `:`).
_THEIRS = re.compile(
    r"(?:pub\s+|export\s+|async\s+)*(?P<keyword>fn|let|const|use|import|struct|enum|type|impl|trait|mod|module"
    r"|interface|agent|tool|extern)\b(?!\s*:)"
)
LOOKS_FOREIGN = (
    "this looks like the other `.0` language (vercel-labs/zerolang: `{keyword}`), not a 0-lang graph,"
    " which is one `Graph {{ ... }}`; docs/editors.md tells the two apart"
)


def foreign_keyword(text: str) -> tuple[str, Span] | None:
    """The keyword of the other language on the first line that is not blank or a comment, and where it
    is; None when the text does not start like theirs."""
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or stripped.startswith(("#", "//", "/*", "*")):
            offset += len(line) + 1
            continue
        found = _THEIRS.match(stripped)
        if found is None:
            return None
        column = len(line) - len(line.lstrip())
        written = found.group(0).strip()
        start = offset + column
        span = Span(number, column + 1, number, column + 1 + len(written), start, start + len(written))
        return (written, span)
    return None
