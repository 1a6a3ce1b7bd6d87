"""Things that are no person, organisation or place (issue 12, item 2; issue 16): works, laws,
awards, competitions, festivals, grounds and bands take their class from the text's words, and
common-noun acronyms are no names. Invented names only: the cues are general English news."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract.entities import raw_mentions
from kg.model import Entity, EntityKind
from kg.rdf.namespaces import KG, SDO
from kg.rdf.terms import ENTITY_CLASSES, FINE_CLASSES, classes_of
from kg.resolve.things import KIND_OF_THING, _cues, thing_cues
from kg.resolve.types import cues_in, with_fine_types
from tests.typing_corpus import one_article


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("He starred in horror film Midnight On Vale Road.", "Midnight On Vale Road", ["Movie"]),
    ("the tune was used in the movie Cabaret Nights, earning", "Cabaret Nights", ["Movie"]),
    ("the Oscar-nominated movie The Pilot opened", "Pilot", ["Movie"]),
    ("Bristol band Velvet Harbour played.", "Velvet Harbour", ["MusicGroup"]),
    ("She has three Rennick nominations.", "Rennick", ["Award"]),
    ("the Rennick-winning actor", "Rennick", ["Award"]),
    ("He won an Ember for the role.", "Ember", ["Award"]),
    ("The Lindqvist Prize went to her.", "Lindqvist Prize", ["Award"]),
    ("The Mental Welfare Bill was passed.", "Mental Welfare Bill", ["Legislation"]),
    ("under the Treaty of Varno talks", "Treaty of Varno", []),
    ("under the Data Retention Directive, firms", "Data Retention Directive", ["Legislation"]),
    ("only the Carver Marathon remains", "Carver Marathon", ["SportsEvent"]),
    ("they won the Northern League final", "Northern League", ["SportsEvent"]),
    ("the Northern League summit", "Northern League", []),  # a league of states
    ("the Dunmore Film Festival opened", "Dunmore Film Festival", ["Festival"]),
    ("at the Harrow Music Awards on Sunday", "Harrow Music Awards", ["Event"]),
    ("they meet at Kelso Stadium on Friday", "Kelso Stadium", ["StadiumOrArena"]),
    ("the sitcom Corner Shop returns", "Corner Shop", ["TVSeries"]),
    ("the video game Iron Tide sold well", "Iron Tide", ["VideoGame"]),
    ("her debut single Paper Moon topped", "Paper Moon", ["MusicRecording"]),
    ("his novel The Quiet Shore won praise", "Quiet Shore", ["Book"]),
    # no cue: a modifier of a noun after it, a person's job, a party's nomination
    ("Labour won a Rennick seat.", "Rennick", []),
    ("won the Rennick nomination", "Rennick", []),
    ("film director Marta Quell said", "Marta Quell", []),
    ("a Quell film opened", "Quell", []),
    ("the band's singer Marta Quell said", "Marta Quell", []),
    ("Bill went home.", "Bill", []),
    # a common noun that names an occasion as the whole name, not as part of one
    ("cuts in the Budget after the election", "Budget", ["Event"]),
    ("before the Queen's Speech on Tuesday", "Queen's Speech", ["Event"]),
    ("the Congressional Budget Office said", "Congressional Budget Office", []),
    # a seat of government named for the institution (GeoNames: "White House" is Casablanca)
    ("The White House said it would not comment.", "White House", ["GovernmentOrganization"]),
    ("but the Kremlin denied it", "Kremlin", ["GovernmentOrganization"]),
    # a kind noun after the name, past at most two words, or past an acronym's bracket
    ("The new Varlo mobile phone virus spreads.", "Varlo", ["Product"]),
    ("via Lintel short-range radio technology", "Lintel", ["Product"]),
    ("its new Portable Orb (POB) games console went on sale", "POB", ["Product"]),
    ("the Orrin 2 video game sold", "Orrin 2", ["VideoGame"]),
    ("the Varlo software maker said", "Varlo", []),  # a modifier of "maker"
    ("Varlo and its technology", "Varlo", []),  # a stop word first
    ("Varlo fans want better technology", "Varlo", []),  # three words before its noun
])
def test_thing_cues(text: str, name: str, expected: list[str]) -> None:
    begin = text.index(name)
    assert thing_cues(text, begin, begin + len(name)) == expected


def test_every_thing_class_is_an_rdf_class_and_words_are_lowercase() -> None:
    for cls, entry in _cues().items():
        assert cls in FINE_CLASSES, cls
        assert entry, cls
        assert all(w == w.lower() for words in entry.values() for w in words), cls
    assert FINE_CLASSES["Award"] == KG.Award
    assert set(KIND_OF_THING) <= set(_cues())


def test_the_vote_gives_things_their_class_and_keeps_people() -> None:
    text = ("He starred in the film Cabaret Nights. Cabaret Nights opened. The band Velvet "
            "Harbour played at Kelso Stadium. Keith Marlow, in the film Sunday, spoke. "
            "Mr Quell appeared in the film Quell. The Mental Welfare Bill passed. Orlin said.")
    resolution, extractions = one_article(text, [
        ("Cabaret Nights", EntityKind.ORGANIZATION, "organization/cabaret-nights"),
        ("Cabaret Nights", EntityKind.ORGANIZATION, "organization/cabaret-nights"),
        ("Velvet Harbour", EntityKind.PERSON, "person/velvet-harbour"),
        ("Kelso Stadium", EntityKind.ORGANIZATION, "organization/kelso-stadium"),
        ("Keith Marlow", EntityKind.PERSON, "person/keith-marlow"),
        ("Quell", EntityKind.PERSON, "person/quell"),
        ("Quell", EntityKind.PERSON, "person/quell"),
        ("Mental Welfare Bill", EntityKind.PLACE, "place/mental-welfare-bill"),
        ("Orlin", EntityKind.PLACE, "place/orlin"),
    ])
    typed = {e.key: e for e in with_fine_types(resolution, extractions).entities}
    film = typed["organization/cabaret-nights"]
    assert film.fine_type == "Movie"
    assert classes_of(film) == (SDO.CreativeWork, SDO.Movie)
    band = typed["person/velvet-harbour"]
    assert (band.kind, band.fine_type) == (EntityKind.ORGANIZATION, "MusicGroup")
    assert classes_of(band) == (SDO.Organization, SDO.MusicGroup)
    ground = typed["organization/kelso-stadium"]
    assert classes_of(ground) == (SDO.Place, SDO.StadiumOrArena)
    law = typed["place/mental-welfare-bill"]
    assert classes_of(law) == (SDO.CreativeWork, SDO.Legislation)
    assert law.geo is None  # a law has no coordinates
    assert typed["person/quell"].fine_type is None  # "Mr Quell": a person, titled
    assert typed["person/keith-marlow"].fine_type is None  # a given name: a person
    assert typed["place/orlin"].fine_type is None  # no cue, nothing changes


def test_the_budget_typed_an_organisation_is_an_event() -> None:
    text = "The Budget will cut taxes, the chancellor said. The Budget was welcomed."
    resolution, extractions = one_article(text, [("Budget", EntityKind.ORGANIZATION,
                                                   "organization/budget")] * 2)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert (entity.kind, entity.fine_type) == (EntityKind.EVENT, "Event")


def test_a_cue_in_one_mention_of_many_does_not_retype() -> None:
    text = "The carmaker Halden said. " * 6 + "the film Halden opened"
    resolution, extractions = one_article(text, [("Halden", EntityKind.ORGANIZATION, "o/h")] * 7)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type == "Corporation"


def test_an_award_keeps_only_its_own_class_and_every_entity_class_is_sampled() -> None:
    award = Entity("person/x", EntityKind.PERSON, "X", fine_type="Award")
    assert classes_of(award) == (KG.Award,)
    event = Entity("event/x", EntityKind.EVENT, "X", fine_type="Event")
    assert classes_of(event) == (SDO.Event,)
    for entity in (award, event, Entity("o/x", EntityKind.ORGANIZATION, "X", fine_type="Book"),
                   Entity("p/x", EntityKind.PLACE, "X", fine_type="Weapon")):
        assert len(set(classes_of(entity)) & set(ENTITY_CLASSES)) == 1, entity


@pytest.mark.parametrize(("text", "tagged", "kept"), [
    ("Sales of TV sets rose at Norvik.", ["TV", "Norvik"], ["Norvik"]),
    ("The PC maker Norvik grew 3% of GDP.", ["PC", "Norvik", "GDP"], ["Norvik"]),
    ("Olympic champion Ana Bell won.", ["Olympic", "Ana Bell"], ["Ana Bell"]),
    ("TV Norvik broadcast it.", ["TV Norvik"], ["TV Norvik"]),  # part of a name stays
    ("I think Norvik is right.", ["I", "Norvik"], ["Norvik"]),
    ("Women 's 100 metres hurdles : Ana Bell", ["Women", "Ana Bell"], ["Ana Bell"]),
    ("Women MPs met the Women's Forum.", ["Women", "Women's Forum"], ["Women's Forum"]),
    ("The MSPs and ISPs met Norvik.", ["MSPs", "ISPs", "Norvik"], ["Norvik"]),
    ("KPMG and the NHS met Norvik.", ["KPMG", "NHS", "Norvik"], ["KPMG", "NHS", "Norvik"]),
])
def test_common_noun_acronyms_are_no_mentions(nlp: Any, text: str, tagged: list[str],
                                              kept: list[str]) -> None:
    from spacy.tokens import Span

    doc = nlp(text)
    spans = []
    for name in tagged:
        begin = text.index(name)
        spans.append(doc.char_span(begin, begin + len(name), label="ORG"))
    doc.ents = [Span(doc, s.start, s.end, label="ORG") for s in spans]
    assert [doc[m.start:m.end].text for m in raw_mentions(doc)] == kept


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("the Zune music player was", "Zune", ["Product"]),
    ("the Lumen browser crashed", "Lumen", ["Product"]),
    ("the Zune player factory", "Zune", []),  # a modifier of "factory"
])
def test_product_nouns_after_a_name(text: str, name: str, expected: list[str]) -> None:
    begin = text.index(name)
    assert cues_in(text, begin, begin + len(name)) == expected


def test_a_name_that_speaks_is_no_product_or_work() -> None:
    text = ("The Orrin laptop sold well. The Orrin laptop is thin. Orrin said sales rose. "
            "The film Halden opened. Halden has announced a sequel.")
    resolution, extractions = one_article(text, [
        ("Orrin", EntityKind.ORGANIZATION, "o/orrin"), ("Orrin", EntityKind.ORGANIZATION,
                                                       "o/orrin"),
        ("Orrin", EntityKind.ORGANIZATION, "o/orrin"),
        ("Halden", EntityKind.ORGANIZATION, "o/halden"),
        ("Halden", EntityKind.ORGANIZATION, "o/halden"),
    ])
    typed = {e.key: e for e in with_fine_types(resolution, extractions).entities}
    assert typed["o/orrin"].fine_type is None  # a maker ("Orrin said"), not its laptop
    assert typed["o/halden"].fine_type is None
    text = text.replace("Orrin said", "Orrin shares").replace("Halden has announced", "Halden is")
    resolution, extractions = one_article(text, [
        ("Orrin", EntityKind.ORGANIZATION, "o/orrin"), ("Orrin", EntityKind.ORGANIZATION,
                                                       "o/orrin"),
        ("Halden", EntityKind.ORGANIZATION, "o/halden"),
    ])
    typed = {e.key: e for e in with_fine_types(resolution, extractions).entities}
    assert typed["o/halden"].fine_type == "Movie"
    assert typed["o/orrin"].fine_type == "Product"  # no longer heard speaking


@pytest.mark.parametrize("kind", [EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE])
def test_a_kind_noun_makes_a_one_word_name_a_product(kind: EntityKind) -> None:
    text = "The Varlo virus spreads. Varlo infects phones. Experts fear Varlo."
    resolution, extractions = one_article(text, [("Varlo", kind, "k/varlo")] * 3)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type == "Product"
    assert classes_of(entity) == (SDO.Product,)


def test_a_name_that_owns_a_named_thing_is_no_product() -> None:
    text = "The Orrin laptop is thin. Orrin's iTab sold well. The Orrin handset is new."
    names = [("Orrin", EntityKind.ORGANIZATION, "o/orrin")] * 3
    resolution, extractions = one_article(text, names)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type is None  # the maker of the iTab, not a laptop
    text = text.replace("Orrin's iTab", "Orrin's launch in Europe")
    resolution, extractions = one_article(text, names)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type == "Product"  # owns no named thing


@pytest.mark.parametrize(("label", "kind", "party"), [
    ("Lib Dems", EntityKind.PERSON, True),
    ("Tories", EntityKind.PLACE, True),
    ("Liberal Democrats", EntityKind.ORGANIZATION, True),
    ("Green", EntityKind.PERSON, False),  # a surname too
    ("Dems Holloway", EntityKind.PERSON, False),
])
def test_a_name_of_party_words_is_a_party(label: str, kind: EntityKind, party: bool) -> None:
    text = f"The {label} met."
    resolution, extractions = one_article(text, [(label, kind, "k/1")])
    (entity,) = with_fine_types(resolution, extractions).entities
    assert (entity.fine_type == "PoliticalParty") is party
    assert (entity.kind is EntityKind.ORGANIZATION) is (party or kind is EntityKind.ORGANIZATION)


def test_one_cue_in_twenty_mentions_without_other_evidence_is_enough() -> None:
    text = "Pilot opened. " * 14 + "the film Pilot won"
    resolution, extractions = one_article(text, [("Pilot", EntityKind.ORGANIZATION, "o/p")] * 15)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type == "Movie"
    text = "Pilot opened. " * 24 + "the film Pilot won"
    resolution, extractions = one_article(text, [("Pilot", EntityKind.ORGANIZATION, "o/p")] * 25)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type is None


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("The $499 Lumen, sold for £339 in the UK, was", "Lumen", ["Product"]),
    ("the £300 Lumen is", "Lumen", ["Product"]),
    ("a $300 Lumen phone", "Lumen", ["Product"]),  # the phone is the product
    ("the $5bn Lumen deal", "Lumen", []),
])
def test_a_price_before_a_name_shows_a_product(text: str, name: str,
                                               expected: list[str]) -> None:
    begin = text.index(name)
    assert cues_in(text, begin, begin + len(name)) == expected


def test_won_an_award_last_year() -> None:
    text = "She won an Ember last year."
    assert thing_cues(text, text.index("Ember"), text.index("Ember") + 5) == ["Award"]


FILM_ARTICLE = """Film star praised

The horror film Midnight Harbour opened on Friday. Midnight Harbour was directed by Anna Kell.
She won an Oscar last year. The Mental Welfare Bill was passed by MPs on Tuesday.
Bristol band Velvet Harbour played at Kelso Stadium. The Boston Marathon starts on Monday.
Liverpool striker Milan Baros scored as Liverpool beat Everton 2-1.
"""
CITY_ARTICLE = """Docks reopen

Floods hit homes in Liverpool on Monday. The council in Liverpool said roads were shut.
Sales of TV sets rose, the BBC said.
"""


def test_a_build_types_things_and_the_precision_sample_keeps_them(nlp: Any) -> None:
    from bench.precision import entity_stats
    from kg.api import build_graph

    graph = build_graph([FILM_ARTICLE, CITY_ARTICLE], nlp=nlp)
    classes: dict[str, set[str]] = {}
    for entity in entity_stats(graph):
        classes.setdefault(entity.label, set()).add(entity.type)
    assert classes["Midnight Harbour"] == {"CreativeWork"}
    assert classes["Mental Welfare Bill"] == {"CreativeWork"}
    assert classes["Oscar"] == {"Award"}
    assert classes["Velvet Harbour"] == {"Organization"}
    assert classes["Kelso Stadium"] == {"Place"}
    assert classes["Boston Marathon"] == {"Event"}
    assert classes["Liverpool"] == {"Organization", "Place"}  # the club and the city
    assert "TV" not in classes


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("She won a Rennick's Ember award.", "Rennick", []),
    ("He won a Labour Party seat.", "Labour", []),
    ("Velvet Harbour on the festival bill", "Velvet Harbour", []),
    ("with support act Velvet Harbour", "Velvet Harbour", ["MusicGroup"]),
])
def test_a_name_that_modifies_another_or_tops_a_bill_is_no_thing(
        text: str, name: str, expected: list[str]) -> None:
    begin = text.index(name)
    assert thing_cues(text, begin, begin + len(name)) == expected


def test_a_person_needs_thing_cues_in_half_its_mentions() -> None:
    text = ("Edda Varn spoke. Edda Varn smiled. Edda Varn left. the Edda Varn biopic. "
            "the film Edda Varn opened")
    resolution, extractions = one_article(text, [("Edda Varn", EntityKind.PERSON, "p/e")] * 5)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type is None and entity.kind is EntityKind.PERSON


def test_a_one_word_person_needs_only_the_usual_share() -> None:
    text = "Ember opened. " * 9 + "She won an Ember for it."
    resolution, extractions = one_article(text, [("Ember", EntityKind.PERSON, "p/e")] * 10)
    (entity,) = with_fine_types(resolution, extractions).entities
    assert entity.fine_type == "Award"


@pytest.mark.parametrize(("text", "tagged", "kept"), [
    pytest.param("Broadband is cheap. Many homes buy broadband now.", ["Broadband"], [],
                 id="a-common-noun-opening-a-sentence"),
    pytest.param("Brown said no. Mr Brown wore brown shoes.", ["Brown", "Brown"],
                 ["Brown", "Brown"], id="a-name-capitalised-inside-a-sentence-stays"),
    pytest.param("Norvik said no. Norvik left.", ["Norvik", "Norvik"], ["Norvik", "Norvik"],
                 id="a-name-never-written-in-lower-case-stays"),
    pytest.param("http : / / example . com / lindsay - lohan\nLindsay wept.", ["Lindsay"],
                 ["Lindsay"], id="a-web-address-is-no-text"),
])
def test_a_word_the_article_writes_in_lower_case_is_no_name_at_a_sentence_start(
        nlp: Any, text: str, tagged: list[str], kept: list[str]) -> None:
    """"Broadband has become hugely competitive" beside "broadband": a common noun the tagger
    took for a name because it opens the sentence."""
    from spacy.tokens import Span

    doc = nlp(text)
    spans, at = [], 0
    for name in tagged:
        begin = text.index(name, at)
        at = begin + len(name)
        span = doc.char_span(begin, at)
        spans.append(Span(doc, span.start, span.end, label="PERSON"))
    doc.ents = spans
    assert [doc[m.start:m.end].text for m in raw_mentions(doc)] == kept
