"""Running the real `zero` command in a process of its own (tests/forked.py): exit codes, stderr and files as a
user sees them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tests import forked

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
    code, stdout, stderr = forked.run(list(args), stdin=stdin, cwd=cwd, env=environment)
    return Outcome(code, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"))


def graph(*nodes: str, outputs: str = "") -> str:
    """A `.0` graph of the given node literals."""
    body = ",\n        ".join(nodes)
    return f'Graph {{\n    name: "t",\n    nodes: [\n        {body},\n    ],\n    outputs: [{outputs}],\n}}\n'
