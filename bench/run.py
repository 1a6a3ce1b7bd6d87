"""The whole benchmark in one command; writes bench/RESULTS.md.

    .venv/bin/python bench/run.py [FOLDER] [--limit N] [--results PATH]

FOLDER defaults to ../shared/corpora/bbc beside the checkout. ``--limit N`` takes N articles
spread over the folder, for a quick run. The code under test is copied to bench/work/code
first, so edits made while the benchmark runs do not change what it measures; every build is
``python -m kg build`` in its own process, timed from outside (see ``measure.py``).

Steps, in this order, all in one run so their ratios share the machine's load:
raw nlp.pipe · cold build (1 worker) · unchanged rebuild · cold build (2 workers) ·
+20 articles to a built corpus · cold build of 500 articles · resolution alone at both sizes ·
named queries · viz (when bench/bench_viz.py exists).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from measure import ROOT, Run, TimedOut, load, machine, run_child, versions
from probes import USAGE_MARK
from report import write_results

WORK = ROOT / "bench" / "work"
DEFAULT_FOLDER = ROOT.parent / "shared" / "corpora" / "bbc"
ADDED = 20  # articles added to a built corpus
SMALL = 500  # articles of the small build (memory growth)
BATCH_SIZE = 64  # kg's default, and the raw nlp.pipe's
QUERY_TIMEOUT = 120.0  # seconds one query command may take before it is reported as too slow


@dataclass
class Bench:
    """The state of one benchmark run: its inputs, its code and what it measured."""

    folder: Path
    limit: int | None
    results: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.code = WORK / "code"
        self.env = {**os.environ, "PYTHONPATH": str(self.code)}
        self.files = select(article_files(self.folder), self.limit)

    def kg(self, *args: str, timeout: float | None = None) -> Run:
        """``kg`` in its own process (exit code 3, inputs skipped, is still a build), with its
        own CPU time told apart from its worker processes'."""
        run = run_child([sys.executable, str(ROOT / "bench" / "probes.py"), "kg", *args],
                        self.env, ok=(0, 3), cwd=self.code, timeout=timeout)
        last = run.stderr.rstrip().rpartition("\n")[2]
        if not last.startswith(USAGE_MARK):
            return run
        usage = json.loads(last.removeprefix(USAGE_MARK))
        return replace(run, own_cpu=usage["self"], workers_cpu=usage["children"])

    def probe(self, *args: str, timeout: float | None = None) -> dict[str, Any]:
        run = run_child([sys.executable, str(ROOT / "bench" / "probes.py"), *args], self.env,
                        cwd=self.code, timeout=timeout)
        return {**json.loads(run.stdout.splitlines()[-1]), "rss_mb": run.rss_mb}

    def note(self, name: str, value: Any) -> None:
        self.results[name] = value
        print(f"[bench] {name}: {summary_of(value)}", flush=True)


def summary_of(value: Any) -> str:
    if isinstance(value, Run):
        return f"{value.wall:.1f} s wall, {value.cpu:.1f} s CPU, {value.rss_mb:.0f} MiB"
    return json.dumps(value, default=str)[:200]


def article_files(folder: Path) -> list[Path]:
    """The files ``kg build FOLDER`` would read, in its order."""
    found = [p for p in folder.rglob("*") if p.suffix.lower() in (".txt", ".md")
             and not any(part.startswith(".") for part in p.relative_to(folder).parts)]
    return sorted(found, key=lambda p: p.relative_to(folder).parts)


def select(files: list[Path], limit: int | None) -> list[Path]:
    """``limit`` files spread evenly over ``files`` (all of them without a limit)."""
    if limit is None or limit >= len(files):
        return files
    return [files[i * len(files) // limit] for i in range(limit)]


def spread(files: list[Path], count: int) -> list[Path]:
    """``count`` files spread over ``files``, none at the very start."""
    step = len(files) / count
    return [files[int(step * i + step / 2)] for i in range(count)]


def link_set(name: str, files: list[Path]) -> Path:
    """A folder of copies of ``files`` (and their metadata files). Copies, not symbolic
    links: ``kg build`` does not follow a link out of the folder it reads (--follow-links)."""
    folder = WORK / "sets" / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for file in files:
        link(folder, file)
    return folder


def link(folder: Path, file: Path) -> None:
    shutil.copyfile(file, folder / file.name)
    sidecar = file.with_name(file.stem + ".meta.json")
    if sidecar.exists():
        shutil.copyfile(sidecar, folder / sidecar.name)


def unlink(folder: Path, file: Path) -> None:
    for name in (file.name, file.stem + ".meta.json"):
        (folder / name).unlink(missing_ok=True)


def snapshot_code(code: Path) -> None:
    """Copy kg/ and queries/ as they are now: the code every measurement runs."""
    shutil.rmtree(code, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "kg", code / "kg", ignore=ignore)
    shutil.copytree(ROOT / "queries", code / "queries", ignore=ignore)


def out(name: str) -> Path:
    path = WORK / "out" / name
    shutil.rmtree(path, ignore_errors=True)
    return path


def measure_builds(bench: Bench) -> None:
    """Raw spaCy, cold builds with 1 and 2 workers, and the unchanged rebuild."""
    corpus = link_set("corpus", bench.files)
    imported = bench.probe("words", str(corpus))["kg"]
    if not imported.startswith(str(bench.code)):
        raise SystemExit(f"the probes import kg from {imported}, not from the snapshot")
    bench.note("raw", bench.probe("raw-pipe", str(corpus), str(BATCH_SIZE)))
    bench.note("full", bench.kg("build", str(corpus), "--out", str(out("full"))))
    bench.note("unchanged", bench.kg("build", str(corpus), "--out", str(WORK / "out" / "full")))
    bench.note("workers2", bench.kg("build", str(corpus), "--out", str(out("workers2")),
                                    "--workers", "2"))
    bench.note("identical", {name: (WORK / "out" / "full" / name).read_bytes()
                             == (WORK / "out" / "workers2" / name).read_bytes()
                             for name in ("graph.ttl", "graph.trig")})


def measure_added(bench: Bench) -> None:
    """A built corpus of all but 20 articles (its cache taken from the full build, less the
    20), then the 20 added back: what a user adding a day's news pays."""
    corpus, added = WORK / "sets" / "corpus", spread(bench.files, min(ADDED, len(bench.files) // 4))
    target = out("added")
    shutil.copytree(WORK / "out" / "full" / ".kg" / "cache", target / ".kg" / "cache")
    forget_cached(target, corpus, added)
    for file in added:
        unlink(corpus, file)
    bench.note("base_from_cache", bench.kg("build", str(corpus), "--out", str(target)))
    for file in added:
        link(corpus, file)
    bench.note("added", bench.kg("build", str(corpus), "--out", str(target)))
    bench.note("added_count", len(added))


def forget_cached(target: Path, corpus: Path, files: list[Path]) -> None:
    """Delete the cache entries of ``files`` (as the build will read them from ``corpus``)."""
    sys.path.insert(0, str(WORK / "code"))
    from kg.build.cache import ExtractionCache
    from kg.ingest.files import read_documents

    cache = ExtractionCache(target)
    paths = [str(corpus / f.name) for f in files]
    for document in read_documents(paths, on_skip=lambda _s: None):
        cache.path(document).unlink(missing_ok=True)


def measure_growth(bench: Bench) -> None:
    """A cold build of 500 articles, and resolution alone at both sizes."""
    small_files = select(bench.files, min(SMALL, len(bench.files) // 4))
    small = link_set("small", small_files)
    bench.note("small", bench.kg("build", str(small), "--out", str(out("small"))))
    bench.note("small_files", len(small_files))
    bench.note("small_words", bench.probe("words", str(small)))
    bench.note("resolve_small", bench.probe("resolve", str(WORK / "out" / "small"), str(small)))
    corpus = WORK / "sets" / "corpus"
    bench.note("resolve_full", bench.probe("resolve", str(WORK / "out" / "full"), str(corpus)))


def measure_queries(bench: Bench) -> None:
    """Each named question: ``kg query`` and pyoxigraph alone, end to end and in process."""
    graph = str(WORK / "out" / "full" / "graph.trig")
    rows = {}
    for query in sorted((bench.code / "queries").glob("*.rq")):
        try:
            rows[query.stem] = measure_query(bench, graph, query)
        except TimedOut:
            rows[query.stem] = {"timed_out": QUERY_TIMEOUT}
        bench.note(f"query {query.stem}", rows[query.stem])
    bench.results["queries"] = rows


def measure_query(bench: Bench, graph: str, query: Path) -> dict[str, Any]:
    """The first ``kg query`` (it builds kg's on-disk store of the graph), a second one, a
    pyoxigraph script (load, query, CSV), and both on one loaded store."""
    command = ("query", "--name", query.stem, "--graph", graph, "--format", "csv")
    first = bench.kg(*command, timeout=QUERY_TIMEOUT)
    again = bench.kg(*command, timeout=QUERY_TIMEOUT)
    direct = bench.probe("query-direct", graph, str(query), timeout=QUERY_TIMEOUT)
    inprocess = bench.probe("query-inprocess", graph, str(query), timeout=4 * QUERY_TIMEOUT)
    return {"first": first.wall, "kg": again.wall, "direct": direct["seconds"],
            "rows": max(0, first.stdout.count("\n") - 1), "inprocess": inprocess}


def measure_viz(bench: Bench) -> None:
    """The viz engineer's page benchmark (bench/bench_viz.py), on a 2,000-node view."""
    script = ROOT / "bench" / "bench_viz.py"
    if not script.exists():
        bench.note("viz", {"note": "bench/bench_viz.py does not exist yet"})
        return
    try:
        run = run_child([sys.executable, str(script), "--nodes", "2000"], bench.env,
                        cwd=bench.code)
    except RuntimeError as e:  # a failing view benchmark must not lose the other figures
        bench.note("viz", {"note": f"bench/bench_viz.py failed: {str(e)[-800:]}"})
        return
    bench.note("viz", {"output": run.stdout.strip()[-2000:], "wall": run.wall})


def save(results: dict[str, Any]) -> None:
    """Keep what is measured so far in bench/work/results.json (a long run may be cut short)."""
    as_json = {k: vars(v) if isinstance(v, Run) else v for k, v in results.items()}
    (WORK / "results.json").write_text(json.dumps(as_json, indent=1, default=str))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--limit", type=int, help="only N articles, spread over the folder")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "RESULTS.md")
    parser.add_argument("--report-only", action="store_true",
                        help="write RESULTS.md again from the last run's bench/work/results.json")
    args = parser.parse_args(argv)
    if args.report_only:
        write_results(saved_results(), args.results)
        return
    bench = Bench(args.folder.resolve(), args.limit)
    bench.results.update(machine=machine(), versions=versions(), folder=str(args.folder),
                         files=len(bench.files), command=" ".join(["bench/run.py", *sys.argv[1:]]))
    snapshot_code(bench.code)
    for step in (measure_builds, measure_added, measure_growth, measure_queries, measure_viz):
        step(bench)
        save(bench.results)
    bench.results["load at end"] = load()
    save(bench.results)
    write_results(bench.results, args.results)
    print(f"[bench] wrote {args.results}")


def saved_results() -> dict[str, Any]:
    """The figures of the last run, from bench/work/results.json."""
    results = json.loads((WORK / "results.json").read_text())
    return {k: Run(**v) if isinstance(v, dict) and "stdout" in v else v
            for k, v in results.items()}


if __name__ == "__main__":
    main()
