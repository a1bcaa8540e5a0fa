"""Where time goes along a code path: exclusive CPU time per named function, for the benches."""

from __future__ import annotations

import functools
import time
from collections import Counter
from typing import Any


class Meter:
    """Exclusive CPU time and calls per named cost, from wrappers around the functions."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()
        self._stack: list[int] = []

    def wrap(self, owner: Any, name: str, label: str) -> None:
        function = getattr(owner, name)  # a class's own or inherited method, a module's function
        stack, spent, clock = self._stack, self.spent, time.thread_time_ns

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            stack.append(0)
            began = clock()
            try:
                return function(*args, **kwargs)
            finally:
                took = clock() - began
                spent[label] += took - stack.pop()
                if stack:
                    stack[-1] += took

        setattr(owner, name, timed)
