"""Event participants given by a pronoun or by "the" + a company noun (issue 35): a pronoun
stands for what its own sentence names before it, else keeps the name it was read as only when
nothing else of its class is named just before it; "the developer", "the unit" become the one
organisation named around them. The sentences are
written for these tests (general English, from no seed or dev article)."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract import extract_document
from kg.heuristics import switched_off
from kg.ingest.files import document_from_text
from kg.model import Event, EventType, Party


def events(nlp: Any, text: str, kind: EventType) -> list[Event]:
    document = document_from_text(text, doc_id="t")
    extraction = extract_document(nlp, document)
    return [f for f in extraction.facts if isinstance(f, Event) and f.kind is kind]


def names(text: str, parties: tuple[Party, ...]) -> set[str]:
    """What each party stands for: the mention it was resolved to, else its own words."""
    return {text[p.mention[0]:p.mention[1]] if p.mention else p.text for p in parties}


RIVALS = "Tom Baker met Peter Grey in Leeds on Monday. He resigned on Friday."
ALONE = "Tom Baker spoke to reporters in Leeds on Monday. He resigned on Friday."


def test_a_pronoun_two_named_people_could_be_is_left_out(nlp: Any) -> None:
    (resignation,) = events(nlp, RIVALS, EventType.RESIGNATION)
    assert not resignation.agents
    with switched_off({"event.party.sole-antecedent"}):
        (before,) = events(nlp, RIVALS, EventType.RESIGNATION)
    assert before.agents  # without the rule "He" was read as one of them


def test_a_pronoun_with_one_named_person_before_it_is_that_person(nlp: Any) -> None:
    (resignation,) = events(nlp, ALONE, EventType.RESIGNATION)
    assert names(ALONE, resignation.agents) == {"Tom Baker"}


@pytest.mark.parametrize("text", [
    "Tom Baker spoke on Monday. The party was founded by Peter Grey after he quit.",
    "Tom Baker spoke on Monday. Peter Grey told reporters that he had resigned.",
])
def test_a_pronoun_stands_for_the_name_its_own_sentence_gives(nlp: Any, text: str) -> None:
    (resignation,) = events(nlp, text, EventType.RESIGNATION)
    assert names(text, resignation.agents) == {"Peter Grey"}


@pytest.mark.parametrize(("text", "agent", "patient"), [
    ("Bungie made Halo, and the developer was bought by Microsoft in 2000.", "Microsoft",
     "Bungie"),
    ("Shares in Vodafone rose on Monday. The company agreed to buy a stake in Verizon.",
     "Vodafone", None),
])
def test_the_company_noun_is_the_one_company_named_around_it(
    nlp: Any, text: str, agent: str, patient: str | None
) -> None:
    (purchase,) = events(nlp, text, EventType.ACQUISITION)
    assert agent in names(text, purchase.agents)
    if patient is not None:
        assert names(text, purchase.patients) == {patient}


def test_the_company_noun_stays_as_written_without_the_rule(nlp: Any) -> None:
    text = "Bungie made Halo, and the developer was bought by Microsoft in 2000."
    with switched_off({"event.party.standing-noun"}):
        (purchase,) = events(nlp, text, EventType.ACQUISITION)
    assert names(text, purchase.patients) == {"developer"}
