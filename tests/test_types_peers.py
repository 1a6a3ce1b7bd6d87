"""A name's class from the list it stands in (``resolve.class.list-peers``), and a full name
the tagger called a person kept one unless half its mentions play as a team
(``resolve.class.full-name-team``)."""

from __future__ import annotations

import re

import pytest

from kg.heuristics import switched_off
from kg.ingest.files import document_from_text
from kg.model import Entity, EntityKind, Extraction, GeoLink, Mention, Resolution, Sentence
from kg.resolve.types import with_fine_types

ORG, PERSON, PLACE = EntityKind.ORGANIZATION, EntityKind.PERSON, EntityKind.PLACE
CITY = GeoLink(2, "Halvorsen", 1.0, 1.0, "GB")


def _classes(text: str, names: dict[str, EntityKind],
             geo: dict[str, GeoLink] | None = None) -> dict[str, EntityKind]:
    """Each name's class after the class vote, every occurrence of a name a mention of it."""
    document = document_from_text(text, path="a.txt")
    mentions, assignments, entities = [], {}, []
    for label, kind in names.items():
        key = f"{kind.value.lower()}/{label.lower().replace(' ', '-')}"
        entities.append(Entity(key, kind, label, geo=(geo or {}).get(label)))
        for found in re.finditer(rf"\b{re.escape(label)}\b", text):
            mentions.append(Mention(found.start(), found.end(), label, label, kind, kind.name, 0))
            assignments[(document.doc_id, found.start(), found.end())] = key
    mentions.sort(key=lambda m: m.begin)
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), tuple(mentions))
    resolved = with_fine_types(Resolution(tuple(entities), assignments), [extraction])
    return {e.label: e.kind for e in resolved.entities}


BROADCASTERS = {"Bloomberg": PERSON, "BBC": ORG, "BSkyB": ORG}
LISTED = "Yahoo was adding captions for Bloomberg, BBC and BSkyB broadcasts."


def test_a_person_in_a_list_of_organisations_is_one() -> None:
    assert _classes(LISTED, BROADCASTERS)["Bloomberg"] is ORG
    with switched_off({"resolve.class.list-peers"}):
        assert _classes(LISTED, BROADCASTERS)["Bloomberg"] is PERSON


def test_a_list_with_a_the_and_a_comma_before_and() -> None:
    text = "It indexed programmes from PBS, the NBA, Fox News, and C-SPAN since December."
    names = {"PBS": ORG, "NBA": ORG, "Fox News": PERSON, "C-SPAN": ORG}
    assert _classes(text, names)["Fox News"] is ORG


def test_an_unknown_place_in_a_list_of_bands_is_an_organisation() -> None:
    text = "The stage will host Kasabian, Black Rebel Motorcycle Club and Bloc Party."
    names = {"Kasabian": PLACE, "Black Rebel Motorcycle Club": ORG, "Bloc Party": ORG}
    assert _classes(text, names)["Kasabian"] is ORG


@pytest.mark.parametrize(("text", "names", "geo", "name", "kind"), [
    # one other name is no list
    ("Captions for Bloomberg and BBC broadcasts.", {"Bloomberg": PERSON, "BBC": ORG}, None,
     "Bloomberg", PERSON),
    # the other names disagree
    ("Bloomberg, BBC and Leeds were named.", {"Bloomberg": PERSON, "BBC": ORG, "Leeds": PLACE},
     None, "Bloomberg", PERSON),
    # a given name is a person's
    ("Tom Norcast, BBC and BSkyB agreed.", {"Tom Norcast": PERSON, "BBC": ORG, "BSkyB": ORG},
     None, "Tom Norcast", PERSON),
    # a place GeoNames knows stays the place
    ("Fans of Halvorsen, Acme FC and Bolt United.",
     {"Halvorsen": PLACE, "Acme FC": ORG, "Bolt United": ORG}, {"Halvorsen": CITY},
     "Halvorsen", PLACE),
    # most of its mentions stand in no list
    ("Bloomberg said so. Bloomberg wrote. Captions for Bloomberg, BBC and BSkyB.",
     BROADCASTERS, None, "Bloomberg", PERSON),
])
def test_a_list_changes_no_class_without_its_evidence(
        text: str, names: dict[str, EntityKind], geo: dict[str, GeoLink] | None, name: str,
        kind: EntityKind) -> None:
    assert _classes(text, names, geo)[name] is kind


PLAYER = ("Serena Williams beat Lindsay Davenport in the final. Lindsay Davenport 2-6 "
          "Serena Williams. Lindsay Davenport paid tribute. Lindsay Davenport had led. "
          "Lindsay Davenport will play in Paris.")


def test_a_full_name_beaten_twice_in_five_mentions_stays_a_person() -> None:
    names = {"Lindsay Davenport": PERSON, "Serena Williams": PERSON}
    assert _classes(PLAYER, names)["Lindsay Davenport"] is PERSON
    with switched_off({"resolve.class.full-name-team"}):
        assert _classes(PLAYER, names)["Lindsay Davenport"] is ORG


def test_a_full_name_that_mostly_plays_is_a_team() -> None:
    text = "They beat Acme Rovers 2-0. Acme Rovers 1 Bolt 3. Acme Rovers striker Tom Ely left."
    assert _classes(text, {"Acme Rovers": PERSON})["Acme Rovers"] is ORG


def test_a_name_after_an_occupation_is_a_person() -> None:
    text = "The awards were hosted by hip-hop artist Xzibit in Rome."
    assert _classes(text, {"Xzibit": ORG})["Xzibit"] is PERSON
    with switched_off({"resolve.class.occupation-before"}):
        assert _classes(text, {"Xzibit": ORG})["Xzibit"] is ORG


@pytest.mark.parametrize(("text", "name", "kind", "geo"), [
    # an occupation a firm holds too
    ("New owner Yeahronimo Media Ventures has plans.", "Yeahronimo Media Ventures", ORG, None),
    # one mention of three
    ("The singer Norcast left. Norcast shares fell. Norcast said it would appeal.", "Norcast", ORG,
     None),
    # what an organisation does
    ("The singer Norcast left. Investors sold shares in Norcast.", "Norcast", ORG, None),
    # a place GeoNames knows
    ("The singer Halvorsen performed.", "Halvorsen", PLACE, CITY),
])
def test_an_occupation_before_a_name_needs_its_evidence(
        text: str, name: str, kind: EntityKind, geo: GeoLink | None) -> None:
    assert _classes(text, {name: kind}, {name: geo} if geo else None)[name] is kind
