"""From parsed spaCy chunks to one ``kg.model.Extraction`` with document offsets.

Each collector reads a parsed chunk and returns model objects whose offsets are already
shifted by the chunk's start; sentence numbers are made global across chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kg.extract.descriptions import described_people
from kg.extract.entities import fold_space, raw_mentions
from kg.extract.frame import ChunkFrame, doc_text
from kg.extract.recovery import recovered_mentions, with_headline_names
from kg.extract.rules import facts_of
from kg.extract.values import (
    DATE_LABELS,
    NUMBER_LABELS,
    is_dated_time,
    normalise_date,
    number_qualifier,
    number_unit,
    parse_number,
)
from kg.ingest.metadata import headline
from kg.model import Document, Extraction, Fact, Mention, Quantity, Sentence, TimeExpression

if TYPE_CHECKING:
    from spacy.tokens import Doc


@dataclass(frozen=True, slots=True)
class ChunkContext:
    """Where a parsed chunk sits in its document."""

    document: Document
    offset: int
    last: bool


def sentences_of(doc: Doc, offset: int, first: int) -> tuple[list[Sentence], tuple[int, ...]]:
    """Sentences of a chunk trimmed of surrounding white space (blank ones dropped), and the
    token index where each starts."""
    found: list[Sentence] = []
    starts: list[int] = []
    for sent in doc.sents:
        text = sent.text
        stripped = text.strip()
        if not stripped:
            continue
        begin = sent.start_char + (len(text) - len(text.lstrip()))
        found.append(Sentence(first + len(found), offset + begin, offset + begin + len(stripped)))
        starts.append(sent.start)
    return found, tuple(starts)


def mentions_of(doc: Doc, frame: ChunkFrame) -> list[Mention]:
    """Entity mentions of a chunk with document offsets."""
    mentions = []
    for raw in raw_mentions(doc):
        span = doc[raw.start : raw.end]
        begin = frame.offset + span.start_char
        end = frame.offset + span.end_char
        mentions.append(
            Mention(
                begin=begin,
                end=end,
                text=frame.document.text[begin:end],
                name=fold_space(span.text),
                kind=raw.kind,
                ner_label=raw.label,
                sentence=frame.sentence_of_token(raw.start),
                titles=raw.titles,
            )
        )
    return mentions


def times_of(doc: Doc, frame: ChunkFrame) -> list[TimeExpression]:
    """DATE expressions of a chunk, normalised against the publication date."""
    reference = frame.document.meta.date_published
    found = []
    for ent in doc.ents:
        if ent.label_ not in DATE_LABELS and not is_dated_time(ent.text):
            continue
        value, granularity = normalise_date(fold_space(ent.text), reference)
        begin, end = frame.offset + ent.start_char, frame.offset + ent.end_char
        found.append(
            TimeExpression(
                begin, end, frame.document.text[begin:end],
                frame.sentence_of_token(ent.start), value, granularity,
            )
        )
    return found


def quantities_of(doc: Doc, frame: ChunkFrame) -> list[Quantity]:
    """Numbers of a chunk with value, qualifier and what they count."""
    found = []
    for ent in doc.ents:
        if ent.label_ not in NUMBER_LABELS:
            continue
        begin, end = frame.offset + ent.start_char, frame.offset + ent.end_char
        found.append(
            Quantity(
                begin, end, frame.document.text[begin:end], frame.sentence_of_token(ent.start),
                parse_number(fold_space(ent.text)), number_qualifier(ent), number_unit(ent),
            )
        )
    return found


def headline_sentences(text: str, sentences: Sequence[Sentence]) -> set[int]:
    """The sentences of the article's headline (``kg.ingest.metadata.headline``).

    Headlines are written in their own grammar ("Carmaker 'to cut jobs'", "Comeback King
    Smith", "Probe into bank deals") and say again what the article's first lines say in
    full, so kg takes facts from the body only; the headline's names still count
    (``with_headline_names``).

    >>> text = "Carmaker 'to cut jobs'\\n\\nThe company said it would cut 2,000 jobs."
    >>> headline_sentences(text, [Sentence(0, 0, 22), Sentence(1, 24, 66)])
    {0}
    """
    found = headline(text)
    if found is None:
        return set()
    return {i for i, s in enumerate(sentences) if s.end <= found[1] + 1}


def _descriptions(frames: Sequence[tuple[Doc, ChunkFrame]],
                  mentions: Sequence[Mention]) -> list[Mention]:
    """The people each chunk writes as descriptions ("the 40-year-old American"), read with
    the article's final names."""
    found = []
    for doc, frame in frames:
        end = frame.offset + len(doc_text(doc))
        found += described_people(doc, frame, [m for m in mentions
                                               if frame.offset <= m.begin and m.end <= end])
    return found


def extraction_from_chunks(
    document: Document, parts: Sequence[tuple[Doc, ChunkContext]]
) -> Extraction:
    """One document's extraction from its parsed chunks, in order."""
    sentences: list[Sentence] = []
    mentions: list[Mention] = []
    times: list[TimeExpression] = []
    quantities: list[Quantity] = []
    facts: list[Fact] = []
    frames = []
    for doc, context in parts:
        chunk_sentences, starts = sentences_of(doc, context.offset, len(sentences))
        frame = ChunkFrame(document, context.offset, len(sentences), starts or (0,))
        frames.append((doc, frame))
        sentences += chunk_sentences
        chunk_mentions, chunk_times = mentions_of(doc, frame), times_of(doc, frame)
        mentions += chunk_mentions
        times += chunk_times
        quantities += quantities_of(doc, frame)
        facts += facts_of(doc, frame, chunk_mentions, chunk_times)
    headline = headline_sentences(document.text, sentences)
    if headline:
        facts = [f for f in facts
                 if not f.evidence.sentences or not set(f.evidence.sentences) <= headline]
    mentions = with_headline_names(document.text, sentences, sorted(
        [*mentions, *recovered_mentions(document.text, sentences, mentions)],
        key=lambda m: m.begin))
    mentions = sorted([*mentions, *_descriptions(frames, mentions)], key=lambda m: m.begin)
    return Extraction(
        document, tuple(sentences), tuple(mentions), tuple(times), tuple(quantities),
        tuple(facts),
    )

