"""The one way the client reaches a Mastra server: every request (streams, catalogue, chat and memory,
approvals, workflow cancels, runs) goes through a :class:`Transport`, which owns retries, auth, the
error messages (one format), redirects, bounds and keeping secrets out of what is shown.

Only this module imports httpx (a test walks the package to keep it so).

As ``@mastra/client-js`` does, a request is tried again (``retries`` times, waiting ``backoff_ms``, then
twice as long each time up to ``max_backoff_ms``) when the connection fails or the server answers
502, 503 or 504, and only then: once the answer's head has arrived nothing is sent again, so a retry
never starts a second run, and a stream that breaks after its first chunk keeps what came. A
``Retry-After`` the server sends with its 503 lengthens the wait (never beyond ``max_backoff_ms``).

One core, on the event loop (``send``, ``records``); ``call`` is the same request for a blocking
caller, run on the package's background loop (``runs/loops.py``). The retry loop is tenacity's.
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import functools
import ssl
import time
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Generator,
    Iterator,
    Mapping,
)
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import orjson
import tenacity

from ..core.framing import aiter_records
from ..core.values import hidden
from ..runs.loops import private_loop, run_nested, running_loop

T = TypeVar("T")

Timeout = httpx.Timeout  # what ``timeout=`` takes besides seconds (users need not import httpx)
InjectedTransport = (
    httpx.MockTransport
)  # injected under both clients (MastraClient(wire=...)): tests count requests
DEFAULT_TIMEOUT = httpx.Timeout(30.0, read=120.0)
ERROR_BODY_LIMIT = 64 * 1024  # an error's body is read only this far: an error page can be endless
MESSAGE_LIMIT = 500  # characters of a non-JSON error body kept in a message
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
_LOST = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)


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


NO_RETRY = Retry(0, 0, 0)


def _unavailable(response: httpx.Response) -> bool:
    return response.status_code in RETRY_STATUSES


def retry_after(response: httpx.Response, now: float | None = None) -> float | None:
    """The seconds a ``Retry-After`` header asks to wait (a number, or an HTTP date), else None."""
    given = response.headers.get("retry-after", "").strip()
    if not given:
        return None
    try:
        return max(0.0, float(given))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(given)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _wait(retry: Retry, state: tenacity.RetryCallState) -> float:
    """The wait before the next attempt: the backoff, or the server's ``Retry-After`` when longer,
    ``max_backoff_ms`` at most."""
    delays = retry.delays()
    if state.attempt_number > len(delays):  # tenacity asks before it stops: no more attempts
        return 0.0
    delay = delays[state.attempt_number - 1]
    outcome = state.outcome
    if outcome is not None and not outcome.failed:
        asked = retry_after(outcome.result())
        if asked is not None:
            delay = min(max(delay, asked), retry.max_backoff_ms / 1000)
    return delay


def blocking(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end for a blocking caller: on the package's background loop (a cell's
    own loop stays as it is), or nested when called on that loop's own thread. Interrupted, the
    work is cancelled."""
    loop = private_loop()
    if running_loop() is loop:
        task = asyncio.ensure_future(work)
        run_nested(task, None)
        return task.result()
    future = asyncio.run_coroutine_threadsafe(work, loop)
    try:
        return future.result()
    except KeyboardInterrupt:
        future.cancel()
        raise


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


class MastraError(RuntimeError):
    """A request to the Mastra server failed. ``str()`` is ``POST /api/... answered HTTP 404: <the
    server's message>`` or ``GET /api/...: cannot connect to ...``; ``problem`` is the part after the
    colon (what a view's banner shows: the view says which request it made), ``status_code`` the HTTP
    status if one came, ``lost`` the connection's own error when it broke during the answer."""

    def __init__(
        self, method: str, path: str, problem: str, status_code: int | None = None, lost: str | None = None
    ) -> None:
        self.method, self.path, self.problem = method, path, problem
        self.status_code, self.lost = status_code, lost
        answered = f" answered HTTP {status_code}" if status_code is not None else ""
        super().__init__(f"{method} {path}{answered}: {problem}")


def _reason(outcome: httpx.Response | BaseException | None) -> str:
    if isinstance(outcome, httpx.Response):
        return f"HTTP {outcome.status_code}"
    return type(outcome).__name__


def server_message(body: bytes, status: str) -> str:
    """The server's own message for an HTTP error (Mastra answers JSON ``{"error": ...}``, with
    ``issues`` for a bad body); else the body's first 500 characters, else ``status``."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        message = data.get("error") or data.get("message")
        if isinstance(message, dict):
            message = message.get("message")
        if message:
            issues = data.get("issues")
            if isinstance(issues, list) and issues:
                details = "; ".join(
                    f"{i.get('field', '?')}: {i.get('message', '')}" if isinstance(i, dict) else str(i)
                    for i in issues
                )
                return f"{message}: {details}"
            return str(message)
    text = body.decode("utf-8", "replace").strip()
    return text[:MESSAGE_LIMIT] or status


def without_credentials(url: str) -> tuple[str, httpx.BasicAuth | None]:
    """``url`` without its ``user:password@`` part, and that part as HTTP Basic auth (or None).

    Credentials never stay in a URL that could be shown: in a message, a repr or a saved view.
    """
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as error:  # its message names the fault, never the whole URL
        raise ValueError(f"not a valid Mastra base URL: {error}") from None
    if not parsed.userinfo:
        return url, None
    return str(parsed.copy_with(userinfo=b"")), httpx.BasicAuth(parsed.username, parsed.password)


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """One TLS context for every client: building one costs tens of milliseconds of the loop's time."""
    import certifi  # httpx's own CA bundle

    return ssl.create_default_context(cafile=certifi.where())


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

    def secret(self) -> str:
        """The token, for the transport to keep it out of messages."""
        return self._token

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


class Transport:
    """Every request of one :class:`~mastra_notebook.client.mastra.MastraClient` to its server.

    ``send`` sends one JSON request on the event loop, ``call`` the same for a blocking caller, ``records``
    streams an answer's records; each raises :class:`MastraError`, redirects are not followed (a
    POST body would not be resent), an error's body is read ``ERROR_BODY_LIMIT`` bytes at most, and
    the token, the URL's password and header values never appear in a message. ``sent`` counts the
    requests put on the wire (retries included).
    """

    def __init__(
        self,
        base_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        retry: Retry | None = None,
        wire: InjectedTransport | None = None,
    ) -> None:
        url, url_auth = without_credentials(base_url)
        self.base_url = url.rstrip("/")
        self.headers = dict(headers or {})
        self.auth = authorization(token, url_auth, self.headers)
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self.retry = retry or Retry()
        self.sent = 0
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # the waits between attempts
        self._wire = wire
        secrets = [value for value in self.headers.values() if len(value) >= 6]
        if isinstance(self.auth, BearerToken):
            secrets.append(self.auth.secret())
        elif url_auth is not None:
            given = httpx.URL(base_url)
            pair = f"{given.username}:{given.password}".encode()
            secrets += [
                given.password,
                given.userinfo.decode().partition(":")[2],
                base64.b64encode(pair).decode(),
            ]
        # longest first: a token that holds another secret is hidden whole
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __repr__(self) -> str:
        return f"Transport({self.base_url!r})"

    # ---- the public calls ---------------------------------------------------------------------------

    def call(
        self, method: str, path: str, *, params: Mapping[str, Any] | None = None, json: Any = None
    ) -> Any:
        """``send`` for a blocking caller (a cell, a script): the answer's JSON (None for an empty
        body). Raises MastraError."""
        return blocking(self.send(method, path, params=params, json=json))

    async def send(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        timeout: float | None = None,
        retry: Retry | None = None,
    ) -> Any:
        """One JSON request, retried, on the running event loop; the answer's JSON (None for an empty
        body), with its own ``timeout`` (seconds) and ``retry`` if given. Raises MastraError."""
        async with self._answer(
            method, path, params=params, json=json, timeout=timeout, retry=retry, attempts=Attempts()
        ) as response:
            return self._json(method, path, await response.aread())

    async def records(
        self, method: str, path: str, *, params: Mapping[str, Any] | None = None, json: Any = None
    ) -> AsyncGenerator[bytes, None]:
        """The answer's records, as they arrive (``core.framing`` splits them). A connection that
        breaks raises MastraError with ``lost`` set, whatever had arrived being already yielded."""
        attempts = Attempts()
        async with self._answer(method, path, params=params, json=json, attempts=attempts) as response:
            with self._failures(method, path, attempts):
                async for record in aiter_records(response.aiter_bytes()):
                    yield record

    # ---- how -------------------------------------------------------------------------------------

    def _options(self, timeout: httpx.Timeout) -> dict[str, Any]:
        return {
            "base_url": self.base_url,
            "headers": self.headers,
            "auth": self.auth,
            "timeout": timeout,
            "verify": _ssl_context(),
            "follow_redirects": False,
        }

    @asynccontextmanager
    async def _answer(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None,
        json: Any,
        timeout: float | None = None,
        retry: Retry | None = None,
        attempts: Attempts,
    ) -> AsyncIterator[httpx.Response]:
        """A successful answer, its head read; its body still to read (a client per request, on the
        loop it runs on: nothing is left open between a notebook's cells)."""
        limit = self.timeout if timeout is None else httpx.Timeout(timeout)
        with self._failures(method, path, attempts):
            async with httpx.AsyncClient(**self._options(limit), transport=self._wire) as http:
                request = http.build_request(method, path, params=params, json=json)
                response = await self._send(http, request, attempts, retry or self.retry)
                try:
                    self._check(method, path, response, attempts, await self._read_error(response))
                    yield response
                finally:
                    await response.aclose()

    async def _send(
        self, http: httpx.AsyncClient, request: httpx.Request, attempts: Attempts, retry: Retry
    ) -> httpx.Response:
        """The answer's head, tried again (tenacity) while the connection fails before an answer or
        the server answers 502, 503 or 504; the last outcome (an answer, or its error raised)."""

        async def attempt() -> httpx.Response:
            self.sent += 1
            attempts.count += 1
            return await http.send(request, stream=True)

        async def given_up(state: tenacity.RetryCallState) -> None:
            outcome = state.outcome
            assert outcome is not None
            if outcome.failed:
                attempts.reasons.append(_reason(outcome.exception()))
            else:
                attempts.reasons.append(_reason(outcome.result()))
                await outcome.result().aclose()

        retrying = tenacity.AsyncRetrying(
            retry=tenacity.retry_if_exception_type(RETRY_ERRORS) | tenacity.retry_if_result(_unavailable),
            stop=tenacity.stop_after_attempt(retry.retries + 1),
            wait=functools.partial(_wait, retry),
            before_sleep=given_up,
            sleep=self.sleep,
            retry_error_callback=lambda state: state.outcome.result() if state.outcome else None,
            reraise=True,
        )
        response: httpx.Response = await retrying(attempt)
        return response

    @staticmethod
    async def _read_error(response: httpx.Response) -> bytes:
        """An error's body, bounded; nothing of a success (its body is the caller's to read)."""
        body = bytearray()
        if response.is_success:
            return b""
        async for piece in response.aiter_bytes():
            body += piece
            if len(body) >= ERROR_BODY_LIMIT:
                break
        return bytes(body[:ERROR_BODY_LIMIT])

    def _check(
        self, method: str, path: str, response: httpx.Response, attempts: Attempts, body: bytes
    ) -> None:
        """Raise for a redirect or an HTTP error, in the one format."""
        status = f"HTTP {response.status_code} {response.reason_phrase}".strip()
        if 300 <= response.status_code < 400:
            location = response.headers.get("location")
            if not location:
                problem = f"the Mastra server answered {status}, a redirect without a Location"
            else:
                target, _ = without_credentials(str(response.url.join(location)))
                problem = f"the Mastra server answered {status}, a redirect to {target}"
                problem += " (not followed: check the base URL)"
            raise self._error(method, path, problem, response.status_code)
        if response.status_code >= 400:
            problem = server_message(body, status) + attempts.suffix()
            raise self._error(method, path, problem, response.status_code)

    @contextmanager
    def _failures(self, method: str, path: str, attempts: Attempts) -> Iterator[None]:
        """httpx's errors as MastraError: refused, timed out, or closed."""
        where = f"the Mastra server at {self.base_url}"
        try:
            yield
        except httpx.ConnectError as error:
            raise self._error(
                method, path, f"cannot connect to {where}{attempts.suffix()}: {error}"
            ) from None
        except httpx.TimeoutException as error:  # ReadTimeout, ConnectTimeout, ...
            raise self._error(
                method, path, f"{where} timed out ({type(error).__name__}){attempts.suffix()}"
            ) from None
        except _LOST as error:
            problem = f"{where} closed the connection{attempts.suffix()}: {error}"
            raise self._error(method, path, problem, lost=str(error)) from None
        except httpx.HTTPError as error:
            raise self._error(method, path, f"{type(error).__name__}: {error}") from None

    def _error(
        self, method: str, path: str, problem: str, status_code: int | None = None, lost: str | None = None
    ) -> MastraError:
        return MastraError(
            method,
            self.redact(path),
            self.redact(problem),
            status_code,
            None if lost is None else self.redact(lost),
        )

    def _json(self, method: str, path: str, body: bytes) -> Any:
        """A successful answer's JSON (None for an empty body)."""
        try:
            return orjson.loads(body) if body.strip() else None
        except orjson.JSONDecodeError:
            shown = body[:80].decode("utf-8", "replace")
            raise self._error(method, path, f"the answer is not JSON: {shown!r}") from None

    def redact(self, text: str) -> str:
        """``text`` with the token, the URL's password and every header value hidden."""
        return hidden(text, self._secrets)
