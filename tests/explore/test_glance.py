"""The explorer at a glance (issue 44): concepts by label with a filter and honest counts,
conversations by title and date, no `None`, `null` or empty cell on any page of a rich store, the
budgeted context's counts as printed, and a form post that must come from this server's pages."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from starlette.testclient import TestClient

from tests.explore.conftest import open_worker
from tests.explore.stores import CLAUDE_TITLE, HOSTILE_LABELS, HOSTILE_TEXT, Demo
from zerolang.experience.titles import cut_at_word, session_title
from zerolang.explore.app import build_app

COUNTED = re.compile(r"<p class=count>(\d+)-(\d+) of (\d+) concepts?")
LISTED = re.compile(r'<a class=concept href="/concept\?c=([0-9a-f]{64})">([^<]*)</a>')


def walk_concepts(client: TestClient, path: str) -> tuple[list[str], int]:
    """Every label a listing shows, following its next links; and the total it says."""
    labels: list[str] = []
    total = -1
    while path:
        page = client.get(path).text
        rows = LISTED.findall(page)
        said = COUNTED.search(page)
        assert said is not None, page
        first, last, total = (int(group) for group in said.groups())
        assert (first, last) == (len(labels) + 1, len(labels) + len(rows))  # the count is what is shown
        labels += [unescape(label) for _, label in rows]
        following = re.search(r'rel=next href="([^"]+)"', page)
        path = unescape(following.group(1)) if following else ""
    return labels, total


def test_concepts_are_listed_by_label_filtered_and_counted(demo: Demo) -> None:
    with open_worker(demo) as worker:
        worker.explorer.page = 3
        client = TestClient(build_app(worker, ["testserver"]))
        everything, total = walk_concepts(client, "/")
        assert everything == sorted(everything, key=lambda label: (label.casefold(), label))
        assert total == len(everything) == len(set(everything))
        assert {"alice", "carol", "initech", *HOSTILE_LABELS} <= set(everything)
        for asked in ("CAR", "a", " Ber ", "<script>"):
            found, counted = walk_concepts(client, "/?" + f"q={asked}".replace(" ", "+").replace("<", "%3C"))
            wanted = [label for label in everything if asked.strip().casefold() in label.casefold()]
            assert found == wanted and counted == len(wanted), asked
        assert walk_concepts(client, "/?q=car")[0] == ["carol"]
        page = client.get("/", params={"q": "nothing-is-called-this"}).text
        assert "no concepts with &#x27;nothing-is-called-this&#x27; in the label" in page
        assert '<table class="concepts"' not in page
        assert "value='nothing-is-called-this'" in page  # the filter box keeps what was asked
        home = client.get("/").text
        counts = re.search(r"<table class=\"counts\">.*?<td>(\d+)</td>", home)
        assert counts is not None and int(counts.group(1)) == total  # the space's count is the listing's


def test_conversations_are_listed_by_title_and_date_newest_first(client: TestClient) -> None:
    page = client.get("/experiences").text
    table = re.search(r'<table class="sessions">(.*?)</table>', page, re.DOTALL)
    assert table is not None
    rows = re.findall(
        r'<tr><td><a href="(/session\?s=[0-9a-f]+)">([^<]*)</a></td><td><span class=when>([^<]*)</span></td>'
        r"<td><span class=when>([^<]*)</span></td><td>(\d+)</td></tr>",
        table.group(1),
    )
    assert len(rows) == 4
    titles = [unescape(title) for _, title, _, _, _ in rows]
    assert CLAUDE_TITLE in titles  # the transcript's own summary
    assert "My tomato plants have yellow leaves. Should I worry?" in titles  # a first user line
    assert all(len(title) <= 72 and "\n" not in title for title in titles)
    assert any(title.endswith("…") for title in titles)  # a long one, cut at a word end
    dated = [last for _, _, last, _, _ in rows if last != "-"]
    assert dated == sorted(dated, reverse=True) and len(dated) == 3
    assert rows[-1][2] == "-"  # a conversation without times comes last, its date missing
    assert all(int(turns) >= 1 for *_, turns in rows)
    claude = next(row for row in rows if unescape(row[1]) == CLAUDE_TITLE)
    assert (claude[2], claude[3], claude[4]) == ("2025-07-14 10:01", "2025-07-14 10:00", "3")
    session = client.get(unescape(claude[0])).text
    assert f"<h1>{CLAUDE_TITLE}</h1>" in session and f"<title>{CLAUDE_TITLE} · zero explore" in session
    hostile = next(row for row in rows if "script" in row[1])
    assert "<script>" not in hostile[1] and unescape(hostile[1]).startswith(HOSTILE_TEXT[:20])


def test_a_title_is_the_summary_or_the_first_user_line_cut_at_a_word_end() -> None:
    from zerolang.experience.model import Experience, Layer

    def said(layer: Layer, who: str, what: str) -> Experience:
        return Experience("x", layer, who, what, None, "s", "t", 0, 0)

    assert session_title([]) is None
    assert session_title([said(Layer.OUTPUT, "assistant", "hello")]) is None
    opening = [
        said(Layer.INPUT, "user", "\n  first   line \nsecond"),
        said(Layer.CONTEMPLATION, "summary", "kept"),
    ]
    assert session_title(opening) == "kept"  # a summary wins wherever it opens
    assert session_title(opening[:1]) == "first line"
    assert cut_at_word("one two three four", 12) == "one two…"
    assert cut_at_word("one two three", 8) == "one two…"
    assert cut_at_word("abcdefghijkl", 6) == "abcde…"
    assert cut_at_word("short", 6) == "short"
    words = "the quick brown fox jumps over the lazy dog"
    for limit in range(4, len(words) + 2):
        cut = cut_at_word(words, limit)
        assert len(cut) <= limit
        if cut.endswith("…"):  # what is kept is whole words: the original goes on with a space
            assert words.startswith(cut[:-1]) and words[len(cut) - 1] == " ", cut
        else:
            assert cut == words


class _Cells(HTMLParser):
    """A page's visible text and its table cells' contents (text and elements)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.cells: list[list[str]] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "td":
            self.cells.append([])
        elif self.cells:
            self.cells[-1].append(f"<{tag}>")

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.cells:
            self.cells[-1].append(data.strip())


def assert_nothing_missing_shown_as_none(path: str, page: str) -> None:
    parsed = _Cells()
    parsed.feed(page)
    words = " ".join(parsed.text)
    assert not re.search(r"\b(None|null|undefined|NaN)\b", words), (
        path,
        re.findall(r".{40}\bNone\b.{20}", words),
    )
    assert "valid to None" not in page and "None" not in re.sub(r"<[^>]*>", "", page), path
    empty = [cell for cell in parsed.cells if not "".join(cell).strip()]
    assert not empty, f"{path}: {len(empty)} empty cell(s)"


def test_no_page_of_a_rich_store_shows_none_null_or_an_empty_cell(demo: Demo) -> None:
    """Every page reachable from the space page by its links (concepts, searches, tombstones,
    conversations and their turns, the context, the archive), in both modes, read and write."""
    for write in (False, True):
        with open_worker(demo, write=write) as worker:
            worker.explorer.page = 6  # more pages, each reached by a next link
            client = TestClient(build_app(worker, ["testserver"]))
            start = [
                "/",
                "/?q=a",
                "/search?q=alice",
                "/search?q=match+(?x+lives_in+?y)&mode=query",
                "/search?q=carol",
                "/experiences?q=login+test",
                "/context?q=login+test&budget=300",
                "/context?q=compost+tomatoes&budget=90",
                "/archive?as=dm:alice",
                "/archive?as=slack:team&q=release",
                "/archive?as=nobody",
            ]
            seen: set[str] = set()
            waiting = list(start)
            while waiting:
                path = waiting.pop()
                if path in seen:
                    continue
                seen.add(path)
                response = client.get(path)
                assert response.status_code == 200, path
                assert_nothing_missing_shown_as_none(path, response.text)
                for href in re.findall(r'href="([^"]+)"|href=\'([^\']+)\'', response.text):
                    target = unescape(href[0] or href[1])
                    parts = urlsplit(target)
                    if not parts.netloc and target.startswith("/") and not target.startswith("/static/"):
                        waiting.append(target)
            assert len([path for path in seen if path.startswith("/concept?")]) >= 20
            assert len([path for path in seen if path.startswith("/session?")]) >= 4
            for concept in [path for path in seen if path.startswith("/concept?c=")][:30]:
                drawn = client.get("/api/graph", params={"c": concept.split("=", 1)[1]})
                if drawn.status_code == 200:
                    assert "null" not in drawn.text and all(
                        edge["state"] in {"current", "retracted", "superseded", "ended"}
                        for edge in drawn.json()["edges"]
                    )


def test_the_graph_names_past_facts(client: TestClient) -> None:
    seed = re.search(r"data-seed='([0-9a-f]{64})'", client.get("/concept", params={"c": "alice"}).text)
    assert seed is not None
    drawn = client.get("/api/graph", params={"c": seed.group(1), "depth": 1}).json()
    labels = {node["id"]: node["label"] for node in drawn["nodes"]}
    states = {
        (labels[edge["source"]], edge["predicate"], labels[edge["target"]]): edge["state"]
        for edge in drawn["edges"]
    }
    assert states[("alice", "likes", "coffee")] == "retracted"
    assert "superseded" in {state for (_, predicate, _), state in states.items() if predicate == "lives_in"}
    assert states[("alice", "lives_in", "berlin")] == "current"
    page = client.get("/concept", params={"c": "alice"}).text
    assert "a past fact (retracted, superseded or ended)" in page and "edge-past" in page


def test_the_state_column_reads_in_words(client: TestClient) -> None:
    page = client.get("/concept", params={"c": "alice"}).text
    states = re.findall(r"<td><span class=['\"]?state[^>]*>([a-z]+)</span>([^<]*)</td>", page)
    assert {state for state, _ in states} >= {"current", "retracted", "superseded"}
    assert all(state == "current" or when.strip() for state, when in states)  # a past fact says when


@pytest.mark.parametrize("budget", [60, 90, 120, 160, 240, 400, 1000])
def test_the_context_counts_what_it_prints(client: TestClient, budget: int) -> None:
    page = client.get("/context", params={"q": "login test flaky tomatoes", "budget": budget}).text
    said = re.search(r"(\d+) hits?: (\d+) listed, (\d+) summarised, (\d+) in full</p>", page)
    shown = re.search(r"<pre class=context>(.*?)</pre>", page, re.DOTALL)
    if said is None:  # the budget fits not even the heading
        assert "too small" in page
        return
    assert shown is not None
    sections: dict[str, list[str]] = {}
    heading = ""
    for line in unescape(shown.group(1)).splitlines()[1:]:
        if line in {"graph:", "edges:", "summaries:", "full:"}:
            heading = line
            sections[heading] = []
        elif not line.startswith("@ "):
            sections.setdefault(heading, []).append(line)
    hits, listed, summarised, full = (int(group) for group in said.groups())
    assert listed == len(sections.get("graph:", [])) <= hits
    assert summarised == len(sections.get("summaries:", []))
    assert full == len(sections.get("full:", []))


# ---- a form post must come from this server's own pages ----


def _token(client: TestClient) -> str:
    found = re.search(r"name=token value='([^']+)'", client.get("/concept", params={"c": "bob"}).text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://testserver.evil.example"},
        {"origin": "https://testserver"},
        {"origin": "http://testserver:8080"},
        {"origin": "http://testserver", "sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"sec-fetch-site": "same-origin"},  # a browser always sends Origin with a form's post
        {"origin": "not a url"},
    ],
)
def test_a_post_from_another_origin_is_refused(
    writable: tuple[TestClient, Demo], headers: dict[str, str]
) -> None:
    client, _ = writable
    token = _token(client)
    response = client.post(
        "/forget", data={"label": "bob", "token": token}, headers=headers, follow_redirects=False
    )
    assert response.status_code == 403
    assert "posted from another site" in response.text or "has no Origin" in response.text
    assert client.get("/concept", params={"c": "bob"}).status_code == 200  # nothing was forgotten


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://testserver"},
        {"origin": "http://TestServer:80"},
        {"origin": "http://testserver", "sec-fetch-site": "same-origin"},
        {},  # not a browser: the token alone guards it
    ],
)
def test_a_post_from_this_server_is_taken(writable: tuple[TestClient, Demo], headers: dict[str, str]) -> None:
    client, _ = writable
    token = _token(client)
    response = client.post(
        "/forget", data={"label": "bob", "token": token}, headers=headers, follow_redirects=False
    )
    assert response.status_code == 303, response.text
    assert client.get("/concept", params={"c": "bob"}).status_code == 404


def test_the_origin_does_not_stand_in_for_the_token(writable: tuple[TestClient, Demo]) -> None:
    client, _ = writable
    response = client.post(
        "/forget", data={"label": "bob", "token": "guessed"}, headers={"origin": "http://testserver"}
    )
    assert response.status_code == 403 and "not from this explorer" in response.text
