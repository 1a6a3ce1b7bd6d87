"""Extraction: mention cleaning, titles, dates, numbers and chunking, on text written here."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from kg.errors import InputError
from kg.extract import extract_document
from kg.extract.pipeline import chunk_bounds
from kg.extract.values import is_duration, normalise_date, parse_number
from kg.ingest.files import document_from_text
from kg.model import ArticleMeta, EntityKind, Extraction


def extract(nlp: Any, text: str, published: date | None = None) -> Extraction:
    document = document_from_text(text, meta=ArticleMeta(date_published=published))
    return extract_document(nlp, document)


def names(extraction: Extraction, kind: EntityKind | None = None) -> set[str]:
    return {m.name for m in extraction.mentions if kind is None or m.kind is kind}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,730", 1730.0), ("959", 959.0), ("five million", 5_000_000.0),
        ("twenty-five", 25.0), ("1.5 million", 1_500_000.0), ("$1.13bn", 1_130_000_000.0),
        ("£600m", 600_000_000.0), ("two-thirds", 2 / 3), ("half", 0.5), ("hundreds", None),
    ],
)
def test_numbers_are_normalised(text: str, expected: float | None) -> None:
    assert parse_number(text) == pytest.approx(expected) if expected else parse_number(text) is None


@pytest.mark.parametrize(
    ("text", "reference", "expected"),
    [
        ("Feb. 24", date(2022, 5, 19), (date(2022, 2, 24), "day")),
        ("Wednesday", date(2022, 5, 18), (date(2022, 5, 18), "day")),
        ("since Monday", date(2022, 5, 19), (date(2022, 5, 16), "day")),
        ("March 2022", None, (date(2022, 3, 1), "month")),
        ("2014", None, (date(2014, 1, 1), "year")),
        ("December", date(2022, 5, 19), (date(2021, 12, 1), "month")),
        ("Wednesday", None, (None, None)),  # relative and no reference: left as text
        ("nearly two months", date(2022, 5, 19), (None, None)),  # a duration, not a date
    ],
)
def test_dates_are_normalised_against_the_publication_date(
    text: str, reference: date | None, expected: tuple[date | None, str | None]
) -> None:
    assert normalise_date(text, reference) == expected


@pytest.mark.parametrize(
    ("text", "duration"),
    [("two weeks", True), ("the past day", True), ("last month", False), ("two years ago", False)],
)
def test_durations_are_told_from_dates(text: str, duration: bool) -> None:
    assert is_duration(text) is duration


def test_mentions_lose_the_possessive_and_leading_the_but_keep_exact_offsets(nlp: Any) -> None:
    text = "The United Nations said on Monday that the World Bank's loans had doubled."
    extraction = extract(nlp, text)
    assert {"United Nations", "World Bank"} <= names(extraction, EntityKind.ORGANIZATION)
    for mention in extraction.mentions:
        assert text[mention.begin : mention.end] == mention.text
        assert not mention.text.lower().startswith("the ")
        assert not mention.text.endswith("'s")


def test_titles_are_kept_apart_from_the_name(nlp: Any) -> None:
    text = "French President Emmanuel Macron met Chancellor Olaf Scholz in Berlin."
    extraction = extract(nlp, text)
    people = {m.name: m.titles for m in extraction.mentions if m.kind is EntityKind.PERSON}
    assert people.get("Emmanuel Macron") == ("President",)
    assert "Olaf Scholz" in people


def test_portfolio_words_before_a_title_are_not_organisations(nlp: Any) -> None:
    extraction = extract(nlp, "He spoke with Defence Minister Ben Wallace on Tuesday.")
    assert "Defence" not in names(extraction)
    wallace = [m for m in extraction.mentions if m.name == "Ben Wallace"]
    assert wallace and wallace[0].titles == ("Defence Minister",)


def test_names_fold_line_breaks(nlp: Any) -> None:
    text = "Officials at the International Monetary\nFund in Washington disagreed."
    extraction = extract(nlp, text)
    imf = [m for m in extraction.mentions if m.kind is EntityKind.ORGANIZATION]
    assert imf and imf[0].name == "International Monetary Fund"
    assert imf[0].text == "International Monetary\nFund"


def test_dates_and_numbers_are_collected_with_offsets(nlp: Any) -> None:
    text = "Some 1,700 workers went on strike on Friday in Lagos."
    extraction = extract(nlp, text, date(2023, 3, 8))
    (quantity,) = [q for q in extraction.quantities if q.value == 1700]
    assert quantity.qualifier == "approximately" and quantity.unit == "worker"
    (time,) = extraction.times
    assert time.text == "Friday" and time.value == date(2023, 3, 3)
    for span in (*extraction.quantities, *extraction.times):
        assert text[span.begin : span.end] == span.text


def test_sentences_index_the_text_and_mentions_point_into_them(nlp: Any) -> None:
    text = "Angela Merkel arrived.\n\n  Boris Johnson left London. "
    extraction = extract(nlp, text)
    assert [text[s.begin : s.end] for s in extraction.sentences] == [
        "Angela Merkel arrived.", "Boris Johnson left London.",
    ]
    for mention in extraction.mentions:
        sentence = extraction.sentences[mention.sentence]
        assert sentence.begin <= mention.begin < mention.end <= sentence.end


def test_a_headline_without_a_full_stop_is_its_own_sentence(nlp: Any) -> None:
    # the parser alone joins a headline to the first line of the article
    text = ("Carmakers report slower sales in Europe\n\n"
            "Sales of new cars in Europe fell 3% in March, an industry group said on Monday.")
    extraction = extract(nlp, text)
    assert [text[s.begin : s.end] for s in extraction.sentences] == [
        "Carmakers report slower sales in Europe",
        "Sales of new cars in Europe fell 3% in March, an industry group said on Monday.",
    ]


def test_a_paragraph_keeps_its_first_words_and_closing_quote(nlp: Any) -> None:
    # forced to start a sentence after a blank line, the parser split off a first word or
    # an opening quote mark; a closing quote at the end of a line is its sentence's
    text = ("Car sales 'cooling'\n\n"
            "UK manufacturing grew at its slowest pace in a year, according to a survey.\n\n"
            '"We expect a weak spring," the survey\'s author said. "Orders are down."\n\n'
            "Prices rose.")
    sentences = [text[s.begin : s.end] for s in extract(nlp, text).sentences]
    assert sentences == [
        "Car sales 'cooling'",
        "UK manufacturing grew at its slowest pace in a year, according to a survey.",
        '"We expect a weak spring," the survey\'s author said.', '"Orders are down."',
        "Prices rose.",
    ]


def test_facts_come_from_the_body_not_the_headline(nlp: Any) -> None:
    headline = "Mayor Smith 'quits over bridge deal'\n\n"
    body = "The mayor of Springfield, John Smith, said on Monday he would resign."
    extraction = extract(nlp, headline + body)
    assert extraction.facts, "the body's facts are kept"
    first = [s.index for s in extraction.sentences if s.end <= len(headline)]
    assert first and not [f for f in extraction.facts if set(f.evidence.sentences) <= set(first)]
    # a first paragraph that is a sentence is no headline
    assert extract(nlp, body + "\n\nHe gave no reason.").facts


def test_long_articles_are_split_in_chunks_with_exact_offsets(nlp: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr("kg.extract.pipeline.MAX_CHUNK_CHARS", 200)
    paragraph = "Barack Obama visited Kenya. Nairobi welcomed him warmly.\n\n"
    text = paragraph * 12
    extraction = extract(nlp, text)
    assert len([m for m in extraction.mentions if m.name == "Barack Obama"]) == 12
    assert all(text[m.begin : m.end] == m.text for m in extraction.mentions)
    indexes = [s.index for s in extraction.sentences]
    assert indexes == list(range(len(indexes))) and len(indexes) >= 24


@pytest.mark.parametrize("limit", [5, 50, 1000])
def test_chunks_cover_the_text_without_gaps(limit: int) -> None:
    text = ("word " * 40 + "\n") * 30
    bounds = chunk_bounds(text, limit)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    assert all(0 < end - begin <= limit for begin, end in bounds)


@pytest.mark.parametrize(
    ("text", "name", "titles"),
    [
        ("Alaska Gov. Sarah Palin spoke on Monday.", "Sarah Palin", ("Gov.",)),
        ("Since Comeaux escaped, police have searched the county.", "Comeaux", ()),
        ("Tory Dominic Grieve said the bill was flawed.", "Dominic Grieve", ("Tory",)),
    ],
)
def test_a_person_inside_a_longer_span_is_cut_out(nlp: Any, text: str, name: str,
                                                  titles: tuple[str, ...]) -> None:
    people = [(m.name, m.titles) for m in extract(nlp, text).mentions
              if m.kind is EntityKind.PERSON]
    assert people == [(name, titles)]


@pytest.mark.parametrize("text", ["", "   \n\n  "])
def test_an_empty_or_blank_text_gives_nothing_and_does_not_crash(nlp: Any, text: str) -> None:
    assert list(nlp(text).ents) == []  # the pipeline itself, as an API caller runs it
    with pytest.raises(InputError, match=r"<string>: (empty|blank) file"):
        extract(nlp, text)  # a document is refused with one line saying why


@pytest.mark.parametrize(("text", "name", "kind"), [
    ("Settlers moved deeper into the West Bank on Monday.", "West Bank", EntityKind.PLACE),
    ("Shares of the Halvorsen Bank fell on Monday.", "Halvorsen Bank",
     EntityKind.ORGANIZATION),
])
def test_a_compass_word_before_an_organisations_word_names_a_land(
        nlp: Any, text: str, name: str, kind: EntityKind) -> None:
    """A name's last word tells its class ("Halvorsen Bank"), but not after a compass word
    alone: the West Bank is no bank."""
    found = [m for m in extract(nlp, text).mentions if m.name == name]
    assert found and found[0].kind is kind


def test_a_nation_or_people_by_its_noun_is_no_mention(nlp: Any) -> None:
    """A one-word name the tagger reads as a person or body that only names a people
    ("Chechens", "Britons", "Azeris") refers to no one in particular."""
    text = "Chechens and Azeris clashed on Monday, and two Britons were hurt, said Anna Berg."
    found = names(extract(nlp, text))
    assert not found & {"Chechens", "Azeris", "Britons"} and "Anna Berg" in found
