"""A corpus as named graphs: each article's graph, then the entities and the events graphs.

    terms (IRIs, entities, mentions) ─┬▶ facts (roles, claims, events of one article) ─┐
                                      └▶ events (reports of one event across articles) ─┴▶ graph

>>> from kg.model import Resolution
>>> [str(name).rsplit("/", 1)[-1] for name, _ in corpus_graphs([], Resolution((), {}), "http://x/")]
['entities', 'events']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rdflib import URIRef

from kg.model import Extraction, Resolution
from kg.rdf.events import events_graph
from kg.rdf.facts import fact_triples
from kg.rdf.terms import (
    Quad,
    Triple,
    article_graph_iri,
    article_triples,
    entities_graph_iri,
    entity_triples,
    mention_triples,
    sentence_triples,
)


def document_triples(extraction: Extraction, resolution: Resolution, base: str) -> list[Triple]:
    """All triples one article contributes (its named graph)."""
    triples = list(article_triples(extraction, base))
    triples += sentence_triples(extraction, base)
    triples += mention_triples(extraction, resolution, base)
    triples += fact_triples(extraction, resolution, base)
    return triples


def corpus_graphs(
    extractions: Iterable[Extraction], resolution: Resolution, base: str
) -> Iterator[tuple[URIRef, list[Triple]]]:
    """Each named graph of a corpus with its triples, one at a time: the articles' graphs in
    order, then the entities graph (so a writer never needs the whole corpus's triples)."""
    done: list[Extraction] = []
    for extraction in extractions:
        done.append(extraction)
        graph = article_graph_iri(base, extraction.document.doc_id)
        yield graph, document_triples(extraction, resolution, base)
    yield entities_graph_iri(base), entity_triples(resolution, base)
    yield events_graph(done, resolution, base)


def corpus_quads(
    extractions: list[Extraction], resolution: Resolution, base: str
) -> Iterator[Quad]:
    """Every quad of a corpus: one named graph per article plus the entities graph."""
    for graph, triples in corpus_graphs(extractions, resolution, base):
        for s, p, o in triples:
            yield s, p, o, graph
