"""A small hand-written graph in kg's data contract, with facts and hostile text.

It has what the seed build may not (yet): a relation between two entities, an n-ary fact with
two parties (a membership) and one with three (an event), each with evidence, and names and
sentences carrying HTML/script payloads. Tests of the projection, views and exports use it.
"""

from __future__ import annotations

import pyoxigraph as ox

BASE = "https://w3id.org/kgnews/id/"
PAYLOAD_NAME = '<img src=x onerror="window.__pwned=1">Mallory'
PAYLOAD_SENTENCE = "Mallory wrote <script>window.__pwned=1</script> to Alice & Acme."
ALICE, ACME = f"{BASE}person/alice", f"{BASE}organization/acme"
SPRINGFIELD, FREEDONIA = f"{BASE}place/springfield", f"{BASE}place/freedonia"
MALLORY = f"{BASE}person/mallory"
A1, A2 = f"{BASE}article/a1", f"{BASE}article/a2"
S1, S2, S3 = f"{A1}#sentence=0,40", f"{A1}#sentence=41,90", f"{A2}#sentence=0,70"
MEMBERSHIP, EVENT = f"{BASE}fact/membership-1", f"{BASE}fact/event-1"


def _escaped(text: str) -> str:
    return str(ox.Literal(text))


SYNTHETIC_TRIG = f"""
@prefix schema: <https://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> .
@prefix itsrdf: <http://www.w3.org/2005/11/its/rdf#> .
@prefix org: <http://www.w3.org/ns/org#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<{BASE}graph/article/a1> {{
  <{A1}> a schema:NewsArticle, nif:Context ; schema:headline "Alice joins Acme" .
  <{S1}> a nif:Sentence ; nif:referenceContext <{A1}> ; nif:beginIndex 0 ;
      nif:anchorOf "Alice is chief executive of Acme." .
  <{S2}> a nif:Sentence ; nif:referenceContext <{A1}> ; nif:beginIndex 41 ;
      nif:anchorOf "Alice and Acme opened an office in Springfield." .
  <{A1}#char=0,5> a nif:Phrase ; itsrdf:taIdentRef <{ALICE}> ; nif:sentence <{S1}> ;
      nif:referenceContext <{A1}> .
  <{A1}#char=28,32> a nif:Phrase ; itsrdf:taIdentRef <{ACME}> ; nif:sentence <{S1}> ;
      nif:referenceContext <{A1}> .
  <{A1}#char=41,46> a nif:Phrase ; itsrdf:taIdentRef <{ALICE}> ; nif:sentence <{S2}> ;
      nif:referenceContext <{A1}> .
  <{A1}#char=51,55> a nif:Phrase ; itsrdf:taIdentRef <{ACME}> ; nif:sentence <{S2}> ;
      nif:referenceContext <{A1}> .
  <{A1}#char=77,88> a nif:Phrase ; itsrdf:taIdentRef <{SPRINGFIELD}> ; nif:sentence <{S2}> ;
      nif:referenceContext <{A1}> .
  <{MEMBERSHIP}> a org:Membership ; org:member <{ALICE}> ; org:organization <{ACME}> ;
      org:role <{BASE}role/chief-executive> ; prov:wasDerivedFrom <{S1}> .
  <{BASE}role/chief-executive> a org:Role ; rdfs:label "chief executive" .
  <{EVENT}> a schema:Event ; schema:agent <{ALICE}> ; schema:object <{ACME}> ;
      schema:location <{SPRINGFIELD}> ; prov:wasDerivedFrom <{S2}> .
}}

<{BASE}graph/article/a2> {{
  <{A2}> a schema:NewsArticle, nif:Context .
  <{S3}> a nif:Sentence ; nif:referenceContext <{A2}> ; nif:beginIndex 0 ;
      nif:anchorOf {_escaped(PAYLOAD_SENTENCE)} .
  <{A2}#char=0,7> a nif:Phrase ; itsrdf:taIdentRef <{MALLORY}> ; nif:sentence <{S3}> ;
      nif:referenceContext <{A2}> .
  <{A2}#char=50,55> a nif:Phrase ; itsrdf:taIdentRef <{ALICE}> ; nif:sentence <{S3}> ;
      nif:referenceContext <{A2}> .
}}

<{BASE}graph/entities> {{
  <{ALICE}> a schema:Person ; rdfs:label "Alice" ; skos:altLabel "Alice Smith" .
  <{ACME}> a schema:Organization ; rdfs:label "Acme" .
  <{SPRINGFIELD}> a schema:Place ; rdfs:label "Springfield" ;
      schema:containedInPlace <{FREEDONIA}> .
  <{FREEDONIA}> a schema:Place ; rdfs:label "Freedonia" .
  <{MALLORY}> a schema:Person ; rdfs:label {_escaped(PAYLOAD_NAME)} .
  <{BASE}person/nobody> a schema:Person ; rdfs:label "Nobody" .
}}
"""


def synthetic_store() -> ox.Store:
    """A fresh in-memory store holding ``SYNTHETIC_TRIG``."""
    store = ox.Store()
    store.load(SYNTHETIC_TRIG.encode(), format=ox.RdfFormat.TRIG)
    return store
