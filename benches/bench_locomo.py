"""Evidence recall on LoCoMo: experiential capture + graph recall against plain BM25 over turns.

    python benches/bench_locomo.py ../shared/data/locomo/locomo_dev.json
    python benches/bench_locomo.py locomo10.json --json
    python benches/bench_locomo.py locomo10.json --chart docs/images/locomo_recall.png

Every session of every conversation is written as an OpenAI-style chat
transcript (`locomo_data.py`) and captured with `capture_files` into that
conversation's own store (SQLite, in a temporary folder). For each question
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
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from bm25 import BM25  # noqa: E402
from locomo_data import Conversation, load, write_transcripts  # noqa: E402
from machine import describe  # noqa: E402

from zerolang.experience.budget import render  # noqa: E402
from zerolang.experience.capture import capture_files  # noqa: E402
from zerolang.experience.recall import recall  # noqa: E402
from zerolang.storage.sqlite.experience import SqliteExperienceStore  # noqa: E402
from zerolang.util.tokens import count_tokens  # noqa: E402

KS = (1, 5, 10, 20)
WIDTH = 32


class Tally:
    """Recall@k per category, and the budgeted context's size and hold."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[int, float]]] = defaultdict(list)
        self.budget_tokens: list[int] = []
        self.budget_held: list[float] = []
        self.budget_full: list[float] = []

    def add(self, category: int, ranked: list[str], evidence: tuple[str, ...]) -> None:
        row = {k: len(set(ranked[:k]) & set(evidence)) / len(evidence) for k in KS}
        self.rows["all"].append(row)
        self.rows[str(category)].append(row)

    def summary(self) -> dict[str, object]:
        def mean(rows: list[dict[int, float]], k: int) -> float:
            return round(sum(row[k] for row in rows) / len(rows), 4) if rows else 0.0

        out: dict[str, object] = {f"recall@{k}": mean(self.rows["all"], k) for k in KS}
        out["by_category"] = {
            category: {f"recall@{k}": mean(rows, k) for k in KS} | {"questions": len(rows)}
            for category, rows in sorted(self.rows.items())
            if category != "all"
        }
        out["budget_tokens"] = round(statistics.fmean(self.budget_tokens)) if self.budget_tokens else 0
        out["budget_recall"] = round(statistics.fmean(self.budget_held), 4) if self.budget_held else 0.0
        out["budget_full_recall"] = round(statistics.fmean(self.budget_full), 4) if self.budget_full else 0.0
        return out


def _progress(total: int) -> Iterator[None]:
    """A rich progress bar on a terminal, nothing in a pipe."""
    if not sys.stderr.isatty():
        for _ in range(total):
            yield
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("questions"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
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


def run(path: Path, budget: int, hits_for_budget: int) -> dict[str, object]:
    conversations = load(path)
    ours, base = Tally(), Tally()
    latencies: list[float] = []
    full_context: list[int] = []
    ingest = 0.0
    with tempfile.TemporaryDirectory(prefix="locomo-") as folder:
        stores: dict[str, SqliteExperienceStore] = {}
        for conversation in conversations:
            where = Path(folder) / conversation.sample_id
            where.mkdir()
            files = write_transcripts(conversation, where)
            started = time.perf_counter()
            store = SqliteExperienceStore(where / "experiences.db")
            capture_files(store, files)
            ingest += time.perf_counter() - started
            stores[conversation.sample_id] = store
            full_context.append(count_tokens("".join(line + "\n" for line in conversation.turns.values())))
        total = sum(len(c.questions) for c in conversations)
        ticks = _progress(total)
        for conversation in conversations:
            store = stores[conversation.sample_id]
            baseline = BM25(conversation.turns)
            for question in conversation.questions:
                next(ticks, None)
                started = time.perf_counter()
                hits = recall(store, question.question, limit=hits_for_budget)
                rendering = render(store, question.question, hits, budget=budget)
                latencies.append((time.perf_counter() - started) * 1000)
                ranked = list(dict.fromkeys(s for hit in hits for s in hit.experience.sources))
                ours.add(question.category, ranked, question.evidence)
                held_ids = rendering.held()
                held = {s for hit in hits if hit.experience.id in held_ids for s in hit.experience.sources}
                ours.budget_tokens.append(rendering.tokens)
                ours.budget_held.append(len(held & set(question.evidence)) / len(question.evidence))
                full_ids = rendering.held(("full",))
                whole = {s for hit in hits if hit.experience.id in full_ids for s in hit.experience.sources}
                ours.budget_full.append(len(whole & set(question.evidence)) / len(question.evidence))

                plain = baseline.rank(question.question, max(hits_for_budget, max(KS)))
                base.add(question.category, plain, question.evidence)
                tokens, kept = _baseline_budget(plain, conversation, budget)
                base.budget_tokens.append(tokens)
                base.budget_held.append(len(kept & set(question.evidence)) / len(question.evidence))
                base.budget_full.append(base.budget_held[-1])
        next(ticks, None)
        for store in stores.values():
            store.close()
    latencies.sort()
    result: dict[str, object] = {
        "ours": ours.summary()
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
    }
    return result


def _pct(value: object) -> str:
    return f"{float(str(value)) * 100:.1f}%"


def print_table(result: dict[str, object]) -> None:
    ours = result["ours"]
    base = result["bm25"]
    assert isinstance(ours, dict) and isinstance(base, dict)
    print(f"LoCoMo evidence recall: {result['conversations']} conversations, {result['questions']} questions")
    print(f"machine: {describe()}\n")
    print(f"| {'':<{WIDTH}} | {'ours':>8} | {'BM25':>8} |")
    print(f"|{'-' * (WIDTH + 2)}|{'-' * 10}|{'-' * 10}|")
    for k in KS:
        print(
            f"| {f'recall@{k}':<{WIDTH}} | {_pct(ours[f'recall@{k}']):>8} | {_pct(base[f'recall@{k}']):>8} |"
        )
    for category in sorted(ours["by_category"]):
        mine, theirs = ours["by_category"][category], base["by_category"][category]
        label = f"recall@10, category {category} (n={mine['questions']})"
        print(f"| {label:<{WIDTH}} | {_pct(mine['recall@10']):>8} | {_pct(theirs['recall@10']):>8} |")
    budget = result["budget"]
    held = f"evidence in {budget:,} tokens"
    print(f"| {held:<{WIDTH}} | {_pct(ours['budget_recall']):>8} | {_pct(base['budget_recall']):>8} |")
    whole, mine, theirs = "  of which in full text", ours["budget_full_recall"], base["budget_full_recall"]
    print(f"| {whole:<{WIDTH}} | {_pct(mine):>8} | {_pct(theirs):>8} |")
    size = "budgeted context, tokens"
    print(f"| {size:<{WIDTH}} | {ours['budget_tokens']:>8,} | {base['budget_tokens']:>8,} |")
    print(f"\nfull conversation: {result['full_context_tokens']:,} tokens (mean)")
    latency = ours["latency_ms"]
    print(
        f"ingest {ours['ingest_seconds']} s; recall + budget rendering p50 {latency['p50']} ms, "
        f"p95 {latency['p95']} ms"
    )


def draw_chart(result: dict[str, object], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ours, base = result["ours"], result["bm25"]
    assert isinstance(ours, dict) and isinstance(base, dict)
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4), dpi=120)
    xs = list(KS)
    left.plot(xs, [ours[f"recall@{k}"] * 100 for k in KS], marker="o", label="zerolang experiences")
    left.plot(xs, [base[f"recall@{k}"] * 100 for k in KS], marker="s", label="BM25 over turns")
    left.set_xticks(xs)
    left.set_xlabel("k (turns retrieved)")
    left.set_ylabel("evidence recall@k (%)")
    left.set_ylim(0, 100)
    left.grid(alpha=0.3)
    left.legend(loc="lower right")
    categories = sorted(ours["by_category"])
    names = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial"}
    positions = range(len(categories))
    right.bar(
        [p - 0.2 for p in positions],
        [ours["by_category"][c]["recall@10"] * 100 for c in categories],
        0.4,
        label="ours",
    )
    right.bar(
        [p + 0.2 for p in positions],
        [base["by_category"][c]["recall@10"] * 100 for c in categories],
        0.4,
        label="BM25",
    )
    right.set_xticks(list(positions), [f"{c}\n{names.get(c, '')}" for c in categories])
    right.tick_params(axis="x", labelsize=8)
    right.set_ylabel("recall@10 (%)")
    right.set_ylim(0, 100)
    right.set_title("by LoCoMo category")
    right.grid(alpha=0.3, axis="y")
    right.legend()
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
    arguments = parser.parse_args()
    if not arguments.path.is_file():
        sys.exit(f"error: {arguments.path}: no such file (the LoCoMo data: locomo10.json)")
    result = run(arguments.path, arguments.budget, arguments.hits)
    if arguments.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    if arguments.chart:
        draw_chart(result, arguments.chart)


if __name__ == "__main__":
    main()
