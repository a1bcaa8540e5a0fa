"""`DenseRanker`: recall's optional `Ranker`, the cosine similarity of MiniLM sentence vectors.

Each text's vector is computed once per process and kept by the SHA-256 of the model's name and
the text (content-addressed: the same words said twice are embedded once), up to `keep` vectors;
nothing is written to disk, so a forgotten experience leaves no vector behind. A similarity
below 0 counts as 0.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zerolang.experience.dense.bert import Array

KEEP = 200_000  # vectors kept in memory (384 float32 each: about 300 MB at most)


class Encoder(Protocol):
    """Texts to unit vectors (one row each); `name` tells models apart in the cache keys."""

    name: str

    def encode(self, texts: Sequence[str]) -> Array: ...


@dataclass(slots=True)
class DenseRanker:
    """Similarity of a query to texts, 0..1, from an `Encoder` (by default the installed MiniLM)."""

    encoder: Encoder
    keep: int = KEEP
    _vectors: OrderedDict[bytes, Array] = field(default_factory=OrderedDict)

    @classmethod
    def load(cls) -> DenseRanker:
        """With the installed model; `minilm.ModelMissing` says how to install it when it is absent."""
        from zerolang.experience.dense.minilm import MiniLM

        return cls(MiniLM.load())

    def _key(self, text: str) -> bytes:
        return hashlib.sha256(f"{self.encoder.name}\0{text}".encode()).digest()

    def vectors(self, texts: Sequence[str]) -> list[Array]:
        """Each text's vector: from the cache, or encoded now (each distinct text once)."""
        keys = [self._key(text) for text in texts]
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in self._vectors}
        if missing:
            for key, vector in zip(missing, self.encoder.encode(list(missing.values())), strict=True):
                self._vectors[key] = vector
        out = []
        for key in keys:
            self._vectors.move_to_end(key)
            out.append(self._vectors[key])
        while len(self._vectors) > self.keep:
            self._vectors.popitem(last=False)
        return out

    def similarity(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        import numpy as np

        wanted = self.vectors([query, *texts])
        cosines = np.stack(wanted[1:]) @ wanted[0]
        return [max(0.0, float(value)) for value in cosines]
