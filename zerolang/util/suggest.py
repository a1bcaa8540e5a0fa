"""Did you mean ...? The one rule every "unknown name" message uses to offer the name meant.

The rule: an alias the caller knows, else the candidate equal but for case, else
`difflib.get_close_matches(name, candidates, n=1, cutoff=0.75)`, else the same on
lower-cased names. `Suggester` answers it from an index built once per set of
candidates, so a file with 20,000 ids and 20,000 dangling inputs does not compare
every name with every id:

- a candidate can reach the cutoff only if its length is within the ratio's reach
  and it shares enough characters with the name (difflib's `quick_ratio` bound);
- so it shares at least one of the name's few rarest characters (prefix filtering:
  with `need` of the name's `n` characters required, any `n - need + 1` of them
  hold one), and only the candidates listed under those are compared;
- at most `COMPARE_BUDGET` candidates are compared per name (names that look like
  thousands of ids get the best among the first ones found, or none), and answers
  are remembered, so a misspelling repeated on every node is looked up once.

Within the budget the answer is exactly `difflib`'s over all candidates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

CUTOFF = 0.75
# Candidates compared per name at most: the bound that keeps one question cheap.
COMPARE_BUDGET = 2048
# Answers remembered per index (a repeated misspelling costs one look-up).
MEMO_SIZE = 4096


def suggest(
    name: str, candidates: tuple[str, ...] | list[str], aliases: dict[str, str] | None = None
) -> str | None:
    """The one name `name` most likely meant, or None when nothing is close (one question)."""
    if aliases and name in aliases:
        return aliases[name]
    lowered = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in lowered:
        return lowered[name.lower()]
    import difflib  # only when the name is not found as it is (start-up, issue 43)

    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=CUTOFF)
    if matches:
        return matches[0]
    matches = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=CUTOFF)
    return lowered[matches[0]] if matches else None


class _Index:
    """Names by length and by character (each repeat of a character its own key)."""

    __slots__ = ("by_length", "names", "postings")

    def __init__(self, names: Iterable[str]) -> None:
        self.names: list[str] = list(dict.fromkeys(names))
        self.by_length: Counter[int] = Counter(len(name) for name in self.names)
        self.postings: dict[tuple[str, int], list[int]] = {}
        for number, name in enumerate(self.names):
            for token in _tokens(name):
                self.postings.setdefault(token, []).append(number)

    def closest(self, name: str) -> str | None:
        """`difflib.get_close_matches(name, names, n=1, cutoff=CUTOFF)`, from the index."""
        length = len(name)
        needs = {other: _need(length, other) for other in self.by_length}
        reachable = {other: need for other, need in needs.items() if need is not None}
        if not reachable:
            return None
        least = min(reachable.values())
        if least <= 0:  # only empty names reach it sharing nothing: compare them all
            return _best(name, self.names)
        tokens = sorted(_tokens(name), key=lambda token: len(self.postings.get(token, ())))
        seen: set[int] = set()
        compared: list[str] = []
        for token in tokens[: length - least + 1]:
            for number in self.postings.get(token, ()):
                if number in seen:
                    continue
                seen.add(number)
                candidate = self.names[number]
                if len(candidate) in reachable:
                    compared.append(candidate)
                    if len(compared) >= COMPARE_BUDGET:
                        return _best(name, compared)
        return _best(name, compared)


class Suggester:
    """`suggest` over one set of candidates, indexed once: ask it as often as there are problems."""

    __slots__ = ("_aliases", "_exact", "_lowered", "_lowered_index", "_memo", "_names")

    def __init__(self, candidates: Iterable[str], aliases: dict[str, str] | None = None) -> None:
        every = list(candidates)
        names = list(dict.fromkeys(every))
        self._aliases = dict(aliases or {})
        self._lowered: dict[str, str] = {name.lower(): name for name in every}  # the last one wins
        self._names = _Index(names)
        self._lowered_index: _Index | None = None  # built on the first question that needs it
        self._memo: dict[str, str | None] = {}
        self._exact = frozenset(names)

    def __call__(self, name: str) -> str | None:
        """The one name `name` most likely meant, or None: the same answer as `suggest`."""
        if name in self._aliases:
            return self._aliases[name]
        if name in self._memo:
            return self._memo[name]
        answer = self._lowered.get(name.lower())
        if answer is None:
            answer = self._names.closest(name)
        if answer is None:
            if self._lowered_index is None:
                self._lowered_index = _Index(self._lowered)
            meant = self._lowered_index.closest(name.lower())
            answer = self._lowered[meant] if meant is not None else None
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[name] = answer
        return answer

    def __contains__(self, name: object) -> bool:
        return name in self._exact


def _tokens(name: str) -> list[tuple[str, int]]:
    """Each character with how many times it came before: multiset intersection as set intersection."""
    if len(set(name)) == len(name):
        return [(character, 0) for character in name]
    counts: dict[str, int] = {}
    tokens = []
    for character in name:
        seen = counts.get(character, 0)
        counts[character] = seen + 1
        tokens.append((character, seen))
    return tokens


def _need(length: int, other: int) -> int | None:
    """The fewest shared characters a name of `other` characters needs to reach the cutoff, or None.

    The same float expression as difflib's (`2.0 * matches / total >= cutoff`), so the bound is exact.
    """
    total = length + other
    for shared in range(max(0, int(CUTOFF * total / 2) - 1), min(length, other) + 1):
        if total == 0 or 2.0 * shared / total >= CUTOFF:
            return shared
    return None


def _best(name: str, candidates: list[str]) -> str | None:
    import difflib

    matches = difflib.get_close_matches(name, candidates, n=1, cutoff=CUTOFF)
    return matches[0] if matches else None
