"""The entity graph for Gephi, Cytoscape and friends: GraphML, GEXF or two CSV tables.

Nodes carry ``label``, ``kind`` (Person, Organization, Place, Event, or a fact's class),
``aliases`` (joined with "; "), ``articles`` and ``mentions``; edges carry ``label``
("co-mentioned", "memberOf", "President" …), ``kind`` (co-mention, relation, fact, role),
``weight`` (sentences or facts behind it), ``directed`` and ``evidence`` (sentences kept).
CSV uses Gephi's column names (``Id``, ``Label``; ``Source``, ``Target``, ``Type``,
``Weight``) so its spreadsheet import maps them without questions. Files are replaced
atomically.

>>> store = open_store("output/graph.trig")  # doctest: +SKIP
>>> export_graph(store, "gexf", Path("output/entities.gexf"))  # doctest: +SKIP
(PosixPath('output/entities.gexf'),)
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from kg.atomic import atomic_writer
from kg.errors import InputError
from kg.views.analytics import to_networkx
from kg.views.ftm import export_ftm
from kg.views.projection import EntityGraph, entity_graph

FORMATS = ("graphml", "gexf", "csv", "ftm")
NODE_COLUMNS = ("Id", "Label", "kind", "aliases", "articles", "mentions")
EDGE_COLUMNS = ("Source", "Target", "Type", "Label", "kind", "Weight", "evidence")


def default_target(fmt: str, out_dir: Path = Path("output")) -> Path:
    """Where ``kg export`` writes by default: ``entities.<ext>``, or a folder for CSV.

    >>> default_target("csv")
    PosixPath('output/entities-csv')
    """
    if fmt == "ftm":
        return out_dir / "entities.ftm.jsonl"
    return out_dir / ("entities-csv" if fmt == "csv" else f"entities.{fmt}")


def export_graph(store: Any, fmt: str, target: Path) -> tuple[Path, ...]:
    """Write the entity projection of ``store`` as ``fmt`` to ``target``; return the files.

    For ``csv``, ``target`` is a folder receiving ``nodes.csv`` and ``edges.csv``.
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}; choose from {', '.join(FORMATS)}")
    if fmt == "ftm":  # Follow-the-Money entities, read from the graph itself (kg.views.ftm)
        _parent(Path(target))
        return (export_ftm(store, Path(target)),)
    projection = entity_graph(store, evidence=True)
    if fmt == "csv":
        return write_csv(projection, Path(target))
    return (write_networkx(projection, fmt, Path(target)),)


def write_networkx(projection: EntityGraph, fmt: str, path: Path) -> Path:
    """GraphML or GEXF through networkx."""
    import networkx as nx

    graph = to_networkx(projection)
    writer = nx.write_graphml if fmt == "graphml" else nx.write_gexf
    _parent(path)
    with atomic_writer(path) as file:
        writer(graph, file)
    return path


def write_csv(projection: EntityGraph, folder: Path) -> tuple[Path, Path]:
    """``nodes.csv`` and ``edges.csv`` in ``folder``."""
    _parent(folder / "nodes.csv")
    nodes = [(iri, n.label, n.kind, "; ".join(n.aliases), n.articles, n.mentions)
             for iri, n in projection.nodes.items()]
    edges = [(e.source, e.target, "Directed" if e.directed else "Undirected", e.label, e.kind,
              e.weight, len(e.evidence)) for e in projection.edges]
    return (_write_table(folder / "nodes.csv", NODE_COLUMNS, nodes),
            _write_table(folder / "edges.csv", EDGE_COLUMNS, edges))


def _write_table(path: Path, header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> Path:
    with atomic_writer(path, "w") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _parent(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create {path.parent}: {e.strerror or e}") from e
