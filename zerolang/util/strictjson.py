"""JSON as zerolang reads it: a key given twice in one object, and a number that is not finite
(`1e999`, `NaN`, `Infinity`, an integer of more than 309 digits), are refused with their place
instead of silently taking the last value or becoming `null` (or an overflow) later.

`DECODER` decodes as `json` does but raises `Refused` at the first such problem; `locate` then
finds it in the text (both places of a repeated key), in one linear pass that runs only then.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong and where (`offset` into the text); `first` is the earlier place of a repeated key."""

    offset: int
    message: str
    first: int | None = None


class Refused(ValueError):
    """Raised by `DECODER` at a repeated key or a number that is not finite; `locate` says where."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise Refused("duplicate key")
    return result


def _float(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise Refused("number out of range")
    return number


MAX_DIGITS = 309
"""An integer of more digits is beyond any float (1.8e308): out of range wherever a number is read."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Refused("number out of range")
    return int(text)


def _constant(name: str) -> float:
    raise Refused(f"{name} is not a JSON number")


DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_float=_float, parse_int=_int, parse_constant=_constant
)

_TOKEN = re.compile(r'\s*+(?:("(?:[^"\\]|\\.)*+")|([{}\[\]:,])|([^\s{}\[\]:,"]++))', re.DOTALL)


def locate(text: str, start: int = 0) -> Problem | None:
    """The first repeated key or non-finite number of the JSON value at `start`, in text order."""
    frames: list[tuple[dict[str, int] | None, list[bool]]] = []  # (keys or None for a list, [expect key])
    position = start
    while True:
        match = _TOKEN.match(text, position)
        if match is None:
            return None
        position = match.end()
        quoted, mark, bare = match.groups()
        if quoted is not None:
            if frames and frames[-1][0] is not None and frames[-1][1][0]:
                keys = frames[-1][0]
                try:
                    key = json.loads(quoted)
                except ValueError:
                    return None
                if key in keys:
                    shown = json.dumps(key, ensure_ascii=False)
                    shown = shown if len(shown) <= 40 else shown[:36] + '..."'
                    return Problem(match.start(1), f"duplicate key {shown}", keys[key])
                keys[key] = match.start(1)
        elif mark is not None:
            if mark in "{[":
                frames.append(({} if mark == "{" else None, [mark == "{"]))
                continue
            if mark in "}]":
                if frames:
                    frames.pop()
            elif frames and frames[-1][0] is not None:
                frames[-1][1][0] = mark == ","
        elif bare is not None:
            problem = _bare(bare, match.start(3))
            if problem is not None:
                return problem
        if not frames:
            return None  # the value at `start` is complete


def _bare(word: str, offset: int) -> Problem | None:
    if word in ("NaN", "Infinity", "-Infinity"):
        return Problem(offset, f"`{word}` is not a JSON number (numbers must be finite)")
    if word[:1] in "-0123456789":
        if not any(char in word for char in ".eE"):
            out = word.lstrip("-").isdigit() and len(word.lstrip("-")) > MAX_DIGITS
        else:
            try:
                out = math.isinf(float(word))
            except ValueError:
                return None
        if out:
            shown = word if len(word) <= 40 else word[:24] + f"... ({len(word)} characters)"
            return Problem(offset, f"the number {shown} is out of range (numbers must be finite)")
    return None


def where(text: str, offset: int) -> str:
    """`line:column` of an offset (counted from 1)."""
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def message(text: str, problem: Problem) -> str:
    """The one-line message of a problem: a repeated key names its first place too."""
    if problem.first is None:
        return problem.message
    return f"{problem.message}: first at {where(text, problem.first)}, again at {where(text, problem.offset)}"
