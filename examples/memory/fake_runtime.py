"""A fake 0-lang runtime for the MemoryRuntime command protocol: one JSON request in, one reply out.

A template for adapting another runtime (`zero run FILE --runtime "python fake_runtime.py"`);
the tests use it to check what crosses the boundary.

It does not interpret graphs: `execute` answers with the graph's line count and its inputs, so
a test can see exactly what crossed the boundary. State lives in the file named by
$FAKE_RUNTIME_STATE. A graph containing `FAIL` makes it report an error; `CRASH`, exit 3.
"""

import hashlib
import json
import os
import sys
from pathlib import Path

request = json.load(sys.stdin)
op = request["op"]
state_path = os.environ.get("FAKE_RUNTIME_STATE", "fake_state.json")
state = json.loads(Path(state_path).read_text()) if os.path.exists(state_path) else {}
if op == "hash":
    reply = {"ok": True, "result": hashlib.sha256(bytes.fromhex(request["data"])).hexdigest()}
elif op == "execute":
    if "CRASH" in request["graph"]:
        sys.stderr.write("fake runtime: crashed on purpose\n")
        sys.exit(3)
    if "FAIL" in request["graph"]:
        reply = {"ok": False, "error": "the graph asked to fail"}
    else:
        lines = len(request["graph"].splitlines())
        reply = {"ok": True, "result": {"lines": lines, "echo": request["inputs"]}}
elif op == "load_state":
    reply = {"ok": True, "result": state.get(request["key"])}
elif op == "save_state":
    state[request["key"]] = request["value"]
    Path(state_path).write_text(json.dumps(state))
    reply = {"ok": True, "result": None}
else:
    reply = {"ok": False, "error": f"unknown op {op}"}
sys.stdout.write(json.dumps(reply))
