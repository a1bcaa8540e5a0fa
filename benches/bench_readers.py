"""Parse time per byte of every reader, at growing sizes: a linear reader keeps it flat.

Issue 23, point 5. Each reader gets hostile shapes that once made one quadratic or
crash (a run of blanks before a bad character, many broken `.0c` lines, long numbers,
deep or long queries) and one ordinary document, at 4 sizes each 4x the last. For each
it prints microseconds per kilobyte; `growth` is the largest size's per-byte time over
the smallest's (about 1 for a linear reader; a quadratic one grows ~64x over the range).

    python benches/bench_readers.py            # sizes 16 KB .. 1 MB
    python benches/bench_readers.py --quick    # sizes 4 KB .. 256 KB

Writes the table to benches/results/readers.md. tests/hardening/test_readers_total.py runs
`measure` at tiny sizes and asserts only that it finishes: time is never a test's verdict.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zerolang.knowledge.formats.compact import parse as parse_compact  # noqa: E402
from zerolang.knowledge.query import parse_query  # noqa: E402
from zerolang.syntax.parser import parse as parse_zero  # noqa: E402
from zerolang.util.errors import ZeroError  # noqa: E402
from zerolang.util.files import parse_json  # noqa: E402

HEAD = "0M:1.0\na|A\nb|B\nX:2026-02-18T00:00:00Z s t\n@2026-02-20T10:00:00.000Z\n"
NODE = '        {{ id: "n{0}", type: Constant, value: "v{0}" }},\n'

# (name, reader, document of about `size` characters)
CASES: list[tuple[str, Callable[[str], object], Callable[[int], str]]] = [
    (".0 blanks then `~`", lambda t: parse_zero(t, "b.0"), lambda n: "\n" * n + "~"),
    (
        ".0 graph",
        lambda t: parse_zero(t, "g.0"),
        lambda n: (
            'Graph { name: "g", nodes: [\n'
            + "".join(NODE.format(i) for i in range(n // 50))
            + '], outputs: ["n0"] }\n'
        ),
    ),
    (
        ".0 long number",
        lambda t: parse_zero(t, "n.0"),
        lambda n: (
            'Graph { name: "g", nodes: [{ id: "a", '
            "type: Constant, value: 1" + "0" * n + ".5 }], outputs: [] }"
        ),
    ),
    (".0c broken lines", lambda t: parse_compact(t, "b.0c"), lambda n: "0M:1.0\n" + "1 ~\n" * (n // 4)),
    (".0c relations", lambda t: parse_compact(t, "r.0c"), lambda n: HEAD + "1 needs2 95\n" * (n // 12)),
    (
        ".0c long confidence",
        lambda t: parse_compact(t, "c.0c"),
        lambda n: HEAD + "1 needs2 " + "9" * n + "\n",
    ),
    (".0c long concept number", lambda t: parse_compact(t, "i.0c"), lambda n: HEAD + "1" * n + " needs2\n"),
    ("query blanks then `~`", parse_query, lambda n: "recall a" + " " * n + "~"),
    (
        "query conditions",
        parse_query,
        lambda n: "recall a where " + " and ".join(["confidence > 0.5"] * (n // 21)),
    ),
    (
        "JSON duplicate key at the end",
        lambda t: parse_json(t, "d.json"),
        lambda n: "{" + ",".join(f'"k{i}": {i}' for i in range(n // 10)) + ',"k0": 1}',
    ),
]


def seconds(reader: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    with contextlib.suppress(ZeroError):  # a located error is a result too
        reader(text)
    return time.process_time() - start


def measure(sizes: list[int]) -> list[tuple[str, list[float], float]]:
    """(case, microseconds per KB at each size, growth of the per-byte time from first to last)."""
    rows = []
    for name, reader, make in CASES:
        per_kb = []
        for size in sizes:
            text = make(size)
            best = min(seconds(reader, text) for _ in range(3))
            per_kb.append(best * 1e6 / max(len(text) / 1024, 1e-9))
        rows.append((name, per_kb, per_kb[-1] / max(per_kb[0], 1e-9)))
    return rows


def table(sizes: list[int], rows: list[tuple[str, list[float], float]]) -> str:
    head = "| reader | " + " | ".join(f"µs/KB at {size // 1024} KB" for size in sizes) + " | growth |"
    lines = [head, "|" + "---|" * (len(sizes) + 2)]
    for name, per_kb, growth in rows:
        lines.append(f"| {name} | " + " | ".join(f"{value:.1f}" for value in per_kb) + f" | {growth:.2f}x |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    sizes = [4096 * 4**k for k in range(4)] if "--quick" in argv else [16384 * 4**k for k in range(4)]
    text = table(sizes, measure(sizes))
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / "readers.md").write_text("# Parse time per byte\n\n" + text, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
