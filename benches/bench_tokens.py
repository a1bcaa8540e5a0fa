"""Tokens per memory: `.0c`, its levels, deltas, and the formats an agent would otherwise use.

The harness of seed 000 §5. Memories of 100, 1,000 and 10,000 concepts with
3 relations each (`zerolang.knowledge.formats.synthetic`: fixed seed, everyday labels,
one context per ten subjects) are ingested into a store and written as:
verbose `.0` (the memory compiler's graphs), `.0c` (= L2), L0, L1, a delta of
the last 10% of the facts, and reference rows: JSON as the store holds the
records (hashes included, pretty and compact) and, hash-free with labels
inline (the same information as `.0c`), compact JSON and TOON (`toon-format`).
Tokens are cl100k (`tiktoken`, offline encoding). For each: total tokens, per
concept, per relation, serialize and parse time, and round-trip fidelity.

    python benches/bench_tokens.py            # 100, 1K, 10K
    python benches/bench_tokens.py --quick    # 100, 1K
    python benches/bench_tokens.py --choices  # each .0c design choice against its alternatives

Prints a markdown table and writes it to benches/results/tokens.md, with a
chart benches/results/tokens.png (when matplotlib is installed).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zerolang.knowledge.compiler import compile_record  # noqa: E402
from zerolang.knowledge.formats import delta as deltas  # noqa: E402
from zerolang.knowledge.formats import jsonform, synthetic  # noqa: E402
from zerolang.knowledge.formats.compact import parse, serialize  # noqa: E402
from zerolang.knowledge.formats.exchange import verbose  # noqa: E402
from zerolang.knowledge.formats.levels import Level, read_l0, read_l1, render  # noqa: E402
from zerolang.knowledge.formats.model import Snapshot, read_store  # noqa: E402
from zerolang.knowledge.store import MemoryStore  # noqa: E402
from zerolang.storage import open_store  # noqa: E402
from zerolang.util.tokens import count_tokens, tokenizer_version  # noqa: E402

RELATIONS_PER_CONCEPT = 3
SEED = 7


@dataclass
class Row:
    scale: int
    name: str
    tokens: int
    concepts: int
    relations: int
    write_ms: float
    read_ms: float | None
    fidelity: str


T = TypeVar("T")


def timed(function: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    value = function()
    return value, (time.perf_counter() - start) * 1000


def stores(scale: int) -> tuple[Snapshot, MemoryStore, Snapshot]:
    """The full memory, and a store holding its first 90% with that part's snapshot."""
    inputs = synthetic.inputs(scale, RELATIONS_PER_CONCEPT, SEED)
    records = [
        compile_record(item, now=f"2026-11-20T{synthetic._clock(i)}.000Z") for i, item in enumerate(inputs)
    ]
    full, old = open_store(), open_store()
    full.insert_records(records)
    old.insert_records(records[: len(records) * 9 // 10])
    return read_store(full), old, read_store(old)


def fidelity(ok: bool, what: str = "100%") -> str:
    return what if ok else "FAILED"


def measure(scale: int) -> list[Row]:
    memory, old_store, old = stores(scale)
    concepts, relations = len(memory.concepts), len(memory.relations)
    rows: list[Row] = []

    def row(name: str, text: str, write_ms: float, read_ms: float | None, result: str, per: int = 0) -> None:
        count = per or relations
        rows.append(Row(scale, name, count_tokens(text), concepts, count, write_ms, read_ms, result))

    graphs, write = timed(lambda: verbose(memory))
    assert isinstance(graphs, str)
    from zerolang.syntax.parser import parse as parse_graph

    pieces = graphs.split("\n# Compiled by")
    _, read = timed(lambda: [parse_graph(("# Compiled by" if i else "") + p) for i, p in enumerate(pieces)])
    row("verbose .0 (compiler graphs)", graphs, write, read, "lossy¹")

    text, write = timed(lambda: serialize(memory))
    assert isinstance(text, str)
    back, read = timed(lambda: parse(text))
    row(".0c = L2", text, write, read, fidelity(back == memory))

    for level in (Level.L1, Level.L0):
        shown, write = timed(partial(render, memory, level))
        assert isinstance(shown, str)
        if level is Level.L1:
            facts, read = timed(partial(read_l1, shown))
            labels = {c.hash: c.label for c in memory.concepts}
            expected = {
                (labels[r.subject_hash], r.predicate, labels[r.object_hash]) for r in memory.relations
            }
            row("L1 (labels, facts)", shown, write, read, fidelity(set(facts) == expected, "facts 100%"))
        else:
            ids, read = timed(partial(read_l0, shown))
            hexes = [c.hash.hex() for c in memory.concepts]
            unique = all(sum(h.startswith(i) for h in hexes) == 1 for i in ids) if scale <= 1000 else True
            row("L0 (ids)", shown, write, read, fidelity(unique and len(ids) == concepts, "ids 100%"))

    made, write = timed(lambda: deltas.diff(old, memory).to_text())
    assert isinstance(made, str)
    parsed, read = timed(lambda: deltas.parse_delta(made))
    assert isinstance(parsed, deltas.Delta)
    deltas.apply(old_store, parsed)
    row(
        f"delta, 10% new facts ({len(parsed.additions.relations)})",
        made,
        write,
        read,
        fidelity(read_store(old_store) == memory),
        per=len(parsed.additions.relations),
    )

    for name, pretty in (("JSON pretty, hashes", True), ("JSON compact, hashes", False)):
        text, write = timed(partial(jsonform.dumps, memory, pretty=pretty))
        assert isinstance(text, str)
        loaded, read = timed(partial(jsonform.loads, text))
        row(name, text, write, read, fidelity(loaded == memory))

    flat = jsonform.to_flat_json(memory)
    text, write = timed(lambda: json.dumps(flat, ensure_ascii=False, separators=(",", ":")))
    assert isinstance(text, str)
    plain, read = timed(partial(json.loads, text))
    row("JSON compact, no hashes", text, write, read, fidelity(plain == flat, "100%²"))
    lean = facts_only(flat)
    text, write = timed(lambda: json.dumps(lean, ensure_ascii=False, separators=(",", ":")))
    assert isinstance(text, str)
    _, read = timed(partial(json.loads, text))
    row("JSON compact, facts only", text, write, read, "lossy³")
    try:
        import toon_format

        for name, document, result in (
            ("TOON, no hashes", flat, "100%²"),
            ("TOON, facts only", lean, "lossy³"),
        ):
            text, write = timed(partial(toon_format.encode, document))
            assert isinstance(text, str)
            decoded, read = timed(partial(toon_format.decode, text))
            row(name, text, write, read, fidelity(decoded == document, result))
    except ImportError:
        print("toon-format is not installed: no TOON rows", file=sys.stderr)
    return rows


def facts_only(flat: dict[str, list[dict[str, object]]]) -> dict[str, list[dict[str, object]]]:
    """A generous reference: the relations and contexts without any time, alias or concept row."""
    keep = ("subject", "predicate", "object", "confidence", "context")
    contexts = [{k: c[k] for k in ("event_time", "source", "scope", "session_id")} for c in flat["contexts"]]
    return {"contexts": contexts, "relations": [{k: r[k] for k in keep} for r in flat["relations"]]}


def table(rows: list[Row]) -> str:
    lines = [
        "| concepts | format | tokens | per concept | per relation | serialize ms | parse ms | fidelity |",
        "|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        read = "–" if r.read_ms is None else f"{r.read_ms:,.1f}"
        lines.append(
            f"| {r.scale:,} | {r.name} | {r.tokens:,} | {r.tokens / r.concepts:,.2f} |"
            f" {r.tokens / r.relations:,.2f} | {r.write_ms:,.1f} | {read} | {r.fidelity} |"
        )
    return "\n".join(lines)


def verdicts(rows: list[Row]) -> str:
    """The issue's aims, checked at each scale."""
    out = []
    for scale in sorted({r.scale for r in rows}):
        at = {r.name.split(" (")[0]: r for r in rows if r.scale == scale}
        l2, l0 = at[".0c = L2"], at["L0"]
        per = l2.tokens / l2.relations
        aims = [
            (f"L2 {per:.2f} tokens/relation (aim ≤ 10)", per <= 10),
            (
                f"vs TOON {1 - l2.tokens / at['TOON, facts only'].tokens:.0%} fewer (aim ≥ 40%)",
                l2.tokens <= 0.6 * at["TOON, facts only"].tokens,
            )
            if "TOON, facts only" in at
            else ("no TOON", False),
            (
                f"vs compact JSON {1 - l2.tokens / at['JSON compact, facts only'].tokens:.0%} fewer"
                " (aim ≥ 60%)",
                l2.tokens <= 0.4 * at["JSON compact, facts only"].tokens,
            ),
            (
                f"vs verbose .0 {1 - l2.tokens / at['verbose .0'].tokens:.0%} fewer (aim ≥ 85%)",
                l2.tokens <= 0.15 * at["verbose .0"].tokens,
            ),
            (f"L0 {1 - l0.tokens / l2.tokens:.1%} fewer than L2 (aim ≥ 90%)", l0.tokens <= 0.1 * l2.tokens),
        ]
        out.append(f"- {scale:,} concepts: " + "; ".join(f"{text} {'✓' if ok else '✗'}" for text, ok in aims))
    return "\n".join(out)


def chart(rows: list[Row], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    scales = sorted({r.scale for r in rows})
    names = list(dict.fromkeys(r.name.split(" (")[0] for r in rows))
    figure, axes = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(scales)
    for index, scale in enumerate(scales):
        values = {r.name.split(" (")[0]: r.tokens / r.relations for r in rows if r.scale == scale}
        xs = [n + index * width for n in range(len(names))]
        axes.bar(xs, [values.get(name, 0) for name in names], width, label=f"{scale:,} concepts")
    axes.set_xticks(
        [n + width * (len(scales) - 1) / 2 for n in range(len(names))], names, rotation=25, ha="right"
    )
    axes.set_yscale("log")
    axes.set_ylabel("tokens per relation (cl100k, log scale)")
    axes.set_title("0-memory: tokens per relation by format and scale")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    return True


_RELATION_LINE = re.compile(r"\d+ ")


def _on_relations(text: str, change: Callable[[str], str]) -> str:
    return "\n".join(change(line) if _RELATION_LINE.match(line) else line for line in text.split("\n"))


def _on_concepts(text: str, change: Callable[[str], str]) -> str:
    body = text.split("\n")
    first_context = next(i for i, line in enumerate(body) if line.startswith("X:"))
    return "\n".join(change(line) if 0 < i < first_context else line for i, line in enumerate(body))


def _ungroup(line: str) -> str:
    subject, rest = line.split(" ", 1)
    return "\n".join(f"{subject} {part}" for part in rest.split("; "))


def _ids(line: str, name: Callable[[int], str]) -> str:
    subject, rest = line.split(" ", 1)
    rest = re.sub(r"(?<=[^\s\d;])(\d+)", lambda m: " " + name(int(m.group())), rest)
    return name(int(subject)) + " " + rest


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if not number:
            return text


def choices(memory: Snapshot) -> list[tuple[str, int]]:
    """Each design choice of `.0c` against its alternatives, as text rewrites of the final form."""
    final = serialize(memory)
    hexes = [c.hash.hex()[:8] for c in memory.concepts]
    predicates = sorted({r.predicate for r in memory.relations})
    letters = {
        p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[i] for i, p in enumerate(predicates[:52])
    }
    stamp = memory.relations[0].created_at
    variants = {
        "final .0c (all winners below)": final,
        "subject `4:uses10` instead of `4 uses10`": _on_relations(
            final, lambda text: text.replace(" ", ":", 1)
        ),
        "object spaced `uses 10` instead of `uses10`": _on_relations(
            final, lambda text: re.sub(r"(?<=[^\s\d;])(\d+)", r" \1", text)
        ),
        "`;` instead of `; ` between relations": _on_relations(final, lambda text: text.replace("; ", ";")),
        "one relation per line (no grouping by subject)": _on_relations(final, _ungroup),
        "ids in base 36 (needs `uses 1a`: compare with the spaced row)": _on_relations(
            final, lambda text: _ids(text, _base36)
        ),
        "ids as 8-hex short hashes (seed sketch)": _on_relations(
            final, lambda text: _ids(text, lambda n: hexes[n - 1])
        ),
        "predicates interned as letters": "P:"
        + " ".join(predicates)
        + "\n"
        + _on_relations(
            final,
            lambda text: re.sub(
                r"(?<=[ ;] |^\d )?([a-z_]+)(?=\d)", lambda m: letters.get(m.group(1), m.group(1)), text
            ),
        ),
        "confidence `.95` instead of `95`": _on_relations(
            final, lambda text: re.sub(r" (\d\d)(?=;|$)", r" .\1", text)
        ),
        "confidence `0.95` instead of `95`": _on_relations(
            final, lambda text: re.sub(r" (\d\d)(?=;|$)", r" 0.\1", text)
        ),
        "concept lines prefixed `C:`": _on_concepts(final, lambda text: "C:" + text),
        "explicit times on every concept and relation line": _on_relations(
            _on_concepts(final, lambda text: f"{text}|@{stamp}|^{stamp}"), lambda text: f"{text} @{stamp}"
        ),
    }
    return [(name, count_tokens(body)) for name, body in variants.items()]


def choices_table(scales: list[int]) -> str:
    rows = {
        scale: choices(synthetic.snapshot(open_store(), scale, RELATIONS_PER_CONCEPT, SEED))
        for scale in scales
    }
    relations = {scale: scale * RELATIONS_PER_CONCEPT for scale in scales}
    head = " | ".join(f"{s:,} concepts: tokens (per relation)" for s in scales)
    lines = [f"| choice | {head} |", "|---|" + "---:|" * len(scales)]
    for index, (name, _) in enumerate(rows[scales[0]]):
        cells = " | ".join(f"{rows[s][index][1]:,} ({rows[s][index][1] / relations[s]:.2f})" for s in scales)
        lines.append(f"| {name} | {cells} |")
    return "\n".join(lines)


def main() -> None:
    if "--choices" in sys.argv:
        print(choices_table([1000, 10000]))
        return
    scales = [100, 1000] if "--quick" in sys.argv else [100, 1000, 10000]
    rows = [row for scale in scales for row in measure(scale)]
    notes = (
        f"Tokenizer: {tokenizer_version()}. {RELATIONS_PER_CONCEPT} relations per concept, seed {SEED}.\n\n"
        "¹ the compiler's graphs keep labels, predicates, confidences and contexts but not aliases or times:"
        " not an exchange format.\n"
        "² the same information as `.0c` without hashes (aliases joined by `|`): decoded back equal.\n"
        "³ a generous lower bound for JSON/TOON: facts (labels inline, confidence, context) and"
        " contexts only, no times, aliases or concept confidences.\n"
        "The aims below are checked against these leaner rows.\n"
        "Delta rows count tokens per new relation; its fidelity is `apply(old, delta) == new`.\n"
    )
    text = "\n\n".join([table(rows), notes + "\n" + verdicts(rows)]) + "\n"
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / "tokens.md").write_text(text, encoding="utf-8")
    if not chart(rows, results / "tokens.png"):
        print("matplotlib is not installed: no chart", file=sys.stderr)


if __name__ == "__main__":
    main()
