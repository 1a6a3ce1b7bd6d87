"""Finer classes from the text's own words (issue 12, item 2): the cues, the vote across an
entity's mentions, and the classes the graph then writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib.namespace import RDF

from kg.model import EntityKind, GeoLink
from kg.rdf.namespaces import KG, SDO, SDO_RECENT
from kg.rdf.terms import FINE_CLASSES, classes_of
from kg.resolve.types import ORGANIZATION_LISTS, PRODUCT_LISTS, cues_in, with_fine_types
from kg.resources import PACKAGE_DIR
from kg.views.validate import read_graph
from tests.typing_corpus import one_article


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("Shares in the carmaker Voltaro fell.", "Voltaro", "Corporation"),
    ("Brightwell Holdings said profits rose.", "Brightwell Holdings", "Corporation"),
    ("Norland, the country's largest bank, said.", "Norland", "Corporation"),
    ("The Interior Ministry said.", "Interior Ministry", "GovernmentOrganization"),
    ("The Ministry of Fisheries said.", "Ministry of Fisheries", "GovernmentOrganization"),
    ("the Green Unity party leader resigned", "Green Unity", "PoliticalParty"),
    ("Fenwick, the opposition party, won.", "Fenwick", "PoliticalParty"),
    ("the 3rd Rifle Brigade advanced", "3rd Rifle Brigade", "ArmedForces"),
    ("The Constitutional Court ruled.", "Constitutional Court", "Court"),
    ("the newspaper Dagblad reported", "Dagblad", "NewsMediaOrganization"),
    ("the Eastbridge Herald reported", "Eastbridge Herald", "NewsMediaOrganization"),
    ("Championship side Harwick won.", "Harwick", "SportsTeam"),
    ("rights group Lumen was closed", "Lumen", "NGO"),
    ("Coldwater University said", "Coldwater University", "EducationalOrganization"),
    ("the Zirkon hypersonic missile was fired", "Zirkon", "Weapon"),
    ("the Tallis missile test failed", "Tallis", "Weapon"),
    ("The Varna cruiser sank.", "Varna", "Vehicle"),
    ("the Ostrava vaccine was approved", "Ostrava", "Product"),
])
def test_the_articles_words_name_the_class(text: str, name: str, expected: str) -> None:
    begin = text.index(name)
    assert cues_in(text, begin, begin + len(name)) == [expected]


@pytest.mark.parametrize(("text", "name"), [
    ("a Brightwell post said", "Brightwell"),  # a post on a site is no newspaper
    ("the Brightwell team said", "Brightwell"),  # any organisation has a team
    ("the Dunmore tank factory was hit", "Dunmore"),  # "tank" only modifies "factory"
    ("the Dunmore drug cartel", "Dunmore"),
    ("Dunmore said on Monday", "Dunmore"),
    ("the Ukrainian army, Dunmore said", "Dunmore"),
    ("evidence to a Harwick League commission, but", "Harwick League commission"),
    ("the Association of Northern Airlines said", "Association of Northern Airlines"),
    ("planting the Dunmore bombs which killed seven", "Dunmore"),  # whose bombs, not a model
    ("rebels seized the Dunmore guns", "Dunmore"),
])
def test_words_that_say_nothing_about_the_name_give_no_class(text: str, name: str) -> None:
    begin = text.index(name)
    assert cues_in(text, begin, begin + len(name)) == []


def test_every_class_has_its_word_list_and_rdf_class() -> None:
    data = PACKAGE_DIR / "lexicon" / "data"
    for cls, name in {**ORGANIZATION_LISTS, **PRODUCT_LISTS}.items():
        lines = (data / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# ") and len(lines) > 3, name
        assert cls in FINE_CLASSES, cls
    assert FINE_CLASSES["PoliticalParty"] == SDO_RECENT.PoliticalParty
    assert FINE_CLASSES["Weapon"] == KG.Weapon


def _known_only(name: str, key: str, kind: EntityKind) -> GeoLink | None:
    """GeoNames knows "Known" (a place whose cue must not make it a product), no other."""
    return GeoLink(1, name, 1.0, 1.0, "XX") if key == "place/known" else None


def test_the_vote_types_entities_and_a_product_keeps_only_its_class() -> None:
    text = ("The Kestrel intercontinental ballistic missile was tested. Officials praised "
            "Kestrel. The carmaker Voltaro and Voltaro Motors said. Ana Ruiz, the company "
            "founder, spoke. Known tank crews waited.")
    resolution, extractions = one_article(text, [
        ("Kestrel", EntityKind.PLACE, "place/kestrel"),
        ("Voltaro", EntityKind.ORGANIZATION, "organization/voltaro"),
        ("Voltaro Motors", EntityKind.ORGANIZATION, "organization/voltaro"),
        ("Ana Ruiz", EntityKind.PERSON, "person/ana-ruiz"),
        ("Known", EntityKind.PLACE, "place/known"),
    ], _known_only)
    typed = {e.key: e for e in with_fine_types(resolution, extractions).entities}
    assert typed["place/kestrel"].fine_type == "Weapon"
    assert classes_of(typed["place/kestrel"]) == (KG.Weapon,)  # no longer a place
    assert typed["place/kestrel"].geo_note is None
    assert typed["organization/voltaro"].fine_type == "Corporation"
    assert classes_of(typed["organization/voltaro"]) == (SDO.Organization, SDO.Corporation)
    assert typed["person/ana-ruiz"].fine_type is None  # people are never retyped
    assert typed["place/known"].fine_type is None  # a place GeoNames knows is no product


def test_the_seed_graph_types_a_government_body(seed_build: Path) -> None:
    graph = read_graph(seed_build / "graph.ttl")
    bodies = set(graph.subjects(RDF.type, SDO.GovernmentOrganization))
    ministries = [b for b in bodies if "/organization/" in str(b) and "ministry" in str(b)]
    assert ministries, bodies
    assert all((b, RDF.type, SDO.Organization) in graph for b in ministries)
