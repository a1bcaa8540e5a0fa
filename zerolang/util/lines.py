"""A text's lines as our parsers number them: a line ends at `\\n` alone.

lark counts `\\n`, and so does `json` in its error positions; a `\\r` before a `\\n` is part of the
break (and JSON whitespace). `str.splitlines` also breaks at `\\r` alone, U+0085, U+2028, U+2029,
form feeds and a few controls: characters a JSON string holds as they are (JavaScript's
`JSON.stringify` writes U+2028 raw, so a transcript line may carry one), and which editors show
inside a line. Splitting there would cut one JSON line in two and number every later line wrong.
"""

from __future__ import annotations

BOM = "\ufeff"
"""A UTF-8 byte order mark as text: Notepad starts files with it. Our readers take it as the file's
start (the `.0` parser reads it as a space, so every offset and column stays that of the text),
`zero fmt` keeps it, and an excerpt of the first line does not show it."""


def split_lines(text: str) -> list[str]:
    """`text`'s lines, without their ends (`\\n` or `\\r\\n`); a text that ends with a break has no
    empty line after it, as with `str.splitlines`."""
    lines = text.split("\n")
    last = lines.pop()  # after the last break: no end of its own
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if last:
        lines.append(last)
    return lines
