"""`zerolang.memory.open(...)`: the Python API, one object for everything 0-memory does.

    import zerolang.memory

    with zerolang.memory.open("agent.db", space="alice") as memory:
        memory.ingest({"tuples": [...], "context": {...}})
        memory.get("zerolang")          # a concept and its facts
        memory.query('recall "zerolang" depth 1')

A `Memory` is a thin facade: every method calls the module that owns the
behaviour (`ingest`, `experience.capture`, `experience.recall`, `query`,
`formats.exchange`, `archive`), so the API, the `zero` commands and `zero mcp`
behave alike. See docs/python-api.md.

It holds up to three stores, opened when first used, found where every surface finds them
(`zerolang.memory.settings.resolve_stores`, the table in docs/settings.md):

- the **memory** (facts as graphs): a SQLite path, `:memory:`, or a `postgresql://` URL, in one space;
- the **experiences** (captured turns): by default beside the memory (`NAME.experiences.db`);
- the **archive** (immutable documents): a folder; its summary index lives in the memory store.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from zerolang.knowledge.backend import FactTimes, InsertResult
from zerolang.knowledge.history import HistoryEntry
from zerolang.knowledge.store import ConceptView, FactView, MemoryStore, Observation
from zerolang.knowledge.types import (
    HEX_DIGEST,
    CompilerInput,
    ContextMeta,
    FactHash,
    InputError,
    SemanticTuple,
)
from zerolang.memory.settings import Stores, open_archive_index, prepare_folder, resolve_stores
from zerolang.storage import open_store
from zerolang.util.errors import ZeroError
from zerolang.util.locations import IN_MEMORY, parse_location

if TYPE_CHECKING:
    from zerolang.archive.archiving import Archived
    from zerolang.archive.gate import Gate
    from zerolang.archive.index import IndexStore
    from zerolang.archive.policy import Policy
    from zerolang.archive.store import Archive
    from zerolang.convo.store import EntryStore
    from zerolang.experience.capture import CaptureResult
    from zerolang.experience.forgotten import ErasingStore, ForgettingStore
    from zerolang.experience.model import Added
    from zerolang.experience.recall import Hit
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.backend import TombstoneRow
    from zerolang.knowledge.forget import ForgetReport
    from zerolang.knowledge.normalize import AliasTable
    from zerolang.knowledge.query.executor import QueryResult
    from zerolang.knowledge.terms import Forgotten
    from zerolang.memory.asking import Answer
    from zerolang.memory.erasure import Reach
    from zerolang.memory.tokens import Grant, Token

__all__ = [
    "FORGET_MODULE",
    "Forgetting",
    "Memory",
    "Restoring",
    "Retraction",
    "open_memory",
    "open_memory_of",
]

# The forget issue's module (tombstones). `Memory.forget` delegates to it once it is part of the build.
FORGET_MODULE = "zerolang.knowledge.forget"

Inputs = CompilerInput | Mapping[str, object] | Iterable[CompilerInput | Mapping[str, object]]
Lent = tuple["ForgettingStore", "ErasingStore | None"]


@dataclass(frozen=True, slots=True)
class Forgetting:
    """What `Memory.forgetting` did: the memory's report, the experience records and conversation
    entries erased inside the forget's transaction (with `purge`), and what the purge erased in
    every place beside the memory, by place, those included (`zerolang.memory.erasure`; places
    that erased nothing left out)."""

    report: ForgetReport
    experiences_erased: int = 0
    erased: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Restoring:
    """What `Memory.restoring` did: the lifted tombstone and how many episodes came back."""

    row: TombstoneRow
    episodes: int


@dataclass(frozen=True, slots=True)
class Retraction:
    """What `Memory.retracting` did: the fact (hash and `S|P|O` text) and its times now."""

    fact_hash: str
    text: str
    times: FactTimes


def open_memory(
    location: str | Path | None = None,
    *,
    space: str | None = None,
    experiences: str | Path | None = None,
    archive: str | Path | None = None,
    index: str | Path | None = None,
    create: bool = True,
) -> Memory:
    """Open a memory: a SQLite path (created unless `create=False`), `:memory:` or a PostgreSQL URL.

    What is not given resolves as every surface resolves it (`zerolang.memory.settings`): the
    environment (`$ZERO_MEMORY_DB`, `$ZERO_MEMORY_SPACE`, `$ZERO_EXPERIENCE_DB`, `$ZERO_ARCHIVE`),
    the configuration, then the per-user defaults `zero` uses."""
    if location is not None and (not isinstance(location, str | Path) or not str(location)):
        raise ZeroError(f"not a memory location: {location!r} (a SQLite path, :memory: or a server URL)")
    stores = resolve_stores(location, space=space, experiences=experiences, archive=archive, index=index)
    where = stores.memory
    if create:
        prepare_folder(where, given=stores.memory_named)
    store = open_store(where, space=stores.space, create=create)
    return Memory(store, stores=stores)


def open_memory_of(stores: Stores, *, create: bool = False) -> Memory:
    """A `Memory` on the stores `stores` name, resolved once at a surface's edge (`resolve_stores`):
    `zero mcp`'s readers open their own on the server's."""
    from zerolang.memory.opening import open_facts

    return Memory(open_facts(stores=stores, create=create), stores=stores)


class Memory:
    """A memory in one space, with its experiences and archive; a context manager that closes them."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        experiences: str | Path | None = None,
        archive: str | Path | None = None,
        stores: Stores | None = None,
        lent: Lent | None = None,
    ) -> None:
        """A memory over an open `store`. `stores` says where the rest lives (`resolve_stores`); without
        it, `experiences` (default: in memory) and `archive` (default: as resolved) do, and the
        archive's index is in `store`. `lent`: an experience store and its conversations, already
        open, that forget, restore and purge reach instead (the caller closes them; `zero memory`
        opens them first, so a missing one stops a command before the memory changes)."""
        self.store = store
        self._lent = lent
        if stores is None:
            stores = resolve_stores(
                str(getattr(store.backend, "location", store.path)),
                space=store.space,
                experiences=IN_MEMORY if experiences is None else experiences,
                archive=archive,
                environ={},
            )
        self.stores = stores
        self.experiences_location: str | Path = str(stores.experiences)
        self.archive_root = stores.archive
        self._experiences: ExperienceStore | None = None
        self._archive: Archive | None = None
        self._index: IndexStore | None = None

    # ---- lifetime ----
    @property
    def space(self) -> str:
        return self.store.space

    def in_space(self, space: str) -> Memory:
        """The same memory seen from another space: its facts on this memory's connection (closing it
        leaves that open), its experiences and archive index opened there when first used."""
        from dataclasses import replace

        from zerolang.util.spaces import check_space

        return Memory(self.store.in_space(check_space(space)), stores=replace(self.stores, space=space))

    def close(self) -> None:
        """Close every store this memory opened."""
        for resource in (self._experiences, self._index):
            if resource is not None:
                resource.close()
        self._experiences = self._index = None
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.store.path!r}, space={self.space!r})"

    # ---- facts ----
    def ingest(self, inputs: Inputs, *, now: str | None = None) -> InsertResult:
        """Compile and store compiler inputs (objects or their JSON form, one or many); what changed.
        `now` (ISO 8601, any offset) is the store time they are learned at, in the store's format."""
        from zerolang.knowledge.ingest import ingest

        items = [inputs] if isinstance(inputs, CompilerInput | Mapping) else list(inputs)
        parsed = [
            item if isinstance(item, CompilerInput) else _input(item, n) for n, item in enumerate(items)
        ]
        return ingest(self.store, parsed, now=None if now is None else _at(now))

    def remember(
        self,
        tuples: Sequence[tuple[str, str, str] | tuple[str, str, str, float]],
        *,
        source: str = "api",
        scope: str = "general",
        event_time: str | None = None,
        utterance: str | None = None,
        metadata: Mapping[str, str] | None = None,
        now: str | None = None,
    ) -> InsertResult:
        """Store `(subject, predicate, object[, confidence])` tuples stated in one context (default: now);
        `now` is the store time they are learned at (default: the clock), as `ingest` takes it."""
        from zerolang.util.times import utc_now

        try:
            facts = tuple(SemanticTuple(*item) for item in tuples)
            context = ContextMeta(event_time or utc_now(), source, scope, metadata=dict(metadata or {}))
            item = CompilerInput(facts, context, utterance)
        except InputError as error:
            raise ZeroError(error.message) from None
        except TypeError as error:
            raise ZeroError(f"a tuple is (subject, predicate, object[, confidence]): {error}") from None
        return self.ingest(item, now=now)

    def get(self, label_or_hash: str) -> ConceptView | None:
        """A concept (by label, hash or unique hash prefix) with every fact it takes part in."""
        concept = self.store.find_concept(label_or_hash)
        return None if concept is None else self.store.recall(concept)

    def fact(self, fact_hash: str) -> FactView | None:
        """A fact by its full hash, with its labels and observations."""
        if not HEX_DIGEST.match(fact_hash):
            return None
        fact = self.store.get_fact(FactHash.from_hex(fact_hash))
        if fact is None:
            return None
        subject = self.store.get_concept(fact.subject_hash)
        for view in self.store.recall(subject).facts if subject is not None else ():
            if view.fact.fact_hash == fact.fact_hash:
                return view
        labels = self.store.backend.labels([fact.subject_hash.digest, fact.object_hash.digest])
        nothing: tuple[Observation, ...] = ()
        return FactView(
            fact, labels.get(fact.subject_hash.digest, ""), labels.get(fact.object_hash.digest, ""), nothing
        )

    # ---- time: declarations, retractions, history ----
    def single_valued(self) -> frozenset[str]:
        """The predicates this space declares single-valued (`zero memory single-valued`)."""
        return self.store.single_valued

    def declare_single_valued(
        self, predicates: Sequence[str], *, remove: bool = False, now: str | None = None
    ) -> builtins.list[str]:
        """Declare (or with `remove`, undeclare) predicates single-valued from `now` (default: the
        clock) on, recorded in the space's log; the predicates that changed."""
        from zerolang.knowledge.temporal import utc
        from zerolang.util.times import utc_now

        at = utc_now() if now is None else utc(now, "now")
        return self.store.declare_single_valued(predicates, at=at, remove=remove)

    def retract(self, fact: str, *, valid_to: str | None = None, now: str | None = None) -> FactTimes:
        """Say a fact (`S|P|O` or its hash) stopped holding at `valid_to` (default: now), kept for
        history (`zero memory retract`)."""
        return self.retracting(fact, valid_to=valid_to, now=now).times

    def retracting(
        self,
        fact: str,
        *,
        valid_to: str | None = None,
        now: str | None = None,
        aliases: AliasTable | None = None,
    ) -> Retraction:
        """`retract`, saying which fact it closed: `zero memory retract` calls it. `now` is the store
        time the retraction is recorded at (default: the clock); `aliases` resolve the `S|P|O` labels."""
        from zerolang.knowledge import temporal
        from zerolang.knowledge.forget import fact_key

        key, text = fact_key(self.store, fact, aliases)
        found = self.store.backend.facts([key]).get(key)
        if found is None:
            raise ZeroError(f"no fact `{fact}` in {self.store.path}")
        at = _at(now)
        end = None if valid_to is None else temporal.utc(valid_to, "valid_to")
        times = temporal.retract(
            self.store.backend, found, at=at, valid_to=end, single=self.store.single_valued
        )
        return Retraction(key.hex(), text, times)

    def history(self, label: str) -> builtins.list[HistoryEntry]:
        """A concept's facts over time: each validity period, when the store believed it and why
        (`zero memory history`)."""
        from zerolang.knowledge.history import concept_history

        return concept_history(self.store, label)

    def query(self, text: str, *, now: datetime | None = None) -> QueryResult:
        """Run a query of the DSL (docs/query.md); `now` fixes the clock recency is scored by."""
        from zerolang.knowledge.query.executor import run_query
        from zerolang.knowledge.query.parser import parse_query

        parsed = parse_query(text)
        if now is None:
            return run_query(self.store, parsed)
        moment = now if now.tzinfo is not None else now.replace(tzinfo=UTC)
        return run_query(self.store, parsed, clock=lambda: moment)

    def export(self, form: str = "0c", level: str = "L2", since: str | None = None) -> str:
        """The memory as `.0c` (detail level L0, L1 or L2), `json` or `0` graphs; `since`: a delta."""
        from zerolang.knowledge.formats.exchange import Format, export
        from zerolang.knowledge.formats.levels import Level

        if form not in Format._value2member_map_ or level not in Level._value2member_map_:
            raise ZeroError(f"format is 0, 0c or json and level L0, L1 or L2 (got {form!r}, {level!r})")
        return export(self.store, Format(form), Level(level), since)

    # ---- the HTTP server's access tokens (zerolang.memory.tokens) ----
    def create_token(
        self,
        space: str | None = None,
        *,
        read_only: bool = False,
        name: str = "",
        expires: str | None = None,
        now: datetime | None = None,
    ) -> tuple[str, Token]:
        """A new bearer token reaching `space` (this memory's by default), read-only or not, expiring
        after `expires` (`30d`, an ISO date; None: never): the token, to show once, and what is kept."""
        from zerolang.memory import tokens
        from zerolang.storage import tokens_of

        moment = datetime.now(UTC) if now is None else now
        return tokens.create(
            tokens_of(self.store),
            self.space if space is None else space,
            read_only=read_only,
            name=name,
            expires=expires,
            now=moment,
        )

    def tokens(self) -> builtins.list[Token]:
        """Every access token of the store (every space's), oldest first."""
        from zerolang.memory import tokens
        from zerolang.storage import tokens_of

        return tokens.listed(tokens_of(self.store))

    def revoke_token(self, token_or_id: str, *, now: datetime | None = None) -> Token:
        """Revoke an access token, given as itself or by its id."""
        from zerolang.memory import tokens
        from zerolang.storage import tokens_of

        return tokens.revoke(tokens_of(self.store), token_or_id, datetime.now(UTC) if now is None else now)

    def token_grant(self, secret: str, *, now: datetime | None = None) -> Grant | None:
        """What a request presenting `secret` may do: its space and whether it may write; None
        unless it is a live token of this store."""
        from zerolang.memory import tokens
        from zerolang.storage import tokens_of

        return tokens.check(tokens_of(self.store), secret, datetime.now(UTC) if now is None else now)

    # ---- experiences ----
    @property
    def experiences(self) -> ExperienceStore:
        """The experience store, in this memory's space (opened, and created, when first used)."""
        if self._experiences is None:
            from zerolang.memory.opening import open_experiences_of

            # in the memory's space; what the memory purged stays out of them
            self._experiences = open_experiences_of(self.stores, create=True, memory=self.store)
        return self._experiences

    def capture(
        self,
        *,
        session: str,
        user_said: str = "",
        thinking: str = "",
        agent_said: str = "",
        tool_calls: Sequence[str] = (),
        user: str = "user",
        agent: str = "assistant",
        when: str | None = None,
    ) -> Added:
        """Store one finished conversation turn of `session` (after its previous one); what was added."""
        from zerolang.experience.capture import TurnRecorder

        recorder = TurnRecorder(self.experiences, session=session, user=user, agent=agent)
        return recorder.record(
            user_said=user_said, thinking=thinking, agent_said=agent_said, tool_calls=tool_calls, when=when
        )

    def capture_files(self, paths: Sequence[str | Path], *, fmt: str | None = None) -> CaptureResult:
        """Capture transcript files (pi, Claude Code, OpenAI), as `zero capture` does."""
        from zerolang.experience.capture import capture_files

        return capture_files(self.experiences, paths, fmt=fmt)

    def recall(
        self,
        question: str,
        *,
        budget: int | None = None,
        ids: bool = False,
        explain: bool = False,
        now: str | None = None,
        skip_sessions: Sequence[str] = (),
        as_json: bool = False,
        lines: int | None = None,
    ) -> Answer:
        """Answer a question in plain words from the facts and the conversations together, in one
        context of at most `budget` cl100k tokens written for a model (`zerolang.memory.asking`):
        fact lines (current values first, the past with its periods; a date in the question reads
        them as of then) and conversation turns (who, when, what). Hash ids only with `ids`; each
        item's reason with `explain` (`Answer.explained()`, the JSON's `why`), never spent from
        the budget; `as_json` budgets the JSON form (`Answer.json`) instead of the text. `now`
        (ISO 8601) is the clock; `skip_sessions`: conversations left out (the one under way);
        `lines`: at most this many lines."""
        from zerolang.memory.asking import answer

        return answer(
            question,
            facts=self.store,
            experiences=self._experiences_if_any(),
            budget=budget,
            ids=ids,
            explain=explain,
            now=now,
            skip_sessions=frozenset(skip_sessions),
            as_json=as_json,
            lines=lines,
        )

    ask = recall  # the same question, by the name agents often use

    def recall_turns(self, text: str, *, limit: int = 20) -> builtins.list[Hit]:
        """The captured conversation turns most related to `text`, best first, each with why it
        was found: the conversations' half of `recall`, as hits rather than a context."""
        from zerolang.experience.recall import recall

        if not text.strip():
            raise ZeroError("nothing to recall: the query is empty")
        return recall(self.experiences, text, limit=limit)

    # ---- the archive ----
    @property
    def archive(self) -> Archive:
        """The document archive (created when first used)."""
        if self._archive is None:
            from zerolang.archive.store import Archive

            self._archive = Archive(self.archive_root, create=True)
        return self._archive

    @property
    def index(self) -> IndexStore:
        """The archive's summary index: in the memory store, in its space, unless configured elsewhere
        (`zerolang.memory.settings`), as `zero archive` and `zero mcp` keep it."""
        if self._index is None:
            self._index = open_archive_index(self.stores, create=True, memory=self.store)
        return self._index

    def archive_document(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        channel: str,
        consent_scope: str,
        session: str | None = None,
        summary: str | None = None,
        privacy: int = 0,
        abstraction: int = 0,
        tags: Sequence[str] = (),
    ) -> Archived:
        """Archive a conversation as an immutable document, indexed under a summary (made if not given)."""
        from zerolang.archive.archiving import archive_and_index
        from zerolang.archive.document import make_document

        document = make_document(
            [dict(message) for message in messages],
            channel=channel,
            consent_scope=consent_scope,
            session=session,
            tags=list(tags),
        )
        from zerolang.knowledge.mentions import purged_terms

        return archive_and_index(
            self.archive,
            self.index,
            document,
            summary=summary,
            privacy=privacy,
            abstraction=abstraction,
            forgotten=purged_terms(self.store),
        )

    def gate(self, policy: Policy | str | Path) -> Gate:
        """The archive seen through a consent policy (a `Policy` or a policy file): summaries and gets."""
        from zerolang.archive.gate import Gate
        from zerolang.archive.policy import Policy, load_policy

        rules = policy if isinstance(policy, Policy) else load_policy(policy)
        return Gate(self.archive, self.index, rules)

    # ---- forgetting ----
    def forget(
        self,
        kind: str,
        target: str,
        *,
        purge: bool = False,
        aliases: AliasTable | None = None,
        now: str | None = None,
        dry_run: bool = False,
    ) -> Any:
        """Forget what `kind` (concept, fact, source, scope, time, space) and `target` name: a tombstone.

        It delegates to `zerolang.knowledge.forget`: a label takes the facts it takes part in, and the
        contexts that only name it are redacted (`zerolang.knowledge.scope`). When the memory has an
        experience store (open, or its file exists), captured experiences and conversation turns that
        mention a forgotten concept's label or aliases are left out of `recall` from then on (and
        erased with `purge`). `now` is the store time it is recorded at (default: the clock).
        `dry_run`: the report of what it would take and redact in the memory, nothing written.
        """
        if dry_run:
            return self._previewing(kind, target, purge=purge, aliases=aliases, now=now)
        return self.forgetting(kind, target, purge=purge, aliases=aliases, now=now).report

    def _previewing(
        self, kind: str, target: str, *, purge: bool, aliases: AliasTable | None, now: str | None
    ) -> Any:
        """A forget's preview: the memory's plan, and how many items of each other store it reaches
        mention what it forgets (`zerolang.memory.holders`, read only); nothing written."""
        from dataclasses import replace

        from zerolang.knowledge.forget import Selector, forget
        from zerolang.knowledge.terms import Forgotten

        with ExitStack() as stack:
            reached = stack.enter_context(self._reached(reading=True))
            experiences, entries = reached.experiences, reached.entries
            places = stack.enter_context(self._places(experiences, entries)) if purge else None
            extra: dict[str, Any] = {}
            if kind == "concept" and self.store.find_concept(target, aliases) is None:
                extra["searched"] = self._holders(target, aliases, experiences, entries, places)
            report = forget(
                self.store,
                Selector(kind, target),
                at=_at(now),
                purge=purge,
                aliases=aliases,
                dry_run=True,
                **extra,
            )
            found = self._holding(Forgotten.terms(report.terms), experiences, entries, places)
        found.pop("facts", None)  # the plan's own count, exact
        return replace(report, elsewhere=tuple(found.items()))

    def forgetting(
        self,
        kind: str,
        target: str,
        *,
        purge: bool = False,
        aliases: AliasTable | None = None,
        now: str | None = None,
    ) -> Forgetting:
        """`forget`, with what it erased beside the memory: `zero memory forget` calls it.

        A concept the fact store does not hold is forgotten by its label when another store the
        forget reaches mentions it (`zerolang.memory.holders`: the experiences and conversations;
        a purge also the facts' contexts and the archive); none: `no concept`, naming them.
        When the conversations are in the memory's own database (its SQLite file, its PostgreSQL
        database), the forget blocks (and a purge erases) them inside its own transaction, on its
        connection: both halves commit together, or neither."""
        try:
            module = import_module(FORGET_MODULE)
            selector, forget = module.Selector, module.forget
        except (ImportError, AttributeError):
            raise ZeroError(
                "forget is not in this build of zerolang (it needs zerolang.knowledge.forget)"
            ) from None
        from zerolang.experience.forgotten import apply_forget, erase_by_place
        from zerolang.memory.erasure import erase_everywhere

        at = _at(now)
        inside: dict[str, int] = {}
        with ExitStack() as stack:
            reached = stack.enter_context(self._reached())
            experiences, entries = reached.experiences, reached.entries
            places = stack.enter_context(self._places(experiences, entries)) if purge else None

            def block(tombstone: str, terms: tuple[str, ...]) -> None:  # before the memory commits
                if experiences is not None:
                    apply_forget(experiences, tombstone, terms, purge=False)
                    if purge:
                        inside.update(erase_by_place(experiences, tombstone, entries))

            blocking: dict[str, Any] = {} if experiences is None else {"inside": block}
            if experiences is not None and not reached.together:
                blocking["experiences"] = self.experiences_location
            extra: dict[str, Any] = {} if aliases is None else {"aliases": aliases}
            if kind == "concept" and self.store.find_concept(target, aliases) is None:
                extra["searched"] = self._holders(target, aliases, experiences, entries, places)
            report = forget(self.store, selector(kind, target), at=at, purge=purge, **extra, **blocking)
            tombstone = getattr(report, "tombstone", None)  # a stand-in module's report may lack one
            erased: dict[str, int] = {}
            if places is not None and isinstance(tombstone, str):
                erased = erase_everywhere(places, tombstone, at, getattr(report, "terms", ()))
        return Forgetting(report, sum(inside.values()), _together(inside, erased))

    def _holders(
        self,
        label: str,
        aliases: AliasTable | None,
        experiences: ForgettingStore | None,
        entries: ErasingStore | None,
        places: Reach | None,
    ) -> dict[str, int]:
        """How many items of each store a forget of `label` reaches mention it (`zerolang.memory.holders`)."""
        from zerolang.knowledge.normalize import AliasTable
        from zerolang.knowledge.terms import Forgotten

        table = aliases or AliasTable.default()
        canonical = table.resolve(label)
        forgotten = Forgotten.terms({label, canonical, *table.variants(canonical)})
        return self._holding(forgotten, experiences, entries, places)

    def _holding(
        self,
        forgotten: Forgotten,
        experiences: ForgettingStore | None,
        entries: ErasingStore | None,
        places: Reach | None,
    ) -> dict[str, int]:
        """How many items of each store mention a forgotten term: those a forget hides, and with a
        purge's `places`, also the facts, the archive's documents and its summaries."""
        from zerolang.memory.holders import holders

        if places is None:
            return holders(self.store, forgotten, experiences, entries)
        return holders(
            self.store,
            forgotten,
            experiences,
            entries,
            purging=True,
            archive=places.archive,
            indexes=places.indexes,
        )

    def purge(self, tombstone: str, *, now: str | None = None, dry_run: bool = False) -> Any:
        """Erase a forgotten thing for good (hash, prefix or target), in every place that holds a copy.
        `dry_run`: what it would erase and redact in the memory (`knowledge.forget.Preview`), nothing
        written."""
        if dry_run:
            from zerolang.knowledge.previews import preview_purge

            return preview_purge(self.store, tombstone)
        return self.purging(tombstone, now=now)[0]

    def purging(self, tombstone: str, *, now: str | None = None) -> tuple[TombstoneRow, dict[str, int]]:
        """`purge`, with what it erased beside the memory, by place: `zero memory purge` calls it. A
        purge runs again where it stopped: the memory's half is idempotent. Conversations in the
        memory's own database are erased in the purge's transaction."""
        from zerolang.experience.forgotten import erase_by_place
        from zerolang.knowledge.forget import purge
        from zerolang.memory.erasure import erase_everywhere

        at = _at(now)
        inside: dict[str, int] = {}
        with self._reached() as reached:
            experiences, entries = reached.experiences, reached.entries
            with self.store.transaction() if reached.together else nullcontext():
                row = purge(self.store, tombstone, at=at)
                if experiences is not None:
                    inside = erase_by_place(experiences, row.hash.hex(), entries)
            with self._places(experiences, entries) as places:
                erased = erase_everywhere(places, row.hash.hex(), at, ())
        return row, _together(inside, erased)

    def _places(
        self, experiences: ForgettingStore | None, entries: ErasingStore | None
    ) -> AbstractContextManager[Reach]:
        """Every place a purge visits beside the memory (`zerolang.memory.erasure`): the
        experiences and conversations, the archive when its folder is one, its summary indexes."""
        from zerolang.memory.reach import reach

        return reach(self.stores, self.store, experiences, entries)

    def restore(self, tombstone: str, *, now: str | None = None, dry_run: bool = False) -> Any:
        """Lift a tombstone (hash, prefix or target): what it forgot comes back, experiences included.
        `dry_run`: what would come back (`knowledge.forget.Preview`), nothing written."""
        if dry_run:
            from zerolang.knowledge.previews import preview_restore

            return preview_restore(self.store, tombstone)
        return self.restoring(tombstone, now=now).row

    def restoring(self, tombstone: str, *, now: str | None = None) -> Restoring:
        """`restore`, with how many episodes came back: `zero memory restore` calls it. The
        experiences' block is lifted after the memory (in its transaction when they share its
        database): a crash between leaves them hidden, not shown."""
        from zerolang.knowledge.forget import restore

        with self._reached() as reached, self.store.transaction() if reached.together else nullcontext():
            row, back = restore(self.store, tombstone, at=_at(now))
            if reached.experiences is not None:
                reached.experiences.lift_terms(row.hash.hex())
        return Restoring(row, back)

    @contextmanager
    def _reached(self, *, reading: bool = False) -> Iterator[_Reached]:
        """The experience and conversation stores forget, restore and purge reach: when they are in
        the memory's own database, on its connection (`together`: one transaction for both
        halves; so too when those lent are there); else those lent; else the experience store when
        it is open or its file exists (a forget need not create one). `reading` (a preview): none
        where the memory's own database holds none, rather than its tables made there."""
        from zerolang.memory.opening import conversations_in_memory

        shared = conversations_in_memory(self.store, self.stores, create=not reading)
        if shared is not None:
            yield _Reached(*shared, together=True)
            return
        if self._lent is not None:
            yield _Reached(*self._lent)
            return
        if reading and self._experiences is None and self.stores.experiences == self.stores.memory:
            yield _Reached(None, None)
            return
        experiences = self._experiences_if_any()
        entries = None if experiences is None else self._entries()
        try:
            yield _Reached(experiences, entries)
        finally:
            if entries is not None:
                entries.close()

    def _experiences_if_any(self) -> ExperienceStore | None:
        """The experience store when it is open or exists (a forget need not create one): one named
        apart is opened as `experiences` opens it; the memory's own (its database's `exp_*` tables)
        only when it is there to read and write, else None (a role that may not create tables,
        a memory that never held a turn)."""
        if self._experiences is not None:
            return self._experiences
        location = parse_location(self.experiences_location)
        if location.holds_nothing_yet:
            return None
        if self.stores.experiences_named:
            return self.experiences
        from zerolang.memory.opening import open_experiences_of

        try:
            self._experiences = open_experiences_of(self.stores, create=False)
        except ZeroError:
            return None
        return self._experiences

    def _entries(self) -> EntryStore | None:
        """Conversation entries kept beside the experiences (where `zero convo` can keep them)."""
        from zerolang.memory.opening import open_conversations_of

        location = parse_location(self.experiences_location)
        return None if location.in_memory else open_conversations_of(self.stores, create=False)


@dataclass(frozen=True, slots=True)
class _Reached:
    """The experience and conversation stores a forget reaches; `together`: on the memory's own
    connection, so their writes commit in its transactions."""

    experiences: ForgettingStore | None
    entries: ErasingStore | None
    together: bool = False


def _together(inside: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    """What a forget erased by place: inside its transaction, then everywhere else (none left out
    but those that erased nothing)."""
    total = {name: inside.get(name, 0) + after.get(name, 0) for name in (*inside, *after)}
    return {name: count for name, count in total.items() if count}


def _at(now: str | None) -> str:
    """The store time an event is recorded at: `now` (ISO 8601) in the store's format, else the clock."""
    from zerolang.knowledge.temporal import utc
    from zerolang.util.times import utc_now

    return utc_now() if now is None else utc(now, "now")


def _input(item: object, number: int) -> CompilerInput:
    try:
        return CompilerInput.from_json(item)
    except InputError as error:
        raise ZeroError(f"input {number + 1}: {error.message}") from None
