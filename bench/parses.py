"""Parse once, extract many times: spaCy parses of an evaluation set cached on disk.

Measuring a heuristic means re-running extraction and resolution with it off; re-running the
neural parts each time would cost minutes per run. The parses are cached as spaCy ``DocBin``s
*before* the merge of the two NERs (``kg_merge_news_ents``), so every kg heuristic — the merge's
included — runs again on each ``extract``; the networks run once per text and model.

    parsed = ParsedSet.of(documents, cache=Path("bench/work/parses/conll-dev"))
    extractions = parsed.extract()                   # every heuristic on
    with switched_off({"ner.mention.nationality-before-person"}):
        extractions = parsed.extract()               # one off

The cache is keyed by the texts, the model's and spaCy's versions and the networks' weights;
a change of kg's rules does not invalidate it (that is the point), but for the rules that run
before the parser (stage ``sentences``: where a sentence must start), whose ids on are in the
key: a parse with one of them off is another parse. Their fires are recorded again at each
``extract`` (the parse that made them is cached).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kg.config import DEFAULT_MODEL  # noqa: E402
from kg.extract.collect import ChunkContext, extraction_from_chunks  # noqa: E402
from kg.extract.pipeline import chunk_bounds  # noqa: E402
from kg.heuristics import fired, in_document, steps  # noqa: E402
from kg.model import Document, Extraction  # noqa: E402

#: The components that run again at every extraction (they hold heuristics); the ones before
#: them are the networks, whose output is cached.
RERUN = ("kg_merge_news_ents", "kg_spacy_labels")

_NLP: dict[str, Any] = {}


def pipeline(model: str = DEFAULT_MODEL) -> Any:
    """The build's pipeline, loaded once per process."""
    if model not in _NLP:
        from kg.extract import load_pipeline

        _NLP[model] = load_pipeline(model)
    return _NLP[model]


def _fingerprint(documents: Sequence[Document], model: str) -> str:
    import spacy

    from kg.build.cache import installed_version
    from kg.extract.pipeline import NEWS_NER_HASHES, split_model

    package, _ = split_model(model)
    digest = hashlib.sha256(f"{model}|{spacy.__version__}|{installed_version(package)}|".encode())
    digest.update(NEWS_NER_HASHES.read_bytes())
    digest.update(("sentences:" + ",".join(h.id for h in steps("sentences")) + "|").encode())
    for document in documents:
        digest.update(document.doc_id.encode() + b"\0" + document.text.encode() + b"\0")
    return digest.hexdigest()[:16]


@dataclass
class ParsedSet:
    """The documents of an evaluation set with their cached parses (pre-merge)."""

    documents: tuple[Document, ...]
    docs: list[list[Any]]  # per document, its chunks' spaCy Docs
    model: str = DEFAULT_MODEL

    @classmethod
    def of(cls, documents: Sequence[Document], cache: Path | None = None,
           model: str = DEFAULT_MODEL, batch_size: int = 32) -> ParsedSet:
        """Parse ``documents`` (or read their parses from ``cache``)."""
        from spacy.tokens import DocBin

        nlp = pipeline(model)
        path = cache / f"{_fingerprint(documents, model)}.spacy" if cache else None
        bounds = [chunk_bounds(d.text) for d in documents]
        if path is not None and path.exists():
            flat = list(DocBin().from_disk(path).get_docs(nlp.vocab))
        else:
            texts = [d.text[b:e] for d, bs in zip(documents, bounds, strict=True) for b, e in bs]
            with nlp.select_pipes(disable=list(RERUN)):
                flat = list(nlp.pipe(texts, batch_size=batch_size))
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                DocBin(store_user_data=True, docs=flat).to_disk(path)
        docs, at = [], 0
        for bs in bounds:
            docs.append(flat[at : at + len(bs)])
            at += len(bs)
        return cls(tuple(documents), docs, model)

    def extract(self) -> list[Extraction]:
        """Every document's extraction with the heuristics that are on now."""
        nlp = pipeline(self.model)
        rerun = [nlp.get_pipe(name) for name in RERUN if name in nlp.pipe_names]
        found = []
        for document, chunks in zip(self.documents, self.docs, strict=True):
            bounds = chunk_bounds(document.text)
            parts = []
            with in_document(document.doc_id):
                for i, (doc, (begin, _)) in enumerate(zip(chunks, bounds, strict=True)):
                    for before_parse in steps("sentences"):  # its fires, as the parse made them
                        if before_parse.fn is not None and before_parse.fn(doc.text):
                            fired(before_parse.id)
                    doc = _copy(doc)
                    for component in rerun:
                        doc = component(doc)
                    parts.append((doc, ChunkContext(document, begin, i == len(bounds) - 1)))
                found.append(extraction_from_chunks(document, parts))
        return found


def _copy(doc: Any) -> Any:
    """A fresh copy of a cached parse (the merge writes into ``doc.ents`` and ``doc.spans``)."""
    copy = doc.copy()
    copy.user_data.clear()  # the chunk text cache of kg.extract.frame, and nothing else
    return copy
