"""The views in a real browser: Debian's headless Chromium, offline, driven by playwright.

Each page must draw with no script errors, hold exactly the nodes and edges of its view, and
show article markup as text: a payload that sets ``window.__pwned`` must never run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kg.api import build_graph
from kg.views.viz import View, view
from tests.graphs import MALLORY, PAYLOAD_NAME, PAYLOAD_SENTENCE, synthetic_store

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_ARTICLE = (
    'Officials said <img src=x onerror="window.__pwned=1"> Vladimir Putin met Emmanuel '
    "Macron in Paris on Monday.\n\n"
    '"<script>window.__pwned=1</script>" said Olaf Scholz in Berlin on Tuesday, '
    "according to Reuters.\n"
)


class Loaded:
    """A page opened offline, with the script errors it raised."""

    def __init__(self, browser: Any, page_file: Path) -> None:
        self.context = browser.new_context(offline=True, viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(page_file.as_uri())
        deadline = time.monotonic() + 60
        # page.evaluate runs outside the page's CSP (wait_for_function would need eval)
        while self.page.evaluate("window.kgStabilized === undefined"):
            assert time.monotonic() < deadline, "the graph never finished its layout"
            time.sleep(0.05)

    def counts(self) -> tuple[int, int]:
        return tuple(self.page.evaluate(  # type: ignore[return-value]
            "[network.body.data.nodes.length, network.body.data.edges.length]"))

    def click_node(self, node_id: int) -> str:
        """Click a node on the canvas; return the text of the details panel."""
        point = self.page.evaluate(
            f"network.canvasToDOM(network.getPositions([{node_id}])[{node_id}])")
        box = self.page.locator("#mynetwork").bounding_box()
        self.page.mouse.click(box["x"] + point["x"], box["y"] + point["y"])
        text = str(self.page.inner_text("#kg-panel"))
        return "\n".join(line for line in text.splitlines() if line.strip())

    def pwned(self) -> Any:
        return self.page.evaluate("window.__pwned")


def save(page: View, folder: Path, name: str) -> Path:
    return page.save(folder / name)


def node_id(page: Loaded, iri: str) -> int:
    ids = page.page.evaluate("network.body.data.nodes.getIds()")
    details = page.page.evaluate("JSON.parse(document.getElementById('kg-data').textContent)")
    return next(i for i in ids if details["details"]["nodes"][i]["iri"] == iri)


def test_seed_view_renders_offline_with_every_node_and_edge(browser, seed_build: Path,
                                                            tmp_path: Path) -> None:
    page = view(seed_build / "graph.trig", focus="Vladimir Putin", depth=2,
                title="kg view of the seed articles: Vladimir Putin, 2 steps around")
    loaded = Loaded(browser, save(page, tmp_path, "seed.html"))
    assert loaded.errors == []
    assert loaded.counts() == (page.nodes, page.edges) and page.nodes > 1
    panel = loaded.click_node(node_id(loaded, "https://w3id.org/kgnews/id/person/vladimir-putin"))
    assert panel.splitlines()[:2] == ["Vladimir Putin", "Person"] and "\nEvidence\n" in panel
    (ROOT / "output").mkdir(exist_ok=True)
    loaded.page.screenshot(path=str(ROOT / "output" / "seed-view.png"))


def test_markup_in_names_and_sentences_shows_as_text(browser, tmp_path: Path) -> None:
    page = view(synthetic_store())
    loaded = Loaded(browser, save(page, tmp_path, "synthetic.html"))
    assert loaded.errors == [] and loaded.counts() == (page.nodes, page.edges)
    panel = loaded.click_node(node_id(loaded, MALLORY))
    assert panel.splitlines()[:2] == [PAYLOAD_NAME, "Person"] and PAYLOAD_SENTENCE in panel
    loaded.page.hover("#mynetwork")
    assert loaded.page.locator("#kg-panel img, #kg-panel script").count() == 0
    assert loaded.pwned() is None


def test_a_hostile_article_builds_and_its_view_runs_no_payload(browser, nlp: Any,
                                                                tmp_path: Path) -> None:
    graph = build_graph([HOSTILE_ARTICLE], nlp=nlp)
    page = view(graph, show_text=True)
    loaded = Loaded(browser, save(page, tmp_path, "hostile.html"))
    assert loaded.errors == [] and loaded.counts() == (page.nodes, page.edges)
    details = loaded.page.evaluate("JSON.parse(document.getElementById('kg-data').textContent)")
    shown = " ".join(e["text"] for n in details["details"]["nodes"] for e in n["evidence"])
    assert "<script>window.__pwned=1</script>" in shown and "onerror=" in shown
    sentence = next(i for i, n in enumerate(details["details"]["nodes"])
                    if n["kind"] == "Sentence" and "<script>" in n["evidence"][0]["text"])
    assert "<script>window.__pwned=1</script>" in loaded.click_node(sentence)
    assert loaded.pwned() is None
