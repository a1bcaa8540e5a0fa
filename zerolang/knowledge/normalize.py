"""Label and predicate normalisation (spec §7), and the alias table.

Normalisation decides concept identity (ConceptHash is over the normalised
label), so it follows the spec to the letter and nothing more:

- a label: trim, lowercase, `_` and `.` become `-`, runs of spaces become one
  (only spaces: a tab or a newline inside a label is kept);
- a predicate: trim, lowercase, runs of spaces, `-` and `.` become one `_`.

The alias table then maps a variant to its canonical label (`LTM` ->
`long-term-memory`). Keys are matched after normalisation, so `ltm`, `LTM`
and ` Ltm ` are the same alias. Users extend the defaults from a JSON file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from zerolang.util.errors import ZeroError

_MEMO_LIMIT = 100_000
_SPACES = re.compile(r" {2,}")
_PREDICATE_RUNS = re.compile(r"[ .\-]+")
_LABEL_SEPARATORS = str.maketrans({"_": "-", ".": "-"})

# The seed's aliases (0-memory execution plan, normaliser M3), plus the other memory
# tiers it names, each under its abbreviation and its spelled-out forms.
DEFAULT_ALIASES: Mapping[str, str] = {
    "LTM": "long-term-memory",
    "long_term_memory": "long-term-memory",
    "long term memory": "long-term-memory",
    "STM": "short-term-memory",
    "short term memory": "short-term-memory",
    "WM": "working-memory",
    "working memory": "working-memory",
    "episodic memory": "episodic-memory",
    "semantic memory": "semantic-memory",
    "knowledge graph": "knowledge-graph",
    "0 memory": "0-memory",
}


def normalize_label(raw: str) -> str:
    """The canonical spelling of a concept label, before aliases."""
    text = raw.strip().lower().translate(_LABEL_SEPARATORS)
    return _SPACES.sub(" ", text)


def normalize_predicate(raw: str) -> str:
    """The canonical spelling of a predicate: `Compiles To` -> `compiles_to`."""
    return _PREDICATE_RUNS.sub("_", raw.strip().lower())


def written_form(raw: str) -> str:
    """How a label was written, as kept among a concept's aliases: trimmed, otherwise untouched."""
    return raw.strip()


class AliasTable:
    """Variant label -> canonical label, both normalised; immutable (extend with `extended`).

    A canonical label may not itself be an alias of something else: chains
    would make the result depend on the order of lookups, so they are refused.
    """

    __slots__ = ("_resolved", "_table")

    def __init__(self, aliases: Mapping[str, str] | None = None) -> None:
        table: dict[str, str] = {}
        for alias, canonical in (aliases or {}).items():
            table.update(_entry(alias, canonical))
        _refuse_chains(table)
        self._table = table
        self._resolved: dict[str, str] = {}

    @classmethod
    def default(cls) -> AliasTable:
        """The built-in table (`DEFAULT_ALIASES`)."""
        return _DEFAULT

    @classmethod
    def empty(cls) -> AliasTable:
        return cls()

    def extended(self, aliases: Mapping[str, str]) -> AliasTable:
        """A new table: this one plus `aliases`, which win where both define an alias."""
        merged = AliasTable(aliases)
        combined = AliasTable()
        combined._table = {**self._table, **merged._table}
        combined._resolved = {}
        _refuse_chains(combined._table)
        return combined

    @classmethod
    def from_file(cls, path: str | Path, base: AliasTable | None = None) -> AliasTable:
        """`base` (the defaults unless given) extended by a JSON object `{"alias": "canonical", ...}`."""
        from zerolang.util.files import read_json

        document = read_json(path, "alias file")
        if not isinstance(document, dict):
            raise ZeroError(f'{path}: an alias file is a JSON object {{"alias": "canonical label", ...}}')
        try:
            return (base if base is not None else cls.default()).extended(document)
        except ZeroError as error:
            raise ZeroError(f"{path}: {error.message}") from None

    def variants(self, label: str) -> list[str]:
        """Every alias whose canonical label is `label` (normalised), sorted."""
        return sorted(alias for alias, canonical in self._table.items() if canonical == label)

    def resolve(self, raw: str) -> str:
        """The canonical label of `raw`: normalised, then looked up (memoised: labels recur)."""
        label = self._resolved.get(raw)
        if label is None:
            if len(self._resolved) >= _MEMO_LIMIT:
                self._resolved.clear()
            normalised = normalize_label(raw)
            label = self._resolved[raw] = self._table.get(normalised, normalised)
        return label

    def canonical(self, label: str) -> str:
        """Like `resolve` for a label that is already normalised (skips the normalising)."""
        return self._table.get(label, label)

    def items(self) -> Iterator[tuple[str, str]]:
        return iter(sorted(self._table.items()))

    def to_json(self) -> dict[str, str]:
        return dict(self.items())

    def __contains__(self, raw: object) -> bool:
        return isinstance(raw, str) and normalize_label(raw) in self._table

    def __len__(self) -> int:
        return len(self._table)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AliasTable) and self._table == other._table

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AliasTable({len(self._table)} aliases)"


def _entry(alias: object, canonical: object) -> dict[str, str]:
    if not isinstance(alias, str) or not isinstance(canonical, str):
        raise ZeroError(f"alias {alias!r}: both the alias and its label must be strings")
    key, value = normalize_label(alias), normalize_label(canonical)
    if not key or not value:
        raise ZeroError(f"alias {alias!r} -> {canonical!r}: a label must not be empty")
    return {} if key == value else {key: value}


def _refuse_chains(table: Mapping[str, str]) -> None:
    for alias, canonical in table.items():
        further = table.get(canonical)
        if further is not None:
            raise ZeroError(
                f"alias `{alias}` -> `{canonical}`, but `{canonical}` is itself an alias of `{further}`:"
                f" map `{alias}` to `{further}` directly"
            )


_DEFAULT = AliasTable(DEFAULT_ALIASES)
