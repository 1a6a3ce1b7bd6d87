"""Resolution's time and memory on the BBC corpus: the rules alone beside rules and context.

    .venv/bin/python bench/bench_resolve.py [--articles 500,2225] [--repeat 3]
                                            [--out bench/work/bbc-full]

The corpus's distinct articles are extracted once (kg's extraction cache under ``--out``, so a
second run parses nothing); then, for each size (the first N articles in file order), the
corpus names and resolution run with the context steps switched off ("rules", today's
resolution) and on ("context"), alternately, ``--repeat`` times each; the best time of each is
kept, and the peak of memory allocated during one run of each (``tracemalloc``, a separate
run, as tracing slows Python down). Printed as a Markdown table with the ratios side by side.
The context's first run in a process loads the embedding table (~0.4 s), counted once.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CORPUS = ROOT.parent / "shared" / "corpora" / "bbc"
CONTEXT = {"resolve.corpus.context-joins"}


def extractions(out: Path) -> list[Any]:
    """Every distinct BBC article's extraction (cached in ``out``)."""
    from kg.build.cache import ExtractionCache
    from kg.build.corpus import extract_all, extraction_fingerprint
    from kg.config import Settings
    from kg.ingest.copies import mark_copies
    from kg.ingest.files import read_documents

    settings = Settings(out_dir=out)
    documents = mark_copies(list(read_documents(sorted(CORPUS.glob("*.txt")))))
    cache = ExtractionCache(out, extraction_fingerprint(settings))
    try:
        return list(extract_all(documents, settings, None, cache))
    finally:
        cache.flush()


def resolve(found: Sequence[Any], context: bool) -> Any:
    from kg.heuristics import switched_off
    from kg.resolve.corpus_names import with_corpus_names
    from kg.resolve.resolver import resolve_entities

    with switched_off(set() if context else CONTEXT):
        return resolve_entities(with_corpus_names(list(found)))


def best_time(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def peak_memory(run: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", default="500,2225")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "work" / "bbc-full")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"bench_resolve: {CORPUS} not found", file=sys.stderr)
        return 2
    found = extractions(args.out)
    resolve(found[:50], True)  # load GeoNames' tables and the embedding table once
    lines = ["| articles | mentions | rules: time | context: time | ratio | rules: peak memory "
             "| context: peak memory | ratio | entities (rules → context) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for size in (int(n) for n in args.articles.split(",")):
        part = found[:size]
        times = {c: best_time(lambda c=c, p=part: resolve(p, c), args.repeat)
                 for c in (False, True)}
        memory = {c: peak_memory(lambda c=c, p=part: resolve(p, c)) for c in (False, True)}
        entities = {c: len(resolve(part, c).entities) for c in (False, True)}
        mentions = sum(len(e.mentions) for e in part)
        lines.append(
            f"| {len(part)} | {mentions} | {times[False]:.2f} s | {times[True]:.2f} s | "
            f"{times[True] / times[False]:.2f}× | {memory[False] / 2**20:.0f} MB | "
            f"{memory[True] / 2**20:.0f} MB | {memory[True] / memory[False]:.2f}× | "
            f"{entities[False]} → {entities[True]} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
