"""Writing quads in RDF formats, fast and byte-for-byte deterministic.

rdflib terms are built in ``kg.rdf.terms``; here they are handed to Oxigraph's serialisers (Rust,
an order of magnitude faster than rdflib's on large graphs) in sorted order, so the same input
always gives the same bytes.

>>> from rdflib import URIRef, Literal
>>> serialize([(URIRef("http://a/s"), URIRef("http://a/p"), Literal("x"), None)], "nt")
b'<http://a/s> <http://a/p> "x" .\\n'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from kg.errors import InputError
from kg.rdf.namespaces import PREFIXES

#: Format name → (Oxigraph format, whether it keeps named graphs, file extension).
FORMATS: dict[str, tuple[ox.RdfFormat, bool, str]] = {
    "ttl": (ox.RdfFormat.TURTLE, False, "ttl"),
    "nt": (ox.RdfFormat.N_TRIPLES, False, "nt"),
    "nq": (ox.RdfFormat.N_QUADS, True, "nq"),
    "trig": (ox.RdfFormat.TRIG, True, "trig"),
    "jsonld": (ox.RdfFormat.JSON_LD, True, "jsonld"),
}


def to_oxigraph(term: Node) -> Any:
    """An rdflib term as the equivalent pyoxigraph term."""
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        datatype = ox.NamedNode(str(term.datatype)) if term.datatype else None
        return ox.Literal(str(term), datatype=datatype)
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    raise TypeError(f"not an RDF term: {term!r}")


def oxigraph_quads(quads: Iterable[tuple[Node, Node, Node, Node | None]]) -> list[ox.Quad]:
    """Quads converted and sorted by their N-Quads form (the default graph for ``None``)."""
    converted = {
        ox.Quad(
            to_oxigraph(s), to_oxigraph(p), to_oxigraph(o),
            to_oxigraph(g) if g is not None else ox.DefaultGraph(),
        )
        for s, p, o, g in quads
    }
    return sorted(converted, key=str)


def serialize(quads: Iterable[tuple[Node, Node, Node, Node | None]], fmt: str) -> bytes:
    """``quads`` in format ``fmt`` (one of ``FORMATS``); triple formats take the union."""
    return serialize_oxigraph(oxigraph_quads(quads), fmt)


def serialize_oxigraph(quads: list[ox.Quad], fmt: str) -> bytes:
    """Sorted pyoxigraph quads in format ``fmt``."""
    try:
        ox_format, keeps_graphs, _ext = FORMATS[fmt]
    except KeyError as e:
        raise InputError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}") from e
    if keeps_graphs:
        items: list[Any] = quads
    else:
        items = sorted({ox.Triple(q.subject, q.predicate, q.object) for q in quads}, key=str)
    prefixes = PREFIXES if ox_format in (ox.RdfFormat.TURTLE, ox.RdfFormat.TRIG) else None
    data = ox.serialize(items, format=ox_format, prefixes=prefixes)
    assert data is not None
    return data
