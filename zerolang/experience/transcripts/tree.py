"""A conversation kept as a tree of entries (Claude Code, pi): its path is walked back from the last
entry through each entry's parent; branches left behind are not the conversation any more."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zerolang.experience.transcripts.jsonlines import Line


@dataclass(frozen=True, slots=True)
class Chain:
    """The conversation's path walked back from the last entry through `lines`: each entry's id and
    line, leaf first, and the parent it left them at (`None`: it reached a root, or a cycle)."""

    links: tuple[tuple[str, int], ...]
    exit: str | None
    cyclic: bool

    def anchor(self, line: int) -> str | None:
        """Where the walk would leave the lines from `line` on: the first entry before that line."""
        return next((ident for ident, at in self.links if at < line), self.exit)


def chain(lines: list[Line], ident: str, parent: str, leaf: Callable[[Line], bool] = lambda _: True) -> Chain:
    """The path through `lines` (objects), keyed by their `ident` field and linked by their `parent`
    field, from the last line with an id that `leaf` accepts; a cycle ends the walk (`cyclic`)."""
    by_id = {line.value[ident]: line for line in lines if isinstance(line.value.get(ident), str)}
    last = next(
        (line for line in reversed(lines) if isinstance(line.value.get(ident), str) and leaf(line)), None
    )
    links: list[tuple[str, int]] = []
    seen: set[str] = set()
    exit: str | None = None
    while last is not None:
        key = last.value[ident]
        if key in seen:
            return Chain(tuple(links), None, True)
        seen.add(key)
        links.append((key, last.line))
        up = last.value.get(parent)
        last = by_id.get(up) if isinstance(up, str) else None
        exit = up if isinstance(up, str) and last is None else None
    return Chain(tuple(links), exit, False)
