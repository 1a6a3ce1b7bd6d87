"""Fetching pages and feeds over HTTP (docs/formats.md#urls), against a server on 127.0.0.1
that the tests start: slow responses, 404/500, redirects, a wrong charset, a feed pointing at
pages, robots.txt. Never the internet."""

from __future__ import annotations

import gzip
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.ingest.fetch import USER_AGENT, Fetcher, FetchError, read_url_list
from kg.ingest.files import Skipped, read_documents

SAMPLES = Path(__file__).parent / "samples"
PAGE = (SAMPLES / "page.html").read_bytes()
CP1252_PAGE = ("<html><head><title>Caf\xe9 tax</title></head><body><article><p>Caf\xe9 owners "
               "in Port Elna said on Tuesday the tax would cost them \u20ac400 a month.</p>"
               "</article></body></html>").encode("cp1252")


class Site:
    """What the test server serves, and what it saw."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.agents: set[str] = set()
        self.active = self.most_active = 0
        self.lock = threading.Lock()
        self.base = ""
        self.robots = b"User-agent: *\nDisallow: /private/\n"
        self.starts: list[float] = []
        self.auth: list[str] = []  # the Authorization headers received
        self.elsewhere = ""  # where /away redirects (another server)

    def feed(self) -> bytes:
        return f"""<?xml version="1.0"?><rss version="2.0"><channel><title>Test Wire</title>
<item><title>Harbour talks</title><link>{self.base}/article</link>
<description>Short summary of the harbour talks.</description></item>
<item><title>Gone</title><link>{self.base}/missing</link>
<description>The ferry operator said on Tuesday that services to the islands were cut.</description>
</item></channel></rss>""".encode()


@cache
def gzip_bomb() -> bytes:
    """13 KB that inflate to 200 MB, gzipped twice (``Content-Encoding: gzip, gzip``)."""
    return gzip.compress(gzip.compress(b"\0" * 200_000_000, 9), 9)


def handler_for(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        counted = False  # whether this request is counted in site.active

        def log_message(self, *args: object) -> None:  # keep the test output quiet
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = self.path
            with site.lock:
                site.starts.append(time.monotonic())
                site.hits[path] += 1
                site.agents.add(self.headers.get("User-Agent", ""))
                site.auth.append(self.headers.get("Authorization", ""))
                site.active += 1
                site.most_active = max(site.most_active, site.active)
            self.counted = True
            try:
                self.answer(path)
            finally:
                self.done()

        def done(self) -> None:
            """The request stops counting as active before its answer is sent: a client that
            has read the answer may start its next request before this thread runs on."""
            with site.lock:
                if self.counted:
                    site.active -= 1
                    self.counted = False

        def answer(self, path: str) -> None:
            if path == "/robots.txt":
                self.send(200, site.robots, "text/plain")
            elif path.startswith(("/article", "/private/")):
                time.sleep(0.05)  # long enough for concurrent requests to overlap
                self.send(200, PAGE, "text/html; charset=utf-8")
            elif path == "/slow":
                time.sleep(1.5)
                self.send(200, PAGE, "text/html")
            elif path == "/error":
                self.send(500, b"boom", "text/plain")
            elif path == "/flaky":
                code = 503 if site.hits[path] == 1 else 200
                self.send(code, PAGE if code == 200 else b"busy", "text/html")
            elif path == "/moved":
                self.send_response(301)
                self.send_header("Location", "/article?from=moved")
                self.end_headers()
            elif path == "/wrong-charset":
                self.send(200, CP1252_PAGE, "text/html; charset=utf-8")
            elif path == "/feed.rss":
                self.send(200, site.feed(), "application/rss+xml")
            elif path == "/feed-as-html":  # issue 38 #8: the body decides
                self.send(200, site.feed(), "text/html; charset=utf-8")
            elif path == "/utf8-as-utf16":  # issue 38 #9
                self.send(200, PAGE, "text/html; charset=utf-16")
            elif path == "/away":
                self.send_response(302)
                self.send_header("Location", site.elsewhere)
                self.end_headers()
            elif path == "/trickle":  # issue 38 #17: a byte every 0.2 s, for ever
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                for _ in range(1000):
                    self.wfile.write(b"<")
                    self.wfile.flush()
                    time.sleep(0.2)
            elif path == "/bomb":  # issue 38 #16: 13 KB that inflate to 200 MB
                body = gzip_bomb()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Encoding", "gzip, gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send(404, b"not found", "text/html")

        def send(self, code: int, body: bytes, content_type: str) -> None:
            self.done()
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


@contextmanager
def serving(served: Site) -> Iterator[Site]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(served))
    served.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture()
def site() -> Iterator[Site]:
    with serving(Site()) as served:
        yield served


def fetcher(tmp_path: Path, **options: object) -> Fetcher:
    settings: dict[str, object] = {"timeout": 0.5, "retries": 1, "backoff": 0.01}
    settings.update(options)
    return Fetcher(tmp_path / "fetch", **settings)  # type: ignore[arg-type]


def read(urls: list[str], fetch: Fetcher) -> tuple[list, list[str], list[str]]:
    skipped: list[Skipped] = []
    warnings: list[str] = []
    documents = list(read_documents(urls, on_skip=skipped.append, fetcher=fetch,
                                    on_warning=lambda p, m: warnings.append(f"{p}: {m}")))
    return documents, [str(s) for s in skipped], warnings


def test_page_is_fetched_politely_and_read_like_a_file(site: Site, tmp_path: Path) -> None:
    [document], skipped, _ = read([f"{site.base}/article"], fetcher(tmp_path))
    assert skipped == []
    assert "Ingrid Halvorsen" in document.text and "cookies" not in document.text
    assert document.meta.url == "https://ledger.example.org/world/harbour-talks-resume"
    assert document.meta.fetched_from == f"{site.base}/article"
    assert document.meta.retrieved is not None
    assert site.agents == {USER_AGENT} and site.hits["/robots.txt"] == 1


@pytest.mark.parametrize(("path", "reason"), [
    ("/missing", "HTTP 404 Not Found"),
    ("/error", "HTTP 500 Internal Server Error after 2 tries"),
    ("/slow", "timed out (ReadTimeout) after 2 tries"),
    ("/private/page", "robots.txt of 127.0.0.1:"),
])
def test_failures_are_one_line_each(site: Site, tmp_path: Path, path: str, reason: str) -> None:
    documents, skipped, _ = read([f"{site.base}{path}"], fetcher(tmp_path))
    assert documents == []
    assert len(skipped) == 1 and skipped[0].startswith(f"{site.base}{path}: {reason}")


def test_retry_after_a_503_and_redirects_followed(site: Site, tmp_path: Path) -> None:
    documents, skipped, _ = read([f"{site.base}/flaky", f"{site.base}/moved"],
                                 fetcher(tmp_path))
    assert skipped[0].endswith(f"exact copy of {site.base}/flaky, counted once")  # same page
    assert site.hits["/flaky"] == 2 and site.hits["/article?from=moved"] == 1
    assert len(documents) == 1


def test_a_wrong_charset_is_not_believed(site: Site, tmp_path: Path) -> None:
    [document], _, warnings = read([f"{site.base}/wrong-charset"], fetcher(tmp_path))
    assert "Café owners" in document.text and "€400" in document.text
    assert any("declares charset 'utf-8' but is not in it" in w for w in warnings)


def test_feed_entries_are_read_from_their_pages(site: Site, tmp_path: Path) -> None:
    documents, skipped, warnings = read([f"{site.base}/feed.rss"], fetcher(tmp_path))
    talks, ferry = documents
    assert talks.meta.content == "full" and "Tomas Reyes" in talks.text
    assert talks.meta.title == "Harbour talks resume in Valmora"
    assert ferry.meta.content == "summary" and ferry.text.startswith("The ferry operator")
    assert any("#entry 2" in w and "HTTP 404" in w for w in warnings)
    assert skipped == []


def test_responses_are_cached_until_refresh(site: Site, tmp_path: Path) -> None:
    read([f"{site.base}/article"], fetcher(tmp_path))
    again = fetcher(tmp_path)
    read([f"{site.base}/article"], again)
    assert site.hits["/article"] == 1 and again.from_cache >= 1
    read([f"{site.base}/article"], fetcher(tmp_path, refresh=True))
    assert site.hits["/article"] == 2


def test_at_most_n_requests_per_host_at_a_time(site: Site, tmp_path: Path) -> None:
    urls = [f"{site.base}/article?n={n}" for n in range(8)]
    results = fetcher(tmp_path, per_host=2).fetch_all(urls)
    assert all(not isinstance(r, FetchError) for r in results)
    assert site.most_active <= 2


def test_crawl_delay_of_robots_txt_is_kept(site: Site, tmp_path: Path) -> None:
    site.robots = b"User-agent: kg\nCrawl-delay: 1\nDisallow: /private/\n"
    fetch = fetcher(tmp_path, per_host=4)
    results = fetch.fetch_all([f"{site.base}/article?n={n}" for n in range(3)])
    assert all(not isinstance(r, FetchError) for r in results)
    pages = sorted(site.starts)[1:]  # after robots.txt
    assert len(pages) == 3 and all(b - a >= 0.9 for a, b in zip(pages, pages[1:], strict=False))
    assert isinstance(fetch.fetch_all([f"{site.base}/private/x"])[0], FetchError)


def test_retry_after_header_is_obeyed_over_a_mock_transport(tmp_path: Path) -> None:
    calls: list[float] = []

    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(404)
        calls.append(time.monotonic())
        if len(calls) == 1:
            return httpx.Response(429, headers={"Retry-After": "1"})
        return httpx.Response(200, content=PAGE, headers={"Content-Type": "text/html"})

    fetch = Fetcher(None, retries=2, backoff=0.01, transport=httpx.MockTransport(respond))
    response = fetch.fetch("https://news.example/a")
    assert response.body == PAGE and calls[1] - calls[0] >= 0.9


def test_a_host_whose_robots_txt_cannot_be_read_is_skipped_saying_why(tmp_path: Path) -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503)  # robots.txt too: the host is down, nothing is fetched

    fetch = Fetcher(None, retries=0, backoff=0.01, transport=httpx.MockTransport(respond))
    with pytest.raises(FetchError) as refused:
        fetch.fetch("https://news.example/a")
    assert str(refused.value) == (
        "robots.txt of news.example could not be read (HTTP 503 Service Unavailable), and kg "
        "fetches nothing from a host without one it can read")


def test_url_list_names_bad_lines(tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text("# morning run\nhttps://a.example/1\n\nftp://b.example/2\nnot a url\n")
    urls, bad = read_url_list(listing)
    assert urls == ["https://a.example/1"]
    assert [str(b) for b in bad] == [f"{listing}:4: 'ftp://b.example/2' is not an http(s) URL",
                                     f"{listing}:5: 'not a url' is not an http(s) URL"]


@pytest.mark.slow
def test_kg_build_urls_goes_on_and_exits_3(site: Site, tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text(f"{site.base}/missing\nnonsense\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", f"{site.base}/article", "--urls", str(listing),
                                      "-o", str(out)])
    assert result.exit_code == 3, result.output
    assert f"skipped {site.base}/missing: HTTP 404 Not Found" in result.output
    assert f"skipped {listing}:2: 'nonsense' is not an http(s) URL" in result.output
    assert "1 documents" in result.output and (out / "graph.trig").exists()
    assert any((out / ".kg" / "fetch").rglob("*.body"))


# -- issue 38 ---------------------------------------------------------------------------------


def test_a_feed_served_as_html_is_read_as_a_feed(site: Site, tmp_path: Path) -> None:
    documents, _, _ = read([f"{site.base}/feed-as-html"], fetcher(tmp_path))
    assert [d.meta.title for d in documents] == ["Harbour talks resume in Valmora", "Gone"]


def test_a_utf8_page_labelled_utf16_is_read_as_utf8_with_a_warning(site: Site,
                                                                   tmp_path: Path) -> None:
    [document], _, warnings = read([f"{site.base}/utf8-as-utf16"], fetcher(tmp_path))
    assert "Ingrid Halvorsen" in document.text
    assert any("declares charset 'utf-16'" in w for w in warnings)


def test_credentials_in_a_url_go_to_its_host_only_and_are_written_nowhere(
        site: Site, tmp_path: Path) -> None:
    host = site.base.removeprefix("http://")
    [document], _, _ = read([f"http://alice:pw@{host}/article"], fetcher(tmp_path))
    assert document.path == f"{site.base}/article" and "alice" not in document.doc_id
    assert document.meta.fetched_from == f"{site.base}/article"
    assert "Basic YWxpY2U6cHc=" in site.auth  # alice:pw, sent to its own host
    cached = b"".join(p.read_bytes() for p in (tmp_path / "fetch").rglob("*") if p.is_file())
    assert b"alice" not in cached and b"pw@" not in cached


def test_a_redirect_is_fetched_only_if_its_own_robots_txt_allows(site: Site,
                                                                  tmp_path: Path) -> None:
    # issue 38 #5: robots.txt was read for the first URL only
    with serving(Site()) as other:
        other.robots = b"User-agent: *\nDisallow: /\n"
        site.elsewhere = f"{other.base}/article"
        documents, skipped, _ = read([f"{site.base}/away"], fetcher(tmp_path))
    assert documents == [] and other.hits["/article"] == 0
    assert "does not allow kg to fetch" in skipped[0]


def test_credentials_never_follow_a_redirect_to_another_origin(site: Site,
                                                               tmp_path: Path) -> None:
    with serving(Site()) as other:
        site.elsewhere = f"{other.base}/article"
        host = site.base.removeprefix("http://")
        read([f"http://alice:pw@{host}/away"], fetcher(tmp_path))
    assert other.hits["/article"] == 1 and set(other.auth) == {""}


def test_a_server_trickling_bytes_is_given_up_on_in_bounded_time(site: Site,
                                                                 tmp_path: Path) -> None:
    started = time.monotonic()
    documents, skipped, _ = read([f"{site.base}/trickle"],
                                 fetcher(tmp_path, max_seconds=1.0, retries=0))
    assert documents == [] and "not finished within 1 s" in skipped[0]
    assert time.monotonic() - started < 5


def test_a_double_gzip_bomb_is_refused_without_inflating_it(site: Site, tmp_path: Path) -> None:
    assert len(gzip_bomb()) < 250_000  # made before the request: the server answers at once
    documents, skipped, _ = read([f"{site.base}/bomb"], fetcher(tmp_path))
    assert documents == [] and "larger than the limit of 20 MB" in skipped[0]


def test_a_fetched_page_over_the_article_limit_is_not_parsed(site: Site, tmp_path: Path) -> None:
    documents, skipped, _ = read([f"{site.base}/article"],
                                 fetcher(tmp_path, max_page_bytes=1000))
    assert documents == [] and "page larger than the limit of 1000 bytes" in skipped[0]
