"""Query speed and the memory of a runaway query; writes bench/RESULTS-query.md.

    .venv/bin/python bench/bench_query.py [GRAPH] [--timeout S] [--results PATH]

GRAPH is a built graph (default /tmp/bbc-out/graph.trig: ``kg build ../shared/corpora/bbc
--out /tmp/bbc-out``). For every named question, ``kg query --name Q --format csv`` end to end
is timed against a pyoxigraph script doing the same (load the file, query, write CSV:
``probes.py query-direct``), each a fresh process timed from outside: wall time, and CPU time
of the process and its children (on a busy shared machine the wall time says more about the
other work than about the query; the CPU time does not). Then the worst query a
user can type (a three-way cartesian product, sorted, so nothing is written until all of it is
held) runs under kg's time limit, and the peak memory of kg and of its query process is read
from ``getrusage``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from measure import ROOT, load, machine, run_child, versions

DEFAULT_GRAPH = Path("/tmp/bbc-out/graph.trig")
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


def kg(*args: str, timeout: float | None = None) -> dict[str, Any]:
    run = run_child([sys.executable, "-c", WRAPPER, *args], _env(), ok=(0, 1),
                    timeout=timeout)
    last = run.stderr.rstrip().rpartition("\n")[2]
    peak = json.loads(last.removeprefix("peak ")) if last.startswith("peak ") else {}
    message = next((line for line in run.stderr.splitlines() if line.startswith("error:")), "")
    return {"wall": run.wall, "cpu": run.cpu, "kg_mib": peak.get("RUSAGE_SELF"),
            "query_process_mib": peak.get("RUSAGE_CHILDREN"), "bytes": len(run.stdout),
            "error": message}


def direct(graph: Path, query: Path) -> dict[str, Any]:
    run = run_child([sys.executable, str(ROOT / "bench" / "probes.py"), "query-direct",
                     str(graph), str(query)], _env())
    return {"wall": run.wall, **json.loads(run.stdout)}


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


def measure(graph: Path, timeout: float, repeat: int = 1,
            only: list[str] | None = None) -> dict[str, Any]:
    results: dict[str, Any] = {"graph": str(graph), "size_mb": graph.stat().st_size / 2**20,
                               "timeout": timeout, "machine": machine(),
                               "versions": versions(), "load at start": load(), "questions": {}}
    for query in sorted((ROOT / "queries").glob("*.rq")):
        if only is not None and query.stem not in only:
            continue
        pairs = [(kg("query", "--name", query.stem, "--graph", str(graph), "--format", "csv",
                     "--timeout", "0"), direct(graph, query)) for _ in range(repeat)]
        ours = _median([k for k, _ in pairs])  # alternating runs share the machine's load
        theirs = _median([d for _, d in pairs])
        results["questions"][query.stem] = {"kg": ours, "direct": theirs, "runs": repeat,
                                            "ratio": ours["wall"] / theirs["wall"]}
        print(f"[bench] {query.stem}: kg {ours['wall']:.1f} s, direct {theirs['wall']:.1f} s",
              flush=True)
    if only:
        results["load at end"] = load()
        return results  # the named questions asked for, without the runaway queries
    for label, sparql, fmt in (("worst (sorted cartesian, csv)", WORST, "csv"),
                               ("cartesian as a table", STREAMED, "table")):
        started = time.perf_counter()
        results[label] = kg("query", "--graph", str(graph), "--format", fmt,
                            "--timeout", str(timeout), sparql)
        results[label]["seconds"] = time.perf_counter() - started
        print(f"[bench] {label}: {results[label]}", flush=True)
    results["load at end"] = load()
    return results


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return sorted(runs, key=lambda r: float(r["wall"]))[len(runs) // 2]


def report(results: dict[str, Any]) -> str:
    runs = {row.get("runs", 1) for row in results["questions"].values()}
    lines = ["# Query speed and runaway queries (bench/bench_query.py)", "",
             f"Each side the median of {max(runs, default=1)} run(s), kg and the script "
             "alternating.", "",
             f"Graph: `{results['graph']}` ({results['size_mb']:.0f} MB of TriG). "
             f"Machine: {results['machine']}. Load average at start {results['load at start']}, "
             f"at end {results['load at end']}.", "",
             "| named question | `kg query --format csv` | pyoxigraph script | ratio | "
             "kg CPU | script CPU | CPU ratio |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["questions"].items():  # --only with no names: none
        ours, theirs = row["kg"]["cpu"], row["direct"]["cpu"]
        lines.append(f"| {name} | {row['kg']['wall']:.1f} s | {row['direct']['wall']:.1f} s "
                     f"| {row['ratio']:.2f}x | {ours:.1f} s | {theirs:.1f} s | "
                     f"{ours / theirs:.2f}x |")
    if "worst (sorted cartesian, csv)" not in results:
        return "\n".join(lines) + "\n"
    lines += ["", f"Runaway queries under `--timeout {results['timeout']:g}`:", "",
              "| query | wall | peak RSS of kg | peak RSS of the query process | output | "
              "message |", "|---|---:|---:|---:|---:|---|"]
    for label in ("worst (sorted cartesian, csv)", "cartesian as a table"):
        row = results[label]
        lines.append(f"| {label} | {row['wall']:.1f} s | {row['kg_mib']:.0f} MiB | "
                     f"{row['query_process_mib']:.0f} MiB | {row['bytes']:,} bytes | "
                     f"{row['error'] or 'finished'} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("graph", nargs="?", type=Path, default=DEFAULT_GRAPH)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "RESULTS-query.md")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each side (median)")
    parser.add_argument("--only", nargs="*", help="only these named questions, without the "
                        "runaway queries; with no names, only the runaway queries")
    args = parser.parse_args()
    results = measure(args.graph.resolve(), args.timeout, args.repeat, args.only)
    (ROOT / "bench" / "work").mkdir(parents=True, exist_ok=True)
    (ROOT / "bench" / "work" / "query-results.json").write_text(json.dumps(results, indent=1))
    args.results.write_text(report(results))
    print(f"[bench] wrote {args.results}")


if __name__ == "__main__":
    main()
