"""Ingest: files, folders and text → ``kg.model.Document`` (decoded, normalised, with metadata).

    files.py       find articles, decode them, skip what cannot be used (one reason each)
    metadata.py    front-matter headers and ``.meta.json`` sidecars, checked
    html.py        HTML pages given as articles: their visible text
    characters.py  characters a graph cannot carry, replaced 1:1 with U+FFFD

>>> document_from_text("Hello.").text
'Hello.'
"""

from kg.ingest.files import Skipped, document_from_text, read_documents, slugify

__all__ = ["Skipped", "document_from_text", "read_documents", "slugify"]
