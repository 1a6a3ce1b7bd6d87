"""The one HTTP client behind every remote request: credentials, TLS, time limits, retries,
redirects, and messages that never show a secret.

``kg query --endpoint`` and ``kg load`` both go through ``Client.request``: connection errors,
timeouts and 429/5xx answers are retried with exponential backoff within the time allowed; a
redirect is followed only to the same host and port (never downgrading https to http) and only
when it keeps the request's method; credentials go nowhere else. Errors:

    StoreError                the store refused or failed this request
    └── StoreUnavailable      no request can succeed: stop
        ├── AccessRefused     HTTP 401/403: credentials missing or refused
        ├── RedirectRefused   a redirect that was not followed (another host, a method change)
        └── StoreTimeout      no answer within the time allowed

>>> split_userinfo("https://ann:s3cret@db.example.org/sparql")
('https://db.example.org/sparql', Credentials(user='ann', scheme=None))
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlsplit, urlunsplit

import httpx

from kg.errors import InputError, StoreError
from kg.limits import ReadRefused, read_text_file

__all__ = [
    "AccessRefused", "Client", "Connection", "Credentials", "MissingCredentials",
    "RedirectRefused", "StoreTimeout",
    "StoreUnavailable", "credentials", "read_password_file", "split_userinfo",
]

AuthScheme = Literal["basic", "digest"]
#: Answers worth asking again: the store is busy, restarting or behind a failing proxy.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_REDIRECTS = 5
#: A password file is a line; anything longer is not one (``--password-file /dev/zero``).
MAX_PASSWORD_FILE_BYTES = 64 * 1024
#: Virtuoso refuses a query its optimiser estimates above MaxQueryCostEstimationTime (400 s in
#: Debian's virtuoso.ini); the estimate can be days for a query that runs in seconds.
ESTIMATE_REFUSAL = "The estimated execution time"
ESTIMATE_HINT = ("; Virtuoso refused the query on its optimiser's estimate, which is often far "
                 "off: OpenLink advise commenting out MaxQueryCostEstimationTime in the [SPARQL] "
                 "section of virtuoso.ini")


class MissingCredentials(InputError):
    """Half the credentials: a user without a password, or a scheme without either."""


class StoreUnavailable(StoreError):
    """The store cannot be used at all (unreachable, credentials refused): stop."""


class AccessRefused(StoreUnavailable):
    """The store answered 401 or 403: credentials are missing, wrong or not allowed to write."""


class RedirectRefused(StoreUnavailable):
    """The store redirected somewhere kg does not follow (another host, or a method change)."""


class StoreTimeout(StoreUnavailable):
    """The store did not answer within the time allowed."""


@dataclass(frozen=True, slots=True)
class Credentials:
    """User and password for HTTP Basic or Digest auth; the password never shows in a repr.

    >>> Credentials("dba", "s3cret", "digest")
    Credentials(user='dba', scheme='digest')
    """

    user: str
    password: str = field(repr=False)
    scheme: AuthScheme | None = None  # None: the store's default (Digest for Virtuoso)

    def httpx_auth(self, default: AuthScheme) -> httpx.Auth:
        if (self.scheme or default) == "digest":
            return httpx.DigestAuth(self.user, self.password)
        return httpx.BasicAuth(self.user, self.password)


def credentials(user: str | None, password: str | None,
                scheme: str | None = None) -> Credentials | None:
    """Credentials from a user, a password and a scheme; ``None`` when there are none.

    >>> credentials("dba", "dba", "digest")
    Credentials(user='dba', scheme='digest')
    """
    if scheme not in (None, "basic", "digest"):
        raise InputError(f"unknown auth scheme {scheme!r}; use basic or digest")
    if user is None and password is None:
        if scheme:
            raise MissingCredentials("an auth scheme needs a user and a password")
        return None
    if user is None or password is None:
        raise MissingCredentials("give both a user and a password")
    return Credentials(user, password, scheme)  # type: ignore[arg-type]


def read_password_file(path: str | Path) -> str:
    """The first line of ``path`` (a secret file, as Docker and systemd provide them, or a
    pipe such as ``<(pass show store)``), read within ``kg.limits``' bounds.

    >>> read_password_file("/run/secrets/store")  # doctest: +SKIP
    's3cret'
    """
    try:
        text = read_text_file(path, MAX_PASSWORD_FILE_BYTES, what=f"password file {path}",
                              encoding="utf-8")
    except ReadRefused as e:
        raise InputError(f"cannot read {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read password file {path}: "
                         f"{getattr(e, 'strerror', None) or e}") from None
    lines = text.splitlines()
    if not lines or not lines[0]:
        raise InputError(f"password file {path} is empty (its first line is the password)")
    return lines[0]


def _port(url: httpx.URL) -> int:
    return url.port or (443 if url.scheme == "https" else 80)


def split_userinfo(url: str) -> tuple[str, Credentials | None]:
    """Take ``user:password@`` out of a URL, so that it never reaches a message.

    >>> split_userinfo("http://dba:dba@127.0.0.1:8890")
    ('http://127.0.0.1:8890', Credentials(user='dba', scheme=None))
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise InputError("endpoint is not a valid URL (bad port or brackets)") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("endpoint must be an http:// or https:// URL with a host")
    if parts.username is None and "@" not in parts.netloc:
        return url, None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    clean = urlunsplit(parts._replace(netloc=host + (f":{port}" if port else "")))
    return clean, Credentials(unquote(parts.username or ""), unquote(parts.password or ""))


def without_userinfo(url: str | httpx.URL) -> str:
    """``url`` fit for a message: no ``user:password@``."""
    parsed = httpx.URL(str(url))
    return str(parsed.copy_with(userinfo=b"")) if parsed.userinfo else str(parsed)


@dataclass(frozen=True, slots=True)
class Connection:
    """How to reach a store: credentials, TLS, time limits and retries.

    ``timeout`` bounds each request; ``deadline`` (if given) everything one ``Client`` sends,
    attempts and backoff included. ``ca_cert`` is a PEM file of certificates to trust.

    >>> Connection(timeout=30.0, deadline=30.0).retries
    3
    """

    credentials: Credentials | None = None
    verify: bool = True
    ca_cert: Path | None = None
    timeout: float = 60.0
    deadline: float | None = None
    retries: int = 3
    backoff: float = 0.5

    def __post_init__(self) -> None:
        if self.timeout <= 0 or (self.deadline is not None and self.deadline <= 0):
            raise InputError("timeouts must be positive")
        if self.retries < 0:
            raise InputError("retries must be zero or more")

    def tls(self) -> bool | ssl.SSLContext:
        if not self.verify:
            return False
        if self.ca_cert is None:
            return True
        try:
            return ssl.create_default_context(cafile=str(self.ca_cert))
        except (OSError, ssl.SSLError) as e:
            raise InputError(f"cannot use CA certificate file {self.ca_cert}: "
                             f"{getattr(e, 'strerror', None) or e}") from None


class Client:
    """An ``httpx.Client`` with kg's rules: retries, safe redirects, deadlines, redaction.

    >>> with Client(Connection(retries=0)) as client:  # doctest: +SKIP
    ...     client.request("GET", "http://127.0.0.1:7878/query?query=ASK{}", "the query")
    <Response [200 OK]>
    """

    def __init__(self, connection: Connection, *, default_auth: AuthScheme = "basic",
                 transport: httpx.BaseTransport | None = None,
                 http: httpx.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.connection = connection
        self.sleep = sleep
        secret = connection.credentials.password if connection.credentials else ""
        self._secret = secret
        self._owned = http is None
        # One deadline for everything this client sends (a question and its probes).
        limit = connection.deadline
        self._ends = None if limit is None else time.monotonic() + limit
        auth = connection.credentials.httpx_auth(default_auth) if connection.credentials \
            else None
        self.http = http or httpx.Client(auth=auth, verify=connection.tls(),
                                         timeout=connection.timeout, transport=transport,
                                         follow_redirects=False)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self.http.close()

    def __repr__(self) -> str:
        user = self.connection.credentials.user if self.connection.credentials else None
        return f"Client(user={user!r})"

    def redact(self, text: str) -> str:
        """``text`` with the password (should a server echo it) replaced by ``***``."""
        return text.replace(self._secret, "***") if self._secret else text

    def request(self, method: str, url: str, subject: str, **kwargs: Any) -> httpx.Response:
        """Send one request, retried and redirected by kg's rules; any answer below 500.

        401/403 raise ``AccessRefused``; a redirect not followed ``RedirectRefused``; what
        still fails after the retries raises ``StoreUnavailable`` (or ``StoreError`` for a
        persistent 500: the store is up and refuses this ``subject``, e.g. ``graph <g>``).
        """
        ends = self._ends
        problem, status = "", 0
        tries = self.connection.retries + 1
        for attempt in range(tries):
            if attempt:
                pause = min(self.connection.backoff * 2 ** (attempt - 1), 30.0)
                if ends is not None and time.monotonic() + pause >= ends:
                    break
                self.sleep(pause)
            try:
                response = self._send(method, url, ends, kwargs)
            except httpx.TimeoutException as e:
                problem, status = f"no answer in time ({type(e).__name__})", 0
                if ends is not None and time.monotonic() >= ends:
                    break
                continue
            except httpx.TransportError as e:
                problem, status = (f"{type(e).__name__}: {e}" if str(e) else type(e).__name__), 0
                continue
            if response.status_code not in RETRY_STATUSES:
                return self._accepted(response, url)
            status = response.status_code
            problem = f"HTTP {status}: {server_message(response)}"
            if ESTIMATE_REFUSAL in problem:  # the same estimate next time: not worth asking
                problem += ESTIMATE_HINT
                break
        raise self._failure(url, subject, attempt + 1, problem, status, ends is not None
                            and time.monotonic() >= ends - 0.05)

    def _send(self, method: str, url: str, ends: float | None,
              kwargs: dict[str, Any]) -> httpx.Response:
        timeout = self.connection.timeout
        if ends is not None:
            timeout = max(0.05, min(timeout, ends - time.monotonic()))
        target, options = url, dict(kwargs)
        for _hop in range(MAX_REDIRECTS + 1):
            response = self.http.request(method, target, timeout=timeout, **options)
            if not 300 <= response.status_code < 400:
                return response
            target = self._redirect_target(response, method, url)
            options.pop("params", None)  # the new location carries its own query string
        raise RedirectRefused(f"{url} redirected more than {MAX_REDIRECTS} times")

    def _redirect_target(self, response: httpx.Response, method: str, url: str) -> str:
        status = response.status_code
        location = response.headers.get("Location")
        if not location:
            raise RedirectRefused(f"{url} answered HTTP {status} without saying where to go")
        source, target = response.request.url, response.request.url.join(location)
        shown = without_userinfo(target)
        if target.host.lower() != source.host.lower():
            why = "another host; credentials and data are not sent there"
        elif source.scheme == "https" and target.scheme != "https":
            why = "from https to plain http"
        elif _port(target) != _port(source):
            why = "another port, so another server; credentials and data are not sent there"
        elif status not in (307, 308) and method not in ("GET", "HEAD"):
            why = f"HTTP {status} would turn the {method} into a GET"
        else:
            return str(target)
        raise RedirectRefused(f"{url} redirects (HTTP {status}) to {shown}, which kg does not "
                              f"follow ({why}); use that URL if it is the store")

    def _accepted(self, response: httpx.Response, url: str) -> httpx.Response:
        status = response.status_code
        if status in (401, 403):
            asks = response.headers.get("WWW-Authenticate", "").split(" ", 1)[0]
            wants = f"; it asks for {asks} auth" if asks else ""
            sent = "the credentials given" if self.connection.credentials else "no credentials"
            raise AccessRefused(f"{url} refused access (HTTP {status}){wants} with {sent}")
        return response

    def _failure(self, url: str, subject: str, tries: int, problem: str, status: int,
                 out_of_time: bool) -> StoreError:
        problem = self.redact(problem)
        attempts = f"{tries} attempt{'s' if tries > 1 else ''}"
        if out_of_time:
            return StoreTimeout(f"{url} did not answer {subject} within "
                                f"{self.connection.deadline:g} s ({attempts}; {problem})")
        if status == 500:
            return StoreError(f"{url} failed on {subject} after {attempts} ({problem})")
        return StoreUnavailable(f"{url} failed after {attempts} ({problem}); cannot use the "
                                "store")


def server_message(response: httpx.Response) -> str:
    """The server's own words (without markup if it sent HTML), cut to a readable length."""
    import re

    text = response.text
    html = text.lstrip()[:9].lower().startswith(("<!doctype", "<html"))
    if html or "html" in response.headers.get("Content-Type", ""):
        text = re.sub(r"<[^>]+>", " ", text)
    text = " ".join(text.split())
    return text[:600] + (" …" if len(text) > 600 else "") or response.reason_phrase
