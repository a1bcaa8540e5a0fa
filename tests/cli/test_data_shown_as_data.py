"""Data is shown as data: hostile values, ids, labels and file names through every printing command.

No rich markup is read from user data (`[red]a` prints as `[red]a`), and no control character
reaches the terminal raw: ESC, BEL, DEL, C1 controls and the bidi overrides are shown as visible
escapes (`\\x1b`, `\\u202e`). Only `--json` carries the text itself (JSON-escaped). Each command
runs in a pipe (plain) and with FORCE_COLOR (rich draws it, as on a terminal).
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import forked
from tests.budget import scaled
from zerolang.util.escapes import escaped, unescaped

HOSTILE = [
    "see [x] and [/]",
    "[true]",
    "[link=http://evil]click[/link]",
    "[red]a",
    "\x1b]0;PWNED\x07\x1b[2J",
    "bidi \u202eevil\u202c \u2066x\u2069",
    "c1 \x9b31m del \x7f",
    ":smile: \\[b]",
]
# What rich writes for colour: SGR sequences only. Anything else with ESC came from data.
_SGR = re.compile(r"\x1b\[[0-9;]*m")
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def raw_controls(text: str) -> list[str]:
    """Control, bidi and surrogate characters in output, but the layout's newlines and rich's colour."""
    text = _SGR.sub("", text)
    return [c for c in text if c != "\n" and (unicodedata.category(c) in ("Cc", "Cs") or c in _BIDI)]


def zero(*arguments: str, color: bool = False, cwd: Path | None = None) -> tuple[int, str, str]:
    environment = {**os.environ, "COLUMNS": "400"}
    environment.pop("NO_COLOR" if color else "FORCE_COLOR", None)
    environment["FORCE_COLOR" if color else "NO_COLOR"] = "1"
    code, out, err = forked.run(list(arguments), env=environment, cwd=cwd)
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def zero_string(text: str) -> str:
    """A `.0` string literal for any text (JSON's escapes are `.0`'s)."""
    return json.dumps(text).replace("\x7f", "\\u007f")


def graph(values: dict[str, str], outputs: list[str] | None = None) -> str:
    nodes = ",\n".join(
        f"        {{ id: {zero_string(node)}, type: Constant, value: {zero_string(value)} }}"
        for node, value in values.items()
    )
    wanted = ", ".join(zero_string(name) for name in (outputs if outputs is not None else list(values)))
    return f'Graph {{\n    name: "g",\n    version: 2,\n    nodes: [\n{nodes}\n    ],\n    outputs: [{wanted}],\n}}\n'


def assert_shown(output: str, *texts: str) -> None:
    assert raw_controls(output) == [], output
    for text in texts:
        assert escaped(text) in output, (text, output)


@pytest.mark.parametrize("color", [False, True])
def test_run_table_and_trace_show_ids_and_values_as_data(tmp_path: Path, color: bool) -> None:
    values = {f"n{i}": text for i, text in enumerate(HOSTILE)} | {text: "v" for text in HOSTILE}
    path = tmp_path / "g.0"
    path.write_text(graph(values), encoding="utf-8")
    code, out, err = zero("run", str(path), "--trace", color=color)
    assert code == 0, err
    assert_shown(out, *HOSTILE)
    assert "[x]" in out and "click[/link]" in out  # markup printed, not read
    code, out, _ = zero("run", str(path), "--json", color=color)
    assert code == 0 and json.loads(out)["outputs"]["n4"] == HOSTILE[4]
    assert raw_controls(out) == []  # JSON-escaped


@pytest.mark.parametrize("color", [False, True])
def test_check_and_lint_show_ids_and_file_names_as_data(tmp_path: Path, color: bool) -> None:
    for number, text in enumerate(HOSTILE):
        folder = tmp_path / str(number)
        folder.mkdir()
        name = text.replace("/", "_") + ".0"
        path = folder / name
        path.write_text(graph({"a": "x"}, outputs=[text]), encoding="utf-8")
        for command in ("check", "lint", "run"):
            code, out, err = zero(command, str(path), color=color)
            assert code == 1, (command, err)
            assert "Traceback" not in err and "internal error" not in err
            assert_shown(out + err, text, name)


@pytest.mark.parametrize("color", [False, True])
def test_memory_commands_show_labels_sources_and_scopes_as_data(tmp_path: Path, color: bool) -> None:
    hostile = " ".join(HOSTILE)
    record = {
        "utterance": "u",
        "tuples": [
            {"subject": "A " + hostile, "predicate": "needs", "object": "B " + hostile, "confidence": 0.9}
        ],
        "context": {
            "event_time": "2026-02-18T00:00:00Z",
            "source": "src " + hostile,
            "scope": "scope " + hostile,
            "session_id": "s",
        },
    }
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps(record), encoding="utf-8")
    db = str(tmp_path / "m.db")
    code, _, err = zero("memory", "ingest", str(inputs), "--db", db)
    assert code == 0, err
    code, out, err = zero("memory", "get", "A " + hostile, "--db", db, color=color)
    assert code == 0, err
    assert_shown(out, "src " + hostile, "scope " + hostile)
    for arguments in (
        ["memory", "history", "A " + hostile],
        ["memory", "log"],
        ["memory", "tombstones"],
        ["query", f"recall {json.dumps('a ' + hostile)}"],
        ["memory", "get", "no " + hostile],
    ):
        code, out, err = zero(*arguments, "--db", db, color=color)
        assert "Traceback" not in err and "internal error" not in err, err
        assert raw_controls(out + err) == [], (arguments, out + err)
    code, out, err = zero("memory", "get", "A " + hostile, "--db", db, "--json")
    assert code == 0 and raw_controls(out) == [], err  # JSON-escaped, and the text itself
    assert json.loads(out)["facts"][0]["episodes"][0]["source"] == "src " + hostile


@settings(max_examples=scaled(25), deadline=None)
@given(st.text(min_size=1, max_size=12), st.text(max_size=12))
def test_any_id_and_value_is_shown_escaped_and_reads_back(
    tmp_path_factory: pytest.TempPathFactory, node: str, value: str
) -> None:
    """The property: `zero run` shows any id and value so that unescaping the cell gives it back."""
    from hypothesis import assume

    assume(not any(0xD800 <= ord(c) <= 0xDFFF for c in node + value))
    assume(node.strip() == node and "\n" not in node)
    path = tmp_path_factory.mktemp("prop") / "g.0"
    path.write_text(graph({node: value}), encoding="utf-8")
    code, out, err = zero("run", str(path))
    if code != 0:  # an id the validator refuses: its message shows it as data too
        assert code == 1 and raw_controls(err) == [] and "Traceback" not in err
        return
    assert raw_controls(out) == []
    row = next(line for line in out.splitlines() if line.startswith("│"))
    cells = [cell.strip() for cell in row.strip("│").split("│")]
    assert unescaped(cells[0]) == node
    if value.strip() == value:
        assert unescaped(cells[2]) == value
