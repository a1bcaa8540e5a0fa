"""`zero ARGUMENTS` in a process of its own, without paying for Python's start-up and zerolang's imports.

The README and hardening tests run a few hundred `zero` commands; a fresh `python -m zerolang` spends
most of its ~150 ms of CPU starting the interpreter and importing the command line. `run` forks the
process from a server (multiprocessing's forkserver, one per test process) that has imported the
command line once and run nothing: the child gets the arguments, working folder, environment and
standard streams a fresh process would have (stdin, stdout and stderr are files, as pipes are not a
terminal), runs `zerolang.cli.app.main` as `python -m zerolang` does, and exits with its code; an
exception that escapes prints its traceback and exits 1, as the interpreter would.

An environment that changes how the interpreter itself starts (the locale, `PYTHON*` variables other
than `PYTHONPATH`) gets a real fresh process instead: a forked child would keep the server's.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

# The command line, every command's module and what most commands use; imported by the server only.
PRELOAD = [
    "zerolang.cli.app",
    "zerolang.cli.fast",
    "zerolang.cli.typer_app",
    "zerolang.cli.run_exec",
    "zerolang.runtime.interpreter",
    "zerolang.knowledge.store",
    "rich.console",
    "rich.table",
]
_STARTUP = ("LANG", "LANGUAGE", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONHASHSEED", "PYTHONWARNINGS")

_TYPER = "import sys; from zerolang.cli.typer_app import app; sys.argv = ['zero', *sys.argv[1:]]; app(prog_name='zero')"

_context: multiprocessing.context.ForkServerContext | None = None


def _server() -> multiprocessing.context.ForkServerContext:
    global _context
    if _context is None:
        from zerolang.cli.commands import COMMANDS

        commands = sorted({command.target.partition(":")[0] for command in COMMANDS.values()})
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([*PRELOAD, *commands])
        _context = context
    return _context


def _needs_fresh_interpreter(environment: Mapping[str, str]) -> bool:
    return any(
        (name.startswith("LC_") or name in _STARTUP) and environment.get(name) != os.environ.get(name)
        for name in {*environment, *os.environ}
    )


def _child(
    arguments: list[str], cwd: str, environment: dict[str, str], files: list[str], typer: bool
) -> None:
    """In the forked process: a fresh process's surroundings, then the `zero` entry point."""
    model = sys.__stdout__  # the server's, set up by its interpreter for a stream that is not a terminal
    encoding = model.encoding if model is not None else "utf-8"
    errors = model.errors if model is not None and model.errors else "strict"
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(environment)
    for descriptor, (path, flags) in enumerate(
        zip(files, (os.O_RDONLY, os.O_WRONLY, os.O_WRONLY), strict=True)
    ):
        opened = os.open(path, flags)
        os.dup2(opened, descriptor)
        os.close(opened)
    sys.stdin = open(0, encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding=encoding, errors="backslashreplace", closefd=False)  # noqa: SIM115
    sys.argv = ["zero", *arguments]
    if typer:  # the typer application alone, without the fast path `main` tries first
        from zerolang.cli.typer_app import app

        app(prog_name="zero")
    from zerolang.cli.app import main

    main()  # SystemExit carries the exit code out (multiprocessing exits with it, flushing the streams)


def run(
    arguments: list[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    stdin: bytes = b"",
    timeout: float = 300,
    typer: bool = False,
) -> tuple[int, bytes, bytes]:
    """Exit code, stdout and stderr of `zero ARGUMENTS` (`typer`: by the typer application alone)."""
    environment = dict(os.environ if env is None else env)
    folder = str(cwd if cwd is not None else Path.cwd())
    if _needs_fresh_interpreter(environment):
        entry = ["-c", _TYPER, *arguments] if typer else ["-m", "zerolang", *arguments]
        done = subprocess.run(
            [sys.executable, *entry],
            input=stdin,
            capture_output=True,
            cwd=folder,
            env=environment,
            timeout=timeout,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr
    with tempfile.TemporaryDirectory(prefix="zero-forked-") as scratch:
        paths = [os.path.join(scratch, name) for name in ("stdin", "stdout", "stderr")]
        Path(paths[0]).write_bytes(stdin)
        for path in paths[1:]:
            Path(path).touch()
        process = _server().Process(target=_child, args=(arguments, folder, environment, paths, typer))
        process.start()
        process.join(timeout)
        if process.exitcode is None:
            process.kill()
            process.join()
            raise subprocess.TimeoutExpired(["zero", *arguments], timeout)
        return process.exitcode, Path(paths[1]).read_bytes(), Path(paths[2]).read_bytes()
