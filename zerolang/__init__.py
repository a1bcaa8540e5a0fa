"""zerolang: a Python toolchain for the 0-lang graph language and 0-memory.

Importing the package is cheap; the parser, interpreter and memory modules
are imported where they are used.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
