"""How fast ``kg load`` fills Oxigraph and Virtuoso, next to each store's own bulk loader.

    .venv/bin/python bench/bench_load.py [--triples 300000] [--batch-sizes 5000] [--out F]
                                         [--no-virtuoso | --no-oxigraph]

Generates a dataset shaped like a build (one graph per article of ~400 triples, plus an
entities graph of ~5 %), then, in the same run and each on a fresh database:

* ``oxigraph load --location DIR --file F`` (the bulk loader, no server running);
* ``kg load --preset oxigraph``, then again (nothing changed), then again with ``--compare``;
* ``kg load --protocol update`` with each batch size;
* Virtuoso (Debian ``virtuoso-t``), on the same data as N-Quads: its bulk loader
  (``ld_dir`` + ``rdf_loader_run`` through ``isql-vt``), then ``kg load --preset virtuoso``
  through its SQL port (the fast path: two sessions, the default, then one) and with that
  port closed (the Graph Store Protocol).

Times are wall-clock seconds of the whole command, parsing included. Writes
``bench/RESULTS-load.md``; the target is ``kg load`` at least half as fast as each bulk loader.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pyoxigraph as ox

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import OXIGRAPH, run_oxigraph, run_virtuoso  # noqa: E402

ISQL = Path("/usr/bin/isql-vt")

WORK = ROOT / "bench" / "work" / "load"
RESULTS = ROOT / "bench" / "RESULTS-load.md"
KG = Path(sys.executable).parent / "kg"
BASE = "https://w3id.org/kgnews/id/"
SCHEMA = "https://schema.org/"
XSD = "http://www.w3.org/2001/XMLSchema#"


def generate(path: Path, triples: int) -> int:
    """A TriG file of about ``triples`` triples in build-like graphs; returns the count."""
    articles = max(1, triples * 95 // 100 // 400)
    quads = [q for a in range(articles) for q in _article(a)]
    entities = ox.NamedNode(BASE + "graph/entities")
    for e in range(max(1, (triples - len(quads)) // 4)):
        entity = ox.NamedNode(f"{BASE}person/p{e}")
        quads += [
            ox.Quad(entity, ox.NamedNode(SCHEMA + "name"), ox.Literal(f"Person «{e}» \"Q\""),
                    entities),
            ox.Quad(entity, ox.NamedNode(SCHEMA + "alternateName"),
                    ox.Literal(f"P. {e}", language="uk"), entities),
            ox.Quad(entity, ox.NamedNode(SCHEMA + "latitude"),
                    ox.Literal(f"{50 + e % 7}.45", datatype=ox.NamedNode(XSD + "double")),
                    entities),
            ox.Quad(entity, ox.NamedNode(SCHEMA + "sameAs"),
                    ox.NamedNode(f"http://sws.geonames.org/{700000 + e}/"), entities),
        ]
    path.write_bytes(ox.serialize(quads, format=ox.RdfFormat.TRIG) or b"")
    return len(quads)


def _article(a: int) -> list[ox.Quad]:
    graph = ox.NamedNode(f"{BASE}graph/article/{a:06d}")
    article = ox.NamedNode(f"{BASE}article/{a:06d}")
    quads = [ox.Quad(article, ox.NamedNode(SCHEMA + "text"),
                     ox.Literal(f"Article {a} said \"we will\"\nand left.\n" * 20), graph)]
    for m in range(133):
        mention = ox.NamedNode(f"{BASE}article/{a:06d}#char={m * 9},{m * 9 + 7}")
        quads += [
            ox.Quad(mention, ox.NamedNode(SCHEMA + "mentions"),
                    ox.NamedNode(f"{BASE}person/p{(a * 7 + m) % 5000}"), graph),
            ox.Quad(mention, ox.NamedNode(SCHEMA + "position"),
                    ox.Literal(str(m * 9), datatype=ox.NamedNode(XSD + "integer")), graph),
            ox.Quad(mention, ox.NamedNode(SCHEMA + "name"), ox.Literal(f"Зеленський {m}"),
                    graph),
        ]
    return quads


def fresh(name: str) -> Path:
    folder = WORK / name
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def timed(args: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env or {**os.environ})
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return seconds


def store_triples(url: str) -> int:
    """Triples in the store's named graphs, kg's records of what it loaded left out."""
    query = ("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } "
             "FILTER (?g != <urn:kgnews:load:digests>) }")
    answer = httpx.post(f"{url}/query", data={"query": query}, timeout=120,
                        headers={"Accept": "application/sparql-results+json"})
    return int(answer.json()["results"]["bindings"][0]["n"]["value"])


def kg_load(data: Path, expected: int, name: str, extra: list[str],
            again: tuple[list[str], ...] = ()) -> list[float]:
    """``kg load`` into a fresh server, then once more per ``again`` (its extra options);
    checks the count."""
    with run_oxigraph(fresh(name), union=False) as server:
        args = [str(KG), "load", str(data), "--endpoint", server.url, "--preset", "oxigraph"]
        times = [timed(args + extra)]
        times += [timed(args + more) for more in again]
        loaded = store_triples(server.url)
    if loaded != expected:
        raise SystemExit(f"{name}: the store holds {loaded} triples, not {expected}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--triples", type=int, default=300_000)
    parser.add_argument("--batch-sizes", default="5000",
                        help="SPARQL Update batches to time ('' for none).")
    parser.add_argument("--no-virtuoso", action="store_true", help="Oxigraph only.")
    parser.add_argument("--no-oxigraph", action="store_true", help="Virtuoso only.")
    parser.add_argument("--out", type=Path, default=RESULTS, help="Where to write the table.")
    options = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    # As a wheel install leaves it: kg's modules compiled, so `kg` does not compile its
    # sources on every start (this machine sets PYTHONDONTWRITEBYTECODE).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "kg")], check=True,
                   capture_output=True)
    data = WORK / "dataset.trig"
    triples = generate(data, options.triples)
    print(f"dataset: {triples:,} triples in {data.stat().st_size / 1e6:.0f} MB", flush=True)
    virtuoso = [] if options.no_virtuoso else virtuoso_rows(data, triples)
    if options.no_oxigraph:
        report([], virtuoso, triples, options.triples, options.out)
        return
    bulk = timed([str(OXIGRAPH), "load", "--location", str(fresh("bulk")), "--file", str(data)])
    rows = [("`oxigraph load` (bulk loader, no server)", bulk)]
    print(f"bulk loader: {bulk:.1f} s", flush=True)
    first, again, compare = kg_load(data, triples, "gsp", [], again=([], ["--compare"]))
    rows += [("`kg load` (new graphs through Oxigraph's bulk loader, 100,000 triples a "
              "request, two in flight; each request whole or not at all)", first),
             ("`kg load` again, nothing changed (kg's records: no graph read back)", again),
             ("`kg load --compare` again (every graph read back and compared)", compare)]
    for size in filter(None, options.batch_sizes.split(",")):
        seconds = kg_load(data, triples, f"update-{size}",
                          ["--protocol", "update", "--batch-size", size])
        rows.append((f"`kg load --protocol update --batch-size {int(size):,}`", seconds[0]))
    report(rows, virtuoso, triples, options.triples, options.out)


def virtuoso_rows(data: Path, triples: int) -> list[tuple[str, float]]:
    """Virtuoso's bulk loader and ``kg load --preset virtuoso``, each on a fresh database."""
    nquads = WORK / "dataset.nq"
    nquads.write_bytes(ox.serialize(ox.parse(path=str(data), format=ox.RdfFormat.TRIG),
                                    format=ox.RdfFormat.N_QUADS) or b"")
    with run_virtuoso(fresh("virtuoso-bulk")) as server:
        assert server.directory is not None
        shutil.copy(nquads, server.directory / "dataset.nq")
        sql = (f"ld_dir('{server.directory}', 'dataset.nq', 'https://example.org/unused'); "
               "rdf_loader_run();")
        bulk = timed([str(ISQL), server.isql, server.user, server.password, f"exec={sql}"])
        # The loader writes without the transaction log: until a checkpoint, a crash loses
        # the load (Virtuoso's bulk-loading procedure ends with one). kg's load is durable.
        durable = bulk + timed([str(ISQL), server.isql, server.user, server.password,
                                "exec=checkpoint;"])
        check_virtuoso(server.url, triples, "bulk loader")
    print(f"virtuoso bulk loader: {bulk:.1f} s, with its checkpoint {durable:.1f} s "
          f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    rows = [("Virtuoso bulk loader (`ld_dir` + `rdf_loader_run` through `isql-vt`)", bulk),
            ("Virtuoso bulk loader, then `checkpoint` (durable from then on)", durable)]
    for label, port, extra in (
            ("(default: new graphs through its SQL port, two `isql-vt` sessions, one "
             "transactional `TTLP_MT` per batch)", None, []),
            ("--sql-sessions 1` (one `isql-vt` session)", None, ["--sql-sessions", "1"]),
            ("(Graph Store Protocol, one PUT per graph: SQL port closed)", 0, [])):
        with run_virtuoso(fresh("virtuoso-kg")) as server:
            env = {**os.environ, "KG_STORE_PASSWORD": server.password}
            closed = socket.socket()
            closed.bind(("127.0.0.1", 0))  # bound, never listening: the port is closed
            sql = closed.getsockname()[1] if port == 0 else int(server.isql.rsplit(":")[1])
            args = [str(KG), "load", str(nquads), "--endpoint", server.url, "--preset",
                    "virtuoso", "--user", server.user, "--sql-port", str(sql), *extra]
            started = time.perf_counter()
            done = subprocess.run(args, capture_output=True, text=True, env=env)
            ours = time.perf_counter() - started
            closed.close()
            took_sql = "not Virtuoso's SQL port" not in done.stdout
            if done.returncode != 0 or took_sql != (port is None):
                raise SystemExit(f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}")
            check_virtuoso(server.url, triples, "kg load")
        print(f"kg load into virtuoso {label}: {ours:.1f} s (load average "
              f"{os.getloadavg()[0]:.1f})", flush=True)
        name = f"`kg load --preset virtuoso {label}" if label.startswith("--") \
            else f"`kg load --preset virtuoso` {label}"
        notes = [line.strip() for line in done.stdout.splitlines() if "note:" in line]
        for note in notes:
            print(f"  {note}", flush=True)
        rows.append((name + "".join(f" ({note})" for note in notes
                                    if "Graph Store Protocol" not in note), ours))
    return rows


def check_virtuoso(url: str, expected: int, what: str) -> None:
    query = ("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } "
             'FILTER (STRSTARTS(STR(?g), "https://w3id.org/kgnews/")) }')
    answer = httpx.post(f"{url}/sparql", data={"query": query}, timeout=300,
                        headers={"Accept": "application/sparql-results+json"})
    loaded = int(answer.json()["results"]["bindings"][0]["n"]["value"])
    if loaded != expected:
        raise SystemExit(f"virtuoso {what}: the store holds {loaded} triples, not {expected}")


def report(rows: list[tuple[str, float]], virtuoso: list[tuple[str, float]], triples: int,
           asked: int, out: Path) -> None:
    bulk = rows[0][1] if rows else 0.0
    lines = [
        "# `kg load` against the stores' own bulk loaders",
        "",
        "",
        f"Generated by `bench/bench_load.py --triples {asked}` on "
        f"{time.strftime('%Y-%m-%d')}: {triples:,} triples in build-shaped graphs (one of "
        "~400 triples per article, plus an entities graph), each run on a fresh database of "
        f"`oxigraph serve` {_version()} on 127.0.0.1. Speed relative to the bulk loader: "
        "its time divided by ours (target: at least 0.5).",
        "",
        "| what | seconds | triples/s | speed vs bulk loader |",
        "|---|---:|---:|---:|",
    ]
    for label, seconds in rows:
        lines.append(f"| {label} | {seconds:.1f} | {triples / seconds:,.0f} | "
                     f"{bulk / seconds:.2f} |")
    updates = [(seconds, label) for label, seconds in rows if "--batch-size" in label]
    if updates:
        best = min(updates)[1].split("--batch-size ")[1].rstrip("`")
        lines += ["", f"Fastest SPARQL Update batch here: {best} triples per request. "
                  "Machine: 2 shared cores; compare ratios, not absolute times."]
    if virtuoso:
        lines += ["", "Virtuoso 7.2 (Debian), the same triples as N-Quads, each run on a fresh "
                  "database; speed relative to its bulk loader:", "",
                  "| what | seconds | triples/s | speed vs its bulk loader | the same, "
                  "loader + checkpoint |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {label} | {seconds:.1f} | {triples / seconds:,.0f} | "
                  f"{virtuoso[0][1] / seconds:.2f} | {virtuoso[1][1] / seconds:.2f} |"
                  for label, seconds in virtuoso]
    lines += ["", "Load average (1, 5, 15 min) at the end: "
              + ", ".join(f"{n:.1f}" for n in os.getloadavg())]
    text = "\n".join(lines) + "\n"
    print(text)
    out.write_text(text)
    print(f"wrote {out}")


def _version() -> str:
    done = subprocess.run([str(OXIGRAPH), "--version"], capture_output=True, text=True)
    return done.stdout.strip().split()[-1] if done.returncode == 0 else "?"


if __name__ == "__main__":
    main()
