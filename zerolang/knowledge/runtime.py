"""`MemoryRuntime`: what 0-memory needs from a 0-lang runtime (seed 000 §2), and two runtimes.

- `InterpreterRuntime`: our interpreter, with the memory ops reaching a store;
- `CommandRuntime`: any runtime behind a command. Each call runs the command
  once with one JSON request on stdin and reads one JSON reply on stdout:

      {"op": "hash", "data": HEX}                      -> {"ok": true, "result": HEX}
      {"op": "execute", "graph": TEXT, "inputs": {..}}  -> {"ok": true, "result": {output: value}}
      {"op": "load_state", "key": K}                    -> {"ok": true, "result": VALUE|null}
      {"op": "save_state", "key": K, "value": VALUE}    -> {"ok": true, "result": null}

  A reply `{"ok": false, "error": MESSAGE}`, a non-zero exit, a timeout or a
  reply that is not this JSON is a `ZeroError` naming the command.

Values cross the boundary as JSON (`zerolang.runtime.values.to_json`/`from_json`).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from zerolang.util.errors import ZeroError

if TYPE_CHECKING:
    from zerolang.knowledge.store import MemoryStore


class MemoryRuntime(Protocol):
    def hash(self, data: bytes) -> str:
        """SHA-256 of `data`, hex."""

    def execute_graph(self, graph: str, inputs: dict[str, object]) -> dict[str, object]:
        """Run a `.0` graph (source text) with run inputs; its outputs, as JSON values."""

    def load_state(self, key: str) -> object | None: ...

    def save_state(self, key: str, value: object) -> None: ...


class InterpreterRuntime:
    """The zerolang interpreter as a MemoryRuntime; `memory` is the store the Memory* ops use."""

    def __init__(self, memory: MemoryStore | None = None, clock: Callable[[], float] | None = None) -> None:
        from zerolang.runtime.state import MemoryStateStore

        self.memory = memory
        self.clock = clock
        self.state = MemoryStateStore()

    def hash(self, data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    def execute_graph(self, graph: str, inputs: dict[str, object]) -> dict[str, object]:
        from zerolang.knowledge.graph_port import GraphMemory
        from zerolang.runtime.interpreter import run
        from zerolang.runtime.validator import validate_or_raise
        from zerolang.runtime.values import from_json, to_json
        from zerolang.syntax.parser import parse

        parsed = parse(graph, "<graph>")
        validate_or_raise(parsed, "<graph>", graph)
        result = run(
            parsed,
            {name: from_json(value) for name, value in inputs.items()},
            state=self.state,
            clock=self.clock,
            memory=None if self.memory is None else GraphMemory(self.memory),
            path="<graph>",
            source=graph,
        )
        return {name: to_json(value) for name, value in result.outputs.items()}

    def load_state(self, key: str) -> object | None:
        from zerolang.runtime.state import MISSING
        from zerolang.runtime.values import to_json

        value = self.state.load(key)
        return None if value is MISSING else to_json(value)

    def save_state(self, key: str, value: object) -> None:
        from zerolang.runtime.values import from_json

        self.state.save(key, from_json(value))


class CommandRuntime:
    """A runtime behind a command (see the module docs for the protocol)."""

    def __init__(self, command: Sequence[str], timeout: float = 120.0) -> None:
        if not command:
            raise ZeroError("an external runtime needs a command")
        self.command = list(command)
        self.timeout = timeout

    def _call(self, request: dict[str, object]) -> object:
        name = " ".join(self.command)
        try:
            done = subprocess.run(
                self.command,
                input=json.dumps(request, ensure_ascii=False).encode(),
                capture_output=True,
                timeout=self.timeout,
                check=False,
            )
        except FileNotFoundError:
            raise ZeroError(f"runtime `{name}`: no such command") from None
        except subprocess.TimeoutExpired:
            raise ZeroError(f"runtime `{name}`: no reply within {self.timeout:g} s") from None
        if done.returncode != 0:
            lines = done.stderr.decode(errors="replace").strip().splitlines()
            why = lines[-1] if lines else "no message"
            raise ZeroError(f"runtime `{name}` exited with {done.returncode}: {why}")
        try:
            reply = json.loads(done.stdout)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ZeroError(f"runtime `{name}`: the reply is not JSON") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise ZeroError(f'runtime `{name}`: the reply is not {{"ok": ..., "result"|"error": ...}}')
        if not reply["ok"]:
            raise ZeroError(f"runtime `{name}`: {reply.get('error', 'failed')}")
        return reply.get("result")

    def hash(self, data: bytes) -> str:
        result = self._call({"op": "hash", "data": data.hex()})
        if not isinstance(result, str):
            raise ZeroError(f"runtime `{' '.join(self.command)}`: hash did not return a hex string")
        return result

    def execute_graph(self, graph: str, inputs: dict[str, object]) -> dict[str, object]:
        result = self._call({"op": "execute", "graph": graph, "inputs": inputs})
        if not isinstance(result, dict):
            raise ZeroError(
                f"runtime `{' '.join(self.command)}`: execute did not return an object of outputs"
            )
        return result

    def load_state(self, key: str) -> object | None:
        return self._call({"op": "load_state", "key": key})

    def save_state(self, key: str, value: object) -> None:
        self._call({"op": "save_state", "key": key, "value": value})


def check_record_graph(runtime: MemoryRuntime, record: object) -> list[str]:
    """Run the memory compiler's graph of `record` on `runtime`; the hashes it got wrong (none: agrees)."""
    from zerolang.knowledge.compiler import build_graph
    from zerolang.knowledge.types import MemoryRecord
    from zerolang.syntax.printer import print_graph

    assert isinstance(record, MemoryRecord)
    outputs = runtime.execute_graph(print_graph(build_graph(record)), {})
    made = outputs.get("memory_record")
    if not isinstance(made, dict):
        return ["memory_record: missing"]
    wrong = []
    if made.get("context_hash") not in (str(record.context.hash), _bytes_json(record.context.hash.digest)):
        wrong.append("context_hash")
    relations = made.get("relations")
    if not isinstance(relations, dict) or len(relations) != len(record.relations):
        wrong.append("relations")
    return wrong


def _bytes_json(data: bytes) -> object:
    from zerolang.runtime.values import to_json

    return to_json(data)
