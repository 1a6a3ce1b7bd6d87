"""The attribute ruler matched through tables finds exactly what spaCy's Matcher finds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spacy

from kg.config import MODEL_PACKAGE
from kg.extract.attributes import TableMatches, index_attribute_ruler
from kg.extract.pipeline import model_dir

#: Every kind of pattern of the small model's ruler: tags, words with tags, dependencies,
#: white space, regular expressions, NOT_IN and two-token patterns.
TEXTS = [
    "She ain't gonna say nothin' to y'all, and we gotta go. Let's c'm on!",
    "There is a problem and there are two. It's what he does; they've had it.\n\nNew line.",
    "The minister, who had said that he would not resign, got 52% of the vote on Monday.",
    "I'd go if I could. Whether or not he comes, I'm here.   Spaces   and\ttabs.",
    "Both sides said this was all that was left; each of them got what it wanted.",
]
SEEDS = sorted((Path(__file__).resolve().parents[1] / "seeds").glob("*.txt"))


@pytest.fixture(scope="module")
def plain() -> Any:
    return spacy.load(model_dir(MODEL_PACKAGE))


def test_tables_find_the_matchers_matches(plain: Any) -> None:
    ruler = plain.get_pipe("attribute_ruler")
    tables = TableMatches(ruler)
    texts = TEXTS + [p.read_text() for p in SEEDS]
    with plain.select_pipes(enable=["tok2vec", "tagger", "parser"]):
        docs = list(plain.pipe(texts))
    matched = [ruler.match(doc) for doc in docs]
    assert all(matched)
    assert [tables(doc) for doc in docs] == matched
    assert not len(tables.rest)  # every pattern of the small model fits the tables


def test_tokens_get_the_same_attributes(plain: Any) -> None:
    indexed = index_attribute_ruler(spacy.load(model_dir(MODEL_PACKAGE)))
    assert isinstance(indexed.get_pipe("attribute_ruler").match, TableMatches)
    for text in TEXTS:
        expected = [(t.pos_, str(t.morph), t.lemma_, t.dep_) for t in plain(text)]
        assert [(t.pos_, str(t.morph), t.lemma_, t.dep_) for t in indexed(text)] == expected


def test_indexing_twice_is_harmless(plain: Any) -> None:
    nlp = index_attribute_ruler(spacy.load(model_dir(MODEL_PACKAGE)))
    tables = nlp.get_pipe("attribute_ruler").match
    assert index_attribute_ruler(nlp).get_pipe("attribute_ruler").match is tables
