"""What machine a benchmark ran on, for the tables in the README."""

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
