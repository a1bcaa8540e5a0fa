"""Listening for HTTP on this machine (`zero explore`, `zero mcp --http`): the socket is bound before the
server starts, so a bad host or a taken port is one line from the command, not a server log; loopback
unless told otherwise."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from zerolang.util.errors import ZeroError

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8765


@dataclass(frozen=True, slots=True)
class Listening:
    """A bound socket and the address it took (the port the system chose for port 0)."""

    socket: socket.socket
    host: str
    port: int

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/"


def is_loopback(host: str) -> bool:
    """Whether `host` names only this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_unspecified(host: str) -> bool:
    """Whether `host` is every interface (0.0.0.0, ::)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def listen(host: str, port: int) -> Listening:
    """A socket bound to `host`:`port` and listening; a ZeroError saying why not."""
    if not 0 <= port <= 65535:
        raise ZeroError(f"--port {port}: a port is 0 to 65535 (0: any free port)")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise ZeroError(f"--host {host!r}: not an address of this machine ({error})") from None
    family, kind, protocol, _, address = found[0]
    bound = socket.socket(family, kind, protocol)
    try:
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        bound.bind(address)
        bound.listen(64)
    except OSError as error:
        bound.close()
        raise ZeroError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return Listening(bound, host, int(bound.getsockname()[1]))
