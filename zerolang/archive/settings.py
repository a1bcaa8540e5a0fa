"""The memory keys of `[tool.zero]`, as the archive reads them: they live with every other setting in
`zerolang.util.config` (the one home of settings); this module only names them for the archive's
callers."""

from __future__ import annotations

from zerolang.util.config import (
    COMPACTION_MODES,
    POSITIONAL_PROVIDERS,
    MemorySettings,
    default_archive_root,
    load_memory_settings,
    memory_settings_for,
    parse_memory_settings,
)

__all__ = [
    "COMPACTION_MODES",
    "POSITIONAL_PROVIDERS",
    "MemorySettings",
    "default_archive_root",
    "load_memory_settings",
    "memory_settings_for",
    "parse_memory_settings",
]
