"""Where the cursor is in text that may not parse: the brackets around it and the key it is a value of.

Completion runs while the user types, when the document is usually broken
(`op: Con` before the comma). So this reads the text itself, character by
character, tracking strings, comments and brackets, instead of the parser.
"""

from __future__ import annotations

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


def cursor_at(text: str, offset: int) -> Cursor:
    stack: list[Frame] = []
    snapshot: Cursor | None = None
    last_word: str | None = None
    pending: str | None = None
    index = 0
    length = len(text)
    while index <= length:
        if index == offset and snapshot is None:
            start = index
            while start > 0 and _word_char(text[start - 1]):
                start -= 1
            snapshot = Cursor(list(stack), pending, text[start:index], start, False)
        if index == length:
            break
        char = text[index]
        if char == "#":
            newline = text.find("\n", index)
            newline = length if newline < 0 else newline
            if snapshot is None and index < offset <= newline:
                snapshot = Cursor([], None, "", offset, False)  # in a comment: nothing to complete
            index = newline
            continue
        if char == '"':
            close = index + 1
            while close < length and text[close] not in '"\n':
                close += 2 if text[close] == "\\" else 1
            if snapshot is None and index < offset <= close:
                snapshot = Cursor(list(stack), pending, text[index + 1 : offset], index + 1, True)
            last_word = text[index + 1 : min(close, length)]
            index = close + 1
            continue
        if _word_char(char):
            end = index
            while end < length and _word_char(text[end]):
                end += 1
            if snapshot is None and index < offset < end:
                snapshot = Cursor(list(stack), pending, text[index:offset], index, False)
            last_word = text[index:end]
            index = end
            continue
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
        if not char.isspace() and char != ":":
            last_word = None
        index += 1
    return snapshot if snapshot is not None else Cursor([], None, "", offset, False)
