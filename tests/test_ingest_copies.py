"""Syndicated copies in a built graph: linked with kg:copyOf, counted once (docs/formats.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kg.api import query
from kg.build.corpus import build_corpus
from kg.config import Settings
from kg.store.embedded import open_store
from kg.views.analytics import graph_statistics

WIRE = [
    "Negotiators from the port authority and the dockworkers' union met again in Rotterdam on "
    "Monday, a week after talks over pay collapsed.",
    "The port authority's chief executive, Ingrid Halvorsen, said 214 vessels were waiting "
    "outside the port of Rotterdam on Sunday evening.",
    "Union leader Tomas Reyes said the two sides had agreed to a timetable for the next three "
    "days of talks in the harbour offices.",
    "Shipping companies have warned that the delays are raising costs for importers across the "
    "region, and several lines have diverted ships to other ports.",
    "The authority said the backlog would take at least a fortnight to clear once work resumes, "
    "and that extra crews had been hired for night shifts.",
    "Talks are due to continue on Wednesday morning, both sides said in a joint statement.",
]
OTHER = ("Officials said 180 vessels were waiting outside the port of Rotterdam on Sunday "
         "evening. The port "
         "authority's chief executive, Ingrid Halvorsen, said the harbour in Rotterdam has been "
         "closed for two weeks.")


def write(folder: Path, name: str, date: str, paragraphs: list[str]) -> None:
    body = "\n\n".join(paragraphs)
    (folder / name).write_text(f"---\ndate: {date}\nsource: {name}\n---\n{body}\n")


@pytest.fixture(scope="module")
def copies_build(tmp_path_factory: pytest.TempPathFactory, nlp: Any) -> Path:
    articles = tmp_path_factory.mktemp("copies-in")
    write(articles, "a_wire.txt", "2024-03-04", WIRE)
    write(articles, "b_outlet.txt", "2024-03-05",
          ["From our correspondents in the north.", *WIRE[1:-1],
           "Read more of our coverage of the strike on our website."])
    # the same evening in a report of the same day: a conflict (a later report would be an update)
    write(articles, "c_other.txt", "2024-03-04", [OTHER])
    out = tmp_path_factory.mktemp("copies-out")
    build_corpus([articles], Settings(out_dir=out, cache=False), nlp=nlp)
    return out / "graph.trig"


def test_copy_is_linked_to_its_original_and_keeps_its_graph(copies_build: Path) -> None:
    rows = query(copies_build, "SELECT ?copy ?original ?g WHERE { GRAPH ?g { "
                 "?copy kg:copyOf ?original } }")
    assert [(r["copy"].split("/")[-1], r["original"].split("/")[-1]) for r in rows] == [
        ("b-outlet", "a-wire")]
    assert str(rows[0]["g"]).endswith("graph/article/b-outlet")
    mentions = query(copies_build, "SELECT (COUNT(*) AS ?n) WHERE { ?m nif:referenceContext "
                     "<https://w3id.org/kgnews/id/article/b-outlet> ; itsrdf:taIdentRef ?e }")
    assert int(mentions[0]["n"]) > 0  # the copy keeps its own evidence


def test_entities_across_articles_counts_independent_sources(copies_build: Path) -> None:
    rows = {r["name"]: r for r in query(copies_build, "entities-across-articles")}
    halvorsen = rows["Ingrid Halvorsen"]
    assert int(halvorsen["articles"]) == 2  # the wire story and the other article
    assert halvorsen["copies"].endswith("article/b-outlet")
    assert "Tomas Reyes" not in rows  # only in the wire story and its copy: one source


def test_claims_list_a_copied_claim_once_with_its_copies(copies_build: Path) -> None:
    rows = [r for r in query(copies_build, "claims") if "214 vessels" in r["text"]]
    assert len(rows) == 1
    assert rows[0]["article"].endswith("article/a-wire")
    assert rows[0]["copies"].endswith("article/b-outlet")


def test_stats_rank_by_independent_articles_and_list_copies(copies_build: Path) -> None:
    stats = graph_statistics(open_store(copies_build))
    counts = {r.label: r.score for r in stats.by_articles}
    assert counts["Ingrid Halvorsen"] == 2 and counts["Tomas Reyes"] == 1
    assert [(c.split("/")[-1], o.split("/")[-1]) for c, o in stats.copies.items()] == [
        ("b-outlet", "a-wire")]
    assert "b-outlet  copy of a-wire" in stats.to_text()


def test_conflicting_figures_list_a_copied_figure_once(copies_build: Path) -> None:
    rows = [r for r in query(copies_build, "conflicting-figures") if "vessel" in r["measure"]]
    assert {r["status"] for r in rows} == {"conflict"}  # the copy's later date is no update
    assert sorted((r["article"].split("/")[-1], int(r["value"])) for r in rows) == [
        ("a-wire", 214), ("c-other", 180)]
    wire = next(r for r in rows if r["article"].endswith("a-wire"))
    assert wire["copies"].endswith("article/b-outlet")
