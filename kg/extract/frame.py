"""Where a parsed chunk sits in its document: what every collector and fact rule needs to
turn a chunk's token and character positions into document offsets and sentence numbers.

>>> from kg.model import Document
>>> from kg.model import ArticleMeta
>>> frame = ChunkFrame(Document("d", "d.txt", "A. B.", ArticleMeta(), "0" * 64), 0, 3, (0, 2))
>>> frame.sentence_of_token(2)
4
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kg.model import Document

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Where ``doc_text`` keeps a parsed chunk's text.
_TEXT_KEY = "kg.text"


def doc_text(doc: Doc) -> str:
    """``doc.text``, joined once per parsed chunk: spaCy joins every token's text again at each
    call, which cost a build 13% of its time where a rule asked it once per name.

    >>> from spacy.tokens import Doc
    >>> from spacy.vocab import Vocab
    >>> doc = Doc(Vocab(), words=["Kyiv", "fell"])
    >>> doc_text(doc), doc_text(doc) is doc_text(doc)
    ('Kyiv fell ', True)
    """
    text = doc.user_data.get(_TEXT_KEY)
    if text is None:
        text = doc.user_data[_TEXT_KEY] = doc.text
    return text


@dataclass(frozen=True, slots=True)
class ChunkFrame:
    """What collectors need to place spans of one chunk in the document."""

    document: Document
    offset: int
    first_sentence: int
    sentence_starts: tuple[int, ...]  # token index where each sentence of the chunk starts

    def sentence_of_token(self, token_index: int) -> int:
        """Global index of the sentence holding token ``token_index`` of the chunk."""
        return self.first_sentence + bisect_right(self.sentence_starts, token_index) - 1
