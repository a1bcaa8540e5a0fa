"""The explorer in a real browser: headless Chromium (the system's, driven by Playwright) through
search, a concept page, its timeline, the graph (pan, zoom, expand), a forget with --write, and a
store of hostile labels that must run nothing. The pictures in docs/explore.md are taken here.

Without Chromium (or Playwright) these tests skip, saying why; `.ci/run` installs Chromium.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.explore.conftest import open_worker
from tests.explore.stores import CLAUDE_TITLE, HOSTILE_LABELS, ROOT, Demo, make_demo
from zerolang.explore.app import build_app
from zerolang.explore.serve import hosts_for, listen
from zerolang.explore.worker import Worker

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
if not Path(CHROMIUM).is_file():
    pytest.skip(
        f"no Chromium at {CHROMIUM}: install it (apt-get install -y chromium; .ci/run does)",
        allow_module_level=True,
    )

# Every run takes the pictures docs/explore.md shows; they replace those in docs/images when
# ZERO_EXPLORE_SHOTS=docs/images (a store's times differ each run, so a plain run leaves the tree as it was).
SHOTS_ENV = "ZERO_EXPLORE_SHOTS"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get(SHOTS_ENV)
    return (ROOT / chosen) if chosen else tmp_path_factory.mktemp("shots")


@contextmanager
def serving(worker: Worker) -> Iterator[str]:
    """The explorer on a free loopback port, served by uvicorn in a thread: its base URL."""
    import uvicorn

    listening = listen("127.0.0.1", 0)
    config = uvicorn.Config(build_app(worker, hosts_for("127.0.0.1")), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening.socket]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the server did not start"
    try:
        yield listening.url.rstrip("/")
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listening.socket.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # The page's own CSP is bypassed: a hostile label must stay inert by its escaping alone (and the
    # test's waits may evaluate script); tests/explore/test_routes.py checks the CSP header is sent.
    context = browser.new_context(viewport={"width": 1200, "height": 860}, bypass_csp=True)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    yield opened
    context.close()
    assert not problems, f"the page's script failed: {problems}"


@pytest.fixture(scope="module")
def site(demo: Demo) -> Iterator[str]:
    with open_worker(demo) as worker, serving(worker) as url:
        yield url


@pytest.fixture
def shoot(shots: Path) -> Callable[..., None]:
    """Takes a picture of a page or an element into the pictures' folder."""

    def shot(target: Any, name: str, **options: Any) -> None:
        shots.mkdir(parents=True, exist_ok=True)
        path = shots / f"explore-{name}.png"
        target.screenshot(path=str(path), **options)
        assert path.stat().st_size > 1000

    return shot


def test_search_then_a_concept(page: Any, shoot: Callable[..., None], site: str) -> None:
    page.goto(site + "/")
    shoot(page, "space")
    page.fill("form.search input[name=q]", "Where does Alice live?")  # the box takes plain words
    page.press("form.search input[name=q]", "Enter")
    page.wait_for_selector("table.results.answer")
    assert page.locator("table.results td", has_text="alice lives in berlin").count() >= 1
    shoot(page, "ask", full_page=True)
    page.select_option("form.search select[name=mode]", "recall")
    page.fill("form.search input[name=q]", "alice")
    page.press("form.search input[name=q]", "Enter")
    page.wait_for_selector("table.results:not(.answer)")
    assert page.locator("table.results th", has_text="connectivity").count() == 1
    shoot(page, "search", full_page=True)
    page.click("table.results a.concept >> text=berlin")
    page.wait_for_selector("canvas#graph")
    assert page.inner_text("h1") == "berlin"


def test_the_concept_page_and_its_timeline(page: Any, shoot: Callable[..., None], site: str) -> None:
    page.goto(site + "/concept?c=alice")
    assert page.inner_text("h1") == "alice"
    timeline = page.locator("svg.timeline")
    assert timeline.locator("rect.valid").count() >= 3
    assert timeline.locator("rect.believed.closed").count() >= 1  # a belief the store closed since
    title = timeline.locator("rect.valid title").first.text_content()
    assert title is not None and "valid" in title
    shoot(page.locator("table.facts"), "facts")
    shoot(timeline, "timeline")


def test_the_graph_pans_zooms_and_expands(page: Any, shoot: Callable[..., None], site: str) -> None:
    page.goto(site + "/concept?c=alice")
    canvas = page.locator("canvas#graph")
    page.wait_for_function("document.getElementById('graph').dataset.settled === 'yes'", timeout=20000)
    before = int(canvas.get_attribute("data-nodes"))
    assert before >= 8
    assert page.evaluate("window.zeroGraph.ids().length") == before
    shoot(canvas, "graph")
    box = canvas.bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    scale = float(canvas.get_attribute("data-scale"))
    page.mouse.move(*centre)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"Number(document.getElementById('graph').dataset.scale) > {scale}")
    pan = float(canvas.get_attribute("data-pan-x"))
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 140, box["y"] + 60, steps=5)
    page.mouse.up()
    assert abs(float(canvas.get_attribute("data-pan-x")) - pan - 120 * 900 / box["width"]) < 2
    page.click("[data-graph=fit]")
    graph = "fetch('/api/graph?c=' + document.getElementById('graph').dataset.seed).then(r => r.json())"
    france = page.evaluate(graph + ".then(d => d.nodes.find(n => n.label === 'france').id)")
    assert not page.evaluate(f"window.zeroGraph.expanded('{france}')")
    where = page.evaluate(f"window.zeroGraph.where('{france}')")
    page.mouse.click(where["x"], where["y"])
    page.wait_for_function(f"window.zeroGraph.expanded('{france}')")
    page.wait_for_function(f"Number(document.getElementById('graph').dataset.nodes) > {before}")
    shoot(canvas, "graph-expanded")


# Where each concept and each drawn label is, in page coordinates, and the canvas's box.
LAYOUT = """() => {
  const graph = window.zeroGraph, box = document.getElementById('graph').getBoundingClientRect();
  return {
    canvas: {x: box.left, y: box.top, width: box.width, height: box.height},
    nodes: graph.ids().map(id => graph.where(id)),
    labels: graph.labels(),
  };
}"""


def assert_fits(layout: dict[str, Any]) -> None:
    """Every concept inside the canvas; every drawn label inside it too and over no other label."""
    canvas = layout["canvas"]
    left, top = canvas["x"], canvas["y"]
    right, bottom = left + canvas["width"], top + canvas["height"]
    outside = [n for n in layout["nodes"] if not (left <= n["x"] <= right and top <= n["y"] <= bottom)]
    assert not outside, f"{len(outside)} of {len(layout['nodes'])} concepts off the canvas"
    labels = layout["labels"]
    slack = 0.5
    for label in labels:
        assert left - slack <= label["x"] and label["x"] + label["width"] <= right + slack, label
        assert top - slack <= label["y"] and label["y"] + label["height"] <= bottom + slack, label
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"] + slack
                or b["x"] + b["width"] <= a["x"] + slack
                or a["y"] + a["height"] <= b["y"] + slack
                or b["y"] + b["height"] <= a["y"] + slack
            )
            assert apart, (a, b)


@pytest.mark.parametrize("width", [1200, 520])
@pytest.mark.parametrize("label", ["alice", "france", "carol", HOSTILE_LABELS[0]])
def test_the_graph_fits_the_canvas_on_load(browser: Any, site: str, label: str, width: int) -> None:
    """Right after load (and at a narrow window too): every concept inside the canvas, the concept's
    own label drawn, and no two labels overlapping."""
    context = browser.new_context(viewport={"width": width, "height": 860}, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(site + "/concept?c=" + quote(label))
        page.wait_for_function("document.getElementById('graph').dataset.settled === 'yes'", timeout=20000)
        layout = page.evaluate(LAYOUT)
        assert len(layout["nodes"]) >= 3
        assert_fits(layout)
        shown = {item["text"] for item in layout["labels"] if item["kind"] == "concept"}
        assert page.inner_text("h1") in shown  # the concept's own label is always drawn
        assert len(shown) >= min(len(layout["nodes"]), 5)
    finally:
        context.close()


def test_a_crowded_neighbourhood_fits_too(browser: Any, tmp_path: Path) -> None:
    """A hub with 150 neighbours (long labels, facts past and current) and a chain beyond: every
    concept inside the canvas after load, no two drawn labels overlapping."""
    import zerolang.memory

    db = tmp_path / "crowded.db"
    with zerolang.memory.open(db) as memory:
        memory.remember(
            [("hub", "links to", f"neighbour number {n} with a rather long label", 0.9) for n in range(150)]
            + [
                (f"neighbour number {n} with a rather long label", "leads to", f"far {n}", 0.5)
                for n in range(20)
            ]
        )
        memory.retract("hub|links to|neighbour number 3 with a rather long label")
    demo = Demo(db, tmp_path / "none.experiences.db", tmp_path / "archive")
    context = browser.new_context(viewport={"width": 1200, "height": 860}, bypass_csp=True)
    page = context.new_page()
    try:
        with open_worker(demo) as worker, serving(worker) as url:
            page.goto(url + "/concept?c=hub")
            page.wait_for_function(
                "document.getElementById('graph').dataset.settled === 'yes'", timeout=30000
            )
            layout = page.evaluate(LAYOUT)
            assert len(layout["nodes"]) == 171
            assert_fits(layout)
            assert "hub" in {label["text"] for label in layout["labels"]}
    finally:
        context.close()


def test_a_narrow_window_never_breaks_a_state_or_a_date(browser: Any, site: str) -> None:
    """The facts' state (`current`, `superseded` ...) and the conversations' dates stay on one line
    however narrow the window (no `curren t`)."""
    context = browser.new_context(viewport={"width": 360, "height": 800}, bypass_csp=True)
    page = context.new_page()
    try:
        for path, selector in (("/concept?c=alice", ".state"), ("/experiences", ".when")):
            page.goto(site + path)
            lines = page.eval_on_selector_all(selector, "spans => spans.map(s => s.getClientRects().length)")
            assert lines and set(lines) == {1}, (path, lines)
    finally:
        context.close()


def test_the_graph_fits_again_after_an_expansion_and_draws_past_facts_apart(page: Any, site: str) -> None:
    page.goto(site + "/concept?c=alice")
    page.wait_for_function("document.getElementById('graph').dataset.settled === 'yes'", timeout=20000)
    assert page.locator(".graph-legend .key.edge-past").count() == 1
    graph = "fetch('/api/graph?c=' + document.getElementById('graph').dataset.seed).then(r => r.json())"
    drawn = page.evaluate(graph)
    states = {edge["id"]: page.evaluate(f"window.zeroGraph.state('{edge['id']}')") for edge in drawn["edges"]}
    assert states == {edge["id"]: edge["state"] for edge in drawn["edges"]}
    assert {"retracted", "superseded", "current"} <= set(states.values())
    before = page.evaluate("window.zeroGraph.ids().length")
    page.locator("canvas#graph").scroll_into_view_if_needed()
    france = next(node["id"] for node in drawn["nodes"] if node["label"] == "france")
    where = page.evaluate(f"window.zeroGraph.where('{france}')")
    page.mouse.click(where["x"], where["y"])
    page.wait_for_function(f"window.zeroGraph.expanded('{france}')")
    page.wait_for_function(f"window.zeroGraph.ids().length > {before}")
    page.wait_for_function("document.getElementById('graph').dataset.settled === 'yes'", timeout=20000)
    assert_fits(page.evaluate(LAYOUT))


def test_a_page_elsewhere_cannot_post_a_form_here(page: Any, tmp_path: Path) -> None:
    """A page served from another origin posting the explorer's own form (even with its token) is
    refused by its Origin; the same form from the explorer's page is taken."""
    fresh = make_demo(tmp_path, hostile=False)
    with open_worker(fresh, write=True) as worker, serving(worker) as url:
        page.goto(url + "/concept?c=bob")
        token = page.locator("form.write[action='/forget'] input[name=token]").get_attribute("value")
        label = page.locator("form.write[action='/forget'] input[name=label]").get_attribute("value")
        evil = (
            f"<form method=post action='{url}/forget'><input name=token value='{token}'>"
            f"<input name=label value='{label}'><button>win a prize</button></form>"
        )
        page.route(
            "http://evil.example/",
            lambda route: route.fulfill(status=200, content_type="text/html", body=evil),
        )
        page.goto("http://evil.example/")
        with page.expect_navigation():
            page.click("button")
        assert "posted from another site" in page.inner_text("main")
        assert page.goto(url + "/concept?c=bob").status == 200  # nothing was forgotten
        page.click("form.write[action='/forget'] button")
        page.wait_for_url(url + "/tombstones?done=forget")


def test_a_hostile_store_runs_nothing(page: Any, shoot: Callable[..., None], site: str) -> None:
    untouched = "window.__pwned === undefined && window['--pwned'] === undefined"
    page.goto(site + "/search?mode=recall&q=" + quote(HOSTILE_LABELS[0]))
    assert page.evaluate(untouched)
    hostile = page.locator("table.results a.concept", has_text=HOSTILE_LABELS[1])
    assert hostile.count() == 1
    hostile.click()
    page.wait_for_function("document.getElementById('graph').dataset.settled === 'yes'", timeout=20000)
    assert page.inner_text("h1") == HOSTILE_LABELS[1]
    assert page.locator("ul.sources li", has_text="<script>window.__pwned=1</script>").count() >= 1
    assert page.evaluate(untouched)
    shoot(page, "hostile", full_page=True)
    for path in ["/", "/experiences", "/tombstones"]:
        page.goto(site + path)
        assert page.evaluate(untouched)
    page.goto(site + "/experiences")
    shown = 0
    for href in page.locator("table.sessions a").evaluate_all("links => links.map(a => a.href)"):
        page.goto(href)
        assert page.evaluate(untouched)
        shown += page.locator("div.what", has_text="<script>window.__pwned=1</script>").count()
    assert shown == 1  # the hostile turn, shown as the text it is


def test_experiences_context_and_archive(page: Any, shoot: Callable[..., None], site: str) -> None:
    page.goto(site + "/experiences")
    assert page.locator("table.sessions a", has_text=CLAUDE_TITLE).count() == 1
    shoot(page, "conversations")
    page.click("table.sessions a >> nth=0")
    page.wait_for_selector("section.turn")
    assert page.locator("section.turn").count() >= 1
    shoot(page, "conversation")
    page.goto(site + "/context?q=compost+tomatoes&budget=160")
    assert "of 160 tokens" in page.inner_text("p.tokens")
    shoot(page, "context")
    page.goto(site + "/archive?as=slack:team")
    assert page.locator("table.summaries tbody tr").count() == 1
    shoot(page, "archive")


def test_forget_and_restore_with_write(page: Any, shoot: Callable[..., None], tmp_path: Path) -> None:
    fresh = make_demo(tmp_path, hostile=False)
    with open_worker(fresh, write=True) as worker, serving(worker) as url:
        page.goto(url + "/concept?c=bob")
        assert page.locator(".mode-write").count() == 1
        page.click("form.write[action='/forget'] button")
        page.wait_for_url(url + "/tombstones?done=forget")
        assert "forgotten" in page.inner_text("p.notice")
        assert page.locator("table.tombstones td", has_text="live").count() == 1
        shoot(page, "tombstones")
        gone = page.goto(url + "/concept?c=bob")
        assert gone is not None and gone.status == 404
        page.goto(url + "/tombstones")
        page.click("form.write[action='/restore'] button")
        page.wait_for_url(url + "/tombstones?done=restore")
        back = page.goto(url + "/concept?c=bob")
        assert back is not None and back.status == 200


# Records every CSP violation the page reports (an init script is the browser's, not the page's: the
# page's policy does not apply to it).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', event =>
  window.__violations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline')));
"""


def test_the_hostile_store_under_the_enforced_csp(browser: Any, site: str) -> None:
    """With the page's Content-Security-Policy enforced: our own stylesheet and script do their work,
    no hostile label executes, and the browser reports no violation and no console error."""
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            message.type == "error" and problems.append(f"{message.text} ({message.location.get('url')})")
        ),
    )
    untouched = "window.__pwned === undefined && window['--pwned'] === undefined"
    try:
        visited = [
            "/",
            "/search?q=" + quote(HOSTILE_LABELS[0]),
            "/search?mode=recall&q=" + quote(HOSTILE_LABELS[0]),
            "/concept?c=" + quote(HOSTILE_LABELS[1]),
            "/concept?c=alice",
            "/tombstones",
            "/experiences",
            "/context?q=compost+tomatoes&budget=160",
        ]
        for path in visited:
            response = page.goto(site + path)
            assert response is not None and response.status == 200, path
            assert "script-src 'self'" in response.headers["content-security-policy"]
            if path.startswith("/concept"):  # the graph's script ran, fetching from this server
                page.wait_for_selector("canvas#graph[data-settled=yes]", state="attached", timeout=20000)
            assert page.evaluate(untouched), path
            assert page.evaluate("window.__violations") == [], path
        for href in page.locator("table.sessions a").evaluate_all("links => links.map(a => a.href)"):
            page.goto(href)
            assert page.evaluate(untouched) and page.evaluate("window.__violations") == [], href
        page.goto(site + "/concept?c=alice")
        styled = page.locator("svg.timeline").evaluate("svg => getComputedStyle(svg).backgroundColor")
        assert styled == "rgb(255, 255, 255)"  # the stylesheet applied: style-src 'self' lets it in
        assert page.evaluate("document.querySelectorAll('[style]').length") == 0  # no inline style
    finally:
        context.close()
    assert not problems, problems
