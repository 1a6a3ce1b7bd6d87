"""What networkx says about the entity projection: centrality, components, counts.

``graph_statistics`` is ``kg stats``: resources by class, triples by relation (on the whole
graph, in SPARQL), then on the entity projection (``kg.views.projection``) entities by number of
independent articles (a syndicated copy counts with its original), degree, PageRank and
betweenness, connected components, and the syndicated copies.

>>> print(graph_statistics(open_store("output/graph.trig")).to_text())  # doctest: +SKIP
Resources by class
  nif:Phrase           117
...
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox

from kg.store.results import compact_iri
from kg.views.projection import EntityGraph, entity_graph, local_name, select

CLASS_COUNTS = """SELECT ?class (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ?class }
GROUP BY ?class ORDER BY DESC(?n) ?class"""
COPIES = """SELECT DISTINCT ?copy ?original WHERE { ?copy kg:copyOf ?original }
ORDER BY ?original ?copy"""
RELATION_COUNTS = """SELECT ?p (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o { ?s ?p ?o } }
GROUP BY ?p ORDER BY DESC(?n) ?p"""


@dataclass(frozen=True)
class Ranked:
    """An entity with a score, for the top lists of ``Statistics``."""

    iri: str
    label: str
    kind: str
    score: float


@dataclass(frozen=True)
class Statistics:
    """What ``kg stats`` reports; ``as_dict()`` is its JSON form."""

    classes: dict[str, int]
    relations: dict[str, int]
    entities: int
    edges: dict[str, int]  # edge kind -> count
    by_articles: tuple[Ranked, ...]
    degree: tuple[Ranked, ...]
    pagerank: tuple[Ranked, ...]
    betweenness: tuple[Ranked, ...]
    components: tuple[int, ...]  # sizes, largest first
    copies: dict[str, str] = field(default_factory=dict)  # copy article -> its original

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        from dataclasses import asdict

        return asdict(self)

    def to_text(self) -> str:
        """The report for people: sections of aligned two-column lists."""
        isolated = sum(1 for size in self.components if size == 1)
        sizes = ", ".join(str(s) for s in self.components[:5]) or "none"
        sections = [
            ("Resources by class", [(k, str(v)) for k, v in self.classes.items()]),
            ("Triples by relation", [(k, str(v)) for k, v in self.relations.items()]),
            ("Entity graph", [("entities", str(self.entities)),
                              *((f"{k} edges", str(v)) for k, v in self.edges.items()),
                              ("components", str(len(self.components))),
                              ("largest components", sizes),
                              ("isolated entities", str(isolated))]),
            ("Entities by number of articles", _ranked_rows(self.by_articles, "{:.0f}")),
            ("Degree (distinct neighbours)", _ranked_rows(self.degree, "{:.0f}")),
            ("PageRank", _ranked_rows(self.pagerank, "{:.4f}")),
            ("Betweenness", _ranked_rows(self.betweenness, "{:.4f}")),
            ("Syndicated copies (each counted once, with its original)",
             [(local_name(c), f"copy of {local_name(o)}") for c, o in self.copies.items()]),
        ]
        return "\n".join(_section(title, rows) for title, rows in sections)


def _ranked_rows(ranked: tuple[Ranked, ...], number: str) -> list[tuple[str, str]]:
    return [(f"{r.label} ({r.kind})", number.format(r.score)) for r in ranked]


def _section(title: str, rows: list[tuple[str, str]]) -> str:
    width = max((len(name) for name, _ in rows), default=0)
    body = "\n".join(f"  {name:<{width}}  {value}" for name, value in rows) or "  (none)"
    return f"{title}\n{body}\n"


def to_networkx(projection: EntityGraph) -> Any:
    """The projection as a ``networkx.MultiDiGraph`` with node and edge attributes.

    Attributes are plain strings and numbers (aliases joined with "; "), so GraphML and
    GEXF can hold them; an edge's ``directed`` says whether its direction means anything.
    """
    import networkx as nx

    graph = nx.MultiDiGraph()
    for iri, n in projection.nodes.items():
        graph.add_node(iri, label=n.label, kind=n.kind, aliases="; ".join(n.aliases),
                       articles=n.articles, mentions=n.mentions)
    for e in projection.edges:
        graph.add_edge(e.source, e.target, label=e.label, kind=e.kind, weight=e.weight,
                       directed=e.directed, evidence=len(e.evidence))
    return graph


def simple_graph(projection: EntityGraph) -> Any:
    """An undirected ``networkx.Graph``; parallel edges summed into ``weight``."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(projection.nodes)
    for e in projection.edges:
        if e.source != e.target:
            old = graph.get_edge_data(e.source, e.target, {"weight": 0})["weight"]
            graph.add_edge(e.source, e.target, weight=old + e.weight)
    return graph


def graph_statistics(store: ox.Store, top: int = 10) -> Statistics:
    """Counts by class and relation, the most reported and most central entities, components.

    Betweenness is estimated from 500 sampled sources on graphs above 1,000 entities
    (exact below), so big graphs stay fast; the sample is seeded, so results repeat.
    """
    import networkx as nx

    projection = entity_graph(store, evidence=False)
    graph = simple_graph(projection)
    sample = 500 if len(graph) > 1000 else None
    scores = {
        "degree": dict(graph.degree()),
        "pagerank": pagerank(graph),
        "betweenness": nx.betweenness_centrality(graph, k=sample, seed=0),
    }
    edge_kinds: defaultdict[str, int] = defaultdict(int)
    for e in projection.edges:
        edge_kinds[e.kind] += 1
    return Statistics(
        classes=_counts(store, CLASS_COUNTS, "class"),
        relations=_counts(store, RELATION_COUNTS, "p"),
        entities=len(projection.nodes),
        edges=dict(sorted(edge_kinds.items())),
        by_articles=_top(projection, {k: n.articles for k, n in projection.nodes.items()}, top),
        degree=_top(projection, scores["degree"], top),
        pagerank=_top(projection, scores["pagerank"], top),
        betweenness=_top(projection, scores["betweenness"], top),
        components=tuple(sorted((len(c) for c in nx.connected_components(graph)), reverse=True)),
        copies={row["copy"].value: row["original"].value for row in select(store, COPIES)},
    )


def pagerank(graph: Any, alpha: float = 0.85, tol: float = 1e-10,
             max_iter: int = 500) -> dict[str, float]:
    """Weighted PageRank by power iteration (networkx's own needs SciPy, which kg does not).

    Dangling nodes (no edges) spread their rank evenly, as in networkx.

    >>> import networkx as nx; g = nx.Graph([("a", "b"), ("b", "c")])
    >>> {k: round(v, 3) for k, v in pagerank(g).items()}
    {'a': 0.257, 'b': 0.486, 'c': 0.257}
    """
    n = len(graph)
    if not n:
        return {}
    strength = {v: sum(d.get("weight", 1) for *_, d in graph.edges(v, data=True)) for v in graph}
    rank = dict.fromkeys(graph, 1.0 / n)
    for _ in range(max_iter):
        dangling = alpha * sum(rank[v] for v in graph if not strength[v]) / n
        new = dict.fromkeys(graph, (1.0 - alpha) / n + dangling)
        for u, v, d in graph.edges(data=True):
            w = d.get("weight", 1)
            new[v] += alpha * rank[u] * w / strength[u]
            new[u] += alpha * rank[v] * w / strength[v]
        if sum(abs(new[v] - rank[v]) for v in graph) < n * tol:
            return new
        rank = new
    return rank


def _counts(store: ox.Store, sparql: str, key: str) -> dict[str, int]:
    return {compact_iri(row[key].value): int(row["n"].value) for row in select(store, sparql)}


def _top(projection: EntityGraph, scores: dict[str, Any], top: int) -> tuple[Ranked, ...]:
    ranked = sorted(scores.items(), key=lambda item: (-item[1], projection.nodes[item[0]].label))
    return tuple(Ranked(iri, projection.nodes[iri].label, projection.nodes[iri].kind,
                        round(float(score), 6)) for iri, score in ranked[:top])
