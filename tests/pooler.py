"""A real pgbouncer in transaction pooling mode in front of the test server, for the tests that run
the stores through a pooler (`tests/storage/contract`'s `pgbouncer` backend, `tests/memory/test_pooled.py`).

It listens on a free loopback port, from a temporary folder, with `auth_type = trust` (roles made
by a test are looked up through `auth_user`), and hands each transaction to the next server
connection in turn (`server_round_robin`, several server connections): a store that kept session
state between transactions (a session lock, a prepared statement, a `SET`, a temporary table or
function) meets a server connection without it. Without Debian's `pgbouncer` (`.ci/run` installs
it) or a test server, the tests using it skip, saying why.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

CANDIDATES = ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer")
SERVERS = 4  # server connections each pool keeps, handed out in turn


def binary() -> str | None:
    return shutil.which("pgbouncer") or next((path for path in CANDIDATES if os.access(path, os.X_OK)), None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def through(url: str, port: int) -> str:
    """`url` (a postgresql:// URL) with its server replaced by the pooler's, on `port`."""
    parts = urlsplit(url)
    user = parts.netloc.rpartition("@")[0]
    return urlunsplit(parts._replace(netloc=f"{user + '@' if user else ''}127.0.0.1:{port}"))


def _config(folder: Path, server: dict[str, str], port: int) -> str:
    host = server.get("host") or "127.0.0.1"
    return "\n".join(
        [
            "[databases]",
            f"* = host={host} port={server.get('port') or 5432}",
            "[pgbouncer]",
            "listen_addr = 127.0.0.1",
            f"listen_port = {port}",
            "unix_socket_dir =",
            "auth_type = trust",
            f"auth_file = {folder / 'users.txt'}",
            f"auth_user = {server.get('user') or 'postgres'}",
            "pool_mode = transaction",
            f"default_pool_size = {SERVERS}",
            f"min_pool_size = {SERVERS}",
            "server_round_robin = 1",
            "max_client_conn = 500",
            f"logfile = {folder / 'pgbouncer.log'}",
            f"pidfile = {folder / 'pgbouncer.pid'}",
            "",
        ]
    )


@contextmanager
def pgbouncer(base_url: str) -> Iterator[str]:
    """pgbouncer in front of the server `base_url` names: yields the URL of `base_url`'s database
    through it; stopped and its folder removed afterwards. Skips the test where it cannot run."""
    import pytest
    from psycopg.conninfo import conninfo_to_dict

    program = binary()
    if program is None:
        pytest.skip("no pgbouncer on this machine (apt-get install -y pgbouncer; .ci/run does)")
    server = conninfo_to_dict(base_url)
    user = str(server.get("user") or "postgres")
    folder = Path(tempfile.mkdtemp(prefix="zt_pgbouncer_"))
    port = free_port()
    (folder / "users.txt").write_text(f'"{user}" ""\n', encoding="utf-8")
    (folder / "pgbouncer.ini").write_text(_config(folder, {k: str(v) for k, v in server.items()}, port))
    command = [program, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:  # pgbouncer refuses to run as root: as the server's system user
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder)
            pytest.skip("pgbouncer refuses to run as root, and there is no 'postgres' user to run it as")
        shutil.chown(folder, "postgres")
        for path in folder.iterdir():
            shutil.chown(path, "postgres")
        command[1:1] = ["-u", "postgres"]
    # its output to a file: a pipe nobody reads would fill up and stop pgbouncer mid-test
    with (folder / "output.log").open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    url = through(base_url, port)
    try:
        _wait_until_up(process, url, folder)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_up(process: subprocess.Popen[bytes], url: str, folder: Path) -> None:
    import psycopg
    import pytest

    deadline = time.monotonic() + 15
    while True:
        if process.poll() is not None:
            logs = [folder / "output.log", folder / "pgbouncer.log"]
            said = [log.read_text(errors="replace") for log in logs if log.exists()]
            pytest.skip(f"pgbouncer did not start: {''.join(said).strip().splitlines()[-1:]}")
        try:
            _fill(url)
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _fill(url: str) -> None:
    """`SERVERS` transactions at once: the pool opens that many server connections, which it keeps."""
    import psycopg

    clients = [psycopg.connect(url, connect_timeout=2, prepare_threshold=None) for _ in range(SERVERS)]
    try:
        for client in clients:
            client.execute("SELECT 1")  # each holds a server connection until it commits
        for client in clients:
            client.commit()  # (one closed inside its transaction would close its server connection too)
    finally:
        for client in clients:
            client.close()
