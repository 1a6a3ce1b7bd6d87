"""A dateline on a line of its own is a sentence of its own (``sentences.dateline-line``).

Made-up text in the forms news wires use (Reuters' "PLACE , Region 1996-08-29" and "LONDON
(Reuters) -", AP's "OAKVILLE, Ont. (AP) -") and a BBC-style title; no agency's own text.
"""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract import extract_document
from kg.extract.recovery import dateline_end, dateline_lines, dateline_places
from kg.heuristics import firing, switched_off
from kg.ingest.files import document_from_text
from kg.model import Claim, Event

RULE = "sentences.dateline-line"

AP = ("Gunman kills two in bar .\nOAKVILLE, Ont. (AP) -\n"
      "A gunman killed two people in a bar on Friday , police said .")


def _lines(text: str) -> list[str]:
    return [text[b:e] for b, e in dateline_lines(text)]


@pytest.mark.parametrize(("text", "line"), [
    ("Port strike ends .\nHARWICH , England 1996-08-29\nDockers went back .",
     "HARWICH , England 1996-08-29"),
    ("Rates steady .\nNEW YORK 1996-08-22\nRates held .", "NEW YORK 1996-08-22"),
    ("Minister quits over row\nLONDON (Reuters) -\nThe minister resigned .", "LONDON (Reuters) -"),
    (AP, "OAKVILLE, Ont. (AP) -"),
    ("Talks resume\nGENEVA, May 18 -\nTalks resumed on Monday .", "GENEVA, May 18 -"),
    # a month abbreviated, with or without its stop (issue 35)
    ("Talks resume\nNAIROBI, Aug 29 (Reuters) -\nTalks resumed .", "NAIROBI, Aug 29 (Reuters) -"),
    ("Talks resume\nParis, Sept. 3 (AFP) -\nTalks resumed .", "Paris, Sept. 3 (AFP) -"),
    # tokenised text spaces the agency's brackets apart (issue 35)
    ("Talks resume\nLONDON , Aug 29 ( Reuters ) -\nTalks resumed .",
     "LONDON , Aug 29 ( Reuters ) -"),
])
def test_a_dateline_on_its_own_line_is_found(text: str, line: str) -> None:
    assert _lines(text) == [line]


@pytest.mark.parametrize("text", [
    "KYIV, May 18 (Reuters) - Nearly 1,000 people fled the floods .",  # dateline opens the story
    "SOCCER - LEAGUE RESULTS\nLONDON is wet .",  # a headline's topic, then a sentence
    "Ad sales boost profit\n\nQuarterly profits rose 76% .",  # a BBC title
    "Oil prices rise\nPrices rose on Monday .",  # a title and a hard-wrapped line
    "Hove : Sussex 363 ( W. Athey 111 )",  # a results line
    "MOSCOW 1996-08-30 to 1996-09-02 : the fair runs .",  # a date range, then words
])
def test_no_other_line_is_a_dateline_line(text: str) -> None:
    assert _lines(text) == []


@pytest.mark.parametrize(("text", "dateline", "places"), [
    ("NAIROBI, Aug 29 (Reuters) - Police said the talks ended .", "NAIROBI, Aug 29 (Reuters) - ",
     ["NAIROBI"]),
    ("Paris, Sept. 3 (AFP) - The minister resigned .", "Paris, Sept. 3 (AFP) - ", ["Paris"]),
    ("Jan Smith said the talks ended .", None, []),  # "Jan" is a given name, not January
    ("Jan , Aug 29 - a note .", None, []),  # a month is no dateline's place
])
def test_an_abbreviated_month_dates_a_dateline(text: str, dateline: str | None,
                                                places: list[str]) -> None:
    end = dateline_end(text, 0)
    assert (text[:end] if end is not None else None) == dateline
    assert [text[b:e] for b, e in dateline_places(text, 0, len(text))] == places


def test_the_dateline_line_is_its_own_sentence(nlp: Any) -> None:
    text = "Port strike ends\nHARWICH , England 1996-08-29\nDockers went back to work on Friday ."
    sentences = [s.text.strip() for s in nlp(text).sents]
    assert "HARWICH , England 1996-08-29" in sentences
    assert sentences[-1].startswith("Dockers")
    with switched_off({RULE}):
        assert "HARWICH , England 1996-08-29" not in [s.text.strip() for s in nlp(text).sents]


def test_the_story_after_the_dateline_is_not_cut_after_its_first_word(nlp: Any) -> None:
    text = ("Ferry guards hurt .\nPAKSE , Laos 1996-08-25\nTwo Lao ferry guards were badly hurt "
            "on Sunday , officers said .\n")
    sentences = [s.text.strip() for s in nlp(text).sents]
    assert sentences[-1] == "Two Lao ferry guards were badly hurt on Sunday , officers said ."


def _parties(nlp: Any, text: str) -> set[str]:
    extraction = extract_document(nlp, document_from_text(text, doc_id="dateline"))
    found = set()
    for fact in extraction.facts:
        if isinstance(fact, Event):
            found |= {p.text for p in (*fact.agents, *fact.patients, *fact.places)}
        elif isinstance(fact, Claim) and fact.speaker is not None:
            found.add(fact.speaker.text)
    return found


def test_the_dateline_place_takes_no_part_in_the_story(nlp: Any) -> None:
    with firing() as log:
        parties = _parties(nlp, AP)
    assert RULE in log
    assert {"gunman", "two people", "police"} <= parties
    assert not parties & {"OAKVILLE", "AP"}
    with switched_off({RULE}):  # what the parser made of the glued line
        assert parties != _parties(nlp, AP)



@pytest.mark.parametrize(("text", "dateline", "places"), [
    ("PARIS ( AFP ) - Rain fell .", "PARIS ( AFP ) - ", ["PARIS"]),
    ("LONDON , Aug 29 ( Reuters ) - Rain fell .", "LONDON , Aug 29 ( Reuters ) - ", ["LONDON"]),
    ("Paris ( AFP ) - Rain fell .", "Paris ( AFP ) - ", ["Paris"]),
    ("Talks ( Geneva ) - a summary", None, []),  # a title's words, no place GeoNames knows
])
def test_an_agency_in_spaced_brackets_ends_a_dateline(text: str, dateline: str | None,
                                                      places: list[str]) -> None:
    end = dateline_end(text, 0)
    assert (text[:end] if end is not None else None) == dateline
    assert [text[b:e] for b, e in dateline_places(text, 0, len(text))] == places
