"""From messages to the records of experiential memory: turns, experiences, concepts, edges.

A turn opens with each user message (or a compaction summary) and holds what
the agent did until the next one. Each message gives at most one experience per
layer:

- a user message: INPUT (what was heard);
- an assistant message: CONTEMPLATION (its thinking, then its tool calls) and
  OUTPUT (what it said);
- a tool result or a summary: CONTEMPLATION (what the agent saw or kept).

Edges: each experience MENTIONS its concepts (weight: how often), is a SIBLING
of the next experience of its turn, and each turn is followed (NEXT) by the
next turn of its session. Everything is a pure function of its input, so the
same transcript always gives the same records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping

from zerolang.experience.affect import AffectExtractor
from zerolang.experience.concepts import ConceptExtractor, concept_id
from zerolang.experience.ids import experience_id, turn_id
from zerolang.experience.model import (
    CaptureBatch,
    Concept,
    Edge,
    EdgeKind,
    Experience,
    Layer,
    Message,
    Role,
    Session,
    Turn,
)
from zerolang.experience.words import counted_terms

# Enum members named once: reading one off its class is a descriptor call each time (~0.3 us in
# Python 3.11), paid per message and per mention otherwise.
_USER, _ASSISTANT, _SYSTEM = Role.USER, Role.ASSISTANT, Role.SYSTEM
_OPENING = frozenset({Role.USER, Role.SUMMARY})  # a message that opens a turn
_INPUT, _CONTEMPLATION, _OUTPUT = Layer.INPUT, Layer.CONTEMPLATION, Layer.OUTPUT
_NEXT, _SIBLING, _MENTIONS = EdgeKind.NEXT, EdgeKind.SIBLING, EdgeKind.MENTIONS


def turns_of(session: Session, first: int = 0) -> list[Turn]:
    """The session's messages grouped into turns, numbered from `first` (the position of the turn
    the messages start with, when they are a session's last ones)."""
    groups: list[list[Message]] = []
    for message in session.messages:
        if message.role is _SYSTEM:
            continue
        opens = message.role in _OPENING
        if opens or not groups:
            groups.append([message])
        else:
            groups[-1].append(message)
    turns: list[Turn] = []
    for position, group in enumerate(groups, start=first):
        key = group[0].key or f"#{position}"
        when = None
        for message in group:  # the first time a message of the turn carries
            if message.when:
                when = message.when
                break
        turns.append(Turn(turn_id(session.id, key), session.id, position, key, when, tuple(group)))
    return turns


def layers_of(message: Message) -> list[tuple[Layer, str]]:
    """What one message contributes to each layer (empty layers left out)."""
    if message.role is _USER:
        pairs = [(_INPUT, message.text)]
    elif message.role is _ASSISTANT:
        inner = "\n".join(
            part for part in (message.thinking, *(f"→ {call}" for call in message.tool_calls)) if part
        )
        pairs = [(_CONTEMPLATION, inner), (_OUTPUT, message.text)]
    else:
        pairs = [(_CONTEMPLATION, message.text)]
    kept = []
    for layer, text in pairs:  # a loop, not a comprehension: that is a function call in Python 3.11
        stripped = text.strip()
        if stripped:
            kept.append((layer, stripped))
    return kept


def build(
    sessions: Iterable[Session],
    *,
    affect: AffectExtractor,
    concepts: ConceptExtractor,
    names: Mapping[str, str] | None = None,
    settled: Collection[str] = (),
) -> CaptureBatch:
    """The records for these sessions; `names` renames speakers (`{"user": "David"}`). Turns whose
    id is in `settled` (stored already, complete) give no records, but still precede the next."""
    batch = CaptureBatch()
    for session in sessions:
        previous: Turn | None = None
        for turn in turns_of(session):
            if turn.id not in settled:
                before = previous.id if previous else None
                add_turn(batch, turn, before, affect=affect, concepts=concepts, names=names)
            previous = turn
    return batch


def add_turn(
    batch: CaptureBatch,
    turn: Turn,
    previous: str | None,
    *,
    affect: AffectExtractor,
    concepts: ConceptExtractor,
    names: Mapping[str, str] | None = None,
) -> None:
    """Append one turn's records (and the NEXT edge from `previous`, its turn before) to `batch`."""
    batch.turns.append(turn)
    edges = batch.edges
    known = batch.concept_ids
    if previous is not None:
        edges.append(Edge(previous, _NEXT, turn.id))
    last: str | None = None
    for ordinal, message in enumerate(turn.messages):
        who = names.get(message.who, message.who) if names else message.who
        for layer, text in layers_of(message):
            experience = _experience(turn, ordinal, message, layer, who, text, affect)
            batch.experiences.append(experience)
            ident = experience.id
            batch.terms[ident] = counted_terms(text)  # after affect, which split the same text
            if last is not None:
                edges.append(Edge(last, _SIBLING, ident))
            last = ident
            labels = concepts.extract(text)
            if len(set(labels)) == len(labels):  # each once, as the default extractor gives them
                for label in labels:
                    concept = concept_id(label)
                    if concept not in known:
                        known.add(concept)
                        batch.concepts.append(Concept(concept, label))
                    edges.append(Edge(ident, _MENTIONS, concept, 1.0))
                continue
            for label, count in _counted(labels):
                concept = concept_id(label)
                if concept not in known:
                    known.add(concept)
                    batch.concepts.append(Concept(concept, label))
                edges.append(Edge(ident, _MENTIONS, concept, count))


def _counted(labels: list[str]) -> Iterable[tuple[str, float]]:
    """Each label once, first mention first, with how often it is mentioned (for an extractor that
    repeats labels; `add_turn` takes those of one that gives each once, as the default does, as they are)."""
    return [(label, float(count)) for label, count in Counter(labels).items()]


def _experience(
    turn: Turn, ordinal: int, message: Message, layer: Layer, who: str, text: str, affect: AffectExtractor
) -> Experience:
    when = message.when or turn.when
    ident = experience_id(
        session=turn.session, turn=turn.id, layer=layer, who=who, what=text, when=when, ordinal=ordinal
    )
    sources = (message.key,) if message.key else ()  # positional below: keywords cost a third more
    return Experience(
        ident,
        layer,
        who,
        text,
        when,
        turn.session,
        turn.id,
        turn.position,
        ordinal,
        affect.score(text),
        sources,
    )
