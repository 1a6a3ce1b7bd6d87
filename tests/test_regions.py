"""A dateline's region is a region (issue 36): the name after a dateline place's comma is a
state, province or country, never the city of that name. Invented names only."""

from __future__ import annotations

from kg.heuristics import steps, switched_off
from kg.ingest.files import document_from_text
from kg.model import Entity, EntityKind, Extraction, GeoLink, Mention, Resolution, Sentence
from kg.resolve.regions import REGION_NOTE, is_dateline_region, regions_apart

CITY = GeoLink(1, "Glenshire City", 1.0, 1.0, "XX")
COUNTRY = GeoLink(2, "Glenshire", 1.0, 1.0, "XX", feature="country")
TEXT = ("DUNMORE , Glenshire 1996-08-24\nRain fell in Glenshire .\n"
        "GLENSHIRE 1996-08-25\nShares rose in Glenshire .")


def _resolved(text: str, geo: GeoLink, *others: Entity) -> tuple[Resolution, list[Extraction]]:
    document = document_from_text(text, path="d.txt")
    mentions, start = [], 0
    while (begin := text.casefold().find("glenshire", start)) >= 0:
        name = text[begin : begin + 9]
        mentions.append(Mention(begin, begin + 9, name, name, EntityKind.PLACE, "GPE", 0))
        start = begin + 9
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), tuple(mentions))
    city = Entity("place/glenshire-city", EntityKind.PLACE, "Glenshire City", geo=geo)
    assignments = {(document.doc_id, m.begin, m.end): city.key for m in mentions}
    return Resolution((city, *others), assignments), [extraction]


def _owners(resolution: Resolution) -> list[str]:
    return [key for _ref, key in sorted(resolution.assignments.items())]


def test_the_region_of_a_dateline_leaves_the_city_for_a_place_of_its_own() -> None:
    resolution, extractions = _resolved(TEXT, CITY)
    apart = regions_apart(resolution, extractions)
    assert _owners(apart) == ["place/glenshire"] + ["place/glenshire-city"] * 3
    region = {e.key: e for e in apart.entities}["place/glenshire"]
    assert region.kind is EntityKind.PLACE and region.geo is None
    assert region.geo_note == REGION_NOTE


def test_a_region_that_is_a_country_stays_with_the_country() -> None:
    resolution, extractions = _resolved(TEXT, COUNTRY)
    assert regions_apart(resolution, extractions) is resolution


def test_an_existing_place_of_the_name_takes_the_region_and_a_city_keyed_so_does_not() -> None:
    state = Entity("place/glenshire", EntityKind.PLACE, "Glenshire")
    resolution, extractions = _resolved(TEXT, CITY, state)
    assert _owners(regions_apart(resolution, extractions))[0] == "place/glenshire"
    town = Entity("place/glenshire", EntityKind.PLACE, "Glenshire", geo=CITY)
    resolution, extractions = _resolved(TEXT, CITY, town)
    apart = regions_apart(resolution, extractions)
    assert _owners(apart)[0] == "place/glenshire-region"
    assert len(apart.entities) == 3


def test_only_the_name_after_the_comma_of_a_dateline_is_a_region() -> None:
    assert is_dateline_region(TEXT, 10, 19)
    assert not is_dateline_region(TEXT, 0, 7)  # the place itself
    assert not is_dateline_region(TEXT, 44, 53)  # "in Glenshire"
    assert not is_dateline_region("Rain fell in Dunmore , Glenshire .", 23, 32)


def test_switched_off_the_step_does_not_run() -> None:
    import kg.resolve.resolver  # noqa: F401  (declares the step)

    ids = [s.id for s in steps("resolve.entities")]
    assert "resolve.entities.dateline-region" in ids
    with switched_off(["resolve.entities.dateline-region"]):
        assert "resolve.entities.dateline-region" not in [s.id for s in steps("resolve.entities")]
