"""Resolution of the seed articles (the issue's "done when") and stable IRIs on a rebuild."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from kg.model import Entity, EntityKind, Resolution
from kg.resolve.names import comparison_tokens, near_spelling

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

FOURTH_ARTICLE = """\
KYIV, May 20 - Ukrainian President Volodymyr Zelensky said on Friday that the last defenders
of the Azovstal steel plant in Mariupol had been ordered to save their lives.

The International Committee of the Red Cross said it had registered hundreds of prisoners of
war. The ICRC did not say where they were taken.

Russian Defence Ministry spokesman Igor Konashenkov said 2,439 fighters had surrendered since
Monday. President Vladimir Putin has not commented. Zelensky said talks with Moscow were frozen.

Heavy fighting was reported around Sievierodonetsk and in Kharkiv, Ukraine's second city.
"""


def entities_with(resolution: Resolution, form: str) -> list[Entity]:
    return [e for e in resolution.entities if form in (e.label, *e.alt_labels)]


def articles_of(resolution: Resolution, key: str) -> set[str]:
    return {doc for (doc, _b, _e), k in resolution.assignments.items() if k == key}


@pytest.fixture(scope="module")
def resolution(seed_corpus: Any) -> Resolution:
    return seed_corpus.resolution


def test_putin_is_one_entity_in_all_three_articles(resolution: Resolution) -> None:
    [putin] = entities_with(resolution, "Vladimir Putin")
    assert putin.kind is EntityKind.PERSON and "Putin" in putin.alt_labels
    assert entities_with(resolution, "Putin") == [putin]
    assert len(articles_of(resolution, putin.key)) == 3


def test_azovstal_is_one_entity_across_the_articles_naming_it(resolution: Resolution) -> None:
    [plant] = entities_with(resolution, "Azovstal")
    assert {"Azovstal steel works", "Azovstal steelworks"} <= set(plant.alt_labels)
    assert len(articles_of(resolution, plant.key)) == 2


def test_russian_defence_ministry_is_one_entity_across_spellings(resolution: Resolution) -> None:
    [ministry] = entities_with(resolution, "defence ministry")
    assert entities_with(resolution, "Russian Defense Ministry") == [ministry]
    assert len(articles_of(resolution, ministry.key)) == 2


def test_red_cross_committee_is_one_entity(resolution: Resolution) -> None:
    [committee] = entities_with(resolution, "International Committee of the Red Cross")
    assert entities_with(resolution, "ICRC") == entities_with(resolution, "Red Cross") == [
        committee]


def test_mariupol_is_a_place_linked_to_geonames(resolution: Resolution) -> None:
    [mariupol] = entities_with(resolution, "Mariupol")
    assert mariupol.kind is EntityKind.PLACE and mariupol.geo is not None
    assert mariupol.geo.geonames_id == 701822
    assert (round(mariupol.geo.latitude, 1), round(mariupol.geo.longitude, 1)) == (47.1, 37.5)


@pytest.mark.parametrize(("form", "kind"), [("Kyiv", EntityKind.PLACE),
                                           ("Kharkiv", EntityKind.PLACE),
                                           ("Zaporizhzhia", EntityKind.PLACE),
                                           ("Palamar", EntityKind.PERSON),
                                           ("Crimea", EntityKind.PLACE)])
def test_small_model_class_errors_are_corrected(resolution: Resolution, form: str,
                                                kind: EntityKind) -> None:
    [entity] = entities_with(resolution, form)
    assert entity.kind is kind


def test_demonyms_are_not_places(resolution: Resolution) -> None:
    assert entities_with(resolution, "Ukrainian") == []


def test_no_two_different_people_share_an_entity(resolution: Resolution) -> None:
    for person in (e for e in resolution.entities if e.kind is EntityKind.PERSON):
        full = {comparison_tokens(f) for f in (person.label, *person.alt_labels)}
        full = {f for f in full if len(f) > 1}
        assert all(len(a) == len(b) and all(map(near_spelling, a, b))
                   for a in full for b in full), person


def test_republic_and_city_stay_apart(resolution: Resolution) -> None:
    [republic] = entities_with(resolution, "Donetsk People's Republic")
    assert republic.alt_labels == () and republic.geo is None


@pytest.mark.slow
def test_adding_an_article_keeps_every_iri(tmp_path: Path, nlp: Any) -> None:
    from rdflib import Graph, Literal, URIRef
    from rdflib.namespace import OWL, SKOS

    from kg.build.corpus import build_corpus
    from kg.config import Settings

    corpus, out = tmp_path / "articles", tmp_path / "out"
    shutil.copytree(SEEDS, corpus)
    settings = Settings(out_dir=out)
    base = settings.base_iri

    def entity_iris() -> tuple[set[str], Graph]:
        build_corpus([corpus], settings, formats=("ttl",), nlp=nlp)
        graph = Graph().parse(out / "graph.ttl")
        kinds = {f"{base}{k.value.lower()}/" for k in EntityKind}
        iris = {str(s) for s in graph.subjects() if any(str(s).startswith(k) for k in kinds)}
        return iris, graph

    before, _ = entity_iris()
    (corpus / "003_fourth.txt").write_text(FOURTH_ARTICLE, encoding="utf-8")
    after, graph = entity_iris()
    aliases = {str(s) for s in graph.subjects(OWL.sameAs)}
    assert before and before <= after | aliases
    zelenskiy = URIRef(f"{base}person/volodymyr-zelenskiy")  # "Zelensky" joined the old IRI
    assert Literal("Volodymyr Zelensky") in set(graph.objects(zelenskiy, SKOS.altLabel))
