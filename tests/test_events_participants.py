"""Event participants given by "the" + a company noun (issue 35): "the developer", "the unit"
become the one organisation named around them, the event's other participants aside. The
sentences are written for these tests (general English, from no seed or dev article)."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract import extract_document
from kg.heuristics import switched_off
from kg.ingest.files import document_from_text
from kg.model import Event, EventType, Party

DEVELOPER = "Bungie made Halo, and the developer was bought by Microsoft in 2000."


def events(nlp: Any, text: str, kind: EventType) -> list[Event]:
    extraction = extract_document(nlp, document_from_text(text, doc_id="t"))
    return [f for f in extraction.facts if isinstance(f, Event) and f.kind is kind]


def names(text: str, parties: tuple[Party, ...]) -> set[str]:
    """What each party stands for: the mention it was resolved to, else its own words."""
    return {text[p.mention[0]:p.mention[1]] if p.mention else p.text for p in parties}


@pytest.mark.parametrize(("text", "agents", "patients"), [
    (DEVELOPER, {"Microsoft"}, {"Bungie"}),  # the buyer is no candidate for what it bought
    ("Shares in Vodafone rose on Monday. The company agreed to buy a stake in Verizon.",
     {"Vodafone"}, None),  # named in the sentence before
])
def test_the_company_noun_is_the_one_company_named_around_it(
    nlp: Any, text: str, agents: set[str], patients: set[str] | None
) -> None:
    (purchase,) = events(nlp, text, EventType.ACQUISITION)
    assert agents <= names(text, purchase.agents)
    if patients is not None:
        assert names(text, purchase.patients) == patients


def test_the_company_noun_stays_as_written_when_two_companies_could_be_it(nlp: Any) -> None:
    text = "Vodafone and Orange reported sales on Monday. The company was bought by Verizon."
    (purchase,) = events(nlp, text, EventType.ACQUISITION)
    assert names(text, purchase.patients) == {"company"}


def test_the_company_noun_stays_as_written_without_the_rule(nlp: Any) -> None:
    with switched_off({"event.party.standing-noun"}):
        (purchase,) = events(nlp, DEVELOPER, EventType.ACQUISITION)
    assert names(DEVELOPER, purchase.patients) == {"developer"}
