"""kg stats: counts by class and relation, centrality on the entity projection, components."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python
from typer.testing import CliRunner

from kg.cli import app
from kg.store.embedded import open_store
from kg.views.analytics import graph_statistics, pagerank, simple_graph
from kg.views.projection import entity_graph
from tests.graphs import ACME, ALICE, synthetic_store


@pytest.fixture(scope="module")
def seed_store(seed_build: Path):
    return open_store(seed_build / "graph.trig")


def test_counts_by_class_and_relation_on_the_seeds(seed_store, seed_corpus) -> None:
    stats = graph_statistics(seed_store)
    assert stats.classes["nif:Phrase"] == len(seed_corpus.resolution.assignments)
    assert stats.classes["schema:NewsArticle"] == len(seed_corpus.extractions)
    assert stats.relations["itsrdf:taIdentRef"] == len(seed_corpus.resolution.assignments)
    assert list(stats.relations.values()) == sorted(stats.relations.values(), reverse=True)


def test_entity_graph_numbers_add_up(seed_store) -> None:
    stats = graph_statistics(seed_store, top=5)
    projection = entity_graph(seed_store, evidence=False)
    assert stats.entities == len(projection.nodes) == sum(stats.components)
    assert sum(stats.edges.values()) == len(projection.edges)
    assert list(stats.components) == sorted(stats.components, reverse=True)
    articles = [r.score for r in stats.by_articles]
    assert len(articles) == 5 and articles == sorted(articles, reverse=True)
    degrees = dict(simple_graph(projection).degree())
    assert stats.degree[0].score == max(degrees.values())


def test_synthetic_graph_centrality() -> None:
    stats = graph_statistics(synthetic_store())
    assert stats.degree[0].iri == ALICE and stats.degree[0].score == 4  # Acme, places, Mallory
    assert {r.iri for r in stats.pagerank[:2]} == {ALICE, ACME}
    assert stats.components == (6,)
    assert stats.edges == {"co-mention": 4, "fact": 1, "relation": 1, "role": 3}


@pytest.mark.parametrize("graph", [
    nx.path_graph(4), nx.star_graph(5), nx.Graph([(0, 1), (2, 3)]),
    nx.Graph([("a", "b", {"weight": 5}), ("b", "c", {"weight": 1})]), nx.empty_graph(3),
], ids=["path", "star", "two-parts", "weighted", "no-edges"])
def test_pagerank_matches_networkx(graph: nx.Graph) -> None:
    ours = pagerank(graph)
    theirs = _pagerank_python(graph, weight="weight", tol=1e-12, max_iter=1000)
    assert ours.keys() == theirs.keys()
    assert all(abs(ours[k] - theirs[k]) < 1e-6 for k in ours)
    assert abs(sum(ours.values()) - 1) < 1e-9


def test_cli_stats_text_and_json(seed_build: Path) -> None:
    graph = str(seed_build / "graph.trig")
    text = CliRunner().invoke(app, ["stats", "--graph", graph, "--top", "3"])
    data = CliRunner().invoke(app, ["stats", "--graph", graph, "--json"])
    assert text.exit_code == 0 and data.exit_code == 0
    report = json.loads(data.stdout)
    for section in ("Resources by class", "PageRank", "Betweenness", "components"):
        assert section in text.output
    assert report["pagerank"][0]["label"] in text.output
    assert f"  entities{' ' * 12}{report['entities']}" in text.output
