"""What machine a benchmark ran on, for the tables in docs/benchmarks.md."""

from __future__ import annotations

import os
import platform
from importlib import metadata


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe() -> str:
    try:
        lark_version = metadata.version("lark")
    except metadata.PackageNotFoundError:
        lark_version = "?"
    try:
        cython = "lark-cython " + metadata.version("lark-cython")
    except metadata.PackageNotFoundError:
        cython = "no lark-cython"
    memory = ""
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            kib = int(handle.readline().split()[1])
            memory = f", {kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return (
        f"{cpu_model()}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.machine()}; "
        f"Python {platform.python_version()}; lark {lark_version}, {cython}"
    )


def load_average() -> str:
    """The machine's load average, for the line under a table (figures vary with it)."""
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min) / {five:.1f} (5 min)"


# Children write and use bytecode, as an installed package does.
CHILD_ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def process_times(arguments: list[str], repeats: int) -> tuple[list[float], list[float]]:
    """Wall times and the child's CPU times (user + system) of running `arguments`, after two warm runs."""
    import resource
    import subprocess
    import time

    for _ in range(2):
        subprocess.run(arguments, check=True, capture_output=True, env=CHILD_ENVIRONMENT)
    walls, cpus = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(arguments, check=True, capture_output=True, env=CHILD_ENVIRONMENT)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus
