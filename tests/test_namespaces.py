"""The closed namespaces and ontology/kg.ttl stay in step; the ontology is documented."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS

from kg.rdf.namespaces import KG, KG_NS, NIF, SEM, WGS
from kg.resources import ONTOLOGY


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


def declared_terms(graph: Graph) -> set[URIRef]:
    subjects = graph.subjects(RDF.type, None)
    return {s for s in subjects if isinstance(s, URIRef) and s.startswith(KG_NS)}


def test_every_namespace_term_is_declared_in_the_ontology(ontology: Graph) -> None:
    assert {KG[name] for name in KG.__annotations__} == declared_terms(ontology)


def test_every_ontology_term_has_label_and_comment(ontology: Graph) -> None:
    for term in declared_terms(ontology):
        assert ontology.value(term, RDFS.label) is not None, term
        assert ontology.value(term, RDFS.comment) is not None, term


def test_ontology_has_a_version(ontology: Graph) -> None:
    (onto,) = ontology.subjects(RDF.type, OWL.Ontology)
    assert ontology.value(onto, OWL.versionInfo) is not None


@pytest.mark.parametrize("namespace", [KG, NIF, SEM, WGS])
def test_unknown_terms_raise_instead_of_minting_iris(namespace: type) -> None:
    with pytest.raises(AttributeError):
        namespace.surelyNotATerm  # noqa: B018


def test_seed_graph_uses_only_declared_kg_terms(seed_build: Path, ontology: Graph) -> None:
    graph = Graph().parse(seed_build / "graph.ttl", format="turtle")
    used = {t for triple in graph for t in triple if isinstance(t, URIRef) and t.startswith(KG_NS)}
    assert used and used <= declared_terms(ontology)
