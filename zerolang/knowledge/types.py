"""The 0-memory data types: hash identities, compiler input, and the records the store keeps.

The four hashes are distinct immutable classes, not aliases of `bytes`: a
`FactHash` is never equal to, nor accepted in place of, a `ConceptHash` holding
the same digest. mypy sees them as unrelated types and the constructors below
check them at run time too, because a mixed-up hash would silently break
content addressing.

User input is validated here, at the edge, with one-line `ZeroError`s that
name the offending field (`tuples[1].confidence: ...`); nothing deeper in the
package re-checks it.
"""

from __future__ import annotations

import builtins
import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar, Self, TypeVar

from zerolang.util.errors import ZeroError

T = TypeVar("T")

HEX_DIGEST = re.compile(r"[0-9a-fA-F]{64}\Z")


class InputError(ZeroError):
    """Invalid compiler input: `field` is the JSON path of the culprit (`tuples[0].subject`)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem

    def within(self, prefix: str) -> InputError:
        """The same problem, one level further down (`tuples[2]` + `subject`)."""
        if not self.field:
            return InputError(prefix, self.problem)
        joiner = "" if self.field.startswith("[") else "."
        return InputError(f"{prefix}{joiner}{self.field}", self.problem)


def require_type(value: object, kind: type[T], what: str) -> T:
    """`value` if it is exactly a `kind`; a TypeError naming `what` otherwise (a programming error)."""
    if type(value) is not kind:
        raise TypeError(f"{what} must be a {kind.__name__}, not {type(value).__name__}")
    return value


# ---- hashes ---------------------------------------------------------------------------------


class Sha256:
    """A SHA-256 digest with an identity of its own; the base of the four hash types.

    Immutable and hashable. Equal only to a hash of the same type and digest.
    (A plain class: frozen slotted dataclasses cannot be subclassed cleanly.)
    """

    __slots__ = ("digest",)
    digest: bytes
    kind: ClassVar[str] = "hash"

    def __init__(self, digest: bytes) -> None:
        if type(self) is Sha256:
            raise TypeError("Sha256 is abstract: use ConceptHash, FactHash, EpisodeHash or ContextHash")
        if not isinstance(digest, bytes):
            raise TypeError(f"a {type(self).__name__} is built from bytes, not {type(digest).__name__}")
        if len(digest) != 32:
            raise ValueError(f"a {type(self).__name__} is 32 bytes, not {len(digest)}")
        # bytes(...) also turns a runtime `Hash` (a bytes subclass) into a plain digest
        object.__setattr__(self, "digest", bytes(digest))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[Self], tuple[bytes]]:
        return (type(self), (self.digest,))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sha256):
            return NotImplemented
        return type(other) is type(self) and other.digest == self.digest

    def __hash__(self) -> int:
        # the digest alone (bytes cache their hash); equality still tells the four kinds apart
        return hash(self.digest)

    def __lt__(self, other: Self) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.digest < other.digest

    @classmethod
    def of(cls, data: bytes) -> Self:
        """The hash of `data`."""
        return cls.from_digest(hashlib.sha256(data).digest())

    @classmethod
    def from_digest(cls, digest: bytes) -> Self:
        """Wrap a fresh 32-byte digest without re-checking it (the hot path of compile and recall)."""
        made = object.__new__(cls)
        object.__setattr__(made, "digest", digest)
        return made

    @classmethod
    def from_hex(cls, text: str) -> Self:
        """Parse 64 hex digits (either case); a ZeroError for anything else, since this reads user input."""
        if not isinstance(text, str) or not HEX_DIGEST.match(text):
            raise ZeroError(f"not a {cls.__name__}: expected 64 hex digits, got {text!r}")
        return cls(bytes.fromhex(text))

    def hex(self) -> str:
        return self.digest.hex()

    def short(self, length: int = 12) -> str:
        """A prefix of the hex form, git-style, for display."""
        if not 1 <= length <= 64:
            raise ValueError(f"a short hash has 1 to 64 digits, not {length}")
        return self.digest.hex()[:length]

    def __str__(self) -> str:
        return self.digest.hex()

    def __repr__(self) -> str:
        return f"{type(self).__name__}('{self.digest.hex()}')"

    def __bytes__(self) -> bytes:
        return self.digest


class ConceptHash(Sha256):
    """sha256(normalised label): the identity of a concept."""

    __slots__ = ()
    kind = "concept"


class FactHash(Sha256):
    """sha256(subject_label | predicate | object_label): a fact, whatever its context (layer 1)."""

    __slots__ = ()
    kind = "fact"


class ContextHash(Sha256):
    """sha256(event_time | source | scope): the circumstances of an observation."""

    __slots__ = ()
    kind = "context"


class EpisodeHash(Sha256):
    """sha256(FactHash raw ++ ContextHash raw): one observation of a fact (layer 2)."""

    __slots__ = ()
    kind = "episode"


# ---- validation helpers ---------------------------------------------------------------------


def _text(value: object, field: str, *, required: bool = True) -> str:
    """A string that is valid Unicode (no lone surrogates: SQLite and UTF-8 files cannot hold them)."""
    if not isinstance(value, str):
        raise InputError(field, f"must be a string, not {_json_kind(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(field, "is not valid Unicode text (it holds a lone surrogate)") from None
    if required and not value.strip():
        raise InputError(field, "must not be empty")
    return value


def _optional_text(value: object, field: str) -> str | None:
    return None if value is None else _text(value, field)


def check_confidence(value: object, field: str = "confidence") -> float:
    """A number in [0, 1] as a float; NaN, infinities, booleans and strings are refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(field, f"must be a number between 0 and 1, not {_json_kind(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise InputError(field, "must be between 0 and 1, not a number out of range") from None
    if math.isnan(number):
        raise InputError(field, "must be a number between 0 and 1, not NaN")
    if not 0.0 <= number <= 1.0:
        text = repr(value)
        shown = text if len(text) <= 40 else f"{text[:24]}... ({len(text)} digits)"
        raise InputError(field, f"must be between 0 and 1, not {shown}")
    return number + 0.0  # -0.0 becomes 0.0


def check_event_time(value: object, field: str = "event_time") -> str:
    """An ISO 8601 date or date-time (a trailing `Z` accepted), kept exactly as written."""
    text = _text(value, field)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise InputError(
            field, f"must be an ISO 8601 date-time such as 2026-02-18T00:00:00Z, not {text!r}"
        ) from None
    return text


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _object(value: object, field: str, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    """A JSON object with only the `allowed` keys (a typo is an error, not silently ignored)."""
    if not isinstance(value, dict):
        raise InputError(field, f"must be an object, not {_json_kind(value)}")
    for key in value:
        if key not in allowed:
            from zerolang.util.suggest import suggest

            guess = suggest(str(key), allowed)
            hint = f" (did you mean `{guess}`?)" if guess else f" (expected one of: {', '.join(allowed)})"
            raise InputError(field, f"unknown field `{key}`{hint}")
    return value


def _required(obj: Mapping[str, Any], key: str) -> object:
    if key not in obj:
        raise InputError(key, "is missing")
    return obj[key]


# ---- compiler input -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SemanticTuple:
    """One fact as an upstream agent stated it: labels as written, not yet normalised."""

    subject: str
    predicate: str
    object: str
    confidence: float = 1.0

    FIELDS: ClassVar[tuple[str, ...]] = ("subject", "predicate", "object", "confidence")

    def __post_init__(self) -> None:
        from zerolang.knowledge.normalize import normalize_label, normalize_predicate

        for name in ("subject", "object"):
            label = _text(getattr(self, name), name, required=False)
            if not normalize_label(label):
                raise InputError(name, "a label must not be empty")
        predicate = _text(self.predicate, "predicate", required=False)
        if not normalize_predicate(predicate):
            raise InputError("predicate", "a predicate must not be empty")
        object.__setattr__(self, "confidence", check_confidence(self.confidence))

    @classmethod
    def from_json(cls, obj: builtins.object, field: str = "") -> SemanticTuple:
        data = _object(obj, field, cls.FIELDS)
        try:
            return cls(
                subject=_required(data, "subject"),  # type: ignore[arg-type]
                predicate=_required(data, "predicate"),  # type: ignore[arg-type]
                object=_required(data, "object"),  # type: ignore[arg-type]
                confidence=data.get("confidence", 1.0),
            )
        except InputError as error:
            raise (error.within(field) if field else error) from None

    def to_json(self) -> dict[str, builtins.object]:
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "object": self.object,
            "confidence": self.confidence,
        }


@dataclass(frozen=True, slots=True)
class ContextMeta:
    """When, from where and about what something was learned.

    Only `event_time`, `source` and `scope` enter the ContextHash; `event_time`
    is kept exactly as written, colons included, because the hash is over it.
    """

    event_time: str
    source: str
    scope: str
    agent_id: str | None = None
    session_id: str | None = None
    metadata: Mapping[str, str] = field(default_factory=dict, hash=False)

    FIELDS: ClassVar[tuple[str, ...]] = (
        "event_time",
        "source",
        "scope",
        "agent_id",
        "session_id",
        "metadata",
    )

    def __post_init__(self) -> None:
        check_event_time(self.event_time)
        _text(self.source, "source")
        _text(self.scope, "scope")
        _optional_text(self.agent_id, "agent_id")
        _optional_text(self.session_id, "session_id")
        if not isinstance(self.metadata, Mapping):
            raise InputError("metadata", f"must be an object of strings, not {_json_kind(self.metadata)}")
        for key, value in self.metadata.items():
            _text(key, "metadata", required=False)
            _text(value, f"metadata.{key}", required=False)
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))

    @classmethod
    def from_json(cls, obj: object, field: str = "context") -> ContextMeta:
        data = _object(obj, field, cls.FIELDS)
        try:
            return cls(
                event_time=_required(data, "event_time"),  # type: ignore[arg-type]
                source=_required(data, "source"),  # type: ignore[arg-type]
                scope=_required(data, "scope"),  # type: ignore[arg-type]
                agent_id=data.get("agent_id"),
                session_id=data.get("session_id"),
                metadata=_metadata(data.get("metadata", {})),
            )
        except InputError as error:
            raise error.within(field) from None

    def to_json(self) -> dict[str, object]:
        """The JSON form, optional fields only when set (the compiled graph's `context` map)."""
        result: dict[str, object] = {
            "event_time": self.event_time,
            "source": self.source,
            "scope": self.scope,
        }
        if self.agent_id is not None:
            result["agent_id"] = self.agent_id
        if self.session_id is not None:
            result["session_id"] = self.session_id
        if self.metadata:
            result["metadata"] = dict(self.metadata)
        return result


def _metadata(value: object) -> Mapping[str, str]:
    if not isinstance(value, dict):
        raise InputError("metadata", f"must be an object of strings, not {_json_kind(value)}")
    return value


@dataclass(frozen=True, slots=True)
class CompilerInput:
    """What the compiler takes: facts stated in one context, and optionally the utterance they came from."""

    tuples: tuple[SemanticTuple, ...]
    context: ContextMeta
    utterance: str | None = None

    FIELDS: ClassVar[tuple[str, ...]] = ("utterance", "tuples", "context")

    def __post_init__(self) -> None:
        object.__setattr__(self, "tuples", tuple(self.tuples))
        if not self.tuples:
            raise InputError("tuples", "must hold at least one tuple")
        for index, item in enumerate(self.tuples):
            require_type(item, SemanticTuple, f"tuples[{index}]")
        require_type(self.context, ContextMeta, "context")
        if self.utterance is not None:
            _text(self.utterance, "utterance", required=False)

    @classmethod
    def from_json(cls, obj: object) -> CompilerInput:
        """Validate a parsed JSON document; every problem is an InputError naming its field."""
        data = _object(obj, "", cls.FIELDS)
        raw_tuples = _required(data, "tuples")
        if not isinstance(raw_tuples, list):
            raise InputError("tuples", f"must be a list of tuples, not {_json_kind(raw_tuples)}")
        tuples = tuple(
            SemanticTuple.from_json(item, f"tuples[{index}]") for index, item in enumerate(raw_tuples)
        )
        context = ContextMeta.from_json(_required(data, "context"))
        utterance = data.get("utterance")
        if utterance is not None:
            _text(utterance, "utterance", required=False)
        return cls(tuples=tuples, context=context, utterance=utterance)

    def to_json(self) -> dict[str, object]:
        result: dict[str, object] = {}
        if self.utterance is not None:
            result["utterance"] = self.utterance
        result["tuples"] = [item.to_json() for item in self.tuples]
        result["context"] = self.context.to_json()
        return result


# ---- records --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConceptNode:
    """A concept: its normalised label, the other spellings it was written as, and its confidence.

    The confidence is the highest confidence of any tuple that mentioned it.
    Times are UTC ISO 8601 strings of one fixed format, so they sort as text.
    """

    hash: ConceptHash
    label: str
    aliases: tuple[str, ...]
    confidence: float
    created_at: str
    updated_at: str

    def __post_init__(self) -> None:
        require_type(self.hash, ConceptHash, "ConceptNode.hash")
        object.__setattr__(self, "aliases", tuple(self.aliases))
        object.__setattr__(self, "confidence", check_confidence(self.confidence, "ConceptNode.confidence"))

    def to_json(self) -> dict[str, object]:
        """The JSON export's concept object (hash as hex); `from_json` reads it back."""
        return {
            "hash": self.hash.hex(),
            "label": self.label,
            "aliases": list(self.aliases),
            "confidence": self.confidence,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ConceptNode:
        return cls(
            ConceptHash.from_hex(data["hash"]),
            data["label"],
            tuple(data["aliases"]),
            data["confidence"],
            data["created_at"],
            data["updated_at"],
        )


@dataclass(frozen=True, slots=True)
class RelationNode:
    """One observation (episode) of a fact `subject predicate object` in one context."""

    fact_hash: FactHash
    episode_hash: EpisodeHash
    subject_hash: ConceptHash
    predicate: str
    object_hash: ConceptHash
    confidence: float
    context_hash: ContextHash
    created_at: str

    def __post_init__(self) -> None:
        require_type(self.fact_hash, FactHash, "RelationNode.fact_hash")
        require_type(self.episode_hash, EpisodeHash, "RelationNode.episode_hash")
        require_type(self.subject_hash, ConceptHash, "RelationNode.subject_hash")
        require_type(self.object_hash, ConceptHash, "RelationNode.object_hash")
        require_type(self.context_hash, ContextHash, "RelationNode.context_hash")
        object.__setattr__(self, "confidence", check_confidence(self.confidence, "RelationNode.confidence"))

    def to_json(self) -> dict[str, object]:
        """The JSON export's relation object (hashes as hex); `from_json` reads it back."""
        return {
            "fact_hash": self.fact_hash.hex(),
            "episode_hash": self.episode_hash.hex(),
            "subject_hash": self.subject_hash.hex(),
            "predicate": self.predicate,
            "object_hash": self.object_hash.hex(),
            "confidence": self.confidence,
            "context_hash": self.context_hash.hex(),
            "created_at": self.created_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RelationNode:
        return cls(
            FactHash.from_hex(data["fact_hash"]),
            EpisodeHash.from_hex(data["episode_hash"]),
            ConceptHash.from_hex(data["subject_hash"]),
            data["predicate"],
            ConceptHash.from_hex(data["object_hash"]),
            data["confidence"],
            ContextHash.from_hex(data["context_hash"]),
            data["created_at"],
        )


@dataclass(frozen=True, slots=True)
class ContextNode:
    """A context and its hash."""

    hash: ContextHash
    meta: ContextMeta

    def __post_init__(self) -> None:
        require_type(self.hash, ContextHash, "ContextNode.hash")
        require_type(self.meta, ContextMeta, "ContextNode.meta")


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact as the store keeps it: all its episodes folded into a count and a confidence."""

    fact_hash: FactHash
    subject_hash: ConceptHash
    predicate: str
    object_hash: ConceptHash
    confidence: float
    observations: int
    created_at: str
    updated_at: str

    def __post_init__(self) -> None:
        require_type(self.fact_hash, FactHash, "Fact.fact_hash")
        require_type(self.subject_hash, ConceptHash, "Fact.subject_hash")
        require_type(self.object_hash, ConceptHash, "Fact.object_hash")


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """Everything one compiler input amounts to: its concepts, relations and context.

    Construction checks that the parts fit together (every relation names
    concepts the record holds and its context); `verify` also recomputes the
    relations' hashes, which the store does for records it did not compile.
    """

    concepts: tuple[ConceptNode, ...]
    relations: tuple[RelationNode, ...]
    context: ContextNode

    def __post_init__(self) -> None:
        object.__setattr__(self, "concepts", tuple(self.concepts))
        object.__setattr__(self, "relations", tuple(self.relations))
        require_type(self.context, ContextNode, "MemoryRecord.context")
        held = set()
        for concept in self.concepts:
            require_type(concept, ConceptNode, "a MemoryRecord concept")
            held.add(concept.hash)
        for relation in self.relations:
            require_type(relation, RelationNode, "a MemoryRecord relation")
            if relation.context_hash != self.context.hash:
                raise ValueError(f"relation {relation.episode_hash.short()} belongs to another context")
            if relation.subject_hash not in held or relation.object_hash not in held:
                raise ValueError(
                    f"relation {relation.episode_hash.short()} names a concept the record does not hold"
                )

    def concept(self, concept: ConceptHash) -> ConceptNode:
        """The concept with this hash (KeyError if the record has none)."""
        for node in self.concepts:
            if node.hash == concept:
                return node
        raise KeyError(concept)


# ---- trusted construction -------------------------------------------------------------------

_new = object.__new__
_set = object.__setattr__


def trusted_concept(
    key: ConceptHash,
    label: str,
    aliases: tuple[str, ...],
    confidence: float,
    created_at: str,
    updated_at: str,
) -> ConceptNode:
    """A ConceptNode from parts its maker already checked (the compiler's hot path): no re-validation."""
    made = _new(ConceptNode)
    _set(made, "hash", key)
    _set(made, "label", label)
    _set(made, "aliases", aliases)
    _set(made, "confidence", confidence)
    _set(made, "created_at", created_at)
    _set(made, "updated_at", updated_at)
    return made


def trusted_relation(
    fact: FactHash,
    episode: EpisodeHash,
    subject: ConceptHash,
    predicate: str,
    obj: ConceptHash,
    confidence: float,
    context: ContextHash,
    created_at: str,
) -> RelationNode:
    """A RelationNode from parts its maker already checked (the compiler's hot path): no re-validation."""
    made = _new(RelationNode)
    _set(made, "fact_hash", fact)
    _set(made, "episode_hash", episode)
    _set(made, "subject_hash", subject)
    _set(made, "predicate", predicate)
    _set(made, "object_hash", obj)
    _set(made, "confidence", confidence)
    _set(made, "context_hash", context)
    _set(made, "created_at", created_at)
    return made


def trusted_record(
    concepts: tuple[ConceptNode, ...], relations: tuple[RelationNode, ...], context: ContextNode
) -> MemoryRecord:
    """A MemoryRecord whose parts fit by construction (the compiler's): no re-checking."""
    made = _new(MemoryRecord)
    _set(made, "concepts", concepts)
    _set(made, "relations", relations)
    _set(made, "context", context)
    return made
