"""Correct and remember when: single-valued predicates supersede, restatements, retract, as of / known at."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from zerolang import storage
from zerolang.knowledge.backend import FactFilter
from zerolang.knowledge.forget import fact_key
from zerolang.knowledge.history import concept_history
from zerolang.knowledge.ingest import ingest, parse_inputs
from zerolang.knowledge.query.executor import run_query
from zerolang.knowledge.temporal import retract
from zerolang.memory import MemoryStore
from zerolang.util.errors import ZeroError

from .conftest import inputs

T1, T2, T3 = "2026-03-01T00:00:00.000Z", "2026-03-02T00:00:00.000Z", "2026-03-03T00:00:00.000Z"
PARIS = (
    "2020-01-01T00:00:00Z",
    "chat",
    "bio",
    [("Alice", "lives in", "Paris", 0.9), ("Alice", "likes", "tea", 0.6)],
)
BERLIN = ("2023-06-01T00:00:00Z", "chat", "bio", [("Alice", "lives in", "Berlin", 0.8)])
ROME = ("2018-01-01T00:00:00Z", "letter", "bio", [("Alice", "lives in", "Rome", 0.7)])


def where(store: MemoryStore, clause: str = "") -> list[str]:
    result = run_query(store, f"match (alice lives_in ?w) {clause}", touch=False)
    return sorted(str(row["bindings"]["w"]) for row in result.rows)  # type: ignore[index]


def open_sv(location: str, space: str) -> MemoryStore:
    return storage.open_store(location, space=space, single_valued=["lives in"])


@pytest.mark.parametrize("order", list(itertools.permutations([PARIS, BERLIN, ROME])))
def test_single_valued_supersedes_whatever_the_order(location: str, space: str, order: tuple) -> None:  # type: ignore[type-arg]
    with open_sv(location, space) as store:
        for when, group in zip((T1, T2, T3), order, strict=True):
            ingest(store, parse_inputs(inputs(group)), now=when)
        assert where(store) == ["berlin"]
        assert where(store, "as of 2021-05-01") == ["paris"]
        assert where(store, "as of 2019-01-01") == ["rome"]
        assert where(store, "as of 2017-01-01") == []
        assert store.check().ok
        history = {e.text: e.current[-1] for e in concept_history(store, "alice")}
        assert history["alice|lives_in|paris"].valid_to == "2023-06-01T00:00:00.000Z"
        assert history["alice|lives_in|rome"].valid_to == "2020-01-01T00:00:00.000Z"
        assert history["alice|lives_in|berlin"].valid_to is None
        assert history["alice|likes|tea"].valid_to is None  # not single-valued: joins


def test_known_at_sees_what_the_store_believed(location: str, space: str) -> None:
    with open_sv(location, space) as store:
        ingest(store, parse_inputs(inputs(PARIS)), now=T1)
        ingest(store, parse_inputs(inputs(BERLIN)), now=T2)
        assert where(store, "known at 2026-03-01T12:00:00Z") == ["paris"]
        assert where(store, "known at 2026-02-01") == []
        assert where(store, "known at 2026-03-02T12:00:00Z") == ["berlin"]
        assert where(store, "as of 2021-01-01 known at 2026-03-01T12:00:00Z") == ["paris"]
        # re-ingesting the same inputs changes nothing; a later move back reasserts paris
        ingest(store, parse_inputs(inputs(PARIS, BERLIN)), now=T3)
        assert where(store) == ["berlin"]
        back = ("2025-01-01T00:00:00Z", "chat", "bio", [("Alice", "lives in", "Paris", 0.9)])
        ingest(store, parse_inputs(inputs(back)), now=T3)
        assert where(store) == ["paris"]
        assert where(store, "as of 2024-01-01") == ["berlin"]
        (paris,) = (e for e in concept_history(store, "alice") if e.text == "alice|lives_in|paris")
        assert [(p.valid_from[:4], (p.valid_to or "")[:4]) for p in paris.current] == [
            ("2020", "2023"),
            ("2025", ""),
        ]
        assert store.check().ok


def test_explicit_validity_from_context_metadata(location: str, space: str) -> None:
    text = json.dumps(
        [
            {
                "tuples": [{"subject": "bob", "predicate": "works at", "object": "acme", "confidence": 0.9}],
                "context": {
                    "event_time": "2026-01-01T00:00:00Z",
                    "source": "hr",
                    "scope": "cv",
                    "metadata": {"valid_from": "2010-01-01", "valid_to": "2015-01-01"},
                },
            }
        ]
    )
    with storage.open_store(location, space=space, single_valued=[]) as store:
        ingest(store, parse_inputs(text), now=T1)
        seen = run_query(store, "match (bob works_at ?x) as of 2012-01-01", touch=False).rows
        assert [row["bindings"]["x"] for row in seen] == ["acme"]  # type: ignore[index]
        assert run_query(store, "match (bob works_at ?x)", touch=False).rows == []


def test_restating_with_another_confidence_is_recorded(location: str, space: str) -> None:
    with storage.open_store(location, space=space, single_valued=[]) as store:
        group = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.9)])
        ingest(store, parse_inputs(inputs(group)), now=T1)
        same = ingest(store, parse_inputs(inputs(group)), now=T2)
        assert same.duplicates == 1 and same.restated == 0
        lower = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.3)])
        result = ingest(store, parse_inputs(inputs(lower)), now=T2)
        assert result.restated == 1 and result.duplicates == 0
        (fact,) = store.backend.find_facts(FactFilter())
        assert fact.confidence == pytest.approx(0.3) and fact.observations == 1
        events = concept_history(store, "carol")[0].events
        assert [e.kind for e in events] == ["restated"] and "0.9 -> 0.3" in events[0].detail
        assert store.check().ok


def test_restating_higher_raises_the_concepts_it_mentions(location: str, space: str) -> None:
    """A concept holds at least the confidence of every episode that mentions it: restated higher,
    an episode lifts its subject and object as a new one would (check held them below it)."""
    with storage.open_store(location, space=space, single_valued=[]) as store:
        low = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.3)])
        ingest(store, parse_inputs(inputs(low)), now=T1)
        high = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.6)])
        assert ingest(store, parse_inputs(inputs(high)), now=T2).restated == 1
        concepts = {c.label: c.confidence for c in store.backend.scan_concepts()}
        assert concepts["carol"] == pytest.approx(0.6) and concepts["dave"] == pytest.approx(0.6)
        assert store.check().ok
        ingest(store, parse_inputs(inputs(low)), now=T2)  # restated lower: the concepts keep 0.6
        concepts = {c.label: c.confidence for c in store.backend.scan_concepts()}
        assert concepts["carol"] == pytest.approx(0.6) and concepts["dave"] == pytest.approx(0.6)
        assert store.check().ok


def test_a_restating_batch_keeps_the_seals_row_by_row(
    location: str, space: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch that restates one episode and adds another folds both into the seals without a rescan
    of the space: the seals then equal what a full reseal counts."""
    with storage.open_store(location, space=space, single_valued=[]) as store:
        first = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.9)])
        ingest(store, parse_inputs(inputs(first)), now=T1)
        backend = type(store.backend)

        def rescan(self: object) -> None:
            raise AssertionError("an ingest rescanned the space to reseal it")

        with monkeypatch.context() as patch:
            patch.setattr(backend, "reseal", rescan)
            both = (
                "2020-01-01T00:00:00Z",
                "chat",
                "bio",
                [("carol", "knows", "dave", 0.3), ("carol", "likes", "erin", 0.8)],
            )
            result = ingest(store, parse_inputs(inputs(both)), now=T2)
            assert result.restated == 1 and result.new_episodes == 1
            alone = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.5)])
            assert ingest(store, parse_inputs(inputs(alone)), now=T3).restated == 1

        def seals() -> dict[str, tuple[int, str]]:  # a table never written has no seal row, or an empty one
            return {t: (n, d) for t, n, d in store.backend.raw_seals() if n or int(d, 16)}

        kept = seals()
        with store.backend.write():
            store.backend.reseal()
        assert seals() == kept
        assert store.check().ok


def test_a_restatement_beside_new_records_keeps_the_seals(location: str, space: str) -> None:
    """The restated episode and refolded fact are sealed by the write itself (no rescan of the space)."""
    with storage.open_store(location, space=space, single_valued=[]) as store:
        group = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.9)])
        ingest(store, parse_inputs(inputs(group)), now=T1)
        lower = ("2020-01-01T00:00:00Z", "chat", "bio", [("carol", "knows", "dave", 0.3)])
        other = ("2020-01-02T00:00:00Z", "chat", "bio", [("carol", "knows", "erin", 0.8)])
        result = ingest(store, parse_inputs(inputs(lower, other)), now=T2)
        assert result.restated == 1 and result.new_episodes == 1
        report = store.check()
        assert report.ok, report.problems


def test_forgetting_a_facts_first_episode_leaves_no_time_of_it(location: str, space: str) -> None:
    """The fact keeps the times of the episodes it keeps (check holds created_at within them)."""
    from zerolang.knowledge.forget import Selector, forget

    with storage.open_store(location, space=space, single_valued=[]) as store:
        early = ("2020-01-01T00:00:00Z", "chat", "early", [("carol", "knows", "dave", 0.9)])
        late = ("2020-01-02T00:00:00Z", "chat", "late", [("carol", "knows", "dave", 0.5)])
        ingest(store, parse_inputs(inputs(early)), now=T1)
        ingest(store, parse_inputs(inputs(late)), now=T2)
        forget(store, Selector("scope", "early"), at=T3)
        (fact,) = store.backend.find_facts(FactFilter())
        assert fact.observations == 1 and fact.created_at == fact.updated_at != T1
        report = store.check()
        assert report.ok, report.problems


def test_retract_closes_and_retires(location: str, space: str) -> None:
    with storage.open_store(location, space=space, single_valued=[]) as store:
        ingest(store, parse_inputs(inputs(PARIS)), now=T1)
        key, _ = fact_key(store, "alice|likes|tea", None)
        fact = store.backend.facts([key])[key]
        span = retract(store.backend, fact, at=T2, valid_to="2024-01-01T00:00:00.000Z")
        assert span.retired_by == "retracted"
        assert run_query(store, "match (alice likes ?x)", touch=False).rows == []
        assert len(run_query(store, "match (alice likes ?x) as of 2022-01-01", touch=False).rows) == 1
        assert (
            len(run_query(store, "match (alice likes ?x) known at 2026-03-01T12:00:00Z", touch=False).rows)
            == 1
        )
        with pytest.raises(ZeroError, match="already retired"):
            retract(store.backend, fact, at=T3)
        assert store.check().ok


def test_cli_history_and_retract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.zero.memory]\nsingle-valued = ["lives in"]\n')
    (tmp_path / "in.json").write_text(inputs(PARIS, BERLIN))
    runner = CliRunner()

    def zero(*args: str) -> str:
        result = runner.invoke(app, ["memory", *args, "--db", "m.db"])
        assert result.exit_code == 0, result.output
        return result.output

    zero("ingest", "in.json")
    out = zero("history", "alice")
    assert (
        "alice|lives_in|paris\n  valid 2020-01-01T00:00:00.000Z .. 2023-06-01T00:00:00.000Z"
        "  ended by alice|lives_in|berlin\n" in out
    )
    out = zero("retract", "alice|likes|tea", "--valid-to", "2024-01-01", "--now", T2)
    assert (
        out
        == "retracted alice|likes|tea: valid 2020-01-01T00:00:00.000Z .. 2024-01-01T00:00:00.000Z, retired 2026-03-02T00:00:00.000Z\n"
    )
    document = json.loads(zero("history", "alice", "--json"))
    (tea,) = (d for d in document if d["fact"] == "alice|likes|tea")
    assert [p["ended_by"] for p in tea["periods"] if p["closed_at"] is None] == ["retracted"]
    (tmp_path / "pyproject.toml").write_text("[tool.zero.memory]\nsingle-valued = 3\n")
    from zerolang.util.config import _load

    _load.cache_clear()
    again = runner.invoke(app, ["memory", "ingest", "in.json", "--db", "m.db"])
    assert again.exit_code == 0, "a store declares its own: the folder's settings no longer apply to it"
    result = runner.invoke(app, ["memory", "ingest", "in.json", "--db", "new.db"])
    assert result.exit_code == 2 and "single-valued must be a list" in result.output


def test_recall_puts_current_facts_first_and_marks_retired_ones(location: str, space: str) -> None:
    with open_sv(location, space) as store:
        ingest(store, parse_inputs(inputs(PARIS, BERLIN)), now=T1)
        key, _ = fact_key(store, "alice|likes|tea", None)
        retract(store.backend, store.backend.facts([key])[key], at=T2)
        alice = store.get_concept_by_label("alice")
        assert alice is not None
        view = store.recall(alice)
        shown = [(f.object, f.retired, f.times.retired_by if f.times else None) for f in view.facts]
        berlin = store.backend.facts([fact_key(store, "alice|lives_in|berlin", None)[0]])
        (berlin_hex,) = (f.fact_hash.hex() for f in berlin.values())
        # current first (berlin), then the retired ones, most confident first
        assert shown == [("berlin", False, None), ("paris", True, berlin_hex), ("tea", True, "retracted")]
        paris = view.facts[1].to_json()
        assert (paris["valid_to"], paris["retired_at"]) == ("2023-06-01T00:00:00.000Z", T1)
        assert view.facts[0].to_json()["retired_at"] is None


def test_cli_get_marks_retired_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from zerolang.cli.app import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.zero.memory]\nsingle-valued = ["lives in"]\n')
    (tmp_path / "in.json").write_text(inputs(PARIS, BERLIN))
    runner = CliRunner()
    assert runner.invoke(app, ["memory", "ingest", "in.json", "--db", "m.db", "--now", T1]).exit_code == 0
    retracted = runner.invoke(app, ["memory", "retract", "alice|likes|tea", "--db", "m.db", "--now", T2])
    assert retracted.exit_code == 0, retracted.output
    out = runner.invoke(app, ["memory", "get", "alice", "--db", "m.db"]).output
    berlin, paris, tea = out.index("--> berlin"), out.index("--> paris"), out.index("--> tea")
    assert berlin < paris < tea
    assert f"retired {T2} (retracted)  valid until {T2}" in out[tea:]
    assert f"retired {T1} (superseded by fact " in out[paris:tea]
    assert "valid until 2023-06-01T00:00:00.000Z" in out[paris:tea]
    assert "retired" not in out[berlin:paris]
