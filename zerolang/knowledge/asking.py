"""A question in plain words, answered from the fact graph: lines a model reads.

The question's words enter through the store's word index (`backend.Words`: concept labels,
so fact values and observations too, by partial names, prefixes and word forms; with or without
diacritics, `util.folding`); the facts
around the concepts found are scored by the words they share with the question (a predicate's
words too: "work" finds `works_at`, "mentors" `mentor_of`), then the graph is followed one hop
to the concepts those facts name ("which city is Carol's employer in?": carol works at acme
corp, acme corp is located in lisbon). Each subject and predicate is one line: what holds at
the moment asked (now, or the time the question names, `at`) first, then what held before it
and what came after, each with its period, from the bi-temporal history (`temporal.beliefs`):

    carol diaz works at acme corp (since 2024-02-01; before: globex 2022-2024, initech 2020-2022)

Lines holding something at that moment rank before lines that only tell the past. Ranking is
`Scorer`'s: word overlap here, and the door for another (an embedding model's similarity)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zerolang.knowledge.backend import Words
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.temporal import beliefs
from zerolang.knowledge.types import Fact
from zerolang.util.folding import accented, fold
from zerolang.util.stopwords import ENGLISH

SEEDS = 40
"""How many concepts the word index offers a question."""
HOP = 0.5
"""A fact one hop away scores this share of the concept it was reached from."""
MOST_FACTS = 400
"""The facts a question reads at most (around its seeds, then one hop further)."""
RESPELLED = 3
"""How many words of a question the index is asked again by their accented spellings, at most (a
long prompt's words would cost a lookup of some forty spellings each)."""
INWARD = 0.8
"""A fact found from its object scores this share of one found from its subject: a concept's own
facts ("Kenji's boss": kenji reports to olga) before the facts of others naming it (a colleague
reports to kenji), unless the question names the predicate ("who reports to Kenji?"); and one hop
away, on from what a concept's facts name (carol works at acme corp, acme corp is located in
lisbon) before the facts of third concepts naming those."""

_WORD = re.compile(r"[^\W_]+")  # letters and digits of any script, on folded text
_STOP = ENGLISH | frozenset(
    {
        "about",
        "above",
        "after",
        "again",
        "all",
        "am",
        "any",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "doing",
        "done",
        "during",
        "each",
        "else",
        "ever",
        "having",
        "here",
        "hers",
        "know",
        "let",
        "might",
        "more",
        "most",
        "nor",
        "now",
        "off",
        "once",
        "only",
        "other",
        "out",
        "over",
        "own",
        "please",
        "same",
        "shall",
        "should",
        "some",
        "such",
        "tell",
        "those",
        "through",
        "under",
        "until",
        "up",
        "very",
        "while",
        "whom",
        "whose",
        "yours",
    }
)
_OBSERVATION = "has_observation"


def question_words(text: str) -> list[str]:
    """The words of a question that can name something: folded (lower case, no diacritics: "María"
    is "maria"), no stopwords, no possessive."""
    return _words(fold(text))


def index_words(text: str) -> list[str]:
    """The words a question asks the word index for: its folded words and, where they differ, the
    words as typed (in lower case), so an index that keeps a label's diacritics finds it from
    "Søren" and one that folds them finds it from "Soren"."""
    return list(dict.fromkeys([*question_words(text), *_words(text.lower())]))


def _words(lowered: str) -> list[str]:
    flat = re.sub(r"['’]s\b", "", lowered)
    seen: dict[str, None] = {}
    for word in _WORD.findall(flat):
        if word not in _STOP and (len(word) > 1 or word.isdigit()):
            seen.setdefault(word)
    return list(seen)


def stem(word: str) -> str:
    """A light English stem, so a word and its forms meet ("works", "working", "worked", "worker":
    "work"; "lives", "living": "liv"; "marry", "married": "marri")."""
    w = word.lower()
    for suffix, keep in _SUFFIXES:
        if (
            w.endswith(suffix)
            and len(w) - len(suffix) >= 3
            and not w.endswith("ss" if suffix == "s" else "~")
        ):
            w = w[: len(w) - len(suffix)] + keep
            break
    if len(w) > 3 and w.endswith("e"):
        return w[:-1]
    return w[:-1] + "i" if len(w) > 3 and w.endswith("y") else w


# the suffixes `stem` takes off (the first that fits), with what it leaves in their place
_SUFFIXES = (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("er", ""), ("es", "e"), ("s", ""))


def predicate_words(predicate: str) -> str:
    """A predicate as words: `works_at` is "works at"."""
    return " ".join(re.split(r"[_\s]+", predicate.strip())) or predicate


class Scorer(Protocol):
    """How well a text (a label, a predicate's words) answers a question's words: 0 for not at all.
    `WordScorer` counts shared words; a model's similarity can take its place."""

    def __call__(self, words: Sequence[str], text: str) -> tuple[float, tuple[str, ...]]:
        """The score and the question words it matched."""


class WordScorer:
    """One point a question word the text holds as a word or a word form, half where it only
    starts one of the text's words (three letters at least: "car" for "carol")."""

    __slots__ = ()

    def __call__(self, words: Sequence[str], text: str) -> tuple[float, tuple[str, ...]]:
        tokens = _WORD.findall(fold(text))
        stems = {stem(token) for token in tokens}
        score, matched = 0.0, []
        for word in words:
            points = _held(word, tokens, stems)
            if points:
                score += points
                matched.append(word)
        return score, tuple(matched)


def _held(word: str, tokens: Sequence[str], stems: Collection[str]) -> float:
    """1 where a text's words (`tokens`, their `stems`) hold `word` or a form of it, 0.5 where it
    only starts one of them (three letters at least), else 0."""
    if word in tokens or stem(word) in stems:
        return 1.0
    return 0.5 if len(word) >= 3 and any(token.startswith(word) for token in tokens) else 0.0


def _whole(words: Sequence[str], labels: Iterable[str]) -> set[str]:
    """The `words` some label holds whole (or in a form), not only as the start of a longer word."""
    found: set[str] = set()
    for label in labels:
        tokens = _WORD.findall(fold(label))
        stems = {stem(token) for token in tokens}
        found.update(word for word in words if _held(word, tokens, stems) == 1.0)
    return found


@dataclass(frozen=True, slots=True)
class Value:
    """One object of a line, with the periods it held (as believed now)."""

    label: str
    fact_hash: str
    periods: tuple[tuple[str, str | None], ...]  # (valid_from, valid_to), earliest first


@dataclass(slots=True)
class FactLine:
    """A subject and predicate with its values at the moment asked (`held`), before it (`before`)
    and after it (`after`); why it was found; its score."""

    subject: str
    predicate: str
    held: list[Value] = field(default_factory=list)
    before: list[Value] = field(default_factory=list)
    after: list[Value] = field(default_factory=list)
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)

    @property
    def current(self) -> bool:
        """Whether something holds at the moment asked (the line is not only the past)."""
        return bool(self.held)

    @property
    def fact_hashes(self) -> list[str]:
        return [v.fact_hash for v in (*self.held, *self.before, *self.after)]

    def text(self, *, ids: bool = False, dated: bool = False) -> str:
        """The line a model reads: `S P O (since ...; before: ...; later: ...)`, hash ids on request;
        `dated` (a question asking when): each value held with its start, history or not
        (`ivan speaks spanish (since 2024-06-01), english (since 2020-01-01)`)."""
        lead = self.subject + (
            ":" if self.predicate == _OBSERVATION else " " + predicate_words(self.predicate)
        )
        history = bool(self.before or self.after)
        notes: list[str] = []
        if self.held and dated and not history:
            head = ", ".join(
                f"{_labelled(v, ids)} ({since})" if (since := _since(v)) else _labelled(v, ids)
                for v in self.held
            )
        elif self.held:
            head = ", ".join(_labelled(v, ids) for v in self.held)
            since = _since(self.held[0]) if history else ""
            if since:
                notes.append(since)
        else:
            head = ""
        if self.before:
            past = ", ".join(f"{_labelled(v, ids)} {_years(v)}" for v in self.before)
            if self.held or self.after:
                notes.append(f"before: {past}")
            else:
                head = f"{past}, in the past"
        if self.after:
            notes.append("later: " + ", ".join(f"{_labelled(v, ids)} {_years(v)}" for v in self.after))
        line = f"{lead} {head}".rstrip()
        return f"{line} ({'; '.join(notes)})" if notes else line


def _labelled(value: Value, ids: bool) -> str:
    return f"{value.label} [{value.fact_hash[:10]}]" if ids else value.label


def _since(value: Value) -> str:
    start = value.periods[-1][0] if value.periods else ""
    return f"since {start[:10]}" if start else ""


def _years(value: Value) -> str:
    """A past value's periods as years: `2020-2022`, or since a year where it still holds."""
    parts = []
    for start, end in value.periods:
        first, last = start[:4], (end or "")[:4]
        parts.append(first if first == last else f"{first}-{last}" if last else f"since {start[:10]}")
    return ", ".join(parts)


def concepts_named(
    store: MemoryStore, text: str, *, scorer: Scorer | None = None, limit: int = 5
) -> list[tuple[str, float, tuple[str, ...]]]:
    """The concepts whose labels the words of `text` name, best first: (label, score, the words
    matched); ties by label, so the same store and text give the same order on every engine."""
    score = scorer or WordScorer()
    words = question_words(text)
    if not words:
        return []
    found: dict[str, tuple[float, tuple[str, ...]]] = {}
    for _, label in _offered(store.backend, text, words):
        points, matched = score(words, label)
        if points > 0:
            found[label] = (points + 0.25 * _coverage(matched, label), matched)
    ranked = sorted(found.items(), key=lambda item: (-item[1][0], item[0]))
    return [(label, points, matched) for label, (points, matched) in ranked[:limit]]


@dataclass(frozen=True, slots=True)
class _Found:
    score: float
    reasons: tuple[str, ...]


def ask_facts(
    store: MemoryStore,
    question: str,
    *,
    now: str,
    at: str | None = None,
    scorer: Scorer | None = None,
    limit: int = 30,
) -> list[FactLine]:
    """The lines that answer `question` (its words; a date in it is the caller's `at`), best first.

    `now` is the store time (ISO, the store's format); `at` the world time asked about (default:
    `now`): what held then is a line's `held`."""
    score = scorer or WordScorer()
    words = question_words(question)
    if not words:
        return []
    backend = store.backend
    seeds: dict[bytes, _Found] = {}
    for key, label in _offered(backend, question, words):
        points, matched = score(words, label)
        if points > 0:
            reason = f"{', '.join(repr(w) for w in matched)} in {label!r}"
            seeds[key] = _Found(points + 0.25 * _coverage(matched, label), (reason,))
    if not seeds:
        return []
    facts: dict[bytes, tuple[Fact, _Found]] = {}
    near = _around(backend.facts_touching(sorted(seeds))[:MOST_FACTS], seeds, words, score, facts)
    hop: dict[bytes, _Found] = {}
    for concept, found in near.items():
        if concept not in seeds:
            known = hop.get(concept)
            if known is None or found.score > known.score:
                hop[concept] = found
    if hop:
        top = sorted(hop, key=lambda key: (-hop[key].score, key))[:SEEDS]
        reached = {key: _Found(hop[key].score * HOP, hop[key].reasons) for key in top}
        around = [f for f in backend.facts_touching(top) if f.fact_hash.digest not in facts]
        _around(around[: MOST_FACTS - len(facts)], reached, words, score, facts, hopped=True)
    return _lines(store, facts, at=at or now)[:limit]


def _offered(backend: Words, question: str, words: Sequence[str]) -> list[tuple[bytes, str]]:
    """The concepts the word index offers a question; and for up to `RESPELLED` words of three
    letters or more that no label found holds whole (names first: words written with a capital
    after the first), those their spellings with one letter accented find (`util.folding.accented`:
    "soren" finds `søren nielsen`), as a word typed without the diacritics its label has misses
    where the engine's index keeps them (PostgreSQL's keeps all, SQLite's those that do not
    decompose, `ø`, `ł`): both engines then find the same concepts."""
    asked = index_words(question)
    found = [(key, label) for key, label, _ in backend.concepts_matching(asked, SEEDS)]
    matched = _whole(words, (label for _, label in found))
    named = set(_words(fold(" ".join(word for word in _WORD.findall(question)[1:] if word[0].isupper()))))
    missing = [word for word in words if len(word) >= 3 and word not in matched]
    missing.sort(key=lambda word: word not in named)  # stable: names first, then in the question's order
    forms = {backend.indexed_form(word) for word in asked}
    spellings = []
    for spelled in (spelled for word in missing[:RESPELLED] for spelled in accented(word)):
        form = backend.indexed_form(spelled)
        if form not in forms:  # a spelling the index reads as one already asked would find nothing new
            forms.add(form)
            spellings.append(spelled)
    if spellings:
        known = {key for key, _ in found}
        more = backend.concepts_matching(spellings, SEEDS)
        found += [(key, label) for key, label, _ in more if key not in known]
    return found


def _coverage(matched: Sequence[str], label: str) -> float:
    tokens = _WORD.findall(fold(label))
    return min(1.0, len(matched) / len(tokens)) if tokens else 0.0


def _around(
    found: Iterable[Fact],
    seeds: dict[bytes, _Found],
    words: Sequence[str],
    score: Scorer,
    facts: dict[bytes, tuple[Fact, _Found]],
    *,
    hopped: bool = False,
) -> dict[bytes, _Found]:
    """Score the facts touching `seeds` into `facts`; the concepts at their other ends, by score."""
    reached: dict[bytes, _Found] = {}
    for fact in found:
        ends = (fact.subject_hash.digest, fact.object_hash.digest)
        why = next(seeds[end].reasons for end in ends if end in seeds)
        points, matched = score(words, predicate_words(fact.predicate))
        found_ends = [seeds[end].score for end in ends if end in seeds]
        # a fact whose both ends the question names scores both; one hop away, the nearer end counts;
        # either way less where the concept found is only the fact's object (a fact of another
        # concept naming it), unless the question's words name the predicate
        share = 1.0 if fact.subject_hash.digest in seeds else INWARD
        total = (max(found_ends) if hopped else sum(found_ends)) * share + (HOP if hopped else 1.0) * points
        reasons = [f"one hop from {why[0]}"] if hopped else list(why)
        if matched:
            reasons.append(f"{', '.join(repr(w) for w in matched)} in {fact.predicate!r}")
        facts[fact.fact_hash.digest] = (fact, _Found(total, tuple(reasons)))
        for end in ends:
            if end not in seeds:
                # what a concept's facts name ("carol's employer": acme corp) leads on before what
                # names the concept (a project led by carol)
                share = 1.0 if end == fact.object_hash.digest else INWARD
                reached[end] = _Found(total * share, (f"a fact of {why[0]}",))
    return reached


def _lines(store: MemoryStore, facts: dict[bytes, tuple[Fact, _Found]], *, at: str) -> list[FactLine]:
    """The facts as lines by subject and predicate, as believed now, read at world time `at`."""
    backend = store.backend
    chosen = [fact for fact, _ in facts.values()]
    labels = backend.labels([f.subject_hash.digest for f in chosen] + [f.object_hash.digest for f in chosen])
    periods = beliefs(backend, chosen)
    lines: dict[tuple[bytes, str], FactLine] = {}
    for fact, found in facts.values():
        key = (fact.subject_hash.digest, fact.predicate)
        line = lines.get(key)
        if line is None:
            line = lines[key] = FactLine(labels.get(key[0], "?"), fact.predicate)
        if found.score > line.score:
            line.score, line.reasons = found.score, list(found.reasons)
        believed = sorted(
            (
                (row.valid_from, row.valid_to)
                for row in periods[fact.fact_hash.digest]
                if row.closed_at is None
            ),
        )
        value = Value(labels.get(fact.object_hash.digest, "?"), fact.fact_hash.hex(), tuple(believed))
        _place(line, value, at)
    for key, line in list(lines.items()):
        if not line.held and not line.before:
            del lines[key]  # it began after the time asked about: nothing to tell of then
        line.held.sort(key=lambda v: (-_start(v, at), v.label))
        line.before.sort(key=lambda v: (-_end(v), v.label))
        line.after.sort(key=lambda v: (_first(v), v.label))
    return sorted(
        lines.values(), key=lambda line: (not line.current, -line.score, line.subject, line.predicate)
    )


def _place(line: FactLine, value: Value, at: str) -> None:
    spans = value.periods
    if not spans:
        return  # retracted from every belief: nothing to tell
    if any(start <= at and (end is None or at < end) for start, end in spans):
        line.held.append(value)
    elif all(start > at for start, _ in spans):
        line.after.append(value)
    else:
        line.before.append(Value(value.label, value.fact_hash, tuple(s for s in spans if s[0] <= at)))


def _start(value: Value, at: str) -> float:
    starts = [start for start, end in value.periods if start <= at and (end is None or at < end)]
    return _ordinal(max(starts, default=""))


def _end(value: Value) -> float:
    return _ordinal(max(((end or "9999") for _, end in value.periods), default=""))


def _first(value: Value) -> str:
    return min((start for start, _ in value.periods), default="")


def _ordinal(text: str) -> float:
    """A time's digits as a number, for ordering (later is larger)."""
    digits = re.sub(r"\D", "", text)[:14]
    return float(digits) if digits else 0.0
