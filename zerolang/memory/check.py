"""`MemoryStore.check`: like `git fsck`, trust nothing that is stored.

Every hash is recomputed from the stored content (a label, a fact's labels
and predicate, a context's three fields, an episode's two digests), every
reference is resolved, and what the merge rules promise is verified: labels
and predicates normalised, each fact's observation count and folded
confidence in agreement with its episodes, nothing left unreferenced.
One pass per table; the only state kept is one entry per row. Episodes that
maintenance pruned still count towards their fact (the fact keeps what they
taught) and keep their context referenced.

The rows come from the backend's raw scans (`MemoryBackend.raw_*`), which
trust nothing either: keys arrive as stored, hash or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from zerolang.memory.hashing import concept_hash, context_hash_of, fact_hash
from zerolang.memory.normalize import normalize_label, normalize_predicate
from zerolang.memory.types import EpisodeHash

if TYPE_CHECKING:
    from zerolang.memory.backend import MemoryBackend


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


def find_problems(backend: MemoryBackend) -> list[Problem]:
    """Every problem in the backend's space, table by table."""
    return _Checker(backend).run()


class _Checker:
    def __init__(self, backend: MemoryBackend) -> None:
        self.db = backend
        self.problems: list[Problem] = []

    def report(self, kind: str, key: object, message: str) -> None:
        self.problems.append(Problem(kind, _hex(key), message))

    def run(self) -> list[Problem]:
        self.database()
        labels = self.concepts()
        facts, mentioned = self.facts(labels)
        contexts = self.contexts()
        observed = self.episodes(facts, contexts)
        for key in labels.keys() - mentioned:
            self.report("concept", key, "no fact refers to it")
        for key in contexts - observed:
            self.report("context", key, "no episode refers to it")
        return self.problems

    def database(self) -> None:
        for message in self.db.integrity_problems():
            self.report("database", "", message)

    def digest_ok(self, kind: str, key: object) -> bool:
        if isinstance(key, bytes) and len(key) == 32:
            return True
        self.report(kind, key, "its key is not a 32-byte hash")
        return False

    def concepts(self) -> dict[bytes, str | None]:
        """Each concept's label, or None when its hash does not verify (its facts are then not rechecked)."""
        labels: dict[bytes, str | None] = {}
        for key, label in self.db.raw_concepts():
            labels[key] = label
            if not self.digest_ok("concept", key):
                continue
            expected = concept_hash(label)
            if expected.digest != key:
                labels[key] = None
                self.report("concept", key, f"hash does not match its label {label!r} ({expected.short()})")
            elif normalize_label(label) != label:
                self.report("concept", key, f"label {label!r} is not normalised")
        for key, alias in self.db.raw_aliases():
            if key not in labels:
                self.report("alias", key, f"alias {alias!r} names a missing concept")
        return labels

    def facts(self, labels: dict[bytes, str | None]) -> tuple[dict[bytes, tuple[float, int]], set[bytes]]:
        """(confidence, observations) per fact, and the concepts the facts mention."""
        facts: dict[bytes, tuple[float, int]] = {}
        mentioned: set[bytes] = set()
        for key, subject, predicate, obj, confidence, observations in self.db.raw_facts():
            facts[key] = (confidence, observations)
            mentioned.update((subject, obj))
            if not self.digest_ok("fact", key):
                continue
            for side, ref in (("subject", subject), ("object", obj)):
                if ref not in labels:
                    self.report("fact", key, f"its {side} concept {_hex(ref)} is missing")
            subject_label, object_label = labels.get(subject), labels.get(obj)
            if subject_label is None or object_label is None:
                continue  # missing, or a concept already reported: one broken row is one problem
            expected = fact_hash(subject_label, predicate, object_label)
            if expected.digest != key:
                text = f"{subject_label}|{predicate}|{object_label}"
                self.report("fact", key, f"hash does not match {text!r} ({expected.short()})")
            elif normalize_predicate(predicate) != predicate:
                self.report("fact", key, f"predicate {predicate!r} is not normalised")
        return facts, mentioned

    def contexts(self) -> set[bytes]:
        contexts: set[bytes] = set()
        for key, event_time, source, scope in self.db.raw_contexts():
            contexts.add(key)
            if not self.digest_ok("context", key):
                continue
            expected = context_hash_of(event_time, source, scope)
            if expected.digest != key:
                text = f"{event_time}|{source}|{scope}"
                self.report("context", key, f"hash does not match {text!r} ({expected.short()})")
        return contexts

    def episodes(self, facts: dict[bytes, tuple[float, int]], contexts: set[bytes]) -> set[bytes]:
        """Check each episode and each fact's aggregates; returns the contexts the episodes refer to."""
        folded: dict[bytes, tuple[int, float]] = {}
        observed: set[bytes] = set()
        for key, fact, context, confidence in self.db.raw_pruned():
            observed.add(context)
            count, keep = folded.get(fact, (0, 1.0))
            folded[fact] = (count + 1, keep * (1.0 - confidence))
            if fact not in facts:
                self.report("pruned episode", key, f"its fact {_hex(fact)} is missing")
        for key, fact, context, confidence in self.db.raw_episodes():
            observed.add(context)
            count, keep = folded.get(fact, (0, 1.0))
            folded[fact] = (count + 1, keep * (1.0 - confidence))
            if not self.digest_ok("episode", key):
                continue
            if fact not in facts:
                self.report("episode", key, f"its fact {_hex(fact)} is missing")
            if context not in contexts:
                self.report("episode", key, f"its context {_hex(context)} is missing")
            if isinstance(fact, bytes) and isinstance(context, bytes):
                expected = EpisodeHash.of(fact + context)
                if expected.digest != key:
                    self.report(
                        "episode", key, f"hash does not match its fact and context ({expected.short()})"
                    )
        for key, (confidence, observations) in facts.items():
            count, keep = folded.get(key, (0, 1.0))
            if count != observations:
                self.report("fact", key, f"records {observations} observations but has {count} episodes")
            elif abs(confidence - (1.0 - keep)) > 1e-9:
                message = (
                    f"confidence {confidence!r} does not fold its episodes' confidences ({1.0 - keep!r})"
                )
                self.report("fact", key, message)
        return observed


def _hex(key: object) -> str:
    if isinstance(key, bytes):
        return key.hex()
    return "" if key == "" else repr(key)
