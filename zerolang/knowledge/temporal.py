"""Bi-temporal facts: when a fact held in the world, and when the store believed so.

What the store was told (episodes, retractions, declarations) decides what it believes about
each fact's validity (`zerolang.knowledge.timeline.derive`). Each change of that belief is
recorded as periods (`fact_periods`, the XTDB / SQL:2011 model): a period holds a world
interval `[valid_from, valid_to)` and is believed from the store time it was recorded until
the store time it was closed; rows are appended and closed, never rewritten. A fact whose
belief never changed from the default (one open period from its first episode's event time,
recorded when the fact was learned) has no rows: most facts.

- **Single-valued predicates** (declared in the store, `zero memory single-valued`): a
  subject's claims for the predicate are ordered by start and each holds until the next one
  starts, so A -> B -> A gives A two periods.
- **Retract** (`zero memory retract`) says the fact stopped holding at a time (default now).
- A fact stated again after it was closed **reopens** with a new period.

Views (`visible`): current (believed now, holding now), `as of T` (holding at world time T, as
believed now), `known at S` (as believed at store time S, holding at S), or both.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from zerolang.knowledge.backend import (
    ClaimRow,
    Declaration,
    FactEvent,
    FactFilter,
    FactTimes,
    Lifetime,
    Log,
    PeriodRow,
    Records,
    Temporal,
)
from zerolang.knowledge.timeline import Claim, Period, Retraction, derive, replay
from zerolang.knowledge.types import ContextMeta, Fact, MemoryRecord
from zerolang.util.errors import ZeroError

SINGLE_VALUED = "single-valued"
"""The setting a space declares its single-valued predicates under."""


def utc(text: str, what: str = "time") -> str:
    """An ISO 8601 time (a bare date is its midnight; no zone is UTC) in the store's format."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ZeroError(f"{what}: not an ISO 8601 time: {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class TemporalFacts(Records, Temporal, Protocol):
    """The facts with their claims and periods: what the temporal views and rules read and write."""


class _Writing(TemporalFacts, Lifetime, Log, Protocol):
    """A retraction's or declaration's needs beyond the facts: its transaction and its log line."""


# ---- claims, retractions, declarations --------------------------------------------------------


def _event_time(text: str) -> str:
    try:
        return utc(text)
    except ZeroError:
        return text


def explicit(meta: ContextMeta) -> bool:
    """Whether the context gives validity explicitly (`valid_from`/`valid_to` in its metadata)."""
    return "valid_from" in meta.metadata or "valid_to" in meta.metadata


def _validity(event_time: str, metadata: Mapping[str, object]) -> tuple[str, str | None]:
    start = metadata.get("valid_from")
    end = metadata.get("valid_to")
    return (
        utc(str(start)) if start is not None else _event_time(event_time),
        utc(str(end)) if end is not None else None,
    )


def claim_of(row: ClaimRow) -> Claim:
    """An episode as a claim: from its context's `valid_from` (else event time) to `valid_to`."""
    metadata: Mapping[str, object] = {}
    if row.metadata and row.metadata != "{}":
        try:
            loaded = json.loads(row.metadata)
        except ValueError:
            loaded = {}
        metadata = loaded if isinstance(loaded, dict) else {}
    try:
        start, end = _validity(row.event_time, metadata)
    except ZeroError:
        start, end = _event_time(row.event_time), None
    if end is not None and end <= start:
        end = None  # an empty interval states nothing about an end (the ingest refuses one)
    return Claim(row.fact, start, end, row.created_at, row.episode)


def retractions_of(events: Iterable[FactEvent]) -> list[Retraction]:
    """The retractions among a fact history's events. One told at a store time before the fact's
    latest claim (`--now` in the past) counts from that claim (`detail` "after TIME"): it retracts
    what the store had been told when it was made."""
    out = []
    for event in events:
        if event.kind != "retracted":
            continue
        word, _, later = event.detail.partition(" ")
        told = later if word == "after" and later > event.at else event.at
        out.append(Retraction(event.fact, event.valid_to or event.at, told))
    return out


def single_valued_of(declarations: Iterable[Declaration], until: str | None = None) -> frozenset[str]:
    """The predicates declared single-valued (as of store time `until`, default: now)."""
    found: set[str] = set()
    for row in declarations:
        if row.setting != SINGLE_VALUED or (until is not None and row.at > until):
            continue
        if row.declared:
            found.add(row.value)
        else:
            found.discard(row.value)
    return frozenset(found)


# ---- what the store believes --------------------------------------------------------------------


def beliefs(backend: TemporalFacts, facts: Sequence[Fact]) -> dict[bytes, list[PeriodRow]]:
    """Every fact's periods: its stored rows, or the default (one open period from its first
    claim's start, recorded when the fact was learned) where it has none."""
    keys = [f.fact_hash.digest for f in facts]
    found: dict[bytes, list[PeriodRow]] = {key: [] for key in keys}
    if backend.has_periods():
        for row in backend.periods(keys):
            found[row.fact].append(row)
    rowless = [f for f in facts if not found[f.fact_hash.digest]]
    if rowless:
        first: dict[bytes, Claim] = {}
        told: dict[bytes, str] = {}
        for claim in map(claim_of, backend.claims([f.fact_hash.digest for f in rowless])):
            known = first.get(claim.fact)
            # the earliest start, told first; a tie goes to the lower episode hash, not to row order
            if known is None or (claim.start, claim.told, claim.episode) < (
                known.start,
                known.told,
                known.episode,
            ):
                first[claim.fact] = claim
            told[claim.fact] = min(told.get(claim.fact, claim.told), claim.told)
        for fact in rowless:
            key = fact.fact_hash.digest
            earliest = first.get(key)
            start = earliest.start if earliest is not None else fact.created_at
            cause = f"episode {earliest.episode.hex()}" if earliest is not None else "learned"
            found[key] = [PeriodRow(key, start, None, None, told.get(key, fact.created_at), cause)]
    return found


def believed(rows: Iterable[PeriodRow], known_at: str | None = None) -> list[PeriodRow]:
    """The periods believed at store time `known_at` (None: now)."""
    if known_at is None:
        return [row for row in rows if row.closed_at is None]
    return [
        row
        for row in rows
        if row.recorded_at <= known_at and (row.closed_at is None or known_at < row.closed_at)
    ]


def shown(rows: Sequence[PeriodRow], now: str, as_of: str | None, known_at: str | None) -> bool:
    """Whether a view shows the fact: current (neither), `as of T`, `known at S`, or both."""
    moment = as_of or known_at or now
    return any(_holds(row, moment) for row in believed(rows, known_at))


def _holds(row: PeriodRow, moment: str) -> bool:
    return row.valid_from <= moment and (row.valid_to is None or moment < row.valid_to)


def visible(
    backend: TemporalFacts,
    keys: Collection[bytes],
    *,
    now: str,
    as_of: str | None = None,
    known_at: str | None = None,
) -> set[bytes]:
    """The facts among `keys` a view shows (see `shown`). Without stored periods and without
    `as_of`/`known_at`, every fact is current: no reads."""
    if not keys:
        return set()
    if as_of is None and known_at is None and not backend.has_periods():
        return set(keys)
    facts = list(backend.facts(sorted(set(keys))).values())
    return {key for key, rows in beliefs(backend, facts).items() if shown(rows, now, as_of, known_at)}


def summary(rows: Sequence[PeriodRow], now: str) -> FactTimes | None:
    """A fact's times as recall shows them: None for the default (open since its first episode);
    else its believed validity from first start to last end, and, when it no longer holds because
    a retraction or a rival ended it, when the store recorded that and what it was."""
    current = sorted(believed(rows), key=lambda row: (row.valid_from, row.valid_to or "\uffff"))
    if len(rows) == 1 and rows[0].id is None:
        return None
    if not current:
        last = max(rows, key=lambda row: row.closed_at or "")
        why = "retracted" if last.closed_by == "retract" else None
        return FactTimes(last.fact, None, None, last.closed_at, why)
    final = max(current, key=lambda row: (row.valid_to is None, row.valid_to or ""))
    end = None if final.valid_to is None else final.valid_to
    retired_at = retired_by = None
    if (
        end is not None
        and final.ended_by not in (None, "stated")
        and not any(_holds(r, now) for r in current)
    ):
        retired_at, retired_by = final.recorded_at, final.ended_by
    return FactTimes(final.fact, current[0].valid_from, end, retired_at, retired_by)


def times_of(backend: TemporalFacts, facts: Sequence[Fact], now: str) -> dict[bytes, FactTimes]:
    """`summary` of each fact that is not the default."""
    out: dict[bytes, FactTimes] = {}
    if not backend.has_periods():
        return out
    for key, rows in beliefs(backend, facts).items():
        found = summary(rows, now)
        if found is not None:
            out[key] = found
    return out


# ---- writing: a change of belief, recorded ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Group:
    facts: tuple[Fact, ...]
    single_valued: bool


def settle(
    backend: TemporalFacts,
    keys: Collection[bytes],
    *,
    at: str,
    cause: Callable[[Collection[bytes]], str],
    single: Collection[str],
    fresh: Collection[bytes] = frozenset(),
) -> int:
    """Derive again what the store believes about the facts `keys` (with every rival of a
    single-valued one) and record what changed at store time `at`: the periods no longer
    believed are closed, the new ones opened, each by `cause(facts of the group)`. `fresh` are
    the episodes this write added (the belief before it did not count them). How many facts'
    belief changed."""
    if not keys:
        return 0
    told = _told(backend, keys, single)
    stored: dict[bytes, list[PeriodRow]] = {key: [] for key in told.members}
    if backend.has_periods():
        for row in backend.periods(told.members):
            stored[row.fact].append(row)
    declarations: list[Declaration] | None = None  # read only if a group is recorded again
    opened: list[PeriodRow] = []
    closed: list[tuple[PeriodRow, str, str]] = []
    again: list[PeriodRow] = []
    again_facts: list[bytes] = []
    changed = 0
    for group in told.groups:
        keys_of = [f.fact_hash.digest for f in group.facts]
        group_claims, group_retractions = told.of(group)
        why = cause(keys_of)
        if _later_than(at, group_claims, group_retractions, [stored[k] for k in keys_of], fresh):
            if declarations is None:
                declarations = backend.declarations()
            rows = _recorded_again(group, group_claims, group_retractions, declarations, why, at)
            differ = [k for k in keys_of if _content(rows[k]) != _content(stored[k])]
            if differ:
                changed += len(differ)
                again += [row for k in keys_of for row in rows[k]]
                again_facts += keys_of
            continue
        new = derive(group_claims, group_retractions, single_valued=group.single_valued)
        for fact in group.facts:
            key = fact.fact_hash.digest
            own = cause([key])  # a fact told in this write is recorded by its own episode
            mine = own if own.startswith("episode ") else why
            step = _changes(fact, new.get(key, ()), stored[key], told.claims[key], fresh, at, mine)
            if step is not None:
                changed += 1
                opened += step[0]
                closed += step[1]
    backend.record_periods(opened, closed)
    if again_facts:
        backend.replace_periods(again, again_facts)
    return changed


def _later_than(
    at: str,
    claims: Sequence[Claim],
    retractions: Sequence[Retraction],
    rows: Iterable[Sequence[PeriodRow]],
    fresh: Collection[bytes],
) -> bool:
    """Whether the store was already told something of the group after store time `at` (a write
    told in the past of others): its history is then recorded again from the whole log."""
    latest = [c.told for c in claims if c.episode not in fresh]
    latest += [r.told for r in retractions if r.told != at]
    for found in rows:
        latest += [row.recorded_at for row in found] + [row.closed_at for row in found if row.closed_at]
    return bool(latest) and max(latest) > at


def _content(rows: Iterable[PeriodRow]) -> list[tuple[object, ...]]:
    return sorted(
        (r.valid_from, r.valid_to or "", r.ended_by or "", r.recorded_at, r.closed_at or "") for r in rows
    )


def _recorded_again(
    group: _Group,
    claims: Sequence[Claim],
    retractions: Sequence[Retraction],
    declarations: Sequence[Declaration],
    why: str,
    at: str,
) -> dict[bytes, list[PeriodRow]]:
    """The group's periods as the whole log, replayed by store time, records them (`timeline.replay`);
    a fact whose history is the default keeps no rows."""
    predicate = group.facts[0].predicate
    changes = [d.at for d in declarations if d.setting == SINGLE_VALUED and d.value == predicate]
    episodes: dict[str, str] = {}
    for claim in sorted(claims, key=lambda c: (c.told, c.episode)):
        episodes.setdefault(claim.told, f"episode {claim.episode.hex()}")
    kinds = {r.told: "retract" for r in retractions}

    def cause_at(moment: str) -> str:
        if at and moment == at:
            return why
        return episodes.get(moment) or kinds.get(moment) or f"declare {SINGLE_VALUED} {predicate}"

    def single_at(moment: str) -> bool:
        return predicate in single_valued_of(declarations, until=moment) if changes else group.single_valued

    found = replay(claims, retractions, single_at, cause_at, changes)
    out: dict[bytes, list[PeriodRow]] = {}
    for fact in group.facts:
        key = fact.fact_hash.digest
        records = found.get(key, [])
        mine = [c for c in claims if c.fact == key]
        if (
            len(records) == 1
            and records[0].closed_at is None
            and records[0].period == Period(min(c.start for c in mine), None)
            and records[0].recorded_at == min(c.told for c in mine)
            and records[0].period.start <= records[0].recorded_at
        ):
            out[key] = []
            continue
        out[key] = [
            PeriodRow(
                key,
                r.period.start,
                r.period.end,
                r.period.ended_by,
                r.recorded_at,
                r.recorded_by,
                r.closed_at,
                r.closed_by,
            )
            for r in records
        ]
    return out


@dataclass(frozen=True, slots=True)
class _Told:
    """What the store was told of some facts and their single-valued rivals: their groups, every
    member's claims, and the retractions of any member."""

    groups: list[_Group]
    members: list[bytes]
    claims: dict[bytes, list[Claim]]
    retractions: list[Retraction]

    def of(self, group: _Group) -> tuple[list[Claim], list[Retraction]]:
        """The group's claims (fact by fact) and retractions."""
        keys = {f.fact_hash.digest for f in group.facts}
        claims = [c for f in group.facts for c in self.claims[f.fact_hash.digest]]
        return claims, [r for r in self.retractions if r.fact in keys]


def _told(backend: TemporalFacts, keys: Collection[bytes], single: Collection[str]) -> _Told:
    """The log of the facts `keys` with every rival of a single-valued one, read once."""
    groups = _groups(backend, backend.facts(sorted(set(keys))), single)
    members = sorted({f.fact_hash.digest for group in groups for f in group.facts})
    claims: dict[bytes, list[Claim]] = {key: [] for key in members}
    for claim in map(claim_of, backend.claims(members)):
        claims[claim.fact].append(claim)
    return _Told(groups, members, claims, retractions_of(backend.fact_events(members)))


def _groups(backend: TemporalFacts, facts: Mapping[bytes, Fact], single: Collection[str]) -> list[_Group]:
    """Each single-valued fact with its subject's other facts of the predicate; any other alone."""
    groups: list[_Group] = []
    seen: set[tuple[bytes, str]] = set()
    for fact in sorted(facts.values(), key=lambda f: f.fact_hash.digest):
        if fact.predicate not in single:
            groups.append(_Group((fact,), False))
            continue
        pair = (fact.subject_hash.digest, fact.predicate)
        if pair in seen:
            continue
        seen.add(pair)
        rivals = backend.find_facts(FactFilter(subject=pair[0], predicate=pair[1]))
        groups.append(_Group(tuple(sorted(rivals, key=lambda f: f.fact_hash.digest)), True))
    return groups


def _changes(
    fact: Fact,
    new: tuple[Period, ...],
    rows: list[PeriodRow],
    claims: list[Claim],
    fresh: Collection[bytes],
    at: str,
    cause: str,
) -> tuple[list[PeriodRow], list[tuple[PeriodRow, str, str]]] | None:
    """The rows that record `fact`'s new belief `new`, or None when it did not change."""
    key = fact.fact_hash.digest
    opened: list[PeriodRow] = []
    if rows:
        old = {(r.valid_from, r.valid_to, r.ended_by): r for r in rows if r.closed_at is None}
    else:
        before = sorted((c for c in claims if c.episode not in fresh), key=lambda c: (c.start, c.told))
        start = min((c.start for c in claims), default=fact.created_at)
        if not before:  # a fact this write taught: the default needs no row
            if new == (Period(start, None, None),) and start <= fact.created_at:
                return None
            if not new:  # holds at no time (a rival told with the same start): an empty period says so
                return [PeriodRow(key, start, start, None, at, cause)], []
        else:
            default = (Period(before[0].start, None, None),)
            if new == default:
                return None
            first = min(before, key=lambda c: (c.told, c.episode))
            opened.append(
                PeriodRow(
                    key,
                    before[0].start,
                    None,
                    None,
                    first.told,  # the default period is believed from the first claim told
                    f"episode {first.episode.hex()}",
                    at,
                    cause,
                )
            )
        old = {}
    wanted = {(p.start, p.end, p.ended_by) for p in new}
    if not opened and set(old) == wanted:
        return None
    closing = [(row, at, cause) for period, row in old.items() if period not in wanted]
    opened += [PeriodRow(key, s, e, why, at, cause) for s, e, why in sorted(wanted - set(old), key=_order)]
    return opened, closing


def _order(period: tuple[str, str | None, str | None]) -> tuple[str, str]:
    return period[0], period[1] or "\uffff"


def after_insert(
    backend: TemporalFacts,
    records: Sequence[MemoryRecord],
    fresh: Collection[bytes],
    known: Collection[bytes],
    single: Collection[str],
) -> int:
    """Record what a write's fresh episodes changed in the store's belief. Only the facts whose
    belief may have changed are read: a single-valued or already stored fact, one with stored
    periods, a claim with explicit validity or starting after it was told."""
    if not fresh:
        return 0
    any_rows = backend.has_periods()
    keys: set[bytes] = set()
    by_fact: dict[bytes, list[bytes]] = {}
    stamp = ""
    for record in records:
        meta = record.context.meta
        given = explicit(meta)
        start = None if given else _event_time(meta.event_time)
        for relation in record.relations:
            episode = relation.episode_hash.digest
            if episode not in fresh:
                continue
            key = relation.fact_hash.digest
            by_fact.setdefault(key, []).append(episode)
            stamp = max(stamp, relation.created_at)
            if (
                any_rows
                or given
                or key in known
                or relation.predicate in single
                or (start is not None and start > relation.created_at)
            ):
                keys.add(key)
    if not keys:
        return 0

    def cause(facts: Collection[bytes]) -> str:
        episodes = sorted(e for f in facts for e in by_fact.get(f, ()))
        return f"episode {episodes[0].hex()}" if episodes else "ingest"

    return settle(backend, keys, at=stamp, cause=cause, single=single, fresh=fresh)


def retract(
    backend: _Writing, fact: Fact, *, at: str, valid_to: str | None = None, single: Collection[str] = ()
) -> FactTimes:
    """Say the fact stopped holding at `valid_to` (default `at`), told at store time `at`.
    ZeroError if it holds nowhere at or after that time (nothing to retract)."""
    key = fact.fact_hash.digest
    end = valid_to or at
    with backend.transaction():
        rows = believed(beliefs(backend, [fact])[key])
        if not rows:
            raise ZeroError(f"fact {key.hex()[:12]} was already retired: it holds at no time")
        if end < min(row.valid_from for row in rows):
            first = min(row.valid_from for row in rows)
            raise ZeroError(f"cannot close the fact at {end}: it is valid from {first}")
        if not any(row.valid_to is None or row.valid_to > end for row in rows):
            last = max(row.valid_to or "" for row in rows)
            raise ZeroError(
                f"fact {key.hex()[:12]} was already retired: it holds until {last}, not after {end}"
            )
        latest = max((row.told for row in map(claim_of, backend.claims([key]))), default=at)
        after = f"after {latest}" if latest > at else ""
        backend.add_fact_events([FactEvent(key, "retracted", at, None, end, None, after)])
        settle(backend, [key], at=max(at, latest), cause=_constant("retract"), single=single)
        backend.append_log(at, "retract", key, f"valid to {end}")
        held = believed(beliefs(backend, [fact])[key])
    start = min((row.valid_from for row in held), default=None)
    last = max((row.valid_to or "" for row in held), default=end)
    return FactTimes(key, start, last or None, at, "retracted")


def declare(
    backend: _Writing,
    predicates: Sequence[str],
    *,
    at: str,
    remove: bool = False,
) -> list[str]:
    """Declare (or with `remove`, undeclare) predicates single-valued from store time `at` on and
    record what that changes in the belief about their facts; the predicates that changed."""
    with backend.transaction():
        current = single_valued_of(backend.declarations())
        changing = [p for p in dict.fromkeys(predicates) if (p in current) == remove]
        if not changing:
            return []
        backend.declare([Declaration(at, SINGLE_VALUED, p, not remove) for p in changing])
        single = single_valued_of(backend.declarations())
        verb = "undeclare" if remove else "declare"
        for predicate in changing:
            facts = backend.find_facts(FactFilter(predicate=predicate))
            why = _constant(f"{verb} {SINGLE_VALUED} {predicate}")
            settle(backend, [f.fact_hash.digest for f in facts], at=at, cause=why, single=single)
            backend.append_log(at, verb, hashlib.sha256(predicate.encode()).digest(), SINGLE_VALUED)
    return changing


def _constant(text: str) -> Callable[[Collection[bytes]], str]:
    return lambda _: text


def rederive(backend: TemporalFacts) -> int:
    """Record again, from the whole log, the history of every fact that has stored periods (with its
    single-valued rivals): what a store written before validity periods needs once, since one
    interval a fact lost a re-asserted value's past. How many facts' periods changed."""
    facts = backend.find_facts(FactFilter())
    if not facts or not backend.has_periods():
        return 0
    keys = {row.fact for row in backend.periods([f.fact_hash.digest for f in facts])}
    if not keys:
        return 0
    declarations = backend.declarations()
    told = _told(backend, keys, single_valued_of(declarations))
    rows: list[PeriodRow] = []
    for group in told.groups:
        group_claims, group_retractions = told.of(group)
        if not group_claims:
            continue
        found = _recorded_again(group, group_claims, group_retractions, declarations, "", "")
        rows += [row for key in sorted(found) for row in found[key]]
    backend.replace_periods(rows, told.members)
    return len(told.members)
