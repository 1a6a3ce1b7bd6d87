"""How fast ``kg serve`` answers: start-up time and page latency under a bounded local load.

    .venv/bin/python bench/bench_serve.py     # bench/work/bbc-full and bbc500, one process;
                                              # writes bench/RESULTS-serve.md

For each graph (a graph file or a ``kg build`` folder) and each ``--processes`` value this
starts ``kg serve`` as a user would (a subprocess on a free port of 127.0.0.1), measures the
time until ``/`` answers, visits the whole-graph pages and the named questions once (their
first visits are timed: each is made once per served graph), then runs a load loop: 300
requests from one client alone, then 20 concurrent clients sharing 2,100 requests, a seventh
each to entity pages, searches (names, first words, a typo, and words of claims), article
pages, "who said what" pages, named questions' pages, the graph view's neighbours and the
whole-graph pages, chosen at random with a fixed seed among the graph's entities, names,
articles and claim words. It reports p50, p95 and max latency per page kind,
the CPU the server and this client used, and writes ``bench/RESULTS-serve.md`` (``--no-write``
only prints). The client is lean: asyncio streams, one keep-alive HTTP/1.1 connection per
client, no HTTP library, so on the same 2 cores it takes little from the server.
Nothing is sent anywhere but 127.0.0.1; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import quote

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import free_port, stop, wait_until_ready  # noqa: E402

KINDS = ("entity", "search", "article", "said", "named", "graph", "whole")
#: What each kind asks: "said" who said what about a word or a name; "named" the query page of
#: a named question (claims every other time); "graph" the graph view's neighbours (the JSON
#: its page fetches); "whole" the pages of the whole graph (home, map, timeline, conflicts).
KIND_NOTES = {"entity": "entity page", "search": "search (names, and words in sentences, "
              "claims and titles)", "article": "article page", "said": "who said what about X",
              "named": "a named question's page (claims half the time)",
              "graph": "graph view (neighbours)", "whole": "home, map, timeline, conflicts"}
NAMED = ("claims", "people-roles", "claims", "events", "claims", "entities-across-articles",
         "claims", "conflicting-figures")
WHOLE = ("/", "/map", "/timeline", "/conflicts")
CLAIM_WORDS = """SELECT ?text WHERE { ?c a schema:Claim ; gaf:denotedBy/nif:anchorOf ?text }
LIMIT 3000"""
TARGET_P95 = 0.300
SOLO_REQUESTS = 300  # first, one client alone: what a page costs without queueing
ENTITIES = """SELECT ?e ?label (SAMPLE(?n) AS ?mentions) WHERE {
  VALUES ?class { schema:Person schema:Organization schema:Place }
  ?e a ?class ; rdfs:label ?label . OPTIONAL { ?e kg:mentionCount ?n } } GROUP BY ?e ?label"""
ARTICLES = "SELECT DISTINCT ?a { ?a a schema:NewsArticle }"
FIRST_VISITS: dict[str, float] = {}  # the first visit of each warmed page, in seconds


def start(graph: Path, processes: int) -> tuple[subprocess.Popen[bytes], str, float, float]:
    """``kg serve GRAPH`` on a free port; the URL, the seconds until ``/`` answered and
    until the whole-graph pages (the slowest: ``/conflicts``) were ready."""
    port = free_port()
    kg = Path(sys.executable).parent / "kg"
    started = time.perf_counter()
    log = (ROOT / "bench" / "work")
    log.mkdir(parents=True, exist_ok=True)
    with (log / f"serve-{port}.log").open("wb") as sink:
        process = subprocess.Popen([str(kg), "serve", str(graph), "--port", str(port),
                                    "--processes", str(processes), "--timeout", "300"],
                                   stdout=sink, stderr=sink)
    url = f"http://127.0.0.1:{port}"
    wait_until_ready(url + "/", process, 600.0)
    ready = time.perf_counter() - started
    first: dict[str, float] = {}
    for _ in range(processes):  # each process builds its own whole-graph pages and answers
        for path in ("/conflicts", "/map", "/timeline", *(f"/query?name={n}" for n in
                                                          sorted(set(NAMED)))):
            asked = time.perf_counter()
            httpx.get(url + path, timeout=600)
            first.setdefault(path, time.perf_counter() - asked)
    FIRST_VISITS.update(first)
    return process, url, ready, time.perf_counter() - started


def sample_urls(url: str, requests: int, seed: int = 7) -> list[tuple[str, str]]:
    """``requests`` (kind, path) pairs: entity pages, searches and article pages."""
    rng = random.Random(seed)

    def select(sparql: str) -> list[dict[str, dict[str, str]]]:
        answer = httpx.get(url + "/sparql", params={"query": sparql}, timeout=120)
        answer.raise_for_status()
        return list(answer.json()["results"]["bindings"])

    entities = select(ENTITIES)
    articles = [row["a"]["value"] for row in select(ARTICLES)]
    words = sorted({w.strip(".,;:'\"()") for row in select(CLAIM_WORDS)
                    for w in row["text"]["value"].split() if len(w) > 5 and w.isalpha()})
    paths = []
    for i in range(requests):
        kind = KINDS[i % len(KINDS)]
        entity = rng.choice(entities)
        if kind == "entity":
            paths.append((kind, "/entity?iri=" + quote(entity["e"]["value"])))
        elif kind == "article":
            paths.append((kind, "/article?iri=" + quote(rng.choice(articles))))
        elif kind == "search":
            text = rng.choice(words) if words and i % 2 else _search_text(rng, entities)
            paths.append((kind, "/search?q=" + quote(text)))
        elif kind == "said":
            text = rng.choice(words) if words and i % 2 else entity["label"]["value"]
            paths.append((kind, "/said?q=" + quote(text)))
        elif kind == "named":
            paths.append((kind, "/query?name=" + NAMED[(i // len(KINDS)) % len(NAMED)]))
        elif kind == "graph":
            paths.append((kind, "/graph/neighbours?iri=" + quote(entity["e"]["value"])))
        else:
            paths.append((kind, WHOLE[(i // len(KINDS)) % len(WHOLE)]))
    rng.shuffle(paths)
    return paths


def _search_text(rng: random.Random, entities: list[dict[str, dict[str, str]]]) -> str:
    label = rng.choice(entities)["label"]["value"]
    way = rng.randrange(3)
    if way == 0 or len(label) < 5:
        return label
    if way == 1:
        return label.split()[0]
    i = rng.randrange(1, len(label) - 1)  # a typo: two letters swapped
    return label[:i - 1] + label[i] + label[i - 1] + label[i + 1:]


class Connection:
    """One keep-alive HTTP/1.1 connection on asyncio streams: a lean client (no parsing of
    headers beyond the status and ``Content-Length``), so the load loop spends its CPU on
    waiting, not on the client library."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> int:
        """GET ``path``; the status code (the body is read and dropped)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                          "Accept: text/html\r\n\r\n".encode())
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status = int(head.split(" ", 2)[1])
        length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n")
                       if line.lower().startswith("content-length:")), None)
        if length is None:  # not sent by Starlette's HTML responses; read until close
            await self.reader.read()
            await self.close()
        else:
            await self.reader.readexactly(length)
        return status

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


async def load(url: str, paths: list[tuple[str, str]], clients: int
               ) -> tuple[dict[str, list[float]], float, int, float]:
    """Run ``paths`` with ``clients`` concurrent clients (one keep-alive connection each);
    latencies by kind, wall time, errors, and the CPU seconds this client process used."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    for item in paths:
        queue.put_nowait(item)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    errors = 0

    async def client() -> None:
        nonlocal errors
        connection = Connection(host, int(port))
        while not queue.empty():
            kind, path = queue.get_nowait()
            started = time.perf_counter()
            try:
                errors += await connection.get(path) != 200
            except (OSError, asyncio.IncompleteReadError, ValueError) as e:
                print(f"{path}: {type(e).__name__} {e}", file=sys.stderr)
                errors += 1
                await connection.close()
            times[kind].append(time.perf_counter() - started)
        await connection.close()

    cpu, started = time.process_time(), time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return times, time.perf_counter() - started, errors, time.process_time() - cpu


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass(frozen=True)
class Measured:
    """One graph's figures at one ``--processes``."""

    graph: Path
    articles: int
    size: int
    ready: float
    warm: float
    wall: float
    errors: int
    requests: int
    times: dict[str, list[float]]
    processes: int
    alone: dict[str, list[float]]
    client_cpu: float
    server_cpu: float
    repeated: dict[str, float]
    load: tuple[str, str]


def cpu_seconds(process: psutil.Process) -> float:
    """User and system CPU of ``process`` and all its children (web and query processes)."""
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            times = each.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def load_average() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def measure(graph: Path, requests: int, clients: int, processes: int) -> Measured:
    at_start = load_average()
    process, url, ready, warm = start(graph, processes)
    try:
        articles = len(httpx.get(url + "/sparql", params={"query": ARTICLES}, timeout=120)
                       .json()["results"]["bindings"])
        paths = sample_urls(url, requests)
        alone, _, _, _ = asyncio.run(load(url, paths[:SOLO_REQUESTS], 1))
        server = psutil.Process(process.pid)
        before = cpu_seconds(server)
        times, wall, errors, client_cpu = asyncio.run(load(url, paths, clients))
        server_cpu = cpu_seconds(server) - before
    finally:
        stop(process)
    size = (graph if graph.is_file() else graph / "graph.trig").stat().st_size
    repeated = {}  # the share of requests asking for a page asked before: what a cache could hit
    for kind in KINDS:
        asked = [path for each, path in paths if each == kind]
        repeated[kind] = 1 - len(set(asked)) / len(asked)
    return Measured(graph, articles, size, ready, warm, wall, errors, requests, times, processes,
                    alone, client_cpu, server_cpu, repeated, (at_start, load_average()))


def report(results: list[Measured], clients: int, seconds: float) -> str:
    lines = [
        "# `kg serve`: start-up and page latency", "",
        f"Generated by `.venv/bin/python bench/bench_serve.py` on {date.today().isoformat()} "
        f"in {seconds / 60:.0f} min: `kg serve` started as a subprocess on 127.0.0.1, then a "
        f"load loop: {SOLO_REQUESTS} requests from one client alone, then {clients} concurrent "
        f"clients sharing {results[0].requests:,} requests, a seventh to each kind of page "
        "below, picked at random with a fixed seed. Target: p95 under "
        f"{TARGET_P95 * 1000:.0f} ms for each with {clients} clients.", "",
        *(f"- **{kind}**: {note}" for kind, note in KIND_NOTES.items()), "",
        "| graph | articles | graph file | processes | ready in | all pages in | page | "
        f"1 client: p50 ms | p95 ms | {clients} clients: p50 ms | p95 ms | max ms | "
        "requests/s | errors |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        for i, kind in enumerate(KINDS):
            values = r.times[kind]
            head = (f"| `{r.graph}` | {r.articles:,} | {r.size / 1e6:.0f} MB | {r.processes} | "
                    f"{r.ready:.1f} s | {r.warm:.1f} s" if i == 0 else "| | | | | |")
            rate = f"{r.requests / r.wall:.0f}" if i == 0 else ""
            errors = str(r.errors) if i == 0 else ""
            solo = r.alone[kind]
            p95 = percentile(values, 0.95)
            mark = "" if p95 <= TARGET_P95 else " ✗"
            lines.append(f"{head} | {kind} | {statistics.median(solo) * 1000:.0f} | "
                         f"{percentile(solo, 0.95) * 1000:.0f} | "
                         f"{statistics.median(values) * 1000:.0f} | "
                         f"{p95 * 1000:.0f}{mark} | {max(values) * 1000:.0f} | "
                         f"{rate} | {errors} |")
    lines += ["", "First visits (each is made once per served graph, then kept: the graph does "
              "not change while served), timed before the load loop:", "",
              "| page | first visit |", "|---|---:|"]
    lines += [f"| `{path}` | {seconds:.2f} s |" for path, seconds in FIRST_VISITS.items()]
    lines += ["", "CPU and machine during the 20-client run:", "",
              "| graph | processes | server CPU per request | client CPU per request | client "
              "share of all CPU | repeated URLs (entity / search / article) | load average "
              "before → after |", "|---|---:|---:|---:|---:|---|---|"]
    for r in results:
        share = r.client_cpu / (r.client_cpu + r.server_cpu) if r.server_cpu else 0.0
        repeated = " / ".join(f"{r.repeated[kind]:.0%}" for kind in KINDS[:3])
        lines.append(f"| `{r.graph}` | {r.processes} | {r.server_cpu / r.requests * 1000:.1f} ms"
                     f" | {r.client_cpu / r.requests * 1000:.2f} ms | {share:.0%} | {repeated} | "
                     f"{r.load[0]} → {r.load[1]} |")
    lines += ["", "\"ready in\" is from starting `kg serve` to the first answer of `/` (reading "
              "the graph into memory, or opening its on-disk cache for graphs of 256 MB and "
              "more, then the name index, the labels and the links between articles); "
              "\"all pages in\" until the slowest whole-graph page (`/conflicts`) is built too, "
              "after which the load loop starts. \"Server CPU\" counts every process of "
              "`kg serve` (web processes and query workers); the client is this script (asyncio "
              "streams, one keep-alive connection per client). \"Repeated URLs\" is the share "
              "of requests for a page already asked for in the run: the most a cache of rendered "
              "pages could have served. The machine has 2 cores shared with other work (see the "
              "load average): compare rows of one run, not runs.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphs", nargs="*", type=Path,
                        default=[ROOT / "bench" / "work" / "bbc-full",
                                 ROOT / "bench" / "work" / "bbc500"],
                        help="graph files or kg build folders (default: the BBC corpus and 500 "
                        "of its articles, built in bench/work/bbc-full and bench/work/bbc500)")
    parser.add_argument("--requests", type=int, default=2100)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--processes", type=int, nargs="+", default=[1],
                        help="kg serve --processes values to measure")
    parser.add_argument("--no-write", dest="write", action="store_false",
                        help="print only; do not replace bench/RESULTS-serve.md")
    args = parser.parse_args()
    started = time.perf_counter()
    results = [measure(graph, args.requests, args.clients, processes)
               for graph in args.graphs for processes in args.processes]
    text = report(results, args.clients, time.perf_counter() - started)
    print(text)
    if args.write:
        (ROOT / "bench" / "RESULTS-serve.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
