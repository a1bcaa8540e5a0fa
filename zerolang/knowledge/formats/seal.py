"""The end line of a `.0c` document: a document cut anywhere, or changed after it was written, is seen.

A sealed document says so in its header (version `1.1`) and ends with

    0M:end lines=N sha256=HHHHHHHHHHHHHHHH

where N is the number of lines before the end line and H the first 16 hex
digits of the SHA-256 of those lines (UTF-8, each ended by `\\n`, a `\\r` before
it dropped). A cut inside the body loses lines or the end line; a cut inside
the end line leaves it malformed; a cut inside the header leaves no version.
Version 1.0 documents have no end line and are read as before. This is a guard
against accidents (a truncated copy, a half-written download), not a signature:
anyone can recompute it. docs/0c-format.md documents it.

This layer works on text only: `unseal` hands the parser the same document as
version 1.0 with the end line blanked, so line and column numbers are unchanged.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

PLAIN, SEALED = "1.0", "1.1"
_HEADER = re.compile(r"0M:(\d+)\.(\d+)(?=\s|$)")
_END = re.compile(r"0M:end lines=(\d+) sha256=([0-9a-f]{16})")
END_PREFIX = "0M:end"


@dataclass(frozen=True, slots=True)
class Broken:
    """Why a sealed document cannot be trusted, at a line (column 1)."""

    line: int
    message: str


def _header_index(lines: list[str]) -> int | None:
    for index, line in enumerate(lines):
        if line.strip() and not line.startswith("#"):
            return index
    return None


def is_sealed(text: str) -> bool:
    """Whether the header announces an end line (version 1.1 or a later minor of major 1)."""
    lines = text.split("\n", 64)
    index = _header_index(lines)
    if index is None:
        return False
    match = _HEADER.match(lines[index])
    return match is not None and match.group(1) == "1" and match.group(2).strip("0") != ""


def digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def seal(text: str) -> str:
    """A version 1.0 document (as the serializer writes it) as a sealed 1.1 one with its end line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    index = _header_index(lines)
    if index is None or not lines[index].startswith("0M:" + PLAIN):
        raise ValueError("seal() takes a .0c document with a `0M:1.0` header")
    lines[index] = "0M:" + SEALED + lines[index][len("0M:" + PLAIN) :]
    body = "".join(line.removesuffix("\r") + "\n" for line in lines)
    return f"{body}{END_PREFIX} lines={len(lines)} sha256={digest(body)}\n"


def unseal(text: str) -> tuple[str, Broken | None]:
    """(the document as version 1.0 without its end line, what is wrong with the seal or None).

    A document that is not sealed comes back unchanged. Lines keep their numbers.
    """
    if not is_sealed(text):
        return text, None
    lines = text.split("\n")
    index = _header_index(lines)
    assert index is not None
    lines[index] = "0M:" + PLAIN + lines[index][len("0M:" + SEALED) :]
    last = len(lines) - 1
    while last > index and not lines[last].strip():
        last -= 1
    ending = lines[last].removesuffix("\r")
    match = _END.fullmatch(ending)
    if match is None:
        earlier = next(
            (number for number in range(index + 1, last) if _END.fullmatch(lines[number].removesuffix("\r"))),
            None,
        )
        if earlier is not None:
            message = (
                f"lines were added after the `{END_PREFIX}` line (line {earlier + 1}): the document was "
                f"changed after it was written; if on purpose, delete that line and write the header as "
                f"`0M:{PLAIN}`"
            )
            lines[earlier] = ""
            return "\n".join(lines), Broken(earlier + 2, message)
        lines_shown = last + 1
        problem = (
            f"the document is cut: a .0c {SEALED} document ends with its `{END_PREFIX} lines=N sha256=...` "
            f"line, and this one ends at line {lines_shown} without it"
        )
        if ending.startswith(END_PREFIX):
            expected = f"{END_PREFIX} lines=N sha256=<16 hex>"
            problem = f"the `{END_PREFIX}` line is cut or malformed (expected `{expected}`)"
        return "\n".join(lines), Broken(lines_shown, problem)
    original = text.split("\n")
    body = "".join(line.removesuffix("\r") + "\n" for line in original[:last])
    written, stated_digest = match.group(1).lstrip("0") or "0", match.group(2)
    stated_lines = int(written) if len(written) <= 18 else -1  # more lines than any text has
    lines[last] = ""
    plain = "\n".join(lines)
    if stated_lines != last or stated_digest != digest(body):
        if stated_lines != last:
            says = str(stated_lines) if stated_lines >= 0 else f"a number of {len(written)} digits"
            found = f"it has {last} lines before its end line, which says {says}"
        else:
            found = "its checksum does not match its lines"
        return plain, Broken(
            last + 1,
            f"the document is cut or changed: {found}; if you edited it on purpose, delete this line "
            f"and write the header as `0M:{PLAIN}`",
        )
    return plain, None
