"""The consent policy: who may see what from the archive, and which rule says no.

A policy is a TOML file (or the same structure as JSON, for a `.json` file):

    version = 1

    # Consent scopes. Every archived document names one (its `consent_scope`).
    [scopes.personal]
    uses = ["summary", "full"]    # what recall may release: "summary" and/or "full" documents
    channels = ["dm:*"]           # optional: only callers on matching channels (default: any)

    [scopes.team]
    uses = ["summary"]            # summaries only: a full get is refused

    [scopes.old-project]
    uses = ["summary", "full"]
    revoked = true                # consent withdrawn: nothing is released, not even summaries

    # Channel boundaries. A caller speaks from one channel, which must be declared.
    [channels."dm:alice"]
    reads = ["dm:alice", "email:*"]  # source channels whose memories this caller may recall
    clearance = 10                   # the highest y_privacy (-15..15) released to this caller

Channel names are exact; `reads` and a scope's `channels` take shell-style patterns (`*`, `?`).
Anything not declared is refused: an unknown scope, an unknown caller channel.

`decide` is a pure function of the policy, the caller, what is asked for (a summary or a full
document) and the facts about the memory (its scope, source channel, privacy and consent flags).
It returns `Decision.allow()` or a refusal naming one rule, checked in this order:

    caller.channel     the caller's channel is not in the policy
    consent.scope      the memory's consent scope is not in the policy
    consent.revoked    the scope is revoked, or the memory itself is flagged "revoked"
    consent.use        the scope does not allow this use (e.g. "full" under a summary-only scope)
    consent.channel    the scope is limited to other channels than the caller's
    channel.boundary   the caller's channel may not read memories from the source channel
    privacy.clearance  the memory's privacy is above the caller's clearance

(`gate.py` adds the rules that need the archive: hash.format, hash.unknown, archive.missing,
archive.corrupt, archive.mismatch.)
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from zerolang.archive.index import AXIS_MAX, AXIS_MIN, REVOKED
from zerolang.util.errors import ZeroError

POLICY_VERSION = 1


class Use(StrEnum):
    SUMMARY = "summary"
    FULL = "full"


class PolicyError(ZeroError):
    """A policy file that cannot be read or breaks the format."""


@dataclass(frozen=True, slots=True)
class Scope:
    name: str
    uses: frozenset[Use]
    channels: tuple[str, ...] | None = None  # None: any channel
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class Channel:
    name: str
    reads: tuple[str, ...]
    clearance: int


@dataclass(frozen=True, slots=True)
class Policy:
    scopes: dict[str, Scope]
    channels: dict[str, Channel]
    source: str = "<policy>"

    @classmethod
    def deny_all(cls) -> Policy:
        return cls({}, {}, "<no policy: everything is refused>")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks: the channel they speak from, and optionally a clearance lower than the channel's."""

    channel: str
    clearance: int | None = None


@dataclass(frozen=True, slots=True)
class Subject:
    """What the policy needs to know about a memory (from its index row or its document)."""

    consent_scope: str
    source_channel: str
    privacy: int
    consent_flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    rule: str | None = None
    reason: str = "allowed"

    @classmethod
    def allow(cls) -> Decision:
        return cls(True)

    @classmethod
    def refuse(cls, rule: str, reason: str) -> Decision:
        return cls(False, rule, reason)

    def describe(self) -> str:
        return "allowed" if self.allowed else f"refused by {self.rule}: {self.reason}"


def decide(policy: Policy, caller: Caller, use: Use, subject: Subject) -> Decision:
    """Allow, or refuse naming the first rule (see the module docstring for the order)."""
    channel = policy.channels.get(caller.channel)
    if channel is None:
        return Decision.refuse("caller.channel", f"the channel {caller.channel!r} is not in the policy")
    scope = policy.scopes.get(subject.consent_scope)
    if scope is None:
        return Decision.refuse(
            "consent.scope", f"the consent scope {subject.consent_scope!r} is not in the policy"
        )
    if scope.revoked:
        return Decision.refuse("consent.revoked", f"consent for the scope {scope.name!r} is revoked")
    if REVOKED in subject.consent_flags:
        return Decision.refuse("consent.revoked", "consent for this memory is revoked")
    if use not in scope.uses:
        allowed = ", ".join(sorted(scope.uses)) or "nothing"
        return Decision.refuse("consent.use", f"the scope {scope.name!r} allows {allowed}, not {use}")
    if scope.channels is not None and not _matches(caller.channel, scope.channels):
        return Decision.refuse(
            "consent.channel",
            f"the scope {scope.name!r} may not be recalled on the channel {caller.channel!r}",
        )
    if not _matches(subject.source_channel, channel.reads):
        return Decision.refuse(
            "channel.boundary",
            f"the channel {caller.channel!r} may not read memories from {subject.source_channel!r}",
        )
    clearance = channel.clearance if caller.clearance is None else min(channel.clearance, caller.clearance)
    if subject.privacy > clearance:
        return Decision.refuse(
            "privacy.clearance", f"privacy {subject.privacy} is above the clearance {clearance}"
        )
    return Decision.allow()


def clearance_of(policy: Policy, caller: Caller) -> int | None:
    """The caller's effective clearance, or None for an undeclared channel."""
    channel = policy.channels.get(caller.channel)
    if channel is None:
        return None
    return channel.clearance if caller.clearance is None else min(channel.clearance, caller.clearance)


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


# ---- reading a policy file ------------------------------------------------------------------


def load_policy(path: Path | str) -> Policy:
    """Read and validate a policy file (.toml, or .json for the same structure)."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise PolicyError(f"{where}: cannot read the policy ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise PolicyError(f"{where}: the policy is not UTF-8 text") from None
    if where.endswith(".json"):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise PolicyError(f"{where}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    else:
        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise PolicyError(f"{where}: not TOML: {error}") from None
    return parse_policy(document, where)


def parse_policy(document: object, where: str = "<policy>") -> Policy:
    """Validate a parsed policy document."""
    table = _table(document, where, "the policy")
    _only(table, {"version", "scopes", "channels"}, where, "the policy")
    if table.get("version") != POLICY_VERSION:
        raise PolicyError(f"{where}: version must be {POLICY_VERSION}, not {table.get('version')!r}")
    scopes = {}
    for name, raw in _table(table.get("scopes", {}), where, "scopes").items():
        what = f"scopes.{name}"
        item = _table(raw, where, what)
        _only(item, {"uses", "channels", "revoked"}, where, what)
        uses = _strings(item.get("uses"), where, f"{what}.uses", allow_empty=True)
        bad = [use for use in uses if use not in {"summary", "full"}]
        if bad:
            raise PolicyError(f'{where}: {what}.uses: {bad[0]!r} is not a use ("summary" or "full")')
        channels = item.get("channels")
        revoked = item.get("revoked", False)
        if not isinstance(revoked, bool):
            raise PolicyError(f"{where}: {what}.revoked must be true or false, not {revoked!r}")
        scopes[name] = Scope(
            name=name,
            uses=frozenset(Use(use) for use in uses),
            channels=None if channels is None else _strings(channels, where, f"{what}.channels"),
            revoked=revoked,
        )
    channels_ = {}
    for name, raw in _table(table.get("channels", {}), where, "channels").items():
        what = f"channels.{name}"
        item = _table(raw, where, what)
        _only(item, {"reads", "clearance"}, where, what)
        clearance = item.get("clearance")
        if (
            not isinstance(clearance, int)
            or isinstance(clearance, bool)
            or not AXIS_MIN <= clearance <= AXIS_MAX
        ):
            raise PolicyError(
                f"{where}: {what}.clearance must be an integer from {AXIS_MIN} to {AXIS_MAX},"
                f" not {clearance!r}"
            )
        channels_[name] = Channel(name, _strings(item.get("reads"), where, f"{what}.reads"), clearance)
    return Policy(scopes, channels_, where)


def _table(value: object, where: str, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PolicyError(f"{where}: {what} must be a table")
    return value


def _only(table: dict[str, Any], allowed: set[str], where: str, what: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise PolicyError(
            f"{where}: {what}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})"
        )


def _strings(value: object, where: str, what: str, *, allow_empty: bool = False) -> tuple[str, ...]:
    if (
        not isinstance(value, list)
        or not all(isinstance(item, str) and item for item in value)
        or (not value and not allow_empty)
    ):
        raise PolicyError(f"{where}: {what} must be a list of non-empty strings, not {value!r}")
    return tuple(value)
