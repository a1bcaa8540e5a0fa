"""`zero memory`: one app of the store commands (`memory_cmd`), recorded forgetting
(`memory_forget_cmd`) and signed transfer between agents (`memory_transfer_cmd`).

Each module registers its commands on `memory_app` when imported; this one imports all three.
"""

from __future__ import annotations

from zerolang.cli import memory_forget_cmd, memory_transfer_cmd
from zerolang.cli.memory_cmd import memory_app

__all__ = ["memory_app", "memory_forget_cmd", "memory_transfer_cmd"]
