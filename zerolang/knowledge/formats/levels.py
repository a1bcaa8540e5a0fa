"""Detail levels: how much of a memory to spend tokens on.

- L0, the skeleton: the concepts' short hashes, so an agent knows what exists and can ask for it
  (its header says L0 and the counts: a reader knows there is more),
  sorted and grouped by their leading hex digit(s) (`a:3f 41c` is a3f and a41c);
- L1, the structure: labels and facts (`subject predicateOBJECT`), without confidences,
  aliases, times or contexts, and a comment naming what was left out (and one naming the
  predicates declared single-valued, if any);
- L2, everything: exactly `.0c` (`compact.serialize`), lossless.

L0 and L1 are for reading, not for import: they drop information on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import StrEnum
from itertools import groupby, pairwise

from zerolang.knowledge.formats.compact import HEADER, label, parse_header, predicate, serialize
from zerolang.knowledge.formats.model import Snapshot
from zerolang.knowledge.formats.seal import seal
from zerolang.knowledge.temporal import single_valued_of
from zerolang.knowledge.types import ConceptHash, FactHash, MemoryRecord

L0_MIN_DIGITS = 2  # measured: 2 hex digits, lengthened on collision, cost fewest tokens


class Level(StrEnum):
    L0 = "L0"
    L1 = "L1"
    L2 = "L2"


def render(document: Snapshot | MemoryRecord, level: Level) -> str:
    """The document at `level` (L2 is the lossless `.0c`)."""
    snapshot = document if isinstance(document, Snapshot) else Snapshot.of_record(document)
    if level is Level.L2:
        return seal(serialize(snapshot))  # an importable document carries its end line
    lines = list(_l0(snapshot) if level is Level.L0 else _l1(snapshot))
    return "\n".join(lines) + "\n"


def short_ids(hashes: list[ConceptHash], minimum: int = L0_MIN_DIGITS) -> list[str]:
    """The shortest prefix (at least `minimum` hex digits) that tells each hash from the others."""
    texts = [h.hex() for h in hashes]
    ordered = sorted(set(texts))
    need: dict[str, int] = {}
    for before, after in pairwise(ordered):
        common = next((i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b), 64)
        need[before] = max(need.get(before, minimum), common + 1)
        need[after] = max(need.get(after, minimum), common + 1)
    return [text[: need.get(text, minimum)] for text in texts]


def _l0(snapshot: Snapshot) -> Iterator[str]:
    yield f"{HEADER} L0 concepts={len(snapshot.concepts)} relations={len(snapshot.relations)}"
    ids = sorted(short_ids([c.hash for c in snapshot.concepts]))
    width = 1 if len(ids) < 4096 else 2  # one line per 16 or 256 prefixes: measured cheapest
    for prefix, group in groupby(ids, key=lambda text: text[:width]):
        yield prefix + ":" + " ".join(text[width:] for text in group)


def _l1(snapshot: Snapshot) -> Iterator[str]:
    facts: dict[FactHash, tuple[int, str, int]] = {}
    numbers = {c.hash: index for index, c in enumerate(snapshot.concepts, start=1)}
    for relation in snapshot.relations:
        subject, obj = numbers[relation.subject_hash], numbers[relation.object_hash]
        facts.setdefault(relation.fact_hash, (subject, relation.predicate, obj))
    yield f"{HEADER} L1 concepts={len(snapshot.concepts)} facts={len(facts)}"
    repeated = len(snapshot.relations) - len(facts)
    yield (
        f"# L1: left out: confidences, aliases, times, {_count(len(snapshot.contexts), 'context')} and"
        f" {_count(repeated, 'repeated observation')}; ask for L2"
    )
    single = sorted(single_valued_of(snapshot.declarations))
    if single:
        yield "# single-valued: " + ", ".join(map(predicate, single))
    for concept in snapshot.concepts:
        yield label(concept.label)
    ordered = sorted(facts.values(), key=lambda fact: fact[0])
    for subject, group in groupby(ordered, key=lambda fact: fact[0]):
        yield f"{subject} " + "; ".join(f"{predicate(verb)}{obj}" for _, verb, obj in group)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def level_of(text: str) -> Level:
    """The level a document declares in its header (`0M:1.0 L1 ...`); L2 when it declares none."""
    words = parse_header(text).split()
    return Level(words[0]) if words and words[0] in Level.__members__ else Level.L2


def read_l0(text: str) -> list[str]:
    """The short concept ids of an L0 text."""
    body = [line for line in text.split("\n")[1:] if line and not line.startswith("#")]
    ids: list[str] = []
    for line in body:
        prefix, _, rest = line.partition(":")
        ids.extend(prefix + word for word in rest.split())
    return ids


def read_l1(text: str) -> list[tuple[str, str, str]]:
    """The facts of an L1 text as (subject label, predicate, object label), in its order."""
    from zerolang.knowledge.formats.compact import parse

    body = re.sub(r"\A[^\n]*\n", f"{HEADER}\nX:- - -\n@-\n", text, count=1)
    lines = body.split("\n")
    concepts = [
        line for line in lines[3:] if line and not line.startswith("#") and not re.match(r"\d+ ", line)
    ]
    relations = [line for line in lines[3:] if re.match(r"\d+ ", line)]
    document = "\n".join([HEADER, *concepts, "X:2000-01-01 - -", "@-", *relations]) + "\n"
    snapshot = parse(document)
    labels = {c.hash: c.label for c in snapshot.concepts}
    return [(labels[r.subject_hash], r.predicate, labels[r.object_hash]) for r in snapshot.relations]
