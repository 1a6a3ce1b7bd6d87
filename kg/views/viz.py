"""HTML views of the entity graph: one self-contained page, no network needed.

    store ─▶ projection (kg.views.projection, or a CONSTRUCT query) ─▶ focus / types / text
          ─▶ pyvis Network (nodes, edges) ─▶ kg/data/view.html ─▶ View (.html, .save, Jupyter)

Why not pyvis's own page template: it loads Bootstrap from a CDN even with
``cdn_resources="in_line"``, renders the heading unescaped, and switches to ``innerHTML``
tooltips as soon as a title contains the text "href" — article text could then run script.
kg keeps pyvis for building nodes and edges and for its bundled vis-network 9, and writes
its own page: vis.js and CSS inlined, every string escaped (HTML-escaped in markup,
JSON-escaped in the data block), details built with ``textContent`` only, and a
Content-Security-Policy that allows no network access and only kg's own scripts (by hash),
so even markup that slipped into the DOM could not run an ``onerror`` handler.

Layout: Barnes-Hut, straight edges, few stabilisation iterations on big graphs and physics
switched off once stable (NOTES.md: a 5,000-node view needs ~18 s tuned vs. minutes with
defaults); ``bench/bench_viz.py`` measures it.

>>> page = view("output/graph.trig", focus="Vladimir Putin", depth=2)  # doctest: +SKIP
>>> page.save("output/putin.html")  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.atomic import atomic_writer
from kg.errors import InputError, QueryError
from kg.rdf.namespaces import PREFIXES
from kg.resources import PACKAGE_DATA
from kg.store.embedded import store_of
from kg.store.sparql import read_query, run_query
from kg.views.projection import (
    Edge,
    EntityGraph,
    Evidence,
    Node,
    entity_graph,
    local_name,
    merge_edges,
    node_id,
    select,
)

DEFAULT_MAX_NODES = 2000
BIG = 300  # above this many nodes: short stabilisation, physics off once stable
MAX_EDGE_LABELS = 500  # above this many edges their labels are not drawn (tooltips keep them)
COLORS = {"Person": "#4e79a7", "Organization": "#f28e2b", "Place": "#59a14f",
          "Event": "#e15759", "Article": "#9c755f", "Sentence": "#bab0ac"}
EXTRA_COLORS = ("#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#8cd17d", "#d4a6c8")
# Co-mentions are the most numerous and least telling edges: drawn light, their label small.
EDGE_STYLES = {"co-mention": {"dashes": True, "font": {"size": 7, "color": "#9aa5b1"}},
               "text": {"color": {"color": "#d9dee3"}, "font": {"size": 7, "color": "#9aa5b1"}}}
_MARKER = re.compile(r"\{\{(\w+)\}\}")
RDF_TYPE = ox.NamedNode(f"{PREFIXES['rdf']}type")
RDFS_LABEL = ox.NamedNode(f"{PREFIXES['rdfs']}label")
TEXT_MENTIONS = """SELECT DISTINCT ?e ?s ?anchor WHERE {
  ?m itsrdf:taIdentRef ?e ; nif:sentence ?s . OPTIONAL { ?m nif:anchorOf ?anchor } }"""


@dataclass(frozen=True)
class View:
    """A rendered page; shows itself inline in Jupyter (``_repr_html_``)."""

    html: str
    nodes: int
    edges: int

    def save(self, path: str | Path) -> Path:
        """Write the page to ``path`` (replaced atomically) and return the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(path, "w") as file:
            file.write(self.html)
        return path

    def _repr_html_(self) -> str:
        page = html.escape(self.html, quote=True)
        return (f'<iframe srcdoc="{page}" style="width:100%;height:640px;border:0" '
                'sandbox="allow-scripts"></iframe>')


def view(graph: Any, *, focus: str | None = None, depth: int = 1,
         types: Iterable[str] = (), query: str | Path | None = None,
         max_nodes: int = DEFAULT_MAX_NODES, show_text: bool = False,
         title: str = "kg view") -> View:
    """The HTML view of ``graph`` (a graph file path, a store or an rdflib Graph/Dataset).

    ``focus`` keeps the neighbourhood (``depth`` steps) of the entity with that name, alias
    or IRI; ``types`` keeps these classes (``Person``, ``schema:Place`` …); ``query`` is a
    CONSTRUCT query (text or ``.rq`` path) whose triples define the view; ``show_text`` adds
    the articles and sentences. More than ``max_nodes`` nodes raises ``InputError``.
    """
    store = store_of(graph)
    projection = (construct_projection(store, query) if query is not None
                  else entity_graph(store))
    projection = filter_types(projection, types)
    if focus is not None:
        projection = neighbourhood(projection, find_node(projection, focus), depth)
    if show_text:
        projection = with_text(store, projection)
    if len(projection.nodes) > max_nodes:
        raise InputError(
            f"the view would have {len(projection.nodes):,} nodes, more than max_nodes="
            f"{max_nodes:,}; narrow it to an entity's neighbourhood (focus, depth), to some "
            "types or to a query, or raise max_nodes", option="max_nodes")
    return render(projection, title)


def find_node(projection: EntityGraph, name: str) -> str:
    """The IRI of the node called ``name`` (label, alias or IRI; case-insensitive).

    Raises ``InputError`` naming close matches when there is none.
    """
    wanted = " ".join(name.split()).casefold()
    for iri, node in sorted(projection.nodes.items(), key=lambda kv: -kv[1].mentions):
        if wanted in {iri.casefold(), node.label.casefold(), *(a.casefold() for a in node.aliases)}:
            return iri
    import difflib

    labels = sorted({n.label for n in projection.nodes.values()})
    close = difflib.get_close_matches(name, labels, n=5, cutoff=0.5)
    close += [label for label in labels if wanted in label.casefold() and label not in close]
    hint = f"; did you mean {', '.join(repr(c) for c in close[:5])}?" if close else ""
    raise InputError(f"no entity named {name!r} in the graph{hint}")


def neighbourhood(projection: EntityGraph, start: str, depth: int) -> EntityGraph:
    """The nodes within ``depth`` edges of ``start`` (edges followed both ways)."""
    adjacent: dict[str, set[str]] = {}
    for e in projection.edges:
        adjacent.setdefault(e.source, set()).add(e.target)
        adjacent.setdefault(e.target, set()).add(e.source)
    seen, frontier = {start: 0}, deque([start])
    while frontier:
        node = frontier.popleft()
        if seen[node] < depth:
            for other in sorted(adjacent.get(node, ())):
                if other not in seen:
                    seen[other] = seen[node] + 1
                    frontier.append(other)
    return projection.restricted(seen)


def filter_types(projection: EntityGraph, types: Iterable[str]) -> EntityGraph:
    """Only nodes whose class is one of ``types`` (local names or prefixed; any case).

    A type no node has is an ``InputError`` naming the graph's types: a typo would otherwise
    give an empty or partial view without a word.
    """
    wanted = {local_name(t.split(":")[-1]).casefold() for t in types for t in t.split(",")
              if t.strip()}
    if not wanted:
        return projection
    known = {n.kind for n in projection.nodes.values()}
    unknown = sorted(wanted - {k.casefold() for k in known})
    if unknown:
        raise InputError(f"no node in the graph has the type {', '.join(map(repr, unknown))}; "
                         f"its types are {', '.join(sorted(known)) or 'none'}", option="types")
    return projection.restricted(k for k, n in projection.nodes.items()
                                 if n.kind.casefold() in wanted)


def construct_projection(store: ox.Store, sparql: str | Path) -> EntityGraph:
    """The view a CONSTRUCT query defines: its IRIs and blank nodes are the nodes, each
    triple between two of them an edge labelled by its predicate; ``rdf:type`` and
    ``rdfs:label`` triples set a node's class and name (else the entity graph's are used).
    """
    text, source = read_query(sparql)
    result = run_query(store, text, source=source)
    if isinstance(result, ox.QueryBoolean | ox.QuerySolutions):
        raise QueryError(f"{source}: a view query must be CONSTRUCT or DESCRIBE")
    known = entity_graph(store).nodes
    triples = list(result)
    labels = {node_id(t.subject): t.object.value for t in triples
              if t.predicate == RDFS_LABEL and isinstance(t.object, ox.Literal)}
    kinds = {node_id(t.subject): local_name(t.object.value) for t in triples
             if t.predicate == RDF_TYPE}
    edges = [(node_id(t.subject), local_name(t.predicate.value), node_id(t.object))
             for t in triples if not isinstance(t.object, ox.Literal) and t.predicate != RDF_TYPE]
    ids = {node_id(t.subject) for t in triples} | {e[2] for e in edges}
    nodes = {i: _construct_node(i, known.get(i), labels, kinds) for i in sorted(ids)}
    merged = merge_edges([Edge(s, o, p, "relation") for s, p, o in edges])
    return EntityGraph(nodes, tuple(merged))


def _construct_node(iri: str, known: Node | None, labels: dict[str, str],
                    kinds: dict[str, str]) -> Node:
    base = known or Node(iri, local_name(iri), "Other")
    return replace(base, label=labels.get(iri, base.label), kind=kinds.get(iri, base.kind))


def with_text(store: ox.Store, projection: EntityGraph) -> EntityGraph:
    """Add the sentences mentioning the view's entities, and their articles, as nodes."""
    nodes, edges = dict(projection.nodes), list(projection.edges)
    for row in select(store, TEXT_MENTIONS):
        entity, sentence = row["e"].value, row["s"].value
        proof = projection.sentences.get(sentence)
        if entity not in projection.nodes or proof is None:
            continue
        if sentence not in nodes:
            nodes[sentence] = Node(sentence, _clip(proof.text, 48), "Sentence",
                                   evidence=(proof,), evidence_total=1)
            edges.append(Edge(sentence, proof.article, "in article", "text"))
        if proof.article not in nodes:
            nodes[proof.article] = Node(proof.article, proof.title, "Article")
        anchor = f" as “{row['anchor'].value}”" if row["anchor"] else ""
        edges.append(Edge(entity, sentence, f"mentioned{anchor}", "text"))
    return EntityGraph(nodes, tuple(merge_edges(edges)), projection.sentences)


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


# -- the page ------------------------------------------------------------------------------

def render(projection: EntityGraph, title: str = "kg view") -> View:
    """The page showing ``projection``: pyvis builds the nodes and edges, kg the page."""
    from pyvis.network import Network

    net = Network(directed=True, cdn_resources="in_line")
    ids = {iri: i for i, iri in enumerate(sorted(projection.nodes))}
    colors = kind_colors(n.kind for n in projection.nodes.values())
    for iri, i in ids.items():
        n = projection.nodes[iri]
        net.add_node(i, label=_clip(n.label, 40), title=_node_tooltip(n), color=colors[n.kind],
                     value=max(n.mentions, 1), kind=n.kind)
    edges = sorted(projection.edges, key=lambda e: (ids[e.source], ids[e.target], e.label))
    for i, e in enumerate(edges):
        style = {k: v for k, v in EDGE_STYLES.get(e.kind, {}).items()
                 if k != "font" or len(edges) <= MAX_EDGE_LABELS}
        net.add_edge(ids[e.source], ids[e.target], id=i, label=_clip(e.label, 40),
                     title=_edge_tooltip(e, projection), value=e.weight,
                     arrows="to" if e.directed else "", **style)
    data = {"nodes": net.nodes, "edges": net.edges, "options": vis_options(len(ids), len(edges)),
            "freeze": len(ids) > BIG,
            "details": {"nodes": [_node_details(projection.nodes[iri]) for iri in ids],
                        "edges": [_edge_details(e, projection) for e in edges]}}
    summary = (f"{len(ids):,} nodes, {len(edges):,} edges. Drag to move, scroll to zoom, "
               "click for details.")
    page = _page(title, summary, legend(projection, colors), data)
    return View(page, len(ids), len(edges))


def kind_colors(kinds: Iterable[str]) -> dict[str, str]:
    """A colour for every class: fixed for the entity classes, a stable pick for the rest.

    >>> kind_colors(["Person", "Claim"])["Person"]
    '#4e79a7'
    """
    colors = {}
    for kind in sorted(set(kinds)):
        digest = int(hashlib.sha256(kind.encode()).hexdigest(), 16)
        colors[kind] = COLORS.get(kind, EXTRA_COLORS[digest % len(EXTRA_COLORS)])
    return colors


def vis_options(nodes: int, edges: int) -> dict[str, Any]:
    """vis-network options tuned by size (see the module docstring)."""
    big = nodes > BIG
    return {
        "nodes": {"shape": "dot", "scaling": {"min": 8, "max": 36},
                  "font": {"size": 14, "strokeWidth": 3, "strokeColor": "#ffffff"}},
        "edges": {"smooth": False, "color": {"color": "#9aa5b1", "highlight": "#323f4b"},
                  "font": {"size": 0 if edges > MAX_EDGE_LABELS else 11, "align": "middle"},
                  "scaling": {"min": 1, "max": 6, "label": {"enabled": False}}},
        # theta 0.9 (coarser Barnes-Hut) and 150 iterations lay out 5,000 nodes ~3x faster
        # than NOTES.md's tuned settings, measured side by side (bench/bench_viz.py)
        "physics": {"solver": "barnesHut",
                    "barnesHut": {"gravitationalConstant": -6000, "springLength": 140,
                                  "springConstant": 0.04, "damping": 0.3,
                                  "theta": 0.9 if big else 0.5,
                                  "avoidOverlap": 0 if big else 0.1},
                    "stabilization": {"iterations": 150 if big else 600, "updateInterval": 25},
                    "minVelocity": 1.0},
        "layout": {"improvedLayout": nodes <= 100, "randomSeed": 7},
        "interaction": {"hover": True, "tooltipDelay": 150, "hideEdgesOnDrag": big,
                        "hideEdgesOnZoom": big},
    }


def legend(projection: EntityGraph, colors: dict[str, str]) -> str:
    """The legend as escaped HTML: a swatch, the class and how many nodes have it."""
    counts: dict[str, int] = {}
    for n in projection.nodes.values():
        counts[n.kind] = counts.get(n.kind, 0) + 1
    items = "".join(
        f'<li><span class="kg-swatch" style="background:{html.escape(colors[kind])}"></span>'
        f"{html.escape(kind)} ({count:,})</li>" for kind, count in sorted(counts.items()))
    return f'<ul class="kg-legend">{items}</ul>'


def _node_tooltip(n: Node) -> str:
    """Plain text (vis-network 9 shows string titles as text, never as HTML)."""
    lines = [f"{n.label} ({n.kind})"]
    if n.aliases:
        lines.append("also: " + ", ".join(n.aliases))
    if n.mentions:
        lines.append(f"{n.mentions} mentions in {n.articles} articles")
    lines += [f"“{_clip(e.text, 160)}” — {e.title}" for e in n.evidence[:2]]
    return "\n".join(lines)


def _edge_tooltip(e: Edge, projection: EntityGraph) -> str:
    names = projection.nodes[e.source].label, projection.nodes[e.target].label
    lines = [f"{names[0]} — {e.label} — {names[1]}", f"{e.kind}, weight {e.weight}"]
    lines += [f"“{_clip(x.text, 160)}” — {x.title}" for x in e.evidence[:2]]
    return "\n".join(lines)


def _node_details(n: Node) -> dict[str, Any]:
    facts = [["Also called", ", ".join(n.aliases)]] if n.aliases else []
    if n.mentions:
        facts += [["Mentions", str(n.mentions)], ["Articles", str(n.articles)]]
    return {"label": n.label, "kind": n.kind, "iri": n.iri, "facts": facts,
            "evidence": _evidence_items(n.evidence),
            "more": max(n.evidence_total - len(n.evidence), 0)}


def _edge_details(e: Edge, projection: EntityGraph) -> dict[str, Any]:
    facts = [["From", projection.nodes[e.source].label], ["To", projection.nodes[e.target].label],
             ["Kind", e.kind], ["Weight", str(e.weight)]]
    return {"label": e.label, "kind": "co-mention" if e.kind == "co-mention" else e.kind,
            "iri": "", "facts": facts, "evidence": _evidence_items(e.evidence),
            "more": max(e.weight - len(e.evidence), 0) if e.kind == "co-mention" else 0}


def _evidence_items(evidence: Iterable[Evidence]) -> list[dict[str, str]]:
    return [{"text": e.text, "title": f"{e.title} ({e.article})"} for e in evidence]


def _page(title: str, summary: str, legend_html: str, data: dict[str, Any]) -> str:
    vis_dir = _pyvis_lib()
    scripts = {"vis_js": (vis_dir / "vis-network.min.js").read_text(encoding="utf-8"),
               "app_js": (PACKAGE_DATA / "view.js").read_text(encoding="utf-8")}
    values = {**scripts, "vis_css": (vis_dir / "vis-network.css").read_text(encoding="utf-8"),
              "title": html.escape(title), "summary": html.escape(summary),
              "legend": legend_html, "data": script_json(data), "csp": _csp(scripts.values())}
    template = (PACKAGE_DATA / "view.html").read_text(encoding="utf-8")
    return _MARKER.sub(lambda m: values[m.group(1)], template)  # inserted text is not rescanned


def script_json(data: Any) -> str:
    """JSON that is safe inside ``<script>``: ``<``, ``>`` and ``&`` escaped, ASCII only.

    >>> script_json({"t": "</script><b>"})
    '{"t": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _csp(scripts: Iterable[str]) -> str:
    """No network at all; only kg's own inline scripts run (by hash), never inline handlers."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in scripts)
    return (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; "
            "img-src data:; font-src data:")


def _pyvis_lib() -> Path:
    import pyvis

    return Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"
