"""Moving an older experience file into the memory's database renumbers what it moves: turns and
concepts are numbered in each file, and an experience names its turn, an edge its ends, by number
(experience schema 3). What the two files held reads back from the one as it would from one capture."""

from __future__ import annotations

import sys
from pathlib import Path

from zerolang.experience.capture import capture_files
from zerolang.experience.ranking import full_text
from zerolang.storage import absorb_experiences, open_experiences

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "stores"))

from make_experiences import QUERIES  # noqa: E402


def _read(location: Path) -> dict[str, object]:
    with open_experiences(location, create=False) as store:
        found = [full_text(store, terms, 10) for terms in QUERIES]
        turns = [ident for text in found for ident, _ in text.turns]
        layers = store.experiences_of_turns(turns)
        ids = [layer.id for layer in layers]
        concepts = sorted({concept for _, concept, _ in store.mentions_of(ids)})
        return {
            "counts": store.counts(),
            "search": [text.experiences for text in found],
            "turns": turns,
            "layers": layers,
            "neighbours": sorted(store.neighbour_turns(turns)),
            "mentions": sorted(store.mentions_of(ids)),
            "mentioning": sorted(store.mentioning(concepts)),
            "frequency": store.concept_frequency(concepts),
        }


def test_an_absorbed_file_reads_as_one_capture_of_both(tmp_path: Path) -> None:
    files = sorted(TRANSCRIPTS.iterdir())
    older, memory, whole = tmp_path / "older.db", tmp_path / "memory.db", tmp_path / "whole.db"
    with open_experiences(memory) as store:  # numbers taken first here: the older file's collide
        capture_files(store, files[:2])
    with open_experiences(older) as store:
        capture_files(store, files[1:])  # one transcript in both files
    with open_experiences(whole) as store:
        capture_files(store, files)
    assert absorb_experiences(older, memory) > 0 and not older.exists()
    assert _read(memory) == _read(whole)
