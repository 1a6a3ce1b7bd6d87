"""The web application: routes, templates, security headers.

    /                    counts and the most mentioned entities
    /search?q=&type=     names and aliases, ranked by mentions, forgiving of typos
    /entity/<path>       an entity: roles, claims, events, relations, mentions (``?iri=`` too)
    /article/<path>      an article: text with mentions linked, facts; ``?fact=IRI`` shows
                         a fact's evidence highlighted, ``?mark=B-E`` a stretch of text
    /timeline            events: when they happened vs when they were reported
    /map                 places and events with coordinates (vendored Leaflet, no tiles)
    /conflicts           the conflicting-figures ledger
    /graph?iri=&depth=   the ``kg viz`` view around one entity (``/graph/view`` is the frame)
    /query?q=|name=      named questions and free read-only SPARQL
    /sparql              the SPARQL 1.1 Protocol (GET, POST; Update refused)

Pages are rendered on the server by Jinja2 with autoescaping: article text and names are
data, never markup. The only scripts are files under ``/static`` (the map's), allowed by a
Content-Security-Policy without ``unsafe-inline``; page data reaches them as JSON in a
``<script type="application/json">`` block, read with ``JSON.parse``.

>>> app = create_app("output/graph.trig")  # doctest: +SKIP
"""

from __future__ import annotations

import re
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kg.config import Settings
from kg.errors import InputError, KGError, QueryError
from kg.serve.links import Links
from kg.serve.pages import CLASSES, Explorer, Page, days_between, local
from kg.serve.protocol import encode, media_type, term_text
from kg.serve.text import render as render_text
from kg.serve.timeline import timeline_chart
from kg.serve.worker import Answer, QueryPool, QueryRefused, QueryTimeout
from kg.store.embedded import open_store
from kg.store.sparql import named_queries
from kg.views.viz import DEFAULT_MAX_NODES, neighbourhood, render

STATIC = Path(__file__).parent / "static"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'self'")
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-opener-policy", b"same-origin")]
PAGE_ROWS = 1000
# Pages run in a few threads, not Starlette's forty: twenty requests in forty threads fought
# over the GIL (pyoxigraph releases it for every row), and the unlucky ones waited; with
# three, p95 under 20 clients fell from 312 to 231 ms at the same throughput.
PAGE_THREADS = 3
MAX_DEPTH = 2
_META_CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
_MARK = re.compile(r"(\d+)-(\d+)")
_TYPE = re.compile(r"[A-Za-z]+")

ASGIApp = Callable[[MutableMapping[str, Any], Callable[..., Any], Callable[..., Any]],
                   Awaitable[None]]


class SecurityHeaders:
    """Adds the Content-Security-Policy and friends to every response that has none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[..., Any],
                       send: Callable[..., Any]) -> None:
        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [h for h in SECURITY_HEADERS if h[0] not in names]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Site:
    """The explorer over one graph: the store for pages, a worker pool for free SPARQL."""

    def __init__(self, graph: Path, *, timeout: float, max_rows: int, workers: int) -> None:
        self.graph = graph
        self.explorer = Explorer(open_store(graph), Settings().base_iri)
        self.pool = QueryPool(graph, size=workers, timeout=timeout, max_rows=max_rows)
        self.timeout, self.max_rows = timeout, max_rows
        self.page_threads = PAGE_THREADS
        self.page_limiter: anyio.CapacityLimiter | None = None  # made in the event loop
        self.links = Links(self.explorer.base)
        self.templates = _environment(self.links)

    def html(self, name: str, page: Page, status: int = 200, **extra: Any) -> HTMLResponse:
        template = self.templates.get_template(name)
        return HTMLResponse(template.render(**page.context, queries=page.queries, **extra),
                            status_code=status)

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
        web_url=links.web, local=local, classes=CLASSES, term_text=term_text,
        days_between=days_between)
    env.filters["confidence"] = lambda c: f"{float(c):.2f}" if c not in (None, "") else ""
    return env


def create_app(graph: str | Path, *, timeout: float = 10.0, max_rows: int = 10_000,
               workers: int = 2) -> Starlette:
    """The explorer for the graph file ``graph`` (opened read-only).

    ``timeout`` (seconds) and ``max_rows`` bound every free SPARQL query, which runs in one
    of ``workers`` worker processes.
    """
    site = Site(Path(graph), timeout=timeout, max_rows=max_rows, workers=workers)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> Any:
        # ready before the first search and entity page
        await run_in_threadpool(lambda: (site.explorer.index, site.explorer.names,
                                         site.explorer.heads, site.explorer.article_links))
        threading.Thread(target=site.explorer.warm, name="kg-serve-warm", daemon=True).start()
        yield
        site.pool.close()

    routes = [
        Route("/", _page(site, lambda r: ("home.html", site.explorer.home()))),
        Route("/search", _page(site, lambda r: ("search.html", site.explorer.search(
            r.query_params.get("q", ""), r.query_params.get("type"))))),
        Route("/entity", _page(site, lambda r: _entity(site, r, r.query_params.get("iri", "")))),
        Route("/entity/{rest:path}", _page(site, lambda r: _entity(
            site, r, site.explorer.base + r.path_params["rest"]))),
        Route("/article", _page(site, lambda r: _article(site, r,
                                                         r.query_params.get("iri", "")))),
        Route("/article/{rest:path}", _page(site, lambda r: _article(
            site, r, f"{site.explorer.base}article/{r.path_params['rest']}"))),
        Route("/timeline", _page(site, lambda r: _timeline(site, r), anchored=False)),
        Route("/map", _page(site, lambda r: _map(site), anchored=False)),
        Route("/conflicts", _page(site, lambda r: ("conflicts.html", site.explorer.conflicts()),
                                  anchored=False)),
        Route("/graph", _page(site, lambda r: _graph_page(site, r), anchored=False)),
        Route("/graph/view", _sync(lambda r: _graph_view(site, r))),
        Route("/query", _page(site, lambda r: _query_page(site, r), anchored=False)),
        Route("/sparql", _protocol(site), methods=["GET", "POST"]),
        Route("/favicon.ico", lambda r: Response(status_code=204)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
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
        except InputError as e:
            return site.problem(e, 404)
        except QueryError as e:
            return site.problem(e, 400)
        return site.html(name, page)

    return _sync(handler, site if anchored else None)


def _entity(site: Site, request: Request, iri: str) -> tuple[str, Page]:
    if not iri:
        raise InputError("give an entity: /entity?iri=IRI")
    offset = request.query_params.get("offset", "0")
    return "entity.html", site.explorer.entity(iri, int(offset) if offset.isdigit() else 0)


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
    items = [{"kind": "place", "label": p["name"] or local(p["place"]), "lat": p["lat"],
              "lng": p["long"], "href": site.links.entity(p["place"]),
              "detail": f"{p['mentions'] or 0} mentions"} for p in page.context["places"]]
    items += [{"kind": "event", "label": f"{e['type']} “{e['trigger'] or ''}”", "lat": e["lat"],
               "lng": e["long"], "href": site.links.article(e["article"], fact=e["fact"]),
               "detail": f"happened {e['happened'] or '?'}, reported {e['reported'] or '?'}"}
              for e in page.context["events"]]
    page.context["map_items"] = items
    return "map.html", page


def _depth(request: Request) -> int:
    value = request.query_params.get("depth", "1")
    return min(max(int(value), 1), MAX_DEPTH) if value.isdigit() else 1


def _graph_page(site: Site, request: Request) -> tuple[str, Page]:
    iri = request.query_params.get("iri", "")
    if not iri:
        raise InputError("give an entity: /graph?iri=IRI&depth=1")
    depth = _depth(request)
    projection = site.explorer.projection()
    if iri not in projection.nodes:
        raise InputError(f"{iri} is not in the entity graph")
    around = neighbourhood(projection, iri, depth)
    page = Page({"iri": iri, "depth": depth, "label": projection.nodes[iri].label,
                 "nodes": len(around.nodes), "edges": len(around.edges),
                 "max_nodes": DEFAULT_MAX_NODES})
    page.queries.append(("the entity graph (kg viz)", "# kg.views.projection.entity_graph: "
                         "entities, co-mentions and facts between them"))
    return "graph.html", page


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
    csp = (found.group(1) if found else CSP) + "; frame-ancestors 'self'"
    return HTMLResponse(view.html, headers={"content-security-policy": csp})


def _query_page(site: Site, request: Request) -> tuple[str, Page]:
    params = request.query_params
    named = {n.name: n for n in named_queries()}
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
            page.context["answer"] = site.pool.run(sparql, f"query {name}".strip())
        except QueryError as e:
            page.context["error"] = str(e)
    return "query.html", page


def _protocol(site: Site) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            sparql, fmt = await _protocol_request(request)
        except QueryError as e:
            status = 403 if isinstance(e, QueryRefused) else 400
            return PlainTextResponse(f"{e}\n", status_code=status)
        return await run_in_threadpool(_answer_protocol, site, sparql, fmt,
                                       request.headers.get("accept", ""))

    return endpoint


async def _protocol_request(request: Request) -> tuple[str, str]:
    """The query and the asked format of a SPARQL Protocol request; Update is refused."""
    params = dict(request.query_params)
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method == "POST":
        if content_type == "application/sparql-update":
            raise QueryRefused("SPARQL Update is refused: this server is read-only")
        if content_type == "application/sparql-query":
            params["query"] = (await request.body()).decode("utf-8", "replace")
        elif content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.form()
            params.update({k: str(v) for k, v in form.items()})
        else:
            raise QueryError("POST a query as application/sparql-query or as a form field "
                             "query= (application/x-www-form-urlencoded)")
    if "update" in params:
        raise QueryRefused("SPARQL Update is refused: this server is read-only")
    for unsupported in ("default-graph-uri", "named-graph-uri"):
        if unsupported in params:
            raise QueryError(f"{unsupported} is not supported: queries see the union of all "
                             "graphs; name graphs in the query (GRAPH, FROM)")
    if not params.get("query", "").strip():
        raise QueryError("no query: give query=SPARQL (GET or POST)")
    return params["query"], params.get("format", "")


def _answer_protocol(site: Site, sparql: str, fmt: str, accept: str) -> Response:
    try:
        answer: Answer = site.pool.run(sparql)
        name, content_type = media_type(answer, fmt, accept)
        body = encode(answer, name)
    except QueryTimeout as e:
        return PlainTextResponse(f"{e}\n", status_code=503)
    except QueryError as e:
        status = 403 if isinstance(e, QueryRefused) else 400
        return PlainTextResponse(f"{e}\n", status_code=status)
    headers = {"x-kg-rows": str(answer.count), "x-kg-truncated": str(answer.truncated).lower()}
    if fmt:
        headers["content-disposition"] = f'attachment; filename="results.{name}"'
    return Response(body, media_type=content_type, headers=headers)


__all__ = ["create_app"]
