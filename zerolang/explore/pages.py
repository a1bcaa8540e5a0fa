"""The explorer's pages: pure functions from what `reads` found to HTML (every value escaped).

`Frame` carries what every page needs (the space, whether writes are on, the form token); each
`*_page` returns the whole document. Links name concepts by their full hash (`/concept?c=HASH`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from zerolang.explore.markup import MISSING, Html, html, join, lines
from zerolang.explore.reads import (
    CURRENT,
    PAST,
    ArchiveView,
    ConceptPage,
    Listing,
    Overview,
    Page,
    SessionListed,
    Turn,
    fact_state,
)
from zerolang.explore.timeline import legend, timeline
from zerolang.memory.asking import Answer

if TYPE_CHECKING:
    from zerolang.experience.budget import Rendering
    from zerolang.experience.recall import Hit
    from zerolang.knowledge.query.executor import QueryResult
    from zerolang.knowledge.store import FactView
    from zerolang.memory import TombstoneRow


@dataclass(frozen=True, slots=True)
class Frame:
    space: str
    write: bool
    token: str  # the form token: a write must carry it (no other page can post one)


def link(path: str, **query: object) -> str:
    """A URL of this explorer (escaped when it is placed in a page)."""
    given = {key: str(value) for key, value in query.items() if value is not None}
    return path + ("?" + urlencode(given) if given else "")


def layout(frame: Frame, title: str, body: Html, notice: str | None = None) -> Html:
    mode = "write" if frame.write else "read-only"
    shown = html("<p class=notice role=status>{}</p>", notice) if notice else Html("")
    return html(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        "<title>{title} · zero explore</title>"
        '<link rel=stylesheet href="/static/explore.css">'
        '<link rel=icon href="data:,">'  # no icon: the browser asks this server for none (no 404)
        '<script src="/static/explore.js" defer></script></head><body>'
        "<header><a class=brand href='/'>zero explore</a><nav>"
        "<a href='/'>space</a><a href='/search'>search</a><a href='/tombstones'>tombstones</a>"
        "<a href='/experiences'>experiences</a><a href='/context'>context</a><a href='/archive'>archive</a>"
        "</nav><span class=space>space <b>{space}</b> · <span class=mode-{mode}>{mode}</span></span></header>"
        "<main>{notice}<h1>{title}</h1>{body}</main></body></html>",
        title=title,
        space=frame.space,
        mode=mode,
        notice=shown,
        body=body,
    )


def table(head: Sequence[str], rows: Iterable[Sequence[object]], cls: str = "") -> Html:
    """A table: the head is our words, each cell escaped unless it is already `Html`; a missing
    value (None, or text that is empty) shows as `MISSING`."""
    header = join(html("<th>{}</th>", name) for name in head)
    body = join(html("<tr>{}</tr>", join(html("<td>{}</td>", shown(cell)) for cell in row)) for row in rows)
    return html('<table class="{}"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', cls, header, body)


def shown(value: object) -> object:
    """A cell's value, or `MISSING` where there is none (None, or text with nothing to see)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return MISSING
    return value


def concept_link(hash_text: str, label: str) -> Html:
    return html('<a class=concept href="{}">{}</a>', link("/concept", c=hash_text), label or hash_text[:12])


def next_link(path: str, after: str | None, **query: object) -> Html:
    if after is None:
        return Html("")
    return html('<p class=pager><a rel=next href="{}">next page →</a></p>', link(path, after=after, **query))


def error(message: str) -> Html:
    return html("<p class=error role=alert>{}</p>", message)


# ---- the space ----


def home_page(
    frame: Frame,
    overview: Overview | None,
    concepts: Listing,
    containing: str = "",
    notice: str | None = None,
) -> Html:
    """The space: its counts, experiences and tombstones (on the first page), and its concepts by
    label, filtered by `containing` and a page at a time."""
    rows = [
        (concept_link(row.hash, row.label), row.facts, html("<code>{}</code>", row.hash[:12]))
        for row in concepts.rows
    ]
    listing = html(
        "<h2>Concepts</h2>{}<p class=count>{}</p>{}{}",
        concept_filter(containing),
        concepts_counted(concepts, containing),
        table(["concept", "facts", "hash"], rows, "concepts") if rows else Html(""),
        next_link("/", concepts.after, q=containing or None),
    )
    if overview is None:
        return layout(frame, f"space {frame.space}: concepts", listing, notice)
    counts = table(["concepts", "facts", "episodes", "contexts"], [list(overview.counts.values())], "counts")
    experiences = (
        html("<p>experiences: no database</p>")
        if overview.experiences is None
        else html(
            "<p>experiences: {}</p>",
            ", ".join(f"{count} {name}" for name, count in overview.experiences.items()),
        )
    )
    others = (
        html("<p class=muted>{} other space(s) in this store, not served here.</p>", overview.other_spaces)
        if overview.other_spaces
        else Html("")
    )
    body = html(
        "<p class=muted>{location}</p>{counts}{experiences}"
        "<p><a href='/tombstones'>{stones} tombstone(s)</a></p>{others}{search}{listing}",
        location=overview.location,
        counts=counts,
        experiences=experiences,
        stones=overview.tombstones,
        others=others,
        search=search_form("", "ask"),
        listing=listing,
    )
    return layout(frame, f"space {overview.space}", body, notice)


def concept_filter(containing: str) -> Html:
    return html(
        "<form class=filter method=get action='/'><input name=q value='{}' aria-label='filter concepts'"
        " placeholder='labels containing …' size=32><button>filter</button>{}</form>",
        containing,
        html("<a href='/'>all concepts</a>") if containing else Html(""),
    )


def concepts_counted(concepts: Listing, containing: str) -> str:
    """What the listing shows, in words: which rows of how many (that match the filter)."""
    matching = f" with {containing.strip()!r} in the label" if containing.strip() else ""
    if not concepts.total:
        return f"no concepts{matching}"
    noun = "concept" if concepts.total == 1 else "concepts"
    first, last = concepts.start + 1, concepts.start + len(concepts.rows)
    if not concepts.rows:
        return f"no more of {concepts.total} {noun}{matching}"
    return f"{first}-{last} of {concepts.total} {noun}{matching}, by label"


SEARCH_MODES = {"ask": "a question in words", "recall": "recall from a concept", "query": "query (the DSL)"}


def search_form(text: str, mode: str) -> Html:
    options = join(
        html(
            "<option value='{}'{}>{}</option>", value, Html(" selected") if value == mode else Html(""), words
        )
        for value, words in SEARCH_MODES.items()
    )
    return html(
        "<form class=search method=get action='/search'>"
        "<input name=q value='{}' placeholder='where does Carol work? · a concept · match …'"
        " aria-label=search size=48>"
        "<select name=mode aria-label=mode>{}</select><button>search</button></form>",
        text,
        options,
    )


def search_page(
    frame: Frame, text: str, mode: str, result: QueryResult | Answer | None, problem: str | None
) -> Html:
    parts = [search_form(text, mode)]
    if problem is not None:
        parts.append(error(problem))
    if isinstance(result, Answer):
        parts.append(_answer(result))
    elif result is not None:
        parts.append(_result(result))
    return layout(frame, "search", join(parts))


def _answer(found: Answer) -> Html:
    """A plain-words answer as `zero recall --explain` prints it: each line, what it is, when, why."""
    if not found.items:
        return html("<p>nothing found</p>")
    said = f"{len(found.items)} of {found.offered} lines, {found.tokens} tokens"
    asked = html(" · read as of {}", found.at) if found.at else Html("")
    rows = [
        ["fact" if item.kind == "fact" else "turn", item.text, item.when, item.why] for item in found.items
    ]
    head = html("<p class=muted>the answer `zero recall` gives: {}{}</p>", said, asked)
    return join([head, table(["kind", "line", "when", "why"], rows, "results answer")])


def _result(result: QueryResult) -> Html:
    notes = join(html("<p class=muted>note: {}</p>", note) for note in result.notes)
    plan = html(
        "<details open><summary>plan</summary><ol>{}</ol></details>",
        join(html("<li>{}</li>", step) for step in result.plan),
    )
    if not result.rows:
        return join([notes, plan, html("<p>no results</p>")])
    if result.kind == "match":
        names = [f"?{name}" for name in result.variables]
        matched = []
        for row in result.rows:
            bindings: dict[str, str] = row["bindings"]  # type: ignore[assignment]
            facts: list[str] = row["facts"]  # type: ignore[assignment]
            matched.append(
                [*(bindings[name[1:]] for name in names), f"{row['confidence']:.3f}", "; ".join(facts)]
            )
        return join([notes, plan, table([*names, "confidence", "facts"], matched, "results")])
    factors = list(result.rows[0]["factors"])  # type: ignore[call-overload]
    rows = []
    for row in result.rows:
        found: dict[str, float] = row["factors"]  # type: ignore[assignment]
        path: list[str] = row["path"]  # type: ignore[assignment]
        rows.append(
            [
                row["rank"],
                concept_link(str(row["hash"]), str(row["concept"])),
                row["depth"],
                f"{row['score']:.3f}",
                *(f"{found[name]:.3f}" for name in factors),
                " → ".join(path),
            ]
        )
    explained = html(
        "<p class=muted>the score weighs the factors as the plan says; each factor is shown.</p>"
    )
    return join(
        [notes, plan, explained, table(["#", "concept", "depth", "score", *factors, "via"], rows, "results")]
    )


# ---- a concept ----


def concept_page(frame: Frame, found: ConceptPage, now: str, notice: str | None = None) -> Html:
    concept = found.view.concept
    key = concept.hash.hex()
    aliases = ", ".join(concept.aliases)
    head = html(
        "<p><code>{}</code>{}</p><p class=muted>confidence {} · created {} · updated {}</p>",
        key,
        html(" · aliases: {}", aliases) if aliases else Html(""),
        f"{concept.confidence:.3f}",
        shown(concept.created_at),
        shown(concept.updated_at),
    )
    forget = (
        _post("/forget", frame, "forget this concept", label=key, back=link("/concept", c=key))
        if frame.write
        else Html("")
    )
    facts = []
    for view in found.view.facts:
        fact = view.fact
        sources = join(
            html(
                "<li>{} <span class=muted>scope {} · event {} · stored {}{}</span></li>",
                shown(episode.source),
                shown(episode.scope),
                shown(episode.event_time),
                shown(episode.created_at),
                f" · pruned {episode.pruned_at}" if episode.pruned_at else "",
            )
            for episode in view.episodes
        )
        state = fact_state_words(view, now)
        retract = (
            _post("/retract", frame, "retract", fact=fact.fact_hash.hex(), back=link("/concept", c=key))
            if frame.write and not view.retired
            else Html("")
        )
        facts.append(
            [
                concept_link(fact.subject_hash.hex(), view.subject),
                fact.predicate,
                concept_link(fact.object_hash.hex(), view.object),
                f"{fact.confidence:.3f}",
                state,
                html("<ul class=sources>{}</ul>", sources) if view.episodes else MISSING,
                *([retract or MISSING] if frame.write else []),
            ]
        )
    history = join(_history(entry) for entry in found.history)
    stones = _stones(found.tombstones, frame) if found.tombstones else html("<p class=muted>none</p>")
    graph = html(
        "<div class=graph-tools><button type=button data-graph=fit>fit</button>"
        "<span class=graph-status aria-live=polite></span></div>"
        "<p class='legend graph-legend'><span class='key node-seed'></span> this concept"
        "<span class='key node'></span> a neighbour<span class='key node-expanded'></span> expanded"
        "<span class='key edge-current'></span> a current fact"
        "<span class='key edge-past'></span> a past fact (retracted, superseded or ended)</p>"
        "<canvas id=graph width=900 height=520 data-seed='{}' data-space='{}'"
        " aria-label='the neighbourhood graph: drag to pan, wheel to zoom, click a node to expand it,"
        " double-click to open it'></canvas>",
        key,
        frame.space,
    )
    body = html(
        "{head}{forget}<h2>Facts</h2>{facts}<h2>Timeline</h2><p class=legend>{legend}</p>{timeline}"
        "<h2>Neighbourhood</h2>{graph}<h2>History</h2>{history}<h2>Tombstones</h2>{stones}",
        head=head,
        forget=forget,
        facts=table(
            [
                "subject",
                "predicate",
                "object",
                "confidence",
                "state",
                "sources",
                *(["retract"] if frame.write else []),
            ],
            facts,
            "facts",
        ),
        legend=join(legend(), " "),
        timeline=timeline(found.history, found.tombstones, now),
        graph=graph,
        history=history or html("<p class=muted>no history</p>"),
        stones=stones,
    )
    return layout(frame, concept.label, body, notice)


def fact_state_words(view: FactView, now: str) -> Html:
    """A fact's state in the facts table: current, or past with when and why (never `None`)."""
    times = view.times
    state = fact_state(times, now)
    if times is None or (state == CURRENT and times.valid_to is None):
        return html("<span class=state>current</span>")
    if state == CURRENT:
        return html("<span class=state>current</span> until {}", times.valid_to)
    if state in PAST and times.retired_at is not None:
        why = "retracted" if times.retired_by in (None, "retracted") else "superseded"
        return html("<span class='state past'>{}</span> {}", why, times.retired_at)
    return html("<span class='state past'>ended</span> {}", times.valid_to)


def _history(entry: object) -> Html:
    text = getattr(entry, "text", "")
    periods = join(
        html(
            "<li>valid {} .. {}{} · known {} .. {} by {}{}</li>",
            shown(period.valid_from),
            period.valid_to or "now",
            f" (ended by {period.ended_by})" if period.ended_by not in (None, "stated") else "",
            shown(period.recorded_at),
            period.closed_at or "now",
            shown(period.recorded_by),
            f"; closed by {period.closed_by}" if period.closed_by else "",
        )
        for period in getattr(entry, "periods", ())
    )
    events = join(
        html("<li class=event>{} {}{}</li>", event.at, event.kind, f" {event.detail}" if event.detail else "")
        for event in getattr(entry, "events", ())
    )
    return html("<section class=history><h3>{}</h3><ul>{}{}</ul></section>", text, periods, events)


def _stones(rows: Sequence[TombstoneRow], frame: Frame) -> Html:
    listed = []
    for row in rows:
        state = "restored" if row.restored_at else "purged" if row.purged_at else "live"
        restore = (
            _post("/restore", frame, "restore", tombstone=row.hash.hex(), back="/tombstones")
            if frame.write and state == "live"
            else Html("")
        )
        listed.append(
            [
                html("<code>{}</code>", row.hash.hex()[:12]),
                row.created_at,
                state,
                row.kind,
                row.target or ("(purged)" if row.purged_at else None),
                *([restore or MISSING] if frame.write else []),
            ]
        )
    head = ["tombstone", "created", "state", "kind", "target", *(["restore"] if frame.write else [])]
    return table(head, listed, "tombstones")


def tombstones_page(frame: Frame, rows: Sequence[TombstoneRow], notice: str | None = None) -> Html:
    body = _stones(rows, frame) if rows else html("<p>no tombstones</p>")
    return layout(frame, "tombstones", body, notice)


def _post(action: str, frame: Frame, words: str, **fields: str) -> Html:
    hidden = join(
        html("<input type=hidden name='{}' value='{}'>", name, value) for name, value in fields.items()
    )
    return html(
        "<form class=write method=post action='{}'><input type=hidden name=token value='{}'>{}"
        "<button class=danger>{}</button></form>",
        action,
        frame.token,
        hidden,
        words,
    )


# ---- experiences, the context, the archive ----


def experiences_page(
    frame: Frame, sessions: Page | None, text: str, hits: Sequence[Hit] | None, problem: str | None
) -> Html:
    form = html(
        "<form class=search method=get action='/experiences'><input name=q value='{}' size=40"
        " aria-label='recall experiences' placeholder='recall experiences'><button>recall</button></form>",
        text,
    )
    parts = [form]
    if problem is not None:
        parts.append(error(problem))
    if hits is not None:
        parts.append(_hits(hits))
    if sessions is not None:
        rows = [_session_row(row) for row in sessions.rows]
        parts.append(html("<h2>Conversations</h2><p class=muted>newest first</p>"))
        parts.append(
            table(["conversation", "last turn", "first turn", "turns"], rows, "sessions")
            if rows
            else html("<p>no conversations</p>")
        )
        parts.append(next_link("/experiences", sessions.after))
    return layout(frame, "experiences", join(parts))


def _session_row(row: SessionListed) -> tuple[object, ...]:
    title = row.title or f"conversation {row.session[:16]}"
    return (
        html('<a href="{}">{}</a>', link("/session", s=row.session), title),
        html("<span class=when>{}</span>", _minute(row.last)),
        html("<span class=when>{}</span>", _minute(row.first)),
        row.turns,
    )


def _minute(moment: str | None) -> str:
    """A time as a listing shows it: its date and minute (`MISSING` when there is none)."""
    if not moment:
        return MISSING
    return moment.replace("T", " ")[:16]


def _hits(hits: Sequence[Hit]) -> Html:
    if not hits:
        return html("<p>no experiences</p>")
    rows = [
        (
            f"{hit.score:.3f}",
            hit.experience.layer.value,
            hit.experience.who,
            html("<div class=what>{}</div>", lines(hit.experience.what)),
            html(
                '<a href="{}">turn {}</a>',
                link("/session", s=hit.experience.session),
                hit.experience.position,
            ),
            "; ".join(hit.reasons),
        )
        for hit in hits
    ]
    return table(["score", "layer", "who", "what", "where", "why"], rows, "hits")


def session_page(frame: Frame, session: str, turns: Page, title: str | None = None) -> Html:
    parts = [html("<p class=muted>conversation <code>{}</code></p>", session)]
    for turn in turns.rows:
        assert isinstance(turn, Turn)
        rows = [
            (
                experience.layer.value,
                experience.who,
                html("<div class=what>{}</div>", lines(experience.what)),
                _affect(experience.affect),
            )
            for experience in turn.experiences
        ]
        left_out = (
            html("<p class=muted>{} left out: they mention something forgotten</p>", _layers(turn.hidden))
            if turn.hidden
            else html("")
        )
        parts.append(
            html(
                "<section class=turn><h2>turn {}</h2>{}{}</section>",
                turn.position,
                table(["layer", "who", "what", "affect"], rows),
                left_out,
            )
        )
    if not turns.rows:
        parts.append(html("<p>no turns</p>"))
    parts.append(next_link("/session", turns.after, s=session))
    return layout(frame, title or f"conversation {session[:16]}", join(parts))


def _layers(count: int) -> str:
    return f"{count} layer" + ("" if count == 1 else "s")


def _affect(affect: dict[str, float]) -> Html:
    strong = sorted(affect.items(), key=lambda item: -item[1])
    if not strong:
        return html("<span class=muted>none</span>")
    return join(
        html(
            "<span class=affect title='{}'>{} <meter min=0 max=1 value='{}'></meter></span>",
            f"{value:.2f}",
            name,
            f"{value:.3f}",
        )
        for name, value in strong
    )


def context_page(
    frame: Frame, text: str, budget: int, rendering: Rendering | None, problem: str | None
) -> Html:
    form = html(
        "<form class=search method=get action='/context'><input name=q value='{}' size=40 aria-label=question"
        " placeholder='a question'><label>budget <input name=budget type=number min=1 value='{}'></label>"
        "<button>build</button></form>",
        text,
        budget,
    )
    parts = [form]
    if problem is not None:
        parts.append(error(problem))
    if rendering is not None:
        parts.append(
            html(
                "<p class=tokens>{} of {} tokens (cl100k) · {}</p><pre class=context>{}</pre>",
                rendering.tokens,
                budget,
                context_counts(rendering),
                lines(rendering.text),
            )
        )
    return layout(frame, "the context an agent gets", join(parts))


def context_counts(rendering: Rendering) -> str:
    """What the context holds, counted as it is printed: the hits recall found, those in the graph
    index, those under `summaries:` and those under `full:`."""
    counted = {
        kind: sum(1 for item in rendering.items if item.kind == kind) for kind in ("node", "summary", "full")
    }
    found = f"{rendering.hits} hit" + ("" if rendering.hits == 1 else "s")
    return f"{found}: {counted['node']} listed, {counted['summary']} summarised, {counted['full']} in full"


def archive_page(
    frame: Frame, view: ArchiveView | None, text: str, clearance: str, problem: str | None
) -> Html:
    form = html(
        "<form class=search method=get action='/archive'><input name=as value='{}' aria-label=channel"
        " placeholder='caller channel' required><input name=clearance value='{}' size=4 aria-label=clearance"
        " placeholder=clearance><input name=q value='{}' aria-label=words placeholder=words>"
        "<button>ask</button></form>",
        view.channel if view is not None else "",
        clearance,
        text,
    )
    parts = [
        form,
        html(
            "<p class=muted>What a caller speaking from this channel may see,"
            " as zero archive search --as CHANNEL shows it.</p>"
        ),
    ]
    if problem is not None:
        parts.append(error(problem))
    elif view is not None and view.problem is not None:
        parts.append(error(view.problem))
    elif view is not None:
        rows = [
            (
                html("<code>{}</code>", s.hash[:16]),
                s.summary,
                s.created_at,
                s.y_privacy,
                s.z_abstraction,
                s.source_channel,
            )
            for s in view.summaries
        ]
        parts.append(
            table(["document", "summary", "created", "privacy", "abstraction", "channel"], rows, "summaries")
            if rows
            else html("<p>no summaries</p>")
        )
    return layout(frame, "archive", join(parts))


def problem_page(frame: Frame, title: str, message: str) -> Html:
    return layout(frame, title, error(message))
