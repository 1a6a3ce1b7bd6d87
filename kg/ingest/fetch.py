"""Pages and feeds fetched over HTTP (httpx) → articles, politely, with a cache.

``kg build https://…`` and ``kg build --urls urls.txt`` read web addresses as they read files:

* **Polite**: a clear User-Agent (``USER_AGENT``); robots.txt read once per host and obeyed
  for the token ``kg`` (RFC 9309: a robots.txt that is missing or 4xx allows all, one that
  fails with 5xx or cannot be reached allows nothing), its ``Crawl-delay`` kept between
  requests (at most 30 s); at most ``per_host`` requests to one host at a time.
* **Patient**: a timeout per request; connection errors, timeouts, 429 and 5xx are retried
  ``retries`` times, waiting ``backoff`` × 2^n seconds (or the server's ``Retry-After``, at
  most 30 s); redirects are followed (at most 5).
* **Cached**: every 200 response (pages, feeds, robots.txt) is kept under
  ``<out>/.kg/fetch/``, so a rebuild does not fetch again; ``refresh`` fetches anew.
* **Careful with bytes**: the charset of the HTTP header, else of the page's ``<meta>``, else
  UTF-8, else cp1252 with a warning, so a server that names the wrong charset does not garble
  the text; responses larger than ``max_bytes`` are refused.

A feed's entries link to the pages that hold the whole article; those pages are fetched too
(same rules) and their article text is used (``kg:contentKind "full"``); when a page cannot be
had, the entry's own content or summary is used with a warning. Every failure is one
``Unusable`` naming the URL and the reason (``https://x.org/a: HTTP 404 Not Found``).

>>> Fetcher(transport=httpx.MockTransport(lambda r: httpx.Response(404))).fetch(
...     "https://example.org/a")  # doctest: +SKIP
Traceback (most recent call last):
kg.ingest.fetch.FetchError: HTTP 404 Not Found
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.robotparser
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from kg.atomic import atomic_write_bytes
from kg.errors import InputError
from kg.ingest.feeds import entry_article, looks_like_feed, parse_feed
from kg.ingest.found import Found, Item, Items, Unusable
from kg.ingest.html import NoArticle, declared_charset, page_text, read_page, starts_like_page
from kg.ingest.links import id_from_url, without_credentials
from kg.limits import (
    Budget,
    ReadRefused,
    content_codings,
    decoded,
    load_json,
    read_text_file,
    size_text,
)

if TYPE_CHECKING:  # httpx is imported when the first URL is fetched, not with kg
    import httpx

USER_AGENT = "kg/0.1 (news knowledge-graph builder; +https://w3id.org/kgnews)"
ROBOTS_TOKEN = "kg"
FETCH_FOLDER = Path(".kg") / "fetch"
Warn = Callable[[str, str], None]
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 30.0
MAX_CRAWL_DELAY = 30.0
MAX_REDIRECTS = 5
#: A list of URLs larger than this is not a list of URLs (``--urls /dev/zero``).
MAX_URL_LIST_BYTES = 16 * 2**20


class FetchError(Exception):
    """A URL could not be fetched (the message is the reason, for one line)."""


@dataclass(frozen=True, slots=True)
class Response:
    """A fetched resource: where it was asked for and found, its type and bytes."""

    url: str
    final_url: str
    content_type: str
    charset: str | None
    body: bytes
    fetched_at: datetime


def read_url_list(path: Path) -> tuple[list[str], list[Unusable]]:
    """The URLs of a ``--urls`` file (one a line, ``#`` comments and blank lines ignored) and
    its lines that are not http(s) URLs; ``InputError`` when the file cannot be read.

    >>> read_url_list(Path("/nonexistent.txt"))
    Traceback (most recent call last):
    kg.errors.InputError: /nonexistent.txt: cannot read the URL list: No such file or directory
    """
    try:
        lines = read_text_file(path, MAX_URL_LIST_BYTES, what=str(path)).splitlines()
    except ReadRefused as e:
        raise InputError(f"cannot read the URL list {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise InputError(f"{path}: cannot read the URL list: {reason}") from e
    urls: list[str] = []
    bad: list[Unusable] = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = urlsplit(line)
        if parts.scheme in ("http", "https") and parts.netloc and " " not in line:
            urls.append(line)
        else:
            bad.append(Unusable(f"{path}:{number}", f"{line[:80]!r} is not an http(s) URL"))
    return urls, bad


class Fetcher:
    """Fetches URLs politely (see the module docstring); thread-safe, one per build."""

    def __init__(self, cache_dir: Path | None = None, *, refresh: bool = False,
                 timeout: float = 20.0, retries: int = 3, backoff: float = 0.5,
                 per_host: int = 2, max_bytes: int = 20 * 1024 * 1024,
                 max_seconds: float = 60.0, max_page_bytes: int | None = None,
                 transport: httpx.BaseTransport | None = None,
                 on_warning: Callable[[str, str], None] | None = None,
                 user_agent: str = USER_AGENT) -> None:
        self.cache_dir, self.refresh = cache_dir, refresh
        self.retries, self.backoff, self.per_host = retries, backoff, per_host
        self.max_bytes, self.user_agent = max_bytes, user_agent
        #: The whole of one fetch (every read of its body, every redirect) must end within it:
        #: the timeout is per read, and a server trickling a byte a second never reaches it.
        self.max_seconds = max_seconds
        #: A page (not a feed) larger than this is not parsed (``--max-article-mb``).
        self.max_page_bytes = max_page_bytes
        #: origin -> (user, password), from URLs given as https://user:pw@host/…; sent to that
        #: origin only, and never written (the URL is kept without them).
        self.credentials: dict[str, tuple[str, str]] = {}
        self.fetched = self.from_cache = 0
        self._warn = on_warning or (lambda _where, _message: None)
        self._timeout, self._transport = timeout, transport
        self._client_made: httpx.Client | None = None
        self._lock = threading.Lock()
        self._hosts: dict[str, threading.Semaphore] = {}
        self._robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}
        #: Why a host's robots.txt could not be read (its ``_robots`` entry is then ``None``).
        self._robots_unread: dict[str, str] = {}
        self._robot_locks: dict[str, threading.Lock] = {}
        self._prefetched: dict[str, Response | FetchError] = {}
        self._next_start: dict[str, float] = {}  # host -> when its next request may start

    def close(self) -> None:
        """Close the HTTP connections."""
        if self._client_made is not None:
            self._client_made.close()

    @property
    def _client(self) -> httpx.Client:
        with self._lock:
            if self._client_made is None:
                import httpx

                self._client_made = httpx.Client(
                    headers={"User-Agent": self.user_agent},
                    timeout=httpx.Timeout(self._timeout), follow_redirects=False,
                    transport=self._transport)
            return self._client_made

    # --- articles ----------------------------------------------------------------------

    def add_credentials(self, url: str) -> str:
        """``url`` without ``user:password@``; the credentials are kept for its origin only
        (sent with Basic auth to it, never to a host it redirects to, never written).

        >>> Fetcher().add_credentials("https://ann:pw@example.org/a")
        'https://example.org/a'
        """
        clean, found = without_credentials(url)
        if found is not None:
            self.credentials[self._origin(clean)] = found
        return clean

    def prefetch(self, urls: Sequence[str]) -> None:
        """Fetch ``urls`` concurrently (within the per-host limit) ahead of ``articles``."""
        for url, result in zip(urls, self.fetch_all(urls), strict=True):
            self._prefetched[url] = result

    def articles(self, url: str, on_warning: Warn | None = None) -> Items:
        """The articles at ``url``: one for a page, one per entry for a feed. Warnings go to
        ``on_warning(where, message)`` (else to the fetcher's own handler)."""
        warn = on_warning or self._warn
        result = self._prefetched.pop(url, None) or self._attempt(url)
        if isinstance(result, FetchError):
            yield Unusable(url, str(result))
            return
        if _is_feed(result):
            yield from self._feed(result, warn)
        else:
            yield self._page(result, warn)

    def _page(self, response: Response, warn: Warn, where: str | None = None) -> Item:
        where = where or response.url
        limit = self.max_page_bytes
        if limit is not None and len(response.body) > limit:
            return Unusable(where, f"page larger than the limit of {size_text(limit)} (the "
                            "max_article_bytes setting)", "max_article_bytes")
        try:
            page = read_page(self.text_of(response, where, warn), url=response.final_url)
        except NoArticle as e:
            return Unusable(where, f"HTML page without article text ({e})")
        fields = page.fields()
        fields.setdefault("url", response.final_url)
        fields["fetched_from"] = response.url
        fields["retrieved"] = response.fetched_at
        return Found(where, page.text, fields, id_from_url(fields["url"]))

    def _feed(self, response: Response, warn: Warn) -> Items:
        feed = parse_feed(response.body)
        if not feed.entries:
            yield Unusable(response.url, "feed without entries")
            return
        source = (feed.feed.get("title") or "").strip() or None
        links = [e.get("link") or "" for e in feed.entries]
        pages = self.fetch_all([link for link in links if _is_http(link)])
        fetched = dict(zip([link for link in links if _is_http(link)], pages, strict=True))
        for number, entry in enumerate(feed.entries, 1):
            where = f"{response.url}#entry {number}"
            yield self._entry(entry, where, source, fetched.get(links[number - 1]), warn)

    def _entry(self, entry: Any, where: str, source: str | None,
               page: Response | FetchError | None, warn: Warn) -> Item:
        own = entry_article(entry, where, source, id_from_url(where))
        if isinstance(page, Response) and not _is_feed(page):
            article = self._page(page, warn, where)
            if isinstance(article, Found):
                entry_fields = own.fields if isinstance(own, Found) else {}
                fields = {**entry_fields, **article.fields, "content": "full"}
                return Found(where, article.text, fields, article.default_id)
            reason = article.reason
        else:
            reason = str(page) if page is not None else "the entry has no link"
        if isinstance(own, Found):
            warn(where, f"linked page not used ({reason}); the feed's "
                       f"{own.fields.get('content', 'summary')} is the text")
        return own

    # --- fetching ------------------------------------------------------------------------

    def fetch_all(self, urls: Sequence[str]) -> list[Response | FetchError]:
        """``fetch`` of each URL, concurrently; failures are returned, not raised."""
        if not urls:
            return []
        hosts = {urlsplit(u).netloc for u in urls}
        workers = max(1, min(32, len(urls), self.per_host * len(hosts)))
        with ThreadPoolExecutor(workers, thread_name_prefix="kg-fetch") as pool:
            return list(pool.map(self._attempt, urls))

    def _attempt(self, url: str) -> Response | FetchError:
        try:
            return self.fetch(url)
        except FetchError as e:
            return e

    def fetch(self, url: str) -> Response:
        """The response at ``url`` (from the cache unless ``refresh``); ``FetchError`` when it
        cannot be had or robots.txt forbids it."""
        cached = None if self.refresh else self._cached(url)
        if cached is not None:
            with self._lock:
                self.from_cache += 1
            return cached
        if not self._allowed(url):
            host = urlsplit(url).netloc
            unread = self._robots_unread.get(self._origin(url))
            raise FetchError(f"robots.txt of {host} could not be read ({unread}), and kg "
                             "fetches nothing from a host without one it can read" if unread
                             else f"robots.txt of {host} does not allow kg to fetch this page")
        response = self._download(url)
        self._store(response)
        return response

    def _download(self, url: str) -> Response:
        with self._host(url):
            for attempt in range(self.retries + 1):
                self._wait_turn(url)
                try:
                    return self._request(url)
                except _Retry as retry:
                    if attempt == self.retries:
                        tries = f" after {attempt + 1} tries" if attempt else ""
                        raise FetchError(f"{retry}{tries}") from None
                    time.sleep(retry.wait if retry.wait is not None
                               else self.backoff * 2**attempt)
        raise AssertionError("unreachable")

    def _request(self, url: str) -> Response:
        """One GET, its redirects followed here (each hop must be allowed by its own host's
        robots.txt, and credentials go only to the origin they were given for), its body
        read within ``max_bytes`` and ``max_seconds`` (``kg.limits``)."""
        import httpx

        budget = Budget(self.max_bytes, self.max_seconds, url)
        target = url
        try:
            for _hop in range(MAX_REDIRECTS + 1):
                with self._client.stream("GET", target, auth=self._auth(target),
                                         timeout=self._hop_timeout(budget)) as response:
                    if response.is_redirect:
                        target = self._next_hop(response, url)
                        continue
                    if response.status_code in RETRY_STATUS:
                        raise _Retry(_status(response), _retry_after(response))
                    if response.status_code != 200:
                        raise FetchError(_status(response))
                    body = self._body(response, budget)
                    break
            else:
                raise FetchError("too many redirects")
        except httpx.TimeoutException as e:
            raise _Retry(f"timed out ({type(e).__name__})") from e
        except httpx.TransportError as e:
            raise _Retry(f"connection failed ({e or type(e).__name__})") from e
        except httpx.InvalidURL as e:
            raise FetchError(f"invalid URL ({e})") from e
        except ReadRefused as e:
            raise FetchError(str(e).removeprefix(f"{url}: ")) from None
        with self._lock:
            self.fetched += 1
        content_type = response.headers.get("content-type", "")
        return Response(url, str(response.url), content_type.split(";")[0].strip().lower(),
                        _charset(content_type), body, datetime.now(UTC).replace(microsecond=0))

    def _body(self, response: httpx.Response, budget: Budget) -> bytes:
        """The body as sent, its ``Content-Encoding`` undone here chunk by chunk, so that
        neither the bytes received nor the bytes they inflate to pass the limit."""
        codings = content_codings(response.headers.get("content-encoding"))
        return decoded(_raw_chunks(response), codings, budget)

    def _hop_timeout(self, budget: Budget) -> Any:
        import httpx

        left = budget.remaining()
        per_read = self._timeout if left is None else max(0.05, min(self._timeout, left))
        return httpx.Timeout(per_read)

    def _auth(self, url: str) -> Any:
        import httpx

        found = self.credentials.get(self._origin(url))
        return httpx.BasicAuth(*found) if found else None

    def _next_hop(self, response: httpx.Response, first: str) -> str:
        """Where a redirect leads, once that page's own robots.txt allows kg to fetch it."""
        location = response.headers.get("location")
        if not location:
            raise FetchError(f"HTTP {response.status_code} redirect without a Location")
        target = str(response.url.join(location))
        if not _is_http(target):
            raise FetchError(f"redirected to {without_credentials(target)[0]!r}, not an "
                             "http(s) URL")
        if self._origin(target) != self._origin(str(response.url)) and \
                not self._allowed(target):
            raise FetchError(f"redirected to {without_credentials(target)[0]}, which "
                             f"robots.txt of {urlsplit(target).netloc} does not allow kg "
                             "to fetch")
        return target

    def _wait_turn(self, url: str) -> None:
        """Keep the host's robots.txt ``Crawl-delay`` between the starts of two requests."""
        parts = urlsplit(url)
        robots = self._robots.get(f"{parts.scheme}://{parts.netloc.lower()}")
        delay = robots.crawl_delay(ROBOTS_TOKEN) if robots is not None else None
        if not delay:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next_start.get(parts.netloc, now))
            self._next_start[parts.netloc] = start + min(float(delay), MAX_CRAWL_DELAY)
        time.sleep(start - now)

    def _host(self, url: str) -> threading.Semaphore:
        host = urlsplit(url).netloc.lower()
        with self._lock:
            return self._hosts.setdefault(host, threading.Semaphore(self.per_host))

    # --- robots.txt ------------------------------------------------------------------------

    @staticmethod
    def _origin(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.lower()}"

    def _allowed(self, url: str) -> bool:
        origin = self._origin(url)
        with self._lock:
            lock = self._robot_locks.setdefault(origin, threading.Lock())
        with lock:
            if origin not in self._robots:
                self._robots[origin] = self._read_robots(origin)
        robots = self._robots[origin]
        return robots is not None and robots.can_fetch(ROBOTS_TOKEN, url)

    def _read_robots(self, origin: str) -> urllib.robotparser.RobotFileParser | None:
        """The parsed robots.txt of ``origin``; ``None`` when it says nothing is allowed."""
        robots = urllib.robotparser.RobotFileParser(f"{origin}/robots.txt")
        try:
            response = self.fetch_robots(f"{origin}/robots.txt")
        except FetchError as e:
            if str(e).startswith("HTTP 4"):
                robots.parse([])  # no robots.txt: everything is allowed
                return robots
            self._warn(origin, f"robots.txt unavailable ({e}); nothing fetched from this host")
            self._robots_unread[origin] = str(e)
            return None
        robots.parse(robots_lines(response.body.decode("utf-8", errors="replace")))
        return robots

    def fetch_robots(self, url: str) -> Response:
        """robots.txt itself (never subject to robots.txt), cached like any response."""
        cached = None if self.refresh else self._cached(url)
        if cached is not None:
            return cached
        response = self._download(url)
        self._store(response)
        return response

    # --- cache -------------------------------------------------------------------------------

    def _entry_path(self, url: str) -> Path | None:
        if self.cache_dir is None:
            return None
        key = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()
        return self.cache_dir / key[:2] / key

    def _cached(self, url: str) -> Response | None:
        path = self._entry_path(url)
        if path is None:
            return None
        try:
            head = load_json(path.with_suffix(".json").read_bytes())
            body = path.with_suffix(".body").read_bytes()
            if hashlib.sha256(body).hexdigest() != head["sha256"] or head["url"] != url:
                return None
            return Response(url, head["final_url"], head["content_type"], head["charset"],
                            body, datetime.fromisoformat(head["fetched_at"]))
        except (OSError, ValueError, KeyError):
            return None

    def _store(self, response: Response) -> None:
        path = self._entry_path(response.url)
        if path is None:
            return
        head = {"url": response.url, "final_url": response.final_url,
                "content_type": response.content_type, "charset": response.charset,
                "fetched_at": response.fetched_at.isoformat(),
                "sha256": hashlib.sha256(response.body).hexdigest()}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path.with_suffix(".body"), response.body)
            atomic_write_bytes(path.with_suffix(".json"), json.dumps(head).encode())
        except Exception as e:  # a cache that cannot be written only costs a warning
            self._warn(response.url, f"not cached: {e}")

    # --- text ----------------------------------------------------------------------------

    def text_of(self, response: Response, where: str, warn: Warn | None = None) -> str:
        """The response as text: the HTTP charset, else the ``<meta>`` one, when the bytes
        bear it out (``kg.ingest.html.page_text``), else UTF-8, else cp1252 with a warning."""
        warn = warn or self._warn
        text = page_text(response.body, [response.charset, declared_charset(response.body)],
                         lambda message: warn(where, message))
        if text is not None:
            return text
        warn(where, "decoded as cp1252 (no declared charset fits)")
        return response.body.decode("cp1252", errors="replace")


#: robots.txt fields whose value urllib.robotparser turns into numbers with ``int()``.
_NUMERIC_FIELDS = ("crawl-delay", "request-rate")


def robots_lines(text: str) -> list[str]:
    """robots.txt lines fit for ``urllib.robotparser``: a ``Crawl-delay`` or ``Request-rate``
    whose numbers are not plain ASCII digits is dropped (``str.isdigit`` accepts "²", which
    ``int()`` then refuses with ValueError, aborting the whole build).

    >>> robots_lines("User-agent: *\\nCrawl-delay: \\u00b2\\nRequest-rate: 1/5")
    ['User-agent: *', 'Request-rate: 1/5']
    """
    kept = []
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() in _NUMERIC_FIELDS:
            numbers = value.split("#", 1)[0].strip().split("/")
            if not all(n.strip().isascii() and n.strip().isdigit() for n in numbers):
                continue
        kept.append(line)
    return kept


class _Retry(Exception):
    """Internal: a failure worth another try (``wait``: what the server asked for)."""

    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.wait = wait


def _raw_chunks(response: httpx.Response) -> Iterator[bytes]:
    """The body's bytes as they came, before any ``Content-Encoding`` is undone."""
    import httpx

    try:
        yield from response.iter_raw()
    except httpx.StreamConsumed:  # a response built whole in memory (a test's transport)
        yield response.content


def _status(response: httpx.Response) -> str:
    return f"HTTP {response.status_code} {response.reason_phrase}".rstrip()


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after", "")
    return min(float(value), MAX_RETRY_AFTER) if value.strip().isdigit() else None


def _charset(content_type: str) -> str | None:
    for part in content_type.split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'").lower()
    return None


def _is_feed(response: Response) -> bool:
    """Whether a response is a feed: its body decides (servers send RSS as ``text/html``
    and pages as ``application/xml``); a body that starts like a page is a page."""
    head = response.body[:4096].decode("utf-8", errors="replace")
    return looks_like_feed(response.body) and not starts_like_page(head)


def _is_http(link: str) -> bool:
    return link.startswith(("http://", "https://"))

