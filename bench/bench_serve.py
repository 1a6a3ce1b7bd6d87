"""How fast ``kg serve`` answers: start-up time and page latency under a bounded local load.

    .venv/bin/python bench/bench_serve.py /tmp/bbc-serve /tmp/bbc500 --write

For each graph (a graph file or a ``kg build`` folder) this starts ``kg serve`` as a user
would (a subprocess on a free port of 127.0.0.1), measures the time until ``/`` answers,
then runs a load loop: 20 concurrent clients share 2,000 requests, a third each to entity
pages, searches and article pages, chosen at random (seeded) among the graph's entities,
names (whole names, first words, a typo) and articles. It reports p50, p95 and max
latency per page kind; ``--write`` replaces ``bench/RESULTS-serve.md``.
Nothing is sent anywhere but 127.0.0.1; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import free_port, stop, wait_until_ready  # noqa: E402

KINDS = ("entity", "search", "article")
TARGET_P95 = 0.300
SOLO_REQUESTS = 300  # first, one client alone: what a page costs without queueing
ENTITIES = """SELECT ?e ?label (SAMPLE(?n) AS ?mentions) WHERE {
  VALUES ?class { schema:Person schema:Organization schema:Place }
  ?e a ?class ; rdfs:label ?label . OPTIONAL { ?e kg:mentionCount ?n } } GROUP BY ?e ?label"""
ARTICLES = "SELECT DISTINCT ?a { ?a a schema:NewsArticle }"


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
                                    "--processes", str(processes)], stdout=sink, stderr=sink)
    url = f"http://127.0.0.1:{port}"
    wait_until_ready(url + "/", process, 600.0)
    ready = time.perf_counter() - started
    for _ in range(processes):  # each process builds its own whole-graph pages
        httpx.get(url + "/conflicts", timeout=600)
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
    paths = []
    for i in range(requests):
        kind = KINDS[i % len(KINDS)]
        if kind == "entity":
            paths.append((kind, "/entity?iri=" + quote(rng.choice(entities)["e"]["value"])))
        elif kind == "article":
            paths.append((kind, "/article?iri=" + quote(rng.choice(articles))))
        else:
            paths.append((kind, "/search?q=" + quote(_search_text(rng, entities))))
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


async def load(url: str, paths: list[tuple[str, str]], clients: int
               ) -> tuple[dict[str, list[float]], float, int]:
    """Run ``paths`` with ``clients`` concurrent clients; latencies by kind, wall time, errors."""
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    for item in paths:
        queue.put_nowait(item)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    errors = 0

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal errors
        while not queue.empty():
            kind, path = queue.get_nowait()
            started = time.perf_counter()
            try:
                response = await http.get(path)
                errors += response.status_code != 200
            except httpx.TransportError as e:
                print(f"{path}: {type(e).__name__} {e}", file=sys.stderr)
                errors += 1
            times[kind].append(time.perf_counter() - started)

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return times, time.perf_counter() - started, errors


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass(frozen=True)
class Measured:
    """One graph's figures."""

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


def measure(graph: Path, requests: int, clients: int, processes: int) -> Measured:
    process, url, ready, warm = start(graph, processes)
    try:
        articles = len(httpx.get(url + "/sparql", params={"query": ARTICLES}, timeout=120)
                       .json()["results"]["bindings"])
        paths = sample_urls(url, requests)
        alone, _, _ = asyncio.run(load(url, paths[:SOLO_REQUESTS], 1))
        times, wall, errors = asyncio.run(load(url, paths, clients))
    finally:
        stop(process)
    size = (graph if graph.is_file() else graph / "graph.trig").stat().st_size
    return Measured(graph, articles, size, ready, warm, wall, errors, requests, times, processes,
                    alone)


def report(results: list[Measured], clients: int) -> str:
    lines = [
        "# `kg serve`: start-up and page latency", "",
        f"Generated by `bench/bench_serve.py` on {date.today().isoformat()}: `kg serve` "
        "started as a subprocess on 127.0.0.1, then a load loop: "
        f"{SOLO_REQUESTS} requests from one client alone, then {clients} concurrent clients "
        f"sharing {results[0].requests:,} requests, a third "
        "each to entity pages, searches (whole names, first words, a typo) and article pages, "
        f"picked at random. Target: p95 under {TARGET_P95 * 1000:.0f} ms for each.", "",
        "| graph | articles | graph file | processes | ready in | all pages in | page | "
        "1 client: p50 ms | p95 ms | 20 clients: p50 ms | p95 ms | max ms | requests/s | errors |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        for i, kind in enumerate(KINDS):
            values = r.times[kind]
            head = (f"| `{r.graph}` | {r.articles:,} | {r.size / 1e6:.0f} MB | {r.processes} | "
                    f"{r.ready:.1f} s | {r.warm:.1f} s" if i == 0 else "| | | | | |")
            rate = f"{r.requests / r.wall:.0f}" if i == 0 else ""
            errors = str(r.errors) if i == 0 else ""
            solo = r.alone[kind]
            lines.append(f"{head} | {kind} | {statistics.median(solo) * 1000:.0f} | "
                         f"{percentile(solo, 0.95) * 1000:.0f} | "
                         f"{statistics.median(values) * 1000:.0f} | "
                         f"{percentile(values, 0.95) * 1000:.0f} | {max(values) * 1000:.0f} | "
                         f"{rate} | {errors} |")
    lines += ["", "\"ready in\" is from starting `kg serve` to the first answer of `/` (opening "
              "the store, building its on-disk cache on the first run, reading the name index); "
              "\"all pages in\" until the slowest whole-graph page (`/conflicts`) is built too, "
              "after which the load loop starts. "
              "Machine: 2 cores shared with other work; compare the two graphs, not absolute "
              "times.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphs", nargs="+", type=Path, help="graph files or kg build folders")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2],
                        help="kg serve --processes values to measure")
    parser.add_argument("--write", action="store_true", help="replace bench/RESULTS-serve.md")
    args = parser.parse_args()
    results = [measure(graph, args.requests, args.clients, processes)
               for graph in args.graphs for processes in args.processes]
    text = report(results, args.clients)
    print(text)
    if args.write:
        (ROOT / "bench" / "RESULTS-serve.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
