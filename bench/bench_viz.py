"""How long a big ``kg viz`` page takes: building it, and laying it out in headless Chromium.

    .venv/bin/python bench/bench_viz.py                 # 5,000 entities, ~10,000 edges
    .venv/bin/python bench/bench_viz.py --nodes 2000

A synthetic graph in kg's data contract (entities mentioned in pairs in sentences, so every
edge is a co-mention) is written to ``bench/work/``, turned into a page with ``kg.views.viz.view``
and opened offline in Debian's Chromium; the layout time is measured in the page, from
creating the network to vis-network's ``stabilizationIterationsDone``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from pathlib import Path

from kg.views.viz import script_json, view

WORK = Path(__file__).resolve().parent / "work"
BASE = "https://w3id.org/kgnews/id/"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
CLASSES = ("Person", "Organization", "Place", "Event")
#: The tuned settings NOTES.md measured (~18 s for 5,000 nodes on an idle machine).
NOTES_OPTIONS = {"edges": {"smooth": False}, "physics": {
    "solver": "barnesHut", "stabilization": {"iterations": 200, "updateInterval": 25}}}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def synthetic_graph(path: Path, nodes: int, edges_per_node: int, seed: int = 0) -> None:
    """N-Quads of ``nodes`` entities and ``nodes * edges_per_node`` two-entity sentences."""
    rng = random.Random(seed)
    lines = []
    for i in range(nodes):
        kind = CLASSES[i % len(CLASSES)]
        entity = f"<{BASE}{kind.lower()}/e{i}>"
        lines.append(f"{entity} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
                     f"<https://schema.org/{kind}> .")
        lines.append(f'{entity} <http://www.w3.org/2000/01/rdf-schema#label> "Entity {i}" .')
    for s in range(nodes * edges_per_node):
        a, b = s % nodes, rng.randrange(nodes)
        lines += _sentence(s, [a, b] if a != b else [a])
    path.write_text("\n".join(lines) + "\n")


def _sentence(number: int, entities: list[int]) -> list[str]:
    article = f"<{BASE}article/a{number // 20}>"
    sentence = f"<{BASE}article/a{number // 20}#sentence={number},{number + 1}>"
    nif = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
    lines = [f"{sentence} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{nif}Sentence> .",
             f"{sentence} <{nif}referenceContext> {article} .",
             f'{sentence} <{nif}anchorOf> "Sentence {number} about {entities}." .',
             f'{sentence} <{nif}beginIndex> "{number}"^^<{XSD_INTEGER}> .']
    for e in entities:
        kind = CLASSES[e % len(CLASSES)].lower()
        mention = f"<{BASE}article/a{number // 20}#char={number},{e}>"
        lines += [f"{mention} <http://www.w3.org/2005/11/its/rdf#taIdentRef> <{BASE}{kind}/e{e}> .",
                  f"{mention} <{nif}sentence> {sentence} .",
                  f"{mention} <{nif}referenceContext> {article} ."]
    return lines


def layout_seconds(page_file: Path, timeout: float = 300.0) -> float:
    """Seconds from creating the network to the end of stabilisation, in headless Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=CHROMIUM_ARGS)
        page = browser.new_context(offline=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(page_file.as_uri())
        deadline = time.monotonic() + timeout
        while page.evaluate("window.kgStabilized === undefined"):
            if time.monotonic() > deadline or errors:
                raise RuntimeError(f"no layout after {timeout} s; page errors: {errors}")
            time.sleep(0.1)
        seconds = page.evaluate("(window.kgStabilized - window.kgStarted) / 1000")
        browser.close()
    return float(seconds)


def with_options(page_file: Path, options: dict, target: Path) -> Path:
    """A copy of a kg page whose vis-network options are replaced by ``options``."""
    page = page_file.read_text()
    block = re.search(r'(<script type="application/json" id="kg-data">)(.*?)(</script>)', page,
                      re.S)
    assert block is not None
    data = json.loads(block.group(2))
    data["options"] = options
    target.write_text(page[:block.start(2)] + script_json(data) + page[block.end(2):])
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--edges-per-node", type=int, default=2)
    parser.add_argument("--baseline", action="store_true",
                        help="also time NOTES.md's settings on the same graph, for a ratio")
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    graph = WORK / f"viz-{args.nodes}.nq"
    synthetic_graph(graph, args.nodes, args.edges_per_node)
    started = time.perf_counter()
    page = view(graph, max_nodes=args.nodes)
    built = time.perf_counter() - started
    page_file = page.save(WORK / f"viz-{args.nodes}.html")
    print(f"view: {page.nodes:,} nodes, {page.edges:,} edges, "
          f"{page_file.stat().st_size / 1e6:.1f} MB page, built in {built:.1f} s")
    ours = layout_seconds(page_file)
    print(f"layout in headless Chromium: {ours:.1f} s")
    if args.baseline:
        notes = layout_seconds(with_options(page_file, NOTES_OPTIONS,
                                            WORK / f"viz-{args.nodes}-notes.html"))
        print(f"same graph with NOTES.md's settings: {notes:.1f} s (kg's: {ours / notes:.2f}x)")


if __name__ == "__main__":
    main()
