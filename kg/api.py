"""The notebook and script API: build a graph, ask it questions, draw it.

    kg.build_graph(["seeds/", "Some article text."])  ─▶ rdflib Dataset (in Oxigraph)
    kg.query(graph or path or endpoint URL, "people-roles")   ─▶ rows, bool or rdflib Graph
    kg.view(graph, "view.html")                                ─▶ an offline HTML page

>>> import kg
>>> kg.query(kg.build_graph([]), "ASK { ?s ?p ?o }")  # doctest: +SKIP
False
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import pyoxigraph as ox

from kg.build.corpus import corpus_from_extractions, extract_corpus
from kg.build.rules import check_rules_off
from kg.config import Settings
from kg.heuristics import switched_off
from kg.ingest.copies import mark_copies
from kg.ingest.files import document_from_text, read_documents
from kg.rdf.namespaces import PREFIXES
from kg.rdf.serialize import serialize
from kg.remote.endpoint import run_remote
from kg.store.embedded import DEFAULT_GRAPH, store_of
from kg.store.isolated import DEFAULT_TIMEOUT
from kg.store.results import rows_of
from kg.store.sparql import Result, query_result, read_query, write_query_result, write_result
from kg.views.viz import view

__all__ = ["build_graph", "execute", "query", "view"]


def build_graph(sources: Any, settings: Any = None, nlp: Any = None) -> Any:
    """Build articles into an ``rdflib.Dataset`` held in Oxigraph (nothing written to disk).

    ``sources`` is one item or a list of them: a ``Path`` or a string naming an existing
    file or folder is read like ``kg build`` reads it; any other string is the text of an
    article. A string that looks like a file name (no spaces, ends in ``.txt``/``.md`` or
    holds a ``/``) but does not exist raises ``InputError`` rather than becoming an article.

    >>> graph = build_graph(["Vladimir Putin spoke in Moscow.", "seeds/"])  # doctest: +SKIP
    >>> len(graph) > 0  # doctest: +SKIP
    True
    """
    from rdflib import Dataset

    settings = settings or Settings()
    documents = mark_copies(list(_documents([sources] if isinstance(sources, str | os.PathLike)
                                            else list(sources))))
    check_rules_off(settings.rules_off)
    dataset = Dataset(store="Oxigraph", default_union=True)
    for prefix, namespace in PREFIXES.items():
        dataset.bind(prefix, namespace)
    with switched_off(settings.rules_off):  # what `kg build --rules` switches off, here too
        corpus = corpus_from_extractions(list(extract_corpus(documents, settings, nlp)),
                                         settings)
        if corpus.quads:
            dataset.parse(data=serialize(corpus.quads, "nq"), format="ox-nquads")
    return dataset


def _documents(sources: list[Any]) -> Iterator[Any]:
    paths = [s for s in sources if _is_path(s)]
    seen: set[str] = set()
    for document in [*read_documents(paths), *(document_from_text(s) for s in sources
                                                 if not _is_path(s))]:
        if document.sha256 not in seen:  # the same text twice would reuse one article IRI
            seen.add(document.sha256)
            yield document


def _is_path(source: Any) -> bool:
    if isinstance(source, os.PathLike):
        return True
    text = str(source)
    if os.path.exists(text):
        return True
    return not any(c.isspace() for c in text) and (text.endswith((".txt", ".md")) or "/" in text)


# -- the notebook function -----------------------------------------------------------------

def query(graph: Any, sparql: str | Path, *, timeout: float | None = DEFAULT_TIMEOUT,
          **params: str) -> Any:
    """Ask ``graph`` a question; the function behind ``kg.store.sparql`` for notebooks and scripts.

    ``graph`` is a graph file path, an endpoint URL (``http(s)://…``), a ``pyoxigraph.Store``
    or an rdflib Graph/Dataset (e.g. from ``kg.build_graph``). ``sparql`` is query text, a
    ``Path`` to a ``.rq`` file, or the name of a named query (``"people-roles"``).
    ``params`` bind variables safely (see the module docstring). Returns ``Rows`` (a list of
    dicts with ``.to_dataframe()``) for SELECT, a ``bool`` for ASK and an ``rdflib.Graph``
    for CONSTRUCT/DESCRIBE. An embedded query stops after ``timeout`` seconds (``None``: no
    limit) with ``QueryError``, and on Ctrl-C at once (``kg.store.isolated``).

    >>> kg.query("output/graph.trig", "entities-across-articles")[0]  # doctest: +SKIP
    {'entity': rdflib.term.URIRef('https://w3id.org/kgnews/id/place/russia'), ...}
    """
    text, source = read_query(sparql)
    remote = isinstance(graph, str) and graph.startswith(("http://", "https://"))
    result = execute(text, source, graph=None if remote else graph,
                     endpoint=graph if remote else None, params=params, timeout=timeout)
    if isinstance(result, ox.QueryBoolean):
        return bool(result)
    if isinstance(result, ox.QuerySolutions):
        return rows_of(result)
    return _rdflib_graph(result)


def execute(sparql: str, source: str = "query", *, graph: Any = None,
            endpoint: str | None = None, params: Mapping[str, str] | None = None,
            cache: bool | None = None, timeout: float | None = DEFAULT_TIMEOUT) -> Result:
    """Run ``sparql`` on ``endpoint`` when given, else on ``graph`` (a path, store or Graph),
    embedded queries within ``timeout`` seconds (``None``: no limit).

    >>> execute("ASK {}", graph=ox.Store())
    <QueryBoolean true>
    """
    if endpoint is not None:
        return run_remote(endpoint, sparql, params, source)
    store = store_of(DEFAULT_GRAPH if graph is None else graph, cache=cache)
    return query_result(store, sparql, params=params, source=source, timeout=timeout)


def write_query(sparql: str, source: str, fmt: str, out: IO[bytes], *, graph: Any = None,
                endpoint: str | None = None, params: Mapping[str, str] | None = None,
                cache: bool | None = None, timeout: float | None = DEFAULT_TIMEOUT) -> None:
    """Like ``execute``, writing the result to ``out`` as ``fmt``; embedded results stream
    (written while the query runs), a table shows its first rows.

    >>> import io; buffer = io.BytesIO()
    >>> write_query("ASK {}", "query", "json", buffer, graph=ox.Store())
    >>> buffer.getvalue()
    b'{"head":{},"boolean":true}\\n'
    """
    if endpoint is not None:
        write_result(run_remote(endpoint, sparql, params, source), fmt, out)
        return
    store = store_of(DEFAULT_GRAPH if graph is None else graph, cache=cache)
    write_query_result(store, sparql, fmt, out, params=params, source=source, timeout=timeout)


def _rdflib_graph(triples: Iterable[ox.Triple]) -> Any:
    from rdflib import Graph

    graph = Graph()
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace)
    data = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES)
    if data:
        graph.parse(data=data.decode(), format="nt")
    return graph
