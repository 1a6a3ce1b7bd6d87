"""A corpus as named graphs: each article's graph, then the entities and the events graphs,
kg's vocabulary (ontology, taxonomy, shapes) and the build's provenance.

    terms (IRIs, entities, mentions) ─┬▶ facts (roles, claims, events of one article) ─┐
                                      └▶ events (reports of one event across articles, ─┴▶ graph
                                                 and the ledger of figures that disagree)

>>> from kg.model import Resolution
>>> [str(name).rsplit("/", 1)[-1] for name, _ in corpus_graphs([], Resolution((), {}), "http://x/")]
['entities', 'events', 'ontology', 'build']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rdflib import URIRef

from kg.config import DEFAULT_MODEL
from kg.model import Extraction, Resolution
from kg.rdf.events import events_graph
from kg.rdf.facts import fact_triples
from kg.rdf.ledger import ledger_triples
from kg.rdf.provenance import (
    build_graph_iri,
    build_info,
    build_triples,
    ontology_graph_iri,
    vocabulary_triples,
)
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
    extractions: Iterable[Extraction], resolution: Resolution, base: str,
    model: str = DEFAULT_MODEL,
) -> Iterator[tuple[URIRef, list[Triple]]]:
    """Each named graph of a corpus with its triples, one at a time: the articles' graphs in
    order, then the entities, events, ontology and build graphs (so a writer never needs the
    whole corpus's triples). ``model`` is the pipeline that extracted them, for the build
    record."""
    done: list[Extraction] = []
    names: list[URIRef] = []
    for extraction in extractions:
        done.append(extraction)
        names.append(article_graph_iri(base, extraction.document.doc_id))
        yield names[-1], document_triples(extraction, resolution, base)
    yield entities_graph_iri(base), entity_triples(resolution, base)
    events = events_graph(done, resolution, base)
    events[1].extend(ledger_triples(done, resolution, base))
    yield events
    yield ontology_graph_iri(base), list(vocabulary_triples())
    generated = [*names, entities_graph_iri(base), events[0], ontology_graph_iri(base)]
    yield build_graph_iri(base), build_triples(build_info(done, base, model), generated)


def corpus_quads(
    extractions: list[Extraction], resolution: Resolution, base: str,
    model: str = DEFAULT_MODEL,
) -> Iterator[Quad]:
    """Every quad of a corpus: one named graph per article plus the entities graph."""
    for graph, triples in corpus_graphs(extractions, resolution, base, model):
        for s, p, o in triples:
            yield s, p, o, graph
