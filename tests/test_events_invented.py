"""Events a careful reader signs off on, probed with invented news sentences (general English,
from no seed, test or BBC article; the names are made up): the dates, participants and senses
that the first probes of 1 December (ev8) got wrong."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract import extract_document
from kg.ingest.files import document_from_text
from kg.model import Event, EventType

DATED = "---\ndate: 2024-03-13\n---\n"


def events(nlp: Any, text: str, kind: EventType) -> list[Event]:
    extraction = extract_document(nlp, document_from_text(DATED + text, doc_id="t"))
    return [f for f in extraction.facts if isinstance(f, Event) and f.kind is kind]


@pytest.mark.parametrize("text", [
    "A court in Vienna sentenced Petra Lind to six years in prison for fraud.",
    "Judges sentenced the former minister Omar Reyes to eleven months for bribery.",
])
def test_a_length_of_a_sentence_is_no_date(nlp: Any, text: str) -> None:
    (trial,) = events(nlp, text, EventType.TRIAL)
    assert trial.time is None  # "six" was read as June
