"""Recall through the policy: summaries by default, a full document only by an explicit get.

`Gate.search` reads the index only. Its results (`Summary`) carry a hash and a summary and the
coordinates, never a document's messages, and it never opens the archive: asking it for words
that appear only in a full text finds nothing. Every result passed `decide(..., Use.SUMMARY)`.

`Gate.get` is the one way to a full document. In order, a refusal names one of:

    hash.format       not a full SHA-256 (a prefix, a path like "../../etc/passwd", another algorithm)
    caller.channel    the caller's channel is not in the policy (asked before the index is read)
    hash.unknown      no index row for the hash, or one the policy does not release to this
                      caller (any of its rules, consent.scope ... privacy.clearance, decided on the
                      index row: policy.py): told alike, in the same words
    archive.missing   the archive does not hold the document
    archive.corrupt   no stored copy hashes right
    archive.mismatch  the document's own scope or source channel differs from its index row
                      (a forged or stale row, which may have fooled the policy check)

A refusal is an exception carrying the rule; its message holds no document text, and nothing of
a document the caller may not read: an undeclared or refused caller gets the same answer whether
or not the hash is indexed, and no refusal names a consent scope. (`policy.decide` still names the
rule that refuses, for code that holds the policy and the index row.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from zerolang.archive.document import MemoryDocument, parse_hash, utc_now
from zerolang.archive.index import IndexQuery, IndexRecord, IndexStore, today_utc
from zerolang.archive.policy import Caller, Decision, Policy, Subject, Use, clearance_of, decide
from zerolang.archive.store import Archive, CorruptDocument, MissingDocument
from zerolang.util.errors import ZeroError


class Refused(ZeroError):
    """The gate said no; `rule` names the rule that refused."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"refused by {rule}: {reason}")
        self.rule = rule
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Summary:
    """One search result: a pointer and its summary. There is deliberately no text field."""

    hash: str
    summary: str
    t_x: int
    y_privacy: int
    z_abstraction: int
    source_channel: str
    source_session: str | None
    created_at: str

    def to_json(self) -> dict[str, Any]:
        return {
            "hash": self.hash,
            "summary": self.summary,
            "t_x": self.t_x,
            "y_privacy": self.y_privacy,
            "z_abstraction": self.z_abstraction,
            "source_channel": self.source_channel,
            "source_session": self.source_session,
            "created_at": self.created_at,
        }


def subject_of(record: IndexRecord) -> Subject:
    return Subject(record.consent_scope, record.source_channel, record.y_privacy, record.consent_flags)


class Gate:
    def __init__(
        self, archive: Archive, index: IndexStore, policy: Policy, clock: Callable[[], str] = utc_now
    ) -> None:
        self.archive = archive
        self.index = index
        self.policy = policy
        self.clock = clock

    def search(
        self, caller: Caller, text: str = "", *, limit: int = 10, today: date | None = None, **filters: Any
    ) -> list[Summary]:
        """Summaries the caller may see, best (newest) first. `filters` are IndexQuery fields."""
        clearance = clearance_of(self.policy, caller)
        if clearance is None:
            return []
        cap = filters.pop("privacy_max", None)
        privacy_max = clearance if cap is None else min(cap, clearance)
        if privacy_max < -15:
            return []
        day = today or today_utc()
        found: list[Summary] = []
        fetch = limit
        while True:
            query = IndexQuery(text=text, privacy_max=privacy_max, limit=fetch, today=day, **filters)
            records = self.index.search(query)
            found = [
                _summary(record, day)
                for record in records
                if decide(self.policy, caller, Use.SUMMARY, subject_of(record)).allowed
            ]
            if len(found) >= limit or len(records) < fetch:
                return found[:limit]
            fetch *= 4

    def check(self, caller: Caller, hash_text: str, use: Use = Use.FULL) -> Decision:
        """What `get` (use full) or a summary (use summary) of this hash would be told, without reading it."""
        try:
            digest = parse_hash(hash_text)
        except ZeroError as error:
            return Decision.refuse("hash.format", error.message)
        if clearance_of(self.policy, caller) is None:  # before the index: nothing of the hash is told
            return Decision.refuse("caller.channel", f"the channel {caller.channel!r} is not in the policy")
        record = self.index.get(digest)
        if record is None or not decide(self.policy, caller, use, subject_of(record)).allowed:
            return _unknown(digest)
        return Decision.allow()

    def get(self, caller: Caller, hash_text: str) -> MemoryDocument:
        """The full document, verified, if the policy allows it; otherwise Refused naming the rule."""
        decision = self.check(caller, hash_text, Use.FULL)
        if not decision.allowed:
            raise Refused(decision.rule or "policy", decision.reason)
        digest = parse_hash(hash_text)
        try:
            document = self.archive.get(digest)
        except MissingDocument:
            raise Refused("archive.missing", f"the archive does not hold {digest}") from None
        except CorruptDocument:
            raise Refused("archive.corrupt", f"no stored copy of {digest} verifies") from None
        record = self.index.get(digest)
        if record is None:  # deleted while we read
            unknown = _unknown(digest)
            raise Refused(unknown.rule or "hash.unknown", unknown.reason)
        if document.consent_scope != record.consent_scope or document.channel != record.source_channel:
            raise Refused("archive.mismatch", f"the index entry of {digest} does not describe its document")
        self.index.touch(digest, self.clock())
        return document


def _unknown(digest: str) -> Decision:
    """What a caller is told of a hash with no index row, and of one the policy does not release to
    it: the same words (which say nothing of the row, its scope or the rule that refused)."""
    return Decision.refuse("hash.unknown", f"no document {digest} that this caller may read")


def _summary(record: IndexRecord, today: date) -> Summary:
    return Summary(
        hash=record.hash,
        summary=record.summary,
        t_x=record.t_x(today),
        y_privacy=record.y_privacy,
        z_abstraction=record.z_abstraction,
        source_channel=record.source_channel,
        source_session=record.source_session,
        created_at=record.created_at,
    )
