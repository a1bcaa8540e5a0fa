"""zstd for the warm and cold tiers, imported only when a compressed copy is written or read.

`zstandard` is the optional extra `archive` (`python -m pip install ".[archive]"` in a clone). Without it the
hot tier works fully; writing or reading a compressed copy is a clear error, never a silent fallback.
"""

from __future__ import annotations

from typing import Any

from zerolang.util.errors import ZeroError

WARM_LEVEL = 3
COLD_LEVEL = 9  # with the bundle's dictionary: 19 saves ~15% more bytes at ~8x the time
MAX_DOCUMENT_BYTES = 1 << 30  # a frame claiming more than 1 GiB is treated as corrupt


class CodecError(ZeroError):
    """A compressed copy that does not decompress."""


def _zstd() -> Any:
    try:
        import zstandard
    except ImportError:
        from zerolang.util.extras import install_hint

        raise ZeroError(
            "the warm and cold tiers need the zstandard package: " + install_hint("archive")
        ) from None
    return zstandard


def compress(data: bytes, level: int = WARM_LEVEL, dictionary: bytes | None = None) -> bytes:
    """One zstd frame holding `data` (its size is written in the frame header)."""
    zstandard = _zstd()
    options: dict[str, Any] = {"level": level, "write_content_size": True}
    if dictionary:
        options["dict_data"] = zstandard.ZstdCompressionDict(dictionary)
    result: bytes = zstandard.ZstdCompressor(**options).compress(data)
    return result


def decompress(frame: bytes, dictionary: bytes | None = None) -> bytes:
    """The bytes of one zstd frame, or CodecError (never a partial result)."""
    zstandard = _zstd()
    try:
        options = {"dict_data": zstandard.ZstdCompressionDict(dictionary)} if dictionary else {}
        result: bytes = zstandard.ZstdDecompressor(**options).decompress(
            frame, max_output_size=MAX_DOCUMENT_BYTES
        )
    except zstandard.ZstdError as error:
        raise CodecError(f"not a valid zstd frame ({error})") from None
    return result


DICTIONARY_BYTES = 32 * 1024
MIN_SAMPLES = 16
MAX_SAMPLES = 2000  # training time grows with the samples; 2,000 spread over the bundle suffice


def train_dictionary(samples: list[bytes]) -> bytes | None:
    """A zstd dictionary trained on a cold bundle's documents, or None when there are too few.

    Small memory documents share most of their structure (member names, roles, common words),
    which a per-document frame cannot exploit; a dictionary stored once per bundle can.
    """
    if len(samples) < MIN_SAMPLES or sum(map(len, samples)) < 4 * DICTIONARY_BYTES:
        return None
    zstandard = _zstd()
    step = max(1, len(samples) // MAX_SAMPLES)
    try:
        trained: bytes = zstandard.train_dictionary(DICTIONARY_BYTES, samples[::step]).as_bytes()
    except zstandard.ZstdError:  # too little material to learn from: frames go without one
        return None
    return trained
