"""The example record of `examples/memory_input.json`, compiled at a fixed time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zerolang.knowledge.compiler import compile_record
from zerolang.knowledge.types import CompilerInput, MemoryRecord

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "memory_input.json"
NOW = "2026-02-20T10:00:00.000Z"


def example_inputs() -> list[CompilerInput]:
    return [CompilerInput.from_json(item) for item in json.loads(EXAMPLE.read_text(encoding="utf-8"))]


def example_records() -> list[MemoryRecord]:
    return [
        compile_record(item, now=f"2026-02-20T10:00:0{i}.000Z") for i, item in enumerate(example_inputs())
    ]


@pytest.fixture
def example_record() -> MemoryRecord:
    return compile_record(example_inputs()[0], now=NOW)
