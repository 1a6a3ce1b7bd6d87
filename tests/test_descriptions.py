"""People written as descriptions (kg.extract.descriptions): "the 34-year-old", "the Brazilian",
"the minister" become mentions of the one person the article wrote that of — and nothing when
the article does not say who."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract.pipeline import extract_document
from kg.ingest.files import document_from_text
from kg.resolve.resolver import resolve_entities


def described(nlp: Any, text: str) -> list[tuple[str, str]]:
    extraction = extract_document(nlp, document_from_text(text))
    return [(m.text, m.name) for m in extraction.mentions if m.is_description]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Maria Lopez, 34, was arrested on Monday. Police said the 34-year-old had "
                     "fled the scene.", [("34-year-old", "Maria Lopez")], id="age-after-the-name"),
        pytest.param("The 31-year-old champion Baker floored Dan Moore with a left hook, and "
                     "the 38-year-old Canadian never recovered.",
                     [("38-year-old Canadian", "Dan Moore")],
                     id="the-other-person-of-the-sentence-is-of-another-age"),
        pytest.param("Finance minister Anna Berg presented the budget on Tuesday. The minister "
                     "said taxes would fall.", [("minister", "Anna Berg")],
                     id="a-post-written-before-the-name"),
        pytest.param("The club signed Brazilian midfielder Joao Pereira on Friday. The Brazilian "
                     "scored twice on his debut.", [("Brazilian", "Joao Pereira")],
                     id="a-nationality-written-before-the-name"),
        pytest.param("Vigil Held For Teen Killed In Crash\n\nHundreds gathered on Sunday for "
                     "16-year-old Sam Rowe, who died when his car hit a wall.",
                     [("Teen", "Sam Rowe")], id="a-headline-noun-and-an-age-of-13-to-19"),
        pytest.param("Woman Dies After Fall From Bridge\n\nSarah Kent, 61, died on Sunday after "
                     "she fell from the bridge, police said.", [("Woman", "Sarah Kent")],
                     id="a-headline-noun-and-the-pronouns-after-the-name"),
        pytest.param("Lawyer: singer will appeal ruling\n\nThe singer's lawyer, Mark Dunn, said "
                     "on Monday that the ruling was wrong.", [("Lawyer", "Mark Dunn")],
                     id="a-headline-opening-with-a-post-in-apposition-below"),
        pytest.param("Kim Gray, 16, was shot on Saturday. His sister, Ann Gray, said the teenager "
                     "was unarmed.", [("teenager", "Kim Gray")],
                     id="two-full-names-share-a-surname-but-not-the-age"),
        pytest.param("Chancellor Gordon Hale and shadow chancellor Oliver Penn clashed on Monday. "
                     "The chancellor said taxes would not rise.", [("chancellor", "Gordon Hale")],
                     id="the-post-itself-not-its-shadow"),
        pytest.param("Driver Charged After Fatal Crash\n\nA woman died on Friday in Leeds. Police "
                     "said Tom Hale, 23, was charged with manslaughter.", [("Driver", "Tom Hale")],
                     id="a-headline-noun-is-who-the-body-says-its-participle-of"),
        pytest.param("Teacher charged after school fire\n\nA woman died on Friday in York. Police "
                     "said Tom Hale, 23, was charged with manslaughter.",
                     [("Teacher", "Tom Hale")], id="the-same-in-a-headline-in-sentence-case"),
        pytest.param("Sheriff's Deputy Shot and Killed\n\nDeputy Tom Hale, 35, died on Sunday "
                     "after a traffic stop in Leeds.", [("Deputy", "Tom Hale")],
                     id="a-post-owned-by-a-post-is-one-post"),
    ],
)
def test_a_description_is_the_one_person_the_article_says_it_is(
    nlp: Any, text: str, expected: list[tuple[str, str]]
) -> None:
    assert described(nlp, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Police chief Mary Jones said the 23-year-old was arrested.",
                     id="nobody-of-that-age"),
        pytest.param("Finance minister Anna Berg met health minister Carl Dahl. The minister "
                     "said taxes would fall.", id="two-people-fit"),
        pytest.param("Tom Baker, 40, said the American team had lost to Canada.",
                     id="a-team-is-no-person"),
        pytest.param("Tom Baker, 40, was the second driver to be charged. Police said the second "
                     "driver had fled.", id="an-ordinal-picks-out-another"),
        pytest.param("American coach Tom Baker praised the Americans on Sunday.",
                     id="a-plural-nationality"),
        pytest.param("Film star Tom Baker met Dan Moore. The Canadian star said little.",
                     id="a-nationality-nobody-was-given"),
        pytest.param("Anna Berg, 40, head of the Canadian-backed group, said it would stay.",
                     id="a-nationality-inside-a-compound"),
        pytest.param("Driver Charged After Fatal Crash\n\nA woman died on Friday in Leeds. Police "
                     "said Tom Hale, 23, and Dan Moore, 30, were charged with manslaughter.",
                     id="the-participle-said-of-two"),
        pytest.param("Shadow chancellor Oliver Penn said taxes would rise. The chancellor denied "
                     "it on Tuesday.", id="a-shadow-post-is-another-post"),
        pytest.param("Former chancellor Ken Dale spoke first. The chancellor replied on Tuesday.",
                     id="a-former-post-is-another-post"),
        pytest.param("Oleg Ivanov, a Russian officer who spied for the British, said he was happy.",
                     id="a-nationality-for-a-whole-people"),
        pytest.param("Actor Tom Baker won again on Sunday. The best actor was not there.",
                     id="a-superlative-picks-out-another"),
        pytest.param("Striker Tom Baker scored twice for the visitors. Dan Moore fouled Lee Hart, "
                     "but the striker's shot went wide.", id="someone-named-since-may-be-it"),
        pytest.param("Singer Ann Lowe opened the show. The singer removed his jacket after the "
                     "first song.", id="the-pronouns-after-it-say-another-gender"),
        pytest.param("Woman Dies After Fall From Bridge\n\nSarah Kent, 61, died on Sunday after "
                     "she fell from the bridge. Officer Lee Hart said the railing was low.",
                     id="a-gender-beside-someone-of-unknown-gender"),
        pytest.param("Singer's Lawyer Quits Case\n\nThe singer's lawyer, Mark Dunn, said on "
                     "Monday that he had quit.", id="a-headline-noun-with-an-owner"),
        pytest.param("Deputy's Alleged Killer Charged\n\nDeputy Tom Hale, 35, died on Sunday. "
                     "Police said a man was charged.", id="a-post-owns-someone-else"),
        pytest.param("HEAVYWEIGHT TITLE FIGHTS\n\nHeavyweight Tom Baker won again on Saturday.",
                     id="a-line-in-capitals-hides-a-modifier"),
        pytest.param("Lawyer Mark Dunn Quits Case\n\nMark Dunn, a lawyer, said on Monday that "
                     "he had quit.", id="a-post-before-a-name-in-a-headline"),
        pytest.param("Queens grandmother killed by a drunk driver\nRaj Patel, 59, was killed "
                     "on Friday. Police said the driver fled.", id="a-headline-over-the-name"),
    ],
)
def test_no_description_without_the_article_saying_who(nlp: Any, text: str) -> None:
    assert described(nlp, text) == []


def test_a_description_joins_the_person_without_naming_or_typing_it(nlp: Any) -> None:
    text = ("Maria Lopez, 34, was arrested on Monday in Leeds. Police said the 34-year-old had "
            "fled the scene.")
    extraction = extract_document(nlp, document_from_text(text, doc_id="a"))
    resolution = resolve_entities([extraction])
    [description] = [m for m in extraction.mentions if m.is_description]
    [name] = [m for m in extraction.mentions if m.name == "Maria Lopez" and not m.is_description]
    key = resolution.assignments["a", description.begin, description.end]
    assert key == resolution.assignments["a", name.begin, name.end]
    entity = resolution.entity(key)
    assert entity.label == "Maria Lopez"
    assert not any("year-old" in form for form in entity.alt_labels)


def test_a_description_is_written_as_a_mention_with_its_label(nlp: Any) -> None:
    from kg.api import build_graph

    graph = build_graph(["Maria Lopez, 34, was arrested on Monday in Leeds. Police said the "
                         "34-year-old had fled the scene."], nlp=nlp)
    rows = list(graph.query("""
        PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
        PREFIX itsrdf: <http://www.w3.org/2005/11/its/rdf#>
        PREFIX kg: <https://w3id.org/kgnews/ontology#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?label WHERE {
          GRAPH ?g { ?m nif:anchorOf "34-year-old"@en ; kg:nerLabel "DESCRIPTION" ;
                        itsrdf:taIdentRef ?e . }
          GRAPH ?h { ?e rdfs:label ?label }
        }"""))
    assert [str(r[0]) for r in rows] == ["Maria Lopez"]
