"""RESULTS.md from the measurements of ``run.py``: targets first, then every figure."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from measure import Run

GIB = 1024.0
LOAD_AT_START = "load average (1, 5, 15 min) at start"


def write_results(results: dict[str, Any], path: Path) -> None:
    """Write the report; each target with its measured value and whether it is met."""
    lines = ["# kg benchmark results", "",
             f"Command: `.venv/bin/python {results['command']}` on `{results['folder']}` "
             f"({results['files']} files). Every ratio below comes from this one run.", ""]
    lines += _table(["target", "measured", "met"], targets(results))
    lines += ["", "## Builds", ""] + _table(
        ["run", "documents", "wall s", "CPU s", "words/s (wall)", "peak RSS MiB"], builds(results))
    lines += ["", *notes(results)]
    lines += ["", "## Cross-article resolution alone", ""] + _table(
        ["corpus", "documents", "mentions", "entities", "seconds", "µs per mention",
         "first call (loads gazetteers) s"], resolution(results))
    lines += [f"\nGrowth exponent (time ∝ mentions^k): k = {growth_exponent(results):.2f}"]
    lines += ["", "## Named queries on the full graph", ""] + _table(
        ["query", "rows", "kg query s", "pyoxigraph script s", "ratio", "first kg query s",
         "one store: kg s", "one store: pyoxigraph s"], queries(results))
    lines += ["", "`kg query` and the pyoxigraph script (load the TriG file, query, write CSV) "
              "are whole processes; the first `kg query` also builds kg's on-disk copy of the "
              "graph, which later ones open. \"One store\" runs `kg.store.sparql.run_query` and "
              "`Store.query` on that same on-disk store in one process (best of 2 each)."]
    lines += ["", "## Views", "", viz(results)]
    lines += ["", "## Machine and versions", ""]
    lines += [f"- {k}: {v}" for k, v in {**results["machine"], **results["versions"]}.items()]
    lines += [f"- load average at end: {results['load at end']}", ""]
    path.write_text("\n".join(lines))


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}",
            *(f"| {' | '.join(row)} |" for row in rows)]


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def targets(r: dict[str, Any]) -> list[list[str]]:
    raw, full = r["raw"], r["full"]
    ratio, cpu_ratio = raw["seconds"] / full.wall, raw["cpu"] / full.cpu
    speedup = full.wall / r["workers2"].wall
    unchanged = r["unchanged"].wall / full.wall
    added, extra, share = added_costs(r)
    growth, documents = r["full"].rss_mb / r["small"].rss_mb, raw["documents"] / small_docs(r)
    timed = [q for q in r["queries"].values() if "timed_out" not in q]
    slowest = max((q["kg"] / q["direct"] for q in timed), default=math.nan)
    layer = max((q["inprocess"]["kg"] / q["inprocess"]["direct"] for q in timed),
                default=math.nan)
    return [
        ["build ≥ 0.8× raw nlp.pipe words/s (judged by CPU time, see notes)",
         f"{cpu_ratio:.2f}× by CPU time ({ratio:.2f}× by wall clock)", _met(cpu_ratio >= 0.8)],
        ["--workers 2 ≥ 1.6× --workers 1", f"{speedup:.2f}×", _met(speedup >= 1.6)],
        ["peak RSS ≤ 1.5 GiB (full corpus)", f"{full.rss_mb / GIB:.2f} GiB",
         _met(full.rss_mb <= 1.5 * GIB)],
        ["memory grows sub-linearly", f"×{growth:.2f} for ×{documents:.2f} documents",
         _met(growth < documents)],
        ["unchanged rebuild ≤ 5% of full build", f"{unchanged:.1%}", _met(unchanged <= 0.05)],
        [f"+{r['added_count']} articles ≈ their extraction + resolution, not a rebuild",
         f"{added:.1%} of full; {extra:.1f} s beyond a from-cache rebuild vs "
         f"{share:.1f} s for their share of the full build", _met(added <= 0.2)],
        ["kg query ≤ 1.5× pyoxigraph direct: commands end to end (slowest query)",
         f"{slowest:.2f}×{too_slow(r)}", _met(slowest <= 1.5)],
        ["… and on one loaded store, in process (slowest query)", f"{layer:.2f}×",
         _met(layer <= 1.5)],
        ["2,000-node view stabilises in headless Chromium", viz_time(r), "no target"],
    ]


def too_slow(r: dict[str, Any]) -> str:
    slow = [name for name, q in r["queries"].items() if "timed_out" in q]
    return f"; not compared, over the time limit: {', '.join(slow)}" if slow else ""


def added_costs(r: dict[str, Any]) -> tuple[float, float, float]:
    """+N as a share of the full build; its cost beyond a from-cache rebuild; N articles'
    share of the full build's time."""
    full, added, base = r["full"].wall, r["added"].wall, r["base_from_cache"].wall
    return added / full, added - base, full * r["added_count"] / r["raw"]["documents"]


def small_docs(r: dict[str, Any]) -> int:
    return int(r["small_words"]["documents"])


def builds(r: dict[str, Any]) -> list[list[str]]:
    raw, words = r["raw"], r["raw"]["words"]
    rows = [["raw nlp.pipe (spaCy alone, model already loaded)", str(raw["documents"]),
             f"{raw['seconds']:.1f}", f"{raw['cpu']:.1f}", f"{words / raw['seconds']:,.0f}",
             f"{raw['rss_mb']:.0f}"]]
    named = [("cold build, 1 worker", "full", words), ("unchanged rebuild", "unchanged", words),
             ("cold build, --workers 2", "workers2", words),
             (f"all but {r['added_count']}, from cache", "base_from_cache", None),
             (f"+{r['added_count']} articles", "added", None),
             (f"cold build, {r['small_files']} files", "small", r["small_words"]["words"])]
    for label, key, count in named:
        run: Run = r[key]
        docs = str(small_docs(r)) if key == "small" else str(raw["documents"])
        speed = f"{count / run.wall:,.0f}" if count else "–"
        rows.append([label, docs, f"{run.wall:.1f}", f"{run.cpu:.1f}", speed, f"{run.rss_mb:.0f}"])
    return rows


def notes(r: dict[str, Any]) -> list[str]:
    same = all(r["identical"].values())
    return [f"- {r['raw']['words']:,} words in {r['raw']['documents']:,} documents: the "
            f"{r['files']:,} files kg reads in the folder less those whose text duplicates an "
            "earlier file's (kg skips them).",
            "- Build times are whole `python -m kg build` processes (start-up, model load, "
            "reading, extraction, cache, resolution, RDF files); raw nlp.pipe times only the "
            "parsing loop.",
            "- Both are single-threaded, so their CPU time is what their wall time would be on "
            "an idle machine; on a shared machine wall time also counts other people's work, "
            f"which changed during this run (load average {r['machine'][LOAD_AT_START]} at "
            f"the start, {r['load at end']} at the end). The throughput target is judged by "
            "CPU time for that reason; the parallel speed-up can only be judged by wall time.",
            f"- `--workers 2` output byte-identical to 1 worker: {'yes' if same else '**no**'}.",
            *parallel_estimate(r),
            "- Peak RSS of a `--workers 2` build is the largest single process."]


def parallel_estimate(r: dict[str, Any]) -> list[str]:
    """What the CPU accounting of the 2-worker build says it would take on an idle machine."""
    w2: Run = r["workers2"]
    if w2.own_cpu is None or w2.workers_cpu is None:
        return []
    idle = w2.own_cpu + w2.workers_cpu / 2
    return [f"- `--workers 2` CPU: {w2.own_cpu:.1f} s in the main process (reading, cache, "
            f"resolution, RDF), {w2.workers_cpu:.1f} s in the worker processes. On an idle "
            f"2-core machine that is about {idle:.0f} s of wall time, "
            f"{r['full'].cpu / idle:.2f}× the 1-worker build's CPU time: an estimate from CPU "
            "accounting, not a measurement; the target above is judged on the measured wall "
            "clock."]


def resolution(r: dict[str, Any]) -> list[list[str]]:
    rows = []
    for label, key in (("small", "resolve_small"), ("full", "resolve_full")):
        x = r[key]
        rows.append([label, str(x["documents"]), f"{x['mentions']:,}", f"{x['entities']:,}",
                     f"{x['seconds']:.2f}", f"{x['seconds'] / max(x['mentions'], 1) * 1e6:.1f}",
                     f"{x['setup']:.2f}"])
    return rows


def growth_exponent(r: dict[str, Any]) -> float:
    small, full = r["resolve_small"], r["resolve_full"]
    if full["mentions"] <= small["mentions"] or small["seconds"] <= 0:
        return math.nan
    return math.log(full["seconds"] / small["seconds"]) / math.log(
        full["mentions"] / small["mentions"])


def queries(r: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, q in r["queries"].items():
        if "timed_out" in q:
            rows.append([name, "–", f"> {q['timed_out']:.0f}", "not run", "–", "–", "–", "–"])
            continue
        inproc = q["inprocess"]
        rows.append([name, str(q["rows"]), f"{q['kg']:.2f}", f"{q['direct']:.2f}",
                     f"{q['kg'] / q['direct']:.2f}", f"{q['first']:.2f}",
                     f"{inproc['kg']:.2f}", f"{inproc['direct']:.2f}"])
    return rows


def viz(r: dict[str, Any]) -> str:
    found = r.get("viz", {})
    return str(found.get("output") or found.get("note") or "not measured")


def viz_time(r: dict[str, Any]) -> str:
    """The layout time bench/bench_viz.py printed, if it ran."""
    found = re.search(r"layout in headless Chromium: ([\d.]+) s", r.get("viz", {}).get(
        "output", ""))
    return f"{found.group(1)} s (bench/bench_viz.py, a generated graph)" if found else \
        "not measured"
