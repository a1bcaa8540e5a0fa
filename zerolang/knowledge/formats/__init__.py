"""Token-efficient forms of 0-memory: `.0c`, detail levels L0/L1/L2, checkpoints and deltas.

- `model`: `Snapshot`, the unit every format writes (concepts, contexts, relations), to and from stores;
- `compact`: the `.0c` serializer and parser (lossless; hashes recomputed on parse);
- `levels`: L0 (ids), L1 (labels and predicates), L2 (= `.0c`);
- `checkpoint`: a store's state as one hash with counts;
- `delta`: `diff`, `apply` and the delta's text form;
- `tokens`: the cl100k tokenizer, offline.
"""

from __future__ import annotations

from zerolang.knowledge.formats.compact import CompactError, parse, parse_record, serialize
from zerolang.knowledge.formats.model import Snapshot

__all__ = ["CompactError", "Snapshot", "parse", "parse_record", "serialize"]
