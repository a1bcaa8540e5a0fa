"""zstd for the warm and cold tiers, imported only when a compressed copy is written or read.

`zstandard` is the optional extra `archive` (`pip install 'zerolang[archive]'`). Without it the
hot tier works fully; writing or reading a compressed copy is a clear error, never a silent fallback.
"""

from __future__ import annotations

from typing import Any

from zerolang.errors import ZeroError

WARM_LEVEL = 3
COLD_LEVEL = 19
MAX_DOCUMENT_BYTES = 1 << 30  # a frame claiming more than 1 GiB is treated as corrupt


class CodecError(ZeroError):
    """A compressed copy that does not decompress."""


def _zstd() -> Any:
    try:
        import zstandard
    except ImportError:
        raise ZeroError(
            "the warm and cold tiers need the zstandard package: pip install 'zerolang[archive]'"
        ) from None
    return zstandard


def compress(data: bytes, level: int = WARM_LEVEL) -> bytes:
    """One zstd frame holding `data` (its size is written in the frame header)."""
    result: bytes = _zstd().ZstdCompressor(level=level, write_content_size=True).compress(data)
    return result


def decompress(frame: bytes) -> bytes:
    """The bytes of one zstd frame, or CodecError (never a partial result)."""
    zstandard = _zstd()
    try:
        result: bytes = zstandard.ZstdDecompressor().decompress(frame, max_output_size=MAX_DOCUMENT_BYTES)
    except zstandard.ZstdError as error:
        raise CodecError(f"not a valid zstd frame ({error})") from None
    return result
