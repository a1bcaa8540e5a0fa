"""Done when: hostile text through every command that shows user data, end to end.

`PRINTERS` is the table: each entry puts a text into a store or a file (`put`, running `zero` as a
user would) and returns the command line that prints it. A new printing command is one line. Every
entry runs in a pipe (plain) and with FORCE_COLOR (rich draws it), with the hostile samples and
with any text hypothesis makes: no traceback, no raw control character (ESC, BEL, DEL, C1 controls,
bidi overrides) and, where the command shows the text, no markup read (`[red]a` prints as written).

Documents written to stdout (`memory export`, `memory compile`, `archive get --raw`, a conversation
from `archive compact`) are exact in a pipe, as `-o FILE` writes them, and shown escaped on a
terminal: `test_documents_*` runs them on a pseudo-terminal and in a pipe.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from tests.cli.test_data_shown_as_data import _SGR, HOSTILE, graph, raw_controls, zero
from zerolang.util.escapes import escaped

ROOT = Path(__file__).resolve().parents[2]
POLICY = str(ROOT / "examples" / "archive" / "policy.toml")
SAMPLE = " ".join(HOSTILE)


def ok(*arguments: str) -> str:
    code, out, err = zero(*arguments)
    assert code == 0, (arguments, out, err)
    return out


def file_name(text: str) -> str:
    return text.replace("/", "_").replace("\x00", "_")[:80]


def transcript(folder: Path, text: str) -> Path:
    path = folder / (file_name("t " + text) + ".json")
    path.write_text(
        json.dumps(
            {
                "id": "c " + text,
                "messages": [
                    {
                        "role": "user",
                        "content": "hike dolomites " + text,
                        "timestamp": "2024-03-01T18:00:00Z",
                    },
                    {
                        "role": "assistant",
                        "content": "book huts " + text,
                        "reasoning_content": "think " + text,
                        "timestamp": "2024-03-01T18:00:07Z",
                    },
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


def experiences(folder: Path, text: str) -> str:
    db = str(folder / "x.db")
    ok("capture", str(transcript(folder, text)), "--db", db)
    return db


def conversation(folder: Path, text: str) -> str:
    db = str(folder / "c.db")
    path = folder / (file_name("h " + text) + ".json")
    path.write_text(
        json.dumps([{"role": "user", "content": "apples " + text}, {"role": "assistant", "content": text}])
    )
    ok("convo", "store", "coder", str(path), "--db", db)
    return db


def archive(folder: Path, text: str) -> tuple[str, str, str]:
    """(root, db, hash) of an archive holding one document full of `text`."""
    root, db = str(folder / "ar"), str(folder / "m.db")
    document = folder / (file_name("d " + text) + ".json")
    body = {
        "created_at": "2026-11-20T09:30:00Z",
        "source": {"channel": "dm:alice", "session": "s " + text},
        "messages": [{"role": "user", "content": "birthday " + text}],
        "tags": ["t " + text],
        "consent_scope": "personal",
    }
    document.write_text(json.dumps(body), encoding="utf-8")
    digest = ok("archive", "put", str(document), "--root", root, "--db", db).split()[1]
    return root, db, digest


def memory(folder: Path, text: str) -> str:
    record = {
        "utterance": "u " + text,
        "tuples": [{"subject": "A " + text, "predicate": "needs", "object": "B " + text, "confidence": 0.9}],
        "context": {
            "event_time": "2026-02-18T00:00:00Z",
            "source": "src " + text,
            "scope": "scope " + text,
            "session_id": "s",
        },
    }
    inputs = folder / "in.json"
    inputs.write_text(json.dumps(record), encoding="utf-8")
    db = str(folder / "mem.db")
    ok("memory", "ingest", str(inputs), "--db", db)
    return db


def compacted(folder: Path, text: str) -> list[str]:
    root, db, _ = archive(folder, text)
    talk = folder / "talk.jsonl"
    talk.write_text(
        "".join(
            json.dumps({"role": r, "content": f"{r} {text}"}) + "\n" for r in ("user", "assistant", "user")
        )
    )
    out = folder / "compacted.jsonl"
    place = ["--root", root, "--db", db]
    ok("archive", "compact", str(talk), "--channel", "dm:alice", "--session", "s", "--scope", "personal",
       "--keep-last", "1", "-o", str(out), *place)  # fmt: skip
    return [
        "archive",
        "expand",
        str(out),
        "--as",
        "dm:alice",
        "--policy",
        POLICY,
        "-o",
        str(folder / "e"),
        *place,
    ]


def graph_file(folder: Path, text: str, *, broken: bool = False) -> str:
    path = folder / (file_name("g " + text) + ".0")
    values = {"n": text, text: "v"} if text.strip() == text and text and "\n" not in text else {"n": text}
    path.write_text(graph(values, outputs=[*values, "no " + text] if broken else None), encoding="utf-8")
    return str(path)


@dataclass(frozen=True, slots=True)
class Printer:
    """A command that prints user data: `put` stores `text` and returns the command line that shows it."""

    name: str
    put: Callable[[Path, str], list[str]]
    shows: bool = True  # whether the output holds the text itself (else: an error quoting part of it)


PRINTERS = [
    Printer("capture", lambda f, t: ["capture", str(transcript(f, t)), "--db", str(f / "x.db")]),
    Printer(
        "capture missing", lambda f, t: ["capture", str(f / file_name("no " + t)), "--db", str(f / "x.db")]
    ),
    Printer("recall", lambda f, t: ["recall", "dolomites", "--db", experiences(f, t)]),
    Printer("recall --json", lambda f, t: ["recall", "dolomites", "--json", "--db", experiences(f, t)]),
    Printer(
        "recall query", lambda f, t: ["recall", "dolomites " + t, "--db", experiences(f, t)], shows=False
    ),
    Printer(
        "hook pi",
        lambda f, t: ["hook", "pi", "--event", event(f, experiences(f, t), "pi"), "--db", str(f / "x.db")],
    ),
    Printer(
        "hook claude-code",
        lambda f, t: [
            "hook",
            "claude-code",
            "--event",
            event(f, experiences(f, t), "cc"),
            "--db",
            str(f / "x.db"),
        ],
    ),
    Printer("convo restore", lambda f, t: ["convo", "restore", "coder", "--db", conversation(f, t)]),
    Printer("convo turns", lambda f, t: ["convo", "turns", "coder", "--db", conversation(f, t)], shows=False),
    Printer("convo search", lambda f, t: ["convo", "search", "coder", "apples", "--db", conversation(f, t)]),
    Printer(
        "convo search --json",
        lambda f, t: ["convo", "search", "coder", "apples", "--json", "--db", conversation(f, t)],
    ),
    Printer(
        "convo bad agent", lambda f, t: ["convo", "turns", "a:" + t, "--db", str(f / "c.db")], shows=False
    ),
    Printer(
        "archive put",
        lambda f, t: (
            ["archive", "put", str(f / "d.json"), "--root", str(f / "r")]
            if (f / "d.json").write_text(
                json.dumps(
                    {
                        "source": {"channel": t},
                        "messages": [{"role": "user", "content": t}],
                        "consent_scope": "personal",
                    }
                )
            )
            else []
        ),
        shows=False,
    ),
    Printer("archive get", lambda f, t: ["archive", "get", archive(f, t)[2], "--root", str(f / "ar")]),
    Printer(
        "archive get --as",
        lambda f, t: [
            "archive",
            "get",
            archive(f, t)[2],
            "--as",
            "dm:alice",
            "--policy",
            POLICY,
            "--root",
            str(f / "ar"),
            "--db",
            str(f / "m.db"),
        ],
    ),
    Printer(
        "archive search",
        lambda f, t: [
            "archive",
            "search",
            "--as",
            "dm:alice",
            "--policy",
            POLICY,
            "--root",
            archive(f, t)[0],
            "--db",
            str(f / "m.db"),
        ],
    ),
    Printer(
        "archive search --json",
        lambda f, t: [
            "archive",
            "search",
            "--as",
            "dm:alice",
            "--policy",
            POLICY,
            "--json",
            "--root",
            archive(f, t)[0],
            "--db",
            str(f / "m.db"),
        ],
    ),
    Printer("archive verify", lambda f, t: ["archive", "verify", "--root", archive(f, t)[0]], shows=False),
    Printer("archive expand", compacted, shows=False),
    Printer("archive bad hash", lambda f, t: ["archive", "get", t, "--root", str(f / "ar")], shows=False),
    Printer("memory get", lambda f, t: ["memory", "get", "A " + t, "--db", memory(f, t)]),
    Printer("memory stats", lambda f, t: ["memory", "stats", "--db", memory(f, t)], shows=False),
    Printer(
        "memory stats space",
        lambda f, t: ["memory", "stats", "--space", "s " + t, "--db", str(f / "m")],
        shows=False,
    ),
    Printer("memory check", lambda f, t: ["memory", "check", "--db", memory(f, t)], shows=False),
    Printer("memory log", lambda f, t: ["memory", "log", "--db", memory(f, t)], shows=False),
    Printer("memory tombstones", lambda f, t: ["memory", "tombstones", "--db", forgotten(f, t)], shows=False),
    Printer(
        "memory history", lambda f, t: ["memory", "history", "A " + t, "--db", memory(f, t)], shows=False
    ),
    Printer(
        "memory export -o",
        lambda f, t: ["memory", "export", "-o", str(f / file_name("o " + t)), "--db", memory(f, t)],
        shows=False,
    ),
    Printer(
        "memory export --json", lambda f, t: ["memory", "export", "--format", "json", "--db", memory(f, t)]
    ),
    Printer(
        "query", lambda f, t: ["query", f"recall {json.dumps('A ' + t)}", "--db", memory(f, t)], shows=False
    ),
    Printer("viz", lambda f, t: ["viz", graph_file(f, t)]),
    Printer("viz dot", lambda f, t: ["viz", graph_file(f, t), "-f", "dot"]),
    Printer("lint github", lambda f, t: ["lint", graph_file(f, t, broken=True), "--format", "github"]),
    Printer("lint json", lambda f, t: ["lint", graph_file(f, t, broken=True), "--format", "json"]),
    Printer("lint sarif", lambda f, t: ["lint", graph_file(f, t, broken=True), "--format", "sarif"]),
    Printer("lint --explain", lambda f, t: ["lint", "--explain", t], shows=False),
    Printer("ops", lambda f, t: ["ops", t], shows=False),
    Printer("no such command", lambda f, t: [t or "x"], shows=False),
    Printer("mcp --print-config", lambda f, t: ["mcp", "--print-config", "claude-code", "--db", str(f / t)]),
]


def event(folder: Path, _db: str, runtime: str) -> str:
    path = folder / "event.json"
    if runtime == "pi":
        body = {"event": "before_agent_start", "prompt": "dolomites huts"}
    else:
        body = {"hook_event_name": "UserPromptSubmit", "prompt": "dolomites huts", "session_id": "other"}
    path.write_text(json.dumps(body), encoding="utf-8")
    return str(path)


def forgotten(folder: Path, text: str) -> str:
    db = memory(folder, text)
    ok("memory", "forget", "A " + text, "--db", db)
    return db


def shown(printer: Printer, folder: Path, text: str, *, color: bool) -> str:
    """Run the printer on `text`; check what holds for any command; return its output."""
    arguments = printer.put(folder, text)
    code, out, err = zero(*arguments, color=color, cwd=folder)
    assert code in (0, 1, 2), (printer.name, code, err)
    assert "Traceback" not in err and "internal error" not in err, (printer.name, err)
    assert raw_controls(out + err) == [], (printer.name, out + err)
    return _SGR.sub("", out + err)


def text_shown(output: str, text: str) -> bool:
    """The text is in the output as data: as `escaped` shows it (in a DOT string, its backslashes doubled),
    or JSON-escaped in a JSON document."""
    shown = escaped(text, exact=False)
    return shown in output or shown.replace("\\", "\\\\") in output or json.dumps(text)[1:-1] in output


@pytest.mark.parametrize("color", [False, True], ids=["pipe", "color"])
@pytest.mark.parametrize("printer", PRINTERS, ids=[printer.name for printer in PRINTERS])
def test_hostile_values_are_shown_as_data(tmp_path: Path, printer: Printer, color: bool) -> None:
    output = shown(printer, tmp_path, SAMPLE, color=color)
    if printer.shows:
        assert "[red]a" in output and "[true]" in output, output  # markup printed, never read
        assert any(text_shown(output, sample) for sample in HOSTILE[4:7]), output


_TEXT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=10)


@settings(max_examples=scaled(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(printer=st.sampled_from(PRINTERS), text=_TEXT)
def test_any_text_through_any_printer_is_shown_as_data(
    tmp_path_factory: pytest.TempPathFactory, printer: Printer, text: str
) -> None:
    """The property over the table: whatever the text, no command prints a raw control character."""
    assume("\x00" not in text and text.strip() != "" and "/" not in text)
    shown(printer, tmp_path_factory.mktemp("p"), text, color=False)


def on_terminal(arguments: list[str], cwd: Path) -> str:
    """`zero ARGUMENTS` with stdout on a pseudo-terminal (stderr a pipe): what the terminal gets."""
    import pty

    leader, follower = pty.openpty()
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "400"}
    environment.pop("FORCE_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "zerolang", *arguments], stdout=follower, stderr=subprocess.PIPE, cwd=cwd,
        env=environment,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower closed: Linux reports EIO
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    _, err = process.communicate(timeout=120)
    assert process.returncode == (1 if arguments[:2] == ["fmt", "--diff"] else 0), err
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


DOCUMENTS = {
    "export 0c": lambda f: ["memory", "export", "--level", "L1", "--db", memory(f, SAMPLE)],
    "export 0": lambda f: ["memory", "export", "--format", "0", "--db", memory(f, SAMPLE)],
    "compile": lambda f: ["memory", "compile", str(f / "in.json")] if memory(f, SAMPLE) else [],
    "fmt --diff": lambda f: ["fmt", "--diff", graph_file(f, SAMPLE)],
    "archive get --raw": lambda f: [
        "archive",
        "get",
        archive(f, SAMPLE)[2],
        "--raw",
        "--root",
        str(f / "ar"),
    ],
}


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_documents_are_exact_in_a_pipe_and_escaped_on_a_terminal(tmp_path: Path, name: str) -> None:
    arguments = DOCUMENTS[name](tmp_path)
    # FORCE_COLOR (as in CI) never changes a document; a diff it colours is drawn, so shown escaped.
    code, piped, err = zero(*arguments, color=name != "fmt --diff")
    assert code == (1 if name == "fmt --diff" else 0), err  # a diff that shows a change exits 1
    assert "\u202eevil" in piped and raw_controls(piped) != []  # the exact text, for the next program
    terminal = on_terminal(arguments, tmp_path)
    assert raw_controls(terminal) == [], terminal
    assert "[red]a" in terminal and "pwned" in terminal.lower() and "\\u202eevil" in terminal
