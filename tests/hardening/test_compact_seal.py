"""Issue 15, point 5 (second half): a `.0c` file is what its name and header say, never what its
content looks like; a sealed (1.1) document cut anywhere, or changed, is refused; 1.0 still reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.support import ROOT, zero
from zerolang.knowledge.formats import serialize
from zerolang.knowledge.formats.compact import format_text, parse
from zerolang.knowledge.formats.exchange import Format, import_format
from zerolang.knowledge.formats.seal import is_sealed, seal, unseal
from zerolang.storage import open_store
from zerolang.tools.lint.compact import findings
from zerolang.util.errors import ZeroError

PLAIN = (
    "0M:1.0\nlong-term-memory|LTM\nagent|Agent\nX:2026-02-18T00:00:00Z user_prompt design\n"
    "@2026-02-20T10:00:00.000Z\n2 needs1 75\n"
)
GRAPH_LABEL = (
    '0M:1.0\nGraph { name: "x" }|G\n{"json": 1}|J\nX:2026-02-18T00:00:00Z user_prompt design\n'
    "@2026-02-20T10:00:00.000Z\n1 is2 90\n"
)


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("export")
    db = str(folder / "m.db")
    assert zero("memory", "ingest", str(ROOT / "examples" / "memory_input.json"), "--db", db).code == 0
    outcome = zero("memory", "export", "--db", db)
    assert outcome.code == 0
    return outcome.stdout


def test_exports_are_sealed(export: str) -> None:
    assert export.startswith("0M:1.1\n")
    assert export.splitlines()[-1].startswith("0M:end lines=")
    assert is_sealed(export) and unseal(export)[1] is None
    assert parse(export) == parse(unseal(export)[0])


def test_seal_round_trip_keeps_line_numbers() -> None:
    sealed = seal(PLAIN)
    plain, broken = unseal(sealed)
    assert broken is None
    assert plain.split("\n")[: PLAIN.count("\n")] == PLAIN.split("\n")[:-1]
    assert len(plain.split("\n")) == len(sealed.split("\n"))


def test_a_crlf_copy_still_matches() -> None:
    sealed = seal(PLAIN).replace("\n", "\r\n")
    assert unseal(sealed)[1] is None
    assert parse(sealed) == parse(PLAIN)


def test_every_cut_is_refused(export: str) -> None:
    """Cut the export at every character: each prefix is refused (none parses to less memory)."""
    whole = parse(export)
    for end in range(len(export) - 1):
        cut = export[:end]
        if cut.endswith("\n") and cut.rstrip("\n") == export.rstrip("\n"):
            continue  # only trailing newlines were lost: nothing was
        with pytest.raises(ZeroError):
            parse(cut, "cut.0c")
    assert parse(export[:-1]) == whole  # the last newline alone is not content


def test_the_confidence_cut_reproducer(tmp_path: Path) -> None:
    """Cutting `75` to `7` imported confidence 0.07; sealed, it is refused with the place."""
    document = tmp_path / "m.0c"
    document.write_text(seal(PLAIN)[: seal(PLAIN).index("75") + 1], encoding="utf-8")
    line = zero("memory", "import", str(document), "--db", str(tmp_path / "m.db")).clear_error()
    assert f"{document}:6:1: the document is cut" in line
    assert "check" not in zero("check", str(document)).stdout


def test_a_changed_line_is_refused(export: str, tmp_path: Path) -> None:
    document = tmp_path / "m.0c"
    document.write_text(export.replace("needs1 95", "needs1 96"), encoding="utf-8")
    outcome = zero("check", str(document))
    assert outcome.code == 1
    assert "the document is cut or changed: its checksum does not match its lines" in outcome.stderr
    lint = zero("lint", str(document))
    assert lint.code == 1 and "checksum does not match" in lint.stdout


def test_old_plain_documents_still_read_and_stay_plain() -> None:
    assert not is_sealed(PLAIN)
    assert len(parse(PLAIN).relations) == 1
    assert format_text(PLAIN) == serialize(parse(PLAIN))
    assert findings(PLAIN) == []


def test_fmt_keeps_a_sealed_document_sealed(export: str) -> None:
    formatted = format_text(export)
    assert formatted == export  # an export is already in canonical form, end line included
    assert is_sealed(formatted) and unseal(formatted)[1] is None
    commented = seal("# a note\n" + PLAIN + "\n\n# the end\n")
    kept = format_text(commented)
    assert kept.startswith("# a note\n0M:1.1") and unseal(kept)[1] is None


def test_a_label_that_looks_like_a_graph_or_json_imports(tmp_path: Path) -> None:
    for document in (GRAPH_LABEL, seal(GRAPH_LABEL)):
        path = tmp_path / "labels.0c"
        path.write_text(document, encoding="utf-8")
        outcome = zero("memory", "import", str(path), "--db", str(tmp_path / "m.db"))
        assert outcome.code == 0, outcome.stderr
        assert "(.0c document, 1 relation)" in outcome.stdout
        piped = zero("memory", "import", "-", "--db", str(tmp_path / "p.db"), stdin=document.encode())
        assert piped.code == 0, piped.stderr


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("m.0c", '{"format": "0-memory"}', Format.COMPACT),
        ("m.json", "0M:1.0\n", Format.JSON),
        ("<stdin>", "# c\n\n0M:1.1\n", Format.COMPACT),
        ("<stdin>", '  {"format": "0-memory"}', Format.JSON),
        ("m.txt", GRAPH_LABEL, Format.COMPACT),
    ],
)
def test_the_format_comes_from_the_name_then_the_header(name: str, text: str, expected: Format) -> None:
    assert import_format(text, name) is expected


@pytest.mark.parametrize(
    ("name", "text"), [("g.0", "0M:1.0\n"), ("<stdin>", "Graph { }"), ("<stdin>", "hello")]
)
def test_what_is_not_a_memory_export_is_refused(name: str, text: str) -> None:
    with pytest.raises(ZeroError):
        import_format(text, name)


def test_import_of_a_cut_json_stays_json(tmp_path: Path) -> None:
    document = tmp_path / "m.json"
    document.write_text('{"format": "0-memory", "concepts": [', encoding="utf-8")
    line = zero("memory", "import", str(document), "--db", str(tmp_path / "m.db")).clear_error()
    assert "invalid JSON" in line


def test_a_cut_delta_is_refused(tmp_path: Path) -> None:
    store = open_store()
    from zerolang.knowledge.formats import checkpoint, delta
    from zerolang.knowledge.formats.compact import parse_record

    base = checkpoint.of_store(store)
    store.insert_record(parse_record(PLAIN))
    text = delta.since(store, base.hash).to_text()
    assert text.startswith("0M:1.1 delta base=")
    with pytest.raises(ZeroError, match="cut"):
        delta.parse_delta(text[: text.index("0M:end")], "d.0c")


def test_lines_after_the_end_line_are_a_change(export: str) -> None:
    with pytest.raises(ZeroError, match="lines were added after the `0M:end` line"):
        parse(export + "1 needs99 95\n", "m.0c")
