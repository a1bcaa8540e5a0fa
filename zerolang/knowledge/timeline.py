"""What the store believes about when facts held: a pure function of what it was told.

The store is told three kinds of things, each at a store time:

- a **claim**: an episode says a fact held from `start` (its context's `valid_from`, else its
  event time) until `end` (the context's `valid_to`, else open-ended);
- a **retraction** (`zero memory retract`): the fact stopped holding at `end`; it clips the
  fact's claims told before it (a claim starting at or after `end` is withdrawn, a longer one
  is cut at `end`); claims told later are not touched;
- a **declaration** that a predicate is single-valued (`zero memory single-valued`).

`derive` turns the claims and retractions of one fact, or of one subject's single-valued
predicate, into validity periods. A single-valued group's claims are ordered by start (then
by when they were told, then by fact), and each holds until the next one starts (Graphiti's
rule, as a function of the claims alone): Bob at Acme from 2019, Initech from 2021 and Acme
again from 2025 gives Acme two periods, 2019-2021 and 2025-. Any other fact holds over the
union of its claims. The store records each change of this belief as closed and opened
periods (`zerolang.knowledge.temporal`), so every earlier belief stays readable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Claim:
    """One episode's statement that `fact` held over `[start, end)`, told at store time `told`."""

    fact: bytes
    start: str
    end: str | None
    told: str
    episode: bytes


@dataclass(frozen=True, slots=True)
class Retraction:
    """`fact` stopped holding at `end`, as the store was told at `told`."""

    fact: bytes
    end: str
    told: str


@dataclass(frozen=True, slots=True)
class Period:
    """A validity period `[start, end)` (`end` None: open-ended) and what ended it: `ended_by` is
    None (open), "stated" (a claim's own end), "retracted", or the hex hash of the fact whose
    claim started next in a single-valued group."""

    start: str
    end: str | None
    ended_by: str | None = None


def clip(claims: Iterable[Claim], retractions: Iterable[Retraction]) -> list[tuple[Claim, str | None]]:
    """The claims the retractions leave, each with what ends it ("retracted", "stated" or None):
    a retraction clips the claims of its fact told at or before it."""
    by_fact: dict[bytes, list[Retraction]] = {}
    for retraction in retractions:
        by_fact.setdefault(retraction.fact, []).append(retraction)
    kept: list[tuple[Claim, str | None]] = []
    for claim in claims:
        end, why = claim.end, None if claim.end is None else "stated"
        withdrawn = False
        for retraction in by_fact.get(claim.fact, ()):
            if retraction.told < claim.told:
                continue
            if claim.start >= retraction.end:
                withdrawn = True
                break
            if end is None or retraction.end < end:
                end, why = retraction.end, "retracted"
        if not withdrawn:
            kept.append((Claim(claim.fact, claim.start, end, claim.told, claim.episode), why))
    return kept


def derive(
    claims: Sequence[Claim], retractions: Sequence[Retraction] = (), *, single_valued: bool = False
) -> dict[bytes, tuple[Period, ...]]:
    """Each fact's validity periods, disjoint and ordered, from the claims and retractions of one
    fact or of one single-valued group (see the module docs). A fact with claims but no period
    left maps to `()`."""
    pieces: dict[bytes, list[Period]] = {claim.fact: [] for claim in claims}
    ordered = sorted(clip(claims, retractions), key=lambda c: (c[0].start, c[0].told, c[0].fact))
    for index, (claim, why) in enumerate(ordered):
        end = claim.end
        if single_valued and index + 1 < len(ordered):
            rival = ordered[index + 1][0]
            if end is None or rival.start < end:
                end, why = rival.start, (None if rival.fact == claim.fact else rival.fact.hex())
        if end is None or claim.start < end:
            pieces[claim.fact].append(Period(claim.start, end, why))
    return {fact: merge(found) for fact, found in pieces.items()}


def merge(periods: Iterable[Period]) -> tuple[Period, ...]:
    """Overlapping or touching periods joined (the later end and its reason kept), ordered by start."""
    out: list[Period] = []
    for period in sorted(periods, key=lambda p: (p.start, p.end is None, p.end or "")):
        if out and (out[-1].end is None or period.start <= out[-1].end):
            last = out[-1]
            if last.end is not None and (period.end is None or period.end > last.end):
                out[-1] = Period(last.start, period.end, period.ended_by)
            continue
        out.append(period)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Recorded:
    """A period as the store recorded it: believed from `recorded_at` until `closed_at`."""

    period: Period
    recorded_at: str
    recorded_by: str
    closed_at: str | None = None
    closed_by: str | None = None


def replay(
    claims: Sequence[Claim],
    retractions: Sequence[Retraction],
    single_valued_at: Callable[[str], bool],
    cause_at: Callable[[str], str],
    changes: Iterable[str] = (),
) -> dict[bytes, list[Recorded]]:
    """The whole recorded history of one fact or single-valued group: at each store time something
    was told (a claim, a retraction, or one of `changes`, when the group became or stopped being
    single-valued), the belief `derive` gives from what was told until then, each change of it
    recorded as closed and opened periods, by `cause_at(time)`."""
    times = sorted({c.told for c in claims} | {r.told for r in retractions} | set(changes))
    out: dict[bytes, list[Recorded]] = {c.fact: [] for c in claims}
    open_rows: dict[bytes, dict[Period, int]] = {fact: {} for fact in out}
    for moment in times:
        told = [c for c in claims if c.told <= moment]
        if not told:
            continue
        new = derive(
            told, [r for r in retractions if r.told <= moment], single_valued=single_valued_at(moment)
        )
        cause = cause_at(moment)
        for fact, rows in out.items():
            wanted = set(new.get(fact, ()))
            if fact not in new:
                continue
            current = open_rows[fact]
            if set(current) == wanted:
                continue
            for period in [p for p in current if p not in wanted]:
                index = current.pop(period)
                rows[index] = Recorded(
                    period, rows[index].recorded_at, rows[index].recorded_by, moment, cause
                )
            for period in sorted(wanted - set(current), key=lambda p: (p.start, p.end or "\uffff")):
                current[period] = len(rows)
                rows.append(Recorded(period, moment, cause))
    for fact, rows in out.items():
        if not rows:  # never held in any belief: an empty period, recorded when first told, says so
            first = min((c for c in claims if c.fact == fact), key=lambda c: (c.told, c.start))
            rows.append(Recorded(Period(first.start, first.start), first.told, cause_at(first.told)))
    return out
