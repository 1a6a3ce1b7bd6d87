"""``kg serve`` attacked as a hostile web page or an unlucky user would (issues 37 and 38):
SERVICE smuggled past the read-only check, DNS rebinding, huge bodies, odd numbers in the
URL, a query worker that dies, and SPARQL's dataset clauses honoured.

Every request goes through Starlette's TestClient on the seed build; the SSRF tests also
listen on a free local port and fail if the server ever connects to it.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kg.serve import create_app
from kg.serve.guard import allowed_hosts, host_allowed
from kg.serve.readonly import QueryRefused, check_read_only
from kg.store.embedded import open_store
from kg.store.sparql import has_dataset_clause, run_query

LOCAL = "http://127.0.0.1"
GRAPH_BASE = "https://w3id.org/kgnews/id/graph/article/"


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections made to it."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self.socket.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.socket.close()


@pytest.fixture(scope="module")
def client(seed_build: Path) -> Iterator[TestClient]:
    with TestClient(create_app(seed_build / "graph.trig", timeout=5, max_rows=100, workers=1),
                    base_url=LOCAL) as test_client:
        yield test_client


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


# -- SERVICE (SSRF) ------------------------------------------------------------------------------

SMUGGLED = [  # each would make the engine fetch {url}
    'SELECT * WHERE {{ BIND("""\n\'""" AS ?z) SERVICE <{url}> {{ ?s ?p ?o }} }} #\'',
    "SELECT * WHERE {{ BIND('''\n\"''' AS ?z) SERVICE <{url}> {{ ?s ?p ?o }} }} #\"",
    "SELECT * {{ ?s ?p ?o FILTER EXISTS {{ SERVICE SILENT <{url}> {{ ?s ?p ?o }} }} }}",
    "SELECT * {{ {{ SELECT ?s {{ OPTIONAL {{ service <{url}> {{ ?s ?p ?o }} }} }} }} }}",
    "SELECT * {{ VALUES ?e {{ <{url}> }} SERVICE ?e {{ ?s ?p ?o }} }}",
    "ASK {{ MINUS {{ SeRvIcE <{url}> {{ ?s ?p ?o }} }} }}",
    "CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH ?g {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }}",
]


@pytest.mark.parametrize("template", SMUGGLED)
@pytest.mark.parametrize("how", ["get", "post form", "post body", "query page"])
def test_service_is_refused_at_any_depth_by_every_route(
        client: TestClient, listener: Listener, template: str, how: str) -> None:
    query = template.format(url=f"http://127.0.0.1:{listener.port}/sparql")
    if how == "get":
        response = client.get("/sparql", params={"query": query})
    elif how == "post form":
        response = client.post("/sparql", data={"query": query})
    elif how == "post body":
        response = client.post("/sparql", content=query.encode(),
                               headers={"content-type": "application/sparql-query"})
    else:
        response = client.get("/query", params={"q": query})
    time.sleep(0.3)  # a connection the engine made would have been accepted by now
    assert listener.connections == 0
    if how == "query page":
        assert "SERVICE is refused" in response.text
    else:
        assert response.status_code == 403 and "SERVICE is refused" in response.text


@pytest.mark.parametrize("query", [
    'SELECT ?x { BIND("SERVICE <http://127.0.0.1:9/> { }" AS ?x) }',  # in a string
    "SELECT ?service { ?service a <http://x.org/SERVICE> } # SERVICE",
    "SELECT ?add ?load { ?add ?drop ?load }",
])
def test_the_word_service_outside_the_grammar_is_no_service(query: str) -> None:
    check_read_only(query)


@pytest.mark.parametrize("query", [
    "DROP ALL", "PREFIX x: <y> INSERT { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "LOAD <http://127.0.0.1:9/data.ttl>", "CLEAR SILENT GRAPH <http://x.org/g>",
    "DELETE DATA { <a:b> <a:c> <a:d> }",
])
def test_updates_are_refused(query: str) -> None:
    with pytest.raises(QueryRefused, match="read-only"):
        check_read_only(query)


def test_a_query_the_checker_cannot_parse_runs_only_without_the_word_service() -> None:
    check_read_only("SELECT * WHERE { ?s ?p }")  # malformed: the engine says where
    with pytest.raises(QueryRefused):
        check_read_only("SELECT * WHERE { ?s ?p } # service")


# -- Host allow-list (DNS rebinding) ------------------------------------------------------------

@pytest.mark.parametrize(("host", "bound", "allowed"), [
    ("127.0.0.1:8080", "127.0.0.1", True), ("localhost", "127.0.0.1", True),
    ("[::1]:8080", "127.0.0.1", True), ("evil.example", "127.0.0.1", False),
    ("attacker.example:8080", "127.0.0.1", False), ("127.0.0.1.evil.example", "127.0.0.1", False),
    ("", "127.0.0.1", False), ("kg.newsroom.example:80", "kg.newsroom.example", True),
    ("10.0.0.7:8080", "127.0.0.1", False), ("10.0.0.7:8080", "0.0.0.0", True),
    ("evil.example", "0.0.0.0", False), ("localhost:x", "127.0.0.1", False),
])
def test_host_allow_list(host: str, bound: str, allowed: bool) -> None:
    assert host_allowed(host, allowed_hosts(bound)) is allowed


def test_a_request_naming_another_host_gets_nothing(client: TestClient) -> None:
    for url in ("/", "/sparql?query=ASK%7B%7D", "/static/kg.css", "/entity/person/x"):
        response = client.get(url, headers={"host": "attacker.example"})
        assert response.status_code == 421, url
        assert "Putin" not in response.text and response.headers["cache-control"] == "no-store"
    assert client.get("/", headers={"host": "localhost:8080"}).status_code == 200


# -- headers, bodies, numbers in the URL, error pages ---------------------------------------------

def test_no_response_is_stored_by_the_browser(client: TestClient) -> None:
    for url in ("/", "/search?q=putin", "/static/kg.css", "/sparql?query=ASK%7B%7D", "/nowhere",
                "/entity?offset=%C2%B2&iri=x"):
        assert client.get(url).headers["cache-control"] == "no-store", url


def test_request_bodies_are_capped(client: TestClient) -> None:
    big = b"SELECT * { ?s ?p ?o } #" + b"x" * (2 * 1024 * 1024)
    declared = client.post("/sparql", content=big,
                           headers={"content-type": "application/sparql-query"})
    assert declared.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b"query=SELECT%20*%20%7B%7D%20%23"
        for _ in range(40):
            yield b"y" * 65536

    streamed = client.post("/sparql", content=chunks(),
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert streamed.status_code == 413
    assert client.post("/sparql", data={"query": "ASK {}"}).json()["boolean"] is True


@pytest.mark.parametrize("url", [
    "/entity/person/vladimir-putin?offset=%C2%B2", "/entity/person/vladimir-putin?offset=-1",
    "/entity/person/vladimir-putin?offset=" + "9" * 5000,
    "/entity/person/vladimir-putin?offset=99999999999999999999",
    "/graph?iri=https://w3id.org/kgnews/id/person/vladimir-putin&depth=%C2%B2",
    "/graph?iri=https://w3id.org/kgnews/id/person/vladimir-putin&depth=" + "1" * 5000,
])
def test_odd_numbers_in_the_url_get_a_clean_page(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert "must be a whole number" in response.text
    assert "Traceback" not in response.text and "SELECT" not in response.text.split("<footer")[0]


def test_an_offset_past_the_end_shows_no_internal_error(client: TestClient) -> None:
    response = client.get("/entity/person/vladimir-putin", params={"offset": "9999999"})
    assert response.status_code == 200
    assert "syntax error" not in response.text and "Traceback" not in response.text


def test_an_unforeseen_failure_shows_no_internals(seed_build: Path) -> None:
    app = create_app(seed_build / "graph.trig", workers=1)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internal detail /home/someone/graph.trig")

    app.state.site.explorer.home = broken
    with TestClient(app, base_url=LOCAL, raise_server_exceptions=False) as test_client:
        response = test_client.get("/")
    assert response.status_code == 500 and "went wrong" in response.text
    assert "secret" not in response.text and "Traceback" not in response.text


# -- a query worker that dies -------------------------------------------------------------------

def _workers(client: TestClient) -> list[Any]:
    pool = client.app.state.site.pool  # type: ignore[attr-defined]
    return [w for w in list(pool._idle.queue) if w is not None]


def test_a_dead_worker_is_replaced_and_later_queries_keep_working(client: TestClient) -> None:
    assert client.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}).status_code == 200
    for worker in _workers(client):
        os.kill(worker.process.pid, signal.SIGKILL)  # between queries
        worker.process.join(5)
    for _ in range(3):
        response = client.get("/sparql", params={"query": "ASK { ?s a schema:Person }"})
        assert response.status_code == 200 and response.json()["boolean"] is True
        assert client.get("/query", params={"name": "people-roles"}).status_code == 200


def test_a_worker_dying_during_a_query_fails_that_query_only(client: TestClient) -> None:
    client.get("/sparql", params={"query": "ASK {}"})  # a started worker
    worker = _workers(client)[0]
    threading.Timer(0.5, os.kill, (worker.process.pid, signal.SIGKILL)).start()
    runaway = "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
    died = client.get("/sparql", params={"query": runaway})
    assert died.status_code == 500 and "stopped unexpectedly" in died.text
    assert not worker.process.is_alive()
    after = client.get("/sparql", params={"query": "ASK { ?s a schema:Person }"})
    assert after.status_code == 200 and after.json()["boolean"] is True


# -- SPARQL dataset semantics -------------------------------------------------------------------

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


def _count(client: TestClient, query: str, **params: str) -> int:
    response = client.get("/sparql", params={"query": query, **params})
    assert response.status_code == 200, response.text
    return int(response.json()["results"]["bindings"][0]["n"]["value"])


def test_from_and_the_protocols_graph_parameters_choose_the_graphs(
        client: TestClient, seed_build: Path) -> None:
    store = open_store(seed_build / "graph.trig")
    graphs = sorted(str(r["g"].value) for r in run_query(
        store, "SELECT DISTINCT ?g { GRAPH ?g { ?a a schema:NewsArticle } }"))
    one, two = graphs[0], graphs[1]
    all_triples = _count(client, "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }")
    in_one = _count(client, COUNT.replace("WHERE", f"WHERE {{ GRAPH <{one}>") + " }")
    assert 0 < in_one < all_triples
    assert _count(client, COUNT.replace("WHERE", f"FROM <{one}> WHERE")) == in_one
    both = _count(client, COUNT.replace("WHERE", f"FROM <{one}> FROM <{two}> WHERE"))
    assert in_one < both < all_triples
    assert _count(client, "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }",
                  **{"default-graph-uri": one}) == in_one
    named = "SELECT (COUNT(DISTINCT ?g) AS ?n) { GRAPH ?g { ?s ?p ?o } }"
    assert _count(client, named, **{"named-graph-uri": two}) == 1
    assert _count(client, f"SELECT (COUNT(DISTINCT ?g) AS ?n) FROM NAMED <{one}> "
                          "{ GRAPH ?g { ?s ?p ?o } }") == 1
    # the protocol's parameters win over the query's FROM
    assert _count(client, COUNT.replace("WHERE", f"FROM <{two}> WHERE"),
                  **{"default-graph-uri": one}) == in_one


def test_kg_query_honours_from(seed_build: Path) -> None:
    from typer.testing import CliRunner

    from kg.cli import app as cli

    store = open_store(seed_build / "graph.trig")
    graph = next(iter(run_query(store, "SELECT ?g { GRAPH ?g { ?a a schema:NewsArticle } } "
                                       "ORDER BY ?g LIMIT 1")))["g"].value
    counted = [CliRunner().invoke(cli, ["query", q, "--graph", str(seed_build / "graph.trig"),
                                        "--format", "csv"]).output.splitlines()[1]
               for q in (f"SELECT (COUNT(*) AS ?n) FROM <{graph}> {{ ?s ?p ?o }}",
                         "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }")]
    assert int(counted[0]) < int(counted[1])


@pytest.mark.parametrize(("query", "has"), [
    ("SELECT * FROM <http://x.org/g> { ?s ?p ?o }", True),
    ("select * from named <http://x.org/g> { graph ?g { ?s ?p ?o } }", True),
    ('SELECT ?from { ?from rdfs:label "from" } # FROM', False),
    ('SELECT * { ?s ex:from """\nFROM <x:y>""" }', False),
])
def test_dataset_clauses_are_read_from_the_query(query: str, has: bool) -> None:
    assert has_dataset_clause(query) is has
