"""`zero capture` of every transcript format at 5, 25 and 50 MB, and one new turn after 2,000 (a hook's cost).

Each transcript holds the same messages (user and assistant alternating, ~250 bytes of text
each) as each runtime writes them: an OpenAI chat (`openai`: one `{"role", "content"}` a line),
a Claude Code session (`claude-code`: a line per message with its uuid, parent, session and time)
and a pi session (`pi`: a version 3 tree of entries, content as blocks). Each capture is a whole
`zero capture FILE --json` process on a fresh SQLite experience store. Printed per format and
size: wall time, messages per second, the process's CPU time (user and system), its peak memory
(max RSS), the store's size against the transcript's, and `json.loads` of the same lines in this
process as the reference, by wall and by CPU time, with the capture's ratio to it (CPU against
CPU: what the load of a shared machine disturbs less). Then the hook's case: a 2,000-turn OpenAI
transcript captured, one turn appended, captured again (median of 5). The processes see no
per-user memory store (their data folder is the bench's own), so none is opened for its purges.

    python benches/bench_capture.py                             # every format, 5, 25, 50 MB
    python benches/bench_capture.py --sizes 1,5 --formats pi    # smaller
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


def text(i: int) -> str:
    """Message `i`'s text: 40 words, a question every fifth."""
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(40)]
    return f"message {i}: " + " ".join(words) + ("?" if i % 5 == 0 else ".")


def role(i: int) -> str:
    return "user" if i % 2 == 0 else "assistant"


def message(i: int) -> str:
    """Message `i` as a line of an OpenAI chat."""
    return json.dumps({"role": role(i), "content": text(i)})


def _when(i: int) -> str:
    return f"2025-07-{1 + i // 86_400 % 28:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000Z"


def claude_line(i: int) -> str:
    """Message `i` as a line of a Claude Code session."""
    content: object = text(i) if role(i) == "user" else [{"type": "text", "text": text(i)}]
    entry = {
        "parentUuid": f"00000000-0000-4000-8000-{i - 1:012d}" if i else None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/srv/app",
        "sessionId": "aaaaaaaa-0000-4000-8000-000000000001",
        "version": "1.0.51",
        "type": role(i),
        "message": {"role": role(i), "content": content},
        "uuid": f"00000000-0000-4000-8000-{i:012d}",
        "timestamp": _when(i),
    }
    return json.dumps(entry)


def pi_line(i: int) -> str:
    """Message `i` as an entry of a pi session (version 3), after its header line."""
    content = [{"type": "text", "text": text(i)}]
    body: dict[str, object] = {"role": role(i), "content": content}
    if role(i) == "assistant":
        body |= {"provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "stop"}
    entry = {
        "type": "message",
        "id": f"m{i:08d}",
        "parentId": f"m{i - 1:08d}" if i else None,
        "timestamp": _when(i),
        "message": body,
    }
    return json.dumps(entry)


PI_HEADER = json.dumps(
    {"type": "session", "version": 3, "id": "pi-bench-1", "timestamp": _when(0), "cwd": "/w"}
)
FORMATS = {"openai": (message, None), "claude-code": (claude_line, None), "pi": (pi_line, PI_HEADER)}
"""Each format's line for message `i`, and the line a file opens with."""


def write_transcript(path: Path, megabytes: float, fmt: str = "openai") -> int:
    """Messages written in format `fmt` until the file holds `megabytes` MB."""
    line_of, header = FORMATS[fmt]
    limit = int(megabytes * 1_000_000)
    size = count = 0
    with path.open("w", encoding="utf-8") as handle:
        if header is not None:
            handle.write(header + "\n")
            size += len(header) + 1
        while size < limit:
            line = line_of(count) + "\n"
            handle.write(line)
            size += len(line.encode())
            count += 1
    return count


def capture(path: Path, db: Path, fmt: str | None = None) -> tuple[float, float, float]:
    """Wall seconds of one `zero capture` process, its CPU seconds (user and system: what the load of
    a shared machine disturbs less) and its own peak memory (MiB: its max RSS, from `wait4`, where
    `RUSAGE_CHILDREN` would give the largest of every child so far)."""
    # bytecode written and used, as installed; no per-user memory store to read purges from (a
    # machine's own would load the memory's code into every capture, as bench_hooks notes)
    data = db.parent / "data"
    env = {**CHILD_ENVIRONMENT, "XDG_DATA_HOME": str(data), "ZERO_MEMORY_DB": "", "PYTHONPATH": str(ROOT)}
    arguments = [sys.executable, "-m", "zerolang", "capture", str(path), "--db", str(db), "--json"]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(
            [*arguments, *(["--format", fmt] if fmt else [])],
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env=env,
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"zero capture failed: {errors.read().decode(errors='replace').strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def loads_seconds(path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of `json.loads` of every line of `path` (in this process)."""
    start, cpu = time.perf_counter(), time.process_time()
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start, time.process_time() - cpu


def store_bytes(db: Path) -> int:
    """The store's size on disk: its file and what its write-ahead log still holds."""
    return sum(part.stat().st_size for part in (db, Path(f"{db}-wal")) if part.exists())


@dataclass(frozen=True, slots=True)
class Row:
    fmt: str
    size: float
    messages: int
    wall: float
    cpu: float
    peak: float
    stored: int
    transcript: int
    loads_wall: float
    loads_cpu: float


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,25,50", help="MB, comma separated")
    parser.add_argument(
        "--formats", default=",".join(FORMATS), help="comma separated: openai, claude-code, pi"
    )
    options = parser.parse_args()
    sizes = [float(size) for size in options.sizes.split(",")]
    formats = options.formats.split(",")
    print(f"Machine: {describe()}")
    print(
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by"
        f" `python benches/bench_capture.py --sizes {options.sizes} --formats {options.formats}`."
    )
    before = load_average()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm.jsonl"  # a first run writes the bytecode the measured ones read
        warm.write_text("\n".join(message(i) for i in range(4)) + "\n", encoding="utf-8")
        capture(warm, Path(folder) / "warm.db")
        for fmt in formats:
            for size in sizes:
                path = Path(folder) / f"{fmt}-{size}.jsonl"
                count = write_transcript(path, size, fmt)
                db = Path(folder) / f"{fmt}-{size}.db"
                wall, cpu, peak = capture(path, db, fmt)
                loads_wall, loads_cpu = loads_seconds(path)
                rows.append(
                    Row(
                        fmt,
                        size,
                        count,
                        wall,
                        cpu,
                        peak,
                        store_bytes(db),
                        path.stat().st_size,
                        loads_wall,
                        loads_cpu,
                    )
                )
                path.unlink()
                db.unlink()
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
        "| format | transcript | messages | `zero capture` (whole process) | messages/s | CPU (user + system)"
        " | json.loads of the lines: wall / CPU (reference) | capture / json.loads (CPU) | peak memory"
        " | store / transcript |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| {row.fmt} | {row.size:g} MB | {row.messages:,} | {row.wall:.2f} s"
            f" | {row.messages / row.wall:,.0f} | {row.cpu:.2f} s"
            f" | {row.loads_wall:.3f} s / {row.loads_cpu:.3f} s | {row.cpu / row.loads_cpu:.0f}x |"
            f" {row.peak:.0f} MiB | {row.stored / row.transcript:.1f}x ({row.stored / 1e6:.1f} MB) |"
        )
    print()
    for fmt in formats:
        mine = [row for row in rows if row.fmt == fmt]
        if len(mine) > 1:
            first, last = mine[0], mine[-1]
            print(
                f"{fmt}: the {last.size:g} MB rate against the {first.size:g} MB one:"
                f" {(last.messages / last.wall) / (first.messages / first.wall):.0%} by wall time,"
                f" {(last.messages / last.cpu) / (first.messages / first.cpu):.0%} by CPU time."
            )
    print()
    print(
        "One new turn at the end of a 2,000-turn transcript (4,000 messages), captured again:"
        f" {again * 1000:.0f} ms"
        f" (median of 5, whole process); the same file with nothing new: {base * 1000:.0f} ms."
    )


if __name__ == "__main__":
    main()
