"""Where the cursor is in text that may not parse: the brackets around it and the key it is a value of.

Completion runs while the user types, when the document is usually broken
(`op: Con` before the comma). So this reads the text itself, character by
character, tracking strings, comments and brackets, instead of the parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(slots=True)
class Frame:
    """An open `{` or `[`: the key it is the value of, where it starts and ends, and the keys in it."""

    bracket: str
    key: str | None
    start: int
    end: int | None = None
    keys: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Cursor:
    """The brackets open at the cursor (outermost first), the key whose value is being written, if any,
    and the word being typed: its text and where it starts; `quoted` when inside a string."""

    frames: list[Frame]
    key: str | None
    prefix: str
    prefix_start: int
    quoted: bool

    def kind(self) -> str:
        """`graph`, `node`, `params`, `condition`, `list:<key>`, or `other`: what the innermost bracket is."""
        if not self.frames:
            return "other"
        top = self.frames[-1]
        if top.bracket == "[":
            return f"list:{top.key}"
        parent = self.frames[-2] if len(self.frames) > 1 else None
        if parent is None:
            return "graph"
        if parent.bracket == "[" and parent.key == "nodes" and len(self.frames) == 3:
            return "node"
        if parent.bracket == "[" and parent.key == "conditions":
            return "condition"
        if top.key == "params" and len(self.frames) == 4:
            return "params"
        return "other"

    def node_frame(self) -> Frame | None:
        return self.frames[2] if len(self.frames) > 2 and self.frames[1].key == "nodes" else None


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_-."


# One token of the text: a comment, a string (to its quote or the line's end), a word, or one character.
_TOKEN = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\.|\\\Z)*["\n]?|[\w.\-]+|\s+|.', re.DOTALL)


def cursor_at(text: str, offset: int, start: int = 0, frames: list[Frame] | None = None) -> Cursor:
    """What the cursor at `offset` is in: read token by token up to it, then only until its node closes.

    `start` and `frames`: read from `start` (a bracket's first character, before `offset`) with
    `frames` open there, as a reading from the text's start would have them (`Outline.cursor`).
    """
    stack: list[Frame] = list(frames) if frames is not None else []
    snapshot: Cursor | None = None
    stop_depth = -1  # once the snapshot is taken: stop when the stack is this shallow again
    last_word: str | None = None
    pending: str | None = None
    length = len(text)
    for match in _TOKEN.finditer(text, start):
        index, end = match.span()
        char = text[index]
        if snapshot is None and index == offset:
            snapshot = _at(text, offset, stack, pending)
        if char == "#":
            if snapshot is None and index < offset <= end:
                snapshot = Cursor([], None, "", offset, False)  # in a comment: nothing to complete
        elif char == '"':
            close = end - 1 if end - index > 1 and text[end - 1] in '"\n' else end
            if snapshot is None and index < offset <= close:
                snapshot = Cursor(list(stack), pending, text[index + 1 : offset], index + 1, True)
            last_word = text[index + 1 : min(close, length)]
        elif _word_char(char):
            if snapshot is None and index < offset < end:
                snapshot = Cursor(list(stack), pending, text[index:offset], index, False)
            last_word = text[index:end]
        elif char.isspace():
            if snapshot is None and index < offset < end:
                snapshot = _at(text, offset, stack, pending)
        else:
            if char == ":":
                pending = last_word
                if stack and pending is not None:
                    stack[-1].keys.append(pending)
            elif char in "{[":
                stack.append(Frame(char, pending, index))
                pending = None
            elif char in "}]":
                if stack:
                    stack.pop().end = index + 1
                pending = None
            elif char == ",":
                pending = None
            if char != ":":
                last_word = None
        if snapshot is not None:
            if stop_depth < 0:
                stop_depth = min(len(snapshot.frames), 3)
            if len(stack) < stop_depth:
                break  # the frames a completion reads (up to the node's) are closed
    if snapshot is None and offset == length:
        snapshot = _at(text, offset, stack, pending)
    return snapshot if snapshot is not None else Cursor([], None, "", offset, False)


def _at(text: str, offset: int, stack: list[Frame], pending: str | None) -> Cursor:
    start = offset
    while start > 0 and _word_char(text[start - 1]):
        start -= 1
    return Cursor(list(stack), pending, text[start:offset], start, False)
