"""`MemoryStore.check`: like `git fsck`, trust nothing that is stored.

Every hash is recomputed from the stored content (a label, a fact's labels
and predicate, a context's three fields, an episode's two digests), every
reference is resolved, and what the merge rules promise is verified: labels
and predicates normalised, each fact's observation count and folded
confidence in agreement with its episodes, nothing left unreferenced.
One pass per table; the only state kept is one entry per row.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from zerolang.memory.hashing import concept_hash, context_hash_of, fact_hash
from zerolang.memory.normalize import normalize_label, normalize_predicate
from zerolang.memory.types import EpisodeHash


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


def find_problems(db: sqlite3.Connection) -> list[Problem]:
    """Every problem in the database behind `db`, table by table."""
    return _Checker(db).run()


class _Checker:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
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
        for (message,) in self.db.execute("PRAGMA quick_check"):
            if message != "ok":
                self.report("database", "", message)
        for table, rowid, parent, _ in self.db.execute("PRAGMA foreign_key_check"):
            self.report("database", "", f"{table} row {rowid} refers to a missing {parent} row")

    def digest_ok(self, kind: str, key: object) -> bool:
        if isinstance(key, bytes) and len(key) == 32:
            return True
        self.report(kind, key, "its key is not a 32-byte hash")
        return False

    def concepts(self) -> dict[bytes, str | None]:
        """Each concept's label, or None when its hash does not verify (its facts are then not rechecked)."""
        labels: dict[bytes, str | None] = {}
        for key, label in self.db.execute("SELECT hash, label FROM concepts"):
            labels[key] = label
            if not self.digest_ok("concept", key):
                continue
            expected = concept_hash(label)
            if expected.digest != key:
                labels[key] = None
                self.report("concept", key, f"hash does not match its label {label!r} ({expected.short()})")
            elif normalize_label(label) != label:
                self.report("concept", key, f"label {label!r} is not normalised")
        for key, alias in self.db.execute("SELECT concept_hash, alias FROM concept_aliases"):
            if key not in labels:
                self.report("alias", key, f"alias {alias!r} names a missing concept")
        return labels

    def facts(self, labels: dict[bytes, str | None]) -> tuple[dict[bytes, tuple[float, int]], set[bytes]]:
        """(confidence, observations) per fact, and the concepts the facts mention."""
        facts: dict[bytes, tuple[float, int]] = {}
        mentioned: set[bytes] = set()
        query = "SELECT hash, subject_hash, predicate, object_hash, confidence, observations FROM facts"
        for key, subject, predicate, obj, confidence, observations in self.db.execute(query):
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
        for key, event_time, source, scope in self.db.execute(
            "SELECT hash, event_time, source, scope FROM contexts"
        ):
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
        query = "SELECT hash, fact_hash, context_hash, confidence FROM episodes"
        for key, fact, context, confidence in self.db.execute(query):
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
