"""Diagnostics on a broken 20,000-node file: `zero check` and the language server while it analyses.

The file: a constant, then 19,999 nodes each with an unknown op (`Addd`) and an input that names
no node: 39,998 problems. Rows, in one run:

- `zero check` on it (whole process, wall and CPU, median of the repeats), beside two references
  measured in the same run: `zero check` on the same file without the problems (parse and
  validate only) and `python -c pass`;
- `zero lsp` over stdio (a plain JSON-RPC client in this script): the document is opened and
  checked, then one character is changed in its middle; while the server analyses the new text,
  a hover (near the top, before the change) and a completion request are sent every `PACE`
  seconds until the new diagnostics arrive (the whole analysis, to its publishing, not just its
  start), each timed from send to answer. The reference: the same requests on the idle server.
  Also counted: which versions got diagnostics published (the stale one must not).

    python benches/bench_diagnostics.py [--nodes 20000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from queue import Queue
from typing import Any

from machine import CHILD_ENVIRONMENT, describe, load_average, process_times

ROOT = Path(__file__).resolve().parents[1]


def document(count: int, broken: bool) -> str:
    op, extra = ("Addd", ', "missing{i}"') if broken else ("Identity", "")
    lines = [
        "Graph {",
        '    name: "diagnostics",',
        "    nodes: [",
        '        { id: "n0", type: Constant, value: 1 },',
    ]
    for i in range(1, count):
        inputs = f'"n{i - 1}"' + extra.format(i=i)
        lines.append(f'        {{ id: "n{i}", type: Operation, op: {op}, inputs: [{inputs}] }},')
    lines += ["    ],", f'    outputs: ["n{count - 1}"],', "}"]
    return "\n".join(lines) + "\n"


def zero(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "zerolang", *arguments]


def check_rows(folder: Path, count: int, repeats: int) -> list[tuple[str, list[float], list[float]]]:
    broken, clean = folder / "broken.0", folder / "clean.0"
    broken.write_text(document(count, True), encoding="utf-8")
    clean.write_text(document(count, False), encoding="utf-8")
    rows = []
    for label, command in (
        ("`python -c pass` (reference)", [sys.executable, "-c", "pass"]),
        (f"`zero check` {count:,} nodes, no problems (reference)", zero("check", str(clean))),
        (
            f"`zero check` {count:,} nodes, {2 * (count - 1):,} problems",
            [*zero("check", str(broken)), "--json"],
        ),
    ):
        try:
            walls, cpus = process_times(command, repeats)
        except subprocess.CalledProcessError:
            walls, cpus = _failing_times(command, repeats)
        rows.append((label, walls, cpus))
    return rows


def _failing_times(command: list[str], repeats: int) -> tuple[list[float], list[float]]:
    """`process_times` for a command that exits 1 (a check that finds problems)."""
    import resource

    walls, cpus = [], []
    for index in range(repeats + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, env=CHILD_ENVIRONMENT, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if index:  # the first is a warm-up
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


class Client:
    """JSON-RPC over a `zero lsp` process's stdin and stdout."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            zero("lsp"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=CHILD_ENVIRONMENT
        )
        self.answers: dict[int, Queue[tuple[float, Any]]] = {}
        self.published: Queue[tuple[float, dict[str, Any]]] = Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params: Any) -> tuple[float, Any]:
        """(milliseconds from send to answer, the answer)."""
        self.next_id += 1
        box: Queue[tuple[float, Any]] = Queue()
        self.answers[self.next_id] = box
        start = time.perf_counter()
        self.send({"id": self.next_id, "method": method, "params": params})
        end, result = box.get(timeout=600)
        return (end - start) * 1000, result

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(stream.read(length))
            now = time.perf_counter()
            if "id" in message and "method" not in message:
                self.answers[message["id"]].put((now, message.get("result")))
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.published.put((now, message["params"]))

    def close(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=60)


# Seconds between two hover and completion pairs while the server analyses; at most `MOST_PAIRS`.
PACE = 0.01
MOST_PAIRS = 5000


def lsp_rows(count: int, samples: int) -> dict[str, Any]:
    text = document(count, True)
    uri = "file:///bench/broken.0"
    client = Client()
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    start = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "zero", "version": 1, "text": text}},
    )
    when, first = client.published.get(timeout=600)
    opened = when - start
    hover = {"textDocument": {"uri": uri}, "position": {"line": 10, "character": 16}}
    complete = {"textDocument": {"uri": uri}, "position": {"line": 10, "character": 39}}
    idle_hover = [client.request("textDocument/hover", hover)[0] for _ in range(samples)]
    idle_complete = [client.request("textDocument/completion", complete)[0] for _ in range(samples)]
    middle = count // 2 + 3
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": middle, "character": 8},
                        "end": {"line": middle, "character": 8},
                    },
                    "text": " ",
                }
            ],
        },
    )
    time.sleep(0.3)  # past the server's pause after typing: the analysis of version 2 is under way
    busy_hover, busy_complete = [], []
    hovered = None
    changed = time.perf_counter()
    while client.published.empty() and len(busy_hover) < MOST_PAIRS:
        took, hovered = client.request("textDocument/hover", hover)
        busy_hover.append(took)
        busy_complete.append(client.request("textDocument/completion", complete)[0])
        time.sleep(PACE)
    when, second = client.published.get(timeout=600)
    reanalysed = when - changed + 0.3
    client.close()
    return {
        "opened": opened,
        "reanalysed": reanalysed,
        "versions": [first.get("version"), second.get("version")],
        "diagnostics": len(second["diagnostics"]),
        "idle_hover": idle_hover,
        "idle_complete": idle_complete,
        "busy_hover": busy_hover,
        "busy_complete": busy_complete,
        "hover_answered": hovered is not None,
    }


def spread(values: list[float], unit: str, digits: int = 1) -> str:
    return (
        f"{statistics.median(values):.{digits}f} {unit} ({min(values):.{digits}f}-{max(values):.{digits}f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    print(f"Machine: {describe()}")
    print(f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `python benches/bench_diagnostics.py`.")
    before = load_average()
    with tempfile.TemporaryDirectory() as folder:
        rows = check_rows(Path(folder), options.nodes, options.repeats)
    lsp = lsp_rows(options.nodes, 20)
    print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")
    print()
    print("| command | wall | CPU (user + system) |")
    print("|---|---:|---:|")
    for label, walls, cpus in rows:
        print(f"| {label} | {spread(walls, 's', 2)} | {spread(cpus, 's', 2)} |")
    print()
    print(
        f"`zero lsp`, a broken {options.nodes:,}-node document, "
        "median (min-max) of each request's round trip:"
    )
    print()
    print("| request | idle server (reference) | while the changed text is analysed |")
    print("|---|---:|---:|")
    print(f"| hover | {spread(lsp['idle_hover'], 'ms')} | {spread(lsp['busy_hover'], 'ms')} |")
    print(f"| completion | {spread(lsp['idle_complete'], 'ms')} | {spread(lsp['busy_complete'], 'ms')} |")
    print()
    print(
        f"Open to first diagnostics {lsp['opened']:.2f} s; "
        f"change to new diagnostics {lsp['reanalysed']:.2f} s "
        f"({len(lsp['busy_hover'])} hover and completion pairs answered meanwhile, hover "
        f"{'with' if lsp['hover_answered'] else 'without'} an answer); diagnostics published for versions "
        f"{lsp['versions']}, {lsp['diagnostics']} of them (the cap, and its note)."
    )


if __name__ == "__main__":
    main()
