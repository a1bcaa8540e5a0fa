"""Dense recall: the tokenizer (always), the numpy encoder on a tiny made-up checkpoint (with numpy),
and the real all-MiniLM-L6-v2 (with the model package installed); each skips saying what is missing."""

from __future__ import annotations

import importlib.util
import json
import struct
from typing import Any

import pytest

from zerolang.experience.dense.minilm import INSTALL, available
from zerolang.experience.dense.wordpiece import WordPiece, normalise, split_words

HAS_NUMPY = importlib.util.find_spec("numpy") is not None
needs_numpy = pytest.mark.skipif(not HAS_NUMPY, reason="numpy is not installed (the `dense` extra)")
needs_model = pytest.mark.skipif(not available(), reason=f"the dense model is not installed: {INSTALL}")

VOCAB = {
    piece: index
    for index, piece in enumerate(
        [
            "[PAD]",
            "[UNK]",
            "[CLS]",
            "[SEP]",
            "i",
            "went",
            "hik",
            "##ing",
            "with",
            "my",
            "dog",
            ",",
            "!",
            "cafe",
        ]
    )
}


def test_normalise_cleans_strips_accents_and_lowers() -> None:
    assert normalise("Héllo\tWÖRLD\x00\u200b") == "hello world"
    assert normalise("東京") == " 東  京 "


def test_split_words_makes_each_punctuation_a_word() -> None:
    assert split_words("it's $5.99 (cheap)") == ["it", "'", "s", "$", "5", ".", "99", "(", "cheap", ")"]


def test_wordpiece_longest_match_unknown_and_limit() -> None:
    pieces = WordPiece(VOCAB)
    assert pieces.encode("I went hiking, Café!", 64) == [2, 4, 5, 6, 7, 11, 13, 12, 3]
    assert pieces.encode("hikx dog", 64) == [2, 1, 10, 3]  # no piece for "x": the whole word is [UNK]
    assert pieces.encode("dog " * 10, 4) == [2, 10, 10, 3]


def _safetensors(tensors: dict[str, Any]) -> bytes:
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    body = b""
    for name, array in tensors.items():
        raw = array.astype("<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(array.shape),
            "data_offsets": [len(body), len(body) + len(raw)],
        }
        body += raw
    head = json.dumps(header).encode()
    return struct.pack("<Q", len(head)) + head + body


def _tiny_checkpoint(hidden: int = 8, layers: int = 2) -> dict[str, Any]:
    import numpy as np

    rng = np.random.default_rng(7)

    def r(*shape: int) -> Any:
        return rng.normal(0, 0.3, shape).astype(np.float32)

    out = {
        "embeddings.word_embeddings.weight": r(len(VOCAB), hidden),
        "embeddings.position_embeddings.weight": r(16, hidden),
        "embeddings.token_type_embeddings.weight": r(2, hidden),
        "embeddings.LayerNorm.weight": 1 + r(hidden),
        "embeddings.LayerNorm.bias": r(hidden),
    }
    for i in range(layers):
        p = f"encoder.layer.{i}"
        for name in ("query", "key", "value"):
            out[f"{p}.attention.self.{name}.weight"] = r(hidden, hidden)
            out[f"{p}.attention.self.{name}.bias"] = r(hidden)
        out[f"{p}.attention.output.dense.weight"] = r(hidden, hidden)
        out[f"{p}.attention.output.dense.bias"] = r(hidden)
        out[f"{p}.intermediate.dense.weight"] = r(4 * hidden, hidden)
        out[f"{p}.intermediate.dense.bias"] = r(4 * hidden)
        out[f"{p}.output.dense.weight"] = r(hidden, 4 * hidden)
        out[f"{p}.output.dense.bias"] = r(hidden)
        for block in ("attention.output", "output"):
            out[f"{p}.{block}.LayerNorm.weight"] = 1 + r(hidden)
            out[f"{p}.{block}.LayerNorm.bias"] = r(hidden)
    return out


@needs_numpy
def test_safetensors_round_trip_and_bad_headers() -> None:
    import numpy as np

    from zerolang.experience.dense.bert import read_safetensors

    tensors = _tiny_checkpoint()
    data = _safetensors(tensors)
    read = read_safetensors(data)
    assert set(read) == set(tensors)
    assert all(np.array_equal(read[name], tensors[name]) for name in tensors)
    with pytest.raises(ValueError, match="header"):
        read_safetensors(struct.pack("<Q", 10**6) + b"{}")
    bad = json.dumps({"x": {"dtype": "F32", "shape": [4], "data_offsets": [0, 8]}}).encode()
    with pytest.raises(ValueError, match="shape"):
        read_safetensors(struct.pack("<Q", len(bad)) + bad + b"\0" * 8)


@needs_numpy
def test_gelu_matches_the_error_function() -> None:
    import math

    import numpy as np

    from zerolang.experience.dense.bert import gelu

    xs = np.linspace(-6, 6, 241)
    exact = np.array([0.5 * x * (1 + math.erf(x / math.sqrt(2))) for x in xs])
    assert np.abs(gelu(xs) - exact).max() < 1e-6


@needs_numpy
def test_encoder_vectors_are_unit_length_and_padding_changes_nothing() -> None:
    import numpy as np

    from zerolang.experience.dense.bert import Bert

    bert = Bert(_tiny_checkpoint(), heads=2)
    short, long = [2, 10, 3], [2, 4, 5, 6, 7, 8, 9, 10, 3]
    alone = bert.embed([short])
    padded = bert.embed([short, long])
    assert np.allclose(np.linalg.norm(padded, axis=1), 1.0, atol=1e-5)
    assert np.allclose(alone[0], padded[0], atol=1e-5)  # the mask hides the padding
    assert not np.allclose(padded[0], padded[1], atol=1e-2)


@needs_model
def test_minilm_matches_reference_vectors_and_orders_by_meaning() -> None:
    import numpy as np

    from zerolang.experience.dense.minilm import MiniLM

    model = MiniLM.load()
    texts = [
        "I went hiking with my dog last Saturday.",
        "I took my puppy for a walk in the mountains on the weekend.",
        "The weather is lovely today",
    ]
    vectors = model.encode(texts)
    # the first values of sentence-transformers' vector for texts[0] (computed once with torch)
    reference = [0.0381, -0.03352, 0.10109, 0.10449, 0.00913, -0.04222, 0.01518, -0.01932]
    assert np.allclose(vectors[0][:8], reference, atol=1e-4)
    similarity = vectors @ vectors.T
    assert similarity[0, 1] > 0.7 > 0.3 > similarity[0, 2]


class Letters:
    """A stand-in encoder: a text's vector counts its letters a, b and c (normalised)."""

    name = "letters"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: list[str]) -> Any:
        import numpy as np

        self.seen.extend(texts)
        rows = np.array([[t.count(c) + 1e-9 for c in "abc"] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@needs_numpy
def test_dense_ranker_embeds_each_text_once_and_floors_at_zero() -> None:
    from zerolang.experience.dense.ranker import DenseRanker

    encoder = Letters()
    ranker = DenseRanker(encoder, keep=4)
    similar = ranker.similarity("aa", ["a", "ab", "bb", "a"])
    assert similar[0] == pytest.approx(1.0) and similar[3] == pytest.approx(1.0)
    assert similar[0] > similar[1] > similar[2] >= 0.0
    assert encoder.seen == ["aa", "a", "ab", "bb"]  # "a" twice, embedded once
    ranker.similarity("aa", ["a"])
    assert encoder.seen == ["aa", "a", "ab", "bb"]  # cached
    assert ranker.similarity("c", ["cc"]) == [pytest.approx(1.0)]
    assert len(ranker._vectors) == 4  # no more than `keep`: the least recently used went
    assert ranker.similarity("aa", []) == []


@needs_numpy
def test_recall_with_the_dense_ranker_says_similar_meaning() -> None:
    from zerolang.experience.dense.ranker import DenseRanker
    from zerolang.experience.recall import RecallWeights, recall

    from .test_recall import fixture_store

    store = fixture_store()
    ranker = DenseRanker(Letters())
    hits = recall(store, "reading list", limit=3, ranker=ranker)
    assert any("similar meaning" in hit.reasons for hit in hits)
    off = recall(store, "reading list", limit=3, ranker=ranker, weights=RecallWeights(dense=0.0))
    assert off == recall(store, "reading list", limit=3)
