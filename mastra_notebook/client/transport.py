"""How the client reaches a Mastra server: retries with backoff, and a bearer token kept out of sight.

As ``@mastra/client-js`` does, a request is tried again (``retries`` times, waiting ``backoff_ms``, then
twice as long each time up to ``max_backoff_ms``) when the connection fails or the server answers
502, 503 or 504, and only then: once the answer's head has arrived nothing is sent again, so a retry
never starts a second run, and a stream that breaks after its first chunk keeps what came.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Generator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

RETRY_STATUSES = frozenset({502, 503, 504})  # a gateway or an overloaded server: nothing ran
# Failures before any answer: refused, reset or closed before a response head. A read timeout is not
# among them: the server may be running the request.
RETRY_ERRORS = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.PoolTimeout,
    httpx.RemoteProtocolError,
    httpx.ReadError,
    httpx.WriteError,
)


@dataclass(frozen=True)
class Retry:
    """``retries`` more attempts after the first, ``backoff_ms`` before the first retry, doubling up to
    ``max_backoff_ms`` (client-js's ``retries``, ``backoffMs``, ``maxBackoffMs``)."""

    retries: int = 3
    backoff_ms: float = 300
    max_backoff_ms: float = 5000

    def __post_init__(self) -> None:
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise ValueError(f"retries must be a whole number, 0 or more (got {self.retries!r})")
        if self.backoff_ms < 0 or self.max_backoff_ms < 0:
            raise ValueError("backoff_ms and max_backoff_ms must be 0 or more")

    def delays(self) -> list[float]:
        """The waits, in seconds, before each retry."""
        return [min(self.backoff_ms * 2**n, self.max_backoff_ms) / 1000 for n in range(self.retries)]


@dataclass
class Attempts:
    """How many times a request was sent, and why the earlier ones were given up (for messages)."""

    count: int = 0
    reasons: list[str] = field(default_factory=list)

    def suffix(self) -> str:
        """`` after 3 attempts (HTTP 503, HTTP 503)`` when it was retried, else nothing."""
        if self.count <= 1:
            return ""
        return f" after {self.count} attempts ({', '.join(self.reasons)})"


def _reason(outcome: httpx.Response | Exception) -> str:
    if isinstance(outcome, httpx.Response):
        return f"HTTP {outcome.status_code}"
    return type(outcome).__name__


@asynccontextmanager
async def stream(
    http: httpx.AsyncClient,
    method: str,
    path: str,
    retry: Retry,
    attempts: Attempts | None = None,
    **request: Any,
) -> AsyncIterator[httpx.Response]:
    """``http.stream(method, path, **request)`` with retries before the answer's head; the last
    failure is raised, or the last 502/503/504 answer given, when the retries are used up."""
    attempts = attempts if attempts is not None else Attempts()
    delays = retry.delays()
    while True:
        attempts.count += 1
        try:
            response = await http.send(http.build_request(method, path, **request), stream=True)
        except RETRY_ERRORS as error:
            if attempts.count > len(delays):
                raise
            attempts.reasons.append(_reason(error))
        else:
            if response.status_code not in RETRY_STATUSES or attempts.count > len(delays):
                break
            attempts.reasons.append(_reason(response))
            await response.aclose()
        await asyncio.sleep(delays[attempts.count - 1])
    try:
        yield response
    finally:
        await response.aclose()


def get(http: httpx.Client, path: str, retry: Retry, **request: Any) -> httpx.Response:
    """A synchronous ``http.get`` with the same retries (listing agents, workflows, runs)."""
    delays = retry.delays()
    attempt = 0
    while True:
        try:
            response = http.get(path, **request)
        except RETRY_ERRORS:
            if attempt >= len(delays):
                raise
        else:
            if response.status_code not in RETRY_STATUSES or attempt >= len(delays):
                return response
        time.sleep(delays[attempt])
        attempt += 1


class BearerToken(httpx.Auth):
    """``Authorization: Bearer <token>`` on every request; the token is never in a repr."""

    def __init__(self, token: str) -> None:
        if not isinstance(token, str) or not token.strip():
            raise ValueError("token must be a non-empty string")
        self._token = token

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Send the request with the token in its ``Authorization`` header."""
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request

    def __repr__(self) -> str:
        return "BearerToken(<hidden>)"


def authorization(
    token: str | None, url_auth: httpx.Auth | None, headers: Mapping[str, str]
) -> httpx.Auth | None:
    """The one way the client signs in: a bearer ``token``, the URL's ``user:password@``, or an
    ``Authorization`` header; two of them at once is a mistake worth a clear message."""
    if token is None:
        return url_auth
    if url_auth is not None:
        raise ValueError("give either token= or credentials in the base URL, not both")
    if any(name.lower() == "authorization" for name in headers):
        raise ValueError("give either token= or an Authorization header, not both")
    return BearerToken(token)
