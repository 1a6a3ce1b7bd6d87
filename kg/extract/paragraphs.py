"""A paragraph break always ends a sentence: the component ``kg_paragraphs``.

The small model's parser decides sentence boundaries, and it reads a headline line without a
full stop, or a team-sheet line, as the start of the next paragraph's sentence ("Ad sales
boost Time Warner profit\\n\\nQuarterly profits at …" was one sentence), so a claim, a role or
an event could join words a reader sees as separate. This component runs before the parser
and marks the token after a blank line as a sentence start; spaCy's parser keeps boundaries
set before it. A single line break stays the parser's to judge (hard-wrapped text).

>>> from kg.extract.pipeline import load_pipeline
>>> nlp = load_pipeline()
>>> [s.text for s in nlp("Prices rise\\n\\nPrices rose on Monday.").sents]
['Prices rise\\n\\n', 'Prices rose on Monday.']
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

PARAGRAPHS = "kg_paragraphs"


@Language.component(PARAGRAPHS, assigns=["token.is_sent_start"])
def paragraph_breaks(doc: Doc) -> Doc:
    """Start a sentence after every whitespace token holding a blank line."""
    for i in range(len(doc) - 1):
        token = doc[i]
        if token.is_space and token.text.count("\n") >= 2:
            doc[i + 1].is_sent_start = True
            _no_break_before_second_word(doc, i + 2)
    for i in range(1, len(doc)):
        if doc[i].is_quote and doc[i].is_sent_start is None and _ends_line(doc, i):
            doc[i].is_sent_start = False  # a closing quote mark at the end of a line
    return doc


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
