"""kg's own news NER: a ``ner`` trained by the project on news, inside the small pipeline.

The small model keeps its tagger, parser and lemmatizer, and its own ``ner`` for dates,
numbers, money and nationalities; names of people, organisations and places (PER, ORG, LOC,
MISC) come from the trained component shipped in ``model/``. ``training.py`` reproduces that
component from ``config.cfg`` and ``../shared/data``; ``component.py`` adds it to a loaded
pipeline.

>>> from kg.extract.ner import add_news_ner  # doctest: +SKIP
>>> nlp = add_news_ner(load_pipeline())  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["add_news_ner"]


def add_news_ner(nlp: Language, **options: Any) -> Language:
    """The small pipeline ``nlp`` with the news NER added (see ``component.add_news_ner``)."""
    from kg.extract.ner.component import add_news_ner as add

    return add(nlp, **options)
