"""`MemoryStore.check`: like `git fsck`, trust nothing that is stored.

Three layers, each row read once, as stored:

1. **Hashes**: every key is recomputed from the stored content (a label, a
   fact's labels and predicate, a context's three fields, an episode's two
   digests) and every reference resolved.
2. **Derivations**: what the merge rules make of the episodes is recomputed
   (`zerolang.knowledge.merge`): a fact's observations, folded confidence and
   latest time (its `updated_at`), its first time within its episodes'; a
   concept's confidence no lower, and its `updated_at` no earlier, than any
   episode about it; `created_at <= updated_at`; an alias's key is its
   normalised spelling; a context's metadata is a JSON object.
3. **Seals** (`zerolang.knowledge.integrity`): what is not derivable (aliases,
   a context's agent, session and metadata, exact times, and the history,
   space log, semantic memory and tombstones) is covered by a digest of every
   row, kept by the backend on write and compared here: a hand edit, a
   deleted or added row, a value of another type all show, and so does a
   deleted marker row (which generations of the seals the store holds).
   Their references are resolved too: a fact's times, events and semantic
   record name a stored fact, a semantic source a stored (or pruned) episode
   and a semantic fact, a forgotten key its tombstone (`_REFERENCES`).

A malformed row (a text or BLOB where a number or label belongs, bytes that
are not UTF-8) is reported, never a crash. Episodes that maintenance pruned
still count towards their fact and keep their context referenced.

The rows come from the backend's raw scans (`Integrity.raw_sealed_rows`,
`raw_seals`), which trust nothing either: values arrive as stored, in whatever order the engine
finds them. The problems of each step are listed by hash (a row's own in the order they are
found): the same list on every engine and in every process, whatever the rows' order
(docs/memory.md, "Row order").
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zerolang.knowledge import integrity
from zerolang.knowledge.hashing import concept_hash, context_hash_of, fact_hash
from zerolang.knowledge.integrity import SEALED, Seal
from zerolang.knowledge.normalize import normalize_label, normalize_predicate
from zerolang.knowledge.types import EpisodeHash

if TYPE_CHECKING:
    from zerolang.knowledge.backend import Integrity

_EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Problem:
    """Something `check` found wrong: what kind of row, its hash (hex), and what is wrong."""

    kind: str
    hash: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind} {self.hash}: {self.message}" if self.hash else f"{self.kind}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "hash": self.hash, "message": self.message}


def find_problems(backend: Integrity) -> list[Problem]:
    """Every problem in the backend's space, table by table."""
    return _Checker(backend).run()


@dataclass(slots=True)
class _FactState:
    """A fact as stored, and what its episodes say (folded as they stream by)."""

    subject: bytes
    object: bytes
    confidence: float | None
    observations: int | None
    created: str | None
    updated: str | None
    count: int = 0
    keep: float = 1.0
    folded: bool = True  # False once an episode's confidence could not be read
    first: str | None = None
    last: str | None = None
    strongest: float = 0.0


@dataclass(slots=True)
class _ConceptState:
    confidence: float | None
    updated: str | None
    strongest: float = 0.0
    last: str | None = None


class _Checker:
    def __init__(self, backend: Integrity) -> None:
        self.db = backend
        self.problems: list[Problem] = []
        self.seals: dict[str, Seal] = {}
        self.labels: dict[bytes, str | None] = {}
        self.concepts: dict[bytes, _ConceptState] = {}
        self.facts: dict[bytes, _FactState | None] = {}
        self.contexts: dict[bytes, str | None] = {}
        self.mentioned: set[bytes] = set()
        self.observed: set[bytes] = set()
        self.keys: dict[str, set[object]] = {"episodes": set(), "semantic_facts": set(), "tombstones": set()}

    def report(self, kind: str, key: object, message: str) -> None:
        self.problems.append(Problem(kind, _hex(key), message))

    def run(self) -> list[Problem]:
        self.database()
        self.scan("concepts", "concept", self.concept)
        self.scan("concept_aliases", "alias", self.alias)
        self.scan("facts", "fact", self.fact)
        self.scan("contexts", "context", self.context)
        self.scan("pruned_episodes", "pruned episode", self.pruned)
        self.scan("episodes", "episode", self.episode)
        for table, (kind, fields) in _TYPED_ONLY.items():
            self.scan(table, kind, self.typed_row(kind, fields))
        self.aggregates()
        for key in sorted(self.labels.keys() - self.mentioned, key=_hex):
            self.report("concept", key, "no fact refers to it")
        for key in sorted(self.contexts.keys() - self.observed, key=_hex):
            self.report("context", key, "no episode refers to it")
        self.compare_seals()
        return self.problems

    def database(self) -> None:
        for message in self.db.integrity_problems():
            self.report("database", "", message)

    def scan(self, table: str, kind: str, check: Callable[[tuple[Any, ...]], None]) -> None:
        """Seal and check every row of `table`; a row that breaks the checker is reported, not raised."""
        count = total = 0
        width = len(SEALED[table])
        start = len(self.problems)
        for raw in self.db.raw_sealed_rows(table):
            row = tuple(_plain(value) for value in raw)
            if len(row) != width:
                self.report(kind, "", f"a row has {len(row)} columns where {width} belong")
                continue
            count += 1
            total += integrity.row_digest(table, row)
            try:
                check(row)
            except Exception as error:  # whatever a tampered row holds is reported
                self.report(kind, row[0], f"cannot check this row ({type(error).__name__}: {error})")
        self.seals[table] = Seal(count, total % integrity.MODULUS)
        # by hash, not in the order the rows came (a row's own problems keep theirs: a stable sort)
        self.problems[start:] = sorted(self.problems[start:], key=lambda p: p.hash)

    def digest_ok(self, kind: str, key: object) -> bool:
        if isinstance(key, bytes) and len(key) == 32:
            return True
        self.report(kind, key, "its key is not a 32-byte hash")
        return False

    def typed(self, kind: str, key: object, fields: Iterable[tuple[str, object, str]]) -> bool:
        """Report every field that is not of its kind (`text`, `text?`, `unit`, `count`, `hash`)."""
        ok = True
        for name, value, what in fields:
            if not _TYPES[what](value):
                ok = False
                self.report(kind, key, f"{name} is {_describe(value)}, not {_WANTED[what]}")
        return ok

    def times(self, kind: str, key: object, created: object, updated: object) -> None:
        if isinstance(created, str) and isinstance(updated, str) and updated < created:
            self.report(kind, key, f"updated_at {updated!r} is before created_at {created!r}")

    def typed_row(self, kind: str, fields: tuple[str, ...]) -> Callable[[tuple[Any, ...]], None]:
        """A check of a row whose content only the seal covers: each value of its kind."""
        names = [name for name, _ in SEALED[_TABLE_OF[kind]]]

        table = _TABLE_OF[kind]
        references = _REFERENCES.get(table, ())
        kept = self.keys.get(table)

        def check(row: tuple[Any, ...]) -> None:
            key = row[0] if fields[0] == "hash" else ""
            self.typed(kind, key, zip(names, row, fields, strict=True))
            if kept is not None:
                kept.add(row[0])
            for index, target, what in references:
                value = row[index]
                known = self.facts if target == "facts" else self.keys[target]
                if isinstance(value, bytes) and value not in known:
                    self.report(kind, row[0], f"its {what} {_hex(value)} is missing")

        return check

    # ---- rows ----

    def concept(self, row: tuple[Any, ...]) -> None:
        key, label, confidence, created, updated = row
        self.labels[key] = None
        if not self.digest_ok("concept", key):
            return
        fields = [
            ("label", label, "text"),
            ("confidence", confidence, "unit"),
            ("created_at", created, "text"),
            ("updated_at", updated, "text"),
        ]
        self.typed("concept", key, fields)
        self.times("concept", key, created, updated)
        self.concepts[key] = _ConceptState(
            confidence if _is_unit(confidence) else None, updated if _is_text(updated) else None
        )
        if not _is_text(label):
            return
        expected = concept_hash(label)
        if expected.digest != key:
            self.report("concept", key, f"hash does not match its label {label!r} ({expected.short()})")
            return
        self.labels[key] = label
        if normalize_label(label) != label:
            self.report("concept", key, f"label {label!r} is not normalised")

    def alias(self, row: tuple[Any, ...]) -> None:
        key, alias, alias_key = row
        if key not in self.labels:
            self.report("alias", key, f"alias {alias!r} names a missing concept")
        if not self.typed("alias", key, [("alias", alias, "text"), ("alias_key", alias_key, "text")]):
            return
        if normalize_label(alias) != alias_key:
            self.report("alias", key, f"alias {alias!r} is filed under {alias_key!r}, not its normal form")

    def fact(self, row: tuple[Any, ...]) -> None:
        key, subject, predicate, obj, confidence, observations, created, updated = row
        self.facts[key] = None
        self.mentioned.update(ref for ref in (subject, obj) if isinstance(ref, bytes))
        if not self.digest_ok("fact", key):
            return
        fields = [
            ("subject_hash", subject, "hash"),
            ("object_hash", obj, "hash"),
            ("predicate", predicate, "text"),
            ("confidence", confidence, "unit"),
            ("observations", observations, "count"),
            ("created_at", created, "text"),
            ("updated_at", updated, "text"),
        ]
        self.typed("fact", key, fields)
        self.times("fact", key, created, updated)
        if not (_is_hash(subject) and _is_hash(obj)):
            return
        self.facts[key] = _FactState(
            subject,
            obj,
            confidence if _is_unit(confidence) else None,
            observations if _is_count(observations) else None,
            created if _is_text(created) else None,
            updated if _is_text(updated) else None,
        )
        for side, ref in (("subject", subject), ("object", obj)):
            if ref not in self.labels:
                self.report("fact", key, f"its {side} concept {_hex(ref)} is missing")
        subject_label, object_label = self.labels.get(subject), self.labels.get(obj)
        if subject_label is None or object_label is None or not _is_text(predicate):
            return  # missing, or a concept already reported: one broken row is one problem
        expected = fact_hash(subject_label, predicate, object_label)
        if expected.digest != key:
            text = f"{subject_label}|{predicate}|{object_label}"
            self.report("fact", key, f"hash does not match {text!r} ({expected.short()})")
        elif normalize_predicate(predicate) != predicate:
            self.report("fact", key, f"predicate {predicate!r} is not normalised")

    def context(self, row: tuple[Any, ...]) -> None:
        key, event_time, source, scope, agent_id, session_id, metadata, created = row
        self.contexts[key] = None
        if not self.digest_ok("context", key):
            return
        fields = [
            ("event_time", event_time, "text"),
            ("source", source, "text"),
            ("scope", scope, "text"),
            ("agent_id", agent_id, "text?"),
            ("session_id", session_id, "text?"),
            ("metadata", metadata, "text"),
            ("created_at", created, "text"),
        ]
        self.typed("context", key, fields)
        self.contexts[key] = created if _is_text(created) else None
        if _is_text(metadata) and not _is_json_object(metadata):
            self.report("context", key, f"metadata {_clip(metadata)!r} is not a JSON object of strings")
        if all(_is_text(value) for value in (event_time, source, scope)):
            expected = context_hash_of(event_time, source, scope)
            if expected.digest != key:
                text = f"{event_time}|{source}|{scope}"
                self.report("context", key, f"hash does not match {text!r} ({expected.short()})")

    def pruned(self, row: tuple[Any, ...]) -> None:
        key, fact, context, confidence, created, pruned_at, reason = row
        fields = [
            ("confidence", confidence, "unit"),
            ("created_at", created, "text"),
            ("pruned_at", pruned_at, "text"),
            ("reason", reason, "text"),
        ]
        self.typed("pruned episode", key, fields)
        self.times("pruned episode", key, created, pruned_at)
        self.observe(key, fact, context, confidence, created)
        self.keys["episodes"].add(key)
        if fact not in self.facts:
            self.report("pruned episode", key, f"its fact {_hex(fact)} is missing")

    def episode(self, row: tuple[Any, ...]) -> None:
        key, fact, context, confidence, created = row
        self.observe(key, fact, context, confidence, created)
        self.keys["episodes"].add(key)
        if not self.digest_ok("episode", key):
            return
        self.typed("episode", key, [("confidence", confidence, "unit"), ("created_at", created, "text")])
        if fact not in self.facts:
            self.report("episode", key, f"its fact {_hex(fact)} is missing")
        if context not in self.contexts:
            self.report("episode", key, f"its context {_hex(context)} is missing")
        if isinstance(fact, bytes) and isinstance(context, bytes):
            expected = EpisodeHash.of(fact + context)
            if expected.digest != key:
                self.report("episode", key, f"hash does not match its fact and context ({expected.short()})")

    def observe(
        self, key: object, fact: object, context: object, confidence: object, created: object
    ) -> None:
        """Fold an episode (kept or pruned) into its fact and context."""
        if isinstance(context, bytes):
            self.observed.add(context)
        state = self.facts.get(fact) if isinstance(fact, bytes) else None
        if state is None:
            return
        state.count += 1
        if isinstance(confidence, int | float) and _is_unit(confidence):
            state.keep *= 1.0 - confidence
            state.strongest = max(state.strongest, confidence)
        else:
            state.folded = False
        if isinstance(created, str):
            state.first = created if state.first is None else min(state.first, created)
            state.last = created if state.last is None else max(state.last, created)

    # ---- what the merge rules derive ----

    def aggregates(self) -> None:
        for key, state in sorted(self.facts.items(), key=lambda item: _hex(item[0])):
            if state is None:
                continue
            self.fact_aggregates(key, state)
            for ref in (state.subject, state.object):
                concept = self.concepts.get(ref)
                if concept is None:
                    continue
                concept.strongest = max(concept.strongest, state.strongest)
                if state.last is not None:
                    concept.last = state.last if concept.last is None else max(concept.last, state.last)
        for key, concept in sorted(self.concepts.items(), key=lambda item: _hex(item[0])):
            if concept.confidence is not None and concept.confidence + _EPSILON < concept.strongest:
                self.report(
                    "concept",
                    key,
                    f"confidence {concept.confidence!r} is below its strongest episode's"
                    f" ({concept.strongest!r})",
                )
            if concept.updated is not None and concept.last is not None and concept.updated < concept.last:
                self.report(
                    "concept",
                    key,
                    f"updated_at {concept.updated!r} is before its latest episode ({concept.last!r})",
                )
        # A context's created_at is when the store first learned it: not derivable from the episodes
        # it keeps (forgetting its first ones leaves it earlier than the rest; a writer's clock, or a
        # copy's order, may store it later than an episode another wrote first). The seal covers it.

    def fact_aggregates(self, key: bytes, state: _FactState) -> None:
        if state.observations is not None and state.count != state.observations:
            self.report(
                "fact", key, f"records {state.observations} observations but has {state.count} episodes"
            )
        elif state.confidence is not None and state.folded and state.count:
            folded = 1.0 - state.keep
            if abs(state.confidence - folded) > _EPSILON:
                message = (
                    f"confidence {state.confidence!r} does not fold its episodes' confidences ({folded!r})"
                )
                self.report("fact", key, message)
        # A restatement (a stored episode given another confidence) moves updated_at past the
        # latest episode's time; the row's seal covers the exact value.
        if state.last is not None and state.updated is not None and state.updated < state.last:
            self.report(
                "fact", key, f"updated_at {state.updated!r} is before its latest episode ({state.last!r})"
            )
        if (
            state.first is not None
            and state.last is not None
            and state.created is not None
            and not state.first <= state.created <= state.last
        ):
            self.report(
                "fact",
                key,
                f"created_at {state.created!r} is outside its episodes' times"
                f" {state.first!r}..{state.last!r}",
            )

    # ---- the seals kept on write ----

    def compare_seals(self) -> None:
        markers = self.db.raw_seal_markers()
        for number, (marker, tables) in enumerate(integrity.GENERATIONS, 1):
            if marker not in markers and integrity.pending(number) not in markers:
                self.report(
                    "seal",
                    "",
                    f"the marker row {marker!r} saying {', '.join(tables)} are sealed is missing"
                    " (table_seals was edited outside zerolang)",
                )
        stored: dict[str, Seal] = {}
        for table, rows, digest in sorted(self.db.raw_seals(), key=lambda seal: str(seal[0])):
            seal = Seal.parse(rows, digest)
            if table not in SEALED:
                self.report("seal", "", f"unknown table {table!r} in the seals")
            elif seal is None:
                self.report("seal", "", f"the seal of {table} is not a seal ({rows!r}, {digest!r})")
                stored[table] = Seal(-1, -1)
            else:
                stored[table] = seal
        explained = {_TABLE_OF.get(problem.kind) for problem in self.problems}
        for table, found in self.seals.items():
            kept = stored.get(table, Seal())
            if kept == found or kept.rows < 0 or table in explained:
                continue  # sealed as found, or a row of it already reported: one broken row, one problem
            if kept.rows != found.rows:
                what = f"{found.rows} rows where {kept.rows} were written"
            else:
                what = f"{found.rows} rows, but their contents differ from what was written"
            self.report("seal", "", f"{table}: {what} (a row was edited, added or deleted outside zerolang)")


_TABLE_OF = {
    "concept": "concepts",
    "alias": "concept_aliases",
    "fact": "facts",
    "context": "contexts",
    "episode": "episodes",
    "pruned episode": "pruned_episodes",
    "fact period": "fact_periods",
    "declaration": "declarations",
    "fact event": "fact_events",
    "log entry": "space_log",
    "semantic fact": "semantic_facts",
    "semantic source": "semantic_sources",
    "tombstone": "tombstones",
    "forgotten key": "forgotten_keys",
    "memory_index entry": "memory_index",
    "episode_access count": "episode_access",
}

# The tables whose rows are only type-checked (the seal covers their content), with each
# sealed column's kind (as `_Checker.typed` takes them).
_TYPED_ONLY: dict[str, tuple[str, tuple[str, ...]]] = {
    "fact_periods": (
        "fact period",
        ("hash", "text", "text?", "text?", "text", "text", "text?", "text?"),
    ),
    "declarations": ("declaration", ("text", "text", "text", "flag")),
    "fact_events": ("fact event", ("hash", "text", "text", "text?", "text?", "unit?", "text")),
    "space_log": ("log entry", ("text", "text", "hash", "text")),
    "semantic_facts": ("semantic fact", ("hash", "unit", "count", "text", "text")),
    "semantic_sources": ("semantic source", ("hash", "hash")),
    "tombstones": ("tombstone", ("hash", "text", "text?", "text", "text?", "text?", "text?")),
    "forgotten_keys": ("forgotten key", ("hash", "hash", "text")),
    "memory_index": (
        "memory_index entry",
        (
            "text",
            "text",
            "text",
            "integer",
            "integer",
            "text?",
            "unit",
            "integer",
            "text?",
            "text",
            "text",
            "text?",
            "text",
            "text",
        ),
    ),
    "episode_access": ("episode_access count", ("hash", "count", "text")),
}

# What the rows of the tables only the seal covers refer to: (column, table of its target, name).
# The targets are scanned first (facts and episodes before these tables, then in `_TYPED_ONLY`'s order).
_REFERENCES: dict[str, tuple[tuple[int, str, str], ...]] = {
    "fact_periods": ((0, "facts", "fact"),),
    "fact_events": ((0, "facts", "fact"),),
    "semantic_facts": ((0, "facts", "fact"),),
    "semantic_sources": ((0, "episodes", "episode"), (1, "semantic_facts", "semantic fact")),
    "forgotten_keys": ((1, "tombstones", "tombstone"),),
}


def _is_text(value: object) -> bool:
    return isinstance(value, str)


def _is_hash(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == 32


def _is_unit(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and not math.isnan(value)
        and 0.0 <= value <= 1.0
    )


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _is_json_object(text: str) -> bool:
    """Whether `text` is what contexts store as metadata: a JSON object of strings."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and all(isinstance(item, str) for item in value.values())


_TYPES: dict[str, Callable[[object], bool]] = {
    "text": _is_text,
    "text?": lambda value: value is None or isinstance(value, str),
    "unit": _is_unit,
    "unit?": lambda value: value is None or _is_unit(value),
    "count": _is_count,
    "flag": lambda value: type(value) is int and value in (0, 1),
    "integer": lambda value: type(value) is int,
    "hash": _is_hash,
}
_WANTED = {
    "text": "text",
    "text?": "text or null",
    "unit": "a number in [0, 1]",
    "unit?": "a number in [0, 1] or null",
    "count": "a positive integer",
    "flag": "0 or 1",
    "integer": "an integer",
    "hash": "a 32-byte hash",
}


def _plain(value: object) -> object:
    return bytes(value) if isinstance(value, bytearray | memoryview) else value


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bytes):
        return f"a {len(value)}-byte BLOB"
    if isinstance(value, str):
        return f"the text {_clip(value)!r}"
    return f"{type(value).__name__} {value!r}"


def _clip(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _hex(key: object) -> str:
    if isinstance(key, bytes):
        return key.hex()
    return "" if key == "" else repr(key)
