"""Cleaning of entity spans into mentions (kg.extract.entities), on documents whose entities
are set by hand: each rule is tested on what the tagger gives, whatever the model does."""

from __future__ import annotations

from typing import Any

import pytest
import spacy
from spacy.tokens import Doc, Span

from kg.extract.entities import is_nationality_noun, raw_mentions

Ents = list[tuple[str, str]]  # (words of the span, label), left to right


@pytest.fixture(scope="module")
def blank() -> Any:
    return spacy.blank("en")


def tagged(blank: Any, text: str, ents: Ents) -> Doc:
    """``text`` tokenised, with ``ents`` as its entities (found left to right)."""
    doc = blank(text)
    spans, at = [], 0
    for words, label in ents:
        begin = text.index(words, at)
        at = begin + len(words)
        span = doc.char_span(begin, at, label=label)
        assert span is not None, words
        spans.append(span)
    doc.ents = spans
    return doc


def mentions(doc: Doc) -> list[tuple[str, str]]:
    return [(doc[m.start:m.end].text, m.kind.value) for m in raw_mentions(doc)]


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("Jane Doe served well, Canadian Doe holding on.",
                     [("Jane Doe", "PERSON"), ("Canadian Doe", "ORG")],
                     [("Jane Doe", "Person"), ("Doe", "Person")],
                     id="nationality-before-a-surname-of-the-article"),
        pytest.param("Jane Doe won, Canadian Doe holding on.",
                     [("Jane Doe", "ORG"), ("Canadian Doe", "ORG")],
                     [("Jane Doe", "Organization"), ("Doe", "Person")],
                     id="the-full-name-tagged-an-organisation"),
        pytest.param("Canadian Doe held on. Later, Doe said he was tired.",
                     [("Canadian Doe", "ORG")], [("Doe", "Person")],
                     id="the-surname-speaks-alone"),
        pytest.param("Canadian Express held on. Canadian Express said so.",
                     [("Canadian Express", "ORG"), ("Canadian Express", "ORG")],
                     [("Canadian Express", "Organization"), ("Canadian Express", "Organization")],
                     id="a-word-speaking-inside-a-longer-name"),
        pytest.param("Maple Doe won, Canadian Doe holding on.",
                     [("Maple Doe", "ORG"), ("Canadian Doe", "ORG")],
                     [("Maple Doe", "Organization"), ("Canadian Doe", "Organization")],
                     id="an-organisation-opening-with-no-given-name"),
        pytest.param("The prize went to Swedish Anna Lindqvist.",
                     [("Swedish Anna Lindqvist", "ORG")], [("Anna Lindqvist", "Person")],
                     id="nationality-before-a-given-name-and-surname"),
        pytest.param("Jane Doe flew with Canadian Airlines.",
                     [("Jane Doe", "PERSON"), ("Canadian Airlines", "ORG")],
                     [("Jane Doe", "Person"), ("Canadian Airlines", "Organization")],
                     id="a-company-named-with-a-nationality-stays"),
        pytest.param("Rival Maple Airlines grew, Canadian Airlines said.",
                     [("Maple Airlines", "PERSON"), ("Canadian Airlines", "ORG")],
                     [("Maple Airlines", "Person"), ("Canadian Airlines", "Organization")],
                     id="a-company-word-is-no-surname-though-tagged-a-person"),
        pytest.param("Jane Doe won the Canadian Open.",
                     [("Jane Doe", "PERSON"), ("Canadian Open", "EVENT")],
                     [("Jane Doe", "Person"), ("Canadian Open", "Event")],
                     id="a-competition-named-with-a-nationality-stays"),
    ],
)
def test_a_nationality_is_cut_from_a_person(blank: Any, text: str, ents: Ents,
                                            expected: list[tuple[str, str]]) -> None:
    assert mentions(tagged(blank, text, ents)) == expected


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("The Rockwell Brothers played on.", [("Rockwell Brothers", "PERSON")],
                     [("Rockwell Brothers", "Organization")], id="brothers"),
        pytest.param("The Velvet Girls split up.", [("Velvet Girls", "PERSON")],
                     [("Velvet Girls", "Organization")], id="girls"),
        pytest.param("Paul Girling spoke.", [("Paul Girling", "PERSON")],
                     [("Paul Girling", "Person")], id="a-surname-is-no-plural"),
    ],
)
def test_a_name_ending_in_a_group_plural_is_no_person(blank: Any, text: str, ents: Ents,
                                                      expected: list[tuple[str, str]]) -> None:
    assert mentions(tagged(blank, text, ents)) == expected


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("They made 22nd Century art.", [("Century", "PERSON")], [],
                     id="a-numbered-century-is-a-period"),
        pytest.param("They made 22nd Century art.", [("22nd Century", "ORG")], [],
                     id="the-period-with-its-ordinal"),
        pytest.param("Thirtieth Century Pictures said so.", [("Century Pictures", "PERSON")],
                     [("Thirtieth Century Pictures", "Organization")],
                     id="a-studio-named-after-a-century"),
        pytest.param("Thirtieth Century Pictures said so.",
                     [("Thirtieth Century Pictures", "PERSON")],
                     [("Thirtieth Century Pictures", "Organization")],
                     id="a-studio-tagged-whole-as-a-person"),
        pytest.param("Century Pictures said so.", [("Century Pictures", "ORG")],
                     [("Century Pictures", "Organization")], id="no-ordinal-before"),
    ],
)
def test_an_ordinal_century_is_no_name(blank: Any, text: str, ents: Ents,
                                       expected: list[tuple[str, str]]) -> None:
    assert mentions(tagged(blank, text, ents)) == expected


@pytest.mark.parametrize(("text", "word", "pos", "expected"), [
    ("Safin relieved at Aussie recovery", "Aussie", "NOUN", []),
    ("Clijsters hope on Aussie Open", "Aussie", "PROPN", [("Aussie", "Organization")]),
    ("Maple recovery", "Maple", "NOUN", [("Maple", "Organization")]),
])
def test_a_nationality_before_a_common_noun_is_no_name(blank: Any, text: str, word: str,
                                                        pos: str, expected: Ents) -> None:
    doc = tagged(blank, text, [(word, "ORG")])
    after = next(t for t in doc if t.idx == text.index(word) + len(word) + 1)
    after.pos_ = pos
    assert mentions(doc) == expected


def test_a_nationality_noun_is_no_mention(blank: Any) -> None:
    doc = tagged(blank, "The Welshman scored for Newport.",
                 [("Welshman", "ORG"), ("Newport", "GPE")])
    assert mentions(doc) == [("Newport", "Place")]


@pytest.mark.parametrize(("word", "expected"), [
    ("Frenchman", True), ("Dutchmen", True), ("Englishwoman", True), ("Welshman", True),
    ("Chairman", False), ("Newman", False), ("Freeman", False), ("Turkmen", False),
])
def test_nationality_nouns(word: str, expected: bool) -> None:
    assert is_nationality_noun(word) is expected


def test_a_span_without_entities_gives_nothing(blank: Any) -> None:
    doc = blank("Nothing here.")
    doc.ents = [Span(doc, 0, 1, label="DATE")]
    assert mentions(doc) == []


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("Replacements: K Morrow, P Linden; T Farrant.",
                     [("Morrow", "PERSON"), ("Linden", "PERSON"), ("Farrant", "PERSON")],
                     [("K Morrow", "Person"), ("P Linden", "Person"), ("T Farrant", "Person")],
                     id="a-team-sheet"),
        pytest.param("In Group B Linden won.", [("Linden", "PERSON")], [("Linden", "Person")],
                     id="a-letter-after-a-capitalised-word"),
        pytest.param("A Linden victory followed.", [("Linden", "PERSON")],
                     [("Linden", "Person")], id="the-article-a-opening-a-sentence"),
        pytest.param("They beat Group B Linden, and won.", [("Linden", "GPE")],
                     [("Linden", "Place")], id="a-listed-letter-after-a-capitalised-word"),
        pytest.param("They met in E Linden town.", [("Linden", "GPE")],
                     [("Linden", "Place")], id="a-place-not-standing-alone-in-a-list"),
    ],
)
def test_an_initial_before_a_surname_is_part_of_the_name(
        blank: Any, text: str, ents: Ents, expected: list[tuple[str, str]]) -> None:
    assert mentions(tagged(blank, text, ents)) == expected


def test_a_full_stop_before_a_title_is_not_part_of_it(blank: Any) -> None:
    doc = tagged(blank, "He left . Mr Hill stayed.", [("Hill", "PERSON")])
    assert [m.titles for m in raw_mentions(doc)] == [("Mr",)]


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("He wore grey jeans.", [("grey jeans", "ORG")], [], id="a-common-phrase"),
        pytest.param("It cost 124bn.", [("124bn", "PERSON")], [], id="a-figure"),
        pytest.param("The defence ministry said so.", [("defence ministry", "ORG")],
                     [("defence ministry", "Organization")], id="an-institution"),
        pytest.param("He ran napster.com then.", [("napster.com", "ORG")],
                     [("napster.com", "Organization")], id="a-web-address"),
    ],
)
def test_a_phrase_without_a_capital_is_no_name(blank: Any, text: str, ents: Ents,
                                               expected: list[tuple[str, str]]) -> None:
    assert mentions(tagged(blank, text, ents)) == expected


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("The new Robo (Rapid Object Balancing Operator) walks.",
                     [("Robo", "PERSON"), ("Rapid Object", "ORG"), ("Balancing Operator", "GPE")],
                     [("Robo", "Person"), ("Rapid Object Balancing Operator", "Person")],
                     id="a-name-then-its-expansion"),
        pytest.param("The Zorval (Zone of Regional Validation) met.",
                     [("Zorval", "ORG"), ("Zone", "ORG"), ("Regional Validation", "ORG")],
                     [("Zorval", "Organization"), ("Zone of Regional Validation", "Organization")],
                     id="letters-from-a-word's-start"),
        pytest.param("The Widget Standards in Broadcasting (WSB) ruled.",
                     [("Widget Standards", "ORG"), ("Broadcasting", "GPE"), ("WSB", "GPE")],
                     [("Widget Standards in Broadcasting", "Organization"), ("WSB", "Place")],
                     id="an-expansion-then-its-acronym"),
        pytest.param("The QXT (Quality Board in Tarnow) ruled.",
                     [("QXT", "ORG"), ("Quality Board", "ORG"), ("Tarnow", "GPE")],
                     [("QXT", "Organization"), ("Quality Board", "Organization"),
                      ("Tarnow", "Place")],
                     id="initials-that-do-not-spell-it"),
    ],
)
def test_an_acronym_expansion_in_brackets_is_one_name(blank: Any, text: str, ents: Ents,
                                                      expected: list[tuple[str, str]]) -> None:
    assert mentions(tagged(blank, text, ents)) == expected


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("Police said the Tarnow Police Department held him, and police officers left.",
                     [("Tarnow Police Department", "ORG")],
                     [("Police", "Organization"), ("Tarnow Police Department", "Organization")],
                     id="one-force-named"),
        pytest.param("Police said the Tarnow Police held him. The Kolno Police left.",
                     [("Tarnow Police", "ORG"), ("Kolno Police", "ORG")],
                     [("Tarnow Police", "Organization"), ("Kolno Police", "Organization")],
                     id="two-forces-named"),
        pytest.param("Police said the man fled.", [], [], id="no-force-named"),
    ],
)
def test_police_is_the_one_force_the_article_names(blank: Any, text: str, ents: Ents,
                                                   expected: list[tuple[str, str]]) -> None:
    doc = tagged(blank, text, ents)
    for token in doc[:-1]:
        if token.lower_ == "police" and doc[token.i + 1].text == "officers":
            token.dep_ = "compound"  # what the parser says of "police officers"
    assert mentions(doc) == expected


def _parsed(doc: Doc, deps: dict[str, str]) -> Doc:
    for token in doc:
        token.dep_ = deps.get(token.text, token.dep_)
    return doc


@pytest.mark.parametrize(
    ("text", "ents", "deps", "expected"),
    [
        pytest.param("Athens Police chiefs met. Police fired tear gas.", [("Athens", "GPE")],
                     {"Athens": "compound"},
                     [("Athens Police", "Organization"), ("Police", "Organization")],
                     id="a-place-s-police"),
        pytest.param("Greek Police clashed with youths. Police said 12 were hurt.",
                     [("Greek", "NORP")], {"Greek": "amod"},
                     [("Greek Police", "Organization"), ("Police", "Organization")],
                     id="a-country-s-police"),
        pytest.param("Athens police chiefs met. Police fired tear gas.", [("Athens", "GPE")],
                     {"Athens": "compound"}, [("Athens", "Place")], id="a-place-and-its-police"),
        pytest.param("The Vancouver Police said so. The Vancouver Police left. Police smiled.",
                     [("Vancouver", "GPE"), ("Vancouver Police", "ORG")],
                     {"Vancouver": "compound"},
                     [("Vancouver Police", "Organization"), ("Vancouver Police", "Organization"),
                      ("Police", "Organization")],
                     id="one-force-cut-and-whole"),
        pytest.param("Police said the NYPD held him at the Police Department.",
                     [("NYPD", "ORG"), ("Police Department", "ORG")], {},
                     [("Police", "Organization"), ("NYPD", "Organization"),
                      ("Police Department", "Organization")],
                     id="a-force-by-its-acronym-and-its-description"),
        pytest.param("In Athens Police fired tear gas. Police said 12 were hurt.",
                     [("Athens", "GPE")], {"Athens": "pobj"}, [("Athens", "Place")],
                     id="a-place-that-stands-for-itself"),
        pytest.param("Muslim Police officers met. Police said so.", [("Muslim", "NORP")],
                     {"Muslim": "amod", "Police": "compound"}, [], id="no-nation"),
        pytest.param("The Kent Police backed the Crime and Police Bill.",
                     [("Kent Police", "ORG")], {}, [("Kent Police", "Organization")],
                     id="police-in-a-longer-name"),
        pytest.param("Police said the SPD met.", [("SPD", "ORG")], {},
                     [("SPD", "Organization")], id="a-party-s-acronym"),
        pytest.param("Athens Police and Patras Police met. Police said so.",
                     [("Athens", "GPE"), ("Patras", "GPE")], {},
                     [("Athens Police", "Organization"), ("Patras Police", "Organization")],
                     id="two-places-police"),
    ],
)
def test_a_force_named_by_its_place_or_acronym(blank: Any, text: str, ents: Ents,
                                               deps: dict[str, str],
                                               expected: list[tuple[str, str]]) -> None:
    assert mentions(_parsed(tagged(blank, text, ents), deps)) == expected


def test_police_is_no_staff_association(blank: Any) -> None:
    doc = tagged(blank, "Police said the Tarnow Police Federation met.",
                 [("Tarnow Police Federation", "ORG")])
    assert mentions(doc) == [("Tarnow Police Federation", "Organization")]


def test_police_of_a_headline_is_no_force(blank: Any) -> None:
    doc = tagged(blank, "Man Shot By Police\n\nPolice said he fled.", [("Shot By Police", "ORG")])
    assert mentions(doc) == [("Shot By Police", "Organization")]


def test_span_rule_examples() -> None:
    import doctest

    import kg.extract.spans

    result = doctest.testmod(kg.extract.spans)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("text", "ents", "expected"),
    [
        pytest.param("Chair Marta von der Brelle said so.",
                     [("Marta", "GPE"), ("Brelle", "PERSON")],
                     [("Marta von der Brelle", "Person")], id="a-given-name-typed-a-place"),
        pytest.param("Boss Joost van Hilten resigned.",
                     [("Joost", "MISC"), ("van Hilten", "PERSON")],
                     [("Joost van Hilten", "Person")], id="the-particle-in-the-surname's-span"),
        pytest.param("Painter Tomaso da Verrio was born there.",
                     [("Tomaso", "PERSON")],
                     [("Tomaso da Verrio", "Person")], id="an-untagged-surname"),
        pytest.param("She won the Giro de Oltrano twice.",
                     [("Giro de Oltrano", "EVENT")],
                     [("Giro de Oltrano", "Event")], id="already-whole"),
        pytest.param("Bank Verrio de Oltrano fell.",
                     [("Verrio", "ORG"), ("Oltrano", "PERSON")],
                     [("Verrio", "Organization"), ("Oltrano", "Person")], id="an-organisation"),
    ],
)
def test_a_name_runs_on_across_a_surname_particle(blank: Any, text: str, ents: Ents,
                                                  expected: list[tuple[str, str]]) -> None:
    doc = tagged(blank, text, ents)
    for token in doc:
        token.pos_ = "PROPN" if token.is_title else "NOUN"
    assert mentions(doc) == expected


@pytest.mark.parametrize("text", ["Full-back R de Marigny scored.",
                                  "Later President da Verrio spoke."])
def test_no_particle_join_after_an_initial_or_a_title(blank: Any, text: str) -> None:
    doc = tagged(blank, text, [(text.split()[-2], "PERSON")])
    for token in doc:
        token.pos_ = "PROPN" if token.is_title else "NOUN"
    assert [m[0] for m in mentions(doc)] == [text.split()[-2]]


def _case(text: str, ents: Ents, expected: list[tuple[str, str]], case: str) -> Any:
    return pytest.param(text, ents, expected, id=case)


#: (text, the tagger's entities, the mentions kept), by rule.
SPAN_RULES = [
    # a one-word "person" that is a nationality is no name
    _case("Said Rajab Adinayev , a bearded elderly Tajik .",
          [("Rajab Adinayev", "PERSON"), ("Tajik", "PERSON")], [("Rajab Adinayev", "Person")],
          "a-nationality-is-no-name"),
    _case("Ms James , whose father was Welsh , met Welsh artists .",
          [("James", "PERSON"), ("Welsh", "PERSON"), ("Welsh", "PERSON")], [("James", "Person")],
          "a-nations-adjective-is-no-name"),
    _case("Dawn French starred . French said so .",
          [("Dawn French", "PERSON"), ("French", "PERSON")],
          [("Dawn French", "Person"), ("French", "Person")], "a-surname-of-the-article"),
    # a dateline's news agency and place
    _case("KYIV, May 18 (Reuters) - Shells fell.", [("KYIV", "ORG"), ("Reuters", "ORG")],
          [("KYIV", "Place"), ("Reuters", "Organization")], "dateline-place"),
    _case("SAO PAULO 1996-08-30", [("SAO PAULO", "PERSON")], [("SAO PAULO", "Place")],
          "dateline-place-tagged-a-person"),
    _case("He met KYIV officials (AP) - and left.", [("KYIV", "ORG"), ("AP", "ORG")],
          [("KYIV", "Organization"), ("AP", "Organization")], "no-dateline-mid-sentence"),
    _case("Talks (Geneva) - a summary.", [("Geneva", "GPE")], [("Geneva", "Place")],
          "no-dateline-without-a-place"),
    # a monarch's numeral
    _case("Queen Elizabeth I was born.", [("Elizabeth", "PERSON")],
          [("Elizabeth I", "Person")], "numeral-after-a-title"),
    _case("King Abdullah II of Jordan met him.", [("Abdullah II of Jordan", "ORG")],
          [("Abdullah II", "Person"), ("Jordan", "Place")], "numeral-of-a-country"),
    _case("Louis XIV built it.", [("Louis XIV", "PERSON")], [("Louis XIV", "Person")],
          "numeral-of-a-person"),
    _case("Henry VIII built it.", [("Henry VIII", "ORG")], [("Henry VIII", "Person")],
          "numeral-after-a-given-name"),
    _case("The Hartz IV reforms.", [("Hartz IV", "ORG")], [("Hartz IV", "Organization")],
          "numeral-of-no-one"),
    _case("Then Elizabeth I think left.", [("Elizabeth", "PERSON")], [("Elizabeth", "Person")],
          "a-pronoun-is-no-numeral"),
    _case("He saw World War II films.", [("World War II", "EVENT")],
          [("World War II", "Event")], "a-war-is-no-one"),
    # an ampersand makes a firm
    _case("Analyst at Edward D. Jones & Co said.", [("Edward D. Jones & Co", "PERSON")],
          [("Edward D. Jones & Co", "Organization")], "ampersand-firm"),
    _case("Bruce & Terry had hits.", [("Bruce & Terry", "PERSON")],
          [("Bruce & Terry", "Organization")], "ampersand-duo"),
    _case("Edward D. Jones said.", [("Edward D. Jones", "PERSON")],
          [("Edward D. Jones", "Person")], "no-ampersand"),
    # so does a legal form ending the name, as written
    _case("Shares of Varelli SpA rose.", [("Varelli SpA", "PERSON")],
          [("Varelli SpA", "Organization")], "legal-form-firm"),
    _case("Dr Ana Sa spoke.", [("Ana Sa", "PERSON")], [("Ana Sa", "Person")],
          "no-legal-form-in-another-case"),
    # a town's "City" or "Town" is its club
    _case("O'Neill of Norwich City scored.", [("Norwich City", "GPE")],
          [("Norwich City", "Organization")], "town-club"),
    _case("He flew to Kansas City.", [("Kansas City", "GPE")], [("Kansas City", "Place")],
          "a-city-geonames-knows"),
    _case("Fans in Cape Town cheered.", [("Cape Town", "GPE")], [("Cape Town", "Place")],
          "a-town-geonames-knows"),
    _case("Residents in Edinburgh City voted.", [("Edinburgh City", "GPE")],
          [("Edinburgh City", "Place")], "in-a-city"),
    _case("A storm @ Cork City , Ireland today", [("Cork City", "GPE"), ("Ireland", "GPE")],
          [("Cork City", "Place"), ("Ireland", "Place")], "a-city-and-its-country"),
]


@pytest.mark.parametrize(("text", "ents", "expected"), SPAN_RULES)
def test_span_rules(blank: Any, text: str, ents: Ents, expected: list[tuple[str, str]]) -> None:
    """A nationality tagged a person, a dateline's agency and place, a monarch's numeral, a
    place's "St.", an ampersand's firm, a town's club."""
    assert mentions(tagged(blank, text, ents)) == expected
