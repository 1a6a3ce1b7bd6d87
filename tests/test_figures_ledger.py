"""Whose a figure is, and what the conflicting-figures ledger lists (issue 16): a ledger of
real disagreements, not of different things that share a unit and a verb. Sentences written
for these tests (general English, from no seed or dev article)."""

from __future__ import annotations

from typing import Any

from kg.extract import extract_document
from kg.ingest.files import document_from_text
from kg.model import Figure


def figures(nlp: Any, text: str) -> list[Figure]:
    extraction = extract_document(nlp, document_from_text(text, doc_id="t"))
    return [f for f in extraction.facts if isinstance(f, Figure)]


def test_a_company_named_in_the_subject_owns_the_figure_before_its_country(nlp: Any) -> None:
    (profit,) = [f for f in figures(nlp, "Quarterly profits at US media giant Acme Media "
                                         "jumped to $1.1bn in the three months to December.")
                 if f.measure is not None]
    assert profit.measure is not None and profit.measure.anchor is not None
    assert profit.measure.anchor.text == "Acme Media"


def test_a_profit_and_a_price_in_one_country_are_no_conflict(nlp: Any) -> None:
    import kg

    graph = kg.build_graph([
        "Quarterly profits at US media giant Acme Media jumped to $1.1bn in the three months "
        "to December.",
        "US crude oil futures jumped to $53.09 a barrel in New York on Friday."], nlp=nlp)
    assert list(kg.query(graph, "conflicting-figures")) == []
