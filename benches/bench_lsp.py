"""The language server's work per request, on router.0 and on generated graphs of 100 and 1K nodes.

Each row is one feature as `zero lsp` runs it, without the protocol around it:
the check after a change (parse, validate, lint, index the node ids), then
completion, hover, go to definition, references, rename, symbols and
formatting on that analysis. Completion is at the middle of the text, as the
server answers while typing there: read from the node around the cursor, with the
last analysis's outline (`zerolang.lsp.outline`). Best of 5, in milliseconds.
Prints a markdown table and writes it to benches/results/lsp.md (extra `lsp`).

    python benches/bench_lsp.py
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from bench_core import generate  # noqa: E402
from machine import describe, load_average  # noqa: E402

from zerolang.lsp import adapter, completion, hover, navigation, symbols  # noqa: E402
from zerolang.lsp.analysis import analyse  # noqa: E402
from zerolang.syntax.printer import print_graph  # noqa: E402


def best_of(repeats: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def row(name: str, source: str) -> list[str]:
    analysis = analyse(source, None)
    definitions = analysis.definitions()
    last = list(definitions.values())[-1]
    middle = len(source) // 2
    uri = "file:///bench.0"
    measures = [
        best_of(5, lambda: analyse(source, None)),
        best_of(
            5, lambda: completion.completions(source, middle, outline=analysis.outline, unchanged=middle + 1)
        ),
        best_of(5, lambda: hover.hover(analysis, last.start)),
        best_of(5, lambda: navigation.definition(analysis, uri, last.start)),
        best_of(5, lambda: navigation.references(analysis, uri, last.start, True)),
        best_of(5, lambda: navigation.rename(analysis, uri, last.start, "renamed")),
        best_of(5, lambda: symbols.graph_symbols(analysis)),
        best_of(5, lambda: adapter.format_text(source, None)),
    ]
    lines = source.count("\n")
    return [name, str(len(analysis.graph.nodes) if analysis.graph else 0), str(lines)] + [
        f"{value:.1f}" for value in measures
    ]


def main() -> None:
    cases = [("examples/router.0", (ROOT / "examples" / "router.0").read_text(encoding="utf-8"))]
    cases += [(f"generated, {count} nodes", print_graph(generate(count))) for count in (100, 1000)]
    head = ["document", "nodes", "lines", "check", "complete", "hover", "definition", "references"]
    head += ["rename", "symbols", "format"]
    started, before = datetime.now(UTC), load_average()
    rows = [row(name, source) for name, source in cases]
    table = "\n".join(
        [
            f"Machine: {describe()}",
            f"Measured {started:%Y-%m-%d %H:%M} UTC by `python benches/bench_lsp.py`.",
            f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.",
            "",
            "| " + " | ".join(head) + " |",
            "|" + "---|" * len(head),
            *("| " + " | ".join(cells) + " |" for cells in rows),
            "",
            "Milliseconds, best of 5. `check` runs after every pause in typing (the server waits",
            "0.15 s after the last change); the rest answer one request each.",
        ]
    )
    print(table)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / "lsp.md").write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
