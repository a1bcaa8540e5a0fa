"""One question, answered from the facts and the conversations together, in one budgeted context.

`Memory.ask` (and `zero recall`, MCP's `recall`) call `answer`: the fact graph's lines
(`zerolang.knowledge.asking`: current values first, the past marked with its periods) and the
captured turns conversation recall finds (`zerolang.experience.recall`), merged by how well each
answers (each side's scores relative to its best), written as plain lines a model reads:

    facts:
    carol diaz works at acme corp (since 2024-02-01; before: globex 2022-2024, initech 2020-2022)
    conversations:
    2024-03-09 carol: I moved to Lisbon for the new job.

A turn is who, when, what; acknowledgements and tool noise ("ok", "File written") are left out;
a text too long for what is left is cut at a sentence's or a word's end (`…`). Hash ids only on
request (`ids`). Each item's reason is kept beside it (`explain`, a JSON field) and is not spent
from the budget, which is exact cl100k (`zerolang.util.tokens`) for the text, and for the JSON
form without its reasons. A date in the question ("in 2021", "last year", "before March") is
the time the facts are read at (`asked_time`), as conversation recall already reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from zerolang.util.tokens import count_tokens, encoding

if TYPE_CHECKING:
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.asking import Scorer
    from zerolang.knowledge.store import MemoryStore

TURNS = 20
"""How many turns conversation recall ranks for a question (at least)."""
TOKENS_PER_TURN = 30
"""A large budget ranks a turn for every this many of its tokens (2,000: 66 turns)."""
FACT_LINES = 30
"""How many fact lines a question offers at most."""
PAST = 0.5
"""A fact line telling only the past (nothing holds at the time asked) ranks at this share."""
SHORTEST_CUT = 16
SHARE = 48
"""A line is first cut to twice an even share of the budget, never to fewer tokens than this."""
"""A text is cut to fit only where at least this many tokens of it would be kept."""

_NOISE = re.compile(
    r"^\W*(?:ok(?:ay)?|k|ack|noted|got it|sure|thanks?(?: you)?|ty|great|cool|nice|perfect|yes|yep|yeah|no|"
    r"nope|alright|sounds good|done|file (?:written|saved|created|updated|deleted)(?: \S+)?|"
    r"(?:wrote|created|updated|saved|deleted) (?:file )?\S+|successfully \w+(?: \S+)?|no (?:output|changes)|"
    r"command (?:ran|completed|succeeded)|exit code \d+|\(no content\)|tool result\b.*|"
    r"(?:→ ?[\w.-]+\(.*\) ?)+)\W*$",
    re.IGNORECASE,
)
_ASKED_BEFORE = re.compile(r"\b(?:before|until|by|prior to)\s*$", re.IGNORECASE)
_ASKS_WHEN = re.compile(
    r"\b(?:when|how long|what (?:year|date|day|month)|which (?:year|date|day|month))\b", re.IGNORECASE
)
"""A question asking when something began: every fact line then tells when each value did."""
_ASKED_SINCE = re.compile(r"\b(?:since|after|ever since)\s*$", re.IGNORECASE)


def spoken(text: str) -> str:
    """A turn's text without the tool calls a capture appends to its thinking (`→ name({...})` lines,
    `zerolang.experience.build`): what was said and thought, not the calls' arguments."""
    if "→" not in text:
        return text
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("→"))


def noise(text: str) -> bool:
    """Whether a turn's text is an acknowledgement or a tool's chatter, not worth a model's tokens."""
    flat = " ".join(text.split())
    return not flat or bool(_NOISE.match(flat))


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a context: a fact line or a conversation turn, with why it was found."""

    kind: str  # "fact" or "turn"
    text: str  # the line as a model reads it
    why: str
    score: float  # relative to the best of its kind, 0..1
    ids: tuple[str, ...] = ()  # fact hashes, or the experience's id
    when: str | None = None
    who: str | None = None
    current: bool = True  # a fact line holding at the time asked (not only the past)
    rank: int = 0  # its place among the items of its kind, as found (the order it is printed in)

    def to_json(self, *, explain: bool, ids: bool) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if ids:
            out["ids"] = list(self.ids)
        if explain:
            out["why"] = self.why
        return out


@dataclass(slots=True)
class Answer:
    """What a question found that fits its budget, as text (`text`) or JSON (`json`)."""

    question: str
    items: list[Item]
    at: str | None  # the world time the facts were read at, where the question named one
    budget: int | None
    ids: bool = False
    explain: bool = False
    offered: int = 0  # how many items were found before the budget chose
    text: str = ""
    tokens: int = 0
    json: str = ""
    json_tokens: int = 0
    dropped: list[Item] = field(default_factory=list)

    def explained(self) -> str:
        """The text with each line's reason under it (`  why: ...`), which the budget does not count."""
        out: list[str] = []
        for line in self.text.splitlines():
            out.append(line)
            item = self._by_line.get(line)
            if item is not None and item.why:
                out.append(f"  why: {item.why}")
        return "\n".join(out) + ("\n" if out else "")

    @property
    def _by_line(self) -> dict[str, Item]:
        return {item.text: item for item in self.items}


def answer(
    question: str,
    *,
    facts: MemoryStore | None,
    experiences: ExperienceStore | None,
    budget: int | None = None,
    ids: bool = False,
    explain: bool = False,
    now: str | None = None,
    skip_sessions: Collection[str] = (),
    as_json: bool = False,
    lines: int | None = None,
    turns: int | None = None,
    scorer: Scorer | None = None,
) -> Answer:
    """Answer `question` from the facts and the conversations within `budget` cl100k tokens (the
    text's, or with `as_json` the JSON's without its reasons), in at most `lines` lines. `now`:
    the clock (ISO 8601); `turns`: how many turns conversation recall ranks (default: `TURNS`, more
    for a large budget, one per `TOKENS_PER_TURN`); `scorer`: how fact
    labels and predicates are matched to the question's words (`knowledge.asking.WordScorer`; a
    model's similarity may take its place)."""
    from zerolang.knowledge.temporal import utc
    from zerolang.util.errors import ZeroError
    from zerolang.util.times import utc_now

    if not question.strip():
        raise ZeroError("nothing to recall: the question is empty")
    if budget is not None and budget < 1:
        raise ZeroError(f"a budget is a positive number of tokens (got {budget})")
    clock = utc_now() if now is None else utc(now, "now")
    at = asked_time(question, clock)
    offered = _fact_items(question, facts, clock, at, ids, scorer) + _turn_items(
        question, experiences, skip_sessions, ids, turns or max(TURNS, (budget or 0) // TOKENS_PER_TURN)
    )
    offered.sort(key=lambda item: (-item.score, item.kind != "fact"))
    offered = offered if lines is None else offered[:lines]
    result = Answer(question, [], at, budget, ids, explain, len(offered))
    _fit(result, offered, as_json)
    return result


def asked_time(question: str, clock: str) -> str | None:
    """The world time a question asks about (the end of the span it names; the day before it for
    "before ..."), in the store's format; None when it names none."""
    from zerolang.experience.dates import ago, asked_span, spoken_spans

    today = datetime.fromisoformat(clock.replace("Z", "+00:00")).date()
    asked = asked_span(question)
    if asked is not None:
        span = asked.span
        start, end = span.start, span.end
        if span.every_year:  # "in March": the latest March that has begun
            year = today.year if (start.month, start.day) <= (today.month, today.day) else today.year - 1
            start, end = start.replace(year=year), end.replace(year=year)
        if _ASKED_BEFORE.search(question[: asked.start]):
            return _moment(start - timedelta(days=1))
        if _ASKED_SINCE.search(question[: asked.start]) and end < today:
            return None  # "since 2020", "after 2023": what holds now, with what held before it
        return _moment(min(end, today))
    day = ago(question, today)  # "two years ago": that day, not the end of its year
    if day is not None:
        return _moment(min(day, today))
    spans = spoken_spans(question, today)
    if spans:
        return _moment(min(spans[0].end, today))
    return None


def _moment(day: date) -> str:
    return datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _fact_items(
    question: str, store: MemoryStore | None, clock: str, at: str | None, ids: bool, scorer: Scorer | None
) -> list[Item]:
    from zerolang.knowledge.asking import ask_facts

    if store is None:
        return []
    lines = ask_facts(store, question, now=clock, at=at, limit=FACT_LINES, scorer=scorer)
    dated = bool(_ASKS_WHEN.search(question))
    best = max((line.score for line in lines), default=0.0) or 1.0
    return [
        Item(
            "fact",
            line.text(ids=ids, dated=dated),
            "; ".join(line.reasons) + ("" if line.current else "; only the past"),
            line.score / best * (1.0 if line.current else PAST),
            tuple(line.fact_hashes),
            current=line.current,
            rank=rank,
        )
        for rank, line in enumerate(lines)
    ]


def _turn_items(
    question: str, store: ExperienceStore | None, skip: Collection[str], ids: bool, limit: int
) -> list[Item]:
    from zerolang.experience.recall import recall

    if store is None:
        return []
    hits = [hit for hit in recall(store, question, limit=limit) if hit.experience.session not in skip]
    hits = [hit for hit in hits if not noise(spoken(hit.experience.what))]
    best = max((hit.score for hit in hits), default=0.0) or 1.0
    items = []
    for rank, hit in enumerate(hits):
        e = hit.experience
        when = _day(e.when)
        who = e.who + (" (thinking)" if e.layer.value == "contemplation" else "")
        head = " ".join(part for part in (when, f"{who}:") if part)
        tag = f"[{e.id[:10]}] " if ids else ""
        text = f"{tag}{head} {' '.join(spoken(e.what).split())}"
        why = ", ".join(hit.reasons[:3])
        items.append(Item("turn", text, why, hit.score / best, (e.id,), e.when, e.who, rank=rank))
    return items


def _day(when: str | None) -> str:
    from zerolang.experience.dates import parse_date

    day = parse_date(when)
    return day.isoformat() if day is not None else ""


# ---- the budget ---------------------------------------------------------------------------------

HEADS = {"fact": "facts:", "turn": "conversations:"}
"""The line that heads each kind of item in a context."""


def _render(items: Sequence[Item]) -> str:
    lines: list[str] = []
    for kind in ("fact", "turn"):
        chosen = [item.text for item in items if item.kind == kind]
        if chosen:
            lines += [HEADS[kind], *chosen]
    return "\n".join(lines) + ("\n" if lines else "")


def _json(result: Answer, items: Sequence[Item], *, explain: bool) -> str:
    body: dict[str, object] = {"question": result.question, "as_of": result.at}
    body["lines"] = [item.to_json(explain=explain, ids=result.ids) for item in items]
    return _dumped(body)


def _dumped(value: object) -> str:
    """`value` as JSON with its letters as they are ("maría", not "mar\\u00eda", which costs a model
    three times the tokens), every character that does not print (a control, a bidirectional
    override, a line separator) escaped."""
    text = json.dumps(value, ensure_ascii=False)
    if text.isascii() or text.isprintable():
        return text
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)


def _fit(result: Answer, offered: list[Item], as_json: bool) -> None:
    """Choose what fits the budget: first every item in rank order, a long one cut to its share
    (`_share`: breadth before depth) or to what is left; then the cut ones whole again, best first,
    while they fit; then count the whole and take back from the end until it fits: what is printed
    never exceeds the budget."""
    budget = result.budget
    chosen: list[Item] = []
    if budget is None:
        chosen = list(offered)
    else:
        chosen = _choose(result, offered, budget, as_json)
        while chosen and _cost(result, chosen, as_json) > budget:
            result.dropped.append(chosen.pop())
    result.items = sorted(chosen, key=lambda item: (item.kind != "fact", item.rank))
    result.text = _render(result.items)
    result.tokens = count_tokens(result.text)
    result.json = _json(result, result.items, explain=result.explain)
    result.json_tokens = count_tokens(_json(result, result.items, explain=False))


def _cost(result: Answer, items: Sequence[Item], as_json: bool) -> int:
    if as_json:
        return count_tokens(_json(result, items, explain=False))
    return count_tokens(_render(items))


def _share(budget: int, offered: int) -> int:
    """The most tokens one line takes on the first pass: twice an even share, at least `SHARE`."""
    return max(SHARE, 2 * budget // max(1, offered))


def _choose(result: Answer, offered: list[Item], budget: int, as_json: bool) -> list[Item]:
    used = _cost(result, [], as_json)
    if as_json and used > budget:
        from zerolang.util.errors import ZeroError

        raise ZeroError(f"a budget of {budget} tokens is too small for the JSON form: its frame takes {used}")
    chosen: list[Item] = []
    whole: list[Item] = []  # what each chosen item was before it was cut

    def extra(item: Item) -> int:
        """What adding `item` costs: its line (in JSON, its object), and its heading if the first."""
        if as_json:
            return count_tokens(_dumped(item.to_json(explain=False, ids=result.ids))) + 1
        head = 0 if _has_kind(chosen, item) else count_tokens(HEADS[item.kind]) + 1
        return count_tokens(item.text) + 1 + head

    share = _share(budget, len(offered))
    for item in offered:
        text = item.text if count_tokens(item.text) <= share else clip(item.text, share)
        if not text:
            continue
        trying = item if text == item.text else _with_text(item, text)
        cost = extra(trying)
        if used + cost <= budget:
            chosen.append(trying)
            whole.append(item)
            used += cost
            continue
        around = cost - count_tokens(trying.text)
        room = budget - used - around
        if room >= SHORTEST_CUT:
            cut = clip(trying.text, room)
            if cut and count_tokens(cut) >= SHORTEST_CUT:
                chosen.append(_with_text(item, cut))
                whole.append(item)
                used += count_tokens(cut) + around
    for n, item in enumerate(chosen):  # what is left makes cut lines whole again, best first
        more = count_tokens(whole[n].text) - count_tokens(item.text)
        if more > 0 and used + more <= budget:
            chosen[n] = whole[n]
            used += more
    return chosen


def _has_kind(chosen: Sequence[Item], item: Item) -> bool:
    return any(other.kind == item.kind for other in chosen)


def _with_text(item: Item, text: str) -> Item:
    return replace(item, text=text)


_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def clip(text: str, tokens: int) -> str:
    """`text` cut to at most `tokens` cl100k tokens at a sentence's end, else a word's (`…` marks a
    word cut); empty where not even a word fits."""
    if count_tokens(text) <= tokens:
        return text
    ids = encoding().encode(text, disallowed_special=())
    head = str(encoding().decode(ids[: max(tokens - 1, 0)]))
    ends = [match.end() for match in _SENTENCE_END.finditer(head + " ")]
    if ends and ends[-1] >= len(head) // 2:
        cut = head[: ends[-1]].rstrip()
        if count_tokens(cut) <= tokens:
            return cut
    space = head.rfind(" ")
    while space > 0:
        cut = head[:space].rstrip(" ,;:-") + "…"
        if count_tokens(cut) <= tokens:
            return cut
        space = head.rfind(" ", 0, space)
    return ""
