"""Serving the explorer: the socket is bound before uvicorn starts (`zerolang.util.listening`), so a
bad host or a taken port is one line from `zero explore`, not a server log; loopback unless told
otherwise."""

from __future__ import annotations

import ipaddress

from zerolang.util.listening import DEFAULT_PORT as DEFAULT_PORT
from zerolang.util.listening import LOOPBACK as LOOPBACK
from zerolang.util.listening import Listening as Listening
from zerolang.util.listening import is_loopback as is_loopback
from zerolang.util.listening import listen as listen


def run(app: object, listening: Listening) -> None:
    """Serve `app` on the bound socket until interrupted (Ctrl-C)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")  # type: ignore[arg-type]
    uvicorn.Server(config).run(sockets=[listening.socket])


def hosts_for(host: str) -> list[str]:
    """The names a request's `Host` header may carry to reach this server (anything else is refused,
    so a page elsewhere cannot reach it by DNS rebinding): this machine's loopback names and `host`;
    any name when listening on every interface (0.0.0.0, ::), which `zero explore` warns about."""
    try:
        if ipaddress.ip_address(host).is_unspecified:
            return ["*"]
    except ValueError:
        pass
    return sorted({host, LOOPBACK, "localhost", "::1", "[::1]"})
