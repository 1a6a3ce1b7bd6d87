"""Remote SPARQL endpoints: what is sent (prefixes, escaped parameters), retries, answers.

The query goes by POST (SPARQL 1.1 Protocol) asking for SPARQL results JSON or N-Triples;
the answer is parsed by Oxigraph into the same objects the embedded engine returns, so
``kg.store.sparql.write_result`` formats both alike. The endpoint's default graph should be the
union of its named graphs (``oxigraph serve --union-default-graph``; Virtuoso's default).

>>> values_clause({"name": "Kyiv"})
'\\nVALUES (?name) { ("Kyiv") }'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyoxigraph as ox

from kg.errors import QueryError, StoreError
from kg.store.sparql import Result, run_query, short, substitutions, with_prefixes

ACCEPT = ("application/sparql-results+json, application/n-triples;q=0.9, "
          "text/turtle;q=0.8, application/sparql-results+xml;q=0.5, application/rdf+xml;q=0.5")
RETRY_STATUSES = frozenset({429, 502, 503, 504})


def values_clause(params: Mapping[str, str]) -> str:
    """A trailing ``VALUES`` clause binding ``params``; every value is an escaped RDF term.

    >>> values_clause({"name": 'say "hi" }'})
    '\\nVALUES (?name) { ("say \\\\"hi\\\\" }") }'
    """
    bound = substitutions(params)
    if not bound:
        return ""
    names = " ".join(str(v) for v in bound)
    terms = " ".join(str(t) for t in bound.values())
    return f"\nVALUES ({names}) {{ ({terms}) }}"


def remote_query_text(sparql: str, params: Mapping[str, str] | None = None,
                      source: str = "query") -> str:
    """The text sent to an endpoint: prefixes declared, parameters as a ``VALUES`` clause.

    With parameters the query is first checked by Oxigraph (syntax, and that a SELECT
    projects each parameter), so an endpoint gets the same errors and rows as the embedded
    engine. Without parameters the text goes as it is (vendor extensions keep working).

    >>> remote_query_text("SELECT ?x { ?x a schema:Person }", {"x": "https://x.org/a"})[-35:]
    'VALUES (?x) { (<https://x.org/a>) }'
    """
    if params:
        run_query(ox.Store(), sparql, params, source)  # an empty store: only checks the query
    return with_prefixes(sparql) + values_clause(params or {})


def run_remote(endpoint: str, sparql: str, params: Mapping[str, str] | None = None,
               source: str = "query", client: Any = None, timeout: float = 60.0,
               attempts: int = 3) -> Result:
    """Run ``sparql`` on the SPARQL endpoint at ``endpoint`` (SPARQL 1.1 Protocol, POST).

    Connection failures and 429/502/503/504 answers are retried ``attempts`` times with
    backoff; other failures raise ``StoreError`` (or ``QueryError`` for a 400 answer, with
    the server's message). ``client`` is an ``httpx.Client`` (tests inject a transport).

    >>> run_remote("http://127.0.0.1:7878/query", "ASK {}")  # doctest: +SKIP
    <QueryBoolean true>
    """
    import httpx

    text = remote_query_text(sparql, params, source)
    owned = client is None
    client = client or httpx.Client(timeout=timeout)
    try:
        response = _post_with_retries(client, endpoint, text, attempts)
    finally:
        if owned:
            client.close()
    return _parse_response(response, endpoint, source)


def _post_with_retries(client: Any, endpoint: str, text: str, attempts: int) -> Any:
    import time

    import httpx

    problem = ""
    for attempt in range(attempts):
        if attempt:
            time.sleep(0.25 * 2 ** attempt)
        try:
            response = client.post(endpoint, data={"query": text}, headers={"Accept": ACCEPT})
        except httpx.HTTPError as e:
            problem = f"{type(e).__name__}: {e}"
            continue
        if response.status_code not in RETRY_STATUSES:
            return response
        problem = f"HTTP {response.status_code}"
    raise StoreError(f"SPARQL endpoint {endpoint} failed after {attempts} attempts ({problem})")


def _parse_response(response: Any, endpoint: str, source: str) -> Result:
    body = response.text if response.status_code >= 400 else ""
    if response.status_code == 400:
        raise QueryError(f"{source}: {endpoint} rejected the query: {short(body, 600)}")
    if response.status_code >= 400:
        raise StoreError(f"SPARQL endpoint {endpoint} answered HTTP {response.status_code}: "
                         f"{short(body, 300)}")
    media = response.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        results_format = ox.QueryResultsFormat.from_media_type(media)
        if results_format is not None:
            return ox.parse_query_results(response.content, format=results_format)
        rdf_format = ox.RdfFormat.from_media_type(media)
        if rdf_format is not None:
            return [q.triple for q in ox.parse(response.content, format=rdf_format)]
    except (SyntaxError, ValueError) as e:
        raise StoreError(f"SPARQL endpoint {endpoint} sent unreadable {media}: {e}") from e
    raise StoreError(f"SPARQL endpoint {endpoint} answered with {media or 'no content type'}, "
                     "not SPARQL results or RDF")
