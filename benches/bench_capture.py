"""`zero capture` on transcripts of 5, 10, 25 and 50 MB, and one new turn after 2,000 (a hook's cost).

Each transcript is OpenAI chat JSONL (one message a line, user and assistant alternating, ~250
bytes of text each); each capture is a whole `zero capture FILE --json` process on a fresh SQLite
experience store. Printed per size: wall time, messages per second, MB per second, the
process's CPU time (user and system) and messages per CPU second, its peak memory (max RSS), and
`json.loads` of the same lines as the reference; then the largest size's rate against the
smallest's, by wall and by CPU time. Then the hook's case: a 2,000-turn transcript captured, one
turn appended, captured again (median of 5). The processes see no per-user memory store (their data
folder is the bench's own), so none is opened for its purges.

    python benches/bench_capture.py                 # 5, 10, 25, 50 MB
    python benches/bench_capture.py --sizes 1,5     # smaller
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from machine import CHILD_ENVIRONMENT, describe, load_average

ROOT = Path(__file__).resolve().parents[1]
WORDS = [
    "the",
    "agent",
    "read",
    "the",
    "file",
    "and",
    "found",
    "that",
    "the",
    "parser",
    "was",
    "slow",
    "because",
    "each",
    "diagnostic",
    "split",
    "the",
    "source",
    "again",
    "so",
    "we",
    "planned",
    "a",
    "fix",
    "with",
    "an",
    "index",
    "of",
    "line",
    "starts",
    "and",
    "felt",
    "curious",
    "happy",
    "worried",
    "about",
    "the",
    "deadline",
    "but",
    "the",
    "team",
    "helped",
]


def message(i: int) -> str:
    role = "user" if i % 2 == 0 else "assistant"
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(40)]
    text = f"message {i}: " + " ".join(words) + ("?" if i % 5 == 0 else ".")
    return json.dumps({"role": role, "content": text})


def write_transcript(path: Path, megabytes: float) -> int:
    """Messages written until the file holds `megabytes` MB."""
    limit = int(megabytes * 1_000_000)
    size = count = 0
    with path.open("w", encoding="utf-8") as handle:
        while size < limit:
            line = message(count) + "\n"
            handle.write(line)
            size += len(line.encode())
            count += 1
    return count


def capture(path: Path, db: Path) -> tuple[float, float, float]:
    """Wall seconds of one `zero capture` process, its CPU seconds (user and system: what the load of
    a shared machine disturbs less) and its peak memory (MiB)."""
    # bytecode written and used, as installed; no per-user memory store to read purges from (a
    # machine's own would load the memory's code into every capture, as bench_hooks notes)
    data = db.parent / "data"
    env = {**CHILD_ENVIRONMENT, "XDG_DATA_HOME": str(data), "ZERO_MEMORY_DB": "", "PYTHONPATH": str(ROOT)}
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before, cpu = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "zerolang", "capture", str(path), "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"zero capture failed: {done.stderr.strip()}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, usage.ru_utime + usage.ru_stime - cpu, max(usage.ru_maxrss, before) / 1024


def loads_seconds(path: Path) -> float:
    start = time.perf_counter()
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,10,25,50", help="MB, comma separated")
    options = parser.parse_args()
    sizes = [float(size) for size in options.sizes.split(",")]
    print(f"Machine: {describe()}")
    print(
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by"
        f" `python benches/bench_capture.py --sizes {options.sizes}`."
    )
    before = load_average()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm.jsonl"  # a first run writes the bytecode the measured ones read
        warm.write_text("\n".join(message(i) for i in range(4)) + "\n", encoding="utf-8")
        capture(warm, Path(folder) / "warm.db")
        for size in sizes:
            path = Path(folder) / f"t{size}.jsonl"
            count = write_transcript(path, size)
            wall, cpu, peak = capture(path, Path(folder) / f"t{size}.db")
            rows.append((size, count, wall, cpu, peak, loads_seconds(path)))
            path.unlink()
        # the hook's case: one more turn at the end of a 2,000-turn transcript
        path = Path(folder) / "hook.jsonl"
        lines = [message(i) for i in range(4_000)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        db = Path(folder) / "hook.db"
        capture(path, db)
        times = []
        for extra in range(5):
            with path.open("a", encoding="utf-8") as handle:
                handle.write(message(4_000 + 2 * extra) + "\n" + message(4_001 + 2 * extra) + "\n")
            times.append(capture(path, db)[0])
        again = statistics.median(times)
        base = statistics.median(capture(Path(folder) / "hook.jsonl", db)[0] for _ in range(3))
    print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")
    print()
    print(
        "| transcript | messages | `zero capture` (whole process) | messages/s | MB/s | CPU (user + system)"
        " | messages per CPU s | peak memory | json.loads of the lines (reference) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size, count, wall, cpu, peak, loads in rows:
        print(
            f"| {size:g} MB | {count:,} | {wall:.2f} s | {count / wall:,.0f} | {size / wall:.2f} |"
            f" {cpu:.2f} s | {count / cpu:,.0f} | {peak:.0f} MiB | {loads:.2f} s |"
        )
    print()
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        print(
            f"The {last[0]:g} MB rate against the {first[0]:g} MB one:"
            f" {(last[1] / last[2]) / (first[1] / first[2]):.0%} by wall time,"
            f" {(last[1] / last[3]) / (first[1] / first[3]):.0%} by CPU time."
        )
        print()
    print(
        "One new turn at the end of a 2,000-turn transcript (4,000 messages), captured again:"
        f" {again * 1000:.0f} ms"
        f" (median of 5, whole process); the same file with nothing new: {base * 1000:.0f} ms."
    )


if __name__ == "__main__":
    main()
