"""Spec §7 normalisation and the alias table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.knowledge.hashing import concept_hash
from zerolang.memory import DEFAULT_ALIASES, AliasTable, compile_record, normalize_label, normalize_predicate
from zerolang.util.errors import ZeroError

from .conftest import make_input


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Agent", "agent"),
        ("  agent \t", "agent"),
        ("Long_Term.Memory", "long-term-memory"),
        ("knowledge.graph", "knowledge-graph"),
        ("Long   Term  Memory", "long term memory"),  # only spaces collapse; they do not become `-`
        ("line\nbreak", "line\nbreak"),  # inner newlines are kept
        ("ÉCOLE_Normale", "école-normale"),
        ("0-Memory", "0-memory"),
    ],
)
def test_labels(raw: str, expected: str) -> None:
    assert normalize_label(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("needs", "needs"),
        ("Compiles To", "compiles_to"),
        ("is-a", "is_a"),
        ("is - a", "is_a"),
        ("part.of", "part_of"),
        ("  Has   Part ", "has_part"),
        ("already_snake", "already_snake"),
    ],
)
def test_predicates(raw: str, expected: str) -> None:
    assert normalize_predicate(raw) == expected


@given(st.text())
def test_normalisation_is_idempotent(text: str) -> None:
    assert normalize_label(normalize_label(text)) == normalize_label(text)
    assert normalize_predicate(normalize_predicate(text)) == normalize_predicate(text)


def test_default_aliases_hold_the_seeds_and_the_memory_tiers() -> None:
    table = AliasTable.default()
    assert table.resolve("LTM") == "long-term-memory"
    assert table.resolve("long_term_memory") == "long-term-memory"
    assert table.resolve("Long Term Memory") == "long-term-memory"
    assert table.resolve("STM") == "short-term-memory"
    assert table.resolve("WM") == "working-memory"
    assert table.resolve(" ltm ") == "long-term-memory"  # matched after normalisation
    assert table.resolve("Agent") == "agent"  # not an alias: just normalised
    assert {"LTM", "STM", "WM", "long_term_memory"} <= set(DEFAULT_ALIASES)
    assert "ltm" in table and "agent" not in table


def test_extending_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "aliases.json"
    path.write_text(json.dumps({"Mem0": "0-memory", "LTM": "long-term-store"}), encoding="utf-8")
    table = AliasTable.from_file(path)
    assert table.resolve("mem0") == "0-memory"
    assert table.resolve("LTM") == "long-term-store"  # the file wins over the defaults
    assert table.resolve("STM") == "short-term-memory"  # the defaults stay
    assert AliasTable.from_file(path, base=AliasTable.empty()).resolve("STM") == "stm"
    assert AliasTable.default().resolve("mem0") == "mem0"  # tables are immutable


def test_the_compiler_really_uses_the_table() -> None:
    source = make_input(("Agent", "needs", "LTM", 0.9))
    record = compile_record(source)
    assert {concept.label for concept in record.concepts} == {"agent", "long-term-memory"}
    assert record.concept(concept_hash("long-term-memory")).aliases == ("LTM",)
    custom = AliasTable.default().extended({"agent": "autonomous-agent"})
    labels = {concept.label for concept in compile_record(source, custom).concepts}
    assert labels == {"autonomous-agent", "long-term-memory"}
    assert {c.label for c in compile_record(source, AliasTable.empty()).concepts} == {"agent", "ltm"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('["LTM"]', "an alias file is a JSON object"),
        ('{"LTM": 3}', "must be strings"),
        ('{"LTM": "  "}', "must not be empty"),
        ('{"a": "b", "b": "c"}', "`b` is itself an alias of `c`"),
        ('{\n  "a": }', "aliases.json:2:8: invalid JSON"),
    ],
)
def test_bad_alias_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "aliases.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ZeroError, match=message.replace("(", r"\(")) as error:
        AliasTable.from_file(path)
    assert str(path) in str(error.value)


def test_missing_alias_file(tmp_path: Path) -> None:
    with pytest.raises(ZeroError, match="no such alias file"):
        AliasTable.from_file(tmp_path / "nope.json")
