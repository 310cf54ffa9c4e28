"""A batch's budget (``max_cost_usd=``, ``max_tokens=``, ``max_seconds=``): what its ended runs spent,
and whether a limit is crossed. Crossing one stops the queued runs (a :class:`~.batch.Batch` asks
before each start); the running ones finish, and what they spend is counted too.

The cost is the runs' ``RunResult.cost`` (genai-prices, core/cost.py). A run whose cost is unknown is
not counted as $0: the budget says it cannot be checked for it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..core.cost import format_usd
from ..core.result import RunResult

Clock = Callable[[], float]


class Budget:
    """Limits on what a batch's runs spend in all: USD, tokens (their nested runs' included), and
    seconds since the first run started. ``spent(result)`` counts an ended run; ``crossed()`` says
    "stopped by max_cost_usd=0.05 at $0.0612" once a limit is reached (and stays so)."""

    def __init__(
        self,
        *,
        max_cost_usd: float | None = None,
        max_tokens: int | None = None,
        max_seconds: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        for name, limit in (("max_cost_usd", max_cost_usd), ("max_tokens", max_tokens),
                            ("max_seconds", max_seconds)):  # fmt: skip
            if limit is not None and (isinstance(limit, bool) or not limit > 0 or math.isinf(limit)):
                raise ValueError(f"{name} must be a positive number, not {limit!r}")
        self.max_cost_usd = max_cost_usd
        self.max_tokens = max_tokens
        self.max_seconds = max_seconds
        self.clock = clock
        self.cost_usd = 0.0  # of the runs with a known cost
        self.tokens = 0
        self.runs = 0  # ended runs counted
        self.unpriced = 0  # of them, those whose cost is unknown
        self.began: float | None = None  # when the first run started (max_seconds counts from there)
        self._crossed = ""

    @classmethod
    def of(
        cls,
        max_cost_usd: float | None = None,
        max_tokens: int | None = None,
        max_seconds: float | None = None,
        clock: Clock = time.monotonic,
    ) -> Budget | None:
        """A budget of the limits given; None when none is."""
        if max_cost_usd is None and max_tokens is None and max_seconds is None:
            return None
        return cls(max_cost_usd=max_cost_usd, max_tokens=max_tokens, max_seconds=max_seconds, clock=clock)

    def again(self) -> Budget:
        """The same limits, counted afresh (the runs a person chose to run again after it stopped them)."""
        return Budget(max_cost_usd=self.max_cost_usd, max_tokens=self.max_tokens,
                      max_seconds=self.max_seconds, clock=self.clock)  # fmt: skip

    def starting(self) -> None:
        """A run starts (the first one starts the clock of ``max_seconds``)."""
        if self.began is None:
            self.began = self.clock()

    def spent(self, result: RunResult) -> None:
        """An ended run's cost and tokens, counted; a limit it reaches is said at its figure (runs
        that end after it, before the queue next asks, are counted but move no figure said)."""
        self.runs += 1
        self.tokens += result.usage_with_nested.total_tokens
        if result.cost.total_usd is None:
            self.unpriced += 1
        else:
            self.cost_usd += result.cost.total_usd
        self.crossed()

    @property
    def seconds(self) -> float:
        """Seconds since the first run started (0 before)."""
        return 0.0 if self.began is None else self.clock() - self.began

    def crossed(self) -> str:
        """Which limit is reached and at what figure ("stopped by max_tokens=5000 at 5,124 tokens"),
        or "" while none is. Once reached, it stays so."""
        if not self._crossed:
            if self.max_cost_usd is not None and self.cost_usd >= self.max_cost_usd:
                self._crossed = (
                    f"stopped by max_cost_usd={self.max_cost_usd:g} at {format_usd(self.cost_usd)}"
                )
            elif self.max_tokens is not None and self.tokens >= self.max_tokens:
                self._crossed = f"stopped by max_tokens={self.max_tokens} at {self.tokens:,} tokens"
            elif self.max_seconds is not None and self.seconds >= self.max_seconds:
                self._crossed = f"stopped by max_seconds={self.max_seconds:g} at {self.seconds:.1f} s"
        return self._crossed

    def unchecked(self) -> str:
        """What ``max_cost_usd`` cannot count: "" when every counted run has a known cost."""
        if self.max_cost_usd is None or not self.unpriced:
            return ""
        runs = f"{self.unpriced} run{'s' * (self.unpriced != 1)}"
        return f"max_cost_usd cannot be checked for {runs} with unknown cost"

    def said(self) -> str:
        """The budget in a line: which limit stopped the runs and at what figure, or what is spent of
        each limit so far; and the runs whose cost is unknown."""
        crossed = self.crossed()
        parts = [crossed] if crossed else []
        if not crossed:
            if self.max_cost_usd is not None:
                parts.append(f"{format_usd(self.cost_usd)} of max_cost_usd={self.max_cost_usd:g}")
            if self.max_tokens is not None:
                parts.append(f"{self.tokens:,} of max_tokens={self.max_tokens} tokens")
            if self.max_seconds is not None:
                parts.append(f"{self.seconds:.1f} of max_seconds={self.max_seconds:g} s")
        unchecked = self.unchecked()
        return " · ".join([*parts, *([unchecked] if unchecked else [])])

    def __repr__(self) -> str:
        return f"<Budget: {self.said()}>"
