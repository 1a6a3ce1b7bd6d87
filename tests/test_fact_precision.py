"""Facts a reader would sign off on (issue 16): events that happened, numbers read right,
roles with their organisation, the right speaker. One news sentence per case, written for
these tests (general English, from no seed or evaluation article)."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract import extract_document
from kg.ingest.files import document_from_text
from kg.model import Event, EventType, Extraction


def extract(nlp: Any, text: str) -> Extraction:
    return extract_document(nlp, document_from_text(text, doc_id="t"))


def events(nlp: Any, text: str) -> list[Event]:
    return [f for f in extract(nlp, text).facts if isinstance(f, Event)]


# --- events ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("The company struck a $1bn cost-cutting deal with its unions.", EventType.ATTACK),
        ("Oil prices fell after the firm started striking oil in Texas.", EventType.ATTACK),
        ("Duncan Bannatyne attacked the government over Iraq.", EventType.ATTACK),
        ("John Smith died suddenly of a heart attack in Leeds on Monday.", EventType.ATTACK),
        ("John Smith died suddenly of a heart attack in Leeds on Monday.", EventType.KILLING),
        ("There was no treaty between France and Spain in 1850.", EventType.AGREEMENT),
        ("Bouba Diop's superb 25-yard strike cancelled out the lead at Fulham.",
         EventType.PROTEST),
        ("Microsoft launched a new search service in London on Monday.", EventType.LAUNCH),
    ],
)
def test_idioms_and_other_senses_are_no_events(nlp: Any, text: str, absent: EventType) -> None:
    assert absent not in {e.kind for e in events(nlp, text)}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("John Smith died suddenly of a heart attack in Leeds on Monday.", EventType.DEATH),
        ("Two soldiers died in an air strike in Kabul on Monday.", EventType.KILLING),
        ("Teachers in London went on strike on Monday.", EventType.PROTEST),
        ("Rebels attacked the town of Goma on Sunday.", EventType.ATTACK),
        ("North Korea launched a missile on Sunday.", EventType.LAUNCH),
    ],
)
def test_the_real_events_stay(nlp: Any, text: str, kind: EventType) -> None:
    assert kind in {e.kind for e in events(nlp, text)}


def test_a_date_is_never_a_participant(nlp: Any) -> None:
    (vote,) = [e for e in events(nlp, "Monday's deciding vote in Parliament went against "
                                      "Tony Blair.") if e.kind is EventType.ELECTION]
    assert all("Monday" not in p.text for p in (*vote.agents, *vote.patients))


def test_a_future_event_is_marked_planned(nlp: Any) -> None:
    (visit,) = [e for e in events(nlp, "Emmanuel Macron will visit Beijing next week.")
                if e.kind is EventType.MEETING]
    assert visit.planned
    (past,) = [e for e in events(nlp, "Emmanuel Macron visited Beijing last week.")
               if e.kind is EventType.MEETING]
    assert not past.planned
