"""Recall over experiences: enter by full text, expand through the graph, rank, say why.

1. **Entry.** The query's content words go to the full text (`ranking`: BM25 over the
   store's postings of our own stemmed terms, the same on every engine) twice: over single
   experiences (the best `entry` are the
   seeds, scored 0..1 relative to the best) and over whole turns (all layers
   of a turn as one text: a question in one layer and its answer in the next
   match together; each layer gains `whole_turn` x the turn's relative score).
2. **Concepts of the query.** Experiences that mention a concept the query
   names (found by the extractor capture used) gain `concept` x the concept's
   rarity (inverse document frequency scaled to 0..1; concepts in more than
   `common` of all experiences count for nothing).
3. **Expansion** from the best `expand` seeds, in proportion to the seed's
   score: the other layers of its turn (`turn`), the message just before or
   after its turn (`neighbour`; the rest of that turn `far` x as much), and
   experiences sharing a rare concept with it (`shared` x rarity); this
   reaches what is related but shares no keyword with the query. Every seed
   (not only the best `expand`) that asks a question (has a `?`) passes
   `answer` x its score to the message right after it, in its turn or opening
   the next: answers follow questions.
4. **Who.** An experience by someone the query names scores `1 + speaker`
   times as much, all its contributions (steps 5 to 7 included) together
   (who/what/when are first-class in an experience); `1 + about` times as much
   when the query asks for several things or an inference ("what books has she
   read?", "would he enjoy ...?", `experience.asking`): such a question is about
   the life of the person it names. A message that ends with a question (`?`) scores
   `1 - asking` times as much: it asks; what was asked is known from the reply after it,
   which step 3 reaches (`answer`).

5. **An optional ranker** (`Ranker`, e.g. embeddings; none by default) adds
   its similarity to every candidate the steps above found.

Experiences that mention a term a memory forget blocked (`experience.forgotten`) are
never returned, whatever led to them, and lead nowhere: they are no seeds, a turn with
such a layer does not match as a whole, and a forgotten concept the query names counts
for nothing.

6. **Session.** What a conversation says about one thing tends to sit in one session: each
   session's share is the sum of its seeds' scores relative to the best session's, and every
   experience found gains `session` x its session's share.

7. **Time.** A query that names a time ("in May 2023", "on 8th December, 2023", "the week
   before 16 November 2023") is matched by date, not by words: an experience said on one of
   those days, or saying ("yesterday", "last Saturday", "two weeks ago") that something happened
   then, gains `time`, less by a share per week away (`experience.dates`).

8. **Spread.** For a question that asks for several things (`asks_for_several`: "what books has
   she read?"), which a conversation tells in several sessions more often than in one, the
   ranking is chosen best first with each hit's score taken `1 - spread` times for every hit
   of its own session chosen before it.

9. **Sessions of the full text.** When recall misses, it misses a whole session: the graph's
   signals (the session share, neighbours, answers) gather the best places in the session it
   prefers. So the first `sessions` sessions the plain full-text ranking reaches (its seeds in
   order) each keep a place among the `FIRST` (five) places after the graph's first `kept` (five),
   which stay as they are: while one has no hit above them, the last of those places go to its best
   hit; the rest of the ranking keeps its order. (Kept within the first five, `kept` 0, the places
   cost the graph's fourth and fifth best more turn recall at 5 than they gained sessions.)
   With `fused`, the sessions a **reciprocal-rank fusion** at session level puts first keep such
   places too: each session scores `1 / (FUSION + r)` for its rank `r` in the order the graph's
   ranking reaches sessions and the same for the order the plain full text over whole turns reaches
   them (the lexical ranking a plain BM25 over turns gives), so a session the full text reaches
   early and the graph late comes within the first ten, while the sessions both put first, already
   there, take no place; the first `fused` such sessions not favoured by `sessions` are owed a place.

An experience's score is the sum of its contributions, each kept as a reason.
The weights are `RecallWeights`; nothing depends on the data recall runs on. The defaults of
`answer`, `speaker`, `time`, `session`, `about`, `asking`, `spread` and `sessions` are those of the
grid point best on average over leave-one-conversation-out folds of LoCoMo's development split
(`benches/bench_locomo.py --loo`, `benches/loo.py`, docs/benchmarks.md): with `answer` 1.0 a
question's answer may rank above the question itself, which is what a question asked of memory
wants; `session` 0.4 was chosen in every fold and `sessions` 2 in every fold of round 6 (in round 7,
with `kept` 5, the places kept for the full text's sessions being the sixth to the tenth, three folds
chose 2 and two 0, which rank this split alike); `fused` 0 in every fold of round 8, where 3 was
in the grid too (places owed to more sessions cost the graph's own turns more than they found); the
others are as first set
(`expand` 10, `concept` 0.25, `answer` 1.0 and `time` 1.0 were chosen in every fold when the grid
held them).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zerolang.experience.asking import asks_about_someone, asks_for_several, ends_asking
from zerolang.experience.concepts import ConceptExtractor, DefaultConcepts, concept_id
from zerolang.experience.dates import Span, asked_span, parse_date, spoken_spans
from zerolang.experience.forgotten import Forgotten
from zerolang.experience.model import Experience
from zerolang.experience.ranking import full_text
from zerolang.experience.store import ExperienceStore
from zerolang.experience.words import terms, words

FIRST = 5
"""The first places of a ranking, where `RecallWeights.sessions` reserves room (by default) for the
sessions the plain full-text ranking favours."""
FUSION = 60
"""Reciprocal-rank fusion's constant (Cormack, Clarke and Buettcher, SIGIR 2009): a session at rank
`r` of one order counts `1 / (FUSION + r)`; large against the ranks that matter (1 to 10), so a session
two orders put fairly early outranks one that only one of them puts first."""
FUSED_REASON = "among the first of both rankings fused"


@dataclass(frozen=True, slots=True)
class RecallWeights:
    """How much each way of being related counts, relative to a full-text match (1.0)."""

    entry: int = 60  # full-text matches taken as seeds
    expand: int = 10  # seeds that expand through the graph
    whole_turn: float = 0.5  # a layer of a turn whose layers together match the query
    concept: float = 0.25  # mentions a (rare) concept the query names
    turn: float = 0.35  # another layer of a matching turn
    neighbour: float = 0.4  # the message just before or after a matching turn
    answer: float = 1.0  # the message right after a matching question (its likely answer)
    far: float = 0.5  # the other layers of that neighbouring turn count this share of `neighbour`
    shared: float = 0.2  # shares a rare concept with a match
    common: float = 0.05  # a concept mentioned by more than this share of experiences is not rare
    speaker: float = 0.5  # an experience of someone the query names scores this much more (x 1 + speaker)
    about: float = 1.0  # `speaker`'s place when the query asks for several things or an inference
    time: float = 1.0  # said on (or about) the days the query names, less by a share per week away
    session: float = 0.4  # said in a session whose experiences match the query most (relative 0..1)
    asking: float = 0.2  # a message that ends with a question scores this share less (its reply answers)
    spread: float = 0.2  # for several things: a hit scores this share less per better hit of its session
    sessions: int = 2  # the full text's first sessions, each kept a place in the `FIRST` after `kept`
    kept: int = 5  # the graph's first places, left as they are: the room is kept in the `FIRST` after them
    fused: int = 0  # sessions first in the graph's and the full text's orders fused (RRF): a place each too


class Ranker(Protocol):
    """An optional extra ranker (an embedding model, say): similarity of `query` to each text, 0..1.

    None by default; when given, each candidate gains `weight x similarity` (reason: "similar meaning").
    """

    weight: float

    def similarity(self, query: str, texts: Sequence[str]) -> list[float]: ...


@dataclass(slots=True)
class Hit:
    experience: Experience
    score: float
    reasons: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Scores:
    score: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    reasons: dict[str, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, ident: str, amount: float, reason: str) -> None:
        if amount <= 0:
            return
        self.score[ident] += amount
        self.reasons[ident].append((amount, reason))


def recall(
    store: ExperienceStore,
    query: str,
    *,
    limit: int = 20,
    weights: RecallWeights | None = None,
    concepts: ConceptExtractor | None = None,
    ranker: Ranker | None = None,
) -> list[Hit]:
    """The experiences most related to `query`, best first, each with why."""
    w = weights or RecallWeights()
    extractor = concepts or DefaultConcepts()
    scores = _Scores()
    total = max(store.counts()["experiences"], 1)
    asked = asked_span(query) if w.time else None
    # the date a query names is matched by time (step 7), not as words
    query_terms = terms(query[: asked.start] + " " + query[asked.end :] if asked else query)
    blocked = Forgotten.of(store.forgotten_terms())
    found_text = full_text(store, query_terms, w.entry)
    seeds = found_text.experiences
    if blocked:  # a forgotten experience is no seed: it leads nowhere either
        seen = store.experiences([ident for ident, _ in seeds])
        seeds = [
            (i, raw) for i, raw in seeds if i in seen and not blocked.mentions(seen[i].who, seen[i].what)
        ]
    best = seeds[0][1] if seeds else 1.0
    seed_score: dict[str, float] = {}
    for ident, raw in seeds:
        seed_score[ident] = raw / best if best > 0 else 0.0
        scores.add(ident, seed_score[ident], "words match")

    if w.whole_turn:
        turns = found_text.turns
        top_turn = turns[0][1] if turns else 1.0
        turn_score = {turn: raw / top_turn for turn, raw in turns if top_turn > 0}
        layers = store.experiences_of_turns(turn_score)
        if blocked:  # a turn with a forgotten layer may match by that layer's words alone: none count
            hidden = {e.turn for e in layers if blocked.mentions(e.who, e.what)}
            layers = [e for e in layers if e.turn not in hidden]
        for experience in layers:
            amount = w.whole_turn * turn_score[experience.turn]
            scores.add(experience.id, amount, "its turn matches")

    wanted = {concept_id(label): label for label in extractor.extract(query) if not blocked.mentions(label)}
    frequency = store.concept_frequency(wanted)
    rarity = {ident: _rarity(frequency.get(ident, 0), total, w.common) for ident in wanted}
    for ident, concept in sorted(store.mentioning([c for c, r in rarity.items() if r > 0])):
        scores.add(ident, w.concept * rarity[concept], f"names {wanted[concept]!r}")

    top = sorted(seed_score.items(), key=lambda item: -item[1])[: w.expand]
    if top:
        _expand(store, dict(top), scores, w, total)
    if w.answer and seed_score:
        _answers(store, seed_score, scores, w)

    found = store.experiences(list(scores.score))
    if blocked:
        found = {i: e for i, e in found.items() if not blocked.mentions(e.who, e.what)}
    if ranker is not None and found:
        ordered = sorted(found)
        similar = ranker.similarity(query, [found[ident].what for ident in ordered])
        for ident, value in zip(ordered, similar, strict=True):
            scores.add(ident, ranker.weight * value, "similar meaning")
    if w.session and found:
        _sessions(seed_score, found, scores, w)
    if asked is not None:
        for ident, experience in found.items():
            near = closeness(asked.near, experience)
            scores.add(ident, w.time * near, f"said near {asked.near.start.isoformat()}")
    named = {word.lower() for word in words(query)}
    boost = w.about if asks_about_someone(query) else w.speaker
    for ident, experience in found.items():
        if boost and set(terms(experience.who)) & named:
            scores.score[ident] *= 1 + boost
            scores.reasons[ident].append((0.0, f"by {experience.who}"))
        if w.asking and ends_asking(experience.what):
            scores.score[ident] *= 1 - w.asking
            scores.reasons[ident].append((0.0, "asks (its reply answers)"))
    ranked = sorted(scores.score.items(), key=lambda item: (-item[1], item[0]))
    if w.spread and asks_for_several(query):
        spread = _across_sessions([item for item in ranked if item[0] in found], found, w.spread, limit)
        for ident, _, before in spread:
            if before:
                scores.reasons[ident].append((0.0, f"after {before} better of its session"))
        ranked = [(ident, score) for ident, score, _ in spread]
    if w.sessions or w.fused:
        favoured = _favoured_sessions(seeds, found, w.sessions) if w.sessions else []
        text = len(favoured)
        if w.fused:
            fusion = _fused_sessions(ranked, found_text.turns, found)
            favoured += [session for session in fusion if session not in favoured][: w.fused]
        ranked, moved = _reserve(ranked, found, favoured, w.kept + FIRST, w.kept)
        for ident in moved:
            where = favoured.index(found[ident].session) + 1
            why = f"the full text's {_ordinal(where)}" if where <= text else FUSED_REASON
            scores.reasons[ident].append((0.0, f"its session is {why}"))
    ranked = ranked[:limit]
    hits: list[Hit] = []
    for ident, score in ranked:
        if ident in found:
            reasons = [text for _, text in sorted(scores.reasons[ident], key=lambda r: -r[0])]
            hits.append(Hit(found[ident], round(score, 4), reasons))
    return hits


def _favoured_sessions(seeds: list[tuple[str, float]], found: dict[str, Experience], count: int) -> list[str]:
    """The first `count` sessions the plain full-text ranking (`seeds`, best first) reaches."""
    sessions: list[str] = []
    for ident, _ in seeds:
        experience = found.get(ident)
        if experience is not None and experience.session not in sessions:
            sessions.append(experience.session)
            if len(sessions) == count:
                break
    return sessions


def _fused_sessions(
    ranked: list[tuple[str, float]], turns: list[tuple[str, float]], found: dict[str, Experience]
) -> list[str]:
    """Sessions best first by reciprocal-rank fusion of two orders: the order the graph's ranking
    (`ranked`, best first) reaches them in, and the order the full text over whole turns (`turns`,
    best first) does; each session scores `1 / (FUSION + rank)` in each order it is in. Ties go to
    the graph's order, then the full text's."""
    turn_session = {experience.turn: experience.session for experience in found.values()}
    graph = _order(found[ident].session for ident, _ in ranked if ident in found)
    text = _order(turn_session[turn] for turn, _ in turns if turn in turn_session)
    fused: dict[str, float] = defaultdict(float)
    for order in (graph, text):
        for session, rank in order.items():
            fused[session] += 1.0 / (FUSION + rank)
    late = len(graph) + len(text)
    return sorted(fused, key=lambda s: (-fused[s], graph.get(s, late), text.get(s, late), s))


def _order(sessions: Iterable[str]) -> dict[str, int]:
    """Each session's rank (from 1) by where `sessions` first names it."""
    ranks: dict[str, int] = {}
    for session in sessions:
        ranks.setdefault(session, len(ranks) + 1)
    return ranks


def _reserve(
    ranked: list[tuple[str, float]],
    found: dict[str, Experience],
    favoured: list[str],
    first: int,
    kept: int = 0,
) -> tuple[list[tuple[str, float]], list[str]]:
    """`ranked` (best first) with room kept in its first `first` places for each `favoured` session:
    the last places of those go, while a favoured session has no hit above them, to that session's
    best hit (the most favoured first), scored as the hit whose place it takes (so scores still
    fall down the ranking); the rest keep their order. The first `kept` places stay the graph's (a
    favoured session among them is shown). A miss of the whole session the graph prefers then still
    leaves the full text's sessions in view. Also the ids so moved up."""
    pool = [item for item in ranked if item[0] in found]
    ranked_sessions = {found[ident].session for ident, _ in pool}
    favoured = [session for session in favoured if session in ranked_sessions]
    out: list[tuple[str, float]] = pool[:kept]
    pool = pool[kept:]
    moved: list[str] = []
    while pool and len(out) < first:
        shown = {found[ident].session for ident, _ in out}
        owed = [session for session in favoured if session not in shown]
        pick = 0
        if owed and len(out) >= first - len(owed):
            pick = next((i for i, (ident, _) in enumerate(pool) if found[ident].session == owed[0]), 0)
        ident, score = pool.pop(pick)
        if pick:
            moved.append(ident)
            score = max(score, pool[0][1])
        out.append((ident, score))
    return out + pool, moved


def _ordinal(number: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(number, f"{number}th")


def _across_sessions(
    ranked: list[tuple[str, float]], found: dict[str, Experience], spread: float, limit: int
) -> list[tuple[str, float, int]]:
    """The first `limit` of `ranked` (best first) chosen one at a time, each hit's score taken
    `1 - spread` times for every hit of its session already chosen: the best of each session
    keep their score, and the later ones of one session give way to the next sessions' best.
    Each as (id, score, how many of its session were chosen before it)."""
    chosen: dict[str, int] = defaultdict(int)
    pool = list(ranked)
    out: list[tuple[str, float, int]] = []
    while pool and len(out) < limit:
        pick, value = 0, -1.0
        for index, (ident, score) in enumerate(pool):
            if score <= value:  # best first: no later hit can beat the pick
                break
            discounted = score * (1 - spread) ** chosen[found[ident].session]
            if discounted > value:
                pick, value = index, discounted
        ident, _ = pool.pop(pick)
        session = found[ident].session
        out.append((ident, value, chosen[session]))
        chosen[session] += 1
    return out


def _sessions(
    seeds: dict[str, float], found: dict[str, Experience], scores: _Scores, w: RecallWeights
) -> None:
    """Experiences of the sessions the query matches most gain `session` x that session's share."""
    by_session: dict[str, float] = defaultdict(float)
    for ident, score in seeds.items():
        experience = found.get(ident)
        if experience is not None:
            by_session[experience.session] += score
    top = max(by_session.values(), default=0.0)
    if top <= 0:
        return
    for ident, experience in found.items():
        share = by_session.get(experience.session, 0.0) / top
        scores.add(ident, w.session * share, "its session matches")


def _answers(store: ExperienceStore, seeds: dict[str, float], scores: _Scores, w: RecallWeights) -> None:
    """The message right after a matching question (in its turn, or opening the next) is its answer:
    every seed that asks (has a `?`) passes `answer` x its score to it."""
    found = {ident: e for ident, e in store.experiences(seeds).items() if "?" in e.what}
    if not found:
        return
    turns = {e.turn for e in found.values()}
    members: dict[str, list[Experience]] = defaultdict(list)
    nearby = [other for _, other in store.neighbour_turns(turns)]
    for layer in store.experiences_of_turns([*turns, *nearby]):
        members[layer.turn].append(layer)
    by_position = {(group[0].session, group[0].position): group for group in members.values() if group}
    for seed, experience in sorted(found.items()):
        score = seeds[seed]
        group = members.get(experience.turn, [])
        index = next((i for i, e in enumerate(group) if e.id == seed), None)
        if index is None:
            continue
        if index + 1 < len(group):
            reply = group[index + 1]
        else:
            following = by_position.get((experience.session, experience.position + 1))
            if not following:
                continue
            reply = following[0]
        scores.add(reply.id, w.answer * score, f"answers {seed[:10]}")


WEEK = 7


def closeness(span: Span, experience: Experience) -> float:
    """1 when the experience was said on a day of `span`, or says (`yesterday`, `last week`) one
    of them happened; less by a share per week away (1 / (1 + weeks)); 0 when it has no date."""
    said = parse_date(experience.when)
    if said is None:
        return 0.0
    spans = [Span(said, said), *spoken_spans(experience.what, said)]
    gap = min(span.gap(other) for other in spans)
    return 1.0 / (1.0 + gap / WEEK)


def _rarity(frequency: int, total: int, common: float) -> float:
    """0..1: 1 for a concept one experience mentions, 0 for one more than `common` of them mention."""
    if frequency <= 0 or frequency > common * total:
        return 0.0
    return math.log(total / frequency) / math.log(total) if total > 1 else 1.0


def _expand(
    store: ExperienceStore, seeds: dict[str, float], scores: _Scores, w: RecallWeights, total: int
) -> None:
    found = store.experiences(seeds)
    turn_best: dict[str, tuple[float, str]] = {}
    for ident in sorted(found, key=lambda seed: (-seeds[seed], seed)):  # best first, ties by id
        turn_best.setdefault(found[ident].turn, (seeds[ident], ident))
    neighbour_best: dict[str, tuple[float, str]] = {}
    for turn, other in sorted(store.neighbour_turns(turn_best)):
        if other in turn_best:
            continue
        if turn_best[turn][0] > neighbour_best.get(other, (0.0, ""))[0]:
            neighbour_best[other] = turn_best[turn]
    members: dict[str, list[Experience]] = defaultdict(list)
    for experience in store.experiences_of_turns([*turn_best, *neighbour_best]):
        members[experience.turn].append(experience)
    position = {found[seed].turn: found[seed].position for seed in seeds if seed in found}
    for turn, group in members.items():
        if turn in turn_best:
            score, seed = turn_best[turn]
            for experience in group:
                if experience.id != seed:
                    scores.add(experience.id, w.turn * score, f"same turn as {seed[:10]}")
            continue
        score, seed = neighbour_best[turn]
        after = group[0].position > position[found[seed].turn]
        adjacent = group[0] if after else group[-1]
        for experience in group:
            share = 1.0 if experience is adjacent else w.far
            where = "next after" if after else "just before"
            scores.add(experience.id, w.neighbour * share * score, f"{where} {seed[:10]}")

    mentions = sorted(store.mentions_of(seeds))
    frequency = store.concept_frequency({concept for _, concept, _ in mentions})
    rare = {c: _rarity(f, total, w.common) for c, f in frequency.items()}
    rare = {c: r for c, r in rare.items() if r > 0 and frequency[c] > 1}
    if not rare:
        return
    by_concept: dict[str, list[str]] = defaultdict(list)
    for seed, concept, _ in mentions:
        if concept in rare:
            by_concept[concept].append(seed)
    labels = store.concept_labels(rare)
    shared: dict[str, tuple[float, str]] = {}
    for ident, concept in sorted(store.mentioning(rare)):
        for seed in by_concept.get(concept, ()):
            if ident == seed:
                continue
            amount = w.shared * seeds[seed] * rare[concept]
            if amount > shared.get(ident, (0.0, ""))[0]:
                shared[ident] = (amount, f"shares {labels.get(concept, concept)!r} with {seed[:10]}")
    for ident, (amount, reason) in shared.items():
        scores.add(ident, amount, reason)
