"""The explorer's routes under Starlette's test client: what each page shows, escaping, pagination,
the space it serves, the files it serves, and that it changes nothing unless started --write."""

from __future__ import annotations

import re
from html import unescape

import pytest
from starlette.testclient import TestClient

from tests.explore.conftest import open_worker
from tests.explore.inert import assert_inert
from tests.explore.stores import HOSTILE_LABELS, Demo
from zerolang.explore.app import build_app
from zerolang.explore.markup import html, text
from zerolang.util.tokens import count_tokens

PAGES = [
    "/",
    "/search?q=alice",
    "/search?q=match+(?x+likes+?y)&mode=query",
    "/concept?c=alice",
    "/tombstones",
    "/experiences",
    "/experiences?q=glad",
    "/context?q=glad&budget=200",
    "/archive?as=dm:alice",
]


def concept_hash(client: TestClient, label: str) -> str:
    found = re.search(r"data-seed='([0-9a-f]{64})'", client.get("/concept", params={"c": label}).text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_answers_with_the_strict_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200, response.text
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "default-src 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"
    assert_inert(response.text)


def test_hostile_labels_are_shown_as_text(client: TestClient) -> None:
    home = client.get("/").text
    hostile = concept_hash(client, HOSTILE_LABELS[0])
    page = client.get("/concept", params={"c": hostile}).text
    for label in HOSTILE_LABELS:
        assert label not in home + page
    assert "&lt;img src=x onerror=window[&#x27;--pwned&#x27;]=1&gt;" in page
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page  # the source, kept as it was written
    assert "\\x1b[31m" in page  # the control character shown as its escape
    assert_inert(page)


def test_markup_escapes_every_value() -> None:
    assert text("<a href='x'>\"&") == "&lt;a href=&#x27;x&#x27;&gt;&quot;&amp;"
    assert html("<b>{}</b>", "<i>") == "<b>&lt;i&gt;</b>"
    assert html("<b>{}</b>", html("<i>{}</i>", "<")) == "<b><i>&lt;</i></b>"


def test_the_home_page_counts_the_space(client: TestClient) -> None:
    page = client.get("/").text
    assert "space <b>default</b>" in page and "read-only" in page
    assert re.search(r"<td>\d+</td><td>\d+</td><td>\d+</td><td>\d+</td>", page)
    assert "<form method=post" not in page.replace("class=write ", "")
    assert "class=write" not in page


def test_concepts_are_paged_each_once(demo: Demo) -> None:
    with open_worker(demo) as worker:
        worker.explorer.page = 4
        client = TestClient(build_app(worker, ["testserver"]))
        seen: list[str] = []
        labels: list[str] = []
        path = "/"
        while path:
            page = client.get(path).text
            rows = re.findall(r"/concept\?c=([0-9a-f]{64})\">([^<]*)</a>", page)
            assert len(rows) <= 4
            said = re.search(r"<p class=count>(\d+)-(\d+) of (\d+) concepts", page)
            assert said is not None and int(said.group(2)) - int(said.group(1)) + 1 == len(rows)
            assert int(said.group(1)) == len(seen) + 1
            seen += [key for key, _ in rows]
            labels += [unescape(label) for _, label in rows]
            following = re.search(r'rel=next href="([^"]+)"', page)
            path = unescape(following.group(1)) if following else ""
        total = worker.call(lambda: worker.explorer.memory.store.counts().concepts)
    assert len(seen) == len(set(seen)) == total == int(said.group(3)) > 8
    assert labels == sorted(labels, key=str.casefold)


def test_a_page_after_an_unknown_hash_is_refused_plainly(client: TestClient) -> None:
    response = client.get("/", params={"after": "../../etc/passwd"})
    assert response.status_code == 400
    assert "not a concept hash" in response.text


def test_another_space_is_refused(client: TestClient) -> None:
    for path in ("/?space=other", "/concept?c=alice&space=other", "/api/graph?c=00&space=x"):
        response = client.get(path)
        assert response.status_code == 403
        assert "serves the space 'default' only" in response.text
        assert "content-security-policy" in response.headers
    assert client.get("/?space=default").status_code == 200


def test_a_request_for_another_host_is_refused(client: TestClient) -> None:
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400


@pytest.mark.parametrize(
    "path",
    [
        "/static/app.py",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2f..%2fpyproject.toml",
        "/static/%2fetc%2fpasswd",
        "/etc/passwd",
        "/static/",
    ],
)
def test_no_file_but_the_assets_is_served(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "import" not in response.text and "root:" not in response.text


def test_the_assets_are_served_by_name(client: TestClient) -> None:
    assert client.get("/static/explore.css").headers["content-type"].startswith("text/css")
    script = client.get("/static/explore.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert "fillText" in script.text and "innerHTML" not in script.text


def test_search_explains_the_ranking(client: TestClient) -> None:
    page = client.get("/search", params={"q": "alice", "mode": "recall"}).text
    assert "<summary>plan</summary>" in page
    for factor in ("confidence", "recency", "frequency", "connectivity"):
        assert f"<th>{factor}</th>" in page
    assert "/concept?c=" in page
    query = client.get("/search", params={"q": "match (?x lives_in ?y)", "mode": "query"}).text
    assert "<th>?x</th><th>?y</th>" in query and "berlin" in query
    broken = client.get("/search", params={"q": "match (", "mode": "query"}).text
    assert len(re.findall("class=error", broken)) == 1
    unknown = client.get("/search", params={"q": "nobody-at-all", "mode": "recall"}).text
    assert "no concept" in unknown


def test_search_answers_a_question_in_plain_words(client: TestClient) -> None:
    """Issue 44, point 1: the box takes a question as `zero recall` does (the default mode): partial
    names and word forms find the facts, each line with why it was found; nothing found is no error."""
    page = client.get("/search", params={"q": "Where does Alice live?"}).text
    assert "<option value='ask' selected>" in page
    assert 'class="results answer"' in page
    assert "alice lives in berlin" in page and "<th>why</th>" in page
    assert "class=error" not in page
    partial = client.get("/search", params={"q": "ali"}).text
    assert "alice" in partial and "class=error" not in partial
    nothing = client.get("/search", params={"q": "zzyzx quux"}).text
    assert "nothing found" in nothing and "class=error" not in nothing


def test_a_concept_shows_facts_sources_timeline_and_history(client: TestClient) -> None:
    page = client.get("/concept", params={"c": "alice"}).text
    assert "<h1>alice</h1>" in page
    assert "lives_in" in page and "berlin" in page
    assert "chat" in page  # a source
    assert "retracted</span>" in page and "superseded</span>" in page  # coffee; an earlier city
    assert '<rect class="valid"' in page and '<rect class="believed"' in page
    assert "valid 2023-05-01" in page  # the coffee fact's period, in the history
    missing = client.get("/concept", params={"c": "nobody-at-all"})
    assert missing.status_code == 404


def test_the_graph_is_the_neighbourhood_to_depth_two(client: TestClient, demo: Demo) -> None:
    alice = concept_hash(client, "alice")
    drawn = client.get("/api/graph", params={"c": alice}).json()
    depths = {node["id"]: node["depth"] for node in drawn["nodes"]}
    assert depths[alice] == 0 and max(depths.values()) == 2
    assert all(edge["source"] in depths and edge["target"] in depths for edge in drawn["edges"])
    labels = {node["label"] for node in drawn["nodes"]}
    assert {"paris", "berlin", HOSTILE_LABELS[0], HOSTILE_LABELS[1]} <= labels
    one = client.get("/api/graph", params={"c": alice, "depth": 1}).json()
    assert max(node["depth"] for node in one["nodes"]) == 1
    assert client.get("/api/graph", params={"c": "0" * 64}).status_code == 404
    assert client.get("/api/graph", params={"c": alice, "depth": "x"}).status_code == 400
    with open_worker(demo) as worker:
        cut = worker.call(worker.explorer.graph, alice, 2, 3)
    assert cut["truncated"] is True and len(cut["nodes"]) <= 3  # type: ignore[arg-type]


def test_experiences_by_conversation_turn_and_layer(client: TestClient) -> None:
    page = client.get("/experiences").text
    sessions = re.findall(r'href="(/session\?s=[0-9a-f]+)"', page)
    assert len(sessions) >= 2
    turns = [client.get(path).text for path in sessions]
    both = "".join(turns)
    assert "<h2>turn 0</h2>" in both
    assert "<td>input</td>" in both and "<td>output</td>" in both
    assert "<meter" in both  # an affect ("glad and grateful")
    hits = client.get("/experiences", params={"q": "grateful"}).text
    assert "grateful" in hits and "<th>why</th>" in hits


def test_the_context_fits_its_budget_and_says_its_tokens(client: TestClient) -> None:
    page = client.get("/context", params={"q": "compost tomatoes", "budget": 120}).text
    counted = re.search(r"<p class=tokens>(\d+) of 120 tokens", page)
    assert counted is not None and 0 < int(counted.group(1)) <= 120
    shown = re.search(r"<pre class=context>(.*?)</pre>", page, re.DOTALL)
    assert shown is not None
    from html import unescape

    assert count_tokens(unescape(shown.group(1))) == int(counted.group(1))
    assert "class=error" in client.get("/context", params={"q": "x", "budget": "0"}).text


def test_the_archive_shows_a_caller_exactly_what_the_policy_allows(client: TestClient) -> None:
    alice = client.get("/archive", params={"as": "dm:alice"}).text
    assert "the sister" in alice and "the release" in alice
    team = client.get("/archive", params={"as": "slack:team"}).text
    assert "the release" in team and "the sister" not in team
    stranger = client.get("/archive", params={"as": "nobody"}).text
    assert "no summaries" in stranger and "sister" not in stranger and "release" not in stranger


def test_read_only_refuses_every_write_and_changes_nothing(client: TestClient, demo: Demo) -> None:
    before = client.get("/").text
    for path, fields in (
        ("/forget", {"label": "alice"}),
        ("/restore", {"tombstone": "00"}),
        ("/retract", {"fact": "alice|likes|tea"}),
    ):
        response = client.post(path, data={**fields, "token": "x"}, follow_redirects=False)
        assert response.status_code == 403
        assert "read-only" in response.text
    assert client.get("/").text == before
    assert client.get("/forget").status_code == 405


def test_write_forgets_restores_and_retracts_through_the_memory_api(
    writable: tuple[TestClient, Demo],
) -> None:
    client, _ = writable
    page = client.get("/concept", params={"c": "bob"}).text
    token = re.search(r"name=token value='([^']+)'", page)
    assert token is not None and "mode-write" in page
    bob = concept_hash(client, "bob")
    refused = client.post("/forget", data={"label": bob, "token": "wrong"}, follow_redirects=False)
    assert refused.status_code == 403
    done = client.post("/forget", data={"label": bob, "token": token.group(1)}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/tombstones?done=forget"
    assert client.get("/concept", params={"c": "bob"}).status_code == 404
    stones = client.get("/tombstones?done=forget").text
    assert "forgotten:" in stones and "<td>live</td>" in stones
    tombstone = re.search(r"name='tombstone' value='([0-9a-f]{64})'", stones)
    assert tombstone is not None
    client.post("/restore", data={"tombstone": tombstone.group(1), "token": token.group(1)})
    assert client.get("/concept", params={"c": "bob"}).status_code == 200
    fact = re.search(
        r"name='fact' value='([0-9a-f]{64})'", client.get("/concept", params={"c": "alice"}).text
    )
    assert fact is not None
    back = client.post(
        "/retract",
        data={"fact": fact.group(1), "token": token.group(1), "back": "//evil.example/x"},
        follow_redirects=False,
    )
    assert back.headers["location"] == "/?done=retract"  # never off this server
