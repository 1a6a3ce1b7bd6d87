"""kg.extract.ner.greedy: spaCy's greedy NER decoding without its per-token move checks gives
exactly spaCy's entities, for the small model's ``ner`` and for the news NER."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from spacy.tokens import Doc, Span

from kg.config import MODEL_PACKAGE
from kg.extract.ner.component import (
    GREEDY_NAMES,
    SMALL_ENTS_KEY,
    add_news_ner,
    add_spacy_labels,
    use_greedy_ner,
)
from kg.extract.ner.greedy import GreedyNer, supports

BBC = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "bbc"
#: Made-up texts with what the decoder handles apart: entities at the start and the end of a
#: Doc, white space and paragraph breaks (sentence starts an entity never runs across),
#: a one-token Doc, values of several tokens, a name broken over a line. (An empty text is
#: added as a bare Doc: the pipeline's attribute-ruler tables refuse one.)
TEXTS = [
    "Olaf Scholz met the chief executive of Siemens AG in Paris on Monday, 3 March 2025.",
    "Shares in Northwind Holdings rose 4.5% to $12.30 in New York.\n\nAnalysts at Bank of "
    "Freedonia said the third quarter would be weaker.",
    "  \n\n  ",
    "Berlin",
    "The International Monetary\nFund said on Tuesday that about two million people in "
    "Lower Saxony had lost their jobs since the 1990s.",
    "\"We will not leave,\" said Maria Costa, 54, a nurse from Lagos.\n\nPolice said 12 people "
    "were arrested in the morning.\nThe European Union",
]


@pytest.fixture(scope="module")
def stages() -> Any:
    """The build's pipeline with spaCy's decoding (no greedy components)."""
    from kg.extract import load_pipeline

    return add_spacy_labels(add_news_ner(load_pipeline(MODEL_PACKAGE), greedy=False))


def parsed(nlp: Any, texts: list[str]) -> list[Any]:
    """The Docs up to the NERs: tagged, parsed, with kg's paragraph breaks, no entities."""
    keep = [n for n in nlp.pipe_names if n not in ("ner", "news_ner")
            and not n.startswith("kg_") or n == "kg_paragraphs"]
    with nlp.select_pipes(enable=keep):
        return list(nlp.pipe(texts))


def split_names(vocab: Any) -> list[Doc]:
    """Docs whose sentences start inside a name: spaCy's NER never runs an entity across a
    sentence start, so it must cut "Angela | Merkel" and "New | York Stock Exchange"."""
    words = ["Angela", "Merkel", "visited", "the", "New", "York", "Stock", "Exchange", "in",
             "Manhattan", "on", "Monday", "last", "week"]
    return [Doc(vocab, words=words, sent_starts=[i in starts for i in range(len(words))])
            for starts in ({0, 1}, {0, 5, 6}, {0, 7, 13}, {0, 12})]


def spacy_entities(ner: Any, docs: list[Any]) -> list[list[tuple[int, int, str]]]:
    copies = [doc.copy() for doc in docs]
    ner.set_annotations(copies, ner.predict(copies))
    return [[(e.start, e.end, e.label_) for e in doc.ents] for doc in copies]


@pytest.mark.parametrize("name", ["ner", "news_ner"])
def test_the_same_entities_as_spacy(stages: Any, name: str) -> None:
    ner = stages.get_pipe(name)
    docs = parsed(stages, TEXTS) + [stages.make_doc("")] + split_names(stages.vocab)
    expected = spacy_entities(ner, docs)
    assert sum(map(len, expected)) > 10  # the texts have entities to find
    assert GreedyNer(ner).predict(docs) == expected
    # one Doc at a time (no neighbours in the batch) gives the same
    assert [GreedyNer(ner).predict([doc])[0] for doc in docs] == expected


@pytest.mark.skipif(not BBC.is_dir(), reason="the BBC development corpus is not here")
@pytest.mark.parametrize("name", ["ner", "news_ner"])
def test_the_same_entities_as_spacy_on_news(stages: Any, name: str) -> None:
    texts = [p.read_text(errors="replace") for p in sorted(BBC.glob("*.txt"))[:40]]
    ner = stages.get_pipe(name)
    docs = parsed(stages, texts)
    expected = spacy_entities(ner, docs)
    assert sum(map(len, expected)) > 400
    assert GreedyNer(ner).predict(docs) == expected


def test_the_pipeline_gives_the_same_docs(stages: Any) -> None:
    from kg.extract import load_pipeline

    greedy = load_pipeline()  # the default: both NERs greedy
    assert set(GREEDY_NAMES.values()) <= set(greedy.pipe_names)
    assert {"ner", "news_ner"} <= set(greedy.disabled)

    def seen(doc: Any) -> tuple:
        return ([(e.start, e.end, e.label_) for e in doc.ents],
                [(s.start, s.end, s.label_) for s in doc.spans[SMALL_ENTS_KEY]],
                [t.ent_iob_ for t in doc])

    slow = [seen(d) for d in stages.pipe(TEXTS)]
    assert [seen(d) for d in greedy.pipe(TEXTS)] == slow
    assert [seen(greedy(t)) for t in TEXTS] == slow  # __call__ as pipe


def test_preset_entities_go_through_spacys_decoding(stages: Any) -> None:
    # the merge's input never has them; a Doc given with entities keeps what spaCy keeps
    ner = stages.get_pipe("ner")
    doc, = parsed(stages, ["Olaf Scholz met the chief executive of Siemens in Paris."])
    doc.set_ents([Span(doc, 4, 6, label="PRODUCT")], default="unmodified")  # chief executive
    expected = spacy_entities(ner, [doc])
    assert (4, 6, "PRODUCT") in expected[0]
    assert [(e.start, e.end, e.label_) for e in GreedyNer(ner)(doc).ents] == expected[0]


def test_adding_twice_changes_nothing() -> None:
    from kg.extract import load_pipeline

    nlp = load_pipeline()
    names = list(nlp.pipe_names)
    assert use_greedy_ner(nlp).pipe_names == names
    assert add_news_ner(nlp).pipe_names == names


def test_a_ner_it_does_not_reproduce_is_refused() -> None:
    beam = SimpleNamespace(name="beam_ner", cfg={"beam_width": 4}, model=None)
    assert not supports(beam)
    with pytest.raises(ValueError, match="beam_ner"):
        GreedyNer(beam)
