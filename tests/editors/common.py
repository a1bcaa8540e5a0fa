"""What the editor grammar tests share: the files they highlight and where their golden files live."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
UPDATE = os.environ.get("ZERO_UPDATE_GOLDEN") == "1"

# Every example, the schema, the syntax tour, samples of invalid .0 text, and the .0c samples
# (L0, L1, L2, a delta, quoting, declarations) of tests/tools/highlight/samples.
COMPACT_SAMPLES = sorted((ROOT / "tests" / "tools" / "highlight" / "samples").glob("*.0c"))
SOURCES = sorted(
    [
        *(ROOT / "examples").rglob("*.0"),
        ROOT / "schema" / "schema.0",
        ROOT / "tests" / "tools" / "highlight" / "tour.0",
        *(HERE / "samples").iterdir(),
        *COMPACT_SAMPLES,
    ]
)
