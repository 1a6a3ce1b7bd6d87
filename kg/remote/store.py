"""An external SPARQL 1.1 store over HTTP: its endpoints, credentials and graph operations.

``RemoteStore`` speaks the Graph Store HTTP Protocol (``GET``/``PUT`` a graph, ``POST``
N-Quads), SPARQL Update and SPARQL Query, and nothing else: what to send is ``kg.remote.load``'s
business. Requests go through ``kg.remote.client.Client`` (retries, redirects, deadlines,
credentials); errors name the URL and the graph, never the credentials:

    StoreError            the store rejected this request (bad data, HTTP 4xx or 500)
    └── StoreUnavailable  no request can succeed: unreachable, or credentials refused

>>> endpoints_for("http://127.0.0.1:7878", preset="oxigraph").store
'http://127.0.0.1:7878/store'
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Literal

import httpx
import pyoxigraph as ox

from kg.errors import InputError, StoreError
from kg.limits import load_json
from kg.remote.client import (
    AuthScheme,
    Client,
    Connection,
    Credentials,
    StoreUnavailable,
    credentials,
    server_message,
    split_userinfo,
)

__all__ = [
    "DEFAULT_BATCH_SIZE", "PRESETS", "Connection", "Credentials", "Endpoints", "RemoteStore",
    "StoreUnavailable", "connect", "credentials", "endpoints_for", "server_message",
    "split_userinfo",
]

Protocol = Literal["gsp", "update"]

NT = "application/n-triples"
#: Triples per request for stores without a preset (bench/RESULTS-load.md).
DEFAULT_BATCH_SIZE = 5_000
#: Triples per page when a store cut a graph short (Virtuoso's ResultSetMaxRows default).
PAGE_ROWS = 10_000
#: Graph IRIs per counting query: keeps the query text well under servers' URL/form limits.
COUNT_CHUNK = 200
#: Writes refused in a row, none written between them, after which a load stops.
FAILURES_IN_A_ROW = 10
#: The same for one count per graph (``Endpoints.count_each``): measured on Virtuoso at 100.
COUNT_EACH_CHUNK = 100
#: Graphs a whole-store count may list (``Endpoints.count_store``); past it, per graph.
STORE_COUNT_ROWS = PAGE_ROWS


@dataclass(frozen=True, slots=True)
class Endpoints:
    """The URLs of one store: Graph Store Protocol, SPARQL Update and SPARQL Query."""

    store: str | None = None
    update: str | None = None
    query: str | None = None
    graph_param: str = "graph"
    auth: AuthScheme = "basic"
    post_quads: bool = False  # the store adds N-Quads POSTed to ``store`` (new graphs)
    bulk_param: str | None = None  # query parameter for a POST without a transaction
    atomic_bulk: bool = False  # such a POST of one batch is still written whole (Oxigraph)
    trusted_params: tuple[str, ...] = ()  # flags for writes of data kg wrote (``lenient``)
    writers: int = 1  # PUT requests in flight at once (each replaces one graph atomically)
    batch_size: int = DEFAULT_BATCH_SIZE  # triples per SPARQL Update request (bench/)
    quads_batch_size: int = 20_000  # triples per N-Quads POST of new graphs
    posters: int = 1  # N-Quads POSTs in flight at once
    lossy_update: frozenset[str] = frozenset()  # datatypes SPARQL Update may change
    count_each: bool = False  # count each graph by its own IRI, not ``VALUES ?g`` (Virtuoso)
    count_hint: str = ""  # written before each count query (Virtuoso: its access path)
    count_store: bool = False  # first count every graph of the store in one query (Virtuoso)


XSD = "http://www.w3.org/2001/XMLSchema#"
#: Virtuoso 7.2's SPARQL Update stores equal numbers as one value: in one INSERT DATA,
#: "0"^^xsd:nonNegativeInteger, "0"^^xsd:decimal and false^^xsd:boolean come back with one
#: datatype. xsd:integer, xsd:double and non-numeric literals survive; Graph Store loads
#: keep every datatype.
VIRTUOSO_LOSSY = frozenset(XSD + name for name in (
    "boolean decimal float int long short byte nonNegativeInteger positiveInteger "
    "nonPositiveInteger negativeInteger unsignedLong unsignedInt unsignedShort unsignedByte"
).split())

#: Preset name → paths appended to the base URL (``--preset``).
PRESETS: dict[str, Endpoints] = {
    # New graphs in N-Quads batches of 100,000 triples, two in flight, through Oxigraph's bulk
    # loader (``no_transaction``: twice as fast as a transaction, bench/). Oxigraph 0.5 builds
    # a request of under 1,000,000 quads into one set of files and ingests them in one
    # RocksDB step, only once the whole body parsed: a batch is written whole or not at all
    # (tests/test_load_servers.py kills the server and cuts requests mid-body to check it).
    # Changed graphs by SPARQL Update, each with its record (kg.remote.digests); by PUT,
    # three in flight, only where kg keeps no records. ``lenient`` skips re-validating the
    # N-Triples/N-Quads Oxigraph itself wrote on kg's side.
    "oxigraph": Endpoints("/store", "/update", "/query", post_quads=True,
                          bulk_param="no_transaction", atomic_bulk=True,
                          trusted_params=("lenient",), writers=3, quads_batch_size=100_000,
                          posters=2),
    # Virtuoso 7.2 refuses INSERT DATA of ~1,500 triples ("generated SQL text has exceeded
    # 10000 lines") and slows down well before: 500 per request is its sweet spot. It counts
    # 100 graphs of 2,000 triples in 0.2-0.3 s as a UNION of one count per GRAPH <g>, but in
    # 10 s with VALUES ?g, and with either VALUES ?g or FILTER (?g IN (...)) not within 30 s
    # just after a restart (tests/test_load_servers.py restarts it). Its optimizer plans a
    # count from index samples it keeps: a graph sampled empty (counted before a load) is
    # later planned as 0.27 rows and, as the sample falls, read through the POGS index with
    # the object unknown, which scans every triple of the predicate once per subject (4 s
    # per graph of 2,000 triples: kg's count of 100 graphs took 400 s). So kg pins the
    # primary key (a scan of the G column) and counts every graph of the store in one query
    # (20-90 ms for 200,000 triples; per graph: 6 ms each), per graph only past 10,000 graphs.
    "virtuoso": Endpoints(
        "/sparql-graph-crud-auth", "/sparql-auth", "/sparql", "graph-uri", "digest",
        batch_size=500, lossy_update=VIRTUOSO_LOSSY, count_each=True,
        count_hint='define sql:table-option "index RDF_QUAD" ', count_store=True,
    ),
    "fuseki": Endpoints("/data", "/update", "/sparql"),
    "graphdb": Endpoints("/rdf-graphs/service", "/statements", ""),
}


def endpoints_for(url: str, protocol: Protocol = "gsp", preset: str | None = None) -> Endpoints:
    """The store's URLs: a preset's paths under base ``url``, or ``url`` itself.

    >>> endpoints_for("http://127.0.0.1:8890/", preset="virtuoso").update
    'http://127.0.0.1:8890/sparql-auth'
    >>> endpoints_for("http://127.0.0.1:3030/ds/update", "update").query
    'http://127.0.0.1:3030/ds/update'
    """
    if protocol not in ("gsp", "update"):
        raise InputError(f"unknown protocol {protocol!r}; use gsp or update")
    if preset is None:
        return Endpoints(store=url) if protocol == "gsp" else Endpoints(update=url, query=url)
    try:
        paths = PRESETS[preset]
    except KeyError:
        raise InputError(f"unknown preset {preset!r}; use one of {', '.join(PRESETS)}") from None
    base = url.rstrip("/")
    return replace(paths, store=base + str(paths.store), update=base + str(paths.update),
                   query=base + str(paths.query))


def _store_count_query(hint: str) -> str:
    """Triples per graph of the whole store, each row with the number of graphs (a server
    that cuts the answer short is found out by it).

    >>> "GROUP BY ?g" in _store_count_query("")
    True
    """
    return (hint + "SELECT ?g ?n ?graphs WHERE { "
            "{ SELECT (COUNT(DISTINCT ?h) AS ?graphs) WHERE { GRAPH ?h { ?s ?p ?o } } } "
            "{ SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g } } "
            f"LIMIT {STORE_COUNT_ROWS}")


def _count_query(graphs: list[str], each: bool, hint: str = "") -> str:
    """Triples per graph of ``graphs`` (IRIs in angle brackets): ``?g`` and ``?n`` per row.

    >>> _count_query(["<urn:a>", "<urn:b>"], each=True).count("WHERE { GRAPH <urn:")
    2
    """
    if each:
        return hint + "SELECT ?g ?n WHERE { " + " UNION ".join(
            f"{{ SELECT ({g} AS ?g) (COUNT(*) AS ?n) WHERE {{ GRAPH {g} {{ ?s ?p ?o }} }} }}"
            for g in graphs) + " }"
    return (hint + "SELECT ?g (COUNT(*) AS ?n) WHERE { VALUES ?g { " + " ".join(graphs)
            + " } GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")


@dataclass
class RemoteStore:
    """Graph-level operations on one store, through one ``Client``."""

    client: Client
    endpoints: Endpoints
    #: Told of every write request's end: (requests ended, of them failed).
    on_write: Callable[[int, int], None] | None = None
    _failed_in_a_row: int = 0
    _writes: int = 0
    _failures: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, method: str, url: str, graph: str, **kwargs: object) -> httpx.Response:
        """One request, retried on connection errors, timeouts and 5xx; errors name ``graph``.

        A 500 that persists fails only this graph: the store is up and refuses this request
        (Virtuoso answers bad data with 500). Anything else that persists stops the load, and
        so do ``FAILURES_IN_A_ROW`` refused writes with none written between them: a store
        that refuses everything would otherwise be asked graph after graph for an hour.
        """
        write = url != self.endpoints.query
        try:
            response = _checked(self.client.request(method, url, f"graph <{graph}>", **kwargs),
                                url, graph)
        except StoreUnavailable:
            raise
        except StoreError as e:
            if write:
                self._count_write(failed=True, error=e)
            raise
        if write:
            self._count_write(failed=False)
        return response

    def _count_write(self, *, failed: bool, error: StoreError | None = None) -> None:
        with self._lock:
            self._writes += 1
            self._failures += failed
            self._failed_in_a_row = self._failed_in_a_row + 1 if failed else 0
            in_a_row, writes, failures = self._failed_in_a_row, self._writes, self._failures
        if self.on_write is not None:
            self.on_write(writes, failures)
        if in_a_row >= FAILURES_IN_A_ROW:
            raise StoreUnavailable(f"{error}; the store refused the last {in_a_row} writes in "
                                   "a row, so kg stopped asking") from error

    def counts(self, names: list[str]) -> dict[str, int] | None:
        """Triples per named graph (0 when absent); ``None`` without a query URL."""
        url = self.endpoints.query
        if url is None:
            return None
        counts = dict.fromkeys(names, 0)
        if self.endpoints.count_store and names:
            whole = self._store_counts(url, names[0])
            if whole is not None:
                return {name: whole.get(name, 0) for name in names}
        each = self.endpoints.count_each
        chunk = COUNT_EACH_CHUNK if each else COUNT_CHUNK
        for start in range(0, len(names), chunk):
            query = _count_query([f"<{n}>" for n in names[start:start + chunk]], each,
                                 self.endpoints.count_hint)
            response = self.send("POST", url, names[start], data={"query": query},
                                 headers={"Accept": "application/sparql-results+json"})
            for row in _bindings(response, url):
                # rdflib's engine may leave ?n unbound for none
                if "g" in row and "n" in row and row["g"]["value"] in counts:
                    counts[row["g"]["value"]] = int(row["n"]["value"])
        return counts

    def _store_counts(self, url: str, label: str) -> dict[str, int] | None:
        """Triples per graph of the whole store, or ``None`` when it has too many graphs."""
        response = self.send("POST", url, label,
                             data={"query": _store_count_query(self.endpoints.count_hint)},
                             headers={"Accept": "application/sparql-results+json"})
        rows = [row for row in _bindings(response, url) if "g" in row and "n" in row]
        graphs = int(rows[0]["graphs"]["value"]) if rows and "graphs" in rows[0] else 0
        if len(rows) != graphs or graphs >= STORE_COUNT_ROWS:
            return None
        return {row["g"]["value"]: int(row["n"]["value"]) for row in rows}

    def select(self, query: str, label: str) -> list[dict[str, dict[str, str]]]:
        """The rows of a SELECT query (SPARQL JSON bindings); errors name ``label``."""
        url = str(self.endpoints.query)
        response = self.send("POST", url, label, data={"query": query},
                             headers={"Accept": "application/sparql-results+json"})
        return _bindings(response, url)

    def fetch(self, name: str | None, expected: int | None = None) -> list[ox.Triple]:
        """The store's copy of a graph (``None``: the default graph); empty when absent.

        Virtuoso cuts answers at ``ResultSetMaxRows`` (10,000), Graph Store ``GET`` included:
        when fewer than ``expected`` triples come back, the rest is read in ordered pages.
        """
        ends, label = self.endpoints, name or "default"
        if ends.store:
            params = {ends.graph_param: name} if name else {"default": ""}
            response = self.send("GET", ends.store, label, params=params, headers={"Accept": NT})
        else:
            response = self._construct(name, "")
        triples = _read_triples(response, label)
        if not name or not expected or not ends.query or len(triples) in (0, expected):
            return triples
        # Unordered pages: Virtuoso sorts at most 10,000 rows. ``_compare`` counts distinct
        # triples against ``expected``, so an unstable page order shows up as a change.
        triples = []
        while len(triples) < expected:
            page = f"LIMIT {PAGE_ROWS} OFFSET {len(triples)}"
            more = _read_triples(self._construct(name, page), label)
            if not more:
                break
            triples += more
        return triples

    def _construct(self, name: str | None, modifiers: str) -> httpx.Response:
        where = f"GRAPH <{name}> {{ ?s ?p ?o }}" if name else "?s ?p ?o"
        query = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ {where} }} {modifiers}"
        return self.send("POST", str(self.endpoints.query), name or "default",
                         headers={"Accept": NT}, data={"query": query})

    def put(self, name: str | None, body: bytes) -> None:
        """Graph Store ``PUT`` of N-Triples: replaces the graph in one step."""
        ends = self.endpoints
        params = {ends.graph_param: name} if name else {"default": ""}
        params.update(dict.fromkeys(ends.trusted_params, ""))
        self.send("PUT", str(ends.store), name or "default", params=params, content=body,
                  headers={"Content-Type": NT})

    def post_quads(self, body: bytes, label: str, bulk: bool = False) -> None:
        """Graph Store ``POST`` of N-Quads to the whole dataset (adds; Oxigraph takes it).

        ``bulk`` skips the store's transaction (Oxigraph then loads at bulk-loader speed,
        but a failure can leave part of the batch written).
        """
        params = dict.fromkeys(self.endpoints.trusted_params, "")
        params.update({str(self.endpoints.bulk_param): ""} if bulk else {})
        self.send("POST", str(self.endpoints.store), label, content=body, params=params,
                  headers={"Content-Type": "application/n-quads"})

    def delete_quietly(self, name: str) -> None:
        """Best-effort Graph Store ``DELETE`` of a graph: one attempt, errors ignored."""
        try:
            self.client.http.delete(str(self.endpoints.store),
                                    params={self.endpoints.graph_param: name})
        except httpx.HTTPError:
            pass

    def update(self, operations: str, label: str) -> None:
        """One SPARQL Update request (several operations run as one transaction on Oxigraph)."""
        self.send("POST", str(self.endpoints.update), label, content=operations.encode(),
                  headers={"Content-Type": "application/sparql-update"})

    def update_quietly(self, operations: str) -> None:
        """Best-effort clean-up: one attempt, errors ignored."""
        try:
            self.client.http.post(str(self.endpoints.update), content=operations.encode(),
                           headers={"Content-Type": "application/sparql-update"})
        except httpx.HTTPError:
            pass


@contextmanager
def connect(
    endpoints: Endpoints, connection: Connection, *,
    transport: httpx.BaseTransport | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[RemoteStore]:
    """A ``RemoteStore`` whose connections close on exit.

    >>> with connect(endpoints_for("http://127.0.0.1:7878", preset="oxigraph"),
    ...              Connection()) as s:
    ...     s.counts(["https://example.org/g"])  # doctest: +SKIP
    {'https://example.org/g': 0}
    """
    with Client(connection, default_auth=endpoints.auth, transport=transport,
                sleep=sleep) as client:
        yield RemoteStore(client, endpoints)


def _checked(response: httpx.Response, url: str, graph: str) -> httpx.Response:
    status = response.status_code
    if status >= 400 and not (status == 404 and response.request.method == "GET"):
        raise StoreError(f"{url} rejected graph <{graph}> (HTTP {status}): "
                         f"{server_message(response)}")
    if not 200 <= status < 300 and status != 404:
        raise StoreError(f"{url} answered HTTP {status} for graph <{graph}>, which is not "
                         "a success")
    return response


def _read_triples(response: httpx.Response, label: str) -> list[ox.Triple]:
    if response.status_code == 404:
        return []
    media = response.headers.get("Content-Type", NT).split(";")[0].strip()
    try:
        fmt = ox.RdfFormat.from_media_type(media) or ox.RdfFormat.N_TRIPLES
        return [quad.triple for quad in ox.parse(response.content, format=fmt)]
    except (SyntaxError, ValueError) as e:
        raise StoreError(f"cannot read graph <{label}> back from the store: {e}") from e


def _bindings(response: httpx.Response, url: str) -> list[dict[str, dict[str, str]]]:
    try:
        return list(load_json(response.content)["results"]["bindings"])
    except (ValueError, KeyError, TypeError) as e:
        raise StoreUnavailable(f"{url} did not answer with SPARQL JSON results ({e})") from e

