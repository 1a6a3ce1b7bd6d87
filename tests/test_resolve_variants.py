"""One real thing under its variant names (issue 36, item 2): a party with and without its
head word, plurals, abbreviations and well-known aliases joined once classes are known; a club
named as its town keeps only the mentions that read as the club; and the class and fragment
rules around them (issue 36, item 3). Invented names, but for GeoNames' own cities where a rule
asks GeoNames, and the aliases the data file holds."""

from __future__ import annotations

from collections import Counter

import pytest

from kg.heuristics import switched_off
from kg.ingest.files import document_from_text
from kg.model import Entity, EntityKind, Extraction, Mention, Resolution, Sentence
from kg.resolve.clubs import towns_from_clubs
from kg.resolve.corpus_names import CorpusWords
from kg.resolve.types import with_fine_types
from kg.resolve.variants import join_variants, variant_keys

ORG, PERSON, PLACE = EntityKind.ORGANIZATION, EntityKind.PERSON, EntityKind.PLACE


@pytest.mark.parametrize(("name", "party", "keys"), [
    ("the Labour Party", True, {("labour", "party"): "name", ("labour",): "party"}),
    ("Labour Party", False, {("labour", "party"): "name"}),
    ("Liberal Democrats", False, {("liberal", "democrats"): "name",
                                  ("liberal", "democrat"): "plural"}),
    ("Tories", False, {("tories",): "name", ("tory",): "word-plural",
                       ("conservative", "party"): "alias", ("conservative",): "alias"}),
    ("Times", False, {("times",): "name", ("time",): "word-plural"}),
])
def test_variant_keys(name: str, party: bool, keys: dict[tuple[str, ...], str]) -> None:
    assert variant_keys(name, party) == keys


def _resolution(*entities: tuple[Entity, int]) -> Resolution:
    """Entities with as many mentions each (one article apiece)."""
    assignments = {(f"d{i}", k, k + 1): entity.key
                   for i, (entity, n) in enumerate(entities) for k in range(n)}
    return Resolution(tuple(e for e, _n in entities), assignments)


def _owners(resolution: Resolution) -> dict[str, str]:
    """Each original article's entity key (one article per original entity)."""
    return {doc: key for (doc, _b, _e), key in sorted(resolution.assignments.items())}


def _org(key: str, label: str, fine: str | None = None, *alts: str,
         kind: EntityKind = ORG) -> Entity:
    return Entity(key, kind, label, alt_labels=alts, fine_type=fine)


def test_a_party_is_one_thing_under_its_names() -> None:
    labour = _org("organization/labour", "Labour")  # a word of institutions, but a party's
    party = _org("organization/labour-2", "Labour", "PoliticalParty", "Labour Party")
    new = _org("organization/labour-3", "New Labour")
    resolution = join_variants(_resolution((labour, 20), (party, 5), (new, 3)))
    assert set(_owners(resolution).values()) == {"organization/labour"}
    (kept,) = resolution.entities
    assert kept.label == "Labour" and set(kept.alt_labels) == {"Labour Party", "New Labour"}
    rules = {d.rule for d in resolution.decisions}
    assert rules == {"variant-same-name", "variant-alias"}


def test_the_entity_with_most_mentions_keeps_its_key_and_earlier_keys_stay_aliases() -> None:
    lib = _org("organization/lib-dems", "Lib Dems", "PoliticalParty")
    full = _org("organization/liberal-democrats", "Liberal Democrats", "PoliticalParty")
    resolution = join_variants(_resolution((lib, 2), (full, 9)),
                               frozenset({"organization/lib-dems"}))
    (kept,) = resolution.entities
    assert kept.key == "organization/liberal-democrats"
    assert kept.aliases == ("organization/lib-dems",)
    # a short form or the singular never labels the thing, however often it is written
    one = _org("organization/liberal-democrat", "Liberal Democrat", "PoliticalParty")
    (kept,) = join_variants(_resolution((lib, 9), (one, 7), (full, 2))).entities
    assert kept.label == "Liberal Democrats"
    assert [d.rule for d in resolution.decisions] == ["variant-abbreviation"]


def test_a_name_another_thing_holds_among_its_labels_joins_them() -> None:
    short = _org("organization/bcc", "BCC", None, "British Chambers of Commerce")
    full = _org("organization/british-chambers-of-commerce", "British Chambers of Commerce")
    resolution = join_variants(_resolution((short, 4), (full, 2)))
    assert [e.key for e in resolution.entities] == ["organization/bcc"]


def test_the_tail_of_one_longer_name_is_that_thing_of_two_none() -> None:
    tail = _org("organization/wildlife-service", "Wildlife Service")
    fish = _org("organization/fish-and-wildlife-service", "Fish and Wildlife Service", None,
                "Wildlife Service")
    game = _org("organization/game-and-wildlife-service", "Game and Wildlife Service", None,
                "Wildlife Service")
    joined = join_variants(_resolution((fish, 3), (tail, 2)))
    assert [e.key for e in joined.entities] == ["organization/fish-and-wildlife-service"]
    resolution = _resolution((fish, 3), (tail, 2), (game, 2))
    assert join_variants(resolution) is resolution


def test_a_nickname_never_labels_the_thing() -> None:
    tory = _org("organization/tory", "Tory", "PoliticalParty")
    party = _org("organization/conservative-party", "Conservative Party", "PoliticalParty")
    (kept,) = join_variants(_resolution((tory, 9), (party, 3))).entities
    assert kept.label == "Conservative Party" and kept.alt_labels == ("Tory",)


def test_an_award_takes_its_ceremony_and_its_plural() -> None:
    oscar = _org("person/oscar", "Oscar", "Award", kind=PERSON)
    oscars = _org("organization/oscars", "Oscars")
    academy = _org("event/academy-awards", "Academy Awards", "Event", kind=EntityKind.EVENT)
    resolution = join_variants(_resolution((oscar, 9), (oscars, 6), (academy, 2)))
    (kept,) = resolution.entities
    assert kept.key == "person/oscar" and kept.fine_type == "Award"


@pytest.mark.parametrize(("left", "right"), [
    # one word: only an award's or a party's plural is its singular
    (_org("organization/times", "Times", "NewsMediaOrganization"),
     _org("organization/time", "Time", "NewsMediaOrganization")),
    # bodies named by what they do differ by country, not by spelling
    (_org("organization/court-of-appeal", "Court of Appeal", "Court"),
     _org("organization/court-of-appeals", "Court of Appeals", "Court")),
    # two finer classes are two things
    (_org("organization/sun", "Sun", "NewsMediaOrganization"),
     _org("organization/sun-2", "Sun", "Corporation")),
    # a name of institution words only: every country has its own, every town its police
    (_org("organization/defence-ministry", "defence ministry", "GovernmentOrganization"),
     _org("organization/defence-ministry-2", "Defence Ministry", "GovernmentOrganization")),
    (_org("organization/police", "Police"), _org("organization/police-2", "Police")),
    # a part two things share among their other labels is no name of either
    (_org("event/cannes", "Cannes Film Festival", "Event", "Film Festival",
          kind=EntityKind.EVENT),
     _org("event/sundance", "Sundance Film Festival", "Event", "Film Festival",
          kind=EntityKind.EVENT)),
    # a body and its prize or service
    (_org("organization/norwich-union", "Norwich Union"),
     _org("event/norwich-union-grand-prix", "Norwich Union Grand Prix", None, "Norwich Union",
          kind=EntityKind.EVENT)),
    # a party's name without its head word is no other word's plural
    (_org("organization/new-party", "New Party", "PoliticalParty"),
     _org("organization/news", "News")),
    # "news" is no plural: "BBC Newcastle" is no "BBC News" abbreviated
    (_org("organization/bbc-news", "BBC News"), _org("organization/bbc-newcastle",
                                                     "BBC Newcastle")),
    # people and places never join so
    (_org("person/oscar-smith", "Oscar Smith", kind=PERSON),
     _org("person/oscar-smiths", "Oscar Smiths", kind=PERSON)),
    (_org("place/leeds", "Leeds", kind=PLACE), _org("organization/leeds", "Leeds")),
])
def test_names_alike_stay_two(left: Entity, right: Entity) -> None:
    resolution = _resolution((left, 3), (right, 2))
    assert join_variants(resolution) is resolution


# -- a club named as its town ------------------------------------------------------------

SPORT = ("Leeds beat Kelso 20-12 in the Premiership on Saturday. The Leeds fly-half scored "
         "a try and the club said the season was going well.")
MUSIC = "Hotly-tipped Leeds band Kaiser Chiefs have their second chart hit this week."
NEWS = "A teacher in Leeds won the award. The Leeds school was praised by inspectors."


def _articles(*texts: tuple[str, str]) -> tuple[list[Extraction], Resolution]:
    """Articles whose every "Leeds" is resolved to the organisation "Leeds"."""
    extractions, assignments = [], {}
    for doc_id, text in texts:
        document = document_from_text(text, path=f"{doc_id}.txt")
        mentions, start = [], 0
        while (begin := text.find("Leeds", start)) >= 0:
            mentions.append(Mention(begin, begin + 5, "Leeds", "Leeds", ORG, "ORG", 0))
            assignments[(document.doc_id, begin, begin + 5)] = "organization/leeds"
            start = begin + 5
        extractions.append(Extraction(document, (Sentence(0, 0, len(text)),), tuple(mentions)))
    club = Entity("organization/leeds", ORG, "Leeds")
    return extractions, Resolution((club,), assignments)


def test_a_club_named_as_its_town_gives_the_town_its_own_mentions() -> None:
    extractions, resolution = _articles(("sport", SPORT), ("sport2", SPORT), ("music", MUSIC),
                                        ("news", NEWS))
    moved = towns_from_clubs(resolution, extractions)
    owners = {(doc, key) for (doc, _b, _e), key in moved.assignments.items()}
    assert owners == {("sport", "organization/leeds"), ("sport2", "organization/leeds"),
                      ("music", "place/leeds"), ("news", "place/leeds")}
    place = next(e for e in moved.entities if e.key == "place/leeds")
    assert place.kind is PLACE and place.geo is not None


def test_an_organisation_named_like_a_town_and_written_where_no_sport_is_stays_whole() -> None:
    extractions, resolution = _articles(("music", MUSIC), ("news", NEWS), ("sport", SPORT))
    assert towns_from_clubs(resolution, extractions) is resolution


BASEBALL = ("Ray Dunn homered in the eighth inning and Leeds held on. The Leeds pitcher "
            "struck out six, and Lee drove in two RBIs.")


def test_a_baseball_report_is_an_article_about_sport() -> None:
    extractions, resolution = _articles(("game", BASEBALL), ("game2", BASEBALL),
                                        ("news", NEWS))
    moved = towns_from_clubs(resolution, extractions)
    owners = {(doc, key) for (doc, _b, _e), key in moved.assignments.items()}
    assert owners == {("game", "organization/leeds"), ("game2", "organization/leeds"),
                      ("news", "place/leeds")}


def test_a_team_sheet_and_a_fixture_are_the_club() -> None:
    sheet = ("Leeds v Saracens (Fri)\nLeeds: Balshaw; Rees, Christophers, Bell.\n"
             "Saracens: Jones; Smith, Brown.")
    extractions, resolution = _articles(("fixture", sheet), ("sport", SPORT), ("news", NEWS))
    moved = towns_from_clubs(resolution, extractions)
    assert {key for (doc, _b, _e), key in moved.assignments.items() if doc == "fixture"} == {
        "organization/leeds"}


# -- classes and fragments -----------------------------------------------------------------

def _people(text: str, name: str, kind: EntityKind = PERSON) -> tuple[list[Extraction],
                                                                       Resolution]:
    document = document_from_text(text, path="a.txt")
    mentions, start = [], 0
    while (begin := text.find(name, start)) >= 0:
        mentions.append(Mention(begin, begin + len(name), name, name, kind,
                                "PERSON" if kind is PERSON else "ORG", 0))
        start = begin + len(name)
    key = f"{kind.value.lower()}/x"
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), tuple(mentions))
    return [extraction], Resolution((Entity(key, kind, name),), {
        (document.doc_id, m.begin, m.end): key for m in mentions})


def test_a_singers_fans_make_no_team_of_him() -> None:
    extractions, resolution = _people("Elvis fans marked his birthday. Elvis fans held a "
                                      "convention. Elvis sang.", "Elvis")
    assert with_fine_types(resolution, extractions).entities[0].kind is PERSON
    with switched_off({"resolve.class.shared-followers"}):
        assert with_fine_types(resolution, extractions).entities[0].kind is ORG


@pytest.mark.parametrize(("cues", "fine"), [(1, None), (2, "SportsTeam")])
def test_an_organisations_team_words_count_as_many_as_make_a_town_a_team(
        cues: int, fine: str | None) -> None:
    text = " ".join(["Dunmore striker Ian Roe spoke."] * cues + ["Dunmore said so."] * 15)
    extractions, resolution = _people(text, "Dunmore", ORG)
    assert with_fine_types(resolution, extractions).entities[0].fine_type == fine


def test_a_surname_after_an_honorific_is_no_fragment() -> None:
    words = CorpusWords(Counter(cable=4, unit=4), Counter())
    text = "But Mr Cable said so. The Economist Intelligence Unit agreed."
    cable = Mention(7, 12, "Cable", "Cable", PERSON, "PERSON", 0)
    unit = Mention(text.index("Unit"), text.index("Unit") + 4, "Unit", "Unit", ORG, "ORG", 0)
    assert not words.fragment(cable, text, 0)
    assert words.fragment(unit, text, 22)
