"""The hook path: what `zero hook claude-code` (and `zero hook pi`) costs after every reply and with
every prompt.

- capture: one new turn appended to a Claude Code transcript of `--turns` turns (2,000), captured
  incrementally (`zerolang.agents.capture.capture_new_turns`: the lines from the store's cursor on
  are parsed, only the new turn is built and stored) vs. the whole file again (`capture_files`, what
  `zero capture FILE` does, with the file's cursor forgotten first: it would resume from it too),
  and by `zero hook claude-code` (a turn appended before each run);
- recall: `recalled_context` (recall + the budgeted rendering, 1,000 tokens) on a store of about
  `--experiences` experiences (10K), for prompts that match and one that does not;
- the whole process: `zero hook claude-code` for a Stop and a UserPromptSubmit event, and `zero
  hook pi` for an `agent_end` event on a pi session file of as many turns (a turn appended first),
  in process (the warm server off: `$ZERO_HOOK_SERVER`);
- before every prompt (issue 43, point 1): a memory of `--facts` facts (5,000) and `--memory-turns`
  turns (2,000), asked by `zero hook claude-code` (UserPromptSubmit, SessionStart) and `zero hook
  pi` (before_agent_start) as whole processes started as the installed `zero` script starts,
  with the warm server (`zerolang.cli.hook_server`, started by the first hook) and without it,
  beside `python -c pass` in the same run; the aim is 10x its median. Each figure has its CPU time
  too (the hook's and, on Linux, its server's), which a loaded machine changes less. The answers with and
  without the server are compared byte for byte.

Each figure is the median (min-max) of `--repeat` runs, in process unless said; SQLite. The hook
processes see no per-user memory store (their data folder is the bench's own), so none is opened to
carry its purges: what a hook costs where no memory store is kept beside the experiences.

    python benches/bench_hooks.py
    python benches/bench_hooks.py --turns 200 --experiences 1000 --repeat 3   # quick
    python benches/bench_hooks.py --only prompt                               # the prompt hook alone
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import CHILD_ENVIRONMENT, describe, load_average  # noqa: E402

from zerolang.agents.capture import capture_new_turns  # noqa: E402
from zerolang.agents.context import recalled_context  # noqa: E402
from zerolang.cli.hook_server import serving  # noqa: E402
from zerolang.experience.capture import capture_files  # noqa: E402
from zerolang.experience.model import CaptureBatch  # noqa: E402
from zerolang.storage import open_experiences  # noqa: E402

WORDS = [
    "billing",
    "login",
    "token",
    "clock",
    "pool",
    "config",
    "invoice",
    "exporter",
    "sensor",
    "compost",
    "humidity",
    "schema",
    "migration",
    "cache",
    "index",
    "query",
    "planner",
    "deadlock",
    "retry",
    "queue",
    "worker",
    "webhook",
    "parser",
    "lexer",
    "grammar",
    "release",
]


class PiSession:
    """A pi session file (version 3: a tree of entries), one turn (user, assistant with thinking and a
    tool call, tool result, answer) at a time."""

    def __init__(self, path: Path) -> None:
        self.path, self.last, self.count = path, None, 0
        self.file = path.open("a", encoding="utf-8")
        self.file.write(json.dumps({"type": "session", "version": 3, "id": "pi-bench-1", "cwd": "/w"}) + "\n")

    def entry(self, message: dict[str, object]) -> None:
        self.count += 1
        ident = f"p{self.count:08d}"
        line = {"type": "message", "id": ident, "parentId": self.last, "message": message}
        self.file.write(json.dumps(line | {"timestamp": f"2025-07-14T10:00:{self.count % 60:02d}Z"}) + "\n")
        self.last = ident

    def turn(self, n: int) -> None:
        a, b, c = (WORDS[(n * k) % len(WORDS)] for k in (1, 7, 13))
        self.entry(
            {"role": "user", "content": [{"type": "text", "text": f"Turn {n}: why does the {a} {b} fail?"}]}
        )
        call = {"type": "toolCall", "name": "read", "arguments": {"path": f"/src/{a}.py"}}
        self.entry(
            {"role": "assistant", "content": [{"type": "thinking", "thinking": f"Check the {b}."}, call]}
        )
        self.entry(
            {
                "role": "toolResult",
                "toolName": "read",
                "content": [{"type": "text", "text": f"def {a}(): ..."}],
            }
        )
        answer = {"type": "text", "text": f"The {a} {b} reads the {c} before it is ready; fixed in turn {n}."}
        self.entry({"role": "assistant", "content": [answer]})

    def flush(self) -> None:
        self.file.flush()


class Transcript:
    """A Claude Code session file, one turn (user, thinking, tool use, tool result, answer) at a time."""

    def __init__(self, path: Path, session: str) -> None:
        self.path, self.session, self.last, self.count = path, session, None, 0
        self.file = path.open("a", encoding="utf-8")

    def line(self, kind: str, message: dict[str, object]) -> None:
        self.count += 1
        uuid = f"{self.session[:8]}-{self.count:08d}"
        entry = {"parentUuid": self.last, "isSidechain": False, "sessionId": self.session, "type": kind}
        entry |= {"message": message, "uuid": uuid, "timestamp": f"2025-07-14T10:00:{self.count % 60:02d}Z"}
        self.file.write(json.dumps(entry) + "\n")
        self.last = uuid

    def turn(self, n: int) -> None:
        a, b, c = (WORDS[(n * k) % len(WORDS)] for k in (1, 7, 13))
        mid = f"msg_{n}"
        self.line("user", {"role": "user", "content": f"Turn {n}: why does the {a} {b} fail near the {c}?"})
        thinking = {"type": "thinking", "thinking": f"Check the {b} first, then the {c}.", "signature": "s"}
        self.line("assistant", {"id": mid, "role": "assistant", "content": [thinking]})
        use = {"type": "tool_use", "id": f"t{n}", "name": "Read", "input": {"file_path": f"/src/{a}.py"}}
        self.line("assistant", {"id": mid, "role": "assistant", "content": [use]})
        result = {"tool_use_id": f"t{n}", "type": "tool_result", "content": f"def {a}_{b}(): ..."}
        self.line("user", {"role": "user", "content": [result]})
        answer = {"type": "text", "text": f"The {a} {b} reads the {c} before it is ready; fixed in turn {n}."}
        self.line("assistant", {"id": f"{mid}b", "role": "assistant", "content": [answer]})

    def flush(self) -> None:
        self.file.flush()


def timed(repeat: int, action: Callable[[], object]) -> str:
    values = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        values.append((time.perf_counter() - start) * 1000)
    return f"{statistics.median(values):,.1f} ms ({min(values):,.1f}-{max(values):,.1f})"


def hook_process(
    db: Path,
    event: dict[str, object],
    repeat: int,
    before: Callable[[], object] | None = None,
    agent: str = "claude-code",
) -> str:
    """`zero hook AGENT` as a process on `event`; `before` (untimed) runs ahead of each."""
    text = json.dumps(event)
    data = db.parent / "data"  # no per-user memory store to open (see the docstring)
    env = {**CHILD_ENVIRONMENT, "XDG_DATA_HOME": str(data), "ZERO_MEMORY_DB": "", "PYTHONPATH": str(ROOT)}
    env["ZERO_HOOK_SERVER"] = "off"  # in process, as before the warm server (see `prompt_hook`)

    command = [sys.executable, "-m", "zerolang", "hook", agent, "--db", str(db)]
    values = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        subprocess.run(command, input=text, capture_output=True, text=True, check=True, env=env)
        values.append((time.perf_counter() - start) * 1000)
    return f"{statistics.median(values):,.1f} ms ({min(values):,.1f}-{max(values):,.1f})"


# `zero` as the installed console script starts it (pip's wrapper), this checkout's code first.
ZERO = [sys.executable, "-c", "import re, sys; from zerolang.cli.app import main; sys.exit(main())"]


def build_memory(db: Path, facts: int, turns: int) -> None:
    """`facts` facts (services using things, in batches of 250) and `turns` turns in sessions of 50."""
    import zerolang.memory

    with zerolang.memory.open(db) as memory:
        batch: list[tuple[str, str, str]] = []
        for n in range(facts):
            a, b = WORDS[n % len(WORDS)], WORDS[(n * 7) % len(WORDS)]
            batch.append((f"{a} service {n % 500}", f"uses_{b}", f"{WORDS[(n * 13) % len(WORDS)]} {n}"))
            if len(batch) == 250 or n == facts - 1:
                memory.remember(batch, source="bench", event_time="2025-01-01T00:00:00Z")
                batch = []
        for n in range(turns):
            a, b, c = (WORDS[(n * k) % len(WORDS)] for k in (1, 7, 13))
            memory.capture(
                session=f"bench-{n // 50}",
                user_said=f"Turn {n}: why does the {a} {b} fail near the {c}?",
                agent_said=f"The {a} {b} reads the {c} before it is ready; fixed in turn {n}.",
                when=f"2025-07-{1 + n // 100 % 28:02d}T10:{n // 60 % 60:02d}:{n % 60:02d}Z",
            )


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values):,.1f} ms ({min(values):,.1f}-{max(values):,.1f})"


class Run:
    """Each command's wall time and CPU time (ms: its own, and a server's where one answered) and output."""

    def __init__(self) -> None:
        self.walls: list[float] = []
        self.cpus: list[float] = []
        self.outputs: list[str] = []


def server_cpu(base: str) -> float:
    """The CPU time (ms) the bench's running hook servers have used so far (Linux: /proc; elsewhere 0)."""
    total = 0.0
    for lock in Path(base).glob("zerolang-hook-*/*.lock"):
        pid = serving(lock)
        if pid is None:
            continue
        with suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    return total


def run_each(commands: list[tuple[list[str], str]], env: dict[str, str], cwd: Path, base: str = "") -> Run:
    """Each command with its stdin, in turn."""
    import resource

    out = Run()
    for command, stdin in commands:
        before, served = resource.getrusage(resource.RUSAGE_CHILDREN), server_cpu(base) if base else 0.0
        start = time.perf_counter()
        done = subprocess.run(
            command, input=stdin, capture_output=True, text=True, env=env, cwd=cwd, check=True
        )
        out.walls.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        own = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        out.cpus.append(own * 1000 + ((server_cpu(base) - served) if base else 0.0))
        out.outputs.append(done.stdout + done.stderr)
    return out


@contextmanager
def socket_base() -> Iterator[str]:
    """A short folder of the bench's own for the server's socket (and the server, stopped at the end)."""
    with tempfile.TemporaryDirectory(prefix="zh", dir="/tmp") as base:
        try:
            yield base
        finally:
            for lock in Path(base).glob("zerolang-hook-*/*.lock"):
                pid = serving(lock)  # the server this bench's hook started, while it runs
                if pid is not None:
                    with suppress(OSError):
                        os.kill(pid, signal.SIGTERM)


def prompt_hook(options: argparse.Namespace) -> None:
    """Issue 43, point 1: the hook before every prompt on a memory of facts and turns."""
    with tempfile.TemporaryDirectory() as folder, socket_base() as base:
        here = Path(folder)
        db = here / "memory.db"
        start = time.perf_counter()
        build_memory(db, options.facts, options.memory_turns)
        built = time.perf_counter() - start
        print(
            f"prompt: a memory of {options.facts:,} facts and {options.memory_turns:,} turns"
            f" ({db.stat().st_size / 1e6:.1f} MB, built in {built:.1f} s), budget 1,000 tokens"
        )
        project = here / "billing-service"
        project.mkdir()
        prompts = [
            "why does the billing login fail near the clock?",
            "which service uses the token cache?",
            "the cache deadlock again",
        ]
        events: list[tuple[str, str, str]] = [
            *(
                (
                    "claude-code",
                    "UserPromptSubmit",
                    json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "c", "prompt": p}),
                )
                for p in prompts
            ),
            (
                "claude-code",
                "SessionStart",
                json.dumps(
                    {
                        "hook_event_name": "SessionStart",
                        "session_id": "c",
                        "source": "startup",
                        "cwd": str(project),
                    }
                ),
            ),
            (
                "pi",
                "before_agent_start",
                json.dumps({"event": "before_agent_start", "prompt": prompts[0], "cwd": str(project)}),
            ),
        ]
        env = {
            **CHILD_ENVIRONMENT,
            "XDG_DATA_HOME": str(here / "data"),
            "ZERO_MEMORY_DB": "",
            "PYTHONPATH": str(ROOT),
        }
        env["XDG_RUNTIME_DIR"] = base
        off, on = {**env, "ZERO_HOOK_SERVER": "off"}, {**env, "ZERO_HOOK_SERVER": "on"}

        def commands(kind: str) -> list[tuple[list[str], str]]:
            return [
                ([*ZERO, "hook", runtime, "--db", str(db)], text)
                for runtime, name, text in events
                if name == kind
            ]

        kinds = ["UserPromptSubmit", "SessionStart", "before_agent_start"]
        run_each([([sys.executable, "-c", "pass"], "")] * 2, env, project)  # untimed: warm the caches
        run_each(commands("SessionStart"), off, project)  # warm the file cache, write the bytecode
        run_each(commands("SessionStart"), on, project)  # starts the server (it answers the next)
        socket = next(Path(base).glob("zerolang-hook-*"), None)
        for _ in range(600):
            if socket is not None and any(socket.glob("*.sock")):
                break
            time.sleep(0.05)
            socket = next(Path(base).glob("zerolang-hook-*"), None)
        runs = {(kind, state): Run() for kind in kinds for state in ("on", "off")}
        reference = Run()
        same = True
        for _ in range(options.repeat):  # interleaved, so a change of load falls on every figure alike
            one = run_each([([sys.executable, "-c", "pass"], "")], env, project)
            reference.walls += one.walls
            reference.cpus += one.cpus
            for kind in kinds:
                for state, variables in (("off", off), ("on", on)):
                    done = run_each(commands(kind), variables, project, base)
                    runs[kind, state].walls += done.walls
                    runs[kind, state].cpus += done.cpus
                    runs[kind, state].outputs += done.outputs
                same = same and runs[kind, "off"].outputs == runs[kind, "on"].outputs
        floor, floor_cpu = statistics.median(reference.walls), statistics.median(reference.cpus)
        print(f"  reference: python -c pass          {median_ms(reference.walls)}; CPU {floor_cpu:.1f} ms")
        labels = {
            "UserPromptSubmit": "zero hook claude-code UserPromptSubmit",
            "SessionStart": "zero hook claude-code SessionStart    ",
            "before_agent_start": "zero hook pi before_agent_start       ",
        }
        for kind in kinds:
            for state, name in (("on", "warm server"), ("off", "in process ")):
                done = runs[kind, state]
                ratio = statistics.median(done.walls) / floor
                cpu = statistics.median(done.cpus)
                print(
                    f"  {labels[kind]} {name}  {median_ms(done.walls)}  {ratio:.1f}x python -c pass;"
                    f" CPU {cpu:.1f} ms ({cpu / floor_cpu:.1f}x)"
                )
        print(f"  answers with and without the server: {'byte-identical' if same else 'DIFFERENT'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--experiences", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--facts", type=int, default=5000)
    parser.add_argument("--memory-turns", type=int, default=2000)
    parser.add_argument("--only", choices=["prompt"], help="only the hook before every prompt")
    options = parser.parse_args()
    print(f"Machine: {describe()}")
    print(f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `python benches/bench_hooks.py`.")
    before = load_average()
    if options.only == "prompt":
        prompt_hook(options)
        print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")
        return
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        db = here / "experiences.db"
        transcript = Transcript(here / "session.jsonl", "aaaaaaaa-0000-4000-8000-000000000001")
        for n in range(options.turns):
            transcript.turn(n)
        transcript.flush()
        size = transcript.path.stat().st_size
        print(f"capture: a {options.turns:,}-turn transcript ({size / 1e6:.1f} MB), one new turn each run")
        with open_experiences(db, create=True) as store:
            capture_new_turns(store, transcript.path)
            turn = [options.turns]

            def one_more() -> None:
                transcript.turn(turn[0])
                transcript.flush()
                turn[0] += 1
                capture_new_turns(store, transcript.path)

            print(f"  incremental (capture_new_turns)   {timed(options.repeat, one_more)}")
            key = os.path.abspath(transcript.path)

            def read_whole() -> None:  # `zero capture` of the file with its cursor forgotten
                store.add(CaptureBatch(cursors=[(key, None)]))  # (one small commit, timed too)
                capture_files(store, [transcript.path])

            print(f"  whole file (capture_files)        {timed(options.repeat, read_whole)}")
        stop = {
            "hook_event_name": "Stop",
            "session_id": transcript.session,
            "transcript_path": str(transcript.path),
        }

        def append() -> None:
            transcript.turn(turn[0])
            transcript.flush()
            turn[0] += 1

        print(f"  process: zero hook claude-code    {hook_process(db, stop, options.repeat, append)}")

        pi = PiSession(here / "pi-session.jsonl")
        for n in range(options.turns):
            pi.turn(n)
        pi.flush()
        pi_db = here / "pi.db"
        with open_experiences(pi_db, create=True) as store:
            capture_new_turns(store, pi.path, fmt="pi")
        pi_turn = [options.turns]

        def pi_append() -> None:
            pi.turn(pi_turn[0])
            pi.flush()
            pi_turn[0] += 1

        end = {"event": "agent_end", "session_file": str(pi.path)}
        print(
            f"  process: zero hook pi             {hook_process(pi_db, end, options.repeat, pi_append, 'pi')}"
        )

        big = here / "big.db"
        other = Transcript(here / "other.jsonl", "bbbbbbbb-0000-4000-8000-000000000002")
        for n in range(max(1, options.experiences // 4)):  # 4 experiences a turn
            other.turn(n)
        other.flush()
        with open_experiences(big, create=True) as store:
            capture_new_turns(store, other.path)
            counted = store.counts()["experiences"]
            print(f"recall: a store of {counted:,} experiences, budget 1,000 tokens")
            prompts = [
                "why does the billing login fail near the clock?",
                "the cache deadlock again",
                "zebra quasar",
            ]
            for prompt in prompts:
                figure = timed(options.repeat, lambda p=prompt: recalled_context(store, p, budget=1000))
                print(f"  {prompt!r:<52}{figure}")
        event = {"hook_event_name": "UserPromptSubmit", "session_id": "c", "prompt": prompts[0]}
        print(f"  process: zero hook claude-code    {hook_process(big, event, options.repeat)}")
    prompt_hook(options)
    print(f"Load average on {os.cpu_count()} cores: {before} before, {load_average()} after.")


if __name__ == "__main__":
    main()
