"""Remote SPARQL endpoints: what is sent (prefixes, escaped parameters, dataset), and answers.

The query goes by POST (SPARQL 1.1 Protocol) asking for SPARQL results JSON or N-Triples,
through ``kg.remote.client.Client`` (credentials, TLS, one deadline for all retries); the
answer is parsed by Oxigraph into the same objects the embedded engine returns, so
``kg.store.sparql.write_result`` formats both alike.

kg's named questions read the default graph as the union of the named graphs, as the
embedded store does. Stores differ: Virtuoso's default graph is that union, ``oxigraph
serve`` has it only with ``--union-default-graph``, Fuseki only with ``unionDefaultGraph``.
``dataset_view`` finds out for each such question (a few small queries) and named questions are
sent so that they see every graph of kg's anyway: Oxigraph's ``union-default-graph``
parameter where the store takes it, else the SPARQL Protocol's ``default-graph-uri`` for each
named graph; where the store also holds graphs that are not kg's (Virtuoso's own system
graphs, other data), ``default-graph-uri`` lists kg's graphs only, as the embedded store
would hold them.

>>> values_clause({"name": "Kyiv"})
'\\nVALUES (?name) { ("Kyiv") }'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import pyoxigraph as ox

from kg.errors import QueryError, StoreError
from kg.limits import load_json
from kg.remote.client import Client, Connection, server_message, split_userinfo
from kg.store.sparql import (
    QUERIES_DIR,
    Result,
    run_query,
    short,
    substitutions,
    with_prefixes,
)

__all__ = ["DatasetView", "dataset_view", "remote_query_text", "run_remote", "values_clause"]

ACCEPT = ("application/sparql-results+json, application/n-triples;q=0.9, "
          "text/turtle;q=0.8, application/sparql-results+xml;q=0.5, application/rdf+xml;q=0.5")
JSON_RESULTS = "application/sparql-results+json"
#: Named graphs listed as ``default-graph-uri`` at most; beyond, the store must be set up.
MAX_LISTED_GRAPHS = 2_000
#: Oxigraph's query parameter that makes the default graph the union of all graphs.
UNION_PARAMETER = "union-default-graph"
#: How kg names its graphs (kg.rdf.terms, kg.rdf.provenance): <base>graph/article/<id>,
#: …/entities, …/events, …/ontology (its vocabulary) and …/build (the build record).
KG_GRAPH = re.compile(r"/graph/(article/[^/]+|entities|events|ontology|build)$")


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


@dataclass(frozen=True, slots=True)
class DatasetView:
    """How a store's default graph relates to its named graphs, and how to see them all.

    ``params`` go with every question that expects the union (empty when the default graph
    already is the union, or when the store holds no named graph).
    """

    named: bool  # the store holds triples in named graphs
    union: bool  # its default graph shows them
    params: tuple[tuple[str, str], ...] = ()


def dataset_view(client: Client, url: str) -> DatasetView:
    """Probe the endpoint at ``url``: is its default graph the union of kg's named graphs?

    A triple is taken from some named graph and looked up in the default graph; if it is not
    there, the store is asked again with Oxigraph's ``union-default-graph`` parameter, and
    failing that the named graphs are listed for ``default-graph-uri``. Not remembered: a
    store changes as builds are loaded, and the probe is a few small queries.

    >>> dataset_view(Client(Connection()), "http://127.0.0.1:7878/query")  # doctest: +SKIP
    DatasetView(named=True, union=False, params=(('union-default-graph', ''),))
    """
    return _probe(client, url)


def _probe(client: Client, url: str) -> DatasetView:
    sample = _json(client, url, "SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o "
                   "FILTER (!isBlank(?s) && !isBlank(?o)) } } LIMIT 1")["results"]["bindings"]
    if not sample:
        return DatasetView(named=False, union=True)
    graphs = _graph_names(client, url)
    kg = [g for g in graphs if KG_GRAPH.search(g)]
    # A store with graphs of its own (Virtuoso's system graphs) or of other data: only kg's.
    only_kg = _listed(kg) if kg and len(kg) < len(graphs) <= MAX_LISTED_GRAPHS else ()
    row = sample[0]
    ask = f"ASK {{ {_term(row['s'])} {_term(row['p'])} {_term(row['o'])} }}"
    if _json(client, url, ask)["boolean"]:
        return DatasetView(named=True, union=True, params=only_kg)
    if only_kg:
        return DatasetView(named=True, union=False, params=only_kg)
    union = ((UNION_PARAMETER, ""),)
    if _json(client, url, ask, union)["boolean"]:
        return DatasetView(named=True, union=False, params=union)
    return DatasetView(named=True, union=False, params=_listed(graphs[:MAX_LISTED_GRAPHS]))


def _graph_names(client: Client, url: str) -> list[str]:
    """The store's named graphs, at most one more than ``MAX_LISTED_GRAPHS``."""
    for pattern in ("{ }", "{ ?s ?p ?o }"):  # an empty pattern is cheap, not every store has it
        query = (f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {pattern} }} "
                 f"LIMIT {MAX_LISTED_GRAPHS + 1}")
        rows = _json(client, url, query)["results"]["bindings"]
        names = [r["g"]["value"] for r in rows if "g" in r]  # Virtuoso: one row, ?g unbound
        if names:
            return names
    return []


def _listed(graphs: list[str]) -> tuple[tuple[str, str], ...]:
    return tuple([("default-graph-uri", g) for g in graphs]
                 + [("named-graph-uri", g) for g in graphs])


def _term(binding: dict[str, str]) -> str:
    kind, value = binding["type"], binding["value"]
    if kind == "uri":
        return str(ox.NamedNode(value))
    if "xml:lang" in binding:
        return str(ox.Literal(value, language=binding["xml:lang"]))
    datatype = binding.get("datatype")
    return str(ox.Literal(value, datatype=ox.NamedNode(datatype) if datatype else None))


def _json(client: Client, url: str, query: str,
          extra: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    response = client.request("POST", url, "the query", data=_form(query, extra),
                              headers={"Accept": JSON_RESULTS})
    if response.status_code >= 400:
        raise StoreError(f"SPARQL endpoint {url} answered HTTP {response.status_code}: "
                         f"{server_message(response)}")
    try:
        answer = load_json(response.content)
    except ValueError as e:
        raise StoreError(f"SPARQL endpoint {url} did not answer with SPARQL JSON "
                         f"results ({e})") from e
    if not isinstance(answer, dict) or not ("boolean" in answer or "results" in answer):
        raise StoreError(f"SPARQL endpoint {url} did not answer with SPARQL JSON results")
    return answer


def _form(query: str, extra: tuple[tuple[str, str], ...]) -> dict[str, str | list[str]]:
    """The POST form: the query, then protocol parameters (a name may repeat)."""
    form: dict[str, str | list[str]] = {"query": query}
    for name, value in extra:
        previous = form.get(name)
        form[name] = value if previous is None else [
            *(previous if isinstance(previous, list) else [previous]), value]
    return form


def is_named_question(source: str) -> bool:
    """Whether ``source`` (as ``read_query`` names it) is one of kg's named questions.

    >>> is_named_question("query")
    False
    """
    try:
        return Path(source).resolve().parent == Path(QUERIES_DIR).resolve()
    except (OSError, ValueError):
        return False


def run_remote(endpoint: str, sparql: str, params: Mapping[str, str] | None = None,
               source: str = "query", client: httpx.Client | None = None,
               timeout: float = 30.0, attempts: int = 3, *,
               connection: Connection | None = None,
               transport: httpx.BaseTransport | None = None,
               union: bool | None = None,
               warn: Callable[[str], None] | None = None) -> Result:
    """Run ``sparql`` on the SPARQL endpoint at ``endpoint`` (SPARQL 1.1 Protocol, POST).

    Connection failures, timeouts and 429/5xx answers are retried (``attempts`` in all)
    with backoff, all within ``timeout`` seconds; then ``StoreError`` (``StoreTimeout``
    when time ran out), or ``QueryError`` for a 400 answer, with the server's message.
    ``connection`` gives credentials, TLS and limits instead (``timeout``/``attempts`` are
    then ignored); credentials in the URL are used and never shown. ``union`` sends the
    question so that its default graph is the union of the named graphs, as embedded; by
    default that is done for kg's named questions. Otherwise, when nothing is found and the
    store holds named graphs its default graph does not show, ``warn`` gets one line saying
    so. ``client``/``transport`` are for tests.

    >>> run_remote("http://127.0.0.1:7878/query", "ASK {}")  # doctest: +SKIP
    <QueryBoolean true>
    """
    url, in_url = split_userinfo(endpoint)
    text = remote_query_text(sparql, params, source)
    if connection is None:
        connection = Connection(in_url, timeout=timeout, deadline=timeout,
                                retries=max(0, attempts - 1))
    elif in_url is not None and connection.credentials is None:
        connection = replace(connection, credentials=in_url)
    with Client(connection, http=client, transport=transport) as remote:
        wanted = union if union is not None else is_named_question(source)
        extra = dataset_view(remote, url).params if wanted else ()
        response = remote.request("POST", url, "the query", data=_form(text, extra),
                                  headers={"Accept": ACCEPT})
        result = _parse_response(response, url, source)
        if warn is not None and not wanted and _is_empty(response, result):
            view = dataset_view(remote, url)
            if view.named and not view.union:
                warn(f"{url} found nothing, and its default graph does not include its named "
                     "graphs, where kg's graphs are: ask within GRAPH ?g { … }, or use a "
                     "named question (they see every graph)")
    return result


def _is_empty(response: httpx.Response, result: Result) -> bool:
    if isinstance(result, ox.QueryBoolean):
        return False
    if isinstance(result, list):
        return not result
    media = response.headers.get("content-type", "").split(";")[0].strip().lower()
    results_format = ox.QueryResultsFormat.from_media_type(media)
    if results_format is None:
        return False
    again = ox.parse_query_results(response.content, format=results_format)
    return isinstance(again, ox.QuerySolutions) and next(iter(again), None) is None


def _parse_response(response: httpx.Response, endpoint: str, source: str) -> Result:
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
