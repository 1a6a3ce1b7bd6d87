"""The one HTTP client behind ``kg query --endpoint`` and ``kg load``, against local servers
the tests start: redirects (issue 18.1), a silent socket (18.9), secrets (18.10), credentials
and TLS options for queries (issue 11.5).
"""

from __future__ import annotations

import base64
import re
import socket
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import StoreError
from kg.remote.client import (
    Client,
    Connection,
    Credentials,
    RedirectRefused,
    StoreTimeout,
    split_userinfo,
)
from kg.remote.endpoint import run_remote
from kg.remote.load import _checked_sql_load, _sql_note, load_dataset
from kg.remote.replacement import SourceGraph
from kg.remote.store import connect, endpoints_for
from kg.remote.virtuoso import SqlLoad
from tests.servers import free_port, oxigraph_server, run_fake_server  # noqa: F401

SECRET = "s3cret-Pa55"
TRIG = """
@prefix ex: <https://example.org/remote#> .
ex:g1 { ex:a ex:p "one" . ex:b ex:p "two" . }
ex:g2 { ex:c ex:p "three" . }
"""
JSON_TRUE = b'{"head":{},"boolean":true}'
runner = CliRunner()


def trig(tmp_path: Path, text: str = TRIG) -> Path:
    path = tmp_path / "graph.trig"
    path.write_text(text)
    return path


def answer(handler: BaseHTTPRequestHandler, status: int, body: bytes = b"",
           headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def redirecting_to(base: str, status: int = 307):  # type: ignore[no-untyped-def]
    def behave(handler: BaseHTTPRequestHandler, _n: int) -> None:
        answer(handler, status, headers={"Location": base + handler.path})
    return behave


def recording(headers: list[str], status: int = 200, body: bytes = JSON_TRUE):  # type: ignore[no-untyped-def]
    def behave(handler: BaseHTTPRequestHandler, _n: int) -> None:
        headers.append(handler.headers.get("Authorization", ""))
        answer(handler, status, body, {"Content-Type": "application/sparql-results+json"})
    return behave


# -- 18.1: redirects -----------------------------------------------------------------------


@pytest.mark.server
def test_a_redirect_to_another_port_is_refused_and_gets_no_credentials(tmp_path: Path) -> None:
    # issue 38: a 307 to another port of the same host went there with the Basic credentials,
    # and the load reported "0 failed" while the store was unchanged
    other: list[str] = []
    with run_fake_server(recording(other)) as (target, _), \
            run_fake_server(redirecting_to(target)) as (proxy, _):
        assert target.rsplit(":", 1)[0] == proxy.rsplit(":", 1)[0]  # one host, two ports
        with pytest.raises(RedirectRefused, match="another port"):
            load_dataset(trig(tmp_path), proxy, preset="oxigraph",
                         auth=Credentials("ann", SECRET), retries=0)
    assert other == []


def test_a_redirect_to_another_host_is_refused_and_gets_no_credentials(tmp_path: Path) -> None:
    other: list[str] = []
    with run_fake_server(recording(other)) as (target, _), \
            run_fake_server(redirecting_to(target.replace("127.0.0.1", "localhost"))) \
            as (proxy, _):
        with pytest.raises(RedirectRefused) as info:
            load_dataset(trig(tmp_path), proxy, preset="oxigraph",
                         auth=Credentials("ann", SECRET), retries=0)
        result = runner.invoke(app, ["load", str(trig(tmp_path)), "--endpoint", proxy,
                                     "--preset", "oxigraph", "--retries", "0"])
    message = str(info.value)
    assert "redirects (HTTP 307) to http://localhost:" in message and "another host" in message
    assert other == []  # nothing, credentials least of all, went to the other host
    assert result.exit_code == 1 and "loaded" not in result.stdout
    assert "redirects (HTTP 307)" in result.stderr
    assert "did not answer with SPARQL JSON" not in result.stderr


@pytest.mark.parametrize(("status", "method_change"), [(302, True), (301, True), (308, False)])
def test_a_redirect_that_would_turn_a_put_into_a_get_is_refused(status: int,
                                                                method_change: bool) -> None:
    def behave(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/store":
            return httpx.Response(status, headers={"Location": "http://store.test/other"})
        return httpx.Response(201)

    with Client(Connection(retries=0), transport=httpx.MockTransport(behave)) as client:
        if method_change:
            with pytest.raises(RedirectRefused, match=f"HTTP {status} would turn the PUT"):
                client.request("PUT", "http://store.test/store", "graph <g>", content=b"")
        else:
            assert client.request("PUT", "http://store.test/store", "graph <g>",
                                  content=b"").status_code == 201


def test_an_answer_that_is_not_2xx_is_no_success(tmp_path: Path) -> None:
    def behave(request: httpx.Request) -> httpx.Response:
        return httpx.Response(304 if request.method == "PUT" else 404)

    with pytest.raises(StoreError, match=r"HTTP 304 without saying where to go. 0 of 2 graphs"):
        load_dataset(trig(tmp_path), "http://store.test/store", retries=0,
                     transport=httpx.MockTransport(behave))


def test_https_is_never_downgraded_by_a_redirect() -> None:
    def behave(request: httpx.Request) -> httpx.Response:
        return httpx.Response(301, headers={"Location": "http://store.test/query"})

    with Client(Connection(retries=0), transport=httpx.MockTransport(behave)) as client, \
            pytest.raises(RedirectRefused, match="from https to plain http"):
        client.request("GET", "https://store.test/query", "the query")


# -- 18.9: a server that accepts and never answers -----------------------------------------


@pytest.fixture
def silent_socket() -> Iterator[str]:
    """A socket that accepts connections (the kernel does) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/query"


def test_a_silent_endpoint_is_given_up_after_the_timeout(silent_socket: str) -> None:
    started = time.monotonic()
    result = runner.invoke(app, ["query", "ASK {}", "--endpoint", silent_socket,
                                 "--timeout", "1"])
    took = time.monotonic() - started
    assert result.exit_code == 1 and took < 3, (took, result.output)
    assert "did not answer the query within 1 s" in result.stderr
    assert "--timeout" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_timeout_bounds_all_attempts_together(silent_socket: str) -> None:
    started = time.monotonic()
    with pytest.raises(StoreTimeout):
        run_remote(silent_socket, "ASK {}", timeout=1.0, attempts=3)
    assert time.monotonic() - started < 2.5


# -- 18.10: secrets ------------------------------------------------------------------------


def test_a_password_in_the_url_never_shows_in_an_error() -> None:
    port = free_port()
    result = runner.invoke(app, ["query", "ASK {}", "--endpoint",
                                 f"http://ann:{SECRET}@127.0.0.1:{port}/query", "--timeout", "2"])
    assert result.exit_code == 1 and f"127.0.0.1:{port}/query" in result.stderr
    assert SECRET not in result.output and "ann:" not in result.output


def test_a_server_echoing_the_password_is_redacted() -> None:
    def echo(handler: BaseHTTPRequestHandler, _n: int) -> None:
        token = handler.headers.get("Authorization", "").split(" ", 1)[-1]
        answer(handler, 503, base64.b64decode(token) if token else b"")

    with run_fake_server(echo) as (url, _):
        result = runner.invoke(app, ["query", "ASK {}", "--endpoint", f"{url}/query",
                                     "--user", "ann", "--timeout", "3"],
                               env={"KG_STORE_PASSWORD": SECRET})
    assert result.exit_code == 1 and "HTTP 503" in result.stderr
    assert SECRET not in result.output and "ann:***" in result.stderr


def test_percent_encoded_passwords_are_decoded_and_kept_out_of_the_url() -> None:
    url, found = split_userinfo("http://ann:p%40ss%3Aword@[::1]:7878/query")
    assert url == "http://[::1]:7878/query"
    assert found is not None and found.password == "p@ss:word" and "p@ss" not in repr(found)


def test_query_takes_the_credentials_of_load(tmp_path: Path) -> None:
    secret_file = tmp_path / "password"
    secret_file.write_text(SECRET + "\n")
    seen: list[str] = []
    with run_fake_server(recording(seen)) as (url, _):
        by_file = runner.invoke(app, ["query", "ASK {}", "--endpoint", f"{url}/query",
                                      "--user", "ann", "--password-file", str(secret_file),
                                      "--format", "json"])
        by_env = runner.invoke(app, ["query", "ASK {}", "--endpoint", f"{url}/query",
                                     "--format", "json"], env={"KG_STORE_USER": "ann",
                                                               "KG_STORE_PASSWORD": SECRET})
    basic = "Basic " + base64.b64encode(f"ann:{SECRET}".encode()).decode()
    assert by_file.exit_code == 0 and by_env.exit_code == 0, by_file.output + by_env.output
    assert seen == [basic, basic]


def test_refused_credentials_name_the_options_in_the_cli_only() -> None:
    with run_fake_server(recording([], status=401)) as (url, _):
        result = runner.invoke(app, ["query", "ASK {}", "--endpoint", f"{url}/query"])
        with pytest.raises(StoreError) as info:
            run_remote(f"{url}/query", "ASK {}")
    assert result.exit_code == 1 and "refused access (HTTP 401)" in result.stderr
    assert "--user" in result.stderr and "--password-file" in result.stderr
    assert "--" not in str(info.value)


@pytest.mark.parametrize(("args", "expected"), [
    (["--password-file", "{missing}"], "cannot read password file"),
    (["--ca-cert", "{missing}"], "cannot use CA certificate file"),
])
def test_unusable_secret_files_are_one_clean_line(tmp_path: Path, args: list[str],
                                                  expected: str) -> None:
    missing = str(tmp_path / "nowhere.pem")
    result = runner.invoke(app, ["query", "ASK {}", "--endpoint", "https://127.0.0.1:1/query",
                                 "--user", "ann", *[a.format(missing=missing) for a in args]],
                           env={"KG_STORE_PASSWORD": None if "--password-file" in args else "x"})
    assert result.exit_code == 1 and expected in result.stderr and missing in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_help_says_where_a_password_is_visible() -> None:
    for command in ("query", "load"):
        text = " ".join(runner.invoke(app, [command, "--help"]).stdout.split())
        assert "`ps`" in text and "--password-file" in text and "KG_STORE_PASSWORD" in text


# -- Virtuoso's counts ------------------------------------------------------------------------


def _virtuoso_answering(graphs_said: int) -> tuple[httpx.MockTransport, list[str]]:
    """A Virtuoso /sparql holding graphs a (3 triples) and b (5); the whole-store count says
    the store has ``graphs_said`` graphs (more than it lists: the answer was cut short)."""
    queries: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        query = dict(httpx.QueryParams(request.content.decode()))["query"]
        queries.append(query)
        rows = [{"g": {"type": "uri", "value": f"urn:{g}"}, "n": {"type": "literal", "value": n},
                 "graphs": {"type": "literal", "value": str(graphs_said)}}
                for g, n in (("a", "3"), ("b", "5"))]
        return httpx.Response(200, json={"results": {"bindings": rows}})

    return httpx.MockTransport(answer), queries


@pytest.mark.parametrize(("graphs_said", "requests"), [(2, 1), (3, 2)])
def test_virtuoso_counts_the_whole_store_at_once_unless_cut_short(graphs_said: int,
                                                                  requests: int) -> None:
    transport, queries = _virtuoso_answering(graphs_said)
    ends = endpoints_for("http://127.0.0.1:8890", preset="virtuoso")
    with connect(ends, Connection(retries=0), transport=transport) as store:
        counts = store.counts(["urn:a", "urn:c"])
    assert counts == {"urn:a": 3, "urn:c": 0}
    assert len(queries) == requests  # a cut answer: counted again graph by graph
    assert "GROUP BY ?g" in queries[0] and ("UNION" in queries[-1]) == (requests == 2)
    # Virtuoso's optimizer must not choose the access path (kg.remote.store, the preset).
    assert all(q.startswith('define sql:table-option "index RDF_QUAD" ') for q in queries)


def test_a_graph_virtuoso_says_it_loaded_but_holds_short_goes_by_put() -> None:
    """TTLP_MT's success is checked by a count: a graph held short is marked for PUT."""
    def graph(name: str, size: int) -> SourceGraph:
        return SourceGraph(name, [ox.Quad(ox.NamedNode(f"urn:s{i}"), ox.NamedNode("urn:p"),
                                          ox.Literal(str(i)), ox.NamedNode(name))
                                  for i in range(size)])

    class Store:
        def counts(self, names: list[str]) -> dict[str, int]:
            return {name: {"urn:whole": 3, "urn:short": 1}.get(name, 0) for name in names}

    graphs = [graph("urn:whole", 3), graph("urn:short", 2), graph("urn:refused", 2)]
    outcome = _checked_sql_load(Store(), {"urn:whole": None, "urn:short": None,  # type: ignore[arg-type]
                                          "urn:refused": "refused"}, graphs)
    assert outcome["urn:whole"] is None and outcome["urn:refused"] == "refused"
    assert outcome["urn:short"] == ("Virtuoso's SQL port reported it loaded, but the store "
                                    "holds 1 of its 2 triples")


def test_a_batch_virtuoso_rolled_back_for_a_deadlock_is_loaded_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two isql-vt sessions can deadlock; Virtuoso rolls one batch back (40001). isql-vt runs
    it again at once (d); still deadlocked, it is loaded again alone, after the others (b).
    A batch refused for another reason stays refused (c); a batch counts as loaded only where
    isql-vt said "Done." (e printed nothing: the session was cut)."""
    import kg.remote.virtuoso as virtuoso

    runs: list[str] = []
    deadlock = "*** Error 40001: [Virtuoso Server]SR...: Transaction deadlock\n"

    def run(sql: object, script: str) -> str:
        assert script.startswith(virtuoso.SESSION_SETTINGS)
        answer = "Connected to OpenLink Virtuoso\n\nDone. -- 0 msec.\n\nkg-ready\n"
        for number, path in enumerate(re.findall(r"file_to_string_output \('([^']+)'\)", script)):
            graph = re.findall(r"<(urn:[a-e])> \.$", Path(path).read_text(), re.M)[0]
            runs.append(graph)
            answer += {"a": "\nDone. -- 5 msec.\n",
                       "b": deadlock if runs.count(graph) == 1 else "\nDone. -- 5 msec.\n",
                       "c": "*** Error 37000: [Virtuoso Server]SP029: TURTLE RDF loader\n",
                       "d": deadlock + "\nDone. -- 9 msec.\n",
                       "e": ""}[graph[-1]]
            answer += f"\nkg-batch-{number}-done\n"
        return answer

    monkeypatch.setattr(virtuoso, "run", run)
    monkeypatch.setattr(virtuoso, "BATCH_TRIPLES", 1)  # a batch per graph
    graphs = [SourceGraph(name, [ox.Quad(ox.NamedNode("urn:s"), ox.NamedNode("urn:p"),
                                         ox.Literal(name), ox.NamedNode(name))])
              for name in ("urn:c", "urn:a", "urn:b", "urn:d", "urn:e")]  # c: a first batch
    port = virtuoso.SqlPort("127.0.0.1", 1111, "dba", "secret")
    done = virtuoso.load_graphs(port, tmp_path, graphs)
    outcome = done.outcome
    assert (done.batches, done.deadlocked) == (5, 2)
    assert outcome["urn:a"] is None and outcome["urn:b"] is None and outcome["urn:d"] is None
    assert "SP029" in str(outcome["urn:c"]) and runs.count("urn:c") == 1
    assert "the load stopped before this batch ended" in str(outcome["urn:e"])
    assert runs.count("urn:b") == 2 and runs.count("urn:d") == 1
    assert list(tmp_path.iterdir()) == []


FAKE_ISQL = '''\
import re, sys
sys.stdin.readline()  # the password
print("Connected to OpenLink Virtuoso")
errors = sys.stderr  # as isql-vt: errors on standard error unless told otherwise
script = open(re.search(r"load (.+);", sys.argv[3]).group(1)).read()
for statement in script.split(";\\n"):
    if statement.strip() == "set errors stdout":
        errors = sys.stdout
    elif "TTLP_MT" in statement:
        path = re.search(r"file_to_string_output \\('([^']+)'\\)", statement).group(1)
        if "urn:bad" in open(path).read():
            print("*** Error 37000: [Virtuoso Server]SP029: TURTLE RDF loader", file=errors)
        else:
            print("\\nDone. -- 3 msec.")
    elif "select '" in statement:
        print("\\n" + re.search(r"'(kg-[a-z0-9-]+)'", statement).group(1))
'''


def test_a_batch_error_is_its_own_whatever_stream_isql_prints_it_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """isql-vt prints errors on standard error and results on standard output (exit status 0
    either way): read apart, a failed batch's error came after its end marker and the batch
    passed for loaded. An isql-vt that behaves so: the bad batch alone is refused."""
    import sys

    import kg.remote.virtuoso as virtuoso

    fake = tmp_path / "isql-vt"
    fake.write_text(f"#!{sys.executable}\n{FAKE_ISQL}")
    fake.chmod(0o755)
    folder = tmp_path / "allowed"
    folder.mkdir()
    monkeypatch.setattr(virtuoso, "BATCH_TRIPLES", 1)  # a batch per graph
    graphs = [SourceGraph(name, [ox.Quad(ox.NamedNode("urn:s"), ox.NamedNode("urn:p"),
                                         ox.Literal(name), ox.NamedNode(name))])
              for name in ("urn:good", "urn:bad", "urn:fine")]
    port = virtuoso.SqlPort("127.0.0.1", 1111, "dba", "secret", str(fake))
    outcome = virtuoso.load_graphs(port, folder, graphs, sessions=1).outcome
    assert outcome["urn:good"] is None and outcome["urn:fine"] is None
    assert "SP029" in str(outcome["urn:bad"])
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(("deadlocked", "outcome", "note"), [
    (0, {"a": None, "b": None}, ""),
    (1, {"a": None, "b": None}, "note: 1 of 2 batches through Virtuoso's SQL port lost a "
                                "deadlock with another session and were loaded again"),
    (0, {"a": None, "b": "held 1 of 2"}, "note: 1 of 2 new graphs went by PUT after "
                                         "Virtuoso's SQL port (refused, or not held whole "
                                         "after its load)"),
])
def test_the_report_says_what_did_not_go_the_fast_way(deadlocked: int,
                                                      outcome: dict[str, str | None],
                                                      note: str) -> None:
    assert _sql_note(SqlLoad(outcome, 2, deadlocked), outcome) == note


def test_a_query_refused_on_virtuosos_estimate_is_asked_once_with_the_setting_named() -> None:
    def refuse(handler: BaseHTTPRequestHandler, _n: int) -> None:  # Virtuoso's own words for it
        body = (b"Virtuoso 42000 Error The estimated execution time 224766 (sec) exceeds the "
                b"limit of 400 (sec).")
        handler.send_response(500)
        handler.send_header("Content-Type", "text/plain")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    with run_fake_server(refuse) as (url, seen):
        with pytest.raises(StoreError) as info:
            run_remote(f"{url}/sparql", "SELECT * { ?s ?p ?o }", attempts=3)
    assert len(seen) == 1  # the same estimate next time: not asked again
    assert "exceeds the limit of 400" in str(info.value)
    assert "MaxQueryCostEstimationTime" in str(info.value)
