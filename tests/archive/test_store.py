"""The tiered archive: verified reads, tier moves, verify, stats, gc, atomic writes and concurrency."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolang.archive import Archive, ArchiveError, CorruptDocument, MissingDocument, Tier, make_document
from zerolang.util.errors import ZeroError

from .conftest import note


def _writable(path: Path) -> Path:
    path.chmod(0o644)
    return path


def test_put_get_round_trip_and_the_file_is_the_canonical_bytes(archive: Archive) -> None:
    document = note("birthday on 3 March")
    result = archive.put(document)
    assert result.stored
    assert archive.get(result.hash) == document
    stored = archive.hot_path(result.hash).read_bytes()
    assert stored == document.canonical()
    assert hashlib.sha256(stored).hexdigest() == result.hash
    assert archive.hot_path(result.hash).parent.name == result.hash[2:4]
    assert not archive.put(document).stored


def test_every_tier_keeps_every_hash_readable(archive: Archive) -> None:
    documents = [note(f"fact {index}") for index in range(6)]
    hashes = [archive.put(document).hash for document in documents]
    plan = [
        (Tier.WARM, hashes[:4]),
        (Tier.COLD, hashes[2:5]),
        (Tier.COLD, hashes[:2]),
        (Tier.HOT, hashes[1:3]),
    ]
    for tier, chosen in plan:
        archive.move(chosen, tier)
        for digest in chosen:
            assert [copy.tier for copy in archive.copies(digest)] == [tier]
        for digest, document in zip(hashes, documents, strict=True):
            assert archive.get(digest) == document
        assert archive.verify().ok
    counts = archive.stats()
    assert counts.documents == 6 and counts.duplicates == 0
    assert {tier: c.documents for tier, c in counts.tiers.items()} == {
        Tier.HOT: 3,
        Tier.WARM: 0,
        Tier.COLD: 3,
    }
    assert counts.canonical_bytes == sum(len(document.canonical()) for document in documents)
    assert counts.bundles == 2  # one per cold move; each still holds a document
    archive.move(None, Tier.HOT)
    assert archive.stats().bundles == 0  # bundles nothing points into go with the move
    assert list((archive.root / "warm").rglob("*"))  # emptied shard folders stay until gc
    assert archive.gc().folders
    assert not list((archive.root / "warm").rglob("*"))


def test_a_move_reports_missing_and_corrupt_documents_and_leaves_them(archive: Archive) -> None:
    good, bad = archive.put(note("good")).hash, archive.put(note("bad")).hash
    _writable(archive.hot_path(bad)).write_bytes(b"{}")
    report = archive.move([good, bad, "0" * 64], Tier.WARM)
    assert report.moved == [good]
    assert [(p.kind, p.hash) for p in report.failed] == [("corrupt", bad), ("missing", "0" * 64)]
    assert archive.hot_path(bad).exists()  # never spread or drop a bad copy


def test_corrupt_bytes_are_never_returned(archive: Archive) -> None:
    digest = archive.put(note("secret")).hash
    path = _writable(archive.hot_path(digest))
    data = bytearray(path.read_bytes())
    data[10] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptDocument, match=f"document {digest} is corrupt in every copy"):
        archive.get(digest)
    with pytest.raises(CorruptDocument, match=digest):
        archive.read_canonical(digest)


def test_a_good_copy_in_another_tier_is_used_when_one_copy_is_corrupt(archive: Archive) -> None:
    document = note("two copies")
    digest = archive.put(document).hash
    archive.move([digest], Tier.WARM)
    archive.hot_path(digest).parent.mkdir(parents=True, exist_ok=True)
    archive.hot_path(digest).write_bytes(b"not it")
    assert archive.get(digest) == document
    assert [p.kind for p in archive.verify().problems] == ["corrupt"]


def test_bytes_that_hash_right_but_are_not_a_document_are_corrupt(archive: Archive) -> None:
    data = b'{"hello":"world"}'
    digest = hashlib.sha256(data).hexdigest()
    archive.hot_path(digest).parent.mkdir(parents=True, exist_ok=True)
    archive.hot_path(digest).write_bytes(data)
    with pytest.raises(ZeroError, match=f"document {digest}: corrupt"):
        archive.get(digest)
    assert [p.kind for p in archive.verify().problems] == ["corrupt"]


def test_unknown_and_malformed_hashes(archive: Archive) -> None:
    archive.put(note("x"))
    with pytest.raises(MissingDocument, match=r"no document 0{64}"):
        archive.get("0" * 64)
    for text in ("../../etc/passwd", "archive.json", "hot", "0" * 12):
        with pytest.raises(ZeroError, match="not a document hash"):
            archive.get(text)
        assert text not in archive


def test_verify_reports_every_bad_or_missing_copy(archive: Archive) -> None:
    hashes = [archive.put(note(f"doc {index}")).hash for index in range(6)]
    archive.move(hashes[2:4], Tier.WARM)
    archive.move(hashes[4:6], Tier.COLD)
    _writable(archive.hot_path(hashes[0])).write_bytes(b"x")
    _writable(archive.warm_path(hashes[2])).write_bytes(b"x")
    (bundle,) = (archive.root / "cold" / "bundles").glob("*.bundle")
    data = _writable(bundle).read_bytes()
    bundle.write_bytes(data[:-5])  # truncates the last frame
    (archive.root / "hot" / "notes.txt").write_text("mine")
    misplaced = archive.root / "hot" / "00" / "00" / f"{hashes[1]}.json"
    misplaced.parent.mkdir(parents=True)
    misplaced.write_bytes(archive.hot_path(hashes[1]).read_bytes())
    report = archive.verify()
    found = sorted((p.kind, p.hash or p.where) for p in report.problems)
    last = max(hashes[4:6], key=lambda h: archive.copies(h)[0].offset)
    assert found == sorted(
        [
            ("corrupt", hashes[0]),
            ("corrupt", hashes[2]),
            ("corrupt", last),
            ("stray", "hot/notes.txt"),
            ("misplaced", hashes[1]),
        ]
    )
    bundle.unlink()
    missing = [p for p in archive.verify([*hashes[4:6], "f" * 64, "nonsense"]).problems]
    assert sorted(p.kind for p in missing) == ["missing"] * 4


def test_temp_files_of_interrupted_writes_are_invisible_and_gc_removes_them(archive: Archive) -> None:
    digest = archive.put(note("kept")).hash
    leftover = archive.hot_path(digest).parent / f".{digest}.json.k3j2.tmp"
    leftover.write_bytes(b"half")
    assert archive.hashes() == [digest]
    assert archive.verify().ok
    assert archive.stats().temp_files == 1
    dry = archive.gc(dry_run=True)
    assert dry.temp_files and leftover.exists()
    report = archive.gc()
    assert report.temp_files == [str(leftover.relative_to(archive.root))]
    assert not leftover.exists() and archive.get(digest)


def test_gc_drops_extra_copies_but_never_a_last_good_copy(archive: Archive) -> None:
    one, two, three = (archive.put(note(f"n{index}")).hash for index in range(3))
    archive.move([one, two, three], Tier.WARM)
    # extra hot copies, as a crash between "write the new copy" and "drop the old one" leaves them
    for digest in (one, two):
        archive.hot_path(digest).parent.mkdir(parents=True, exist_ok=True)
        archive.hot_path(digest).write_bytes(archive.read_canonical(digest))
    _writable(archive.warm_path(two)).write_bytes(b"rotten")  # the warm copy of `two` is bad
    _writable(archive.warm_path(three)).write_bytes(b"rotten")  # `three` has no good copy at all
    assert archive.stats().duplicates == 2
    report = archive.gc()
    assert sorted(report.duplicates) == sorted([f"{one} hot", f"{two} warm"])
    assert [c.tier for c in archive.copies(one)] == [Tier.WARM]
    assert [c.tier for c in archive.copies(two)] == [Tier.HOT]
    assert archive.get(one) and archive.get(two)
    assert archive.warm_path(three).read_bytes() == b"rotten"  # left for verify to report
    assert archive.gc().duplicates == []


def test_gc_removes_bundles_nothing_points_into(archive: Archive) -> None:
    digest = archive.put(note("cold")).hash
    archive.move([digest], Tier.COLD)
    orphan = archive.root / "cold" / "bundles" / f"{'e' * 64}.bundle"
    orphan.write_bytes(b"old")
    report = archive.gc()
    assert report.bundles == [str(orphan.relative_to(archive.root))] and report.freed_bytes == 3
    assert archive.get(digest)


def test_folders_that_are_not_archives_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="no archive here"):
        Archive(tmp_path / "nothing")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    with pytest.raises(ArchiveError, match="not an archive"):
        Archive(tmp_path / "full", create=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "archive.json").write_text('{"format": "zerolang-archive", "version": 9}')
    with pytest.raises(ArchiveError, match="version 9"):
        Archive(tmp_path / "other")


def test_a_damaged_manifest_is_a_clear_error(archive: Archive) -> None:
    digest = archive.put(note("c")).hash
    archive.move([digest], Tier.COLD)
    _writable(archive.manifest_path).write_text("{")
    with pytest.raises(ArchiveError, match="cold manifest is damaged"):
        archive.get(digest)


def test_without_zstandard_warm_is_a_clear_error(archive: Archive, monkeypatch: pytest.MonkeyPatch) -> None:
    digest = archive.put(note("w")).hash
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(ZeroError, match=r'need the zstandard package: python -m pip install "\.\[archive\]"'):
        archive.move([digest], Tier.WARM)
    assert archive.get(digest)  # hot still works, nothing half-moved
    assert archive.copies(digest)[0].tier is Tier.HOT


def _put_range(root: str, start: int, stop: int) -> list[str]:
    archive = Archive(root)
    return [archive.put(note(f"shared {index % 15}")).hash for index in range(start, stop)]


def test_concurrent_writers_in_processes(archive: Archive) -> None:
    with ProcessPoolExecutor(max_workers=3) as pool:
        jobs = [pool.submit(_put_range, str(archive.root), start, start + 20) for start in (0, 7, 13)]
        archive.move(None, Tier.WARM)  # a tier move racing the writers
        results = [job.result() for job in jobs]
    expected = {note(f"shared {index}").hash for index in range(15)}
    assert set().union(*results) == expected
    assert set(archive.hashes()) == expected
    assert archive.verify().ok
    assert archive.stats().temp_files == 0


def test_readers_see_every_hash_while_tiers_change(archive: Archive) -> None:
    hashes = [archive.put(note(f"r{index}")).hash for index in range(8)]
    failures: list[str] = []
    stop = threading.Event()

    def reader() -> None:
        reading = Archive(archive.root)
        while not stop.is_set():
            for digest in hashes:
                try:
                    reading.read_canonical(digest)
                except ZeroError as error:
                    failures.append(error.message)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for tier in (Tier.WARM, Tier.COLD, Tier.HOT, Tier.COLD, Tier.WARM, Tier.HOT):
            archive.move(None, tier)
    finally:
        stop.set()
        thread.join()
    assert failures == []


documents = st.builds(
    lambda texts, channel, tags: make_document(
        [{"role": "user", "content": text, "n": len(text)} for text in texts],
        channel=channel,
        consent_scope="personal",
        created_at="2026-01-01T00:00:00Z",
        tags=tags,
    ),
    st.lists(st.text(alphabet=st.characters(exclude_categories=("Cs",))), min_size=1, max_size=3),
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=8),
    st.lists(st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=5), max_size=3),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents, st.sampled_from(list(Tier)))
def test_any_document_round_trips_through_any_tier(tmp_path: Path, document: object, tier: Tier) -> None:
    archive = Archive(tmp_path / f"a{os.getpid()}-{id(document)}", create=True)
    digest = archive.put(document).hash  # type: ignore[arg-type]
    archive.move([digest], tier)
    assert archive.get(digest) == document


def test_putting_again_repairs_a_damaged_copy(archive: Archive) -> None:
    document = note("repair me")
    digest = archive.put(document).hash
    path = _writable(archive.hot_path(digest))
    path.write_bytes(b"")  # as a crash before the batch's sync may leave it
    with pytest.raises(CorruptDocument):
        archive.get(digest)
    assert archive.put(document).stored
    assert archive.get(digest) == document


def test_big_batches_are_durable_too(archive: Archive) -> None:
    documents = [note(f"batch {index}") for index in range(20)]  # more than BatchWriter.SMALL
    results = archive.put_many(documents)
    assert all(result.stored for result in results)
    assert [archive.get(result.hash) for result in results] == documents
    assert archive.stats().temp_files == 0


def test_big_cold_bundles_share_a_trained_dictionary(archive: Archive) -> None:
    words = [
        "release",
        "review",
        "migration",
        "birthday",
        "reminder",
        "trip",
        "lisbon",
        "food",
        "table",
        "friday",
        "team",
        "budget",
    ]
    documents = [
        make_document(
            [{"role": "user", "content": " ".join(words[(n + i) % len(words)] for i in range(900))}],
            channel="dm:alice",
            consent_scope="personal",
            created_at="2026-11-20T09:30:00Z",
            session=f"s-{n}",
        )
        for n in range(40)
    ]
    hashes = [result.hash for result in archive.put_many(documents)]
    archive.move(None, Tier.COLD)
    manifest = json.loads(archive.manifest_path.read_bytes())
    ((bundle, info),) = manifest["bundles"].items()
    assert info["dictionary"] > 0
    assert [archive.get(digest) for digest in hashes] == documents
    assert Archive(archive.root).get(hashes[7]) == documents[7]  # a fresh reader loads the dictionary
    assert archive.verify().ok
    path = archive.bundle_path(bundle)
    data = bytearray(_writable(path).read_bytes())
    data[100] ^= 0xFF  # inside the dictionary: every frame of the bundle fails, and each is reported
    path.write_bytes(bytes(data))
    fresh = Archive(archive.root)
    assert sorted(p.hash for p in fresh.verify().problems if p.kind == "corrupt") == sorted(hashes)
    with pytest.raises(CorruptDocument, match=hashes[0]):
        fresh.get(hashes[0])
