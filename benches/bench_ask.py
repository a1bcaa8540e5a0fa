"""Questions in plain words: is the answer held in a 400-token context, and how fast is it found?

    python benches/bench_ask.py                      # SQLite, in process and through `zero recall`
    python benches/bench_ask.py --quick              # in process only
    python benches/bench_ask.py --backend postgres   # the memory on PostgreSQL (benches/stores.py)
    python benches/bench_ask.py --set held_out       # one question set (default: every set, each reported)

The question sets are our own (`benches/questions/*.json`, not LoCoMo). `plain_words` was written
beside the code; `held_out` was written apart from it, as another agent builder would (other
domains and predicates, names with accents and several words, asked by first or last name,
inverse and one-hop questions), to show how far the first set's figures carry. Each holds facts with
histories (single-valued predicates superseded over the years), observations and relations,
a few conversation turns, and questions asked as an agent asks them ("Where did Carol work in
2021?", "Who mentors Carol?", "Which city is Carol's employer in?"), each with the words its
answer holds. Its memory is built through the Python API (`remember` from each fact's time,
`capture` for the turns). Each question is asked with a budget of `--budget` tokens (400):

- **held**: the share of questions whose every answer word is in the context, by surface:
  `Memory.ask` (its text and its JSON form's lines) and `zero recall` as a process (its text
  and `--json`);
- **superseded after current**: among held questions naming superseded values (or, for a
  time asked about, values that came later), the share where the answer comes first;
- **tokens per answer**: the context's cl100k tokens, mean and median (the budget is a cap);
- **latency**: `Memory.ask` in process, p50 and p95 over `--repeat` rounds of every question
  (after one untimed round), beside conversation recall alone (`Memory.recall`) as the
  reference measured in the same run; and `zero recall` as a process, p50 and p95, beside
  `python -c pass`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import machine

import zerolang.memory
from zerolang.util.tokens import count_tokens

QUESTIONS = Path(__file__).resolve().parent / "questions"
SETS = tuple(sorted(path.stem for path in QUESTIONS.glob("*.json")))


def build(memory: zerolang.memory.Memory, data: dict[str, Any]) -> None:
    memory.declare_single_valued(data["single_valued"], now="2000-01-01")
    for subject, predicate, value, start in data["facts"]:
        memory.remember([(subject, predicate, value)], event_time=f"{start}T00:00:00Z", source="bench")
    for turn in data["turns"]:
        memory.capture(
            session=turn["session"],
            user_said=turn["user_said"],
            agent_said=turn["agent_said"],
            when=turn["when"],
        )


def held(context: str, question: dict[str, Any]) -> bool:
    return all(answer in context.lower() for answer in question["answers"])


def in_order(context: str, question: dict[str, Any]) -> bool:
    text = context.lower()
    first = text.find(question["answers"][0])
    return all(text.find(old) < 0 or first < text.find(old) for old in question.get("superseded", ()))


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed(work: Callable[[], object], rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        out.append((time.perf_counter() - start) * 1000)
    return out


def run(args: argparse.Namespace, name: str) -> dict[str, Any]:
    data = json.loads((QUESTIONS / f"{name}.json").read_text(encoding="utf-8"))
    import stores

    with (
        tempfile.TemporaryDirectory(prefix="bench-ask-") as scratch,
        stores.location(args.backend) as location,
    ):
        return measure(args, data, Path(scratch), location)


def measure(args: argparse.Namespace, data: dict[str, Any], folder: Path, location: str) -> dict[str, Any]:
    """Build the question set's memory at `location` (its experiences in `folder`) and measure."""
    questions, now = data["questions"], data["now"]
    experiences = str(folder / "memory.experiences.db")
    space = f"ask{os.getpid()}"
    results: dict[str, Any] = {"questions": len(questions), "budget": args.budget}
    with zerolang.memory.open(location, space=space, experiences=experiences, archive=folder / "a") as memory:
        build(memory, data)
        texts, jsons, tokens, ordered, misses = [], [], [], [], []
        for question in questions:
            found = memory.ask(question["q"], budget=args.budget, now=now)
            as_json = memory.ask(question["q"], budget=args.budget, now=now, as_json=True)
            lines = "\n".join(line["text"] for line in json.loads(as_json.json)["lines"])
            texts.append(held(found.text, question))
            jsons.append(held(lines, question))
            tokens.append(found.tokens)
            if not texts[-1]:
                misses.append(question["q"])
            if texts[-1] and question.get("superseded"):
                ordered.append(in_order(found.text, question))
        results["held_api"] = sum(texts) / len(texts)
        results["held_api_json"] = sum(jsons) / len(jsons)
        results["superseded_after_current"] = sum(ordered) / len(ordered) if ordered else 1.0
        results["tokens_mean"] = statistics.fmean(tokens)
        results["tokens_median"] = statistics.median(tokens)
        results["missed"] = misses
        for question in questions:  # one untimed round
            memory.ask(question["q"], budget=args.budget, now=now)
        ask_ms: list[float] = []
        recall_ms: list[float] = []
        for _ in range(args.repeat):
            for question in questions:
                ask_ms += timed(lambda q=question["q"]: memory.ask(q, budget=args.budget, now=now), 1)
                recall_ms += timed(lambda q=question["q"]: memory.recall_turns(q), 1)
        results["ask_p50_ms"], results["ask_p95_ms"] = percentile(ask_ms, 0.5), percentile(ask_ms, 0.95)
        results["recall_p50_ms"] = percentile(recall_ms, 0.5)
        results["recall_p95_ms"] = percentile(recall_ms, 0.95)
    if not args.quick:
        results |= processes(questions, location, space, experiences, now, args.budget)
    return results


def processes(
    questions: list[dict[str, Any]], location: str, space: str, experiences: str, now: str, budget: int
) -> dict[str, Any]:
    """Every question through `zero recall` as a process (its text and its `--json`), and as Claude
    Code's `UserPromptSubmit` hook (`zero hook claude-code`, what an agent waits for at each prompt)."""
    env = {**machine.CHILD_ENVIRONMENT, "ZERO_MEMORY_SPACE": space}
    base = [sys.executable, "-m", "zerolang", "recall"]
    where = ["--db", location, "--experiences", experiences]
    texts, jsons, wall = [], [], []
    for question in questions:
        options = [question["q"], "--budget", str(budget), *where, "--now", now]
        start = time.perf_counter()
        done = subprocess.run([*base, *options], capture_output=True, text=True, env=env, check=True)
        wall.append((time.perf_counter() - start) * 1000)
        texts.append(held(done.stdout, question) and count_tokens(done.stdout) <= budget)
        printed = subprocess.run(
            [*base, *options, "--json"], capture_output=True, text=True, env=env, check=True
        )
        lines = "\n".join(line["text"] for line in json.loads(printed.stdout)["lines"])
        jsons.append(held(lines, question) and count_tokens(printed.stdout.rstrip("\n")) <= budget)
    hooked, hook_wall = [], []
    hook = [
        sys.executable,
        "-m",
        "zerolang",
        "hook",
        "claude-code",
        "--db",
        location,
        "--budget",
        str(budget),
    ]
    hook_env = {**env, "ZERO_EXPERIENCE_DB": experiences}  # the hook names its turns apart by the variable
    hook_env["ZERO_HOOK_SERVER"] = "off"  # the hook working alone; with its warm server: bench_hooks.py
    for question in questions:  # the hook has no clock option: a dated question is read as of today
        event = {"hook_event_name": "UserPromptSubmit", "session_id": "bench", "prompt": question["q"]}
        start = time.perf_counter()
        done = subprocess.run(
            hook, input=json.dumps(event), capture_output=True, text=True, env=hook_env, check=True
        )
        hook_wall.append((time.perf_counter() - start) * 1000)
        context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""
        hooked.append(held(context, question) and count_tokens(context) <= budget)
    reference = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 10)
    return {
        "held_cli": sum(texts) / len(texts),
        "held_cli_json": sum(jsons) / len(jsons),
        "held_hook": sum(hooked) / len(hooked),
        "cli_p50_ms": percentile(wall, 0.5),
        "cli_p95_ms": percentile(wall, 0.95),
        "hook_p50_ms": percentile(hook_wall, 0.5),
        "hook_p95_ms": percentile(hook_wall, 0.95),
        "python_pass_ms": statistics.median(reference),
    }


def report(name: str, results: dict[str, Any], args: argparse.Namespace) -> None:
    pct = lambda value: f"{100 * value:.1f}%"  # noqa: E731
    print(
        f"# Plain-words questions, set `{name}`"
        f" ({results['questions']} questions, {args.backend}, budget {args.budget})\n"
    )
    print("| surface | answer held |")
    print("|---|---:|")
    print(f"| `Memory.ask` text | {pct(results['held_api'])} |")
    print(f"| `Memory.ask` JSON | {pct(results['held_api_json'])} |")
    if "held_cli" in results:
        print(f"| `zero recall` | {pct(results['held_cli'])} |")
        print(f"| `zero recall --json` | {pct(results['held_cli_json'])} |")
        print(f"| `zero hook claude-code` (UserPromptSubmit) | {pct(results['held_hook'])} |")
    print()
    print(f"superseded values after the current one: {pct(results['superseded_after_current'])}")
    print(f"tokens per answer: {results['tokens_mean']:.0f} mean, {results['tokens_median']:.0f} median")
    print(
        f"latency in process: Memory.ask p50 {results['ask_p50_ms']:.2f} ms,"
        f" p95 {results['ask_p95_ms']:.2f} ms;"
        f" reference Memory.recall_turns (conversations alone) p50 {results['recall_p50_ms']:.2f} ms,"
        f" p95 {results['recall_p95_ms']:.2f} ms"
    )
    if "cli_p50_ms" in results:
        print(
            f"latency as a process: zero recall p50 {results['cli_p50_ms']:.0f} ms,"
            f" p95 {results['cli_p95_ms']:.0f} ms;"
            f" zero hook claude-code p50 {results['hook_p50_ms']:.0f} ms,"
            f" p95 {results['hook_p95_ms']:.0f} ms;"
            f" reference python -c pass {results['python_pass_ms']:.0f} ms"
        )
    if results["missed"]:
        print("missed: " + "; ".join(results["missed"]))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--budget", type=int, default=400, help="tokens of context (default 400)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds of every question (default 5)")
    parser.add_argument("--quick", action="store_true", help="in process only (no `zero recall` processes)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--set", choices=SETS, action="append", help="a question set (default: every set)")
    args = parser.parse_args()
    results = {name: run(args, name) for name in args.set or SETS}
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for name, found in results.items():
        report(name, found, args)
    print(f"machine: {machine.describe()}")
    print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load {machine.load_average()}")


if __name__ == "__main__":
    main()
