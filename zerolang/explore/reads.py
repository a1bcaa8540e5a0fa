"""What the explorer's pages show, read through the Python API: one `Explorer` over an open `Memory`.

Reading never writes: a query is run without recording its access (`touch=False`), the experience
database and the archive are opened only if they exist and never created. The three writes
(`forget`, `restore`, `retract`) are the `Memory` methods the other surfaces call, and only an
explorer made with `write=True` runs them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zerolang.knowledge.history import HistoryEntry, concept_history
from zerolang.knowledge.recall.traversal import neighbours
from zerolang.knowledge.store import ConceptView
from zerolang.knowledge.terms import Forgotten
from zerolang.memory.api import Memory
from zerolang.util.errors import ZeroError
from zerolang.util.times import utc_now

if TYPE_CHECKING:
    from zerolang.archive.gate import Summary
    from zerolang.archive.policy import Policy
    from zerolang.experience.budget import Rendering
    from zerolang.experience.model import Experience
    from zerolang.experience.recall import Hit
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.query.executor import QueryResult
    from zerolang.memory import FactTimes, TombstoneRow
    from zerolang.memory.asking import Answer

PAGE = 50  # rows on a page of concepts, sessions or turns
ASK_BUDGET = 1000  # the search box's answer, in cl100k tokens (as a hook's recall)
GRAPH_NODES = 300  # at most this many concepts in one neighbourhood drawing
GRAPH_DEPTH = 2


@dataclass(frozen=True, slots=True)
class Page:
    """Rows of a listing and where the next page starts (None: this is the last)."""

    rows: tuple[Any, ...]
    after: str | None


@dataclass(frozen=True, slots=True)
class Listing:
    """A page of a listing in a stated order: its rows, where they start among the `total` rows that
    match (0-based), and where the next page starts (None: this is the last)."""

    rows: tuple[Any, ...]
    start: int
    total: int
    after: str | None


@dataclass(frozen=True, slots=True)
class ConceptRow:
    hash: str
    label: str
    facts: int


@dataclass(frozen=True, slots=True)
class SessionListed:
    """A conversation as the experiences page lists it: its title (None: it has none to show), turns
    and the times of its first and last turn."""

    session: str
    title: str | None
    turns: int
    first: str | None
    last: str | None


@dataclass(frozen=True, slots=True)
class Overview:
    space: str
    location: str
    counts: dict[str, int]
    other_spaces: int
    experiences: dict[str, int] | None
    tombstones: int
    write: bool


@dataclass(frozen=True, slots=True)
class ConceptPage:
    view: ConceptView
    history: tuple[HistoryEntry, ...]
    tombstones: tuple[TombstoneRow, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    id: str
    position: int
    experiences: tuple[Experience, ...]
    hidden: int = 0  # layers left out: they mention something forgotten


@dataclass(frozen=True, slots=True)
class ArchiveView:
    """The summaries a caller may see, as `zero archive search --as CHANNEL` would list them; `problem`
    says why none could be asked for (no policy, no archive)."""

    channel: str
    summaries: tuple[Summary, ...] = ()
    problem: str | None = None


@dataclass(slots=True)
class Explorer:
    """The stores one `zero explore` serves: the memory in its space, its experiences and archive."""

    memory: Memory
    write: bool = False
    policy: Path | None = None
    page: int = PAGE  # rows on a page of a listing
    _experiences: ExperienceStore | None = field(default=None, repr=False)

    @property
    def space(self) -> str:
        return self.memory.space

    def close(self) -> None:
        if self._experiences is not None:
            self._experiences.close()
        self.memory.close()

    # ---- the space ----
    def overview(self) -> Overview:
        store = self.memory.store
        others = [name for name in store.spaces() if name != store.space]
        experiences = self.experiences()
        return Overview(
            store.space,
            str(self.memory.stores.memory),
            store.counts().to_json(),
            len(others),
            None if experiences is None else experiences.counts(),
            len(store.backend.tombstones()),
            self.write,
        )

    def concepts(self, after: str | None, containing: str = "") -> Listing:
        """A page of the space's concepts by label (stored in lower case, ordered by code point, then
        by hash), those whose label holds `containing` (in either case) only, after the concept
        `after` (a full hash), with how many match and where the page starts among them."""
        backend, limit = self.memory.store.backend, self.page
        wanted = containing.strip()
        mark = None
        if after is not None:
            digest = _digest(after)
            label = backend.labels([digest]).get(digest)
            if label is None:
                raise ZeroError(f"no concept {after} in this space (forgotten since?)")
            mark = (label, digest)
        found = backend.concepts_by_label(wanted, mark, limit + 1)
        shown = found[:limit]
        degrees = backend.degrees([key for key, _ in shown])
        rows = tuple(ConceptRow(key.hex(), label, degrees.get(key, 0)) for key, label in shown)
        start = 0 if mark is None else backend.count_by_label(wanted, mark)
        total = backend.count_by_label(wanted)
        return Listing(rows, start, total, shown[-1][0].hex() if len(found) > limit else None)

    def concept(self, label: str) -> ConceptPage | None:
        """A concept (label, hash or hash prefix) with its facts, their history and its tombstones."""
        view = self.memory.get(label)
        if view is None:
            return None
        history = concept_history(self.memory.store, view.concept.hash.hex())
        names = {view.concept.label, *view.concept.aliases}
        stones = tuple(
            row
            for row in self.memory.store.backend.tombstones()
            if row.target is not None and any(name in row.target.split("|") for name in names)
        )
        return ConceptPage(view, tuple(history), stones)

    def tombstones(self) -> list[TombstoneRow]:
        return self.memory.store.backend.tombstones()

    def graph(self, seed: str, depth: int = GRAPH_DEPTH, limit: int = GRAPH_NODES) -> dict[str, object]:
        """The neighbourhood of `seed` (a full hash) to `depth`, at most `limit` concepts, as the
        graph script draws it: nodes (hash, label, depth) and edges (facts)."""
        store = self.memory.store
        start = _digest(seed)
        if not store.backend.concepts([start]):
            raise ZeroError(f"no concept {seed} in this space")
        depth_of = {start: 0}
        edges: dict[bytes, tuple[bytes, str, bytes, float]] = {}
        frontier, truncated = [start], False
        for level in range(1, depth + 1):
            found: list[bytes] = []
            for edge in neighbours(store.backend, frontier, 0.0):
                ends = (edge.subject, edge.object)
                fresh = [end for end in ends if end not in depth_of]
                if len(depth_of) + len(fresh) > limit:
                    truncated = True
                    continue
                for end in fresh:
                    depth_of[end] = level
                    found.append(end)
                edges[edge.fact] = (edge.subject, edge.predicate, edge.object, edge.confidence)
            frontier = found
            if not frontier:
                break
        labels = store.backend.labels(list(depth_of))
        states = self.fact_states(list(edges))
        return {
            "seed": seed,
            "truncated": truncated,
            "nodes": [
                {"id": key.hex(), "label": labels.get(key, ""), "depth": d} for key, d in depth_of.items()
            ],
            "edges": [
                {
                    "id": fact.hex(),
                    "source": s.hex(),
                    "predicate": p,
                    "target": o.hex(),
                    "confidence": c,
                    "state": states.get(fact, CURRENT),
                }
                for fact, (s, p, o, c) in edges.items()
            ],
        }

    def fact_states(self, facts: list[bytes]) -> dict[bytes, str]:
        """Each of these facts' state now (`fact_state`), current ones left out."""
        from zerolang.memory.validity import times_now

        now = utc_now()
        times = times_now(self.memory.store, facts, now)
        states = {key: fact_state(value, now) for key, value in times.items()}
        return {key: state for key, state in states.items() if state != CURRENT}

    # ---- search ----
    def recall(self, label: str, depth: int = 2, limit: int = 20) -> QueryResult:
        """The ranked recall from a concept, with the plan and every score factor (as `--explain`)."""
        return self.query(f"recall {json.dumps(label, ensure_ascii=False)} depth {depth} limit {limit}")

    def ask(self, text: str, budget: int = ASK_BUDGET) -> Answer:
        """A question in plain words, answered as `zero recall` answers it: the facts and the
        conversations together, each line with why it was found (`zerolang.memory.asking`)."""
        from zerolang.memory.asking import answer

        return answer(text, facts=self.memory.store, experiences=self.experiences(), budget=budget)

    def query(self, text: str) -> QueryResult:
        """A query of the DSL, run without recording the access (the explorer only looks)."""
        from zerolang.knowledge.query.executor import run_query
        from zerolang.knowledge.query.parser import parse_query

        return run_query(self.memory.store, parse_query(text), touch=False)

    # ---- experiences ----
    def experiences(self) -> ExperienceStore | None:
        """The experience database if it exists (never created here), read with what the memory's
        purges blocked hidden as well (`zerolang.memory.erasure.PurgesHidden`)."""
        from zerolang.memory.opening import reading_experiences

        store = self._opened_experiences()
        return (
            None
            if store is None
            else reading_experiences(self.memory.stores, store, memory=self.memory.store)
        )

    def _opened_experiences(self) -> ExperienceStore | None:
        if self._experiences is None:
            from zerolang.memory.opening import open_experiences_of

            if self.memory.stores.experiences.holds_nothing_yet:
                return None
            try:
                self._experiences = open_experiences_of(self.memory.stores, create=False)
            except ZeroError:
                return None
        return self._experiences

    def sessions(self, after: str | None) -> Page:
        """A page of the conversations, newest first, each with its title, turns and times."""
        store, limit = self._need_experiences(), self.page
        found = store.sessions(after or "", limit + 1)
        shown = found[:limit]
        titles = self._titles(store, [row.session for row in shown])
        rows = tuple(
            SessionListed(row.session, titles.get(row.session), row.turns, row.first, row.last)
            for row in shown
        )
        return Page(rows, shown[-1].session if len(found) > limit else None)

    def session_title(self, session: str) -> str | None:
        """The title of one conversation (its summary or first user line), None if it has none."""
        return self._titles(self._need_experiences(), [session]).get(session)

    @staticmethod
    def _titles(store: ExperienceStore, sessions: list[str], turns: int = 3) -> dict[str, str]:
        """Each session's title, read from its first `turns` turns; what mentions something forgotten
        is passed over, as recall passes it over."""
        from zerolang.experience.titles import session_title

        hidden = Forgotten.of(store.forgotten_terms())
        titles: dict[str, str] = {}
        for session in sessions:
            opening = [ident for ident, _ in store.session_turns(session, -1, turns)]
            order = {ident: n for n, ident in enumerate(opening)}
            members = sorted(store.experiences_of_turns(opening), key=lambda e: (order[e.turn], e.ordinal))
            title = session_title(e for e in members if not hidden.mentions(e.who, e.what))
            if title is not None:
                titles[session] = title
        return titles

    def session(self, session: str, after: int | None) -> Page:
        """A page of a session's turns, each with its experiences (by layer, in order)."""
        store, limit = self._need_experiences(), self.page
        turns = store.session_turns(session, -1 if after is None else after, limit + 1)
        shown = turns[:limit]
        hidden = Forgotten.of(store.forgotten_terms())
        members: dict[str, list[Experience]] = {ident: [] for ident, _ in shown}
        left_out: dict[str, int] = dict.fromkeys(members, 0)
        for experience in store.experiences_of_turns(list(members)):
            if hidden.mentions(experience.who, experience.what):
                left_out[experience.turn] += 1  # it mentions something forgotten: as recall, not shown
            else:
                members[experience.turn].append(experience)
        rows = tuple(
            Turn(ident, position, tuple(members[ident]), left_out[ident]) for ident, position in shown
        )
        return Page(rows, str(shown[-1][1]) if len(turns) > limit else None)

    def recall_experiences(self, text: str, limit: int = 20) -> list[Hit]:
        from zerolang.experience.recall import recall

        if not text.strip():
            raise ZeroError("nothing to recall: the query is empty")
        return recall(self._need_experiences(), text, limit=limit)

    def context(self, text: str, budget: int) -> Rendering:
        """The budgeted context an agent would be given for `text` (as `zero recall --budget`)."""
        from zerolang.experience.budget import render

        hits = self.recall_experiences(text)
        return render(self._need_experiences(), text, hits, budget=budget)

    def _need_experiences(self) -> ExperienceStore:
        store = self.experiences()
        if store is None:
            raise ZeroError(f"no experience database at {self.memory.stores.experiences}")
        return store

    # ---- the archive ----
    def archive(self, channel: str, clearance: int | None, text: str = "", limit: int = 20) -> ArchiveView:
        """The archive's summaries `channel` may see under the consent policy: exactly what
        `zero archive search --as CHANNEL` lists (a channel the policy refuses sees none)."""
        from zerolang.archive.gate import Gate
        from zerolang.archive.policy import Caller
        from zerolang.archive.store import MARKER, Archive
        from zerolang.memory.settings import open_archive_index

        policy = self._policy()
        if policy is None:
            return ArchiveView(channel, problem="no consent policy: start with --policy FILE")
        root = self.memory.archive_root
        if root is None or not (root / MARKER).is_file():
            return ArchiveView(channel, problem=f"no archive at {root}")
        index = open_archive_index(self.memory.stores, create=False, memory=self.memory.store)
        gate = Gate(Archive(root, create=False), index, policy)
        return ArchiveView(channel, tuple(gate.search(Caller(channel, clearance), text, limit=limit)))

    def _policy(self) -> Policy | None:
        from zerolang.archive.policy import load_policy
        from zerolang.archive.settings import memory_settings_for

        path = self.policy or memory_settings_for().archive_policy
        return None if path is None else load_policy(path)

    # ---- writes (only with --write) ----
    def forget(self, label: str) -> str:
        """Forget a concept and every fact it takes part in (`zero memory forget LABEL`): its tombstone."""
        self._may_write()
        report = self.memory.forget("concept", label)
        return str(report.tombstone)

    def restore(self, tombstone: str) -> str:
        self._may_write()
        return str(self.memory.restore(tombstone).hash.hex())

    def retract(self, fact: str) -> str:
        self._may_write()
        times = self.memory.retract(fact)
        return f"valid {times.valid_from} .. {times.valid_to}"

    def _may_write(self) -> None:
        if not self.write:
            raise ZeroError("this explorer is read-only: start it with --write to change the memory")


CURRENT, RETRACTED, SUPERSEDED, ENDED = "current", "retracted", "superseded", "ended"
PAST = frozenset({RETRACTED, SUPERSEDED, ENDED})
"""A fact's states: it holds now, or it is past: retracted, superseded by a rival, or its validity
ended (a stated end that has passed)."""


def fact_state(times: FactTimes | None, now: str) -> str:
    """What a fact is now, from its times (None: current and open-ended)."""
    if times is None:
        return CURRENT
    if times.retired_at is not None or (times.valid_from is None and times.valid_to is None):
        return RETRACTED if times.retired_by in (None, "retracted") else SUPERSEDED
    if times.valid_to is not None and times.valid_to <= now:
        return ENDED
    return CURRENT


def _digest(text: str) -> bytes:
    try:
        digest = bytes.fromhex(text)
    except ValueError:
        digest = b""
    if len(digest) != 32:
        raise ZeroError(f"not a concept hash: {text!r}")
    return digest
