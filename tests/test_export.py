"""kg export: GraphML, GEXF and CSV carry every entity and edge with their attributes."""

from __future__ import annotations

import csv
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import InputError
from kg.views.export import EDGE_COLUMNS, NODE_COLUMNS, export_graph
from kg.views.projection import entity_graph
from tests.graphs import ACME, ALICE, PAYLOAD_NAME, synthetic_store

READERS = {"graphml": nx.read_graphml, "gexf": nx.read_gexf}


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_networkx_formats_round_trip(fmt: str, tmp_path: Path) -> None:
    store = synthetic_store()
    projection = entity_graph(store)
    (path,) = export_graph(store, fmt, tmp_path / f"entities.{fmt}")
    graph = READERS[fmt](path)
    assert set(graph.nodes) == set(projection.nodes)
    assert graph.number_of_edges() == len(projection.edges)
    alice = graph.nodes[ALICE]
    assert (alice["label"], alice["kind"], alice["aliases"], int(alice["mentions"])) == (
        "Alice", "Person", "Alice Smith", 3)
    labels = {(u, v, d["label"], d["kind"], int(d["weight"])) for u, v, d in graph.edges(data=True)}
    assert (ALICE, ACME, "chief executive", "fact", 1) in labels
    assert (ACME, ALICE, "co-mentioned", "co-mention", 2) in labels
    assert PAYLOAD_NAME in {d["label"] for _, d in graph.nodes(data=True)}  # escaped, intact


def test_csv_tables_for_gephi(tmp_path: Path) -> None:
    store = synthetic_store()
    projection = entity_graph(store)
    nodes_path, edges_path = export_graph(store, "csv", tmp_path / "tables")
    with nodes_path.open() as nodes_file, edges_path.open() as edges_file:
        nodes, edges = list(csv.DictReader(nodes_file)), list(csv.DictReader(edges_file))
    assert tuple(nodes[0]) == NODE_COLUMNS and tuple(edges[0]) == EDGE_COLUMNS
    assert [n["Id"] for n in nodes] == list(projection.nodes)
    assert len(edges) == len(projection.edges)
    co_mention = next(e for e in edges if e["Source"] == ACME and e["Target"] == ALICE
                      and e["kind"] == "co-mention")
    assert (co_mention["Type"], co_mention["Weight"], co_mention["evidence"]) == (
        "Undirected", "2", "2")


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown export format 'dot'"):
        export_graph(synthetic_store(), "dot", tmp_path / "x.dot")


def test_cli_export_defaults_and_formats(seed_build: Path, tmp_path: Path) -> None:
    graph = str(seed_build / "graph.trig")
    result = CliRunner().invoke(app, ["export", "--graph", graph, "--format", "gexf",
                                      "--out", str(tmp_path / "e.gexf")])
    assert result.exit_code == 0 and f"wrote {tmp_path / 'e.gexf'}" in result.output
    assert nx.read_gexf(tmp_path / "e.gexf").number_of_nodes() > 10
    result = CliRunner().invoke(app, ["export", "--graph", graph, "--format", "csv",
                                      "--out", str(tmp_path / "csv")])
    assert result.exit_code == 0 and (tmp_path / "csv" / "edges.csv").exists()
    result = CliRunner().invoke(app, ["export", "--graph", graph, "--format", "svg"])
    assert result.exit_code == 1 and "choose from graphml, gexf, csv" in result.output
