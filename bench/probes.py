"""Measurements that run inside a child process; each prints one JSON object.

    python bench/probes.py raw-pipe FOLDER BATCH_SIZE   spaCy's nlp.pipe alone on the texts
    python bench/probes.py words FOLDER                 documents and words kg would build
    python bench/probes.py resolve OUT FOLDER           cross-article resolution, timed
    python bench/probes.py query-direct GRAPH QUERY     pyoxigraph alone: load, query, CSV
    python bench/probes.py query-inprocess GRAPH QUERY  kg.store.sparql vs pyoxigraph on one store
    python bench/probes.py kg ARGS...                   kg itself, CPU of workers told apart

The texts are read with ``kg.ingest.files`` so every probe sees exactly the documents a build sees.
"""

from __future__ import annotations

import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def documents(folder: str) -> list[Any]:
    from kg.ingest.files import read_documents

    return list(read_documents([folder], on_skip=lambda _s: None,
                               on_warning=lambda _p, _m: None))


def words(texts: list[str]) -> int:
    return sum(len(text.split()) for text in texts)


def timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall and CPU seconds of ``work()``, and its value."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = work()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def raw_pipe(folder: str, batch_size: str) -> dict[str, Any]:
    """spaCy alone: the same model over the same texts, nothing kept."""
    from kg.config import MODEL_PACKAGE
    from kg.extract import load_pipeline

    nlp = load_pipeline(MODEL_PACKAGE)  # raw en_core_web_sm, without kg's news NER
    texts = [d.text for d in documents(folder)]

    def parse() -> None:
        for _doc in nlp.pipe(texts, batch_size=int(batch_size)):
            pass

    wall, cpu, _ = timed(parse)
    return {"seconds": wall, "cpu": cpu, "words": words(texts), "documents": len(texts)}


def count_words(folder: str) -> dict[str, Any]:
    import kg

    texts = [d.text for d in documents(folder)]
    return {"words": words(texts), "documents": len(texts), "kg": kg.__file__}


def resolve(out: str, folder: str) -> dict[str, Any]:
    """Resolution of a built corpus's cached extractions, timed on its own."""
    from kg.build.cache import ExtractionCache
    from kg.resolve.resolver import resolve_entities

    cache = ExtractionCache(Path(out))
    extractions = [cache.get(d) for d in documents(folder)]
    if any(e is None for e in extractions):
        raise SystemExit(f"{out}: not every document is in the cache")
    setup, _cpu, _ = timed(lambda: resolve_entities(extractions[:1]))  # loads gazetteers once
    wall, cpu, resolution = timed(lambda: resolve_entities(extractions))
    return {"seconds": wall, "cpu": cpu, "setup": setup, "documents": len(extractions),
            "mentions": len(resolution.assignments), "entities": len(resolution.entities)}


def query_direct(graph: str, query: str) -> dict[str, Any]:
    """What a script using pyoxigraph alone does: parse the file, run the query, write CSV."""
    import pyoxigraph as ox

    from kg.rdf.namespaces import PREFIXES

    def run() -> int:
        store = ox.Store()
        store.bulk_load(path=graph, format=ox.RdfFormat.TRIG)
        result = store.query(Path(query).read_text(), prefixes=PREFIXES,
                             use_default_graph_as_union=True)
        return len(result.serialize(format=ox.QueryResultsFormat.CSV) or b"")

    wall, cpu, size = timed(run)
    return {"seconds": wall, "cpu": cpu, "bytes": size}


def query_inprocess(graph: str, query: str, repeats: int = 2) -> dict[str, Any]:
    """One store, the query evaluated and written as CSV by kg and by pyoxigraph, alternately;
    the best of ``repeats`` of each."""
    import pyoxigraph as ox

    from kg.rdf.namespaces import PREFIXES
    from kg.store.embedded import open_store
    from kg.store.sparql import run_query, write_result

    store, text = open_store(graph), Path(query).read_text()

    def by_kg() -> int:
        buffer = io.BytesIO()
        write_result(run_query(store, text), "csv", buffer)
        return len(buffer.getvalue())

    def direct() -> int:
        result = store.query(text, prefixes=PREFIXES, use_default_graph_as_union=True)
        return len(result.serialize(format=ox.QueryResultsFormat.CSV) or b"")

    kg_times, direct_times, rows = [], [], 0
    for _ in range(repeats):
        kg_times.append(timed(by_kg)[0])
        wall, _cpu, rows = timed(direct)
        direct_times.append(wall)
    return {"kg": min(kg_times), "direct": min(direct_times), "bytes": rows}


USAGE_MARK = "kg-bench-usage "


def kg_command(*args: str) -> None:
    """``kg ARGS`` in this process, then, as the last line of stderr, the CPU seconds of this
    process and of its children (worker processes) apart."""
    import resource
    import runpy

    sys.argv, code = ["kg", *args], 0
    try:
        runpy.run_module("kg", run_name="__main__", alter_sys=True)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else int(e.code is not None)
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    usage = {"self": own.ru_utime + own.ru_stime,
             "children": children.ru_utime + children.ru_stime}
    print(USAGE_MARK + json.dumps(usage), file=sys.stderr)
    sys.exit(code)


PROBES: dict[str, Callable[..., dict[str, Any]]] = {
    "raw-pipe": raw_pipe, "words": count_words, "resolve": resolve,
    "query-direct": query_direct, "query-inprocess": query_inprocess,
}

if __name__ == "__main__":
    if sys.argv[1] == "kg":
        kg_command(*sys.argv[2:])
    print(json.dumps(PROBES[sys.argv[1]](*sys.argv[2:])))
