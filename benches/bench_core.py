"""Core throughput: parse, validate and run generated graphs; the parser's options one by one; start-up.

Prints three markdown tables (and writes them to benches/results/core.md):

1. parse, validate and run graphs of 1K, 10K and 100K simple nodes (once
   from the AST, and again from a compiled `Program`), with `json.loads` of
   the same graph as JSON for reference;
2. the parser on dense, printed and comment-heavy text, one option at a time
   (lark's own lexer and tree builder, our grammar-built lexer, our lean tree
   builder), with the ceilings: the lexer alone, and lexer plus lark's LALR
   loop building nothing;
3. whole processes: `zero run` on a tiny graph (table and --json), `zero check`,
   `zero --help`, beside `python -c pass`.

Every figure is the median of several repetitions with the min-max range.
In-process rows use CPU time (`time.process_time`): on a shared VM wall time
measures the neighbours too. Whole-process rows give wall time and the child's
CPU time (user + system), with bytecode written and used as in an installed
package. The load average before and after is printed.

    python benches/bench_core.py            # 1K, 10K, 100K
    python benches/bench_core.py --quick    # 1K, 10K, fewer repetitions
    python benches/bench_core.py --help
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benches"))

from machine import describe  # noqa: E402

from zerolang.runtime.interpreter import Program, run  # noqa: E402
from zerolang.runtime.validator import validate  # noqa: E402
from zerolang.syntax import parser as zero_parser  # noqa: E402
from zerolang.syntax.ast import Array, Entry, Graph, Map, Node, String, from_python, to_python  # noqa: E402
from zerolang.syntax.grammar import build_parser  # noqa: E402
from zerolang.syntax.lalr import Driver, extract  # noqa: E402
from zerolang.syntax.printer import print_graph  # noqa: E402
from zerolang.syntax.treebuild import install_callbacks  # noqa: E402
from zerolang.util.gcpause import paused_gc  # noqa: E402

WORDS = ["agent", "memory", "route", "message", "skill", "context", "session", "trust", "signal", "record"]


def _node(node_id: str, kind: str, **fields: object) -> Node:
    entries = [Entry(key="id", value=String(node_id)), Entry(key="type", value=String(kind))]
    entries += [Entry(key=key, value=from_python(value)) for key, value in fields.items()]
    return Node(entries=entries)


def generate(count: int, seed: int = 7) -> Graph:
    """A graph of `count` simple nodes: every fifth a constant, the rest one-step ops over earlier nodes.

    The ops are constant-time (arithmetic, comparison, logic, identity, field reads) so the
    run row measures the interpreter, not ever-growing strings or maps.
    """
    rng = random.Random(seed)
    nodes: list[Node] = []
    numbers: list[str] = []
    for index in range(count):
        node_id = f"n{index}"
        if index < 2 or index % 5 == 0:
            if rng.random() < 0.7:
                nodes.append(_node(node_id, "Constant", value=rng.randint(-1000, 1000)))
                numbers.append(node_id)
            else:
                nodes.append(
                    _node(node_id, "Constant", value={"label": f"{rng.choice(WORDS)} {rng.choice(WORDS)}"})
                )
            continue
        a, b = rng.choice(numbers), rng.choice(numbers)
        choice = index % 5
        if choice == 1:
            nodes.append(_node(node_id, "Operation", op="Add", inputs=[a, b]))
            numbers.append(node_id)
        elif choice == 2:
            nodes.append(_node(node_id, "Operation", op="GreaterThan", inputs=[a, b]))
        elif choice == 3:
            nodes.append(
                _node(node_id, "Operation", op="Multiply", inputs=[a, b], params={"note": rng.choice(WORDS)})
            )
            numbers.append(node_id)
        else:
            nodes.append(_node(node_id, "Operation", op="Identity", inputs=[a]))
            numbers.append(node_id)
    outputs = [f"n{count - 1}"]
    return Graph(
        [
            Entry(key="name", value=String(f"bench_{count}")),
            Entry(key="nodes", value=Array(items=list(nodes))),
            Entry(key="outputs", value=Array(items=[String(name) for name in outputs])),
            Entry(key="metadata", value=Map(entries=[Entry(key="generator", value=String("bench_core"))])),
        ]
    )


def dense(printed: str) -> str:
    """The printed text without the blanks a person would write: the most tokens per byte."""
    return re.sub(r"(?<=[,:{\[])\s+|\s+(?=[\]}])", "", printed)


def commented(printed: str) -> str:
    """Every line preceded by an own-line comment and followed by a trailing one."""
    return "\n".join(
        f"# {index}: what the next line does, as people write it\n{line}  # and a remark"
        for index, line in enumerate(printed.split("\n"))
    )


class Stat:
    """Repeated measurements of one thing: median and min-max."""

    def __init__(self, values: list[float]) -> None:
        self.values = values

    def rate(self, amount: float, unit: str, digits: int = 2) -> str:
        rates = sorted(amount / value for value in self.values)
        fmt = f"{{:,.{digits}f}}"
        middle = fmt.format(statistics.median(rates))
        return f"{middle} {unit} ({fmt.format(rates[0])}-{fmt.format(rates[-1])})"

    def millis(self) -> str:
        ms = sorted(value * 1000 for value in self.values)
        return f"{statistics.median(ms):.0f} ms ({ms[0]:.0f}-{ms[-1]:.0f})"


def cpu_times(repeats: int, action: Callable[[], object]) -> Stat:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return Stat(times)


# Children write and use bytecode, as an installed package does (pip compiles it at install time):
# with PYTHONDONTWRITEBYTECODE set, every start would compile zerolang from source again.
CHILD_ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def process_times(arguments: list[str], repeats: int) -> tuple[Stat, Stat]:
    """Wall time and the child's CPU time (user + system) of running `arguments`."""
    for _ in range(2):  # warm: bytecode, the parser cache, the page cache
        subprocess.run(arguments, check=True, capture_output=True, env=CHILD_ENVIRONMENT, cwd=ROOT)
    walls, cpus = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(arguments, check=True, capture_output=True, env=CHILD_ENVIRONMENT, cwd=ROOT)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return Stat(walls), Stat(cpus)


def core_rows(sizes: list[int], repeats: int) -> list[str]:
    rows = []
    for size in sizes:
        times = repeats if size <= 10_000 else max(3, repeats // 2)
        graph = generate(size)
        text = print_graph(graph)
        megabytes = len(text.encode()) / 1e6
        zero_parser.parse(text)  # warm: builds or loads the cached parser
        parse_stat = cpu_times(times, lambda text=text: zero_parser.parse(text))
        parsed = zero_parser.parse(text)
        validate_stat = cpu_times(times, lambda parsed=parsed: validate(parsed))
        run_stat = cpu_times(times, lambda parsed=parsed, size=size: run(parsed, max_steps=size))
        program = Program(parsed)
        again_stat = cpu_times(times, lambda program=program, size=size: program.run(max_steps=size))
        as_json = json.dumps(to_python(parsed))
        json_stat = cpu_times(times, lambda as_json=as_json: json.loads(as_json))
        rows.append(
            f"| {size:,} | {megabytes:.2f} MB | {parse_stat.rate(megabytes, 'MB/s')} | "
            f"{validate_stat.rate(size, 'nodes/s', 0)} | {run_stat.rate(size, 'nodes/s', 0)} | "
            f"{again_stat.rate(size, 'nodes/s', 0)} | "
            f"{json_stat.rate(len(as_json) / 1e6, 'MB/s', 1)} |"
        )
        print(f"done core {size:,}", file=sys.stderr)
    return rows


def _parse_with(parser: Any) -> Callable[[str], object]:
    def parse(text: str) -> object:
        zero_parser._state.text = text
        zero_parser._state.comments = []
        try:
            return parser.parse(text)
        finally:
            zero_parser._state.comments = []

    return parse


def _gc_paused(action: Callable[[str], object], text: str) -> object:
    with paused_gc():
        return action(text)


class _Nothing:
    """A tree builder whose every rule builds nothing (None)."""

    def __getattr__(self, name: str) -> Callable[[list[Any]], None]:
        return lambda children: None


def parser_rows(size: int, repeats: int) -> list[str]:
    """The parser's options measured one at a time on the same three texts."""
    printed = print_graph(generate(size))
    texts = {"dense": dense(printed), "printed": printed, "comment-heavy": commented(printed)}
    comments = {"COMMENT": zero_parser._collect_comment}
    builder = zero_parser._Builder
    lark_only = build_parser("zero", builder(), False, lexer_callbacks=comments)
    our_lexer = build_parser("zero", builder(), True, lexer_callbacks=comments)
    shipped = zero_parser._parser()
    nothing = build_parser("zero", None, True, lexer_callbacks=comments)
    lalr = nothing.parser.parser.parser
    install_callbacks(nothing, builder())
    lalr.callbacks = {rule: (lambda values: None) for rule in lalr.callbacks}
    lexer = shipped.parser.lexer.lexer
    tables = extract(shipped)
    building_nothing = Driver(tables, _Nothing(), comments)
    variants: list[tuple[str, Callable[[str], object]]] = [
        ("lark's contextual lexer + lark's tree builder", _parse_with(lark_only)),
        ("our grammar-built lexer (fastlex) + lark's tree builder", _parse_with(our_lexer)),
        ("fastlex + lean tree builder (treebuild), lark's LALR loop", _parse_with(shipped)),
        ("fastlex + treebuild, our loop over lark's tables (lalr)", _parse_with(zero_parser._driver())),
        ("the same + comments attached, depth checked: `parse()` **shipped**", zero_parser.parse),
        ("ceiling: fastlex + lark's LALR loop, building nothing", _parse_with(nothing)),
        ("ceiling: fastlex + our loop over lark's tables, building nothing", _parse_with(building_nothing)),
        ("ceiling: fastlex alone", lambda text: list(lexer.lex(text))),
    ]
    rows = []
    for label, action in variants:
        cells = []
        for text in texts.values():
            action(text)
            # The cyclic GC paused in every row as `parse()` pauses it (zerolang.util.gcpause), so the rows
            # differ only in what they name; nested in `parse()`'s own pause, it changes nothing there.
            stat = cpu_times(repeats, lambda text=text, action=action: _gc_paused(action, text))
            cells.append(stat.rate(len(text.encode()) / 1e6, "MB/s"))
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
        print(f"done parser: {label}", file=sys.stderr)
    sizes = " / ".join(f"{len(text.encode()) / 1e6:.2f} MB" for text in texts.values())
    return [
        f"Texts of a {size:,}-node graph: dense / printed / comment-heavy = {sizes};"
        " every row with the cyclic GC paused, as `parse()` pauses it.",
        "",
        *rows,
    ]


def standalone_row(repeats: int) -> str:
    """lark's standalone option: a generated module holding lark's runtime and our tables."""
    with tempfile.TemporaryDirectory() as folder:
        module = Path(folder) / "zero_standalone.py"
        generated = subprocess.run(
            [
                sys.executable,
                "-m",
                "lark.tools.standalone",
                str(ROOT / "zerolang" / "syntax" / "grammars" / "zero.lark"),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        module.write_text(generated.stdout, encoding="utf-8")
        python = [sys.executable, "-c"]
        importing = f"import sys; sys.path.insert(0, {folder!r}); import zero_standalone"
        subprocess.run([*python, importing], check=True, env=CHILD_ENVIRONMENT)  # writes its .pyc
        standalone, _ = process_times([*python, importing], repeats)
        lark_import, _ = process_times([*python, "import lark"], repeats)
        kilobytes = module.stat().st_size / 1000
    return (
        f"lark's standalone module ({kilobytes:.0f} kB generated; the same LALR loop, so no faster to "
        f"parse): importing it takes {standalone.millis()} wall against {lark_import.millis()} for "
        "`import lark`."
    )


def process_rows(repeats: int) -> list[str]:
    tiny = str(ROOT / "examples" / "hello.0")
    zero = [sys.executable, "-m", "zerolang"]
    cases = [
        ("`python -c pass` (reference)", [sys.executable, "-c", "pass"]),
        ("`zero --help`", [*zero, "--help"]),
        ("`zero check examples/hello.0`", [*zero, "check", tiny]),
        (
            "`zero run examples/hello.0 --input name=Ada --json`",
            [*zero, "run", tiny, "-i", "name=Ada", "--json"],
        ),
        ("`zero run examples/hello.0 --input name=Ada` (table)", [*zero, "run", tiny, "--input", "name=Ada"]),
        (
            "`zero run examples/hello.0 --input name=Ada --max-steps 100` (an option only typer reads)",
            [*zero, "run", tiny, "--input", "name=Ada", "--max-steps", "100"],
        ),
    ]
    rows = []
    for label, arguments in cases:
        wall, cpu = process_times(arguments, repeats)
        rows.append(f"| {label} | {wall.millis()} | {cpu.millis()} |")
    return rows


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min) / {five:.1f} (5 min)"


def arguments() -> argparse.Namespace:
    reader = argparse.ArgumentParser(
        description="Core throughput (parse, validate, run), the parser's options one by one, and "
        "whole-process start-up; prints markdown tables ready for docs/benchmarks.md and writes them to "
        "benches/results/core.md (core-quick.md with --quick).",
    )
    reader.add_argument(
        "--quick", action="store_true", help="1K and 10K nodes only, 3 repetitions (5 processes)"
    )
    reader.add_argument(
        "--repeats",
        type=int,
        metavar="N",
        help="repetitions of each in-process figure (default 7; 3 with --quick)",
    )
    return reader.parse_args()


def main() -> None:
    options = arguments()
    quick = options.quick
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    repeats = options.repeats or (3 if quick else 7)
    before = load()
    core = core_rows(sizes, repeats)
    parser = parser_rows(10_000, repeats)
    standalone = standalone_row(repeats)
    processes = process_rows(5 if quick else 11)
    lines = [
        f"Machine: {describe()}",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python benches/bench_core.py"
        f"{' --quick' if quick else ''}`.",
        f"Load average on {os.cpu_count()} cores: {before} before, {load()} after.",
        "",
        "Median of the repetitions, (min-max); CPU time of this process.",
        "",
        "| nodes | .0 text | parse | validate | first run: `run(graph)` (compile + execute) "
        "| later runs of the same graph: `Program.run` | json.loads (reference) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        *core,
        "",
        "The parser, one option at a time (CPU time, median (min-max)):",
        "",
        "| lexer + tree builder | dense | printed | comment-heavy |",
        "|---|---:|---:|---:|",
        *parser[2:],
        "",
        parser[0],
        standalone,
        "",
        "Whole processes, from start to exit (median (min-max)):",
        "",
        "| command | wall | CPU (user + system) |",
        "|---|---:|---:|",
        *processes,
    ]
    table = "\n".join(lines)
    print(table)
    results = ROOT / "benches" / "results"
    results.mkdir(exist_ok=True)
    (results / ("core-quick.md" if quick else "core.md")).write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
