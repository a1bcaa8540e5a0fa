"""Running the real `zero` command in a subprocess: exit codes, stderr and files as a user sees them."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INTERNAL = "internal error"


@dataclass(frozen=True, slots=True)
class Outcome:
    code: int
    stdout: str
    stderr: str

    def clear_error(self) -> str:
        """The one error line; fails the test on a crash (exit 3), a traceback or a success."""
        assert self.code == 1, (self.code, self.stderr)
        assert INTERNAL not in self.stderr and "Traceback" not in self.stderr, self.stderr
        assert self.stderr.startswith("error: "), self.stderr
        return self.stderr.splitlines()[0]


def zero(
    *args: str, stdin: bytes = b"", cwd: Path | None = None, env: dict[str, str] | None = None
) -> Outcome:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(ROOT) + os.pathsep + environment.get("PYTHONPATH", "")
    environment.update(env or {})
    completed = subprocess.run(
        [sys.executable, "-m", "zerolang", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=environment,
        timeout=300,
        check=False,
    )
    return Outcome(
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )


def graph(*nodes: str, outputs: str = "") -> str:
    """A `.0` graph of the given node literals."""
    body = ",\n        ".join(nodes)
    return f'Graph {{\n    name: "t",\n    nodes: [\n        {body},\n    ],\n    outputs: [{outputs}],\n}}\n'
