"""The web application: routes, templates, security headers.

    /                    counts, the most mentioned entities, who said what, search
    /search?q=&type=     names and aliases (ranked, forgiving of typos), then sentences, claims
                         and titles holding the words (SQLite FTS5), with facets
    /said?q=|speaker=    who said what about X, by speaker; or every claim of one speaker
    /entity/<path>       an entity: roles and claims by support, events, relations, mentions
    /article/<path>      an article: text with mentions linked, facts; ``?fact=IRI`` shows
                         a fact's evidence highlighted, ``?mark=B-E`` a stretch of text
    /timeline            events: when they happened vs when they were reported
    /map                 places the text uses as places (vendored Leaflet, no tiles);
                         /map/place?iri= the articles naming one (JSON)
    /conflicts           the conflicting-figures ledger
    /graph?iri=          neighbours by shared articles (/graph/neighbours, JSON), expandable;
                         /graph/view the sandboxed ``kg viz`` view
    /query?q=|name=      named questions (answered once) and free read-only SPARQL
    /sparql              the SPARQL 1.1 Protocol (GET, POST; Update and SERVICE refused)

Requests must name this server in their Host header (``kg.serve.guard``).
Pages are rendered on the server by Jinja2 with autoescaping: article text and names are
data, never markup. The only scripts are files under ``/static`` (the map's), allowed by a
Content-Security-Policy without ``unsafe-inline``; page data reaches them as JSON in a
``<script type="application/json">`` block, read with ``JSON.parse``.

>>> app = create_app("output/graph.trig")  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import anyio
import anyio.to_thread
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kg.config import Settings
from kg.errors import InputError, KGError, QueryError
from kg.serve import queries as q
from kg.serve.fulltext import FACETS
from kg.serve.guard import CSP, Guard, allowed_hosts
from kg.serve.links import Links
from kg.serve.pages import CLASSES, Explorer, Page, PageError, days_between, local
from kg.serve.protocol import encode, media_type, term_text
from kg.serve.readonly import QueryRefused
from kg.serve.text import render as render_text
from kg.serve.timeline import timeline_chart
from kg.serve.worker import Answer, QueryPool, QueryTimeout, WorkerLost
from kg.store.embedded import open_store
from kg.store.sparql import Dataset, NamedQuery, named_queries
from kg.views.viz import DEFAULT_MAX_NODES, neighbourhood, render

STATIC = Path(__file__).parent / "static"
_log = logging.getLogger(__name__)
PAGE_ROWS = 1000
# Pages run in a few threads, not Starlette's forty: twenty requests in forty threads fought
# over the GIL (pyoxigraph releases it for every row), and the unlucky ones waited; with
# three, p95 under 20 clients fell from 312 to 231 ms at the same throughput.
PAGE_THREADS = 3
MAX_DEPTH = 2
GRAPH_FIRST = 12  # neighbours drawn at first around an entity; "more" adds GRAPH_MORE
GRAPH_MORE = 8
VIEW_SANDBOX = "sandbox allow-scripts allow-popups"
MAX_OFFSET = 10_000_000  # mentions of one entity, far beyond any corpus
_META_CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
_MARK = re.compile(r"(\d{1,9})-(\d{1,9})", re.ASCII)
#: Request bodies of /sparql are read up to this size (a query, a form): a 400 MB body was
#: read whole into memory before (issue 38).
MAX_BODY = 1024 * 1024
#: A named question's deadline (seconds) when --timeout is shorter: the package's own questions
#: are answered once per served graph, and the claims question takes seconds on a big corpus.
NAMED_TIMEOUT = 120.0
PAGE_FAILED = "Something went wrong while making this page; the server's log says what."
_TYPE = re.compile(r"[A-Za-z]+")

class Site:
    """The explorer over one graph: the store for pages, a worker pool for free SPARQL."""

    def __init__(self, graph: Path, *, timeout: float, max_rows: int, workers: int) -> None:
        self.graph = graph
        self.explorer = Explorer(open_store(graph), Settings().base_iri, graph)
        self.pool = QueryPool(graph, size=workers, timeout=timeout, max_rows=max_rows)
        self.timeout, self.max_rows, self.workers = timeout, max_rows, workers
        self.page_threads = PAGE_THREADS
        self.page_limiter: anyio.CapacityLimiter | None = None  # made in the event loop
        self.links = Links(self.explorer.base)
        self._named: dict[str, Answer] = {}
        self._named_lock = threading.Lock()
        self._named_locks: dict[str, threading.Lock] = {}
        self.named_pages: dict[str, bytes] = {}  # their query pages, as first rendered
        self.templates = _environment(self.links)

    def html(self, name: str, page: Page, status: int = 200, **extra: Any) -> HTMLResponse:
        template = self.templates.get_template(name)
        return HTMLResponse(template.render(**page.context, queries=page.queries, **extra),
                            status_code=status)

    def named_answer(self, name: str) -> Answer:
        """The answer to the named question ``name``, asked once: the graph does not change
        while it is served (the claims question takes seconds on a big corpus)."""
        with self._named_lock:
            lock = self._named_locks.setdefault(name, threading.Lock())
        with lock:  # one answer per question, however many readers ask at once
            found = self._named.get(name)
            if found is None:
                found = self.pool.run(named_queries_by_name()[name].text, f"query {name}",
                                      checked=True, timeout=max(self.timeout, NAMED_TIMEOUT))
                self._named[name] = found
        return found

    def warm_named(self) -> None:
        """Answer every named question ahead of its first visit."""
        for name in named_queries_by_name():
            try:
                self.named_answer(name)
            except KGError as e:
                _log.warning("could not answer the named question %s: %s", name, e)

    def problem(self, error: KGError, status: int) -> HTMLResponse:
        return self.html("problem.html", Page({"message": str(error)}), status)


def _environment(links: Links) -> Environment:
    # auto_reload off: the templates are package files; checking their mtimes on every
    # render was a tenth of a page's time under load
    env = Environment(loader=PackageLoader("kg.serve", "templates"), auto_reload=False,
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      finalize=lambda value: "" if value is None else value)
    env.globals.update(
        entity_href=links.entity, article_href=links.article, resource_href=links.resource,
        query_href=links.query, graph_href=links.graph, timeline_href=links.timeline,
        search_href=links.search,
        web_url=links.web, local=local, classes=CLASSES, term_text=term_text,
        days_between=days_between)
    env.filters["confidence"] = lambda c: f"{float(c):.2f}" if c not in (None, "") else ""
    return env


def create_app(graph: str | Path, *, timeout: float = 10.0, max_rows: int = 10_000,
               workers: int = 2, host: str = "127.0.0.1") -> Starlette:
    """The explorer for the graph file ``graph`` (opened read-only).

    ``timeout`` (seconds) and ``max_rows`` bound every free SPARQL query, which runs in one
    of ``workers`` worker processes. Requests must name ``host`` (the address served on),
    127.0.0.1 or localhost (``kg.serve.guard``).
    """
    site = Site(Path(graph), timeout=timeout, max_rows=max_rows, workers=workers)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> Any:
        # ready before the first search and entity page
        await run_in_threadpool(lambda: (site.explorer.index, site.explorer.names,
                                         site.explorer.heads, site.explorer.article_links,
                                         site.explorer.text))
        threading.Thread(target=site.explorer.warm, name="kg-serve-warm", daemon=True).start()
        if site.workers > 1:  # one worker stays free for the queries people type
            threading.Thread(target=site.warm_named, name="kg-serve-named",
                             daemon=True).start()
        yield
        site.pool.close()

    routes = [
        Route("/", _page(site, lambda r: ("home.html", site.explorer.home()))),
        Route("/search", _page(site, lambda r: _search(site, r))),
        Route("/said", _page(site, lambda r: ("said.html", site.explorer.said(
            r.query_params.get("q", ""), r.query_params.get("speaker", ""))))),
        Route("/entity", _page(site, lambda r: _entity(site, r, r.query_params.get("iri", "")))),
        Route("/entity/{rest:path}", _page(site, lambda r: _entity(
            site, r, site.explorer.base + r.path_params["rest"]))),
        Route("/article", _page(site, lambda r: _article(site, r,
                                                         r.query_params.get("iri", "")))),
        Route("/article/{rest:path}", _page(site, lambda r: _article(
            site, r, f"{site.explorer.base}article/{r.path_params['rest']}"))),
        Route("/timeline", _page(site, lambda r: _timeline(site, r), anchored=False)),
        Route("/map", _page(site, lambda r: _map(site), anchored=False)),
        Route("/map/place", _sync(lambda r: _place_list(site, r), site)),
        Route("/conflicts", _page(site, lambda r: ("conflicts.html", site.explorer.conflicts()),
                                  anchored=False)),
        Route("/graph", _page(site, lambda r: _graph_page(site, r), anchored=False)),
        Route("/graph/view", _sync(lambda r: _graph_view(site, r))),
        Route("/graph/neighbours", _sync(lambda r: _neighbours(site, r), site)),
        Route("/query", _named_or(site, _page(site, lambda r: _query_page(site, r),
                                              anchored=False))),
        Route("/sparql", _protocol(site), methods=["GET", "POST"]),
        Route("/favicon.ico", lambda r: Response(status_code=204)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={Exception: _failure(site)})
    app.add_middleware(Guard, allowed=allowed_hosts(host))
    app.state.site = site
    return app


def _sync(handler: Callable[[Request], Response], site: Site | None = None
          ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint running ``handler`` in a thread; with ``site``, in one of its few page
    threads."""
    async def endpoint(request: Request) -> Response:
        if site is None:
            return await run_in_threadpool(handler, request)
        if site.page_limiter is None:
            site.page_limiter = anyio.CapacityLimiter(site.page_threads)
        return await anyio.to_thread.run_sync(handler, request, limiter=site.page_limiter)

    return endpoint


def _page(site: Site, build: Callable[[Request], tuple[str, Page]], *, anchored: bool = True
          ) -> Callable[[Request], Awaitable[Response]]:
    """An HTML endpoint: ``build`` gives a template and its page; errors become pages.

    ``anchored`` pages (on one entity or article, or search: milliseconds each) share the
    site's page threads; the others (whole-graph pages built on first visit, free SPARQL
    waiting for its worker) run in Starlette's thread pool and never hold those up."""
    def handler(request: Request) -> Response:
        try:
            name, page = build(request)
        except PageError:
            return site.html("problem.html", Page({"message": PAGE_FAILED}), 500)
        except InputError as e:
            return site.problem(e, 404)
        except QueryError as e:
            return site.problem(e, 400)
        return site.html(name, page)

    return _sync(handler, site if anchored else None)


def _failure(site: Site) -> Callable[[Request, Exception], Response]:
    """The page for an error nobody foresaw: no traceback, no query, no path (the log has
    them)."""
    def handler(request: Request, error: Exception) -> Response:
        _log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        page = Page({"message": PAGE_FAILED})
        return site.html("problem.html", page, 500)

    return handler


def whole_number(request: Request, name: str, default: int, maximum: int) -> int:
    """The query parameter ``name`` as a whole number from 0 to ``maximum`` (``default``
    when absent); anything else is a ``QueryError`` (a 400 page saying so).

    ``str.isdigit`` accepted "²" and a 5,000-digit number, and the page failed with a
    traceback (issue 38)."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    if not (value.isascii() and value.isdigit() and len(value) <= len(str(maximum))) \
            or int(value) > maximum:
        raise QueryError(f"{name} must be a whole number from 0 to {maximum:,}")
    return int(value)


def _search(site: Site, request: Request) -> tuple[str, Page]:
    params = request.query_params
    filters = {name: params.get(name, "") for name in FACETS}
    offset = whole_number(request, "offset", 0, MAX_OFFSET)
    return "search.html", site.explorer.search(params.get("q", ""), params.get("type"),
                                               filters, offset)


def _entity(site: Site, request: Request, iri: str) -> tuple[str, Page]:
    if not iri:
        raise InputError("give an entity: /entity?iri=IRI")
    offset = whole_number(request, "offset", 0, MAX_OFFSET)
    return "entity.html", site.explorer.entity(iri, offset)


def _article(site: Site, request: Request, iri: str) -> tuple[str, Page]:
    found = _MARK.fullmatch(request.query_params.get("mark", ""))
    mark = (int(found.group(1)), int(found.group(2))) if found else None
    page = site.explorer.article(iri, request.query_params.get("fact"), mark)
    page.context["text_html"] = render_text(page.context["text_pieces"], site.links.entity)
    return "article.html", page


def _timeline(site: Site, request: Request) -> tuple[str, Page]:
    params = request.query_params
    kind = params.get("type") or None
    if kind and not _TYPE.fullmatch(kind):
        raise QueryError(f"not an event type: {kind!r}")
    page = site.explorer.timeline(params.get("entity") or None, kind,
                                  params.get("place") or None)
    page.context["chart"] = timeline_chart(page.context["events"])
    return "timeline.html", page


def _map(site: Site) -> tuple[str, Page]:
    page = site.explorer.map()
    items = [{"kind": p["feature"], "label": p["name"], "lat": p["lat"], "lng": p["long"],
              "country": p["country"], "count": p["articles"],
              "href": site.links.entity(p["place"]),
              "list": "/map/place?" + urlencode({"iri": p["place"]}),
              "detail": f"{p['articles']} article{'s' if p['articles'] != 1 else ''}"}
             for p in page.context["places"]]
    items += [{"kind": "event", "label": f"{e['type']} “{e['trigger'] or ''}”", "lat": e["lat"],
               "lng": e["long"], "href": site.links.article(e["article"], fact=e["fact"]),
               "detail": f"happened {e['happened'] or '?'}, reported {e['reported'] or '?'}"}
              for e in page.context["events"]]
    page.context["map_items"] = items
    return "map.html", page


def _place_list(site: Site, request: Request) -> Response:
    """The articles naming a place, as JSON for the map's list on click."""
    iri = request.query_params.get("iri", "")
    try:
        rows = site.explorer.place_articles(iri)
    except QueryError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    return JSONResponse({"articles": [
        {"title": r["title"] or local(r["article"]), "date": r["date"] or "",
         "mentions": r["mentions"], "href": site.links.article(r["article"], mark=r["mark"])}
        for r in rows]})


def _depth(request: Request) -> int:
    return max(whole_number(request, "depth", 1, MAX_DEPTH), 1)


def _graph_page(site: Site, request: Request) -> tuple[str, Page]:
    """The graph around one entity, drawn by /static/graph.js from /graph/neighbours: its
    neighbours ranked by shared articles, a few at a time, each expandable in place."""
    iri = request.query_params.get("iri", "")
    if not iri:
        raise InputError("give an entity: /graph?iri=IRI")
    depth = _depth(request)
    entry = site.explorer.index.by_iri.get(iri)
    label = entry.label if entry else site.explorer.names.label.get(iri)
    if label is None:
        raise InputError(f"{iri} is not an entity of this graph")
    kind = entry.kind if entry else ""
    page = Page({"iri": iri, "depth": depth, "label": label, "kind": kind,
                 "graph_data": {"root": {"iri": iri, "label": label, "kind": kind,
                                         "href": site.links.entity(iri)},
                                "neighbours": "/graph/neighbours", "first": GRAPH_FIRST,
                                "more": GRAPH_MORE}})
    page.queries.append(("named in the same articles", q.bind(q.NEIGHBOURS, entity=iri)))
    return "graph.html", page


def _neighbours(site: Site, request: Request) -> Response:
    """An entity's neighbours as JSON: ``offset`` and ``limit`` page through them, most
    shared articles first."""
    iri = request.query_params.get("iri", "")
    try:
        offset = whole_number(request, "offset", 0, MAX_OFFSET)
        limit = max(whole_number(request, "limit", GRAPH_MORE, 100), 1)
        found = site.explorer.neighbours(iri)
    except QueryError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    page = [{**n, "href": site.links.entity(n["iri"])} for n in found[offset:offset + limit]]
    return JSONResponse({"iri": iri, "total": len(found), "offset": offset, "items": page})


def _graph_view(site: Site, request: Request) -> Response:
    iri = request.query_params.get("iri", "")
    projection = site.explorer.projection()
    if iri not in projection.nodes:
        return PlainTextResponse(f"{iri} is not in the entity graph", status_code=404)
    around = neighbourhood(projection, iri, _depth(request))
    if len(around.nodes) > DEFAULT_MAX_NODES:  # as kg viz: a hairball nobody can read
        return PlainTextResponse(f"{len(around.nodes):,} nodes, more than {DEFAULT_MAX_NODES:,}:"
                                 " try depth 1", status_code=413)
    view = render(around, f"kg view of {projection.nodes[iri].label}")
    found = _META_CSP.search(view.html)
    # sandboxed, without allow-same-origin: the page runs in an opaque origin and can reach
    # neither this server's pages nor its SPARQL endpoint, nor the window that opened it
    csp = (found.group(1) if found else CSP) + f"; frame-ancestors 'self'; {VIEW_SANDBOX}"
    return HTMLResponse(view.html, headers={"content-security-policy": csp})


def _named_or(site: Site, other: Callable[[Request], Awaitable[Response]]
              ) -> Callable[[Request], Awaitable[Response]]:
    """The query page of a named question as rendered the first time it was shown (a
    thousand rows of claims took ~0.2 s to render, every time); any other query page as
    ``other`` makes it."""
    async def endpoint(request: Request) -> Response:
        params = request.query_params
        name = params.get("name", "")
        if not name or set(params) != {"name"}:
            return await other(request)
        with site._named_lock:
            body = site.named_pages.get(name)
        if body is None:
            response = await other(request)
            if response.status_code == 200 and name in site._named:
                with site._named_lock:
                    site.named_pages[name] = bytes(response.body)
            return response
        return HTMLResponse(body)

    return endpoint


def named_queries_by_name() -> dict[str, NamedQuery]:
    return {n.name: n for n in named_queries()}


def _query_page(site: Site, request: Request) -> tuple[str, Page]:
    params = request.query_params
    named = named_queries_by_name()
    sparql = params.get("q", "")
    name = params.get("name", "")
    if name:
        if name not in named:
            raise QueryError(f"no named question {name!r} (known: {', '.join(named)})")
        sparql = named[name].text
    page = Page({"q": sparql, "name": name, "named": list(named.values()), "answer": None,
                 "error": None, "page_rows": PAGE_ROWS, "max_rows": site.max_rows,
                 "timeout": site.timeout})
    if sparql.strip():
        try:
            page.context["answer"] = (site.named_answer(name) if name else
                                      site.pool.run(sparql, "query"))
        except QueryError as e:
            page.context["error"] = str(e)
    return "query.html", page


class BodyTooLarge(QueryError):
    """A request body over ``MAX_BODY``."""


def _protocol(site: Site) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            sparql, fmt, dataset = await _protocol_request(request)
        except BodyTooLarge as e:
            return PlainTextResponse(f"{e}\n", status_code=413)
        except QueryError as e:
            status = 403 if isinstance(e, QueryRefused) else 400
            return PlainTextResponse(f"{e}\n", status_code=status)
        return await run_in_threadpool(_answer_protocol, site, sparql, fmt, dataset,
                                       request.headers.get("accept", ""))

    return endpoint


async def _protocol_request(request: Request) -> tuple[str, str, Dataset]:
    """The query, the asked format and the dataset of a SPARQL Protocol request; Update is
    refused, and a body is read only up to ``MAX_BODY``."""
    pairs = list(request.query_params.multi_items())
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method == "POST":
        if content_type == "application/sparql-update":
            raise QueryRefused("SPARQL Update is refused: this server is read-only")
        if content_type not in ("application/sparql-query", "application/x-www-form-urlencoded"):
            raise QueryError("POST a query as application/sparql-query or as a form field "
                             "query= (application/x-www-form-urlencoded)")
        body = (await _body(request)).decode("utf-8", "replace")
        if content_type == "application/sparql-query":
            pairs.append(("query", body))
        else:
            pairs += parse_qsl(body, keep_blank_values=True)
    names = [name for name, _ in pairs]
    if "update" in names:
        raise QueryRefused("SPARQL Update is refused: this server is read-only")
    queries = [value for name, value in pairs if name == "query"]
    if len(queries) > 1:
        raise QueryError("give one query= (this request has several)")
    if not queries or not queries[0].strip():
        raise QueryError("no query: give query=SPARQL (GET or POST)")
    dataset = Dataset(tuple(v for n, v in pairs if n == "default-graph-uri"),
                      tuple(v for n, v in pairs if n == "named-graph-uri"))
    fmt = next((v for n, v in pairs if n == "format"), "")
    return queries[0], fmt, dataset


async def _body(request: Request) -> bytes:
    """The request body, refused past ``MAX_BODY`` bytes (by its length or as it comes)."""
    declared = request.headers.get("content-length", "")
    too_large = BodyTooLarge(f"the request body is larger than {MAX_BODY // 1024:,} KiB; "
                             "a SPARQL query is far smaller")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def _answer_protocol(site: Site, sparql: str, fmt: str, dataset: Dataset,
                     accept: str) -> Response:
    try:
        answer: Answer = site.pool.run(sparql, dataset=dataset)
        name, content_type = media_type(answer, fmt, accept)
        body = encode(answer, name)
    except QueryTimeout as e:
        return PlainTextResponse(f"{e}\n", status_code=503)
    except WorkerLost as e:  # the engine crashed: the server's fault, and said as such
        return PlainTextResponse(f"{e}\n", status_code=500)
    except QueryError as e:
        status = 403 if isinstance(e, QueryRefused) else 400
        return PlainTextResponse(f"{e}\n", status_code=status)
    headers = {"x-kg-rows": str(answer.count), "x-kg-truncated": str(answer.truncated).lower()}
    if fmt:
        headers["content-disposition"] = f'attachment; filename="results.{name}"'
    return Response(body, media_type=content_type, headers=headers)


__all__ = ["create_app"]
