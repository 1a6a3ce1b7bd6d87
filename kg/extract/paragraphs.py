"""A paragraph break always ends a sentence: the component ``kg_paragraphs``.

The small model's parser decides sentence boundaries, and it reads a headline line without a
full stop, or a team-sheet line, as the start of the next paragraph's sentence ("Ad sales
boost Time Warner profit\\n\\nQuarterly profits at …" was one sentence), so a claim, a role or
an event could join words a reader sees as separate. This component runs before the parser
and marks the token after a blank line as a sentence start; spaCy's parser keeps boundaries
set before it. A single line break stays the parser's to judge (hard-wrapped text), but for a
dateline on a line of its own (``sentences.dateline-line``): a news wire sets "CATANIA ,
Sicily 1996-08-29" between the headline and the story with one line break, and the parser took
it as the first words of the story's first sentence (the place as the subject of "said" or
"arrested").

>>> from kg.extract.pipeline import load_pipeline
>>> nlp = load_pipeline()
>>> [s.text for s in nlp("Prices rise\\n\\nPrices rose on Monday.").sents]
['Prices rise\\n\\n', 'Prices rose on Monday.']
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.recovery import dateline_lines
from kg.heuristics import declare, found

PARAGRAPHS = "kg_paragraphs"


@Language.component(PARAGRAPHS, assigns=["token.is_sent_start"])
def paragraph_breaks(doc: Doc) -> Doc:
    """Start a sentence after every whitespace token holding a blank line."""
    for i in range(len(doc) - 1):
        token = doc[i]
        if token.is_space and token.text.count("\n") >= 2:
            doc[i + 1].is_sent_start = True
            _no_break_before_second_word(doc, i + 2)
    for begin, end in found(DATELINE_LINE.id, lambda: dateline_lines(doc.text) or None) or ():
        _own_sentence(doc, begin, end)
    for i in range(1, len(doc)):
        if doc[i].is_quote and doc[i].is_sent_start is None and _ends_line(doc, i):
            doc[i].is_sent_start = False  # a closing quote mark at the end of a line
    return doc


def _own_sentence(doc: Doc, begin: int, end: int) -> None:
    """The characters ``begin:end`` (a line) are a sentence of their own: a sentence starts at
    their first token and at the first word after them, and none inside them nor before the
    next line's second word."""
    span = doc.char_span(begin, end, alignment_mode="expand")
    if span is None or not len(span):
        return
    if span.start > 0:
        doc[span.start].is_sent_start = True
    for token in span[1:]:
        if token.is_sent_start is None:
            token.is_sent_start = False
    after = next((t for t in doc[span.end :] if not t.is_space), None)
    if after is not None:
        after.is_sent_start = True
        _no_break_before_second_word(doc, after.i + 1)  # "Two | Thai policemen were …"


def _ends_line(doc: Doc, i: int) -> bool:
    return i + 1 == len(doc) or (doc[i + 1].is_space and "\n" in doc[i + 1].text)


def _no_break_before_second_word(doc: Doc, start: int) -> None:
    """No sentence start from ``start`` up to the paragraph's second word: constrained to
    start a sentence after the blank line, the parser otherwise often ends it at once, after
    an opening quote mark or the first word ("UK | manufacturing grew …")."""
    words = 0
    for token in doc[start:]:
        if token.is_space and "\n" in token.text:
            return
        if token.is_sent_start is None:
            token.is_sent_start = False
        if not token.is_punct:
            words += 1
            if words == 2:
                return


def add_paragraph_breaks(nlp: Language) -> Language:
    """``nlp`` with ``kg_paragraphs`` before its parser (once)."""
    if PARAGRAPHS not in nlp.pipe_names:
        nlp.add_pipe(PARAGRAPHS, before="parser")
    return nlp


DATELINE_LINE = declare(
    "sentences.dateline-line", "sentences", reads="a line that is a dateline and nothing more",
    writes="token.is_sent_start (before the parser)",
    description="A dateline on a line of its own (\"CATANIA , Sicily 1996-08-29\", "
                "\"LONDON (Reuters) -\") is a sentence of its own: neither the headline above it "
                "nor the story's first sentence below it runs into it, so its place is no "
                "speaker, participant or place of what that sentence says.",
    fn=dateline_lines,
    example="Police arrest five over killing .\nCATANIA , Sicily 1996-08-29\nItalian police "
            "said on Thursday they had arrested five people .")
