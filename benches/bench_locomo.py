"""Evidence recall on LoCoMo: experiential capture + graph recall against plain BM25 over turns.

    python benches/bench_locomo.py ../shared/data/locomo/locomo_dev.json
    python benches/bench_locomo.py locomo10.json --json
    python benches/bench_locomo.py locomo10.json --loo --chart docs/images/locomo_recall.png
    python benches/bench_locomo.py locomo10.json --loo --engine both

Every session of every conversation is written as an OpenAI-style chat
transcript (`locomo_data.py`) and captured with `capture_files` into that
conversation's own space of one store (`--engine`: SQLite in a temporary folder, or a scratch
PostgreSQL database, `stores.py`; `both` runs each and says whether the figures agree, as
recall ranks alike on every engine). For each question
with evidence, `recall` ranks experiences; their transcript ids are LoCoMo
`dia_id`s, so recall@k is the share of the question's evidence among the first
k distinct turns retrieved. The same questions go to the baseline, plain BM25
over whole turns (`bm25.py`).

Budgeted context: `render` of the top `--hits` (default 50) experiences under
`--budget` tokens (default 2,000, exact cl100k); a piece of evidence is held
when its text (summary or full) is in that output (`budget_full_recall`: in
full text, or in a summary that is the whole text). The baseline's budgeted
context is its ranked turns, in full, while they fit. Full context is the whole
conversation (every turn as `speaker: text`), in tokens, the mean over
conversations. Latency is recall plus rendering per question, in process.
Categories are LoCoMo's numbers (1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop, 5 adversarial). Nothing is tuned per question or conversation.

`--loo` adds the leave-one-conversation-out estimate: a small grid of recall
weights (`loo.py`) is scored on every question once (over `memo_store.py`, so
the store is read once), and each conversation is scored, budget included, with
the grid point best on the other conversations; printed beside the in-sample
figures, per category and per conversation.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from bm25 import BM25  # noqa: E402
from locomo_data import Conversation, load, write_transcripts  # noqa: E402
from loo import GRID, changes, grid, leave_one_out, shipped  # noqa: E402
from machine import describe  # noqa: E402
from memo_store import MemoStore  # noqa: E402
from stores import location  # noqa: E402

from zerolang.experience.budget import render  # noqa: E402
from zerolang.experience.capture import capture_files  # noqa: E402
from zerolang.experience.recall import Hit, RecallWeights, recall  # noqa: E402
from zerolang.experience.store import ExperienceStore  # noqa: E402
from zerolang.memory.asking import answer  # noqa: E402
from zerolang.storage import open_experiences  # noqa: E402
from zerolang.util.tokens import count_tokens  # noqa: E402

KS = (1, 5, 10, 20)
SESSION_KS = (5, 10)
SESSION_KEYS = tuple(f"session_recall@{k}" for k in SESSION_KS)
WIDTH = 34


class Tally:
    """Recall@k per category and per conversation, and the budgeted context's size and hold."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, float]]] = defaultdict(list)
        self.conversations: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        self.budget_tokens: list[int] = []
        self.budget_held: list[float] = []
        self.budget_full: list[float] = []
        self.one_held: list[float] = []  # in the one context `Memory.ask` writes (`memory.asking`)
        self.one_tokens: list[int] = []

    def add(
        self,
        category: int,
        ranked: list[str],
        evidence: tuple[str, ...],
        where: str = "",
        session_of: Mapping[str, int] | None = None,
    ) -> None:
        row = {f"recall@{k}": len(set(ranked[:k]) & set(evidence)) / len(evidence) for k in KS}
        if session_of is not None:
            row |= session_recall(ranked, evidence, session_of)
        self.rows["all"].append(row)
        self.rows[str(category)].append(row)
        self.conversations[where]["all"].append(row)
        self.conversations[where][str(category)].append(row)

    def summary(self) -> dict[str, object]:
        def mean(rows: list[dict[str, float]], key: str) -> float:
            return round(sum(row[key] for row in rows) / len(rows), 4) if rows else 0.0

        def figures(rows: list[dict[str, float]]) -> dict[str, float]:
            return {key: mean(rows, key) for key in (rows[0] if rows else {})}

        out: dict[str, object] = figures(self.rows["all"])
        out["by_category"] = {
            category: figures(rows) | {"questions": len(rows)}
            for category, rows in sorted(self.rows.items())
            if category != "all"
        }
        out["by_conversation"] = {
            name: {
                "questions": len(rows["all"]),
                "recall@10": mean(rows["all"], "recall@10"),
                "category_1_recall@10": mean(rows["1"], "recall@10") if rows["1"] else None,
            }
            | {key: mean(rows["all"], key) for key in SESSION_KEYS if key in rows["all"][0]}
            for name, rows in self.conversations.items()
        }
        out["budget_tokens"] = round(statistics.fmean(self.budget_tokens)) if self.budget_tokens else 0
        out["budget_recall"] = round(statistics.fmean(self.budget_held), 4) if self.budget_held else 0.0
        out["budget_full_recall"] = round(statistics.fmean(self.budget_full), 4) if self.budget_full else 0.0
        if self.one_held:
            out["one_context_recall"] = round(statistics.fmean(self.one_held), 4)
            out["one_context_tokens"] = round(statistics.fmean(self.one_tokens))
        return out


def session_misses(ours: Tally, base: Tally) -> dict[str, object]:
    """The session guarantee's figure: per k, the questions whose evidence session the baseline's
    first k turns show and ours' do not (`session_misses_bm25_catches@k`, what the guarantee should
    shrink), and the other way round (`bm25_misses_ours_catch@k`); overall and per conversation.
    Both tallies hold the same questions in the same order."""

    def count(mine: list[dict[str, float]], theirs: list[dict[str, float]]) -> dict[str, int]:
        out: dict[str, int] = {}
        for k in SESSION_KS:
            key = f"session_recall@{k}"
            pairs = list(zip(mine, theirs, strict=True))
            out[f"session_misses_bm25_catches@{k}"] = sum(1 for a, b in pairs if b[key] and not a[key])
            out[f"bm25_misses_ours_catch@{k}"] = sum(1 for a, b in pairs if a[key] and not b[key])
        return out

    return count(ours.rows["all"], base.rows["all"]) | {
        "by_conversation": {
            name: count(rows["all"], base.conversations[name]["all"])
            for name, rows in ours.conversations.items()
        }
    }


def _with_misses(summary: dict[str, object], misses: dict[str, object]) -> dict[str, object]:
    """`summary` with `session_misses`' figures, per conversation too."""
    per = misses.pop("by_conversation")
    conversations = summary["by_conversation"]
    assert isinstance(per, dict) and isinstance(conversations, dict)
    for name, figures in per.items():
        conversations[name] |= figures
    return summary | misses


def session_recall(
    ranked: list[str], evidence: tuple[str, ...], session_of: Mapping[str, int]
) -> dict[str, float]:
    """Session-level recall@k: 1 when the session of one of the first k turns holds evidence, else 0."""
    wanted = {session_of[e] for e in evidence}
    return {
        f"session_recall@{k}": float(any(session_of.get(turn) in wanted for turn in ranked[:k]))
        for k in SESSION_KS
    }


def _progress(total: int, label: str = "questions") -> Iterator[None]:
    """A rich progress bar on a terminal, nothing in a pipe."""
    if not sys.stderr.isatty():
        for _ in range(total):
            yield
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("locomo", total=total)
        for _ in range(total):
            yield
            bar.advance(task)


def _baseline_budget(ranked: list[str], conversation: Conversation, budget: int) -> tuple[int, set[str]]:
    lines: list[str] = []
    held: set[str] = set()
    used = 0
    for dia in ranked:
        cost = count_tokens(conversation.turns[dia] + "\n")
        if used + cost <= budget:
            lines.append(conversation.turns[dia])
            held.add(dia)
            used += cost
    return count_tokens("".join(line + "\n" for line in lines)), held


def _sources(hits: list[Hit]) -> list[str]:
    return list(dict.fromkeys(s for hit in hits for s in hit.experience.sources))


def _score(
    conversations: list[Conversation],
    stores: Mapping[str, ExperienceStore],
    weights: Callable[[str], RecallWeights],
    budget: int,
    hits_for_budget: int,
    latencies: list[float] | None = None,
    one_context: bool = False,
) -> Tally:
    """Recall and the budgeted context for every question, with each conversation's weights."""
    tally = Tally()
    ticks = _progress(sum(len(c.questions) for c in conversations))
    for conversation in conversations:
        store, w = stores[conversation.sample_id], weights(conversation.sample_id)
        for question in conversation.questions:
            next(ticks, None)
            started = time.perf_counter()
            hits = recall(store, question.question, limit=hits_for_budget, weights=w)
            rendering = render(store, question.question, hits, budget=budget, weights=w)
            if latencies is not None:
                latencies.append((time.perf_counter() - started) * 1000)
            tally.add(
                question.category,
                _sources(hits),
                question.evidence,
                conversation.sample_id,
                conversation.session_of,
            )
            evidence = set(question.evidence)
            for kinds, into in ((("summary", "full"), tally.budget_held), (("full",), tally.budget_full)):
                ids = rendering.held(kinds)
                held = {s for hit in hits if hit.experience.id in ids for s in hit.experience.sources}
                into.append(len(held & evidence) / len(evidence))
            tally.budget_tokens.append(rendering.tokens)
            if one_context:
                one = answer(question.question, facts=None, experiences=store, budget=budget)
                said = store.experiences([i for item in one.items for i in item.ids])
                kept = {s for e in said.values() for s in e.sources}
                tally.one_held.append(len(kept & evidence) / len(evidence))
                tally.one_tokens.append(one.tokens)
    next(ticks, None)
    return tally


def _loo(
    conversations: list[Conversation],
    stores: Mapping[str, ExperienceStore],
    budget: int,
    hits: int,
    base: Tally,
    values: Mapping[str, tuple[float, ...]] = GRID,
) -> dict[str, object]:
    """Recall@10 of every grid point on every question, then each conversation with the point
    chosen on the others (`loo.py`), scored in full (budget included)."""
    memo = {name: MemoStore(store) for name, store in stores.items()}
    points = grid(values)
    scores: list[dict[str, list[float]]] = []
    ticks = _progress(len(points), "settings")
    for point in points:
        next(ticks, None)
        by_conversation: dict[str, list[float]] = {}
        for conversation in conversations:
            store = memo[conversation.sample_id]
            by_conversation[conversation.sample_id] = [
                len(set(_sources(recall(store, q.question, limit=10, weights=point))[:10]) & set(q.evidence))
                / len(q.evidence)
                for q in conversation.questions
            ]
        scores.append(by_conversation)
    next(ticks, None)
    chosen = leave_one_out(scores)
    tally = _score(conversations, memo, lambda name: points[chosen[name]], budget, hits)
    rule = shipped(scores)
    return _with_misses(tally.summary(), session_misses(tally, base)) | {
        "grid": {name: list(tried) for name, tried in values.items()},
        "grid_points": len(points),
        "chosen": {name: changes(points[index]) for name, index in chosen.items()},
        "defaults_rule": changes(points[rule]),
        "defaults_follow_rule": rule == 0 or points[rule] == points[0],
    }


def run(
    path: Path,
    budget: int,
    hits_for_budget: int,
    loo: bool = False,
    one_context: bool = False,
    engine: str = "sqlite",
    values: Mapping[str, tuple[float, ...]] = GRID,
) -> dict[str, object]:
    conversations = load(path)
    base = Tally()
    latencies: list[float] = []
    full_context: list[int] = []
    ingest = 0.0
    with tempfile.TemporaryDirectory(prefix="locomo-") as folder, location(engine) as database:
        stores: dict[str, ExperienceStore] = {}
        for conversation in conversations:
            where = Path(folder) / conversation.sample_id
            where.mkdir()
            files = write_transcripts(conversation, where)
            started = time.perf_counter()
            # one database, each conversation in a space of its own (spaces share no row)
            store = open_experiences(database, space=conversation.sample_id)
            capture_files(store, files)
            ingest += time.perf_counter() - started
            stores[conversation.sample_id] = store
            full_context.append(count_tokens("".join(line + "\n" for line in conversation.turns.values())))
        total = sum(len(c.questions) for c in conversations)
        defaults = RecallWeights()
        ours = _score(
            conversations, stores, lambda _: defaults, budget, hits_for_budget, latencies, one_context
        )
        for conversation in conversations:
            baseline = BM25(conversation.turns)
            for question in conversation.questions:
                plain = baseline.rank(question.question, max(hits_for_budget, max(KS)))
                base.add(
                    question.category,
                    plain,
                    question.evidence,
                    conversation.sample_id,
                    conversation.session_of,
                )
                tokens, kept = _baseline_budget(plain, conversation, budget)
                base.budget_tokens.append(tokens)
                base.budget_held.append(len(kept & set(question.evidence)) / len(question.evidence))
                base.budget_full.append(base.budget_held[-1])
        left_out = _loo(conversations, stores, budget, hits_for_budget, base, values) if loo else None
        for store in stores.values():
            store.close()
    latencies.sort()
    result: dict[str, object] = {
        "ours": _with_misses(ours.summary(), session_misses(ours, base))
        | {
            "ingest_seconds": round(ingest, 2),
            "latency_ms": {
                "p50": round(statistics.median(latencies), 2),
                "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
            },
        },
        "bm25": base.summary(),
        "full_context_tokens": round(statistics.fmean(full_context)),
        "conversations": len(conversations),
        "questions": total,
        "budget": budget,
        "engine": engine,
    }
    if left_out is not None:
        result["loo"] = left_out
    return result


def _pct(value: object) -> str:
    return f"{float(str(value)) * 100:.1f}%"


def _recall_rows(scores: dict[str, Any]) -> list[tuple[str, Callable[[dict[str, Any]], object]]]:
    """The table's recall rows, each a label and how to read its figure from one side's scores: turn
    recall@k, then session-level recall@k, then both by category."""

    def overall(key: str) -> Callable[[dict[str, Any]], object]:
        return lambda side: side[key]

    def of(category: str, key: str) -> Callable[[dict[str, Any]], object]:
        return lambda side: side["by_category"][category][key]

    rows = [(f"recall@{k}", overall(f"recall@{k}")) for k in KS]
    rows += [(f"session recall@{k}", overall(f"session_recall@{k}")) for k in SESSION_KS]
    for key, name in (
        ("recall@10", "recall@10"),
        *((f"session_recall@{k}", f"session@{k}") for k in SESSION_KS),
    ):
        for category, figures in sorted(scores["by_category"].items()):
            rows.append((f"{name}, category {category} (n={figures['questions']})", of(category, key)))
    return rows


def print_table(result: dict[str, object]) -> None:
    ours = result["ours"]
    base = result["bm25"]
    assert isinstance(ours, dict) and isinstance(base, dict)
    print(f"LoCoMo evidence recall: {result['conversations']} conversations, {result['questions']} questions")
    print(f"machine: {describe()}\n")
    print(f"| {'':<{WIDTH}} | {'ours':>8} | {'BM25':>8} |")
    print(f"|{'-' * (WIDTH + 2)}|{'-' * 10}|{'-' * 10}|")
    for label, figure in _recall_rows(ours):
        print(f"| {label:<{WIDTH}} | {_pct(figure(ours)):>8} | {_pct(figure(base)):>8} |")
    budget = result["budget"]
    held = f"evidence in {budget:,} tokens"
    print(f"| {held:<{WIDTH}} | {_pct(ours['budget_recall']):>8} | {_pct(base['budget_recall']):>8} |")
    whole, mine, theirs = "  of which in full text", ours["budget_full_recall"], base["budget_full_recall"]
    print(f"| {whole:<{WIDTH}} | {_pct(mine):>8} | {_pct(theirs):>8} |")
    if "one_context_recall" in ours:
        one = f"evidence in {budget:,} tokens, one context"
        print(f"| {one:<{WIDTH}} | {_pct(ours['one_context_recall']):>8} | {'':>8} |")
        print(f"| {'  its tokens':<{WIDTH}} | {ours['one_context_tokens']:>8,} | {'':>8} |")
    size = "budgeted context, tokens"
    print(f"| {size:<{WIDTH}} | {ours['budget_tokens']:>8,} | {base['budget_tokens']:>8,} |")
    print(f"\n{_misses_line(ours)}")
    print(f"\nfull conversation: {result['full_context_tokens']:,} tokens (mean)")
    latency = ours["latency_ms"]
    print(
        f"ingest {ours['ingest_seconds']} s; recall + budget rendering p50 {latency['p50']} ms, "
        f"p95 {latency['p95']} ms"
    )
    loo = result.get("loo")
    if isinstance(loo, dict):
        print_loo(ours, loo, base, int(str(budget)))


def _misses_line(side: dict[str, Any]) -> str:
    """The session guarantee's figure in words."""
    ks = ", ".join(f"@{k} {side[f'session_misses_bm25_catches@{k}']}" for k in SESSION_KS)
    other = ", ".join(f"@{k} {side[f'bm25_misses_ours_catch@{k}']}" for k in SESSION_KS)
    return f"session misses BM25 catches (questions): {ks}; the other way round: {other}"


def print_loo(ours: dict[str, Any], loo: dict[str, Any], base: dict[str, Any], budget: int) -> None:
    print(
        f"\nleave-one-conversation-out: each conversation scored with the settings best on the others "
        f"({loo['grid_points']} settings: {', '.join(f'{k} {v}' for k, v in loo['grid'].items())})\n"
    )
    print(f"| {'':<{WIDTH}} | {'in-sample':>9} | {'leave-one-out':>13} | {'BM25':>8} |")
    print(f"|{'-' * (WIDTH + 2)}|{'-' * 11}|{'-' * 15}|{'-' * 10}|")

    def line(label: str, mine: object, theirs: object, other: object) -> None:
        print(f"| {label:<{WIDTH}} | {_pct(mine):>9} | {_pct(theirs):>13} | {_pct(other):>8} |")

    for label, figure in _recall_rows(loo):
        line(label, figure(ours), figure(loo), figure(base))
    line(f"evidence in {budget:,} tokens", ours["budget_recall"], loo["budget_recall"], base["budget_recall"])
    full = "budget_full_recall"
    line("  of which in full text", ours[full], loo[full], base[full])
    head = f"| {'conversation':<14} | {'n':>4} | {'recall@10 in / out':>18} | {'category 1 in / out':>19} |"
    print(f"\n{head} chosen |")
    print(f"|{'-' * 16}|{'-' * 6}|{'-' * 20}|{'-' * 21}|--------|")
    for name, row in loo["by_conversation"].items():
        mine = ours["by_conversation"][name]
        one = (
            f"{_pct(mine['category_1_recall@10'])} / {_pct(row['category_1_recall@10'])}"
            if row["category_1_recall@10"] is not None
            else "-"
        )
        chosen = " ".join(f"{k} {v}" for k, v in loo["chosen"][name].items())
        recall10 = f"{_pct(mine['recall@10'])} / {_pct(row['recall@10'])}"
        print(f"| {_escape(name):<14} | {row['questions']:>4} | {recall10:>18} | {one:>19} | {chosen} |")
    print(f"\nleave-one-out {_misses_line(loo)}")
    rule = " ".join(f"{k} {v}" for k, v in loo["defaults_rule"].items())
    agree = "the shipped defaults" if loo["defaults_follow_rule"] else "NOT the shipped defaults"
    print(f"\nbest on average over the folds (the rule for the defaults): {rule} ({agree})")


def _escape(text: str) -> str:
    """A name from the data file, printable in one table cell."""
    return "".join(c if c.isprintable() and c != "|" else "?" for c in text)[:14]


def draw_chart(result: dict[str, object], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ours, base, loo = result["ours"], result["bm25"], result.get("loo")
    assert isinstance(ours, dict) and isinstance(base, dict)
    series: list[tuple[str, dict[str, Any], str]] = [("zerolang, in-sample", ours, "o")]
    if isinstance(loo, dict):
        series.append(("zerolang, leave-one-out", loo, "^"))
    series.append(("BM25 over turns", base, "s"))
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4), dpi=120)
    xs = list(KS)
    for label, scores, marker in series:
        left.plot(xs, [scores[f"recall@{k}"] * 100 for k in KS], marker=marker, label=label)
    left.set_xticks(xs)
    left.set_xlabel("k (turns retrieved)")
    left.set_ylabel("evidence recall@k (%)")
    left.set_ylim(0, 100)
    left.grid(alpha=0.3)
    left.legend(loc="lower right")
    categories = sorted(ours["by_category"])
    names = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial"}
    width = 0.8 / len(series)
    for index, (label, scores, _) in enumerate(series):
        offset = (index - (len(series) - 1) / 2) * width
        right.bar(
            [p + offset for p in range(len(categories))],
            [scores["by_category"][c]["recall@10"] * 100 for c in categories],
            width,
            label=label.replace("zerolang, ", ""),
        )
    right.set_xticks(list(range(len(categories))), [f"{c}\n{names.get(c, '')}" for c in categories])
    right.tick_params(axis="x", labelsize=8)
    right.set_ylabel("recall@10 (%)")
    right.set_ylim(0, 100)
    right.set_title("by LoCoMo category")
    right.grid(alpha=0.3, axis="y")
    right.legend(fontsize=8)
    figure.suptitle(f"LoCoMo evidence recall ({result['questions']} questions)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="locomo10.json, or the development split")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--budget", type=int, default=2000, help="tokens of budgeted context (default 2000)")
    parser.add_argument("--hits", type=int, default=50, help="experiences ranked for the budget (default 50)")
    parser.add_argument("--chart", type=Path, help="also draw the results to this PNG")
    parser.add_argument(
        "--loo",
        action="store_true",
        help="also the leave-one-conversation-out estimate (settings from the others)",
    )
    parser.add_argument(
        "--one-context",
        action="store_true",
        help="also the evidence held in the one context `zero recall` and `Memory.ask` write",
    )
    parser.add_argument(
        "--engine",
        choices=(*ENGINES, "both"),
        default="sqlite",
        help="where the stores live (PostgreSQL: benches/stores.py); both: each, and whether they agree",
    )
    parser.add_argument(
        "--grid",
        nargs="+",
        metavar="WEIGHT=V,V",
        help="with --loo: try these values of these weights only (a quicker estimate than loo.GRID's)",
    )
    arguments = parser.parse_args()
    if not arguments.path.is_file():
        sys.exit(f"error: {arguments.path}: no such file (the LoCoMo data: locomo10.json)")
    engines = ENGINES if arguments.engine == "both" else (arguments.engine,)
    results = {
        engine: run(
            arguments.path,
            arguments.budget,
            arguments.hits,
            arguments.loo,
            arguments.one_context,
            engine,
            _grid(arguments.grid),
        )
        for engine in engines
    }
    result = results[engines[0]]
    if arguments.json:
        both = {"engines": results, "same_figures": same_figures(*results.values())}
        print(json.dumps(result if len(engines) == 1 else both, indent=2))
    else:
        for engine, each in results.items():
            print(f"engine: {engine}")
            print_table(each)
        if len(engines) > 1:
            print(f"the same figures on {' and '.join(engines)}: {same_figures(*results.values())}")
    if arguments.chart:
        draw_chart(result, arguments.chart)


def _grid(given: list[str] | None) -> dict[str, tuple[float, ...]]:
    """`--grid`'s weights and values (`sessions=0,2 kept=0,5`), or loo.GRID."""
    if not given:
        return GRID
    out: dict[str, tuple[float, ...]] = {}
    for item in given:
        name, _, values = item.partition("=")
        if name not in {f.name for f in fields(RecallWeights)} or not values:
            sys.exit(f"error: --grid {item}: not WEIGHT=V,V with a RecallWeights weight")
        out[name] = tuple(float(value) for value in values.split(","))
    return out


ENGINES = ("sqlite", "postgres")
TIMED = ("ingest_seconds", "latency_ms")  # what the engines may differ in: time, not figures


def figures(result: Mapping[str, object]) -> dict[str, object]:
    """A run's figures without its engine and timings."""
    out = {key: value for key, value in result.items() if key != "engine"}
    ours = out["ours"]
    assert isinstance(ours, dict)
    out["ours"] = {key: value for key, value in ours.items() if key not in TIMED}
    return out


def same_figures(*results: Mapping[str, object]) -> bool:
    """Whether every run reports the same figures (recall, session recall, budget, leave-one-out)."""
    return all(figures(result) == figures(results[0]) for result in results)


if __name__ == "__main__":
    main()
