"""Ingest: files, folders and text → ``kg.model.Document`` (decoded, normalised, with metadata).

    files.py       find articles, decode them, skip what cannot be used (one reason each);
                   the dispatch by suffix to the readers below
    metadata.py    front-matter headers and ``.meta.json`` sidecars, checked
    html.py        web pages: article text and metadata (trafilatura, htmldate)
    feeds.py       RSS and Atom feeds: one article per entry (feedparser)
    records.py     JSON Lines and CSV exports: one article per record
    warc.py        WARC archives: one article per HTML response (FastWARC)
    fetch.py       URLs: polite, cached fetching (httpx)
    found.py       an article found inside a file, or why a part of it is unusable
    links.py       URLs inside inputs: checked, and turned into article ids
    copies.py      syndicated copies: near-duplicates by MinHash/LSH (datasketch)
    slugs.py       IRI-safe slugs
    characters.py  characters a graph cannot carry, replaced 1:1 with U+FFFD

>>> document_from_text("Hello.").text
'Hello.'
"""

from kg.ingest.files import Skipped, document_from_text, read_documents, slugify

__all__ = ["Skipped", "document_from_text", "read_documents", "slugify"]
