"""The entity projection of a graph: the entities and the labelled links between them.

The RDF graph holds articles, sentences and mentions; people want the entities and how they
connect. ``entity_graph`` projects it (in SPARQL, on Oxigraph) to:

nodes
    every resource typed ``schema:Person``, ``schema:Organization``, ``schema:Place`` or
    ``schema:Event`` with an ``rdfs:label``, that is mentioned or linked to another one;
edges
    * ``co-mentioned``: two entities mentioned in the same sentence; weight = the sentences;
    * a relation: any triple from one entity to another (``org:memberOf``, ``schema:
      containedInPlace`` …), labelled by the property's local name;
    * an n-ary fact (``org:Membership``, ``schema:Claim``, an unlabelled event …): a node
      linking exactly two entities becomes one edge labelled by its label or role (e.g.
      "President"); one linking three or more is shown as a node of its class with an edge
      per role, labelled by the property (``agent``, ``location`` …).

Evidence (the sentences a mention or a fact comes from, ``prov:wasDerivedFrom``) rides along.
``kg.views.viz`` draws the projection, ``kg.views.analytics`` measures it,
``kg.views.export`` writes it out.

>>> projection = entity_graph(kg.store.embedded.open_store("output/graph.trig"))  # doctest: +SKIP
>>> projection.nodes["https://w3id.org/kgnews/id/person/vladimir-putin"].kind  # doctest: +SKIP
'Person'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import pyoxigraph as ox

from kg.rdf.namespaces import PREFIXES
from kg.store.sparql import run_query

ENTITY_CLASSES = ("Person", "Organization", "Place", "Event")
CO_MENTION = "co-mentioned"
MAX_EVIDENCE = 5
_SCHEMA, _RDFS, _SKOS = PREFIXES["schema"], PREFIXES["rdfs"], PREFIXES["skos"]
_LABELS = tuple(ox.NamedNode(iri) for iri in (
    f"{_RDFS}label", f"{_SKOS}prefLabel", f"{_SCHEMA}name", f"{_SCHEMA}roleName",
    f"{_SCHEMA}text", f"{PREFIXES['nif']}anchorOf"))
_ROLE = (ox.NamedNode(f"{PREFIXES['org']}role"), ox.NamedNode(f"{_SCHEMA}roleName"))
_TYPE = ox.NamedNode(f"{PREFIXES['rdf']}type")
_DERIVED_FROM = ox.NamedNode(f"{PREFIXES['prov']}wasDerivedFrom")
# Named things: the four coarse classes, and the products, vehicles, weapons, works and awards
# that the articles' own words set apart from them (kg.resolve.types).
_ENTITY_FILTER = ("FILTER (?class IN (schema:Person, schema:Organization, schema:Place, "
                  "schema:Event, schema:Product, schema:Vehicle, kg:Weapon, schema:CreativeWork, "
                  "kg:Award))")

# Each article graph types the entities it mentions, and Oxigraph's union of graphs returns
# a triple once per graph holding it: DISTINCT sub-selects keep joins from multiplying.
ENTITIES = f"""SELECT DISTINCT ?e ?class ?label WHERE {{
  ?e a ?class ; rdfs:label ?label . {_ENTITY_FILTER} }}"""
ALIASES = "SELECT DISTINCT ?e ?alt WHERE { ?e skos:altLabel ?alt }"
# Articles are independent sources: a syndicated copy (kg:copyOf) counts with its original.
MENTION_COUNTS = """SELECT ?e (COUNT(DISTINCT ?m) AS ?mentions) (COUNT(DISTINCT ?src) AS ?articles)
WHERE { ?m itsrdf:taIdentRef ?e ; nif:referenceContext ?doc .
  OPTIONAL { ?doc kg:copyOf ?original } BIND (COALESCE(?original, ?doc) AS ?src) }
GROUP BY ?e"""
EVIDENCE_SENTENCES = """SELECT DISTINCT ?e ?s WHERE {
  { ?m itsrdf:taIdentRef ?e ; nif:sentence ?s } UNION { ?e prov:wasDerivedFrom ?s } }"""
SENTENCES = """SELECT ?s ?text ?doc ?begin ?title WHERE {
  ?s a nif:Sentence ; nif:anchorOf ?text ; nif:referenceContext ?doc ; nif:beginIndex ?begin .
  OPTIONAL { ?doc schema:headline ?title } }"""
CO_MENTIONS = """SELECT DISTINCT ?a ?b ?s WHERE {
  ?m1 itsrdf:taIdentRef ?a ; nif:sentence ?s . ?m2 itsrdf:taIdentRef ?b ; nif:sentence ?s .
  FILTER (STR(?a) < STR(?b)) }"""
LINKS = f"""SELECT DISTINCT ?x ?p ?e WHERE {{
  {{ SELECT DISTINCT ?e WHERE {{ ?e a ?class . {_ENTITY_FILTER} }} }}
  ?x ?p ?e .
  FILTER (?x != ?e && ?p NOT IN (itsrdf:taIdentRef, owl:sameAs, kg:mergedInto, rdf:type))
  FILTER NOT EXISTS {{ ?x a ?text .
    FILTER (?text IN (nif:Phrase, nif:Sentence, nif:Context, kg:MergeDecision)) }} }}"""


@dataclass(frozen=True, order=True)
class Evidence:
    """A sentence supporting a node or an edge, with its article (ordered by article, offset)."""

    article: str
    begin: int
    text: str
    title: str


@dataclass(frozen=True)
class Node:
    """An entity (or an n-ary fact shown as a node) of the projection."""

    iri: str
    label: str
    kind: str  # class local name: Person, Organization, Place, Event, or a fact's class
    aliases: tuple[str, ...] = ()
    articles: int = 0
    mentions: int = 0
    evidence: tuple[Evidence, ...] = ()
    evidence_total: int = 0


@dataclass(frozen=True)
class Edge:
    """A labelled link between two nodes; ``weight`` counts the sentences or facts behind it."""

    source: str
    target: str
    label: str
    kind: str  # "co-mention", "relation", "fact" or "role"
    weight: int = 1
    directed: bool = True
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class EntityGraph:
    """The projection: nodes by IRI and edges (parallel edges allowed)."""

    nodes: dict[str, Node]
    edges: tuple[Edge, ...]
    sentences: dict[str, Evidence] = field(default_factory=dict, repr=False)

    def restricted(self, keep: Iterable[str]) -> EntityGraph:
        """The subgraph induced by the node IRIs in ``keep``, nodes sorted by IRI."""
        kept = set(keep) & self.nodes.keys()
        return EntityGraph({k: self.nodes[k] for k in sorted(kept)},
                           tuple(e for e in self.edges if e.source in kept and e.target in kept),
                           self.sentences)


def select(store: ox.Store, sparql: str) -> Iterable[ox.QuerySolution]:
    """The solutions of a SELECT query over the union of ``store``'s graphs."""
    result = run_query(store, sparql, source="entity projection")
    assert isinstance(result, ox.QuerySolutions)
    return result


def local_name(iri: str) -> str:
    """The last segment of an IRI: ``https://schema.org/Person`` → ``Person``.

    >>> local_name("http://www.w3.org/ns/org#memberOf")
    'memberOf'
    """
    return iri.rstrip("/#").rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def entity_graph(store: ox.Store, *, evidence: bool = True) -> EntityGraph:
    """Project ``store`` to entities and labelled edges (see the module docstring)."""
    nodes = _entity_nodes(store)
    sentences = _sentences(store) if evidence else {}
    co_mentions = _co_mentions(store, nodes, sentences)
    hubs, fact_edges = _fact_edges(store, nodes, sentences)
    nodes.update(hubs)
    if evidence:
        nodes = _with_evidence(store, nodes, sentences)
    linked = {n for e in (*co_mentions, *fact_edges) for n in (e.source, e.target)}
    keep = {k for k, n in nodes.items() if n.mentions or k in linked}
    return EntityGraph(nodes, tuple(co_mentions + fact_edges), sentences).restricted(keep)


def _entity_nodes(store: ox.Store) -> dict[str, Node]:
    nodes: dict[str, Node] = {}
    for row in select(store, ENTITIES):
        iri = row["e"].value
        if iri not in nodes or local_name(row["class"].value) < nodes[iri].kind:
            nodes[iri] = Node(iri, row["label"].value, local_name(row["class"].value))
    aliases: defaultdict[str, list[str]] = defaultdict(list)
    for row in select(store, ALIASES):
        aliases[row["e"].value].append(row["alt"].value)
    for row in select(store, MENTION_COUNTS):
        iri = row["e"].value
        if iri in nodes:
            nodes[iri] = replace(nodes[iri], mentions=int(row["mentions"].value),
                                 articles=int(row["articles"].value))
    for iri, alts in aliases.items():
        if iri in nodes:
            nodes[iri] = replace(nodes[iri], aliases=tuple(sorted(set(alts))))
    return nodes


def _sentences(store: ox.Store) -> dict[str, Evidence]:
    return {row["s"].value: Evidence(row["doc"].value, int(row["begin"].value), row["text"].value,
                                     row["title"].value if row["title"] else
                                     local_name(row["doc"].value))
            for row in select(store, SENTENCES)}


def _co_mentions(store: ox.Store, nodes: dict[str, Node],
                 sentences: dict[str, Evidence]) -> list[Edge]:
    pairs: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
    for row in select(store, CO_MENTIONS):
        a, b = row["a"].value, row["b"].value
        if a in nodes and b in nodes:
            pairs[a, b].append(row["s"].value)
    return [Edge(a, b, CO_MENTION, "co-mention", len(ss), False, _evidence(ss, sentences))
            for (a, b), ss in sorted(pairs.items())]


def _evidence(sentence_iris: Iterable[str], sentences: dict[str, Evidence]) -> tuple[Evidence, ...]:
    found = sorted(sentences[s] for s in set(sentence_iris) if s in sentences)
    return tuple(found[:MAX_EVIDENCE])


def _fact_edges(store: ox.Store, nodes: dict[str, Node],
                sentences: dict[str, Evidence]) -> tuple[dict[str, Node], list[Edge]]:
    """Edges from entity-to-entity triples and n-ary fact nodes; facts of 3+ become nodes."""
    links: defaultdict[Any, list[tuple[str, str]]] = defaultdict(list)
    for row in select(store, LINKS):
        links[row["x"]].append((row["p"].value, row["e"].value))
    hubs: dict[str, Node] = {}
    edges: list[Edge] = []
    for term, roles in sorted(links.items(), key=lambda item: str(item[0])):
        x, parties = node_id(term), {e for _, e in roles}
        proof = _evidence(_derived_from(store, term), sentences)
        if x in nodes:
            edges += [Edge(x, e, local_name(p), "relation", 1, True, proof) for p, e in roles]
        elif len(parties) == 2 and len(roles) == 2:
            (_, a), (_, b) = sorted(roles)
            edges.append(Edge(a, b, _fact_label(store, term), "fact", 1, True, proof))
        elif len(parties) >= 3:
            hubs[x] = _hub(store, term, proof)
            edges += [Edge(x, e, local_name(p), "role", 1, True, proof) for p, e in roles]
    return hubs, merge_edges(edges)


def node_id(term: Any) -> str:
    """The id of a node: its IRI, or ``_:id`` for a blank node.

    >>> node_id(ox.BlankNode("b1")), node_id(ox.NamedNode("https://x.org/a"))
    ('_:b1', 'https://x.org/a')
    """
    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else str(term.value)


def _objects(store: ox.Store, subject: Any, predicate: ox.NamedNode) -> list[Any]:
    return [q.object for q in store.quads_for_pattern(subject, predicate, None)]


def _derived_from(store: ox.Store, node: Any) -> list[str]:
    return [o.value for o in _objects(store, node, _DERIVED_FROM) if isinstance(o, ox.NamedNode)]


def _label_of(store: ox.Store, node: Any) -> str | None:
    for predicate in _LABELS:
        literals = sorted(o.value for o in _objects(store, node, predicate)
                          if isinstance(o, ox.Literal))
        if literals:
            return literals[0]
    return None


def _fact_label(store: ox.Store, node: Any) -> str:
    """A fact's own label, else its role's label or name, else its class."""
    own = _label_of(store, node)
    if own:
        return own
    for predicate in _ROLE:
        for role in _objects(store, node, predicate):
            label = role.value if isinstance(role, ox.Literal) else _label_of(store, role)
            if label:
                return label
    return _class_of(store, node)


def _class_of(store: ox.Store, node: Any) -> str:
    classes = sorted(local_name(o.value) for o in _objects(store, node, _TYPE))
    return classes[0] if classes else "Fact"


def _hub(store: ox.Store, node: Any, proof: tuple[Evidence, ...]) -> Node:
    label = _label_of(store, node) or _class_of(store, node)
    return Node(node_id(node), label, _class_of(store, node), evidence=proof,
                evidence_total=len(proof))


def merge_edges(edges: list[Edge]) -> list[Edge]:
    """One edge per (source, target, label), weight = how many facts say it."""
    merged: dict[tuple[str, str, str], Edge] = {}
    for edge in edges:
        key = (edge.source, edge.target, edge.label)
        if key in merged:
            old = merged[key]
            proof = tuple(dict.fromkeys(old.evidence + edge.evidence))[:MAX_EVIDENCE]
            edge = replace(old, weight=old.weight + edge.weight, evidence=proof)
        merged[key] = edge
    return list(merged.values())


def _with_evidence(store: ox.Store, nodes: dict[str, Node],
                   sentences: dict[str, Evidence]) -> dict[str, Node]:
    """Each node's sentences: where it is mentioned, and what it was derived from (facts)."""
    found: defaultdict[str, list[str]] = defaultdict(list)
    for row in select(store, EVIDENCE_SENTENCES):
        found[row["e"].value].append(row["s"].value)
    return {iri: replace(n, evidence=_evidence(found[iri], sentences),
                         evidence_total=len(found[iri])) if iri in found else n
            for iri, n in nodes.items()}
