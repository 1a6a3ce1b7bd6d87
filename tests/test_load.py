"""Unit tests of ``kg load``'s logic over an injected HTTP transport (no network).

``MemoryStore`` answers the Oxigraph preset's endpoints from an in-memory ``pyoxigraph.Store``,
so what a load leaves behind is checked triple for triple; ``fail`` injects faults.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pyoxigraph as ox
import pytest
from rdflib import Dataset, Literal, URIRef

from kg.errors import GraphError, InputError, StoreError
from kg.remote.client import AccessRefused
from kg.remote.digests import DIGEST_GRAPH, trusted
from kg.remote.load import Credentials, graph_format, load_dataset, read_source
from kg.remote.replacement import SourceGraph
from kg.remote.store import PRESETS, credentials, endpoints_for, split_userinfo
from kg.store.embedded import GRAPH_FORMATS
from kg.store.embedded import graph_format as store_format

URL = "http://store.test"
G = "https://w3id.org/kgnews/id/graph/"
P = ox.NamedNode("https://schema.org/name")
SECRET = "pw-Zx9!unique-secret"
NASTY = [
    'He said "no" and left',
    "back\\slash \\n not a newline",
    "line one\nline two\r\nline three\ttabbed",
    'triple """ quotes and } GRAPH <x> { braces',
    "Zelensky – Зеленський – 泽连斯基 – 🇺🇦 😀",
    "control \u0001 char and \u007f",
    "it's 'single' quoted",
    "",
]


@dataclass
class MemoryStore:
    """The Oxigraph HTTP API over an in-memory store, logging every request."""

    store: ox.Store = field(default_factory=ox.Store)
    log: list[str] = field(default_factory=list)
    fail: Callable[[httpx.Request], httpx.Response | None] = lambda request: None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.log.append(f"{request.method} {request.url.path}"
                        + (" (records)" * is_record(request)))
        return self.fail(request) or self.answer(request)

    def answer(self, request: httpx.Request) -> httpx.Response:
        path, body = request.url.path, request.content
        params = {k: v[0] for k, v in parse_qs(request.url.query.decode(),
                                               keep_blank_values=True).items()}
        try:
            if path == "/query":
                query = parse_qs(body.decode())["query"][0]
                result = self.store.query(query)
                return httpx.Response(200, content=result.serialize(
                    format=ox.QueryResultsFormat.JSON))
            if path == "/update":
                self.store.update(body.decode())
                return httpx.Response(204)
            return self.graph_store(request.method, params, body)
        except SyntaxError as e:
            return httpx.Response(400, text=str(e))

    def graph_store(self, method: str, params: dict[str, str], body: bytes) -> httpx.Response:
        graph: ox.NamedNode | ox.DefaultGraph = (
            ox.NamedNode(params["graph"]) if "graph" in params else ox.DefaultGraph()
        )
        if method == "GET":
            if isinstance(graph, ox.NamedNode) and graph not in self.store.named_graphs():
                return httpx.Response(404, text="no such graph")
            data = self.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=graph)
            return httpx.Response(200, content=data,
                                  headers={"Content-Type": "application/n-triples"})
        if method == "DELETE":
            self.store.remove_graph(graph)
            return httpx.Response(204)
        if method == "PUT":
            triples = list(ox.parse(body, format=ox.RdfFormat.N_TRIPLES))
            self.store.remove_graph(graph) if isinstance(graph, ox.NamedNode) \
                else self.store.clear_graph(graph)
            self.store.extend(ox.Quad(q.subject, q.predicate, q.object, graph) for q in triples)
            return httpx.Response(201)
        self.store.load(body, format=ox.RdfFormat.N_QUADS)  # POST of N-Quads
        return httpx.Response(204)

    def graph(self, name: str) -> set[ox.Triple]:
        return {q.triple for q in self.store.quads_for_pattern(None, None, None,
                                                                 ox.NamedNode(name))}

    def data(self) -> set[ox.Quad]:
        """Every quad but kg's records of what it wrote."""
        return {q for q in self.store if q.graph_name != ox.NamedNode(DIGEST_GRAPH)}

    def records(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for q in self.store.quads_for_pattern(None, None, None, ox.NamedNode(DIGEST_GRAPH)):
            found.setdefault(q.subject.value, []).append(q.object.value)
        return found

    def writes(self) -> list[str]:
        return [line for line in self.log if line in ("PUT /store", "POST /store",
                                                       "POST /update")]


def dataset(graphs: dict[str, list[str]]) -> Dataset:
    """An rdflib Dataset: graph name → literal values of one subject each."""
    ds = Dataset()
    for name, values in graphs.items():
        graph = ds.graph(URIRef(G + name))
        for i, value in enumerate(values):
            graph.add((URIRef(f"{G}{name}/s{i}"), URIRef(P.value), Literal(value)))
    return ds


def load(store: MemoryStore, source: object, **kwargs: object) -> object:
    sleeps: list[float] = []
    kwargs.setdefault("preset", "oxigraph")
    report = load_dataset(source, URL, transport=httpx.MockTransport(store),  # type: ignore[arg-type]
                          sleep=sleeps.append, **kwargs)  # type: ignore[arg-type]
    store.sleeps = sleeps  # type: ignore[attr-defined]
    return report


def expected(source: Dataset, name: str) -> set[ox.Triple]:
    return {q.triple for q in ox.parse(source.serialize(format="nquads"),
                                       format=ox.RdfFormat.N_QUADS)
            if q.graph_name == ox.NamedNode(G + name)}


def by_graph(report: object, *fields: str) -> dict[str, object]:
    """Graph name (without the common prefix) → the given fields of its result."""
    return {g.graph.removeprefix(G): tuple(getattr(g, f) for f in fields) if len(fields) > 1
            else getattr(g, fields[0]) for g in report.graphs}  # type: ignore[attr-defined]


PROTOCOLS = pytest.mark.parametrize("protocol", ["gsp", "update"])


# -- endpoints and source -------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "store", "update", "query"), [
    ("oxigraph", "/store", "/update", "/query"),
    ("virtuoso", "/sparql-graph-crud-auth", "/sparql-auth", "/sparql"),
    ("fuseki", "/ds/data", "/ds/update", "/ds/sparql"),
    ("graphdb", "/repositories/kg/rdf-graphs/service", "/repositories/kg/statements",
     "/repositories/kg"),
])
def test_presets_fill_paths_from_the_base_url(preset: str, store: str, update: str,
                                              query: str) -> None:
    base = {"fuseki": "http://h:3030/ds", "graphdb": "http://h:7200/repositories/kg"}
    url = base.get(preset, "http://h:1/")
    ends = endpoints_for(url, preset=preset)
    root = "http://h:3030" if preset == "fuseki" else "http://h:7200" if preset == "graphdb" \
        else "http://h:1"
    assert (ends.store, ends.update, ends.query) == (root + store, root + update, root + query)
    assert PRESETS["virtuoso"].auth == "digest"


def test_unknown_preset_and_bad_url_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown preset 'blazegraph'; use one of oxigraph"):
        endpoints_for(URL, preset="blazegraph")
    with pytest.raises(InputError, match="http"):
        split_userinfo("ftp://example.org/")


def test_read_source_groups_graphs_and_merges_on_request(tmp_path: Path) -> None:
    path = tmp_path / "g.trig"
    dataset({"a": ["x", "y"], "b": ["z"]}).serialize(path, format="trig")
    graphs = read_source(path)
    assert sorted((g.name, len(g.triples)) for g in graphs) == [(G + "a", 2), (G + "b", 1)]
    merged = read_source(path, whole_graph="https://example.org/all")
    assert [(g.name, len(g.triples)) for g in merged] == [("https://example.org/all", 3)]
    assert read_source(path, whole_graph="default")[0].name is None


@pytest.mark.parametrize(("trig", "message"), [
    ("<g:1> { _:b <p:p> 1 } <g:2> { _:b <p:p> 2 }", "blank node _:b is used in graphs"),
    ("_:g { <s:s> <p:p> 1 }", "named by a blank node"),
])
def test_blank_nodes_that_cannot_load_are_refused(tmp_path: Path, trig: str,
                                                  message: str) -> None:
    path = tmp_path / "g.trig"
    path.write_text(trig)
    with pytest.raises(InputError, match=message):
        read_source(path)


@pytest.mark.parametrize("name", [*GRAPH_FORMATS, ".TriG", ".json", ".rdf", ".n3", ""])
def test_load_reads_the_graph_formats_kg_store_reads(name: str) -> None:
    """kg.remote.load names formats without importing kg.store, and agrees with it."""
    path = Path("graph" + name)
    try:
        expected: ox.RdfFormat | str = store_format(path)
    except GraphError as e:
        expected = str(e)
    try:
        assert graph_format(path) == expected
    except GraphError as e:
        assert str(e) == expected


def test_missing_or_broken_file_is_a_graph_error(tmp_path: Path) -> None:
    with pytest.raises(GraphError, match="not found"):
        read_source(tmp_path / "none.trig")
    (tmp_path / "bad.trig").write_text("<a> <b> .")
    with pytest.raises(GraphError, match="bad.trig is not valid TriG"):
        read_source(tmp_path / "bad.trig")


# -- loading, idempotence, dry run ----------------------------------------------------------


@PROTOCOLS
def test_load_twice_writes_once_and_keeps_the_same_triples(protocol: str) -> None:
    store, source = MemoryStore(), dataset({"a": NASTY, "b": ["one"], "entities": ["e"]})
    first = load(store, source, protocol=protocol)
    assert (first.count("loaded"), first.triples, first.ok) == (3, len(NASTY) + 2, True)
    for name in ("a", "b", "entities"):
        assert store.graph(G + name) == expected(source, name)
    before, writes = set(store.store), len(store.writes())
    second = load(store, source, protocol=protocol)
    assert second.count("unchanged") == 3 and len(store.writes()) == writes
    assert set(store.store) == before


def test_nquads_and_digests_of_a_graph_with_every_kind_of_literal(tmp_path: Path) -> None:
    path = tmp_path / "g.trig"
    path.write_bytes(dataset({"a": [*NASTY, 'ends with " .', "dot .\n newline"]})
                     .serialize(format="trig", encoding="utf-8"))
    (graph,) = read_source(path)
    assert set(ox.parse(graph.nquads(), format=ox.RdfFormat.N_QUADS)) == set(graph.quads)
    shuffled = SourceGraph(graph.name, list(reversed(graph.quads)))
    assert graph.digest == shuffled.digest and graph.digest.startswith("10 ")
    other = SourceGraph(graph.name, graph.quads[1:])
    assert other.digest != graph.digest and not graph.has_blank_nodes


@PROTOCOLS
def test_a_reload_trusts_kgs_records_and_reads_no_graph_back(protocol: str) -> None:
    store, source = MemoryStore(), dataset({"a": NASTY, "b": ["one"], "c": ["two", "three"]})
    load(store, source, protocol=protocol)
    records = store.records()
    assert sorted(records) == [G + n for n in "abc"]
    assert [records[G + n][0].split()[0] for n in "abc"] == ["8", "1", "2"]  # triple counts
    store.log.clear()
    changed = dataset({"a": NASTY, "b": ["one"], "c": ["two", "four"]})  # same count
    report = load(store, changed, protocol=protocol)
    assert by_graph(report, "status") == {"a": "unchanged", "b": "unchanged", "c": "loaded"}
    assert not [line for line in store.log if line.startswith("GET")]
    assert store.graph(G + "c") == expected(changed, "c")
    assert store.records()[G + "c"] != records[G + "c"] and len(store.records()[G + "c"]) == 1


@pytest.mark.parametrize("edit", ["count", "two records", "no record"])
def test_a_record_that_may_be_stale_is_not_trusted(edit: str) -> None:
    store, source = MemoryStore(), dataset({"a": ["x", "y"], "b": ["z"]})
    load(store, source)
    a = ox.NamedNode(G + "a")
    if edit == "count":  # an edit by hand, and the store still holds the same number
        store.store.add(ox.Quad(ox.NamedNode(G + "a/s9"), P, ox.Literal("hand"), a))
    elif edit == "two records":  # two loads wrote it at once
        store.store.add(ox.Quad(a, ox.NamedNode("urn:kgnews:load:digest"),
                                ox.Literal("2 0000"), ox.NamedNode(DIGEST_GRAPH)))
    else:
        store.store.update(f"DELETE WHERE {{ GRAPH <{DIGEST_GRAPH}> {{ <{G}a> ?p ?o }} }}")
    store.log.clear()
    report = load(store, source)
    expected_status = "loaded" if edit == "count" else "unchanged"
    assert by_graph(report, "status") == {"a": expected_status, "b": "unchanged"}
    assert store.log.count("GET /store") == (0 if edit == "count" else 1)  # a is compared
    assert store.graph(G + "a") == expected(source, "a")
    # A graph compared and found unchanged gets no record: adding one would not be atomic.
    assert len(store.records().get(G + "a", [])) == {"count": 1, "two records": 2}.get(edit, 0)


@pytest.mark.parametrize(("records", "count", "trust"), [
    (["3 abc"], 3, "3 abc"), (["3 abc"], 4, None), (["3 abc", "3 def"], 3, None),
    ([], 3, None), (None, 3, None), (["3 abc"], None, None), (["x abc"], 3, None),
])
def test_a_record_is_trusted_only_alone_and_with_its_count(records: list[str] | None,
                                                           count: int | None,
                                                           trust: str | None) -> None:
    assert trusted(records, count) == trust


def test_compare_reads_every_graph_back_and_finds_an_edit_by_hand() -> None:
    store, source = MemoryStore(), dataset({"a": ["x", "y"], "b": ["z"]})
    load(store, source)
    store.store.update(f'DELETE DATA {{ GRAPH <{G}a> {{ <{G}a/s0> <{P.value}> "x" }} }}; '
                       f'INSERT DATA {{ GRAPH <{G}a> {{ <{G}a/s0> <{P.value}> "x!" }} }}')
    assert load(store, source).count("unchanged") == 2  # same count: the record is trusted
    report = load(store, source, compare=True)
    assert by_graph(report, "status") == {"a": "loaded", "b": "unchanged"}
    assert store.graph(G + "a") == expected(source, "a")


def test_new_graphs_carry_their_records_in_the_same_request() -> None:
    store = MemoryStore()
    posts: list[bytes] = []

    def keep(request: httpx.Request) -> None:
        if request.method == "POST" and request.url.path == "/store":
            posts.append(request.content)

    store.fail = lambda r: keep(r)  # type: ignore[func-returns-value]
    load(store, dataset({"a": ["x"], "b": ["y"]}))
    assert len(posts) == 1 and posts[0].count(DIGEST_GRAPH.encode()) == 2
    assert store.writes() == ["POST /store"] and len(store.records()) == 2


def test_a_graph_and_its_record_are_written_in_one_request() -> None:
    store, source = MemoryStore(), dataset({"a": ["x"], "b": ["y"]})
    load(store, source)
    records = store.records()
    store.fail = status_for(lambda r: f"<{G}a>".encode() in r.content, 400, "no DELETE here")
    report = load(store, dataset({"a": ["x2"], "b": ["y"]}))
    assert by_graph(report, "status") == {"a": "failed", "b": "unchanged"}
    assert store.graph(G + "a") == expected(source, "a") and store.records() == records
    stale = dataset({"a": ["x"], "c": ["new"]})
    store.store.remove_graph(ox.NamedNode(G + "a"))  # dropped by hand: its record is stale
    store.fail = lambda r: None
    assert load(store, stale).count("loaded") == 2
    assert len(store.records()[G + "a"]) == 1 and load(store, stale).count("unchanged") == 2


@PROTOCOLS
def test_reload_after_one_article_changed_replaces_only_it(protocol: str) -> None:
    store = MemoryStore()
    load(store, dataset({"a": ["x"], "b": ["y", "z"]}), protocol=protocol)
    store.log.clear()
    changed = dataset({"a": ["x"], "b": ["y", "z2"]})
    report = load(store, changed, protocol=protocol)
    assert by_graph(report, "status") == {"a": "unchanged", "b": "loaded"}
    assert store.graph(G + "b") == expected(changed, "b")
    assert len(store.writes()) == 1


def test_dry_run_counts_changes_and_writes_nothing() -> None:
    store = MemoryStore()
    load(store, dataset({"a": ["x", "y"], "b": ["kept"]}))
    before = set(store.store)
    store.log.clear()
    report = load(store, dataset({"a": ["x", "y2", "y3"], "b": ["kept"], "c": ["new"]}),
                  dry_run=True)
    assert by_graph(report, "status", "added", "removed") == {
        "a": ("changed", 2, 1), "b": ("unchanged", 0, 0), "c": ("new", 1, 0)}
    assert store.writes() == [] and set(store.store) == before
    assert "1 new, 1 changed, 1 unchanged graphs; nothing written" in report.summary()


def test_store_spellings_of_numbers_do_not_count_as_changes() -> None:
    store = MemoryStore()
    store.store.update('INSERT DATA { GRAPH <g:n> { <s:s> <p:p> 1.5, 7, "1.0E2"^^'
                       '<http://www.w3.org/2001/XMLSchema#double> } }')
    ds = Dataset()
    ds.parse(data='<g:n> { <s:s> <p:p> "1.50"^^<http://www.w3.org/2001/XMLSchema#decimal>, '
             '"07"^^<http://www.w3.org/2001/XMLSchema#integer>, 100.0e0 }', format="trig")
    assert load(store, ds, dry_run=True).graphs[0].status == "unchanged"


@pytest.mark.parametrize(("whole", "protocol"), [("default", "gsp"), ("default", "update"),
                                                 ("https://example.org/all", "update")])
def test_whole_graph_puts_everything_in_one_graph(whole: str, protocol: str) -> None:
    store = MemoryStore()
    report = load(store, dataset({"a": ["x"], "b": ["y"]}), whole_graph=whole,
                  protocol=protocol)
    target = ox.DefaultGraph() if whole == "default" else ox.NamedNode(whole)
    assert report.graphs[0].graph == whole and report.triples == 2
    assert len(list(store.store.quads_for_pattern(None, None, None, target))) == 2
    assert load(store, dataset({"a": ["x"], "b": ["y"]}), whole_graph=whole,
                protocol=protocol).count("unchanged") == 1


# -- batching -------------------------------------------------------------------------------


@pytest.mark.parametrize(("sizes", "requests"), [
    ([2, 2, 1], 1),  # all fit one request of 5
    ([2, 2, 2], 2),  # 4 + 2
    ([5, 1], 2),  # exactly a batch, then the rest
    ([6], 3),  # one too many: two batches into a temporary graph, then MOVE
    ([11], 4),  # three batches and a MOVE
])
def test_update_batches_whole_graphs_and_splits_only_big_ones(sizes: list[int],
                                                              requests: int) -> None:
    store = MemoryStore()
    source = dataset({f"g{i}": [f"v{j}" for j in range(n)] for i, n in enumerate(sizes)})
    report = load(store, source, protocol="update", batch_size=5)
    assert report.count("loaded") == len(sizes)
    assert store.log.count("POST /update") == requests
    assert len(store.data()) == sum(sizes)  # and no temporary graph left behind
    for i in range(len(sizes)):
        assert store.graph(f"{G}g{i}") == expected(source, f"g{i}")


def test_gsp_posts_new_graphs_in_batches_and_puts_changed_ones(tmp_path: Path) -> None:
    def nquads(graphs: dict[str, list[str]]) -> Path:  # a file keeps the graphs in order
        path = tmp_path / "g.nq"
        path.write_bytes(dataset(graphs).serialize(format="nquads", encoding="utf-8"))
        lines = sorted((line for line in path.read_text().splitlines() if line.strip()),
                       key=lambda line: line.split()[-2])
        path.write_text("\n".join(lines) + "\n")
        return path

    store = MemoryStore()
    load(store, nquads({"a": ["1", "2"], "b": ["3"], "c": ["4", "5"], "d": ["6"]}),
         batch_size=3)
    assert store.writes() == ["POST /store", "POST /store"]
    store.log.clear()
    load(store, nquads({"a": ["1", "2"], "b": ["3b"], "c": ["4", "5"], "d": ["6"], "e": ["7"]}),
         batch_size=3)
    # A lone new one; the changed one: by SPARQL Update, replacing graph and record at once.
    assert store.writes() == ["POST /update", "POST /update"]


def test_blank_nodes_stay_in_one_request_and_compare_as_isomorphic(tmp_path: Path) -> None:
    path = tmp_path / "b.trig"
    path.write_text("<g:b> { " + " ".join(f"_:n{i} <p:p> _:n{i + 1} ." for i in range(7)) + " }")
    store = MemoryStore()
    assert load(store, path, protocol="update", batch_size=2).count("loaded") == 1
    assert store.log.count("POST /update") == 1 and len(store.graph("g:b")) == 7
    assert load(store, path, protocol="update", batch_size=2).count("unchanged") == 1


# -- failures -------------------------------------------------------------------------------


def status_for(predicate: Callable[[httpx.Request], bool], status: int, text: str = "",
               times: int = 10**6) -> Callable[[httpx.Request], httpx.Response | None]:
    left = [times]

    def fail(request: httpx.Request) -> httpx.Response | None:
        if predicate(request) and not is_record(request) and left[0] > 0:
            left[0] -= 1
            return httpx.Response(status, text=text)
        return None

    return fail


def is_write(request: httpx.Request) -> bool:
    """A write of data (not of kg's records of what it wrote)."""
    return (request.method == "PUT" or request.url.path == "/update") \
        and not is_record(request)


def is_record(request: httpx.Request) -> bool:
    """An update of kg's records alone (not a graph written with its record)."""
    body = request.content
    return request.url.path == "/update" and DIGEST_GRAPH.encode() in body \
        and b"DROP" not in body and b"MOVE" not in body


def test_503_then_200_succeeds_after_backoff() -> None:
    store = MemoryStore(fail=status_for(is_write, 503, "busy", times=2))
    report = load(store, dataset({"a": ["x"]}), protocol="update")
    assert report.ok and store.sleeps == [0.5, 1.0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("error", [httpx.ConnectError("[Errno 111] Connection refused"),
                                   httpx.ReadTimeout("timed out")])
def test_unreachable_store_gives_up_after_bounded_retries(error: Exception) -> None:
    calls: list[str] = []

    def down(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        raise error

    sleeps: list[float] = []
    with pytest.raises(StoreError) as info:
        load_dataset(dataset({"a": ["x"]}), URL, preset="oxigraph", retries=3,
                     transport=httpx.MockTransport(down), sleep=sleeps.append)
    assert f"{URL}/query failed after 4 attempts" in str(info.value)
    assert type(error).__name__ in str(info.value)
    assert len(calls) == 4 and sleeps == [0.5, 1.0, 2.0]


def test_rejected_graph_names_server_message_and_graph_and_others_load() -> None:
    bad = G + "b"
    store = MemoryStore(fail=status_for(
        lambda r: r.method == "PUT" and bad in str(r.url) or bad.encode() in r.content, 400,
        "Parser error at line 3 between columns 5 and 9: invalid IRI"))
    report = load(store, dataset({"a": ["x"], "b": ["y"], "c": ["z"]}))
    assert by_graph(report, "status") == {"a": "loaded", "b": "failed", "c": "loaded"}
    reason = by_graph(report, "reason")["b"]
    assert f"rejected graph <{bad}> (HTTP 400)" in reason and "invalid IRI" in reason
    assert not report.ok and bad in report.summary()
    assert store.graph(G + "c") == expected(dataset({"c": ["z"]}), "c")


def test_persistent_500_fails_that_graph_only_after_retries() -> None:
    store = MemoryStore(fail=status_for(lambda r: b"boom" in r.content, 500,
                                        "<!DOCTYPE html><html><h1>Error</h1> SR325: boom</html>"))
    report = load(store, dataset({"a": ["boom"], "b": ["fine"]}), protocol="update",
                  retries=2)
    assert by_graph(report, "status") == {"a": "failed", "b": "loaded"}
    assert "after 3 attempts (HTTP 500: Error SR325: boom)" in by_graph(report, "reason")["a"]


def test_failed_batch_leaves_target_untouched_and_no_temporary_graph() -> None:
    store = MemoryStore()
    load(store, dataset({"a": ["old"]}), protocol="update")
    new = dataset({"a": [f"v{i}" for i in range(7)]})
    store.fail = status_for(lambda r: b"v5" in r.content, 400, "syntax error")
    report = load(store, new, protocol="update", batch_size=5)
    assert report.graphs[0].status == "failed"
    assert store.graph(G + "a") == expected(dataset({"a": ["old"]}), "a")
    assert {q.graph_name for q in store.data()} == {ox.NamedNode(G + "a")}


def test_store_dying_midway_says_how_far_the_load_got() -> None:
    store = MemoryStore()
    writes = [0]

    def die_after_two(request: httpx.Request) -> httpx.Response | None:
        if is_write(request):
            writes[0] += 1
            if writes[0] > 2:
                raise httpx.ConnectError("[Errno 111] Connection refused")
        return None

    store.fail = die_after_two
    with pytest.raises(StoreError) as info:
        load(store, dataset({n: [n] for n in "abcd"}), protocol="update", batch_size=1)
    assert "2 of 4 graphs to write were written, each one completely" in str(info.value)
    assert "run the load again" in str(info.value)


@pytest.mark.parametrize(("challenge", "hint"), [('Digest realm="SPARQL"', "asks for Digest"),
                                                 ("", "refused access (HTTP 403)")])
def test_auth_refusal_is_access_refused_in_library_words(challenge: str, hint: str) -> None:
    status = 401 if challenge else 403

    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, headers={"WWW-Authenticate": challenge} if challenge
                              else {})

    with pytest.raises(AccessRefused) as info:
        load_dataset(dataset({"a": ["x"]}), URL, preset="oxigraph",
                     transport=httpx.MockTransport(refuse), auth=Credentials("u", SECRET))
    message = str(info.value)
    assert hint in message and "with the credentials given" in message
    assert "--" not in message  # the CLI adds the options that fix it (test_load_servers.py)
    assert SECRET not in message and SECRET not in repr(info.value)


@pytest.mark.parametrize("scheme", ["basic", "digest"])
def test_password_never_appears_in_messages_reprs_or_logs(
    scheme: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    credentials = Credentials("admin", SECRET, scheme)  # type: ignore[arg-type]
    assert SECRET not in repr(credentials) and SECRET not in str(credentials)
    seen: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        raise httpx.ConnectError(f"cannot connect to {request.url}")

    for auth, url in ((credentials, URL), (None, f"http://admin:{SECRET}@store.test")):
        with pytest.raises(StoreError) as info:
            load_dataset(dataset({"a": ["x"]}), url, preset="oxigraph", auth=auth, retries=1,
                         transport=httpx.MockTransport(refuse), sleep=lambda s: None)
        assert SECRET not in str(info.value) and SECRET not in repr(info.value)
        assert SECRET not in str(info.value.__cause__)
    assert SECRET not in caplog.text
    assert all(SECRET not in str(r.url) for r in seen)


def test_basic_credentials_reach_the_store() -> None:
    headers: list[str] = []
    store = MemoryStore()

    def record(request: httpx.Request) -> httpx.Response | None:
        headers.append(request.headers.get("Authorization", ""))
        return None

    store.fail = record
    load(store, dataset({"a": ["x"]}), auth=Credentials("u", "p"))
    assert headers and all(h == "Basic dTpw" for h in headers)


def test_bad_options_are_input_errors() -> None:
    with pytest.raises(InputError, match="batch size"):
        load_dataset(dataset({"a": ["x"]}), URL, batch_size=0)


def test_bulk_posts_without_a_transaction_and_never_keeps_a_half_written_graph() -> None:
    store = MemoryStore()

    def half_then_fail(request: httpx.Request) -> httpx.Response | None:
        if request.method == "POST" and "no_transaction" in str(request.url):
            lines = request.content.decode().splitlines(keepends=True)
            store.store.load("".join(lines[: len(lines) // 2]).encode(),
                             format=ox.RdfFormat.N_QUADS)  # a crash half-way through
            return httpx.Response(500, text="disk full")
        if request.url.path == "/update" and f"<{G}b>".encode() in request.content:
            return httpx.Response(400, text="rejected")
        return None

    store.fail = half_then_fail
    source = dataset({"a": ["1", "2"], "b": ["3", "4"], "c": ["5", "6"]})
    report = load(store, source, bulk=True, retries=0)
    assert by_graph(report, "status") == {"a": "loaded", "b": "failed", "c": "loaded"}
    assert store.graph(G + "b") == set()  # the half-written new graph was removed
    assert store.graph(G + "a") == expected(source, "a")
    assert store.graph(G + "c") == expected(source, "c")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bulk": True, "protocol": "update"}, "a bulk load needs the Graph Store Protocol"),
    ({"bulk": True, "preset": "virtuoso"}, "a bulk load needs"),
    ({"preset": "virtuoso", "protocol": "update"}, "virtuoso's SPARQL Update can change the "
     "datatype of literals such as \"true\"\\^\\^<http://www.w3.org/2001/XMLSchema#boolean>"),
    ({"protocol": "rest"}, "unknown protocol 'rest'; use gsp or update"),
])
def test_options_that_cannot_work_are_refused_before_any_request(kwargs: dict[str, object],
                                                                 message: str) -> None:
    store = MemoryStore()
    ds = Dataset()
    ds.graph(URIRef(G + "a")).add((URIRef(G + "s"), URIRef(P.value), Literal(True)))
    with pytest.raises(InputError, match=message):
        load(store, ds, **kwargs)
    assert store.log == []


@pytest.mark.parametrize(("user", "password", "scheme", "outcome"), [
    (None, None, None, None),
    ("u", "p", None, "Credentials(user='u', scheme=None)"),
    ("u", "p", "digest", "Credentials(user='u', scheme='digest')"),
    ("u", None, None, "give both a user and a password"),
    (None, "p", None, "give both a user and a password"),
    (None, None, "digest", "an auth scheme needs a user and a password"),
    ("u", "p", "kerberos", "unknown auth scheme 'kerberos'"),
])
def test_credentials_from_options(user: str | None, password: str | None, scheme: str | None,
                                  outcome: str | None) -> None:
    if outcome is None or outcome.startswith("Credentials"):
        assert repr(credentials(user, password, scheme)) == (outcome or "None")
        return
    with pytest.raises(InputError, match=outcome):
        credentials(user, password, scheme)


@PROTOCOLS
@pytest.mark.parametrize(("merges", "status"), [(1, "loaded"), (9, "failed")])
def test_a_graph_merged_with_another_loads_version_is_written_again(protocol: str, merges: int,
                                                                    status: str) -> None:
    """Issue 18.2: two loads replacing one graph at once can leave the union of both
    versions (snapshot isolation); the count after writing finds it and the graph is
    written again, or fails naming the cause when another writer keeps interfering."""
    store = MemoryStore()
    left = [merges]
    intruder = ox.Quad(ox.NamedNode(f"{G}a/s0"), P, ox.Literal("their version"),
                       ox.NamedNode(G + "a"))

    def merge_after_write(request: httpx.Request) -> httpx.Response | None:
        if request.method == "GET" or request.url.path == "/query" or not left[0]:
            return None
        response = store.answer(request)
        if "graph%2Fa" in str(request.url) or f"<{G}a>" in request.content.decode():
            left[0] -= 1
            store.store.add(intruder)  # the other load's triples, committed alongside ours
        return response

    store.fail = merge_after_write
    source = dataset({"a": ["ours", "also ours"], "b": ["x"]})
    report = load(store, source, protocol=protocol)
    assert by_graph(report, "status") == {"a": status, "b": "loaded"}
    if status == "loaded":
        assert store.graph(G + "a") == expected(source, "a")
    else:
        assert "another writer replaced this graph at the same time" in \
            by_graph(report, "reason")["a"]


# -- issue 38 -------------------------------------------------------------------------------


def ok_but_stores_nothing(request: httpx.Request) -> httpx.Response | None:
    """A store that answers every write 200 with an error in the body, and keeps nothing."""
    if request.method in ("PUT", "POST") and request.url.path in ("/store", "/update"):
        return httpx.Response(200, text="<html>Error: disk full</html>")
    return None


@pytest.mark.parametrize(("preset", "protocol"), [("oxigraph", "gsp"), ("oxigraph", "update"),
                                                  (None, "gsp")])
def test_a_store_that_says_200_and_keeps_nothing_fails_every_graph(
        preset: str | None, protocol: str) -> None:
    # issue 38 #7: "loaded 400 graphs … 0 failed", exit 0, the store unchanged
    store = MemoryStore(fail=ok_but_stores_nothing)
    endpoint = URL if preset else f"{URL}/store"
    report = load_dataset(dataset({"a": ["x", "y"], "b": ["z"]}), endpoint, preset=preset,
                          protocol=protocol,  # type: ignore[arg-type]
                          transport=httpx.MockTransport(store), sleep=lambda _s: None)
    assert by_graph(report, "status") == {"a": "failed", "b": "failed"}
    assert "holds 0 of its 2 triples" in str(by_graph(report, "reason")["a"])
    assert not report.ok


def test_a_store_refusing_every_write_stops_the_load_soon() -> None:
    # issue 38 #18: a store answering every write 500 held kg load for minutes, silent
    store = MemoryStore(fail=status_for(is_write, 500, "Internal error"))
    told: list[tuple[int, int]] = []
    started = time.monotonic()
    with pytest.raises(StoreError, match="refused the last 10 writes in a row") as info:
        load(store, dataset({f"g{i}": [str(i)] for i in range(400)}), protocol="update",
             batch_size=1, retries=2, on_write=lambda ended, failed: told.append((ended,
                                                                                   failed)))
    assert time.monotonic() - started < 30
    assert told and told[-1] == (10, 10)
    assert "0 of 400 graphs to write were written" in str(info.value)


def test_a_store_killed_while_answering_is_not_said_to_be_untouched() -> None:
    # issue 38 #28: "20 written … others untouched" when 30 had been replaced
    store = MemoryStore()
    writes = [0]

    def dies_after_writing(request: httpx.Request) -> httpx.Response | None:
        if is_write(request):
            writes[0] += 1
            if writes[0] == 3:  # the store takes the third write, then dies before answering
                store.answer(request)
                raise httpx.RemoteProtocolError("Server disconnected")
            if writes[0] > 3:
                raise httpx.ConnectError("[Errno 111] Connection refused")
        return None

    store.fail = dies_after_writing
    with pytest.raises(StoreError) as info:
        load(store, dataset({n: [n] for n in "abcd"}), protocol="update", batch_size=1,
             retries=0)
    message = str(info.value)
    assert "2 of 4 graphs to write were written" in message
    assert "1 were being written when the store failed and may or may not be" in message
    assert "1 were not sent" in message and "untouched" not in message


@pytest.mark.parametrize("iri", ["http://x/a>b", "no-scheme", "http://x/a b"])
def test_a_whole_graph_that_is_no_iri_is_an_input_error(iri: str) -> None:
    with pytest.raises(InputError, match="is not a graph IRI"):
        load(MemoryStore(), dataset({"a": ["x"]}), whole_graph=iri)
