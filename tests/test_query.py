"""kg query: named queries, prefixes, safe parameters, formats, errors, cache, remote endpoints."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import GraphError, QueryError, StoreError
from kg.remote.endpoint import remote_query_text, run_remote, values_clause
from kg.store.embedded import cache_folder, open_store
from kg.store.sparql import (
    bind_value,
    named_queries,
    named_query,
    read_query,
    run_query,
    syntax_error,
    write_result,
)

BASE = "https://w3id.org/kgnews/id/"
PUTIN = f"{BASE}person/vladimir-putin"
HOSTILE = ['"} . ?s ?p ?o } #', "x\" ) } UNION { ?s ?p ?o", "a\\\"b\nc\r\td", "<https://x/a>x",
           "'''", "\u2028\u0000?x $x", "#", ""]


@pytest.fixture(scope="module")
def store(seed_build: Path) -> ox.Store:
    return open_store(seed_build / "graph.trig")


def rows(result: object) -> list[dict[str, str]]:
    assert isinstance(result, ox.QuerySolutions)
    names = [v.value for v in result.variables]
    return [{n: str(s[n]) if s[n] is not None else "" for n in names} for s in result]


def output(result: object, fmt: str) -> bytes:
    buffer = io.BytesIO()
    write_result(result, fmt, buffer)  # type: ignore[arg-type]
    return buffer.getvalue()


# -- named queries -------------------------------------------------------------------------

def test_every_named_query_is_documented() -> None:
    queries = named_queries()
    assert {"entities-across-articles", "evidence"} <= {q.name for q in queries}
    for q in queries:
        assert q.title, f"{q.path} has no header comment"
        assert q.text.lstrip().startswith("#"), f"{q.path} must start with its header comment"


@pytest.mark.parametrize("named", named_queries(), ids=lambda q: q.name)
def test_every_named_query_runs_on_the_seeds_as_results_json(named, store) -> None:
    data = json.loads(output(run_query(store, named.text, source=str(named.path)), "json"))
    assert "vars" in data["head"] and isinstance(data["results"]["bindings"], list)


def test_query_list_shows_names_and_titles() -> None:
    result = CliRunner().invoke(app, ["query", "--list"])
    assert result.exit_code == 0
    evidence = named_query("evidence")
    assert f"evidence{' ' * (26 - len('evidence'))} {evidence.title}" in result.output


def test_entities_across_articles_on_the_seeds(store) -> None:
    found = rows(run_query(store, named_query("entities-across-articles").text))
    by_name = {r["name"].strip('"').split('"^^')[0]: r for r in found}
    assert by_name["Russia"]["articles"].startswith('"3"')
    counts = [int(r["articles"].split('"')[1]) for r in found]
    assert all(c > 1 for c in counts) and counts == sorted(counts, reverse=True)


def test_evidence_by_name_and_by_iri_give_the_same_sentences(store) -> None:
    text = named_query("evidence").text
    by_name = rows(run_query(store, text, {"name": "Vladimir Putin"}))
    by_iri = rows(run_query(store, text, {"entity": PUTIN}))
    assert by_name and {r["sentence"] for r in by_name} == {r["sentence"] for r in by_iri}
    assert all(r["entity"] == f"<{PUTIN}>" for r in by_name)
    assert all("Putin" in r["text"] for r in by_name if r["kind"].endswith("Phrase>"))


def test_read_query_from_name_file_stdin_and_text(tmp_path: Path) -> None:
    query_file = tmp_path / "q.sparql"
    query_file.write_text("ASK {}")
    assert read_query("evidence")[0] == named_query("evidence").text
    assert read_query(str(query_file)) == ("ASK {}", str(query_file))
    assert read_query("-", stdin=io.StringIO("ASK { ?s ?p ?o }")) == ("ASK { ?s ?p ?o }", "<stdin>")
    assert read_query("SELECT * {}") == ("SELECT * {}", "query")
    with pytest.raises(QueryError, match="known: .*evidence"):
        read_query(None, "no-such-question")


# -- prefixes and parameters ---------------------------------------------------------------

def test_ontology_prefixes_are_predeclared_and_a_query_may_redefine_them(store) -> None:
    assert bool(run_query(store, "ASK { ?p a schema:Person ; rdfs:label ?l }"))
    own = "PREFIX schema: <http://example.org/other#> ASK { ?p a schema:Person }"
    assert not bool(run_query(store, own))
    assert remote_query_text(own).count("PREFIX schema:") == 1


@pytest.mark.parametrize(("value", "term"), [
    ("https://w3id.org/kgnews/id/person/x", ox.NamedNode("https://w3id.org/kgnews/id/person/x")),
    ("<urn:isbn:0451450523>", ox.NamedNode("urn:isbn:0451450523")),
    ("Vladimir Putin", ox.Literal("Vladimir Putin")),
    ("httpx is a library", ox.Literal("httpx is a library")),
])
def test_parameter_values_bind_iris_or_strings(value: str, term: object) -> None:
    assert bind_value(value) == term


@pytest.mark.parametrize("bad", ["https://x.org/a b", "<not an iri>", "http://x/<script>"])
def test_invalid_iri_parameters_are_refused(bad: str) -> None:
    with pytest.raises(QueryError, match="not a valid IRI"):
        bind_value(bad)


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_parameter_values_bind_as_one_literal(value: str, store) -> None:
    """Embedded (substitution) and remote (VALUES) binding both keep the text one term."""
    query = "SELECT ?name ?e WHERE { ?e rdfs:label ?name }"
    assert rows(run_query(store, query, {"name": value})) == []
    sent = "SELECT ?x WHERE {}" + values_clause({"x": value})
    assert [s["x"] for s in ox.Store().query(sent)] == [ox.Literal(value)]


@settings(max_examples=300, deadline=None)
@given(st.text() | st.text().map(lambda t: "https://x.org/" + t) | st.text().map("<{}>".format))
def test_any_value_survives_the_values_clause_as_one_term(value: str) -> None:
    try:
        expected = bind_value(value)
    except QueryError:
        assume(False)  # not a valid IRI: refused before any query is built
    sent = "SELECT ?x WHERE {}" + values_clause({"x": value})
    assert [s["x"] for s in ox.Store().query(sent)] == [expected]


@pytest.mark.parametrize("name", ["x y", "x}", "1x", "x;DROP", ""])
def test_parameter_names_must_be_variable_names(name: str) -> None:
    with pytest.raises(QueryError, match="not a SPARQL variable name"):
        values_clause({name: "v"})


def test_a_parameter_the_select_does_not_project_is_an_error(store) -> None:
    with pytest.raises(QueryError, match="cannot bind the parameters"):
        run_query(store, "SELECT ?e WHERE { ?e rdfs:label ?name }", {"name": "Russia"})


# -- errors --------------------------------------------------------------------------------

@pytest.mark.parametrize(("sparql", "line", "column"), [
    ("SELECT ?x WHERE {\n  ?x a schema:Person ;\n     FILTER( }", 3, 15),
    ("ASK {}\n}", 2, 2),
    ("SELECT * WHERE {\n ?s ?p ?o\n", 3, 1),
])
def test_syntax_errors_point_at_line_and_column(sparql: str, line: int, column: int,
                                                store) -> None:
    with pytest.raises(QueryError) as caught:
        run_query(store, sparql, source="bad.rq")
    message = str(caught.value)
    assert f"bad.rq: SPARQL syntax error at line {line}, column {column}" in message
    assert message.endswith("|" + " " * column + "^")


def test_an_undeclared_prefix_is_named() -> None:
    error = syntax_error("SELECT * { ?s a nope:Thing }", "error at 1:21: expected", "q")
    assert "undeclared prefix: nope:" in str(error)


def test_a_missing_graph_says_how_to_build_one(tmp_path: Path) -> None:
    with pytest.raises(GraphError, match=r"not found; build one first") as raised:
        open_store(tmp_path / "graph.trig")
    assert raised.value.option == "graph"
    result = CliRunner().invoke(app, ["query", "ASK {}", "--graph", str(tmp_path / "g.trig")])
    assert result.exit_code == 1 and "hint: kg build ARTICLES --out FOLDER" in result.output


@pytest.mark.parametrize(("name", "data", "problem"), [
    ("graph.ttl", b"<a> <b> .", "not valid Turtle"),
    ("graph.rdf", b"", "unknown graph format"),
])
def test_broken_or_unknown_graph_files_raise_graph_errors(tmp_path: Path, name: str,
                                                          data: bytes, problem: str) -> None:
    (tmp_path / name).write_bytes(data)
    with pytest.raises(GraphError, match=problem):
        open_store(tmp_path / name)


# -- formats -------------------------------------------------------------------------------

SELECT = "SELECT ?e ?name WHERE { ?e a schema:Person ; rdfs:label ?name } ORDER BY ?e"


def test_select_formats_agree(store) -> None:
    table = output(run_query(store, SELECT), "table").decode()
    data = json.loads(output(run_query(store, SELECT), "json"))
    comma = list(csv.reader(io.StringIO(output(run_query(store, SELECT), "csv").decode())))
    tabs = output(run_query(store, SELECT), "tsv").decode().splitlines()
    bindings = data["results"]["bindings"]
    assert data["head"]["vars"] == ["e", "name"] == comma[0] and tabs[0] == "?e\t?name"
    assert len(bindings) == len(comma) - 1 == len(tabs) - 1 > 0
    assert [cell.strip() for cell in table.splitlines()[0].split(" | ")] == ["e", "name"]
    assert table.rstrip().endswith(f"({len(bindings)} rows)")
    assert [b["name"]["value"] for b in bindings] == [row[1] for row in comma[1:]]
    assert f"<{bindings[0]['e']['value'].removeprefix(BASE)}>" in table


def test_ask_and_construct_outputs(store) -> None:
    assert json.loads(output(run_query(store, "ASK { ?s a schema:Person }"), "json")) == {
        "head": {}, "boolean": True}
    assert output(run_query(store, "ASK { ?s a schema:Nothing }"), "table") == b"false\n"
    construct = "CONSTRUCT { ?e a schema:Person } WHERE { ?e a schema:Person }"
    turtle = output(run_query(store, construct), "ttl")
    ntriples = output(run_query(store, construct), "nt")
    assert b"@prefix schema: <https://schema.org/>" in turtle
    assert set(ox.parse(turtle, format=ox.RdfFormat.TURTLE)) == set(
        ox.parse(ntriples, format=ox.RdfFormat.N_TRIPLES)) != set()


@pytest.mark.parametrize(("sparql", "fmt"), [
    (SELECT, "ttl"), ("ASK {}", "nt"), ("CONSTRUCT WHERE { ?s ?p ?o }", "csv"),
])
def test_formats_that_do_not_fit_the_query_form_are_refused(store, sparql: str, fmt: str) -> None:
    with pytest.raises(QueryError, match="use "):
        output(run_query(store, sparql), fmt)


@pytest.mark.parametrize("fmt", ["trig", "nq", "ttl", "nt", "jsonld"])
def test_every_graph_format_gives_the_same_answers(seed_build: Path, store, fmt: str) -> None:
    query = named_query("entities-across-articles").text
    assert rows(run_query(open_store(seed_build / f"graph.{fmt}"), query)) == rows(
        run_query(store, query))


def test_cli_json_is_sparql_results_json(seed_build: Path) -> None:
    result = CliRunner().invoke(app, ["query", "--name", "evidence", "-p", "name=Vladimir Putin",
                                      "--format", "json", "--graph",
                                      str(seed_build / "graph.trig")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["head"]["vars"][:2] == ["entity", "name"] and data["results"]["bindings"]


# -- the on-disk cache ---------------------------------------------------------------------

def test_the_cache_is_built_reused_and_rebuilt_when_the_graph_changes(seed_build: Path,
                                                                      tmp_path: Path) -> None:
    graph = tmp_path / "graph.trig"
    shutil.copy(seed_build / "graph.trig", graph)
    ask = f"ASK {{ <{PUTIN}> a schema:Person }}"
    assert bool(run_query(open_store(graph, cache=True), ask))
    key = (cache_folder(graph) / "key.json").read_text()
    assert bool(run_query(open_store(graph, cache=True), ask))  # read-only reuse
    assert (cache_folder(graph) / "key.json").read_text() == key
    graph.write_text(f"<{PUTIN}> a <https://schema.org/Thing> .\n")
    assert not bool(run_query(open_store(graph, cache=True), ask))
    assert (cache_folder(graph) / "key.json").read_text() != key


def test_small_graphs_are_not_cached_by_default(seed_build: Path, tmp_path: Path) -> None:
    shutil.copy(seed_build / "graph.nq", tmp_path / "graph.nq")
    open_store(tmp_path / "graph.nq")
    assert not cache_folder(tmp_path / "graph.nq").exists()


def test_an_unwritable_folder_falls_back_to_memory(seed_build: Path, tmp_path: Path) -> None:
    graph = tmp_path / "graph.trig"
    shutil.copy(seed_build / "graph.trig", graph)
    (tmp_path / ".kg").write_text("not a folder")  # the cache cannot be created
    assert bool(run_query(open_store(graph, cache=True), "ASK { ?s a schema:Person }"))


# -- remote endpoints (injected transport) -------------------------------------------------

def fake_endpoint(answers: list[httpx.Response | Exception]) -> tuple[httpx.Client, list[str]]:
    sent: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(dict(httpx.QueryParams(request.content.decode()))["query"])
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return httpx.Client(transport=httpx.MockTransport(handle)), sent


JSON_ROWS = httpx.Response(200, json={"head": {"vars": ["name"]}, "results": {"bindings": [
    {"name": {"type": "literal", "value": "Kyiv"}}]}},
    headers={"content-type": "application/sparql-results+json"})


def test_remote_queries_send_prefixes_and_escaped_values() -> None:
    client, sent = fake_endpoint([JSON_ROWS])
    hostile = '"} } ; DROP ALL ; #'
    result = run_remote("http://127.0.0.1:1/query", "SELECT ?name WHERE { ?e rdfs:label ?name }",
                        {"name": hostile}, client=client)
    assert rows(result) == [{"name": '"Kyiv"'}]
    assert sent[0].startswith("PREFIX kg: <https://w3id.org/kgnews/ontology#>")
    assert sent[0].endswith('VALUES (?name) { ("\\"} } ; DROP ALL ; #") }')


def test_remote_retries_then_reports_the_endpoint() -> None:
    client, sent = fake_endpoint([httpx.ConnectError("refused"), httpx.Response(503), JSON_ROWS])
    assert rows(run_remote("http://127.0.0.1:1/query", "SELECT * {}", client=client))
    client, sent = fake_endpoint([httpx.ConnectError("refused")] * 3)
    with pytest.raises(StoreError, match=r"127.0.0.1:1/query failed after 3 attempts"):
        run_remote("http://127.0.0.1:1/query", "SELECT * {}", client=client)
    assert len(sent) == 3


def test_remote_errors_show_the_servers_message() -> None:
    client, _ = fake_endpoint([httpx.Response(400, text="Parser error at 1:8")])
    with pytest.raises(QueryError, match="rejected the query: Parser error at 1:8"):
        run_remote("http://127.0.0.1:1/query", "SELECT * {}", client=client)
    client, _ = fake_endpoint([httpx.Response(200, text="<html>", headers={
        "content-type": "text/html"})])
    with pytest.raises(StoreError, match="not SPARQL results or RDF"):
        run_remote("http://127.0.0.1:1/query", "SELECT * {}", client=client)


# -- a real Oxigraph server ----------------------------------------------------------------

@pytest.fixture(scope="module")
def endpoint(seed_build: Path) -> Iterator[str]:
    """`oxigraph serve --union-default-graph` holding the seed build (queries see all graphs,
    as they do embedded; Virtuoso and GraphDB do this by default)."""
    from tests.servers import OXIGRAPH, free_port, require_binary, stop, wait_until_ready

    binary = require_binary(OXIGRAPH, "the oxigraph server (pip install oxigraph)")
    port = free_port()
    process = subprocess.Popen(
        [str(binary), "serve", "--bind", f"127.0.0.1:{port}", "--union-default-graph"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_ready(f"{url}/query?query=ASK%7B%7D", process, 15.0)
        httpx.post(f"{url}/store", content=(seed_build / "graph.nq").read_bytes(),
                   headers={"content-type": "application/n-quads"}).raise_for_status()
        yield f"{url}/query"
    finally:
        stop(process)


def _sorted_rows(result: object) -> list[list[tuple[str, str]]]:
    return sorted(sorted(r.items()) for r in rows(result))


@pytest.mark.server
@pytest.mark.parametrize("named", named_queries(), ids=lambda q: q.name)
def test_an_endpoint_gives_the_same_rows_as_the_embedded_engine(endpoint, store, named) -> None:
    params = {"name": "Vladimir Putin"} if "?name" in named.text else {}
    remote = run_remote(endpoint, named.text, params if named.name == "evidence" else {})
    local = run_query(store, named.text, params if named.name == "evidence" else {})
    assert _sorted_rows(remote) == _sorted_rows(local)


@pytest.mark.server
def test_cli_endpoint_option(endpoint) -> None:
    result = CliRunner().invoke(app, ["query", "ASK { ?s a schema:Person }", "--endpoint",
                                      endpoint, "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["boolean"] is True


# -- hostile queries: time limits, Ctrl-C, streaming, CSV quoting, long text (issues 16, 18) --

CARTESIAN = "SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"  # 3,269^3 rows on the seeds


def kg_process(*args: str) -> subprocess.Popen[bytes]:
    """``kg query ARGS`` as a user starts it: with Ctrl-C enabled (a test run in the
    background inherits SIGINT ignored, and Python then never raises KeyboardInterrupt)."""
    import signal
    import sys

    return subprocess.Popen([sys.executable, "-m", "kg", "query", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def child_pids(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []


def test_csv_values_with_commas_quotes_and_newlines_round_trip() -> None:
    values = ['a,b', 'say "no"', "two\nlines", "cr\r\nlf", ",", '"', ""]
    store = ox.Store()
    subject = ox.NamedNode(f"{BASE}article/x#char=780,787")
    for n, value in enumerate(values):
        store.add(ox.Quad(subject, ox.NamedNode(f"{BASE}p{n}"), ox.Literal(value)))
    result = store.query("SELECT ?s ?p ?o { ?s ?p ?o } ORDER BY ?p")
    text = output(result, "csv").decode()
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    assert parsed[0] == ["s", "p", "o"]
    assert [row[0] for row in parsed[1:]] == [subject.value] * len(values)
    assert [row[2] for row in parsed[1:]] == values


def test_csv_of_mention_iris_keeps_its_columns(seed_build: Path) -> None:
    result = CliRunner().invoke(app, ["query", "--graph", str(seed_build / "graph.trig"), "-f",
                                      "csv", "SELECT ?m ?e { ?m itsrdf:taIdentRef ?e }"])
    assert result.exit_code == 0, result.output
    parsed = list(csv.reader(io.StringIO(result.stdout, newline="")))
    assert len(parsed) > 50 and all(len(row) == 2 for row in parsed)
    assert any("#char=" in row[0] and "," in row[0] for row in parsed[1:])


def test_a_five_thousand_character_query_runs_and_a_file_still_works(seed_build: Path,
                                                                     tmp_path: Path) -> None:
    padding = "x" * 5000
    long_query = f'SELECT (COUNT(*) AS ?n) {{ ?s a schema:Person FILTER(STRLEN("{padding}") > 0) }}'
    (tmp_path / "q.rq").write_text(long_query)
    graph = ["--graph", str(seed_build / "graph.trig"), "-f", "csv"]
    for query in (long_query, str(tmp_path / "q.rq")):
        result = CliRunner().invoke(app, ["query", *graph, query])
        assert result.exit_code == 0 and result.exception is None, result.output
        count = int(result.stdout.splitlines()[1])
        assert count > 0


@pytest.mark.parametrize(("given", "message"), [
    ("missing.rq", "missing.rq: no such query file"),
    ("queries/none/", "queries/none/: no such query file"),
    (".", ". is a folder, not a query file"),
])
def test_a_missing_query_file_or_a_folder_is_named_not_parsed(seed_build: Path, given: str,
                                                              message: str) -> None:
    result = CliRunner().invoke(app, ["query", "--graph", str(seed_build / "graph.trig"), given])
    assert result.exit_code == 1
    assert f"error: {message}" in result.stderr and "syntax" not in result.stderr


def test_a_table_shows_at_most_a_thousand_rows_and_says_so(seed_build: Path) -> None:
    result = CliRunner().invoke(app, ["query", "--graph", str(seed_build / "graph.trig"),
                                      "--timeout", "30", CARTESIAN])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2 + 1000 + 1
    assert lines[-1].startswith("(first 1,000 rows; more not shown")


def test_the_python_api_stops_a_runaway_query(store) -> None:
    import time

    import kg

    started = time.monotonic()
    with pytest.raises(QueryError, match="stopped after 1 s") as caught:
        kg.query(store, CARTESIAN + " ORDER BY ?i", timeout=1)
    assert caught.value.option == "timeout"
    assert time.monotonic() - started < 5
    assert kg.query(store, "ASK { ?s a schema:Person }", timeout=5) is True


def test_results_stream_until_the_time_limit_stops_the_query(seed_build: Path) -> None:
    process = kg_process("--graph", str(seed_build / "graph.trig"), "-f", "csv",
                         "--timeout", "4", CARTESIAN)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 1
    assert stdout.count(b"\r\n") > 10_000  # rows arrived while the query ran
    assert stderr.decode().strip().startswith("error: query: stopped after 4 s (the time limit)")
    assert b"Traceback" not in stderr


def test_ctrl_c_stops_an_embedded_query_within_a_second(seed_build: Path) -> None:
    import signal
    import time

    process = kg_process("--graph", str(seed_build / "graph.trig"), "-f", "csv",
                         "--timeout", "0", CARTESIAN + " ORDER BY ?i")  # no output until done
    try:
        deadline = time.monotonic() + 60
        while not child_pids(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # the query runs in a child process once the store is open
        (child,) = child_pids(process.pid)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, stderr = process.communicate(timeout=30)
        assert time.monotonic() - sent < 1.0
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode != 0 and b"Traceback" not in stderr
    assert not Path(f"/proc/{child}").exists()  # the evaluation stopped too


def test_a_query_past_its_memory_limit_stops_with_a_message(store) -> None:
    from kg.store.sparql import query_result

    with pytest.raises(QueryError, match=r"stopped at the memory limit \(0.293 GiB"):
        query_result(store, CARTESIAN + " ORDER BY ?i", timeout=120, memory=300 * 2**20)
    assert bool(query_result(store, "ASK { ?s ?p ?o }", memory=300 * 2**20))
