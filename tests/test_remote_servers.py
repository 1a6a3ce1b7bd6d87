"""Named questions and ``kg stats``'s questions give the embedded store's rows on every store
(issue 15.1): ``oxigraph serve`` with and without ``--union-default-graph``, Virtuoso, and a
store that only understands the SPARQL Protocol's ``default-graph-uri``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.remote.client import Client, Connection
from kg.remote.endpoint import dataset_view, run_remote
from kg.remote.load import load_dataset
from kg.store.embedded import open_store
from kg.store.sparql import named_queries, run_query
from kg.views import analytics, projection
from tests.servers import (  # noqa: F401  (fixtures)
    Virtuoso,
    oxigraph_server,
    rdflib_server,
    run_oxigraph,
    run_virtuoso,
)
from tests.test_load_servers import rows

#: One Virtuoso at a time: two at once, beside the rest of the suite, time out each other's
#: queries (SR171). Every module holding this group runs on one xdist worker.
pytestmark = pytest.mark.xdist_group("virtuoso")

#: The questions ``kg stats`` and the explorer ask (kg/views), beside the named ones.
VIEW_QUESTIONS = {
    "stats-classes": analytics.CLASS_COUNTS,
    "stats-relations": analytics.RELATION_COUNTS,
    "view-entities": projection.ENTITIES,
    "view-aliases": projection.ALIASES,
    "view-mentions": projection.MENTION_COUNTS,
    "view-co-mentions": projection.CO_MENTIONS,
    "view-links": projection.LINKS,
}
QUESTIONS = {**{q.name: q.text for q in named_queries()}, **VIEW_QUESTIONS}
SOURCES = {q.name: str(q.path) for q in named_queries()}  # as `kg query --name` gives them
#: Seconds a question may take on a busy machine (the default, 30, is for people).
SLOW = 300.0
FREE_FORM = "SELECT ?person WHERE { ?person a schema:Person }"
runner = CliRunner()


@pytest.fixture(scope="module")
def plain_oxigraph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``oxigraph serve`` as it starts by default: the default graph is only itself."""
    with run_oxigraph(tmp_path_factory.mktemp("plain"), union=False) as server:
        yield server.url


@pytest.fixture(scope="module")
def seed_virtuoso(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Virtuoso]:
    """A Virtuoso of this module's own: the rows are compared on a store holding the seed build
    alone. Beside other graphs (the session's ``virtuoso_server`` holds the load tests'),
    Virtuoso 7.2 drops rows of a ``SELECT DISTINCT`` sub-select over a ``default-graph-uri``
    list in some fresh stores and not in others: 2 of the explorer's 224 links in 7 of 20
    stores beside 200 small graphs (CI failed on it), none in 8 holding the seed build alone
    (docs/stores.md). The named questions are compared beside other data below."""
    with run_virtuoso(tmp_path_factory.mktemp("seed-virtuoso")) as server:
        yield server


@pytest.fixture(params=["oxigraph-union", "oxigraph-plain", "virtuoso"])
def query_url(request: pytest.FixtureRequest, seed_build: Path) -> str:
    """The query URL of a store holding the seed build."""
    source = seed_build / "graph.trig"
    if request.param == "virtuoso":
        server: Virtuoso = request.getfixturevalue("seed_virtuoso")
        from kg.remote.client import Credentials

        auth = Credentials(server.user, server.password)
        assert load_dataset(source, server.url, preset="virtuoso", auth=auth).ok
        return f"{server.url}/sparql"
    base = request.getfixturevalue(
        "oxigraph_server" if request.param == "oxigraph-union" else "plain_oxigraph")
    assert load_dataset(source, base, preset="oxigraph").ok
    return f"{base}/query"


@pytest.fixture(scope="module")
def embedded(seed_build: Path) -> ox.Store:
    return open_store(seed_build / "graph.trig")


def sampled_columns(text: str) -> set[str]:
    return set(re.findall(r"SAMPLE\(.*?\)\s+AS\s+\?(\w+)", text, re.I))


@pytest.mark.server
def test_every_question_gives_the_embedded_rows(query_url: str, embedded: ox.Store) -> None:
    for name, text in QUESTIONS.items():
        here = run_query(embedded, text)
        if name in VIEW_QUESTIONS:
            there = run_remote(query_url, text, union=True, timeout=SLOW)
        else:  # a named question is recognised as one, as `kg query --name` sends it
            there = run_remote(query_url, text, source=SOURCES[name], timeout=SLOW)
        sampled = sampled_columns(text)
        assert rows(there, sampled) == rows(here, sampled), name
        assert rows(run_query(embedded, text), sampled), f"{name} found nothing to compare"


@pytest.mark.server
def test_named_questions_answer_on_a_virtuoso_holding_other_data(tmp_path: Path,
                                                                 seed_build: Path,
                                                                 embedded: ox.Store) -> None:
    """Virtuoso refuses a question its optimiser estimates at over 400 s (Debian's default
    MaxQueryCostEstimationTime), and the estimate grows with everything the store holds: the
    conflicting-figures question was refused beside 100,000 triples of other data (estimated
    at 2.5 days; it answers in seconds). Each named question must answer there."""
    from kg.remote.client import Credentials

    other = tmp_path / "other.nq"
    other.write_text("".join(f'<https://example.org/s{i}> <https://example.org/p{i % 50}> '
                             f'"{i}" <https://example.org/g{i % 300}> .\n'
                             for i in range(100_000)))
    with run_virtuoso(tmp_path / "virtuoso") as server:
        auth = Credentials(server.user, server.password)
        for source in (seed_build / "graph.trig", other):
            assert load_dataset(source, server.url, preset="virtuoso", auth=auth,
                                sql=server.sql_port).ok
        for question in named_queries():
            # A user's three attempts: right after a load, a busy machine can make Virtuoso
            # roll back the dataset probe's graph listing with SR171 (a transaction timed out
            # on a lock, answered as HTTP 500), which the client retries — seen twice in a row
            # under a load of 20 on two cores. A refused estimate, what this test is about, is
            # never retried (client.ESTIMATE_REFUSAL).
            there = run_remote(f"{server.url}/sparql", question.text, source=str(question.path),
                               timeout=SLOW, attempts=3)
            sampled = sampled_columns(question.text)
            assert rows(there, sampled) == rows(run_query(embedded, question.text), sampled), \
                question.name


@pytest.mark.server
def test_named_questions_through_the_cli_need_no_setup(plain_oxigraph: str,
                                                       seed_build: Path) -> None:
    assert load_dataset(seed_build / "graph.trig", plain_oxigraph, preset="oxigraph").ok
    result = runner.invoke(app, ["query", "--name", "people-roles", "--endpoint",
                                 f"{plain_oxigraph}/query", "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["results"]["bindings"]
    assert "hint" not in result.stderr


@pytest.mark.server
def test_an_empty_free_form_answer_over_hidden_graphs_gets_a_hint(plain_oxigraph: str,
                                                                  oxigraph_server: str,  # noqa: F811
                                                                  seed_build: Path) -> None:
    for base in (plain_oxigraph, oxigraph_server):
        assert load_dataset(seed_build / "graph.trig", base, preset="oxigraph").ok
    hidden = runner.invoke(app, ["query", FREE_FORM, "--endpoint", f"{plain_oxigraph}/query"])
    seen = runner.invoke(app, ["query", FREE_FORM, "--endpoint", f"{oxigraph_server}/query"])
    assert hidden.exit_code == 0 and hidden.stderr.startswith("hint: ")
    assert len(hidden.stderr.strip().splitlines()) == 1 and "GRAPH ?g" in hidden.stderr
    assert seen.exit_code == 0 and seen.stderr == "" and "person/" in seen.stdout


# -- a store that only knows the SPARQL Protocol's dataset parameters ----------------------


def protocol_only_endpoint(store: ox.Store) -> httpx.MockTransport:
    """Answers queries like a store whose default graph is its own (not the union) and that
    ignores Oxigraph's ``union-default-graph``, but honours ``default-graph-uri``."""
    def answer(request: httpx.Request) -> httpx.Response:
        form = httpx.QueryParams(request.content.decode())
        defaults = [ox.NamedNode(g) for g in form.get_list("default-graph-uri")]
        named = [ox.NamedNode(g) for g in form.get_list("named-graph-uri")]
        result = store.query(form["query"], default_graph=defaults or None,
                             named_graphs=named or None)
        body = result.serialize(format=ox.QueryResultsFormat.JSON)  # type: ignore[union-attr]
        return httpx.Response(200, content=body,
                              headers={"Content-Type": "application/sparql-results+json"})
    return httpx.MockTransport(answer)


def test_a_store_without_a_union_option_is_asked_graph_by_graph(embedded: ox.Store) -> None:
    transport = protocol_only_endpoint(embedded)
    url = "http://protocol-only.test/sparql"
    with Client(Connection(), transport=transport) as client:
        view = dataset_view(client, url)
    assert not view.union and ("default-graph-uri", "https://w3id.org/kgnews/id/graph/entities") \
        in view.params
    for name in ("people-roles", "entities-across-articles", "events"):
        text = QUESTIONS[name]
        there = run_remote(url, text, source=SOURCES[name], transport=transport)
        assert rows(there, set()) == rows(run_query(embedded, text), set()), name
    free = run_remote(url, FREE_FORM, transport=transport)
    assert rows(free, set()) == []  # a free-form question is sent as it is


# -- a third store: rdflib-endpoint (PyPI), SPARQL 1.1 Query and Update only ---------------


@pytest.mark.server
def test_a_third_store_loads_by_update_and_answers(rdflib_server: str) -> None:  # noqa: F811
    """rdflib's in-memory dataset behind rdflib-endpoint: kg load over SPARQL Update (it has
    no Graph Store Protocol), a re-load that writes nothing, and questions that see every
    graph. Its engine parses SPARQL with pyparsing (slow) and fails some of kg's named
    questions itself (claims.rq: "Variable quantity is not bound"), so they are not compared
    here; docs/stores.md says so."""
    from tests.test_load_servers import fresh_base, graphs_of, news

    url = rdflib_server + "/"
    source = news(fresh_base("rdflib"), articles=2, plain_numbers=True)
    first = load_dataset(source, url, protocol="update", batch_size=300, timeout=300)
    again = load_dataset(source, url, protocol="update", batch_size=300, timeout=300)
    assert first.ok and first.count("loaded") == 3, first.summary()
    assert again.count("unchanged") == 3, again.summary()
    for name, graph in graphs_of(source).items():
        count = run_remote(url, f"SELECT (COUNT(*) AS ?n) {{ GRAPH <{name}> {{ ?s ?p ?o }} }}",
                           timeout=SLOW)
        assert int(next(iter(count))["n"].value) == len(graph), name  # type: ignore[call-overload]
