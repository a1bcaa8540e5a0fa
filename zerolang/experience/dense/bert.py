"""A BERT encoder's forward pass in numpy, from safetensors bytes: sentence vectors without torch.

`read_safetensors` reads the format (8-byte little-endian header length, a JSON header naming each
tensor's dtype, shape and byte range, then the raw little-endian arrays). `Bert` runs the encoder
as `transformers`' `BertModel` does in inference: word + position + token-type embeddings, layer
norm; then per layer self-attention (heads of `hidden / heads` dimensions, padding masked out),
output projection, residual and layer norm, a GELU feed-forward block, residual and layer norm.
`embed` mean-pools the last layer over the real tokens and scales each vector to length 1
(sentence-transformers' `Pooling(mean)` + `Normalize`): the dot product of two is their cosine.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import numpy.typing as npt

Array: TypeAlias = "npt.NDArray[Any]"

# erfc(z) = t exp(-z^2 + sum c_i t^i) with t = 1 / (1 + z/2), to within 1.2e-7 (Numerical Recipes)
ERFC_FIT = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)
DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}


def read_safetensors(data: bytes | memoryview) -> dict[str, Array]:
    """Every tensor of a safetensors file's bytes, as numpy arrays (views of `data`, read-only)."""
    import numpy as np

    view = memoryview(data)
    if len(view) < 8:
        raise ValueError("not a safetensors file: shorter than its header length")
    (size,) = struct.unpack("<Q", view[:8])
    if size > len(view) - 8:
        raise ValueError("not a safetensors file: the header runs past the end")
    header = json.loads(bytes(view[8 : 8 + size]))
    body = view[8 + size :]
    tensors: dict[str, Array] = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        dtype = DTYPES.get(spec["dtype"])
        if dtype is None:
            raise ValueError(f"{name}: unsupported dtype {spec['dtype']}")
        start, end = spec["data_offsets"]
        shape = tuple(spec["shape"])
        if not 0 <= start <= end <= len(body) or (end - start) != np.dtype(dtype).itemsize * math.prod(shape):
            raise ValueError(f"{name}: byte range does not match its shape")
        tensors[name] = np.frombuffer(body[start:end], dtype=dtype).reshape(shape)
    return tensors


@dataclass(frozen=True, slots=True)
class Layer:
    qkv: Array  # (hidden, 3 * hidden): query, key and value projections side by side
    qkv_bias: Array
    out: Array
    out_bias: Array
    norm1: tuple[Array, Array]
    up: Array
    up_bias: Array
    down: Array
    down_bias: Array
    norm2: tuple[Array, Array]


def _erf(x: Array) -> Array:
    """erf, to within 1.2e-7 everywhere (Numerical Recipes' erfc Chebyshev fit): numpy has none."""
    import numpy as np

    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = 0.0 * z
    for coefficient in reversed(ERFC_FIT):
        poly = coefficient + t * poly
    poly = poly - z * z
    erfc = t * np.exp(poly)
    out: Array = np.where(x >= 0, 1.0 - erfc, erfc - 1.0)
    return out


def gelu(x: Array) -> Array:
    """The exact GELU, x * Phi(x), as BERT's `gelu` activation."""
    out: Array = 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))
    return out


def layer_norm(x: Array, weight_bias: tuple[Array, Array], eps: float) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    out: Array = centred / (variance + eps) ** 0.5 * weight_bias[0] + weight_bias[1]
    return out


class Bert:
    """The encoder of a BERT checkpoint (`transformers` names), run in float32 numpy."""

    def __init__(self, tensors: Mapping[str, Array], heads: int, eps: float = 1e-12) -> None:
        import numpy as np

        def get(name: str) -> Array:
            return np.asarray(tensors[name], dtype=np.float32)

        def norm(prefix: str) -> tuple[Array, Array]:
            return get(f"{prefix}.LayerNorm.weight"), get(f"{prefix}.LayerNorm.bias")

        self.words = get("embeddings.word_embeddings.weight")
        self.positions = get("embeddings.position_embeddings.weight")
        self.token_type = get("embeddings.token_type_embeddings.weight")[0]
        self.norm = norm("embeddings")
        self.heads, self.eps = heads, eps
        self.hidden = self.words.shape[1]
        if self.hidden % heads:
            raise ValueError(f"{self.hidden} dimensions do not split into {heads} heads")
        self.layers: list[Layer] = []
        index = 0
        while f"encoder.layer.{index}.attention.self.query.weight" in tensors:
            p = f"encoder.layer.{index}"
            a = f"{p}.attention.self"
            self.layers.append(
                Layer(
                    qkv=np.ascontiguousarray(
                        np.concatenate([get(f"{a}.{n}.weight") for n in ("query", "key", "value")]).T
                    ),
                    qkv_bias=np.concatenate([get(f"{a}.{n}.bias") for n in ("query", "key", "value")]),
                    out=np.ascontiguousarray(get(f"{p}.attention.output.dense.weight").T),
                    out_bias=get(f"{p}.attention.output.dense.bias"),
                    norm1=norm(f"{p}.attention.output"),
                    up=np.ascontiguousarray(get(f"{p}.intermediate.dense.weight").T),
                    up_bias=get(f"{p}.intermediate.dense.bias"),
                    down=np.ascontiguousarray(get(f"{p}.output.dense.weight").T),
                    down_bias=get(f"{p}.output.dense.bias"),
                    norm2=norm(f"{p}.output"),
                )
            )
            index += 1
        if not self.layers:
            raise ValueError("no encoder layers in the checkpoint")

    @property
    def max_length(self) -> int:
        return int(self.positions.shape[0])

    def hidden_states(self, ids: Array, mask: Array) -> Array:
        """The last layer's states, (batch, length, hidden), for padded `ids` and their 0/1 `mask`."""
        import numpy as np

        batch, length = ids.shape
        x = self.words[ids] + self.positions[:length] + self.token_type
        x = layer_norm(x, self.norm, self.eps)
        size = self.hidden // self.heads
        # padding gets the most negative float32, as transformers' extended attention mask does
        blocked = (1.0 - mask[:, None, None, :].astype(np.float32)) * np.finfo(np.float32).min
        scale = np.float32(1.0 / math.sqrt(size))
        for layer in self.layers:
            qkv = x @ layer.qkv + layer.qkv_bias
            qkv = qkv.reshape(batch, length, 3, self.heads, size).transpose(2, 0, 3, 1, 4)
            query, key, value = qkv[0], qkv[1], qkv[2]
            scores = (query @ key.transpose(0, 1, 3, 2)) * scale + blocked
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ value).transpose(0, 2, 1, 3).reshape(batch, length, self.hidden)
            x = layer_norm(context @ layer.out + layer.out_bias + x, layer.norm1, self.eps)
            inner = gelu(x @ layer.up + layer.up_bias)
            x = layer_norm(inner @ layer.down + layer.down_bias + x, layer.norm2, self.eps)
        return x

    def embed(self, batches: Sequence[Sequence[int]]) -> Array:
        """One unit vector per token-id list: the mean of its last-layer states, normalised."""
        import numpy as np

        length = max(len(ids) for ids in batches)
        padded = np.zeros((len(batches), length), dtype=np.int64)
        mask = np.zeros((len(batches), length), dtype=np.float32)
        for row, ids in enumerate(batches):
            padded[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1.0
        states = self.hidden_states(padded, mask)
        pooled = (states * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        vectors: Array = (pooled / norms).astype(np.float32)
        return vectors
