"""Interoperability: the seed build under real reasoners (issue 17).

* OWL 2 RL (``owlrl``) over the build, kg's ontology and the imported vocabularies' axioms
  (``ontology/axioms.ttl``), with disjointness axioms that state what must never be inferred
  (a claim, event or figure is no string; a person is no place; a territory is no organisation):
  the closure must stay consistent. A control with one claim written the old way (carrying
  ``nif:anchorOf``) must not.
* Virtuoso with RDFS inference (a rule set over kg's ontology and the axioms): every named
  question returns rows, and inference is really on (a direct quote's words are derived from
  their claim) while no fact is derived from its article.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import OWL, RDF

from kg.rdf.namespaces import GAF, NIF, ORG, PREFIXES, SDO, SEM
from kg.remote.endpoint import run_remote
from kg.remote.load import Credentials, load_dataset
from kg.store.sparql import named_queries, with_prefixes
from kg.views.validate import read_graph, vocabulary_graph
from tests.servers import run_virtuoso

#: One Virtuoso at a time: two at once, beside the rest of the suite, time out each other's
#: queries (SR171). Every module holding this group runs on one xdist worker.
pytestmark = pytest.mark.xdist_group("virtuoso")

ERR = Namespace("http://www.daml.org/2002/03/agents/agent-ont#")  # where owlrl reports
RULES_GRAPH = "urn:kgnews:rules"
#: Classes that must never share a member.
DISJOINT = [
    (SDO.Claim, NIF.String), (SEM.Event, NIF.String), (SDO.Observation, NIF.String),
    (SDO.Person, SDO.Place), (SDO.Person, SEM.Place), (SDO.Place, ORG.Organization),
    (SDO.Place, URIRef(f"{PREFIXES['prov']}Agent")),
]


def owl_rl_errors(data: Graph) -> list[str]:
    """The inconsistencies OWL 2 RL finds in ``data`` with kg's vocabulary and DISJOINT."""
    import owlrl

    graph = Graph()
    for triple in data:
        graph.add(triple)
    graph += vocabulary_graph()
    for a, b in DISJOINT:
        graph.add((a, OWL.disjointWith, b))
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    return sorted(str(m) for m in graph.objects(None, ERR.error))


@pytest.fixture(scope="module")
def graph(seed_build: Path) -> Graph:
    return read_graph(seed_build / "graph.ttl")


def test_owl_rl_finds_the_seed_build_consistent(graph: Graph) -> None:
    assert owl_rl_errors(graph) == []


def test_owl_rl_would_catch_a_claim_typed_as_a_string(graph: Graph) -> None:
    control = Graph()
    for triple in graph:
        control.add(triple)
    claim = next(iter(control.subjects(RDF.type, SDO.Claim)))
    control.add((claim, NIF.anchorOf, Literal("claimed words", lang="en")))
    errors = owl_rl_errors(control)
    assert errors and any("disjoint" in e.lower() for e in errors), errors


def _isql_port(directory: Path) -> int:
    text = (directory / "virtuoso.ini").read_text()
    section = text[text.index("[Parameters]"):]
    match = re.search(r"^ServerPort\s*=\s*127\.0\.0\.1:(\d+)", section, re.M)
    assert match is not None
    return int(match.group(1))


def _inferred(url: str, sparql: str) -> Any:
    return run_remote(f"{url}/sparql", f"DEFINE input:inference '{RULES_GRAPH}'\n"
                      + with_prefixes(sparql))


@pytest.mark.server
def test_virtuoso_answers_the_named_questions_with_rdfs_inference(
    seed_build: Path, tmp_path: Path
) -> None:
    with run_virtuoso(tmp_path / "virtuoso") as server:
        auth = Credentials(server.user, server.password)
        load_dataset(seed_build / "graph.trig", server.url, preset="virtuoso", auth=auth)
        load_dataset(vocabulary_graph(), server.url, preset="virtuoso", auth=auth,
                     whole_graph=RULES_GRAPH)
        command = ["isql-vt", f"127.0.0.1:{_isql_port(tmp_path / 'virtuoso')}", "dba", "dba",
                   f"exec=rdfs_rule_set('{RULES_GRAPH}', '{RULES_GRAPH}');"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "Error" not in done.stdout, done.stdout + done.stderr
        for query in named_queries():
            rows = list(_inferred(server.url, query.text))
            assert rows, query.name
        derived_from_claim = """ASK { ?words prov:wasDerivedFrom ?c . ?c a schema:Claim }"""
        assert bool(_inferred(server.url, derived_from_claim))
        plain = run_remote(f"{server.url}/sparql", with_prefixes(derived_from_claim))
        assert not bool(plain)  # so the answer above came from the rule set
        from_article = "ASK { ?f prov:wasDerivedFrom ?a . ?a a schema:NewsArticle }"
        assert not bool(_inferred(server.url, from_article))
        person_place = "ASK { ?p a schema:Person , schema:Place }"
        assert not bool(_inferred(server.url, person_place))
        denoted = f"ASK {{ ?e <{GAF.denotedBy}> ?w . ?e a <{NIF.String}> }}"
        assert not bool(_inferred(server.url, denoted))

