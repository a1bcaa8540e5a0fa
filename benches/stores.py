"""Where a benchmark's store lives (`--backend sqlite|postgres`) and how repeated runs are summarised.

PostgreSQL is `$ZERO_BENCH_POSTGRES_URL`, else `$ZERO_TEST_POSTGRES_URL`, else
`postgresql://postgres@127.0.0.1:5432/test`; each run gets a scratch database
of its own (`zt_bench_<pid>_<n>`), dropped afterwards.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
_runs = itertools.count()


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per size (median, min-max)")
    return parser.parse_args()


@contextmanager
def location(backend: str) -> Iterator[str]:
    """A fresh, empty store location for one run, removed afterwards."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "memory.db")
        return
    import psycopg

    base = (
        os.environ.get("ZERO_BENCH_POSTGRES_URL") or os.environ.get("ZERO_TEST_POSTGRES_URL") or DEFAULT_URL
    )
    name = f"zt_bench_{os.getpid()}_{next(_runs)}"
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.rpartition("/")[0] + f"/{name}"
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def spread(values: Sequence[float], fmt: str = "{:,.0f}", unit: str = "") -> str:
    """`median (min-max)` of repeated measurements."""
    middle = statistics.median(values)
    if len(values) == 1:
        return fmt.format(middle) + unit
    return f"{fmt.format(middle)}{unit} ({fmt.format(min(values))}-{fmt.format(max(values))})"
