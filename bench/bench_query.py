"""The six named questions on every build size, kg beside pyoxigraph; runaway queries.

    .venv/bin/python bench/bench_query.py [GRAPH ...] [--repeat N] [--end-to-end]

GRAPHs are built graphs (default: ``bench/work/bbc500/graph.trig`` and
``bench/work/bbc-full/graph.trig``: 500 BBC articles and the whole corpus, built with
``kg build``; see docs/performance.md). For each graph, one child process loads it into an
in-memory store once and asks every named question, alternately

* as kg does (``kg.store.sparql.run_query``: prefixes, the union of the graphs, then
  ``write_result`` as CSV, what ``kg query`` and ``kg serve``'s query page do), and
* as a plain pyoxigraph script does (``Store.query`` with the same prefixes and union,
  written by pyoxigraph's own CSV serialiser),

``--repeat`` times each (median of each side, wall and CPU seconds). ``evidence`` is asked as
it is meant to be, for one entity (``name=Tony Blair``), and once more without a parameter:
the evidence of every entity, a bulk export of the whole corpus. The target: every named
question within ``TARGET_SECONDS`` on the whole corpus (issue 37).

``--end-to-end`` adds ``kg query --name Q`` as a fresh process (loading the graph file each
time) and the worst query a user can type (a sorted three-way cartesian product) under kg's
time limit, with the peak memory of kg and of its query process. Results go to
``bench/RESULTS-query.md`` (``--results``).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from measure import ROOT, load, machine, run_child, versions

DEFAULT_GRAPHS = [ROOT / "bench" / "work" / "bbc500" / "graph.trig",
                  ROOT / "bench" / "work" / "bbc-full" / "graph.trig"]
TARGET_SECONDS = 2.0
EVIDENCE_PARAMS = {"name": "Tony Blair"}
WORST = "SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?i"
STREAMED = "SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
#: Runs ``kg ARGS`` and prints, as the last line of stderr, the peak RSS (MiB) of this
#: process and of its largest child (the query process).
WRAPPER = """
import json, resource, sys
from kg.cli import app
code = 0
try:
    app(sys.argv[1:], prog_name="kg")
except SystemExit as e:
    code = e.code if isinstance(e.code, int) else int(e.code is not None)
peak = {w: resource.getrusage(getattr(resource, w)).ru_maxrss / 1024
        for w in ("RUSAGE_SELF", "RUSAGE_CHILDREN")}
print("peak " + json.dumps(peak), file=sys.stderr)
sys.exit(code)
"""


# -- in the child process: one store, every question, both sides --------------------------------

def questions() -> list[tuple[str, str, dict[str, str]]]:
    """(label, SPARQL, parameters) of every named question as the bench asks it."""
    from kg.store.sparql import named_queries

    asked = []
    for question in named_queries():
        if question.name == "evidence":
            asked.append((f"evidence ({', '.join(f'{k}={v}' for k, v in EVIDENCE_PARAMS.items())})",
                          question.text, dict(EVIDENCE_PARAMS)))
            asked.append(("evidence (every entity: bulk export)", question.text, {}))
        else:
            asked.append((question.name, question.text, {}))
    return asked


def child(graph: str, repeat: int) -> dict[str, Any]:
    import pyoxigraph as ox

    from kg.rdf.namespaces import PREFIXES
    from kg.store.sparql import run_query, substitutions, write_result

    started = time.perf_counter()
    store = ox.Store()
    store.load(path=graph, format=ox.RdfFormat.TRIG)
    loaded = time.perf_counter() - started
    triples = len(store)

    def by_kg(text: str, params: dict[str, str]) -> tuple[int, int]:
        buffer = io.BytesIO()
        write_result(run_query(store, text, params), "csv", buffer)
        data = buffer.getvalue()
        return data.count(b"\r\n") - 1, len(data)

    def direct(text: str, params: dict[str, str]) -> tuple[int, int]:
        result = store.query(text, prefixes=PREFIXES, use_default_graph_as_union=True,
                             substitutions=substitutions(params) or None)
        data = result.serialize(format=ox.QueryResultsFormat.CSV) or b""
        return data.count(b"\r\n") - 1, len(data)

    found: dict[str, Any] = {}
    for label, text, params in questions():
        sides: dict[str, list[tuple[float, float]]] = {"kg": [], "pyoxigraph": []}
        rows = 0
        for _ in range(repeat):
            for side, work in (("kg", by_kg), ("pyoxigraph", direct)):
                wall, cpu = time.perf_counter(), time.process_time()
                rows, _size = work(text, params)
                sides[side].append((time.perf_counter() - wall, time.process_time() - cpu))
        found[label] = {side: {"wall": statistics.median(w for w, _ in runs),
                               "cpu": statistics.median(c for _, c in runs)}
                        for side, runs in sides.items()}
        found[label]["rows"] = rows
        print(f"[bench] {Path(graph).parent.name} {label}: kg {found[label]['kg']['wall']:.2f} s,"
              f" pyoxigraph {found[label]['pyoxigraph']['wall']:.2f} s, {rows:,} rows",
              file=sys.stderr, flush=True)
    return {"load": loaded, "triples": triples, "questions": found}


# -- in the parent ---------------------------------------------------------------------------

def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


def measure_graph(graph: Path, repeat: int) -> dict[str, Any]:
    run = run_child([sys.executable, str(Path(__file__)), "--child", str(graph),
                     "--repeat", str(repeat)], _env())
    sys.stderr.write(run.stderr)
    result: dict[str, Any] = json.loads(run.stdout)
    result.update(graph=str(graph), size_mb=graph.stat().st_size / 2**20,
                  articles=_articles(graph), peak_mib=run.rss_mb)
    return result


def _articles(graph: Path) -> int:
    manifest = graph.parent / ".kg" / "manifest.json"
    try:
        return int(json.loads(manifest.read_text())["report"]["documents"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def kg(*args: str, timeout: float | None = None) -> dict[str, Any]:
    run = run_child([sys.executable, "-c", WRAPPER, *args], _env(), ok=(0, 1),
                    timeout=timeout)
    last = run.stderr.rstrip().rpartition("\n")[2]
    peak = json.loads(last.removeprefix("peak ")) if last.startswith("peak ") else {}
    message = next((line for line in run.stderr.splitlines() if line.startswith("error:")), "")
    return {"wall": run.wall, "cpu": run.cpu, "kg_mib": peak.get("RUSAGE_SELF"),
            "query_process_mib": peak.get("RUSAGE_CHILDREN"), "bytes": len(run.stdout),
            "error": message}


def end_to_end(graph: Path, timeout: float) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for query in sorted((ROOT / "queries").glob("*.rq")):
        params = ["--param", "name=Tony Blair"] if query.stem == "evidence" else []
        found[query.stem] = kg("query", "--name", query.stem, "--graph", str(graph),
                               "--format", "csv", "--timeout", "0", *params)
        print(f"[bench] end to end {query.stem}: {found[query.stem]['wall']:.1f} s", flush=True)
    for label, sparql, fmt in (("worst (sorted cartesian, csv)", WORST, "csv"),
                               ("cartesian as a table", STREAMED, "table")):
        found[label] = kg("query", "--graph", str(graph), "--format", fmt,
                          "--timeout", str(timeout), sparql)
    return found


def report(results: list[dict[str, Any]], extra: dict[str, Any] | None, repeat: int,
           timeout: float, loads: tuple[str, str]) -> str:
    lines = ["# The named questions, kg beside pyoxigraph (bench/bench_query.py)", "",
             f"Each graph is loaded once into an in-memory store; each question is then asked "
             f"{repeat} times by kg (`run_query` + CSV, as `kg query` and `kg serve` ask it) and "
             "by a plain pyoxigraph script (`Store.query` + its own CSV writer), alternately; "
             "the median of each side. Target: every named question within "
             f"{TARGET_SECONDS:g} s on the whole corpus, judged on CPU seconds: the machine's "
             "2 cores are shared with other work (see the load average), so a wall time is "
             "mostly the wait for a core; the CPU time is what the question costs, and what it "
             "takes on a free core.", "",
             f"Machine: {machine()}. Load average at start {loads[0]}, at end {loads[1]}.", ""]
    for result in results:
        lines += [f"## {result['articles']:,} articles: `{result['graph']}`", "",
                  f"{result['triples']:,} quads ({result['size_mb']:.0f} MB of TriG), "
                  f"loaded in {result['load']:.1f} s; peak memory {result['peak_mib']:.0f} MiB.",
                  "", "| named question | rows | kg | pyoxigraph | ratio | kg CPU | "
                  "pyoxigraph CPU | within target |", "|---|---:|---:|---:|---:|---:|---:|:-:|"]
        for label, row in result["questions"].items():
            ours, theirs = row["kg"], row["pyoxigraph"]
            bulk = "bulk export" in label
            ok = "—" if bulk else ("yes" if ours["cpu"] <= TARGET_SECONDS else "**no**")
            lines.append(f"| {label} | {row['rows']:,} | {ours['wall']:.2f} s | "
                         f"{theirs['wall']:.2f} s | {ours['wall'] / max(theirs['wall'], 1e-6):.2f}x"
                         f" | {ours['cpu']:.2f} s | {theirs['cpu']:.2f} s | {ok} |")
        lines.append("")
    if extra:
        lines += [f"## End to end on `{extra['graph']}`: `kg query --name Q` as a fresh process",
                  "", "Each loads the graph file, then asks (`evidence` for one name).", "",
                  "| named question | wall | CPU | peak RSS |", "|---|---:|---:|---:|"]
        for name, row in extra["runs"].items():
            if name.startswith(("worst", "cartesian")):
                continue
            lines.append(f"| {name} | {row['wall']:.1f} s | {row['cpu']:.1f} s | "
                         f"{row['kg_mib']:.0f} MiB |")
        lines += ["", f"Runaway queries under `--timeout {timeout:g}`:", "",
                  "| query | wall | peak RSS of kg | peak RSS of the query process | output | "
                  "message |", "|---|---:|---:|---:|---:|---|"]
        for label in ("worst (sorted cartesian, csv)", "cartesian as a table"):
            row = extra["runs"][label]
            lines.append(f"| {label} | {row['wall']:.1f} s | {row['kg_mib']:.0f} MiB | "
                         f"{row['query_process_mib']:.0f} MiB | {row['bytes']:,} bytes | "
                         f"{row['error'] or 'finished'} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("graphs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (median)")
    parser.add_argument("--end-to-end", action="store_true",
                        help="also kg query as a fresh process, and the runaway queries")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "RESULTS-query.md")
    parser.add_argument("--child", type=str, help=argparse.SUPPRESS)
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite the results file from bench/work/query-results.json")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.repeat)))
        return
    if args.report_only:
        saved = json.loads((ROOT / "bench" / "work" / "query-results.json").read_text())
        args.results.write_text(report(saved["graphs"], saved["end to end"], saved["repeat"],
                                       args.timeout, tuple(saved["loads"])))
        return
    graphs = [g.resolve() for g in (args.graphs or DEFAULT_GRAPHS)]
    at_start = load()
    results = [measure_graph(graph, args.repeat) for graph in graphs]
    extra = None
    if args.end_to_end:
        extra = {"graph": str(graphs[-1]), "runs": end_to_end(graphs[-1], args.timeout)}
    loads = (at_start, load())
    results_json = {"versions": versions(), "graphs": results, "end to end": extra,
                    "repeat": args.repeat, "loads": loads}
    (ROOT / "bench" / "work").mkdir(parents=True, exist_ok=True)
    (ROOT / "bench" / "work" / "query-results.json").write_text(json.dumps(results_json,
                                                                           indent=1))
    args.results.write_text(report(results, extra, args.repeat, args.timeout, loads))
    print(f"[bench] wrote {args.results}")


if __name__ == "__main__":
    main()
