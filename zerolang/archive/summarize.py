"""The default summariser: extractive, deterministic and offline.

It picks whole sentences out of the range, so a summary never says anything the conversation
did not: each sentence is scored by how common its content words are across the range (a
word repeated by both sides is what the range is about), the best few are kept in their
original order with their speaker (named once for neighbouring sentences of one message),
and the result is cut at a word boundary. Same input, same summary, on every machine.

Any `Summarizer` (a function from messages to non-empty text) can replace it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from zerolang.util.stopwords import ENGLISH

Summarizer = Callable[[Sequence[Mapping[str, Any]]], str]

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = ENGLISH | frozenset(
    {
        "ok",
        "okay",
        "yes",
    }
)


def extractive_summary(
    messages: Sequence[Mapping[str, Any]], *, max_sentences: int = 3, max_chars: int = 280
) -> str:
    """`role: sentence` for the highest-scoring sentences, in conversation order, at most `max_chars`."""
    sentences: list[tuple[int, str, str]] = []  # (position, role, sentence)
    owner: list[int] = []  # the message each sentence came from
    for number, message in enumerate(messages):
        # An earlier summary block stands for its summary (not its "[N messages archived...]" line).
        content = message.get("summary" if message.get("kind") == "zero.summary" else "content")
        if not isinstance(content, str):
            continue
        role = str(message.get("role", "?"))
        for piece in _SENTENCE.split(content):
            piece = " ".join(piece.split())
            if piece:
                sentences.append((len(sentences), role, piece))
                owner.append(number)
    if not sentences:
        return f"{len(messages)} message{'s' if len(messages) != 1 else ''} without text"
    frequency = Counter(word for _, _, text in sentences for word in set(_words(text)))

    def score(item: tuple[int, str, str]) -> tuple[float, int]:
        words = set(_words(item[2]))
        if not words:
            return (0.0, item[0])
        return (-sum(frequency[word] for word in words) / len(words) ** 0.5, item[0])

    chosen = sorted(sorted(sentences, key=score)[:max_sentences])
    parts: list[str] = []
    previous = -2
    for position, role, sentence in chosen:
        follows = position == previous + 1 and owner[position] == owner[previous]
        parts.append(sentence if follows else f"{role}: {sentence}")
        previous = position
    return _cut(" ".join(parts), max_chars)


def _words(text: str) -> list[str]:
    return [word for word in _WORD.findall(text.casefold()) if word not in _STOP and len(word) > 1]


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip() + "…"
