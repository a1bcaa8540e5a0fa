"""Lazy reconstruction under a token budget (seed 002 part 2).

What recall found is printed in three layers, each only while it fits:

1. the **graph index**: one line per hit (short id, layer, who, turn)
   and the edges among the hits (same turn, neighbouring turns, a shared
   concept), always first;
2. **summaries**: 10-16 tokens per hit, in rank order;
3. **full text** (and why it was found) for the best hits that still fit, in rank order
   (one that does not fit is skipped and the next, shorter one may still fit), under a
   line `@ when` printed once for the lines of one when (the whens in the order of their
   best hit). A hit shown in full has no summary: its full text takes the summary's place,
   and the tokens that frees go to the next hits; a text short enough to be its own
   summary is not repeated.

Token counts are exact cl100k (`zerolang.util.tokens`). Items are chosen
greedily by their own counts (a first pass gives the hits' index lines at most
30% of the budget, summaries up to 70%, edges up to 75%, full text the rest; a
second pass fills what is left; only hits in the index get a summary or full
text), then the whole output is counted again and
items are taken back from the end until it fits, so what is printed never
exceeds the budget. Ids are the first 10 hex digits of the experience's
SHA-256.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from zerolang.experience.forgotten import Forgotten
from zerolang.experience.recall import Hit, RecallWeights
from zerolang.experience.store import ExperienceStore
from zerolang.util.tokens import count_tokens

SHORT = 10
SUMMARY_TOKENS = 12  # the gist's share of a summary line; with its id the line is 10-16 tokens
MAX_EDGES_PER_HIT = 3


@dataclass(frozen=True, slots=True)
class Item:
    kind: str  # "node", "edge", "summary", "full"
    key: str
    text: str
    data: dict[str, object]
    group: str = ""  # a full text's when: the lines of one when are printed under it once


@dataclass(slots=True)
class Rendering:
    text: str
    tokens: int
    budget: int | None
    items: list[Item] = field(default_factory=list)
    hits: int = 0

    def held(self, kinds: Sequence[str] = ("summary", "full")) -> set[str]:
        """The full ids of the hits whose text (of these kinds) made it into the output.

        A summary that is the whole text (a short one) counts as full text too.
        """
        return {
            str(item.data["id"])
            for item in self.items
            if item.kind in kinds
            or (item.kind == "summary" and "full" in kinds and item.data.get("complete"))
        }


def short(ident: str) -> str:
    return ident[:SHORT]


def gist(text: str, limit: int = SUMMARY_TOKENS) -> str:
    """The text's beginning on one line, cut to at most `limit` cl100k tokens (`…` marks a cut)."""
    from zerolang.util.tokens import encoding

    flat = " ".join(text.split())
    ids = encoding().encode(flat, disallowed_special=())
    if len(ids) <= limit:
        return flat
    cut = str(encoding().decode(ids[: limit - 1])).rstrip()
    return cut + "…"


def items_for(
    store: ExperienceStore, hits: Sequence[Hit], weights: RecallWeights | None = None
) -> list[Item]:
    """Every item the three layers could show for these hits, in the order they are offered."""
    w = weights or RecallWeights()
    nodes: list[Item] = []
    summaries: list[Item] = []
    full: list[Item] = []
    turn_label: dict[str, str] = {}
    for hit in hits:
        e = hit.experience
        turn_label.setdefault(e.turn, f"t{len(turn_label) + 1}")
        data: dict[str, object] = {
            "id": e.id,
            "layer": e.layer.value,
            "who": e.who,
            "turn": turn_label[e.turn],
            "when": e.when,
            "score": hit.score,
            "why": hit.reasons[0] if hit.reasons else "",
        }
        nodes.append(Item("node", e.id, f"{short(e.id)} {e.layer.value} {e.who} {turn_label[e.turn]}", data))
        summary = gist(e.what)
        body = " ".join(e.what.split())
        whole = summary == body  # a short text is its own summary: no separate full text
        about: dict[str, object] = {"id": e.id, "text": summary, "complete": whole}
        summaries.append(Item("summary", e.id, f"{short(e.id)} {summary}", about))
        if whole:
            continue
        why = hit.reasons[0] if hit.reasons else ""
        detail: dict[str, object] = {"id": e.id, "text": e.what, "why": hit.reasons}
        full.append(Item("full", e.id, f"{short(e.id)} [{why}] {body}", detail, e.when or ""))
    return nodes + summaries + _edges(store, hits, turn_label, w) + full


def _edges(
    store: ExperienceStore, hits: Sequence[Hit], turn_label: dict[str, str], w: RecallWeights
) -> list[Item]:
    edges: list[Item] = []
    per_hit: dict[str, int] = {}

    def add(a: str, b: str, kind: str) -> None:
        if per_hit.get(a, 0) >= MAX_EDGES_PER_HIT or per_hit.get(b, 0) >= MAX_EDGES_PER_HIT:
            return
        per_hit[a] = per_hit.get(a, 0) + 1
        per_hit[b] = per_hit.get(b, 0) + 1
        edges.append(
            Item("edge", f"{a}-{b}", f"{short(a)} -{kind}- {short(b)}", {"a": a, "b": b, "kind": kind})
        )

    by_turn: dict[str, list[str]] = {}
    for hit in hits:
        by_turn.setdefault(hit.experience.turn, []).append(hit.experience.id)
    for members in by_turn.values():
        for a, b in itertools.pairwise(members):
            add(a, b, "turn")
    for turn, other in store.neighbour_turns(by_turn):
        if other in by_turn and int(turn_label[turn][1:]) < int(turn_label[other][1:]):
            add(by_turn[turn][0], by_turn[other][0], "next")
    ids = [hit.experience.id for hit in hits]
    mentions = store.mentions_of(ids)
    total = max(store.counts()["experiences"], 1)
    frequency = store.concept_frequency({concept for _, concept, _ in mentions})
    holders: dict[str, list[str]] = {}
    for ident, concept, _ in mentions:
        if frequency.get(concept, 0) <= w.common * total:
            holders.setdefault(concept, []).append(ident)
    shared = {c: members for c, members in holders.items() if len(members) > 1}
    labels = store.concept_labels(shared)
    blocked = Forgotten.of(store.forgotten_terms())
    shared = {c: m for c, m in shared.items() if not blocked.mentions(labels.get(c, ""))}
    order = {ident: index for index, ident in enumerate(ids)}
    for concept in sorted(shared, key=lambda c: (min(order[i] for i in shared[c]), labels.get(c, c))):
        members = sorted(shared[concept], key=lambda i: order[i])
        for a, b in itertools.pairwise(members):
            add(a, b, f"{labels.get(concept, concept)!r}")
    return edges


def render(
    store: ExperienceStore,
    query: str,
    hits: Sequence[Hit],
    *,
    budget: int | None,
    as_json: bool = False,
    weights: RecallWeights | None = None,
) -> Rendering:
    """The budgeted output for these hits (the whole of it when `budget` is None)."""
    offered = items_for(store, hits, weights)
    draw: Callable[[list[Item], str], str] = _json if as_json else _text
    framing = count_tokens(draw([], query))
    chosen = offered if budget is None else _choose(offered, budget, framing, as_json)
    chosen = _complete(chosen)
    text = draw(chosen, query) if budget is None or framing <= budget else ""
    tokens = count_tokens(text)
    while budget is not None and tokens > budget and chosen:
        chosen = _complete(chosen[:-1])
        text = draw(chosen, query)
        tokens = count_tokens(text)
    if budget is not None and tokens > budget:
        text, tokens, chosen = "", 0, []
    return Rendering(text, tokens, budget, chosen, len(hits))


SHARES = {"node": 0.3, "summary": 0.7, "edge": 0.75, "full": 1.0}
"""A first pass fills the index up to 30% of the budget, summaries up to 70%, edges up to 75%, full
text the rest; a second pass then offers what is left to whatever room remains."""


def _choose(offered: list[Item], budget: int, framing: int, as_json: bool) -> list[Item]:
    taken: set[int] = set()
    listed: set[str] = set()
    kinds: set[str] = set()
    groups: set[str] = set()
    summary_at = {item.key: index for index, item in enumerate(offered) if item.kind == "summary"}
    costs = [_cost(item, as_json) for item in offered]
    headings = {kind: count_tokens(heading + "\n") for kind, heading in _HEADINGS.items()}
    group_lines = {group: count_tokens(_group_line(group) + "\n") for group in {i.group for i in offered}}
    shown_in_full: set[str] = set()
    used = framing
    for cap in (True, False):
        changed = True
        while changed:  # a full text that replaces its summary frees room for what did not fit
            changed = False
            for index, item in enumerate(offered):
                if index in taken or (item.kind in {"summary", "full"} and item.key not in listed):
                    continue
                if item.kind == "summary" and item.key in shown_in_full:
                    continue
                cost = costs[index]
                if not as_json and item.kind not in kinds:
                    cost += headings[item.kind]
                if not as_json and item.group and item.group not in groups:
                    cost += group_lines[item.group]
                replaced = summary_at.get(item.key, -1) if item.kind == "full" else -1
                refund = costs[replaced] if replaced in taken else 0
                limit = budget * SHARES[item.kind] if cap else budget
                if used + cost - refund <= limit:
                    taken.add(index)
                    kinds.add(item.kind)
                    used += cost - refund
                    if item.kind == "node":
                        listed.add(item.key)
                    if item.kind == "full":
                        shown_in_full.add(item.key)
                        groups.add(item.group)
                        if refund:
                            taken.discard(replaced)
                            changed = True
    return [item for index, item in enumerate(offered) if index in taken]


def _complete(chosen: list[Item]) -> list[Item]:
    """Drop edges whose ends are not both listed (a budget may cut the index)."""
    nodes = {item.key for item in chosen if item.kind == "node"}
    return [
        item
        for item in chosen
        if item.kind != "edge" or (item.data["a"] in nodes and item.data["b"] in nodes)
    ]


def _cost(item: Item, as_json: bool) -> int:
    if as_json:
        return count_tokens(json.dumps(item.data, ensure_ascii=False)) + 2
    return count_tokens(item.text + "\n")


_HEADINGS = {"node": "graph:", "edge": "edges:", "summary": "summaries:", "full": "full:"}


def _group_line(when: str) -> str:
    return f"@ {when}"


def _grouped(items: list[Item]) -> list[str]:
    """Full texts under their when, printed once: the whens in the order of their best line."""
    order: dict[str, list[Item]] = {}
    for item in items:
        order.setdefault(item.group, []).append(item)
    lines: list[str] = []
    for group, members in order.items():
        if group:
            lines.append(_group_line(group))
        lines.extend(item.text for item in members)
    return lines


def _text(chosen: list[Item], query: str) -> str:
    lines = [f"recall {json.dumps(' '.join(query.split()), ensure_ascii=False)}"]
    for kind, heading in _HEADINGS.items():
        section = [item for item in chosen if item.kind == kind]
        if section:
            lines.append(heading)
            lines.extend(_grouped(section) if kind == "full" else [item.text for item in section])
    return "\n".join(lines) + "\n"


def _json(chosen: list[Item], query: str) -> str:
    document = {
        "query": query,
        "graph": [item.data for item in chosen if item.kind == "node"],
        "edges": [item.data for item in chosen if item.kind == "edge"],
        "summaries": [item.data for item in chosen if item.kind == "summary"],
        "full": [item.data for item in chosen if item.kind == "full"],
    }
    from zerolang.util.escapes import json_text

    return json_text(document, indent=None) + "\n"
