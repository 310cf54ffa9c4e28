"""Pairwise verdicts (``exp.pairwise(a, b, judge=...)``): which of two variants answered an input
better, as a judge says, blinded. Each pair of answers is put to the judge in both orders (which order
first: a seeded coin); a judge that changes its mind when the order changes gives a tie. Reported:
per pair the verdict and both reasons; win, loss and tie counts, a win rate with its 95% interval,
and the judge's position bias (how often it chose the answer shown first). Pure functions over
outcomes and a judge: no widget, no HTTP (an agent judge is asked through its own client).

A judge is ``judge(input, first, second, *, expected=None)`` returning ``"first"``, ``"second"``,
``"tie"`` or a :class:`Verdict`; ``first`` and ``second`` are the two answers' texts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from .outcomes import Item, Outcome

Choice = Literal["first", "second", "tie"]
Judge = Callable[..., Any]


@dataclass(frozen=True)
class Verdict:
    """A judge's answer: ``first``, ``second`` or ``tie``, and why."""

    choice: Choice
    reason: str | None = None


def verdict_of(answer: Any) -> Verdict:
    """What a judge returned, as a Verdict (a string of the three, or a Verdict); a clear error else."""
    if isinstance(answer, Verdict):
        choice: Any = answer.choice
        reason = answer.reason
    elif isinstance(answer, dict):  # an agent's structured output
        choice, reason = answer.get("choice", answer.get("verdict")), answer.get("reason")
    else:
        choice, reason = answer, None
    if isinstance(choice, str) and choice.strip().lower() in ("first", "second", "tie"):
        return Verdict(choice.strip().lower(), reason)  # type: ignore[arg-type]
    raise ValueError(f"a judge answers 'first', 'second', 'tie' or a Verdict, not {answer!r}"[:300])


@dataclass(frozen=True)
class Judged:
    """One pair judged: input ``item``'s ``repeat`` of variants a and b; ``verdict`` (``a``, ``b`` or
    ``tie``) and each asking's choice (in the order a-first, then b-first) with its reason."""

    item: int
    repeat: int
    verdict: Literal["a", "b", "tie"]
    a_first: Verdict
    b_first: Verdict


def decided(a_first: Verdict, b_first: Verdict) -> Literal["a", "b", "tie"]:
    """The blinded verdict: the variant both askings chose, else a tie."""
    one = {"first": "a", "second": "b", "tie": "tie"}[a_first.choice]
    two = {"first": "b", "second": "a", "tie": "tie"}[b_first.choice]
    return one if one == two and one != "tie" else "tie"  # type: ignore[return-value]


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes`` in ``trials`` (scipy's ``binomtest``); NaN for
    no trials or without scipy."""
    if trials == 0:
        return math.nan, math.nan
    try:
        from scipy.stats import binomtest
    except ImportError:
        return math.nan, math.nan
    interval = binomtest(successes, trials).proportion_ci(0.95, method="wilson")
    return float(interval.low), float(interval.high)


@dataclass
class Pairwise:
    """``exp.pairwise(a, b, judge=...)``: ``judged`` pairs, ``wins`` (a won), ``losses`` (b won),
    ``ties``; ``win_rate`` of a over the decided pairs (ties left out) with its 95% Wilson interval
    (``ci_low``, ``ci_high``); ``position_bias``: the share of askings that chose an answer where it
    chose the one shown first (0.5 a fair judge; NaN when it always said tie)."""

    a: str
    b: str
    judged: list[Judged]
    items: Sequence[Item]

    @property
    def wins(self) -> int:
        """Pairs variant a won (both orders chose it)."""
        return sum(j.verdict == "a" for j in self.judged)

    @property
    def losses(self) -> int:
        """Pairs variant b won."""
        return sum(j.verdict == "b" for j in self.judged)

    @property
    def ties(self) -> int:
        """Pairs neither won: both orders said tie, or they disagreed."""
        return sum(j.verdict == "tie" for j in self.judged)

    @property
    def win_rate(self) -> float:
        """a's wins over the decided pairs (ties left out); NaN with none decided."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval."""
        return wilson(self.wins, self.wins + self.losses)

    @property
    def position_bias(self) -> float:
        """The share of askings that chose an answer where it chose the one shown first."""
        choices = [v.choice for j in self.judged for v in (j.a_first, j.b_first) if v.choice != "tie"]
        return sum(choice == "first" for choice in choices) / len(choices) if choices else math.nan

    def verdicts(self) -> dict[tuple[int, int], str]:
        """The verdicts by (input, repeat): ``a``, ``b`` or ``tie`` (for ``agreement``)."""
        return {(j.item, j.repeat): j.verdict for j in self.judged}

    def saved(self) -> dict[str, Any]:
        """As an experiment's folder keeps it (JSON): the pair and each judged pair with both
        askings' choices and reasons (:meth:`of_saved` reads it back)."""
        return {"a": self.a, "b": self.b, "judged": [asdict(judged) for judged in self.judged]}

    @classmethod
    def of_saved(cls, saved: Mapping[str, Any], items: Sequence[Item]) -> Pairwise:
        """A pair's verdicts as :meth:`saved` wrote them."""
        judged = [
            Judged(j["item"], j["repeat"], j["verdict"], Verdict(**j["a_first"]), Verdict(**j["b_first"]))
            for j in saved["judged"]
        ]
        return cls(str(saved["a"]), str(saved["b"]), judged, items)

    def counts(self) -> dict[str, Any]:
        """The pair's figures as a table's row."""
        low, high = self.interval
        return {"a": self.a, "b": self.b, "pairs": len(self.judged), "wins": self.wins,
                "losses": self.losses, "ties": self.ties, "win_rate": self.win_rate, "ci_low": low,
                "ci_high": high, "position_bias": self.position_bias}  # fmt: skip

    def to_dataframe(self) -> Any:
        """A row per pair: input, repeat, verdict (the winning variant's name or ``tie``), and each
        asking's choice and reason."""
        import pandas

        names = {"a": self.a, "b": self.b, "tie": "tie"}
        return pandas.DataFrame(
            [
                {
                    "input_index": j.item,
                    "input": self.items[j.item].input,
                    "repeat": j.repeat,
                    "verdict": names[j.verdict],
                    f"{self.a}_first": j.a_first.choice,
                    f"{self.a}_first_reason": j.a_first.reason,
                    f"{self.b}_first": j.b_first.choice,
                    f"{self.b}_first_reason": j.b_first.reason,
                }
                for j in self.judged
            ]
        )

    def _repr_html_(self) -> str:
        from html import escape

        low, high = self.interval
        rate = "—" if math.isnan(self.win_rate) else f"{self.win_rate:.0%} [{low:.0%}, {high:.0%}]"
        bias = "—" if math.isnan(self.position_bias) else f"{self.position_bias:.2f}"
        head = (f"<p>{escape(self.a)} vs {escape(self.b)}: {self.wins} wins, {self.losses} losses, "
                f"{self.ties} ties; win rate {rate}; position bias {bias}</p>")  # fmt: skip
        return head + str(self.to_dataframe().to_html())

    def __repr__(self) -> str:
        return (f"<Pairwise {self.a} vs {self.b}: {self.wins}-{self.losses}-{self.ties}, "
                f"position bias {self.position_bias:.2f}>")  # fmt: skip


def judged_pairs(
    outcomes: Sequence[Outcome], items: Sequence[Item], a: str, b: str, *, judge: Judge, seed: int = 0
) -> Pairwise:
    """Judge variant ``a`` against ``b`` on every input and repeat both ended their own way (see the
    module): a failed, stopped or never started run has no answer to judge."""
    known = {o.variant for o in outcomes}
    for name in (a, b):
        if name not in known:
            raise KeyError(f"no variant {name!r} (variants: {', '.join(sorted(known))})")
    if not callable(judge):
        raise TypeError(f"a judge is a function (input, first, second, *, expected=None), not {judge!r}")
    # answers to compare: runs that ended their own way (not failed, stopped or never started)
    ended = {(o.item, o.variant, o.repeat): o.result for o in outcomes if o.ended and o.failure is None}
    coin = random.Random(seed)
    judged = []
    for item, repeat in sorted({(i, r) for i, v, r in ended if v == a and (i, b, r) in ended}):
        text_a, text_b = ended[item, a, repeat].text, ended[item, b, repeat].text
        given = items[item]

        def ask(first: str, second: str, given: Item = given) -> Verdict:
            return verdict_of(judge(given.input, first, second, expected=given.expected))

        if coin.random() < 0.5:
            a_first = ask(text_a, text_b)
            b_first = ask(text_b, text_a)
        else:
            b_first = ask(text_b, text_a)
            a_first = ask(text_a, text_b)
        judged.append(Judged(item, repeat, decided(a_first, b_first), a_first, b_first))
    return Pairwise(a, b, judged, items)


JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "choice": {"type": "string", "enum": ["first", "second", "tie"]},
        "reason": {"type": "string"},
    },
    "required": ["choice", "reason"],
}


def judge_prompt(input: Any, first: str, second: str, expected: Any = None) -> str:
    """What an agent judge is asked: the input, the expected answer when known, both answers."""
    told = "" if expected is None else f"\nThe expected answer: {expected}\n"
    return (
        "Which answer is better for this input? Answer with first, second or tie, and why.\n\n"
        f"The input: {input}\n{told}\nThe first answer:\n{first}\n\nThe second answer:\n{second}\n"
    )


def agent_judge(agent: Any) -> Judge:
    """A judge that asks a Mastra agent (a client's ``client.agent(id)``) with both answers, its
    verdict read from its structured output (:data:`JUDGE_SCHEMA`: ``choice`` and ``reason``)."""

    def judge(input: Any, first: str, second: str, *, expected: Any = None) -> Verdict:
        prompt = judge_prompt(input, first, second, expected)
        result = agent.stream(prompt, structured_output={"schema": JUDGE_SCHEMA}, view=False).wait()
        if result.status != "finished":
            raise RuntimeError(
                f"the judge agent {getattr(agent, 'id', agent)!r} ended {result.status}: {result.error}"
            )
        return verdict_of(result.object)

    return judge


def as_judge(judge: Any, agents: Callable[[str], Any] | None = None) -> Judge:
    """A judge as given: a function; an agent (anything with ``stream``, as ``client.agent(id)``);
    or an agent's id, asked through ``agents`` (the client the experiment ran on)."""
    if isinstance(judge, str):
        if agents is None:
            raise ValueError(
                f"judge={judge!r} names an agent, and this experiment has no client to ask it through "
                "(it was loaded from a folder): pass judge=client.agent(...) or a Python function"
            )
        return agent_judge(agents(judge))
    if callable(getattr(judge, "stream", None)):
        return agent_judge(judge)
    if callable(judge):
        return judge  # type: ignore[no-any-return]
    raise TypeError(
        f"a judge is a function (input, first, second, *, expected=None) or an agent, not {judge!r}"
    )
