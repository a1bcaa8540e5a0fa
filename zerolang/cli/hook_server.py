"""The warm hook server: one memory's recalls answered by a process that has loaded everything already.

`zerolang.cli.hook_client` starts it (detached) when a hook finds none, as

    python -P -c '... hook_server.main(...)' FOLDER --name=NAME [--db=PATH] [--space=NAME]

(FOLDER: the one holding the hook's own zerolang, put on the path) in the hook's folder and
environment. It serves only that context (`hook_client.context`: the
options, the folder, the variables that resolve the memory, the interpreter and the package), on the
socket `NAME.sock` in the user's 0700 socket folder, while it holds `NAME.lock` (which holds its
process id; a second server for the same context exits at once). For each request it:

- refuses (the hook then works in process) anything but a recall event of a context that is its
  own, and a peer that is another user;
- stops (after refusing) when its code or the project's settings (the nearest `pyproject.toml`)
  changed since it started, so it never answers with what a fresh process would not;
- otherwise runs the hook exactly as the process would (`hook_exec.run_runtime`: the stores
  resolved, opened and closed for each request, the same time limit) and sends back its stdout and
  stderr, which the hook prints: byte for byte what it prints in process.

It exits after `hook_client.IDLE` seconds without a request (or `--idle`). Its own streams are
/dev/null: nothing it reads reaches a terminal but through the hook, escaped as in process.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sys
from contextlib import redirect_stderr, redirect_stdout, suppress
from dataclasses import dataclass, field
from pathlib import Path

from zerolang.cli import hook_client
from zerolang.cli.hook_defaults import RUNTIMES

_WARM = (
    "zerolang.agents.claude_code",
    "zerolang.agents.pi",
    "zerolang.cli.experience_store",
    "zerolang.cli.hook_exec",
    "zerolang.experience.recall",
    "zerolang.knowledge.asking",
    "zerolang.memory.asking",
    "zerolang.memory.erasure",
    "zerolang.memory.opening",
    "zerolang.storage",
)


@dataclass(slots=True)
class Served:
    """What a server serves: its context, and what must not change while it runs."""

    context: dict[str, object]
    code: dict[str, int] = field(default_factory=dict)
    settings: tuple[str, int, int] | None = None
    stop: bool = False


def settings_signature(cwd: str) -> tuple[str, int, int] | None:
    """The nearest pyproject.toml (where the settings come from), with its size and time."""
    from zerolang.util.config import find_pyproject

    found = find_pyproject(Path(cwd).resolve())
    if found is None:
        return None
    try:
        status = found.stat()
    except OSError:
        return (str(found), -1, -1)
    return (str(found), status.st_size, status.st_mtime_ns)


def code_signature(known: dict[str, int] | None = None) -> dict[str, int]:
    """The modification time of every zerolang module loaded; those in `known` as they were then."""
    out: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if (name == "zerolang" or name.startswith("zerolang.")) and path:
            out[path] = known[path] if known is not None and path in known else _modified(path)
    return out


def code_changed(known: dict[str, int]) -> bool:
    """Whether a module loaded when `known` was taken changed on disk since."""
    return any(_modified(path) != time for path, time in known.items())


def _modified(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def warm() -> None:
    """Import what a recall runs and load the tokenizer, so the first request costs no more than the next."""
    from importlib import import_module

    from zerolang.util.tokens import count_tokens

    for name in _WARM:
        import_module(name)
    count_tokens("warm")


def respond(served: Served, request: object) -> dict[str, object]:
    """The reply to one request: the hook's stdout and stderr, or a refusal (`served` false)."""
    refused: dict[str, object] = {"served": False}
    if not isinstance(request, dict) or request.get("context") != served.context:
        return refused
    runtime, text, budget = request.get("runtime"), request.get("text"), request.get("budget")
    timeout, left = request.get("timeout"), request.get("left")
    if (
        runtime not in RUNTIMES
        or not isinstance(text, str)
        or not (budget is None or (type(budget) is int and budget >= 1))
        or not (type(timeout) is float and timeout >= 0.1)
        or not isinstance(left, float)
    ):
        return refused
    if code_changed(served.code) or settings_signature(str(served.context["cwd"])) != served.settings:
        served.stop = True
        return refused
    if not hook_client.recall_event(runtime, text):
        return refused
    from zerolang.cli.hook_exec import run_runtime

    db, space = served.context["db"], served.context["space"]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        run_runtime(
            runtime,
            None if db is None else str(db),
            budget,
            timeout,
            text=text,
            left=left,
            space=None if space is None else str(space),
        )
    served.code = code_signature(served.code)  # the modules this request loaded first, as they are now
    return {"served": True, "stdout": out.getvalue(), "stderr": err.getvalue()}


def same_user(connection: socket.socket) -> bool:
    """Whether the peer runs as this user (where the system says; the socket's folder is 0700 anyway)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return True
    import struct

    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return bool(uid == os.getuid())


def handle(served: Served, connection: socket.socket) -> None:
    connection.settimeout(5.0)
    if not same_user(connection):
        return
    data = hook_client.read_all(connection)
    if data is None:
        return
    try:
        request = json.loads(data.decode("utf-8", "surrogatepass"))
    except ValueError:
        request = None
    reply = respond(served, request)
    connection.sendall(json.dumps(reply, ensure_ascii=False).encode("utf-8", "surrogatepass"))


def serve(served: Served, listener: socket.socket, idle: float) -> None:
    """Answer requests one at a time until `idle` seconds pass without one, or the server must stop."""
    listener.settimeout(idle)
    while not served.stop:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            return
        with connection:
            try:
                handle(served, connection)
            except Exception:  # one request's failure (a peer gone): the next one
                continue


def serving(lock: Path) -> int | None:
    """The process id of the server that holds `lock` (its NAME.lock), None when none holds it now."""
    import fcntl

    try:
        descriptor = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:  # held: its server runs
        with suppress(ValueError):
            return int(lock.read_text())
        return None
    finally:
        os.close(descriptor)
    return None


def read_arguments(arguments: list[str]) -> tuple[str, str | None, str | None, float] | None:
    values: dict[str, str] = {}
    for argument in arguments:
        flag, equals, value = argument.partition("=")
        if not equals or flag not in ("--name", "--db", "--space", "--idle") or flag in values:
            return None
        values[flag] = value
    if "--name" not in values:
        return None
    try:
        idle = float(values.get("--idle", hook_client.IDLE))
    except ValueError:
        return None
    return values["--name"], values.get("--db"), values.get("--space"), idle


def main(arguments: list[str]) -> int:
    """Serve the context this process was started in, under `--name`; 0 when done or not needed."""
    import fcntl
    import signal

    read = read_arguments(arguments)
    if read is None:
        return 2
    name, db, space, idle = read
    cwd = os.getcwd()
    served = Served(hook_client.context(db, space, os.environ, cwd))
    folder = hook_client.socket_folder(os.environ)
    if folder is None or hook_client.digest(served.context) != name:
        return 0  # not this context's server (another interpreter, package or environment)
    path = hook_client.socket_path(folder, name)
    if path is None:
        return 0
    lock = os.open(os.path.join(folder, f"{name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another server serves this context
    os.ftruncate(lock, 0)
    os.write(lock, f"{os.getpid()}\n".encode())  # who serves it, for whoever must stop it
    signal.signal(signal.SIGTERM, lambda _signal, _frame: sys.exit(0))
    warm()
    served.code = code_signature()
    served.settings = settings_signature(cwd)
    making = path.removesuffix(".sock") + ".new"  # listening before a hook can see it
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        with suppress(FileNotFoundError):  # a server's that was killed
            os.unlink(making)
        listener.bind(making)
        try:
            os.chmod(making, 0o600)
            listener.listen(16)
            os.replace(making, path)
            serve(served, listener, idle)
        finally:
            with suppress(FileNotFoundError):
                os.unlink(path)
            with suppress(FileNotFoundError):
                os.unlink(making)
    return 0


if __name__ == "__main__":  # python -m zerolang.cli.hook_server --name=NAME ...: the same, by hand
    sys.exit(main(sys.argv[1:]))
