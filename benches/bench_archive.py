"""The archive: put, verified get per tier, tier moves, verify, and bytes on disk.

Prints a markdown table (and writes it to benches/results/archive.md). Documents are
generated with a fixed seed: conversation ranges of 4 to 12 messages of 8 to 40 words from
a small vocabulary (so they compress like real chat). `put` is archive + fsync per document;
`get` reads, decompresses if needed and verifies SHA-256 (no process start-up).

    python benches/bench_archive.py            # 1K and 10K documents
    python benches/bench_archive.py --quick    # 1K
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402

from zerolang.archive import Archive, MemoryDocument, Tier, make_document  # noqa: E402

WORDS = [
    "the",
    "release",
    "review",
    "migration",
    "birthday",
    "reminder",
    "trip",
    "lisbon",
    "food",
    "table",
    "friday",
    "team",
    "meeting",
    "notes",
    "budget",
    "plan",
    "sister",
    "march",
    "february",
    "vegetarian",
    "sardines",
    "coffee",
    "tea",
    "project",
    "deadline",
    "thursday",
]
GETS = 2000


def generate(count: int, seed: int = 11) -> list[MemoryDocument]:
    rng = random.Random(seed)
    documents = []
    for number in range(count):
        messages = [
            {
                "role": "user" if turn % 2 == 0 else "assistant",
                "content": " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40))) + ".",
            }
            for turn in range(rng.randint(4, 12))
        ]
        documents.append(
            make_document(
                messages,
                channel=f"dm:user{number % 7}",
                session=f"s-{number}",
                consent_scope="personal",
                created_at=f"2026-11-{1 + number % 28:02d}T10:00:00Z",
            )
        )
    return documents


def disk_bytes(root: Path, tier: str) -> int:
    return sum(path.stat().st_size for path in (root / tier).rglob("*") if path.is_file())


def read_latencies(archive: Archive, hashes: list[str]) -> tuple[float, float]:
    rng = random.Random(5)
    latencies = []
    for digest in (rng.choice(hashes) for _ in range(GETS)):
        began = time.perf_counter()
        archive.get(digest)
        latencies.append(time.perf_counter() - began)
    quantiles = statistics.quantiles(latencies, n=100)
    return quantiles[49] * 1000, quantiles[94] * 1000


def measure(count: int) -> dict[str, float]:
    documents = generate(count)
    canonical = sum(len(document.canonical()) for document in documents)
    row: dict[str, float] = {"documents": count, "canonical_mb": canonical / 1e6}
    with tempfile.TemporaryDirectory() as folder:
        archive = Archive(Path(folder) / "archive", create=True)
        start = time.perf_counter()
        hashes = [result.hash for result in archive.put_many(documents)]
        row["put_rate"] = count / (time.perf_counter() - start)
        row["hot_p50"], row["hot_p95"] = read_latencies(archive, hashes)
        row["hot_mb"] = disk_bytes(archive.root, "hot") / 1e6
        for tier in (Tier.WARM, Tier.COLD):
            start = time.perf_counter()
            archive.move(None, tier)
            row[f"{tier}_move_s"] = time.perf_counter() - start
            row[f"{tier}_p50"], row[f"{tier}_p95"] = read_latencies(archive, hashes)
            row[f"{tier}_mb"] = disk_bytes(archive.root, tier.value) / 1e6
        start = time.perf_counter()
        assert archive.verify().ok
        row["verify_s"] = time.perf_counter() - start
    return row


def table(rows: list[dict[str, float]]) -> str:
    lines = [
        f"Machine: {describe()}",
        "",
        "| documents | put/s | tier | get p50 | get p95 | move there | on disk |",
        "|---:|---:|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        for tier in ("hot", "warm", "cold"):
            first = tier == "hot"
            move = "-" if first else f"{row[f'{tier}_move_s']:.2f} s"
            cells = [
                f"{row['documents']:,.0f}" if first else "",
                f"{row['put_rate']:,.0f}" if first else "",
                tier,
                f"{row[f'{tier}_p50']:.3f} ms",
                f"{row[f'{tier}_p95']:.3f} ms",
                move,
                f"{row[f'{tier}_mb']:.2f} MB",
            ]
            lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    summary = "; ".join(
        f"{row['documents']:,.0f} documents: {row['canonical_mb']:.2f} MB canonical,"
        f" verify {row['verify_s']:.2f} s"
        for row in rows
    )
    lines.append(
        f"{summary}. Conversation ranges of 4-12 messages; put = validate + write + rename per document,"
        " one sync per batch (put_many); get = read (+ zstd) + SHA-256 check + parse,"
        f" {GETS:,} random hashes, no process start-up. On disk = file sizes (hot: canonical bytes;"
        " warm: zstd level 3 per document;"
        " cold: zstd level 9 frames with a dictionary trained on the bundle, + manifest)."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    sizes = [1_000] if "--quick" in sys.argv else [1_000, 10_000]
    text = table([measure(size) for size in sizes])
    print(text)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / "archive.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
