"""``kg serve`` through Starlette's TestClient: every page on the seed build, search ranking,
evidence links, the SPARQL Protocol, read-only and runaway queries, hostile names.

The browser half (a real server and Chromium) is ``tests/test_serve_browser.py``.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from markupsafe import escape
from starlette.testclient import TestClient
from typer.testing import CliRunner

from kg.cli import app as cli
from kg.serve import create_app, graph_file
from kg.serve.readonly import check_read_only
from kg.serve.run import is_loopback
from kg.serve.search import Entry, NameIndex
from kg.serve.text import Span, pieces
from kg.store.embedded import open_store
from kg.store.sparql import named_query, run_query
from tests.graphs import A2, MALLORY, PAYLOAD_NAME, PAYLOAD_SENTENCE, SYNTHETIC_TRIG

PUTIN = "https://w3id.org/kgnews/id/person/vladimir-putin"
NIF = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
LOCAL = "http://127.0.0.1"  # the Host the explorer answers to (kg.serve.guard)
RUNAWAY = "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


@pytest.fixture(scope="module")
def client(seed_build: Path) -> Iterator[TestClient]:
    with TestClient(create_app(seed_build / "graph.trig", timeout=3, max_rows=50,
                               workers=1), base_url=LOCAL) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    graph = tmp_path_factory.mktemp("hostile") / "graph.trig"
    text = str(ox.Literal(PAYLOAD_SENTENCE + " " * 20 + "<a href='javascript:alert(1)'>x</a>"))
    graph.write_text(SYNTHETIC_TRIG + f"<{A2}> <{NIF}isString> {text} .\n", encoding="utf-8")
    with TestClient(create_app(graph, workers=1), base_url=LOCAL) as test_client:
        yield test_client


def links(page: str, prefix: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(rf'href="({re.escape(prefix)}[^"]*)"', page)]


# -- search ----------------------------------------------------------------------------------

ENTRIES = [Entry("e1", "Boris Johnson", ("Johnson",), "Person", 120),
           Entry("e2", "Johnson Matthey", (), "Organization", 4),
           Entry("e3", "Volodymyr Zelenskiy", ("Zelensky", "Volodymyr Zelenskyy"), "Person", 40),
           Entry("e4", "Kyiv", ("Kiev",), "Place", 300),
           Entry("e5", "José Mourinho", (), "Person", 2)]


@pytest.mark.parametrize(("query", "kind", "first"), [
    ("johnson", None, "Boris Johnson"),              # an alias, exactly
    ("johnson", "Organization", "Johnson Matthey"),  # the type filter
    ("zelenksy", None, "Volodymyr Zelenskiy"),       # a typo
    ("Zelenskyy", None, "Volodymyr Zelenskiy"),      # another spelling, as an alias
    ("zel", None, "Volodymyr Zelenskiy"),            # the start of a name
    ("kiev", None, "Kyiv"),                          # an old name
    ("jose mourinho", None, "José Mourinho"),        # accents do not matter
    ("Mourhino", None, "José Mourinho"),             # a typo in the last name only
])
def test_search_finds_names_aliases_partial_names_and_typos(query: str, kind: str | None,
                                                            first: str) -> None:
    hits = NameIndex(ENTRIES).search(query, kind)
    assert hits and hits[0].entry.label == first
    assert all(h.entry.kind == kind for h in hits) if kind else True


def test_search_ranks_equal_matches_by_mentions() -> None:
    hits = NameIndex(ENTRIES).search("john")
    assert [h.entry.label for h in hits[:2]] == ["Boris Johnson", "Johnson Matthey"]
    assert NameIndex(ENTRIES).search("qqqq") == []


def test_search_page_links_to_the_entity(client: TestClient) -> None:
    page = client.get("/search", params={"q": "putn"}).text  # a typo
    assert links(page, "/entity/")[0] == "/entity/person/vladimir-putin"
    places = client.get("/search", params={"q": "", "type": "Place"}).text
    assert "Mariupol" in places and "Vladimir Putin" not in places
    government = client.get("/search", params={"q": "Government of Russia"}).text
    assert "/entity/government/russia" in links(government, "/entity/")  # it speaks, unmentioned


# -- entity and article ------------------------------------------------------------------------

def test_entity_page_shows_roles_mentions_and_the_evidence_of_each_fact(client: TestClient
                                                                        ) -> None:
    page = client.get("/entity/person/vladimir-putin")
    assert page.status_code == 200
    text = page.text
    assert "President" in text
    assert re.search(r"<mark>(Vladimir )?Putin</mark>", text)  # each mention in its sentence
    assert "role." in text  # the rule of a role fact
    evidence = [link for link in links(text, "/article/") if "fact=" in link]
    assert evidence, "every fact links to its evidence"
    article = client.get(evidence[0]).text
    marked = re.findall(r'<mark class="evidence[^"]*">(.*?)</mark>', article, re.S)
    assert marked and 'id="evidence"' in article
    assert "Putin" in html.unescape(re.sub(r"<[^>]+>", "", " ".join(marked)))


def test_entity_page_by_iri_and_unknown_entities(client: TestClient) -> None:
    assert client.get("/entity", params={"iri": PUTIN}).status_code == 200
    missing = client.get("/entity/person/nobody-at-all")
    assert missing.status_code == 404 and "no entity" in missing.text
    assert client.get("/entity", params={"iri": "not an iri"}).status_code == 400


def test_article_page_links_every_mention_and_lists_its_facts(client: TestClient,
                                                              seed_build: Path) -> None:
    store = open_store(seed_build / "graph.trig")
    article = next(iter(run_query(store, "SELECT ?a { ?a a schema:NewsArticle } ORDER BY ?a")))
    iri = article["a"].value
    mentions = run_query(store, f"SELECT (COUNT(*) AS ?n) {{ ?m a nif:Phrase ; "
                                f"nif:referenceContext <{iri}> }}")
    page = client.get("/article/" + iri.rsplit("/", 1)[1]).text
    assert page.count('class="mention') == int(next(iter(mentions))["n"].value)
    assert "Facts read from it" in page and "show evidence" in page
    wrong = client.get("/article/" + iri.rsplit("/", 1)[1], params={"fact": "https://x.org/f"})
    assert "not in this article" in wrong.text


def test_pieces_keep_every_character_and_mark_only_inside_the_text() -> None:
    text = "Putin met Macron in Paris."
    parts = pieces(text, [Span(0, 5, "p"), Span(10, 16, "m"), Span(2, 8, "x"), Span(20, 99)],
                   evidence=[Span(0, 26)], focus=[Span(10, 16)])
    assert "".join(p.text for p in parts) == text
    assert [p.text for p in parts if p.mention] == ["Putin", "Macron"]
    assert [p.text for p in parts if p.focus] == ["Macron"] and parts[0].anchor


# -- timeline, map, conflicts, graph ----------------------------------------------------------

def test_timeline_draws_both_lanes_and_filters(client: TestClient, seed_build: Path) -> None:
    page = client.get("/timeline").text
    events = page.count('class="kg-event"')
    assert events > 0 and "happened" in page and "reported" in page
    kinds = re.findall(r'<option value="(\w+)">\w+ \((\d+)\)', page)
    kind, count = kinds[-1]
    filtered = client.get("/timeline", params={"type": kind}).text
    assert filtered.count('<tr class="fact">') == int(count)
    about = client.get("/timeline", params={"entity": PUTIN}).text
    assert about.count('<tr class="fact">') < page.count('<tr class="fact">')


def test_map_carries_the_places_the_text_uses_as_places(client: TestClient,
                                                        seed_build: Path) -> None:
    store = open_store(seed_build / "graph.trig")
    cities = {r["p"].value for r in run_query(store, "SELECT ?p { ?p wgs:lat ?lat }")}
    page = client.get("/map").text
    data = re.search(r'<script type="application/json" id="map-data">(.*?)</script>', page, re.S)
    assert data is not None and len(cities) > 0
    items = json.loads(data.group(1))["items"]
    drawn = {i["label"] for i in items if i["kind"] == "city"}
    assert {"Mariupol", "Kyiv", "Moscow"} <= drawn
    assert all(i["count"] > 0 and i["list"].startswith("/map/place?") for i in items
               if i["kind"] in ("city", "country"))
    assert {"Ukraine", "Russia"} <= {i["label"] for i in items if i["kind"] == "country"}
    mariupol = next(i for i in items if i["label"] == "Mariupol")
    listed = client.get(mariupol["list"]).json()["articles"]
    assert len(listed) == mariupol["count"] and listed[0]["href"].startswith("/article/")


def test_conflicts_page_lists_the_named_questions_measures(client: TestClient,
                                                           seed_build: Path) -> None:
    store = open_store(seed_build / "graph.trig")
    rows = list(run_query(store, named_query("conflicting-figures").text))
    page = client.get("/conflicts").text
    for measure in {r["measure"].value for r in rows}:
        assert html.escape(measure) in page
    assert page.count('<tr class="fact">') == len(rows)


def test_graph_page_draws_neighbours_ranked_by_shared_articles(client: TestClient) -> None:
    page = client.get("/graph", params={"iri": PUTIN}).text
    assert 'src="/static/graph.js"' in page and "<iframe" not in page
    first = client.get("/graph/neighbours", params={"iri": PUTIN, "limit": 3}).json()
    shared = [n["shared"] for n in first["items"]]
    assert len(shared) == 3 and shared == sorted(shared, reverse=True) and first["total"] > 3
    assert all(n["href"].startswith("/entity/") for n in first["items"])
    more = client.get("/graph/neighbours", params={"iri": PUTIN, "offset": 3, "limit": 3}).json()
    assert not {n["iri"] for n in more["items"]} & {n["iri"] for n in first["items"]}
    view = client.get("/graph/view", params={"iri": PUTIN, "depth": 1})
    assert view.status_code == 200 and "Vladimir Putin" in view.text
    policy = view.headers["content-security-policy"]
    assert "sandbox allow-scripts" in policy and "allow-same-origin" not in policy
    assert client.get("/graph", params={"iri": "https://x.org/none"}).status_code == 404


# -- queries ------------------------------------------------------------------------------------

def test_every_page_shows_the_queries_it_ran(client: TestClient) -> None:
    for url in ("/", "/entity/person/vladimir-putin", "/timeline", "/map", "/conflicts"):
        page = client.get(url).text
        query_links = links(page, "/query?q=")
        assert query_links, url
    ran = client.get(links(client.get("/conflicts").text, "/query?q=")[0])
    assert ran.status_code == 200 and "rows" in ran.text


def test_query_page_runs_named_questions_and_offers_downloads(client: TestClient) -> None:
    page = client.get("/query", params={"name": "people-roles"}).text
    assert "Vladimir Putin" in page and "<table class=\"results\">" in page
    download = links(page, "/sparql?")[0]
    table = list(csv.reader(io.StringIO(client.get(download).text)))
    assert table[0][0] == "person" and len(table) > 1


def test_sparql_protocol_get_post_and_formats(client: TestClient) -> None:
    query = "SELECT ?label { ?e a schema:Person ; rdfs:label ?label } ORDER BY ?label"
    got = client.get("/sparql", params={"query": query})
    assert got.headers["content-type"].startswith("application/sparql-results+json")
    labels = [b["label"]["value"] for b in got.json()["results"]["bindings"]]
    assert "Vladimir Putin" in labels
    posted = client.post("/sparql", data={"query": query}, headers={"accept": "text/csv"})
    assert posted.text.splitlines()[1:] == labels
    body = client.post("/sparql", content=query.encode(),
                       headers={"content-type": "application/sparql-query"})
    assert body.json() == got.json()
    ask = client.get("/sparql", params={"query": "ASK { ?s a schema:Person }"}).json()
    assert ask["boolean"] is True
    graph = client.get("/sparql", params={"query": "CONSTRUCT { ?e a schema:Person } WHERE "
                                                   "{ ?e a schema:Person }"},
                       headers={"accept": "text/turtle"})
    assert graph.headers["content-type"].startswith("text/turtle") and "schema:Person" in graph.text


@pytest.mark.parametrize("request_args", [
    {"method": "GET", "url": "/sparql", "params": {"update": "DROP ALL"}},
    {"method": "POST", "url": "/sparql", "data": {"update": "CLEAR ALL"}},
    {"method": "POST", "url": "/sparql", "content": b"INSERT DATA { <a:b> <a:c> <a:d> }",
     "headers": {"content-type": "application/sparql-update"}},
    {"method": "GET", "url": "/sparql", "params": {"query": "DELETE WHERE { ?s ?p ?o }"}},
    {"method": "GET", "url": "/sparql",
     "params": {"query": "SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }"}},
])
def test_updates_and_federation_are_refused(client: TestClient,
                                            request_args: dict[str, Any]) -> None:
    response = client.request(**request_args)
    assert response.status_code == 403
    assert client.get("/sparql", params={"query": "ASK { ?s a schema:Person }"}).json()["boolean"]


def test_read_only_check_spares_variables_named_like_keywords() -> None:
    check_read_only("SELECT ?add ?load { ?add ?drop ?load }")
    with pytest.raises(Exception, match="read-only"):
        check_read_only("PREFIX x: <y> INSERT { ?s ?p ?o } WHERE { ?s ?p ?o }")


def test_bad_queries_say_where(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p }"})
    assert response.status_code == 400 and "line 1" in response.text
    page = client.get("/query", params={"q": "SELECT * WHERE { ?s ?p }"}).text
    assert "SPARQL syntax error" in page


def test_rows_are_cut_at_the_limit_and_say_so(client: TestClient) -> None:
    response = client.get("/sparql", params={"query": "SELECT * { ?s ?p ?o }"})
    assert len(response.json()["results"]["bindings"]) == 50
    assert response.headers["x-kg-truncated"] == "true"
    page = client.get("/query", params={"q": "SELECT * { ?s ?p ?o }"}).text
    assert "cut at the row limit" in page


def test_a_runaway_query_is_stopped_and_the_server_keeps_answering(client: TestClient) -> None:
    import time

    started = time.monotonic()
    response = client.get("/sparql", params={"query": RUNAWAY})
    assert response.status_code == 503 and "time limit" in response.text
    assert time.monotonic() - started < 15
    after = client.get("/sparql", params={"query": "ASK { ?s a schema:Person }"})
    assert after.status_code == 200 and after.json()["boolean"] is True
    assert client.get("/entity/person/vladimir-putin").status_code == 200


# -- safety -------------------------------------------------------------------------------------

def test_security_headers_on_every_response(client: TestClient) -> None:
    for url in ("/", "/map", "/static/kg.css", "/sparql?query=ASK%7B%7D", "/nowhere"):
        headers = client.get(url).headers
        policy = headers["content-security-policy"]
        scripts = next(d for d in policy.split(";") if "script-src" in d)
        assert "unsafe-inline" not in scripts and "default-src 'none'" in policy, url
        assert headers["x-content-type-options"] == "nosniff"


def test_markup_in_names_and_sentences_is_escaped_on_every_page(hostile: TestClient) -> None:
    mallory = MALLORY.rsplit("/", 1)[1]
    pages = {"/": None, "/search?q=mallory": None, f"/entity/person/{mallory}": None,
             "/article/a2": None, "/timeline": None, "/map": None, "/conflicts": None,
             "/query?q=SELECT%20?l%20%7B?e%20rdfs:label%20?l%7D": None,
             f"/graph?iri={MALLORY}": None}
    for url in pages:
        page = hostile.get(url).text
        assert "<img src=x" not in page and "<script>window" not in page, url
        assert "<a href='javascript" not in page and 'href="javascript' not in page, url
    entity = hostile.get(f"/entity/person/{mallory}").text
    assert str(escape(PAYLOAD_NAME)) in entity
    article = hostile.get("/article/a2").text
    assert str(escape("<script>window.__pwned=1</script>")) in article
    assert PAYLOAD_SENTENCE.split("<")[0] in article


def test_graph_files_and_folders(seed_build: Path, tmp_path: Path) -> None:
    assert graph_file(seed_build) == seed_build / "graph.trig"
    with pytest.raises(Exception, match="holds no graph file"):
        graph_file(tmp_path)
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")


def test_cli_serve_refuses_a_missing_graph(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", str(tmp_path / "none.trig")])
    assert result.exit_code == 1 and "not found" in result.output


@pytest.mark.parametrize(("host", "processes", "warned"), [
    ("127.0.0.1", 1, False), ("0.0.0.0", 1, True), ("::1", 2, False)])
def test_serve_warns_off_localhost_and_hands_uvicorn_the_app(
        seed_build: Path, monkeypatch: pytest.MonkeyPatch, host: str, processes: int,
        warned: bool) -> None:
    import uvicorn

    from kg.serve import run

    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    monkeypatch.setattr(run, "run_processes", lambda config: calls.append(
        (config.app, {"host": config.host, "port": config.port, "workers": config.workers})))
    monkeypatch.delenv(run.CONFIG_VARIABLE, raising=False)
    said: list[str] = []
    run.serve(seed_build, host, 8123, processes=processes, say=said.append)
    assert any(line.startswith("warning:") for line in said) == warned
    app, options = calls[0]
    assert options["host"] == host and options["port"] == 8123
    if processes > 1:
        assert app == "kg.serve.run:app_from_environment" and options["workers"] == 2
        built = run.app_from_environment()
        assert built.state.site.graph == seed_build / "graph.trig"
        built.state.site.pool.close()
    else:
        app.state.site.pool.close()


def test_several_processes_listen_with_tcp_nodelay() -> None:
    """uvicorn's multi-process socket left ``proto`` 0, so asyncio did not set TCP_NODELAY on
    its connections: each keep-alive response waited ~40 ms for a delayed ACK."""
    import asyncio
    import socket

    import uvicorn

    from kg.serve import run

    listener = run.tcp_listener(uvicorn.Config("kg.serve.run:app_from_environment",
                                               host="127.0.0.1", port=0))

    async def accepted_nodelay() -> int:
        found: list[int] = []

        def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            found.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accept, sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        for _ in range(100):
            if found:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        return found[0]

    with listener:
        assert listener.proto == socket.IPPROTO_TCP
        assert asyncio.run(accepted_nodelay()) != 0


def test_article_page_lists_its_copies(tmp_path: Path) -> None:
    base = "https://w3id.org/kgnews/id/article/"
    graph = tmp_path / "graph.trig"
    graph.write_text(
        "@prefix schema: <https://schema.org/> .\n"
        "@prefix nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> .\n"
        f'<{base}wire> a schema:NewsArticle ; schema:headline "Wire story" ;\n'
        '    nif:isString "Leaders met in Paris." .\n'
        f'<{base}copy> a schema:NewsArticle ; schema:headline "Syndicated copy" ;\n'
        f'    <https://w3id.org/kgnews/ontology#copyOf> <{base}wire> .\n', encoding="utf-8")
    with TestClient(create_app(graph, workers=1), base_url=LOCAL) as test_client:
        original = test_client.get("/article/wire").text
        copy = test_client.get("/article/copy").text
    assert "Syndicated copy" in original and 'href="/article/copy"' in original
    assert "kg:copyOf" in original and 'href="/article/wire"' in copy


def test_pages_run_in_a_few_threads(seed_build: Path) -> None:
    """Twenty entity pages at once share PAGE_THREADS threads (forty threads fought over the
    GIL, and the unlucky requests waited)."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from kg.serve.app import PAGE_THREADS

    app = create_app(seed_build / "graph.trig", workers=1)
    explorer = app.state.site.explorer
    running, most = 0, 0
    lock = threading.Lock()
    entity = explorer.entity

    def counted(iri: str, offset: int = 0) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        try:
            return entity(iri, offset)
        finally:
            with lock:
                running -= 1

    explorer.entity = counted
    with TestClient(app, base_url=LOCAL) as test_client, ThreadPoolExecutor(20) as threads:
        statuses = list(threads.map(
            lambda _: test_client.get("/entity/person/vladimir-putin").status_code, range(20)))
    assert statuses == [200] * 20
    assert most == PAGE_THREADS
