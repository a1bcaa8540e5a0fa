"""The explorer's web application: Starlette routes over one `Explorer`, served by `serve`.

Every response carries a strict Content-Security-Policy (scripts and styles only from this server,
nothing inline, no frames, forms post only here) and is never cached. A request that names another
space than the one served is refused (403); so is a request whose `Host` is not this server's (a
page elsewhere cannot reach it through DNS rebinding). Writes are POSTs carrying the form token
the pages hold, and exist only when the explorer was started `--write`; a browser's post must also
come from this server's own pages (`same_origin`: its `Origin`, which a browser always sends with a
form's post, names this server). The only files served are the assets in `static/`, by name.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zerolang.explore import pages
from zerolang.explore.worker import Worker
from zerolang.util.errors import ZeroError
from zerolang.util.times import utc_now

if TYPE_CHECKING:
    from zerolang.knowledge.query.executor import QueryResult
    from zerolang.memory.asking import Answer

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
    " form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    # same-origin, not no-referrer: under no-referrer a browser's form post says `Origin: null`, and
    # the post's Origin is what shows it came from this server's own page; other sites learn nothing
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
}
STATIC = {"explore.css": "text/css", "explore.js": "text/javascript"}
NOTICES = {
    "forget": "forgotten: its tombstone is listed here, and restore brings it back",
    "restore": "restored: what the tombstone forgot is back",
    "retract": "retracted: the fact's validity is closed, kept for history",
}
DEFAULT_BUDGET = 400

Handler = Callable[[Request], Awaitable[Response]]


def build_app(worker: Worker, hosts: Sequence[str] = ("127.0.0.1", "localhost")) -> Starlette:
    """The application serving the stores `worker` opened to requests addressed to one of `hosts`."""
    explorer = worker.explorer
    frame = pages.Frame(explorer.space, explorer.write, secrets.token_urlsafe(24))

    def page(body: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(body, status_code=status)

    def failed(title: str, error: ZeroError, status: int = 400) -> HTMLResponse:
        return page(pages.problem_page(frame, title, error.message), status)

    def home(request: Request) -> Response:
        after = request.query_params.get("after")
        containing = request.query_params.get("q", "").strip()
        try:
            listing = explorer.concepts(after, containing)
        except ZeroError as error:
            return failed("space", error)
        notice = NOTICES.get(request.query_params.get("done", ""))
        overview = explorer.overview() if after is None else None  # counting is for the first page
        return page(pages.home_page(frame, overview, listing, containing, notice))

    def search(request: Request) -> Response:
        text = request.query_params.get("q", "").strip()
        mode = request.query_params.get("mode", "ask")
        mode = mode if mode in pages.SEARCH_MODES else "ask"
        result: QueryResult | Answer | None = None
        problem = None
        if text:
            try:
                if mode == "ask":  # a question in plain words: what `zero recall` answers
                    result = explorer.ask(text)
                else:
                    result = explorer.query(text) if mode == "query" else explorer.recall(text)
            except ZeroError as error:
                problem = error.message
        return page(pages.search_page(frame, text, mode, result, problem))

    def concept(request: Request) -> Response:
        name = request.query_params.get("c", "")
        found = explorer.concept(name) if name else None
        if found is None:
            return page(pages.problem_page(frame, "concept", f"no concept {name!r} in this space"), 404)
        notice = NOTICES.get(request.query_params.get("done", ""))
        return page(pages.concept_page(frame, found, utc_now(), notice))

    def graph(request: Request) -> Response:
        try:
            depth = min(max(int(request.query_params.get("depth", "2")), 1), 3)
            drawn = explorer.graph(request.query_params.get("c", ""), depth)
        except ValueError:
            return JSONResponse({"error": "depth is a number, 1 to 3"}, status_code=400)
        except ZeroError as error:
            return JSONResponse({"error": error.message}, status_code=404)
        return JSONResponse(drawn)

    def tombstones(request: Request) -> Response:
        notice = NOTICES.get(request.query_params.get("done", ""))
        return page(pages.tombstones_page(frame, explorer.tombstones(), notice))

    def experiences(request: Request) -> Response:
        text = request.query_params.get("q", "").strip()
        hits, problem, sessions = None, None, None
        try:
            if text:
                hits = explorer.recall_experiences(text)
            sessions = explorer.sessions(request.query_params.get("after"))
        except ZeroError as error:
            problem = error.message
        return page(pages.experiences_page(frame, sessions, text, hits, problem))

    def session(request: Request) -> Response:
        name = request.query_params.get("s", "")
        after = request.query_params.get("after")
        try:
            turns = explorer.session(name, None if after is None else int(after))
            title = explorer.session_title(name)
        except ValueError:
            return page(pages.problem_page(frame, "conversation", "after is a turn's position"), 400)
        except ZeroError as error:
            return failed("conversation", error)
        return page(pages.session_page(frame, name, turns, title))

    def context(request: Request) -> Response:
        text = request.query_params.get("q", "").strip()
        rendering, problem = None, None
        try:
            budget = int(request.query_params.get("budget", str(DEFAULT_BUDGET)))
            if budget < 1:
                raise ValueError
        except ValueError:
            budget, problem = DEFAULT_BUDGET, "the budget is a number of tokens, at least 1"
        if text and problem is None:
            try:
                rendering = explorer.context(text, budget)
                if not rendering.text:
                    problem = f"a budget of {budget} is too small: even the heading does not fit"
            except ZeroError as error:
                problem = error.message
        return page(pages.context_page(frame, text, budget, rendering, problem))

    def archive(request: Request) -> Response:
        channel = request.query_params.get("as", "").strip()
        clearance_text = request.query_params.get("clearance", "").strip()
        text = request.query_params.get("q", "").strip()
        view, problem = None, None
        if channel:
            try:
                clearance = int(clearance_text) if clearance_text else None
                view = explorer.archive(channel, clearance, text)
            except ValueError:
                problem = "the clearance is a whole number"
            except ZeroError as error:
                problem = error.message
        return page(pages.archive_page(frame, view, text, clearance_text, problem))

    def on_worker(handler: Callable[[Request], Response]) -> Handler:
        async def endpoint(request: Request) -> Response:
            return await worker(handler, request)

        return endpoint

    def writing(
        action: str, run: Callable[[dict[str, str]], str], back: Callable[[dict[str, str]], str]
    ) -> Handler:
        def write(fields: dict[str, str]) -> Response:
            if not explorer.write:
                return page(
                    pages.problem_page(frame, action, "this explorer is read-only (start it with --write)"),
                    403,
                )
            if not secrets.compare_digest(fields.get("token", ""), frame.token):
                return page(pages.problem_page(frame, action, "this form is not from this explorer"), 403)
            try:
                run(fields)
            except ZeroError as error:
                return failed(action, error)
            return RedirectResponse(back(fields), status_code=303)

        async def endpoint(request: Request) -> Response:
            refused = same_origin(request)
            if refused is not None:
                return page(pages.problem_page(frame, action, refused), 403)
            body = (await request.body()).decode("utf-8", "replace")
            fields = {key: values[0] for key, values in parse_qs(body).items()}
            return await worker(write, fields)

        return endpoint

    def back_to(fields: dict[str, str], action: str) -> str:
        target = fields.get("back", "/")
        local = target.startswith("/") and not target.startswith("//") and "\\" not in target
        path = target if local else "/"
        return path + ("&" if "?" in path else "?") + f"done={action}"

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        kind = STATIC.get(name)
        if kind is None:
            return Response("not found", status_code=404, media_type="text/plain")
        body = resources.files("zerolang.explore").joinpath("static", name).read_bytes()
        return Response(body, media_type=kind)

    routes = [
        Route("/", on_worker(home)),
        Route("/search", on_worker(search)),
        Route("/concept", on_worker(concept)),
        Route("/api/graph", on_worker(graph)),
        Route("/tombstones", on_worker(tombstones)),
        Route("/experiences", on_worker(experiences)),
        Route("/session", on_worker(session)),
        Route("/context", on_worker(context)),
        Route("/archive", on_worker(archive)),
        Route(
            "/forget",
            writing(
                "forget",
                lambda f: explorer.forget(f.get("label", "")),
                lambda f: back_to({"back": "/tombstones"}, "forget"),
            ),
            methods=["POST"],
        ),
        Route(
            "/restore",
            writing(
                "restore", lambda f: explorer.restore(f.get("tombstone", "")), lambda f: back_to(f, "restore")
            ),
            methods=["POST"],
        ),
        Route(
            "/retract",
            writing(
                "retract", lambda f: explorer.retract(f.get("fact", "")), lambda f: back_to(f, "retract")
            ),
            methods=["POST"],
        ),
        Route("/static/{name}", static),
    ]
    middleware = [
        Middleware(Guard, space=explorer.space),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
    ]
    return Starlette(routes=routes, middleware=middleware)


DEFAULT_PORTS = {"http": 80, "https": 443}


def same_origin(request: Request) -> str | None:
    """Why a post may not be taken as coming from this server's own pages (None: it may).

    A browser sends `Origin` with every form post, and `Sec-Fetch-Site` with every request: a post
    whose `Origin` names another server (or is `null`, an opaque origin), or that a browser says is
    not same-origin, or that comes from a browser without an `Origin`, is refused. A client that is
    not a browser sends neither; the form token alone guards it."""
    origin = request.headers.get("origin")
    fetched = request.headers.get("sec-fetch-site")
    if origin is None:
        if fetched is not None and fetched not in {"same-origin", "none"}:
            return "this form was posted from another site"
        return "this post has no Origin: a browser sends one" if fetched is not None else None
    if fetched is not None and fetched not in {"same-origin", "none"}:
        return "this form was posted from another site"
    theirs = _origin_of(origin)
    if theirs is None or theirs != _origin_of(f"{request.url.scheme}://{request.headers.get('host', '')}"):
        return "this form was posted from another site"
    return None


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """An origin's scheme, host and port (the scheme's own port when none is written); None for an
    opaque or unreadable one (`null`)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host or parts.path not in ("", "/"):
        return None
    return scheme, host, port if port is not None else DEFAULT_PORTS[scheme]


class Guard:
    """Refuses a request for another space; adds the security headers to every response."""

    def __init__(self, app: ASGIApp, space: str) -> None:
        self.app = app
        self.space = space

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("space", [self.space])
        if any(space != self.space for space in asked):
            refusal = Response(
                f"this explorer serves the space {self.space!r} only",
                status_code=403,
                media_type="text/plain",
            )
            await refusal(scope, receive, self._headers(send))
            return
        await self.app(scope, receive, self._headers(send))

    @staticmethod
    def _headers(send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(name.encode(), value.encode()) for name, value in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        return sending
