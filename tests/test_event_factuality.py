"""Whether an event happened (issue 35, item 5): each cue of ``event.factuality.*`` on general
news sentences (invented; no seed, test or BBC article), and the same cue word elsewhere in a
sentence whose event did happen."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract import extract_document
from kg.heuristics import all_heuristics, firing, switched_off
from kg.ingest.files import document_from_text
from kg.model import Event, EventType

DATED = "---\ndate: 2024-03-13\n---\n"
LEARNED = "event.learned-factuality"  # tests/test_learned_factuality.py
CUES = [h for h in all_heuristics()
        if h.id.startswith("event.factuality.") or h.id == "event.generic.frequency-phrase"]


def events(nlp: Any, text: str, kind: EventType) -> list[Event]:
    extraction = extract_document(nlp, document_from_text(DATED + text, doc_id="t"))
    return [f for f in extraction.facts if isinstance(f, Event) and f.kind is kind]


def happened(event: Event) -> bool:
    return not (event.planned or event.generic)


@pytest.mark.parametrize(("text", "kind", "cue"), [
    ("Under the new law, police can arrest Tom Baker in Leeds without a warrant.",
     EventType.ARREST, "can"),
    ("Unless the court objects, the party holds a leadership election in Tallinn.",
     EventType.ELECTION, "conditional"),
    ("Police in Lagos said the banker Omar Reyes evaded arrest on Monday.", EventType.ARREST,
     "avoidance"),
    ("Fans were unable to meet President Biden in Oslo.", EventType.MEETING, "avoidance"),
])
def test_an_event_a_cue_says_did_not_happen_is_not_stated(
        nlp: Any, text: str, kind: EventType, cue: str) -> None:
    with firing() as log:
        found = events(nlp, text, kind)
    with switched_off({f"event.factuality.{cue}", LEARNED}):  # the learned model agrees
        stated = events(nlp, text, kind)
    assert found == [] and f"event.factuality.{cue}" in log
    assert stated and all(happened(e) for e in stated)  # what the cue alone decides


@pytest.mark.parametrize(("text", "kind", "cue"), [
    ("The unions are going to hold talks with the minister in Cardiff.",
     EventType.NEGOTIATION, "going-to"),
    ("The summit between Macron and Scholz is scheduled for 9 May.", EventType.MEETING,
     "future-subject"),
    ("The elections will be held in Moldova on 15 December.", EventType.ELECTION,
     "future-subject"),
    ("Tom Baker, who faces trial in Leeds for fraud, resigned on Monday.", EventType.TRIAL,
     "awaited"),
    ("The banker Omar Reyes fled Lagos on Monday while awaiting trial.", EventType.TRIAL,
     "awaited"),
    ("Kovac campaigned in Riga ahead of the November 5 presidential election.",
     EventType.ELECTION, "awaited"),
    ("Shares in Velmar rose in Riga in the run-up to Latvia's presidential election.",
     EventType.ELECTION, "awaited"),
])
def test_an_event_still_to_come_is_planned(nlp: Any, text: str, kind: EventType,
                                           cue: str) -> None:
    with firing() as log:
        found = events(nlp, text, kind)
    with switched_off({f"event.factuality.{cue}", LEARNED}):
        stated = events(nlp, text, kind)
    assert found and all(e.planned for e in found) and f"event.factuality.{cue}" in log
    assert stated and all(happened(e) for e in stated)


def test_a_phrase_of_frequency_makes_an_event_generic_and_dates_nothing(nlp: Any) -> None:
    visit, = events(nlp, "Thousands of pilgrims visit Lourdes every year.", EventType.MEETING)
    assert visit.generic and visit.time is None


@pytest.mark.parametrize(("text", "kind"), [
    # the cue word sits in another clause than the event's
    ("Police arrested Tom Baker in Leeds on Monday, although he can appeal.", EventType.ARREST),
    ("Rebels attacked the town of Goma on Friday, and officials fear more violence.",
     EventType.ATTACK),
    ("Police believe the man, who was arrested in Leeds on Monday, acted alone.",
     EventType.ARREST),
    ("Officials can confirm that troops attacked the village of Tarsk on Monday.",
     EventType.ATTACK),
    ("Ministers can now lift the sanctions imposed after Iraq's invasion of Kuwait.",
     EventType.INVASION),
    ("Russia invaded Ukraine in February 2022, and analysts ask whether it will withdraw.",
     EventType.INVASION),
    ("Why did Russian troops attack the village of Tarsk on Monday?", EventType.ATTACK),
    ("The singer Sarah Jones went on to sign a deal with Harper Collins in 2004.",
     EventType.AGREEMENT),
    ("The army captured Kreminna last week in an attempt to reach the river.",
     EventType.CAPTURE),
    # the purpose of a march is the protest it is (an infinitive of purpose is no cue)
    ("Thousands of people marched through Madrid on Sunday to protest against the war.",
     EventType.PROTEST),
    ("Kennedy visits Leeds and Hull this week to meet voters.", EventType.MEETING),
    # what was faced, or what came before, in the past
    ("Tom Baker faced trial in Leeds in 1990 for fraud.", EventType.TRIAL),
    ("Kovac campaigned in Riga ahead of the May 1992 election in Latvia.", EventType.ELECTION),
])
def test_a_cue_word_elsewhere_leaves_a_past_event_happened(nlp: Any, text: str,
                                                           kind: EventType) -> None:
    found = events(nlp, text, kind)
    assert found and all(happened(e) for e in found)


@pytest.mark.parametrize("cue", CUES, ids=lambda h: h.id)
def test_a_factuality_cue_switched_off_states_the_event_again(nlp: Any, cue: Any) -> None:
    def stated() -> list[tuple[str, bool, bool]]:
        extraction = extract_document(nlp, document_from_text(cue.example, doc_id="example"))
        return [(f.trigger.text, f.planned, f.generic)
                for f in extraction.facts if isinstance(f, Event)]

    on = stated()
    with switched_off({cue.id, LEARNED}):  # the cue alone: the learned model may agree with it
        off = stated()
    assert off != on and not any(not planned and not generic for _, planned, generic in on)
