"""`zero archive`: one app of the document commands (`archive_cmd`) and the consent-aware
recall commands, `search`, `policy`, `compact` and `expand` (`archive_recall_cmd`).

Each module registers its commands on `archive_app` when imported; this one imports both.
"""

from __future__ import annotations

from zerolang.cli import archive_recall_cmd
from zerolang.cli.archive_cmd import archive_app

__all__ = ["archive_app", "archive_recall_cmd"]
