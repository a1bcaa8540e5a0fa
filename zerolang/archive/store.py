"""The archive: immutable memory documents stored under their SHA-256, in three tiers.

    ROOT/archive.json                         marks the folder as an archive (format, version)
    ROOT/hot/ab/cd/<hash>.json                hot: the canonical bytes, one file per document
    ROOT/warm/ab/cd/<hash>.json.zst           warm: one zstd frame per document
    ROOT/cold/bundles/<sha256>.bundle         cold: [a zstd dictionary] then zstd frames back to back,
                                              named by the hash of the whole bundle
    ROOT/cold/manifest.json                   cold: hash -> {bundle, offset, length}, and each
                                              bundle's dictionary length
    ROOT/erased/ab/cd/<hash>                  an erased document's tombstone ({"erased_at"}):
                                              a purge (`erase`) removed every copy of it

`ab/cd` are the hash's first four hex digits, so no folder grows past 256 entries per level.
New documents go to hot; `move` sends them to any tier. A move first writes the new copy
(durably), then publishes it (the manifest, for cold), and only then drops the old copies, so a
reader that takes no lock (it looks in hot, then warm, then cold, and starts over once if a file
vanished under it) finds every hash at every instant.

Every read hashes the bytes it got: a copy whose bytes do not hash to its name is never
returned. If another copy verifies it is used; if none does the read fails naming the hash.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from zerolang.archive import codec
from zerolang.archive.canonical import canonical_bytes
from zerolang.archive.document import (
    DocumentError,
    MemoryDocument,
    document_from_canonical,
    parse_hash,
)
from zerolang.archive.files import BatchWriter, is_temp, locked, write_atomic
from zerolang.util.errors import ZeroError

FORMAT = "zerolang-archive"
VERSION = 1
MARKER = "archive.json"
Progress = Callable[[int, int], None]  # (done, total)


class Tier(StrEnum):
    HOT = "hot"
    WARM = "warm"
    COLD = "cold"


TIER_ORDER = (Tier.HOT, Tier.WARM, Tier.COLD)


class ArchiveError(ZeroError):
    """The archive cannot do what was asked (no such document, not an archive, ...)."""


class MissingDocument(ArchiveError):
    """No tier holds the hash."""


class CorruptDocument(ArchiveError):
    """Every stored copy of the hash fails verification."""


class ErasedDocument(ArchiveError):
    """A purge erased the document: only its hash stays, as a tombstone."""


@dataclass(frozen=True, slots=True)
class Copy:
    """Where one stored copy of a document is."""

    hash: str
    tier: Tier
    path: Path
    offset: int = 0
    length: int = -1  # -1: the whole file
    dictionary: int = 0  # cold: the length of the bundle's zstd dictionary (it starts the bundle)

    def describe(self, root: Path) -> str:
        where = str(self.path.relative_to(root))
        return f"{where}@{self.offset}+{self.length}" if self.tier is Tier.COLD else where


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing `verify` found wrong."""

    kind: str  # corrupt | missing | stray | misplaced
    hash: str | None
    where: str
    detail: str

    def line(self) -> str:
        return f"{self.kind:<9} {self.hash or '-':<64}  {self.where}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Manifest:
    """The cold manifest: where each cold document is, and each bundle's dictionary length."""

    entries: dict[str, tuple[str, int, int]]
    dictionaries: dict[str, int]


@dataclass(slots=True)
class VerifyReport:
    documents: int = 0
    copies: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(slots=True)
class TierCount:
    documents: int = 0
    bytes: int = 0


@dataclass(slots=True)
class Stats:
    tiers: dict[Tier, TierCount]
    documents: int  # distinct hashes
    canonical_bytes: int  # their uncompressed size, as far as hot copies and frame headers tell
    bundles: int
    bundle_bytes: int
    temp_files: int
    duplicates: int


@dataclass(slots=True)
class MoveReport:
    moved: list[str] = field(default_factory=list)
    already: int = 0
    failed: list[Problem] = field(default_factory=list)


@dataclass(slots=True)
class GcReport:
    temp_files: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)  # "hash tier" of each removed extra copy
    bundles: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)  # empty shard folders
    freed_bytes: int = 0
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class PutResult:
    hash: str
    stored: bool  # False: the archive already held it (or erased it: `erased`)
    erased: bool = False


class Archive:
    """A hash-addressed document archive rooted at a folder."""

    def __init__(self, root: Path | str, *, create: bool = False) -> None:
        self.root = Path(root)
        marker = self.root / MARKER
        if marker.is_file():
            self._check_marker(marker)
        elif create:
            if self.root.exists() and any(self.root.iterdir()):
                raise ArchiveError(
                    f"{self.root}: not an archive (the folder is not empty and has no {MARKER})"
                )
            write_atomic(marker, canonical_bytes({"format": FORMAT, "version": VERSION}) + b"\n", mode=0o644)
        else:
            raise ArchiveError(f"{self.root}: no archive here (zero archive put creates one)")
        self._manifest_cache: tuple[tuple[int, int, int], Manifest] | None = None
        self._dictionary_cache: dict[str, bytes] = {}

    def _check_marker(self, marker: Path) -> None:
        try:
            meta = json.loads(marker.read_bytes())
        except (OSError, ValueError) as error:
            raise ArchiveError(f"{marker}: unreadable archive marker: {error}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ArchiveError(f"{marker}: not a zerolang archive marker")
        if meta.get("version") != VERSION:
            raise ArchiveError(
                f"{marker}: archive format version {meta.get('version')!r}; this zero reads {VERSION}"
            )

    # ---- paths -------------------------------------------------------------------------------

    def hot_path(self, digest: str) -> Path:
        return self.root / "hot" / digest[:2] / digest[2:4] / f"{digest}.json"

    def warm_path(self, digest: str) -> Path:
        return self.root / "warm" / digest[:2] / digest[2:4] / f"{digest}.json.zst"

    @property
    def manifest_path(self) -> Path:
        return self.root / "cold" / "manifest.json"

    def bundle_path(self, name: str) -> Path:
        return self.root / "cold" / "bundles" / f"{name}.bundle"

    def erased_path(self, digest: str) -> Path:
        return self.root / "erased" / digest[:2] / digest[2:4] / digest

    def erased_at(self, hash_text: str) -> str | None:
        """When a purge erased the document (its tombstone's time); None if it was not erased."""
        try:
            data = self.erased_path(parse_hash(hash_text)).read_bytes()
        except FileNotFoundError:
            return None
        try:
            return str(json.loads(data)["erased_at"])
        except (ValueError, KeyError, TypeError):
            return "an unknown time"

    # ---- writing -----------------------------------------------------------------------------

    def put(self, document: MemoryDocument) -> PutResult:
        """Store a document in hot (nothing happens if a good copy of its hash is stored already).

        A stored copy that fails verification (e.g. torn by a crash) does not count: the document
        is written again, which repairs it.
        """
        return self.put_many([document])[0]

    def put_many(
        self, documents: Iterable[MemoryDocument], progress: Progress | None = None
    ) -> list[PutResult]:
        """`put` for many documents, made durable together (one sync at the end, see BatchWriter)."""
        items = list(documents)
        results = []
        batch = BatchWriter()
        with locked(self.root / ".lock", exclusive=False):
            for index, document in enumerate(items, 1):
                data = document.canonical()
                digest = hashlib.sha256(data).hexdigest()
                if self.erased_path(digest).is_file():  # a purge erased it: it does not come back
                    results.append(PutResult(digest, stored=False, erased=True))
                elif self._has_good_copy(digest):
                    results.append(PutResult(digest, stored=False))
                else:
                    batch.write(self.hot_path(digest), data)
                    results.append(PutResult(digest, stored=True))
                if progress is not None:
                    progress(index, len(items))
            batch.commit()
        return results

    def _has_good_copy(self, digest: str) -> bool:
        if not self.copies(digest):
            return False
        try:
            self.read_canonical(digest)
        except ZeroError:
            return False
        return True

    # ---- reading -----------------------------------------------------------------------------

    def get(self, hash_text: str) -> MemoryDocument:
        """The document with this hash, verified; MissingDocument or CorruptDocument otherwise."""
        digest = parse_hash(hash_text)
        return document_from_canonical(self.read_canonical(digest), digest)

    def read_canonical(self, hash_text: str) -> bytes:
        """The verified canonical bytes of a document."""
        digest = parse_hash(hash_text)
        for _attempt in range(3):  # a concurrent move can remove a copy between looking and reading
            copies = self.copies(digest)
            if not copies:
                erased = self.erased_at(digest)
                if erased is not None:
                    raise ErasedDocument(f"document {digest} was erased by a purge ({erased})")
                raise MissingDocument(f"no document {digest} in the archive at {self.root}")
            failures: list[str] = []
            vanished = False
            for copy in copies:
                try:
                    return self._read_verified(copy)
                except FileNotFoundError:
                    vanished = True
                except ZeroError as error:
                    failures.append(f"{copy.tier}: {error.message}")
            if not vanished:
                raise CorruptDocument(f"document {digest} is corrupt in every copy ({'; '.join(failures)})")
        raise MissingDocument(f"no document {digest} in the archive at {self.root}")

    def __contains__(self, hash_text: object) -> bool:
        try:
            digest = parse_hash(hash_text)
        except ZeroError:
            return False
        return bool(self.copies(digest))

    def copies(self, digest: str) -> list[Copy]:
        """Every stored copy of a (valid) hash, hottest first; none is read or verified."""
        found = []
        hot = self.hot_path(digest)
        if hot.is_file():
            found.append(Copy(digest, Tier.HOT, hot))
        warm = self.warm_path(digest)
        if warm.is_file():
            found.append(Copy(digest, Tier.WARM, warm))
        manifest = self._load()
        entry = manifest.entries.get(digest)
        if entry is not None:
            bundle, offset, length = entry
            dictionary = manifest.dictionaries.get(bundle, 0)
            found.append(Copy(digest, Tier.COLD, self.bundle_path(bundle), offset, length, dictionary))
        return found

    def _raw(self, copy: Copy) -> bytes:
        if copy.tier is Tier.HOT:
            return copy.path.read_bytes()
        if copy.tier is Tier.WARM:
            return codec.decompress(copy.path.read_bytes())
        with copy.path.open("rb") as handle:
            dictionary = self._dictionary_cache.get(copy.path.name) if copy.dictionary else None
            if copy.dictionary and dictionary is None:
                dictionary = handle.read(copy.dictionary)
                if len(dictionary) != copy.dictionary:
                    raise ArchiveError(f"the bundle {copy.path.name} is truncated")
                self._dictionary_cache[copy.path.name] = dictionary  # bundles never change
            handle.seek(copy.offset)
            frame = handle.read(copy.length)
        if len(frame) != copy.length:
            raise ArchiveError(f"the bundle {copy.path.name} is truncated")
        return codec.decompress(frame, dictionary)

    def _read_verified(self, copy: Copy) -> bytes:
        data = self._raw(copy)
        actual = hashlib.sha256(data).hexdigest()
        if actual != copy.hash:
            raise CorruptDocument(f"document {copy.hash}: its {copy.tier} copy hashes to {actual}")
        return data

    def hashes(self) -> list[str]:
        """Every hash any tier holds, sorted."""
        found = {digest for digest, _path in self._tier_files(Tier.HOT)}
        found.update(digest for digest, _path in self._tier_files(Tier.WARM))
        found.update(self._manifest())
        return sorted(found)

    def _tier_files(self, tier: Tier) -> Iterator[tuple[str, Path]]:
        """(hash, path) of each well-named file in the hot or warm tree."""
        suffix = ".json" if tier is Tier.HOT else ".json.zst"
        base = self.root / tier.value
        if not base.is_dir():
            return
        for path in sorted(base.glob(f"??/??/*{suffix}")):
            name = path.name[: -len(suffix)]
            if not is_temp(path) and len(name) == 64 and all(c in "0123456789abcdef" for c in name):
                yield name, path

    # ---- the cold manifest -------------------------------------------------------------------

    def _manifest(self) -> dict[str, tuple[str, int, int]]:
        """hash -> (bundle, offset, length) of every cold document."""
        return self._load().entries

    def _load(self) -> Manifest:
        path = self.manifest_path
        try:
            status = path.stat()
        except FileNotFoundError:
            return Manifest({}, {})
        key = (status.st_ino, status.st_size, status.st_mtime_ns)
        if self._manifest_cache is not None and self._manifest_cache[0] == key:
            return self._manifest_cache[1]
        manifest = self._parse_manifest(path.read_bytes())
        self._manifest_cache = (key, manifest)
        return manifest

    def _parse_manifest(self, data: bytes) -> Manifest:
        try:
            document = json.loads(data)
            entries = {
                parse_hash(digest): (parse_hash(item["bundle"]), int(item["offset"]), int(item["length"]))
                for digest, item in document["entries"].items()
            }
            dictionaries = {
                parse_hash(name): int(item["dictionary"])
                for name, item in document.get("bundles", {}).items()
            }
        except (ValueError, KeyError, TypeError, AttributeError, ZeroError) as error:
            raise ArchiveError(f"{self.manifest_path}: the cold manifest is damaged ({error})") from None
        return Manifest(entries, dictionaries)

    def _write_manifest(self, entries: dict[str, tuple[str, int, int]], dictionaries: dict[str, int]) -> None:
        referenced = {bundle for bundle, _offset, _length in entries.values()}
        body = {
            "format": f"{FORMAT}-manifest",
            "version": VERSION,
            "bundles": {
                name: {"dictionary": size}
                for name, size in sorted(dictionaries.items())
                if name in referenced and size
            },
            "entries": {
                digest: {"bundle": bundle, "offset": offset, "length": length}
                for digest, (bundle, offset, length) in sorted(entries.items())
            },
        }
        write_atomic(self.manifest_path, canonical_bytes(body) + b"\n", mode=0o644)
        self._manifest_cache = None

    # ---- moving between tiers ----------------------------------------------------------------

    def move(self, hashes: Iterable[str] | None, tier: Tier, progress: Progress | None = None) -> MoveReport:
        """Move documents (every document if `hashes` is None) to `tier`; each copy is verified first."""
        report = MoveReport()
        with locked(self.root / ".lock", exclusive=True):
            wanted = self.hashes() if hashes is None else [parse_hash(text) for text in hashes]
            if tier is Tier.COLD:
                self._move_cold(wanted, report, progress)
            else:
                self._move_single(wanted, tier, report, progress)
            self._drop_unreferenced_bundles()
        return report

    def _verified_or_problem(self, digest: str, report: MoveReport) -> bytes | None:
        if not self.copies(digest):
            report.failed.append(Problem("missing", digest, "-", "no tier holds it"))
            return None
        try:
            return self.read_canonical(digest)
        except ZeroError as error:
            report.failed.append(Problem("corrupt", digest, "-", f"not moved: {error.message}"))
            return None

    def _move_single(
        self, wanted: list[str], tier: Tier, report: MoveReport, progress: Progress | None
    ) -> None:
        manifest = dict(self._manifest())
        dropped: list[Path] = []
        batch = BatchWriter()
        for index, digest in enumerate(wanted, 1):
            copies = self.copies(digest)
            if [copy.tier for copy in copies] == [tier]:
                report.already += 1
            else:
                data = self._verified_or_problem(digest, report)
                if data is not None:
                    if tier is Tier.HOT:
                        if not any(copy.tier is Tier.HOT for copy in copies):
                            batch.write(self.hot_path(digest), data)
                    elif not any(copy.tier is Tier.WARM for copy in copies):
                        batch.write(self.warm_path(digest), codec.compress(data, codec.WARM_LEVEL))
                    for copy in copies:
                        if copy.tier is Tier.COLD:
                            manifest.pop(digest, None)
                        elif copy.tier is not tier:
                            dropped.append(copy.path)
                    report.moved.append(digest)
            if progress is not None:
                progress(index, len(wanted))
        batch.commit()  # the new copies are durable before any old one goes
        if manifest != self._manifest():
            self._write_manifest(manifest, self._load().dictionaries)
        _unlink_all(dropped)

    def _move_cold(self, wanted: list[str], report: MoveReport, progress: Progress | None) -> None:
        manifest = dict(self._manifest())
        documents: list[tuple[str, bytes]] = []
        dropped: list[Path] = []
        for index, digest in enumerate(wanted, 1):
            copies = self.copies(digest)
            if [copy.tier for copy in copies] == [Tier.COLD]:
                report.already += 1
            else:
                data = self._verified_or_problem(digest, report)
                if data is not None:
                    if digest not in manifest:
                        documents.append((digest, data))
                    dropped.extend(copy.path for copy in copies if copy.tier is not Tier.COLD)
                    report.moved.append(digest)
            if progress is not None:
                progress(index, len(wanted))
        if documents:
            self._write_manifest(manifest, self._bundle(documents, manifest))
        _unlink_all(dropped)

    def _bundle(
        self, documents: list[tuple[str, bytes]], manifest: dict[str, tuple[str, int, int]]
    ) -> dict[str, int]:
        """Write one cold bundle of `documents`, point `manifest` at it; the bundles' dictionaries."""
        dictionary = codec.train_dictionary([data for _digest, data in documents]) or b""
        frames = [(digest, codec.compress(data, codec.COLD_LEVEL, dictionary)) for digest, data in documents]
        blob = dictionary + b"".join(frame for _digest, frame in frames)
        name = hashlib.sha256(blob).hexdigest()
        write_atomic(self.bundle_path(name), blob)
        offset = len(dictionary)
        for digest, frame in frames:
            manifest[digest] = (name, offset, len(frame))
            offset += len(frame)
        return {**self._load().dictionaries, name: len(dictionary)}

    # ---- erasing (a purge) -------------------------------------------------------------------

    def erase(self, hashes: Iterable[str], at: str) -> list[str]:
        """Remove every copy of these documents for good, leaving each hash a tombstone (`erased_at`;
        `get` says it was erased, `put` does not bring it back). A cold bundle holding one is
        rewritten without it (its dictionary trained again: a dictionary holds text of the
        documents it was trained on). The hashes erased now."""
        wanted = sorted({parse_hash(text) for text in hashes})
        erased = []
        with locked(self.root / ".lock", exclusive=True):
            manifest = dict(self._manifest())
            bundles = {manifest[digest][0] for digest in wanted if digest in manifest}
            kept = []
            for digest, (bundle, _offset, _length) in sorted(manifest.items()):
                if bundle in bundles and digest not in wanted:
                    with contextlib.suppress(ZeroError, OSError):  # unreadable: it keeps its old bundle
                        kept.append((digest, self.read_canonical(digest)))
                        manifest.pop(digest)
            dropped: list[Path] = []
            for digest in wanted:
                copies = self.copies(digest)
                if copies or not self.erased_path(digest).is_file():
                    erased.append(digest)
                write_atomic(self.erased_path(digest), canonical_bytes({"erased_at": at}) + b"\n", mode=0o644)
                manifest.pop(digest, None)
                dropped.extend(copy.path for copy in copies if copy.tier is not Tier.COLD)
            dictionaries = self._bundle(kept, manifest) if kept else self._load().dictionaries
            if manifest != self._manifest():
                self._write_manifest(manifest, dictionaries)
            _overwrite_all(dropped)
            self._drop_unreferenced_bundles(overwrite=True)
        return erased

    def _drop_unreferenced_bundles(self, dry_run: bool = False, overwrite: bool = False) -> list[Path]:
        referenced = {bundle for bundle, _offset, _length in self._manifest().values()}
        folder = self.root / "cold" / "bundles"
        bundles = sorted(folder.glob("*.bundle")) if folder.is_dir() else []
        stale = [path for path in bundles if path.name.removesuffix(".bundle") not in referenced]
        if not dry_run:
            (_overwrite_all if overwrite else _unlink_all)(stale)
        return stale

    # ---- verify, stats, gc -------------------------------------------------------------------

    def verify(self, hashes: Iterable[str] | None = None, progress: Progress | None = None) -> VerifyReport:
        """Read and hash every stored copy (or those of `hashes`); report every bad or missing one."""
        report = VerifyReport()
        if hashes is None:
            wanted = self.hashes()
            report.problems.extend(self._strays())
        else:
            wanted = []
            for text in hashes:
                try:
                    wanted.append(parse_hash(text))
                except ZeroError as error:
                    report.problems.append(Problem("missing", None, text, error.message))
        for index, digest in enumerate(wanted, 1):
            report.documents += 1
            copies = self.copies(digest)
            if not copies:
                report.problems.append(Problem("missing", digest, "-", "no tier holds it"))
            for copy in copies:
                report.copies += 1
                problem = self._check_copy(copy)
                if problem is not None:
                    report.problems.append(problem)
            if progress is not None:
                progress(index, len(wanted))
        return report

    def _check_copy(self, copy: Copy) -> Problem | None:
        where = copy.describe(self.root)
        try:
            data = self._read_verified(copy)
            document_from_canonical(data, copy.hash)
        except FileNotFoundError:
            return Problem(
                "missing", copy.hash, where, f"the manifest points at {copy.path.name}, which is gone"
            )
        except (ZeroError, OSError) as error:
            detail = error.message if isinstance(error, ZeroError) else str(error)
            return Problem("corrupt", copy.hash, where, detail.removeprefix(f"document {copy.hash}: "))
        return None

    def _strays(self) -> list[Problem]:
        """Files in the tier folders that are neither documents, bundles nor leftovers gc may remove."""
        problems = []
        for tier, suffix in ((Tier.HOT, ".json"), (Tier.WARM, ".json.zst")):
            base = self.root / tier.value
            if not base.is_dir():
                continue
            for path in sorted(base.rglob("*")):
                if path.is_dir() or is_temp(path):
                    continue
                where = str(path.relative_to(self.root))
                name = path.name.removesuffix(suffix)
                try:
                    digest = parse_hash(name) if path.name.endswith(suffix) and name == name.lower() else None
                except ZeroError:
                    digest = None
                if digest is None:
                    problems.append(Problem("stray", None, where, "not a document file name; left alone"))
                elif (
                    path.parent
                    != (self.hot_path(digest) if tier is Tier.HOT else self.warm_path(digest)).parent
                ):
                    problems.append(
                        Problem("misplaced", digest, where, "in the wrong shard folder; not read")
                    )
        return problems

    def stats(self) -> Stats:
        tiers = {tier: TierCount() for tier in TIER_ORDER}
        seen: dict[str, int] = {}
        canonical = 0
        for tier in (Tier.HOT, Tier.WARM):
            for digest, path in self._tier_files(tier):
                size = path.stat().st_size
                tiers[tier].documents += 1
                tiers[tier].bytes += size
                if digest not in seen:
                    seen[digest] = 1
                    canonical += size if tier is Tier.HOT else _frame_size(path)
                else:
                    seen[digest] += 1
        for digest, (bundle, offset, length) in self._manifest().items():
            tiers[Tier.COLD].documents += 1
            tiers[Tier.COLD].bytes += length
            if digest not in seen:
                canonical += _frame_size(self.bundle_path(bundle), offset)
            seen[digest] = seen.get(digest, 0) + 1
        folder = self.root / "cold" / "bundles"
        bundles = sorted(folder.glob("*.bundle")) if folder.is_dir() else []
        return Stats(
            tiers=tiers,
            documents=len(seen),
            canonical_bytes=canonical,
            bundles=len(bundles),
            bundle_bytes=sum(path.stat().st_size for path in bundles),
            temp_files=len(self._temp_files()),
            duplicates=sum(count - 1 for count in seen.values()),
        )

    def _temp_files(self) -> list[Path]:
        return [path for path in sorted(self.root.rglob(".*.tmp")) if path.is_file()]

    def gc(self, *, dry_run: bool = False, progress: Progress | None = None) -> GcReport:
        """Remove what no reader needs; never a document's last good copy.

        1. leftover temporary files of interrupted writes (safe: writers hold the shared lock);
        2. extra copies of a hash held by more than one tier: the coldest copy that verifies stays,
           the others go (a corrupt extra copy goes too, once a good copy is known to remain);
        3. cold bundles no manifest entry points into;
        4. shard folders that moves left empty.
        A hash whose every copy is corrupt is left exactly as it is, for `verify` to report.
        """
        report = GcReport(dry_run=dry_run)
        with locked(self.root / ".lock", exclusive=True):
            for path in self._temp_files():
                report.temp_files.append(str(path.relative_to(self.root)))
                report.freed_bytes += path.stat().st_size
                if not dry_run:
                    path.unlink()
            manifest = dict(self._manifest())
            dropped: list[Path] = []
            hashes = self.hashes()
            for index, digest in enumerate(hashes, 1):
                copies = self.copies(digest)
                if len(copies) > 1:
                    keep = next((c for c in reversed(copies) if self._check_copy(c) is None), None)
                    if keep is not None:
                        for copy in copies:
                            if copy is keep:
                                continue
                            report.duplicates.append(f"{digest} {copy.tier}")
                            if copy.tier is Tier.COLD:
                                manifest.pop(digest)
                            else:
                                report.freed_bytes += copy.path.stat().st_size
                                dropped.append(copy.path)
                if progress is not None:
                    progress(index, len(hashes))
            if not dry_run:
                if manifest != self._manifest():
                    self._write_manifest(manifest, self._load().dictionaries)
                _unlink_all(dropped)
            for folder in _empty_shards(self.root):
                report.folders.append(str(folder.relative_to(self.root)))
                if not dry_run:
                    with contextlib.suppress(OSError):
                        folder.rmdir()
            referenced = {bundle for bundle, _o, _l in manifest.values()}
            folder = self.root / "cold" / "bundles"
            for path in sorted(folder.glob("*.bundle")) if folder.is_dir() else []:
                if path.name.removesuffix(".bundle") not in referenced:
                    report.bundles.append(str(path.relative_to(self.root)))
                    report.freed_bytes += path.stat().st_size
                    if not dry_run:
                        _unlink_all([path])
        return report


def _frame_size(path: Path, offset: int = 0) -> int:
    """The uncompressed size a zstd frame header declares (0 if it cannot be read)."""
    try:
        import zstandard

        with path.open("rb") as handle:
            handle.seek(offset)
            size = zstandard.frame_content_size(handle.read(18))
    except Exception:
        return 0
    return max(int(size), 0)


def _unlink_all(paths: Iterable[Path]) -> None:
    """Remove old copies. Not fsynced: a removal a crash undoes only leaves an extra copy for gc.

    Emptied shard folders stay (removing them costs as much as the files); gc removes them.
    """
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _overwrite_all(paths: Iterable[Path]) -> None:
    """Remove erased copies, their bytes overwritten with zeros first (and synced) where the file
    system lets a write reach the same blocks."""
    for path in paths:
        with contextlib.suppress(OSError):
            size = path.stat().st_size
            os.chmod(path, 0o600)
            with path.open("r+b") as handle:
                handle.write(bytes(size))
                handle.flush()
                os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _empty_shards(root: Path) -> list[Path]:
    """Empty `ab/cd` shard folders under hot and warm, then `ab` folders left empty by them."""
    found = []
    for tier in ("hot", "warm"):
        base = root / tier
        if not base.is_dir():
            continue
        for top in sorted(base.glob("??")):
            if not top.is_dir():
                continue
            inner = [path for path in top.iterdir()]
            empty = [
                path for path in inner if path.is_dir() and len(path.name) == 2 and not any(path.iterdir())
            ]
            found.extend(empty)
            if len(empty) == len(inner):
                found.append(top)
    return found


def open_archive(root: Path | str, *, create: bool = False) -> Archive:
    return Archive(root, create=create)


__all__ = [
    "Archive",
    "ArchiveError",
    "CorruptDocument",
    "DocumentError",
    "ErasedDocument",
    "MissingDocument",
    "Tier",
]
