"""RDF: model objects → rdflib terms under kg's ontology, and the graph files.

    namespaces.py  closed sets of the terms kg writes (a typo raises)
    terms.py       IRIs, articles, sentences, mentions, entities
    facts.py       memberships, relations, events, figures and claims of one article
    events.py      reports of one event across articles
    provenance.py  the build's own graphs: kg's vocabulary and shapes, the build as an activity
    graph.py       a corpus as named graphs, one at a time
    serialize.py   deterministic serialisation through Oxigraph
    graphfiles.py  graph files written one named graph at a time, atomically
"""

from kg.rdf.graph import corpus_graphs, corpus_quads
from kg.rdf.graphfiles import write_graph_files
from kg.rdf.serialize import FORMATS, serialize

__all__ = ["FORMATS", "corpus_graphs", "corpus_quads", "serialize", "write_graph_files"]
