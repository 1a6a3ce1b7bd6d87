"""Extraction: the only package that imports spaCy.

>>> from kg.extract import load_pipeline, extract_documents  # doctest: +SKIP
"""

from kg.extract.pipeline import (
    extract_document,
    extract_documents,
    load_pipeline,
    model_dir,
    model_mismatches,
)

__all__ = [
    "extract_document", "extract_documents", "load_pipeline", "model_dir", "model_mismatches",
]
