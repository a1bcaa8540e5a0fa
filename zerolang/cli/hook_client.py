"""`zero hook claude-code|pi` as an agent runs it before every prompt: the lean path, standard library only.

An agent waits for its hook, so the command line an installed hook runs (`zero hook RUNTIME` with
`--db`, `--space`, `--budget`, `--timeout`, each at most once) is read here, before typer, the
option specs or any store is imported (`zerolang.cli.app.main` offers it first). The event is
read from stdin, then:

- a recall (SessionStart, UserPromptSubmit, pi's before_agent_start: `RECALLS`) is sent to the
  warm server (`zerolang.cli.hook_server`) of this memory when one listens on its socket, and its
  answer is printed: the very stdout and stderr the hook would print in process;
- else (a capture, which writes; no server; a refusal; no answer in `REPLY_SHARE` of the time) the hook
  runs in process (`zerolang.cli.hook_exec.run_runtime`) with the time left, after starting a
  server for a recall that found none (detached, at most once every `START_PAUSE` seconds).

A server serves one memory, one folder and one environment: the `context` of the command (the
options, the working folder, the variables a store's resolution or the code depends on, the
interpreter and the package), whose digest names its socket in a folder only this user may enter
(`socket_folder`). `$ZERO_HOOK_SERVER=off` (or 0, no, false) turns the server off: neither asked
nor started.

Whatever fails, the hook exits 0 (a failure is one line on stderr, as in process).
"""

from __future__ import annotations

import os
import sys

from zerolang.cli.hook_defaults import DEFAULT_TIMEOUT, RECALLS, RUNTIMES, gave_up

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from socket import socket as Socket

SERVER_ENV = "ZERO_HOOK_SERVER"
"""`off`, `0`, `no` or `false`: the hook neither asks nor starts a warm server."""
_OFF = frozenset({"off", "0", "no", "false"})
REPLY_SHARE = 0.5
"""The share of its time left a hook waits for a server's answer (a loaded machine may take seconds)
before it works in process with the rest."""
START_PAUSE = 30.0
"""A hook starts a server for its context at most once in this many seconds."""
IDLE = 900.0
"""A server exits after this many seconds without a request."""
OPTIONS = ("--db", "--space", "--budget", "--timeout")
_MOST = 64 << 20
"""The largest message a hook or a server reads from the other."""
# The variables a store's resolution, the settings or the code depend on (`zerolang.util.config`,
# platformdirs, libpq, the interpreter, the clock and the locale): a server is started with the
# hook's, and serves only those.
_PREFIXES = ("ZERO_", "XDG_", "PG", "LC_")
_NAMES = frozenset({"HOME", "PYTHONPATH", "PYTHONHOME", "TMPDIR", "TZ", "LANG", "LANGUAGE"})


class Command:
    """A plain hook command line: the runtime and its options (None: not given). Not a dataclass:
    importing `dataclasses` would cost the lean path more than the rest of it."""

    __slots__ = ("budget", "db", "runtime", "space", "timeout")

    def __init__(
        self, runtime: str, db: str | None, space: str | None, budget: int | None, timeout: float
    ) -> None:
        self.runtime, self.db, self.space, self.budget, self.timeout = runtime, db, space, budget, timeout


def read_command(arguments: list[str]) -> Command | None:
    """The command when `zero hook ARGUMENTS` is plain (a runtime, then only the options above, each
    once, with a valid value); None for anything else (`install`, `--help`, `--event`, a usage
    error), which typer reads as always."""
    if not arguments or arguments[0] not in RUNTIMES or not all(map(_is_text, arguments)):
        return None
    given: dict[str, str] = {}
    rest = arguments[1:]
    while rest:
        flag, equals, value = rest[0].partition("=")
        if flag not in OPTIONS or flag in given:
            return None
        if equals:
            rest = rest[1:]
        elif len(rest) > 1 and not rest[1].startswith("-"):
            value, rest = rest[1], rest[2:]
        else:
            return None
        given[flag] = value
    try:
        budget = None if "--budget" not in given else int(given["--budget"])
        timeout = DEFAULT_TIMEOUT if "--timeout" not in given else float(given["--timeout"])
    except ValueError:
        return None
    if (budget is not None and budget < 1) or not 0.1 <= timeout < float("inf"):
        return None  # typer's usage error
    return Command(arguments[0], given.get("--db"), given.get("--space"), budget, timeout)


def _is_text(argument: str) -> bool:
    try:
        argument.encode("utf-8")
    except UnicodeEncodeError:  # not UTF-8 on the command line: typer reports it
        return False
    return True


# The server's start: the folder holding the hook's zerolang on the path (first, unless it is there).
_SERVE = (
    "import sys; sys.argv[1] in sys.path or sys.path.insert(0, sys.argv[1]); "
    "from zerolang.cli.hook_server import main; sys.exit(main(sys.argv[2:]))"
)


def _package_parent() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def context(db: str | None, space: str | None, environ: Mapping[str, str], cwd: str) -> dict[str, object]:
    """What a server must share with a hook to answer for it: the same memory, settings and code."""
    package = os.path.join(_package_parent(), "zerolang")
    variables = {
        name: value for name, value in environ.items() if name.startswith(_PREFIXES) or name in _NAMES
    }
    return {
        "db": db,
        "space": space,
        "cwd": cwd,
        "python": sys.executable,
        "package": package,
        "environ": dict(sorted(variables.items())),
    }


def digest(of: dict[str, object]) -> str:
    """The context's name for its socket (a collision only costs a refusal: the server compares all)."""
    import json
    import zlib

    data = json.dumps(of, sort_keys=True).encode("utf-8", "surrogatepass")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data[::-1]):08x}"


def socket_folder(environ: Mapping[str, str]) -> str | None:
    """The folder of this user's hook sockets, made 0700 if missing; None where it is not safe (not a
    folder, another owner, open to others) or there are no Unix sockets."""
    import socket
    import stat

    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return None
    base = environ.get("XDG_RUNTIME_DIR") or environ.get("TMPDIR") or "/tmp"
    folder = os.path.join(base, f"zerolang-hook-{os.getuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        found = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
        return None
    return folder


def socket_path(folder: str, name: str) -> str | None:
    path = os.path.join(folder, f"{name}.sock")
    return path if len(os.fsencode(path)) < 100 else None  # sun_path holds 104-108 bytes


def server_enabled(environ: Mapping[str, str]) -> bool:
    return environ.get(SERVER_ENV, "").strip().lower() not in _OFF


class _Expired(Exception):
    pass


def main(arguments: list[str]) -> int | None:
    """Run `zero hook ARGUMENTS` if it is plain (`read_command`): its exit code, always 0; else None."""
    command = read_command(arguments)
    if command is None:
        return None
    try:
        _hook(command)
    except Exception as error:  # any failure: one line, and the agent goes on (as in process)
        from zerolang.cli.hook_exec import report

        report(error)
    return 0


def _hook(command: Command) -> None:
    import time

    start = time.monotonic()
    text = _read_event(command.timeout)
    if text is None:
        sys.stderr.write(f"zero hook: {gave_up(command.timeout)}\n")
        return
    environ, cwd = os.environ, _cwd()
    served = None
    if cwd is not None and server_enabled(environ) and recall_event(command.runtime, text):
        try:
            served = _served(command, text, environ, cwd, start + command.timeout)
        except Exception:  # a server that cannot be asked or started: the hook works alone
            served = None
    if served is not None:
        sys.stdout.write(served[0])
        sys.stdout.flush()
        sys.stderr.write(served[1])
        return
    from zerolang.cli.hook_exec import run_runtime

    left = start + command.timeout - time.monotonic()
    run_runtime(
        command.runtime,
        command.db,
        command.budget,
        command.timeout,
        text=text,
        left=left,
        space=command.space,
    )


def recall_event(runtime: str, text: str) -> bool:
    """Whether the event recalls (`RECALLS`): a server answers those; a capture writes, in process."""
    import json

    key, events = RECALLS[runtime]
    try:
        event = json.loads(text)
    except ValueError:  # the hook in process says what is wrong with it
        return False
    return isinstance(event, dict) and event.get(key) in events


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the folder was removed: no server
        return None


def _read_event(timeout: float) -> str | None:
    """stdin, or None when it is not closed within `timeout` seconds."""
    import signal

    if not hasattr(signal, "setitimer"):
        return sys.stdin.read()

    def expired(_signal: int, _frame: object) -> None:
        raise _Expired

    previous = signal.signal(signal.SIGALRM, expired)
    try:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        return sys.stdin.read()
    except _Expired:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _served(
    command: Command, text: str, environ: Mapping[str, str], cwd: str, deadline: float
) -> tuple[str, str] | None:
    """(stdout, stderr) from this context's server; None when none answers (one is started then)."""
    import time

    folder = socket_folder(environ)
    if folder is None:
        return None
    shared = context(command.db, command.space, environ, cwd)
    name = digest(shared)
    path = socket_path(folder, name)
    if path is None:
        return None
    request: dict[str, object] = {
        "context": shared,
        "runtime": command.runtime,
        "budget": command.budget,
        "timeout": command.timeout,
        "left": deadline - time.monotonic(),
        "text": text,
    }
    reply = ask(path, request, REPLY_SHARE * (deadline - time.monotonic()))
    if reply is None:
        start_server(folder, name, command)
        return None
    if reply.get("served") is not True:
        return None
    stdout, stderr = reply.get("stdout"), reply.get("stderr")
    return (stdout, stderr) if isinstance(stdout, str) and isinstance(stderr, str) else None


def ask(path: str, request: dict[str, object], wait: float) -> dict[str, object] | None:
    """The server's reply to `request` on the socket at `path`; None when nothing listens there, or it
    does not answer within `wait` seconds."""
    import json
    import socket

    if wait <= 0:
        return None
    data = json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(wait)
            connection.connect(path)
            connection.sendall(data)
            connection.shutdown(socket.SHUT_WR)
            answer = read_all(connection)
        reply = json.loads(answer.decode("utf-8", "surrogatepass")) if answer is not None else None
    except (OSError, ValueError):
        return None
    return reply if isinstance(reply, dict) else None


def read_all(connection: Socket) -> bytes | None:
    """What the other side sends until it shuts its side; None past `_MOST` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = connection.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > _MOST:
            return None
        chunks.append(chunk)


def start_server(folder: str, name: str, command: Command) -> None:
    """Start this context's server, detached (its own session, no terminal, none of our streams),
    unless one was started in the last `START_PAUSE` seconds."""
    import time

    stamp = os.path.join(folder, f"{name}.started")
    try:
        if time.time() - os.stat(stamp).st_mtime < START_PAUSE:
            return
    except OSError:
        pass
    import subprocess

    try:
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT, 0o600))
        os.utime(stamp)
        arguments = [sys.executable, "-P", "-c", _SERVE, _package_parent(), f"--name={name}"]
        for flag, value in (("--db", command.db), ("--space", command.space)):
            if value is not None:
                arguments += [f"{flag}={value}"]
        subprocess.Popen(  # our interpreter, our module, no shell
            arguments,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        pass
