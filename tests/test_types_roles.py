"""What a name does shows what it is (issue 12, item 2): a city-named club, a company the
tagger took for a person, and the places, countries and people that must stay as they are."""

from __future__ import annotations

import re

import pytest

from kg.ingest.files import document_from_text
from kg.model import Entity, EntityKind, Extraction, GeoLink, Mention, Resolution, Sentence
from kg.rdf.namespaces import SDO
from kg.rdf.terms import classes_of
from kg.resolve.types import role_cue, with_fine_types


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("Halvorsen striker Tom Ely scored twice.", "Halvorsen", "SportsTeam"),
    ("Halvorsen's manager was sacked.", "Halvorsen", "SportsTeam"),
    ("They beat Halvorsen on Saturday.", "Halvorsen", "SportsTeam"),
    ("a 3-0 win over the Halvorsen side", "Halvorsen", "SportsTeam"),
    ("Halvorsen 2-1 Dunmere", "Halvorsen", "SportsTeam"),
    ("Investors sold shares in Norcast.", "Norcast", "Corporation"),
    ("Norcast's chief executive resigned.", "Norcast", "Corporation"),
    ("Norcast shares fell 5%.", "Norcast", "Corporation"),
    ("Halvorsen chairman Ed Pyle said", "Halvorsen", "Organization"),
    ("Crowds gathered in Halvorsen last night.", "Halvorsen", "Place"),
    ("Halvorsen said it was a good day.", "Halvorsen", None),
])
def test_the_words_around_a_name_say_what_it_does(text: str, name: str,
                                                   expected: str | None) -> None:
    begin = text.index(name)
    assert role_cue(text, begin, begin + len(name)) == expected


def _typed(text: str, label: str, kind: EntityKind, geo: GeoLink | None = None) -> Entity:
    """The entity ``label`` (every occurrence of it a mention) after the class vote."""
    document = document_from_text(text, path="a.txt")
    key = f"{kind.value.lower()}/x"
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(label), text)]
    mentions = tuple(Mention(b, e, label, label, kind, kind.name, 0) for b, e in spans)
    assignments = {(document.doc_id, b, e): key for b, e in spans}
    entity = Entity(key, kind, label, geo=geo)
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), mentions)
    return with_fine_types(Resolution((entity,), assignments), [extraction]).entities[0]


CITY = GeoLink(2, "Halvorsen", 1.0, 1.0, "GB")
COUNTRY = GeoLink(3, "Norland", 1.0, 1.0, "NL", feature="country")


def test_a_city_named_club_becomes_a_sports_team() -> None:
    text = ("Halvorsen striker Tom Ely scored. They beat Halvorsen 2-0 last year. "
            "Halvorsen fans sang. Halvorsen is a city.")
    entity = _typed(text, "Halvorsen", EntityKind.PLACE, CITY)
    assert entity.kind is EntityKind.ORGANIZATION and entity.fine_type == "SportsTeam"
    assert entity.geo is None  # a club has no GeoNames point
    assert classes_of(entity) == (SDO.Organization, SDO.SportsTeam)


def test_a_city_the_articles_show_as_the_place_stays_a_place() -> None:
    text = ("Halvorsen fans sang. They beat Halvorsen. Crowds in Halvorsen cheered. Rain fell "
            "in Halvorsen. Shops near Halvorsen shut. Halvorsen mayor spoke.")
    entity = _typed(text, "Halvorsen", EntityKind.PLACE, CITY)
    assert entity.kind is EntityKind.PLACE and entity.geo == CITY


def test_a_country_stays_a_place_though_its_team_plays() -> None:
    text = "Norland striker Ali Berg scored. They beat Norland 2-0. Norland fans sang."
    entity = _typed(text, "Norland", EntityKind.PLACE, COUNTRY)
    assert entity.kind is EntityKind.PLACE


def test_one_mention_of_several_is_not_enough() -> None:
    entity = _typed("Halvorsen striker Tom Ely scored. Halvorsen is lovely.", "Halvorsen",
                    EntityKind.PLACE, CITY)
    assert entity.kind is EntityKind.PLACE


def test_a_name_written_once_goes_by_that_once() -> None:
    entity = _typed("Figures from consultants Strategy Analytics show it.", "Strategy Analytics",
                    EntityKind.PERSON)
    assert entity.kind is EntityKind.ORGANIZATION and entity.fine_type == "Corporation"


def test_a_company_the_tagger_took_for_a_person_becomes_a_company() -> None:
    text = "Norcast shares fell. Investors sold shares in Norcast. Norcast said it would appeal."
    entity = _typed(text, "Norcast", EntityKind.PERSON)
    assert entity.kind is EntityKind.ORGANIZATION and entity.fine_type == "Corporation"


@pytest.mark.parametrize("text", [
    "Mr Norcast's shares fell. Investors sold shares in Norcast. Norcast spoke.",  # a title
    "Tom Norcast's shares rose. Investors sold shares in Tom Norcast.",  # a given name
])
def test_a_person_written_as_one_stays_a_person(text: str) -> None:
    label = "Tom Norcast" if "Tom Norcast" in text else "Norcast"
    assert _typed(text, label, EntityKind.PERSON).kind is EntityKind.PERSON


@pytest.mark.parametrize(("text", "label"), [
    ("Conchita Martinez beat Helena Sukova 6-4 6-3 in Toronto.", "Helena Sukova"),
    ("Bowling : S. Waugh 5-1-22-0 , T. Moody 6-82 .", "T. Moody"),
    ("They beat T. Moody's men. T. Moody 6-82 .", "T. Moody"),
])
def test_a_full_name_or_an_initial_in_sport_stays_a_person(text: str, label: str) -> None:
    """People beat people and bowl figures: one such cue makes no team of a full name, and an
    initial is never a team's."""
    assert _typed(text, label, EntityKind.PERSON).kind is EntityKind.PERSON


@pytest.mark.parametrize(("text", "name", "team"), [
    ("Bradford 1 Tranmere 0", "Tranmere", True),
    ("Bradford 1 Tranmere 0", "Bradford", True),
    ("CHICAGO 71 64 .526 10", "CHICAGO", True),
    ("MOSCOW 1996-08-30", "MOSCOW", False),
    ("Talks in Bradford 1 day after", "Bradford", False),
])
def test_a_side_in_a_row_of_results_or_standings_is_a_team(text: str, name: str,
                                                           team: bool) -> None:
    begin = text.index(name)
    assert (role_cue(text, begin, begin + len(name)) == "SportsTeam") is team


def test_a_nation_the_tables_do_not_hold_stays_a_place_though_its_team_plays() -> None:
    text = "England captain Ali Berg scored. They beat England 2-0. England fans sang."
    assert _typed(text, "England", EntityKind.PLACE).kind is EntityKind.PLACE


@pytest.mark.parametrize(("text", "kind"), [
    pytest.param("Paris-based Norcast bid. Norcast, which runs two exchanges, said no.",
                 EntityKind.ORGANIZATION, id="based-and-which"),
    pytest.param("Ed Pyle, commercial director at Norcast, said so.",
                 EntityKind.ORGANIZATION, id="a-post-at-it"),
    pytest.param("Crowds cheered the Norcast. The Norcast were on song.",
                 EntityKind.ORGANIZATION, id="the-name-closing-its-phrase"),
    pytest.param("Norcast said it was over. Norcast said it would go.", EntityKind.PERSON,
                 id="said-it-is-no-cue"),
    pytest.param("He starred in Day of the Norcast. The Norcast family met.",
                 EntityKind.PERSON, id="the-inside-a-longer-name-or-before-a-noun"),
    pytest.param("A lab in Norcast, which is on the coast, opened. Norcast grew.",
                 EntityKind.PERSON, id="a-place-before-which-is-no-organisation"),
    pytest.param("Mr Norcast, which was odd, left. Paris-based Norcast stayed.",
                 EntityKind.PERSON, id="a-title-keeps-a-person"),
])
def test_a_one_word_person_written_as_no_person_is_an_organisation(
        text: str, kind: EntityKind) -> None:
    """The tagger's one-word "person" written as no person is — "the X" closing its phrase,
    "X, which", "Paris-based X", "director at X" — is an organisation (two such mentions, or
    its only one); "X said it …" is no such cue, nor "the" inside a longer name."""
    assert _typed(text, "Norcast", EntityKind.PERSON).kind is kind


def test_a_family_by_its_plural_surname_stays_people() -> None:
    text = "Dan Norcast spoke. The Norcasts said so. The Norcasts were there."
    document = document_from_text(text, path="a.txt")
    spans = [(m.start(), m.end()) for m in re.finditer(r"Norcasts|Dan Norcast", text)]
    keys = {b: ("person/dan" if text[b:e] == "Dan Norcast" else "person/norcasts")
            for b, e in spans}
    mentions = tuple(Mention(b, e, text[b:e], text[b:e], EntityKind.PERSON, "PERSON", 0)
                     for b, e in spans)
    resolution = Resolution(
        (Entity("person/dan", EntityKind.PERSON, "Dan Norcast"),
         Entity("person/norcasts", EntityKind.PERSON, "Norcasts")),
        {(document.doc_id, b, e): keys[b] for b, e in spans})
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), mentions)
    typed = with_fine_types(resolution, [extraction])
    assert typed.entity("person/norcasts").kind is EntityKind.PERSON
